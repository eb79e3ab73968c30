"""A stronger Oshaka Trick bot: determinized Monte Carlo search (PIMC) over the fast path.

For a card to play or a card to place the bot deals the cards it cannot see
to the other seats at random (as many as each still holds; a seat that did
not follow the lead colour in the current trick has none of it), plays the
round to its end on ``controller.games.oshaka_trick.fast`` for every legal
choice with a quick policy for every seat, and picks the choice with the best
mean of its own round score less the other seats' mean (a game is won on the
totals, so points kept from the others count too). The same deals serve every
choice (common random numbers).

``samples`` deals per decision keep it deterministic for its ``random.Random``
(a resumed game plays on as the uninterrupted one); ``budget`` seconds cap the
search so the table never waits longer. Choosing who leads round 2 and seats
without a registered hand go to the heuristic ``OshakaBot``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from controller.bots.search_bot import SearchBot, sum_over_deals
from controller.games.base import Action
from controller.games.oshaka_trick.actions import Place, Play
from controller.games.oshaka_trick.bots import OshakaBot
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.fast import FACE_UP, FastRound, deck, to_card, to_int
from controller.games.oshaka_trick.state import Phase

DEFAULT_SAMPLES = 48  # deals per decision at the table's default 0.3 s budget


def _value(fast: FastRound, seat: int, card: int) -> int:
    """What taking ``card`` is worth to ``seat`` now: its gain face up, -1 down, or the penalty."""
    if fast.forced(seat, card):
        return -(card & 15)
    return max((card & 15) - fast.tops[seat][card >> 4], -1)


def policy_place(fast: FastRound) -> bool:
    """Face up unless it opens a third colour in round 2 for a small gain."""
    seat, card = fast.winner, fast.to_place[0]
    opens = not fast.tops[seat][card >> 4]
    return not (fast.round2 and opens and fast.ncolumns[seat] == 2 and (card & 15) <= 4)


def policy_playout(fast: FastRound, rng: random.Random, noise: float = 0.1) -> list[int]:
    """Play ``fast`` to its end with the quick policy; the round scores.

    A seat plays the card that wins the trick when the trick is worth taking
    (the cards' values to it, as ``_value``), else its highest card that
    loses it; with probability ``noise`` a random legal card.
    """
    random_ = rng.random
    choice = rng.choice
    players = fast.players
    while not fast.over:
        if fast.placing:
            fast.place(policy_place(fast))
            continue
        legal = fast.legal()
        if len(legal) == 1 or random_() < noise:
            fast.play(legal[0] if len(legal) == 1 else choice(legal))
            continue
        seat = fast.turn
        trick = fast.trick
        position = len(trick)
        weight = 1.0 if position == players - 1 else 0.5
        taken = sum(_value(fast, seat, c) for c in trick)
        best_card, best_score = legal[0], -1e9
        for card in legal:
            probe = [*trick, card]
            if FastRound.trick_winner(probe) == position:
                score = weight * (taken + _value(fast, seat, card))
            else:
                score = 0.0
            score += 0.01 * (card & 15)
            if score > best_score:
                best_card, best_score = card, score
        fast.play(best_card)
    return fast.scores()


class OshakaSearchBot(SearchBot[OshakaBot]):
    """Chooses an action for one seat by PIMC search; deterministic for a given ``rng``."""

    fallback_bot = OshakaBot
    default_samples = DEFAULT_SAMPLES

    def choose(self, engine: OshakaTrick, seat: int) -> Action:
        legal, deadline = self.legal_and_deadline(engine, seat)
        hand = engine.registered_hand(seat)
        if hand is None or engine.phase not in (Phase.PLAY, Phase.PLACE) or len(legal) == 1:
            return self.fallback.choose(engine, seat) if len(legal) > 1 else legal[0]
        placing = engine.phase is Phase.PLACE
        options = [
            (FACE_UP if a.face_up else 0) if isinstance(a, Place) else to_int(a.card)  # type: ignore[attr-defined]
            for a in legal
        ]
        mine = [to_int(c) for c in hand]
        players = engine.players

        def deal() -> Callable[[int], float]:
            base = FastRound.from_engine(engine, self.determinize(engine, seat, mine))

            def margin(index: int) -> float:
                fast = base.copy()
                fast.apply(options[index])
                scores = policy_playout(fast, self.rng)
                return scores[seat] - (sum(scores) - scores[seat]) / (players - 1)

            return margin

        totals, self.last_samples = sum_over_deals(
            len(options), self.samples, deal, lambda: self.clock() < deadline
        )
        best = max(range(len(options)), key=lambda i: totals[i])
        if placing:
            return legal[best]
        return Play(seat, to_card(options[best]))

    def determinize(self, engine: OshakaTrick, seat: int, mine: list[int]) -> list[list[int]]:
        """Every seat's remaining cards: ``mine`` for the bot, a random guess for the others."""
        rnd = engine.round
        players = engine.players
        played = {to_int(c) for c in rnd.played}
        own = set(mine)
        unseen = [c for c in deck(players) if c not in played and c not in own]
        plays = rnd.trick.plays
        in_trick = {s for s, _ in plays}
        completed = rnd.trick_number - 1
        counts = [13 - completed - (1 if s in in_trick else 0) for s in range(players)]
        voids: list[int] = [-1] * players
        if plays:
            lead = to_int(plays[0][1]) >> 4
            for s, card in plays[1:]:
                if to_int(card) >> 4 != lead:
                    voids[s] = lead
        hands: list[list[int]] = [[] for _ in range(players)]
        hands[seat] = list(mine)
        others = [s for s in range(players) if s != seat]
        for _ in range(8):
            pool = list(unseen)
            self.rng.shuffle(pool)
            ok = True
            for s in sorted(others, key=lambda s: voids[s] < 0):
                void = voids[s]
                take = (
                    [c for c in pool if c >> 4 != void][: counts[s]]
                    if void >= 0
                    else pool[: counts[s]]
                )
                if len(take) < counts[s]:
                    ok = False
                    break
                taken = set(take)
                pool = [c for c in pool if c not in taken]
                hands[s] = take
            if ok:
                return hands
        pool = list(unseen)
        self.rng.shuffle(pool)
        for s in others:
            hands[s], pool = pool[: counts[s]], pool[counts[s] :]
        return hands


# The table's search bot for this game (``controller.kiosk.simulation.search_bot_of``).
SEARCH_BOT = OshakaSearchBot
