"""A simple, sensible Oskar bot, following the rulebook's game tips.

* Partners are the other seats whose dice share a genre with the bot's dice:
  their points help the same trend. The bot values a trick by who would win
  it: itself fully, a partner in proportion to the genres shared, anyone else
  a little negatively. So it plays high cards into a trick a partner is
  winning, and uses zeros tactically: a first zero can hand the trick to a
  partner's high card, a second zero takes the trick and the stock.
* With "bad" dice (no other seat shows either of its genres) the bot tries to
  collect as few points as possible, which earns the right to reroll both
  dice after the round, and sheds its strong cards into other seats' tricks.
* Rerolls by expected tokens: for each choice it may make (keep both, reroll
  die 0, die 1, or both, as far as it is allowed) it averages the tokens its
  dice would earn next round over every face the rerolled dice can show and
  over a set of imagined next rounds (the deck's points shared out at random
  among the seats, the other seats' dice as they show now, a seat still due
  to reroll both dice rolling fresh ones), and takes the best; a tie keeps
  more dice. After rolling doubles it weighs rerolling one die against
  keeping them (``KeepDoubles``) the same way. The imagined rounds come from
  the bot's ``random.Random``, the same ones for every choice.

Only the seat's own hand and the public engine state are used; all dice come
from the injected ``random.Random`` through the engine's dice helpers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

from controller.games.base import Action
from controller.games.oskar.engine import (
    COLOUR_STRENGTH,
    DECK_VALUE,
    GENRES,
    TREND_THRESHOLD,
    Card,
    KeepDoubles,
    Oskar,
    Phase,
    Play,
    RerollLimit,
    Verb,
    dice_action,
    reroll_action,
    stock_size,
    trick_winner,
)


def power(card: Card) -> float:
    """How likely a card is to win a trick later: what playing it costs."""
    if card.is_zero:
        return 3.0
    return COLOUR_STRENGTH[card.colour] * 2.0 + card.number / 4


class OskarBot:
    """Chooses an action for one seat; deterministic for a given ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, engine: Oskar, seat: int, hand: Sequence[str] | None = None) -> Action:
        """The seat's next action: its doubles decision if it has an offer, else what is due.

        ``hand`` is the seat's remaining cards; by default its registered hand
        (the table's virtual deal registers it). Raises ValueError when the
        seat has nothing to do.
        """
        if engine.doubles == seat:
            # The table waits for this decision; keeping is said out loud (KeepDoubles).
            extra = self.doubles_choice(engine, seat)
            return extra if extra is not None else KeepDoubles(seat)
        if hand is None:
            held = engine.registered_hand(seat)
            hand = () if held is None else [str(c) for c in held]
        if engine.phase is Phase.DICE and engine.dice[seat] is None:
            return dice_action(self.rng, seat)
        expected = engine.expected
        if expected is None or expected.seat != seat:
            raise ValueError(f"seat {seat} has nothing to do now")
        if expected.expects == Verb.REROLL:
            return self._reroll(engine, seat)
        return self._play(engine, seat, hand)

    # --- dice -------------------------------------------------------------------

    @staticmethod
    def _others_show(engine: Oskar, seat: int) -> set[str]:
        shown: set[str] = set()
        for other, faces in enumerate(engine.dice):
            if other != seat and faces is not None:
                shown.update(faces)
        return shown

    def doubles_choice(self, engine: Oskar, seat: int) -> Action | None:
        """The optional reroll after doubles: taken when it is expected to earn more tokens."""
        faces = engine.dice[seat]
        if engine.doubles != seat or faces is None:
            return None
        which = self.best_reroll(engine, seat, [(), (1,)])
        return None if not which else reroll_action(self.rng, seat, faces, which)

    def _reroll(self, engine: Oskar, seat: int) -> Action:
        faces = engine.dice[seat]
        assert faces is not None
        allowed = engine.reroll_allowance(seat)
        if min(allowed) == 2:
            return reroll_action(self.rng, seat, faces, [0, 1])
        choices: list[tuple[int, ...]] = [()]
        if 1 in allowed:
            choices += [(0,), (1,)]
        if 2 in allowed:
            choices.append((0, 1))
        return reroll_action(self.rng, seat, faces, self.best_reroll(engine, seat, choices))

    # Imagined next rounds per decision: enough to rank the few choices steadily.
    ROUNDS_IMAGINED = 120

    def best_reroll(
        self, engine: Oskar, seat: int, choices: Sequence[tuple[int, ...]]
    ) -> tuple[int, ...]:
        """The choice of dice to reroll with the most expected tokens next round."""
        faces = engine.dice[seat]
        assert faces is not None
        rule = engine.rule
        due_both = set()
        if rule is not None and engine.phase is Phase.REROLL:
            later = rule.order[engine.rerolls_done + 1 :]
            due_both = {s for s in later if rule.limits[s] is RerollLimit.MOST}
        players = engine.players
        rng = self.rng
        rounds: list[tuple[list[int], list[tuple[str, ...]]]] = []
        for _ in range(self.ROUNDS_IMAGINED):
            weights = [rng.random() ** 2 for _ in range(players)]
            scale = DECK_VALUE * (0.85 + 0.15 * rng.random()) / (sum(weights) or 1.0)
            points = [round(w * scale) for w in weights]
            dice = [
                tuple(rng.choice(GENRES) for _ in range(2)) if s in due_both else (f or ())
                for s, f in enumerate(engine.dice)
            ]
            rounds.append((points, dice))
        best: tuple[float, int] | None = None
        chosen: tuple[int, ...] = ()
        for which in choices:
            outcomes = [
                tuple(o[which.index(i)] if i in which else faces[i] for i in (0, 1))
                for o in product(GENRES, repeat=len(which))
            ]
            total = 0.0
            for points, dice in rounds:
                for mine in outcomes:
                    dice[seat] = mine
                    genre_points = dict.fromkeys(GENRES, 0)
                    for s, shown in enumerate(dice):
                        for genre in set(shown):
                            genre_points[genre] += points[s]
                    total += sum(1 for g in mine if genre_points[g] >= TREND_THRESHOLD)
            value = (total / (len(rounds) * len(outcomes)), -len(which))
            if best is None or value > best:
                best, chosen = value, which
        return chosen

    # --- cards ------------------------------------------------------------------

    def _affinity(self, engine: Oskar, seat: int, bad_dice: bool) -> list[float]:
        mine = set(engine.dice[seat] or ())
        weights = []
        for other, faces in enumerate(engine.dice):
            if other == seat:
                weights.append(-1.0 if bad_dice else 1.0)
            elif bad_dice:
                weights.append(0.0)
            else:
                shared = len(mine & set(faces or ()))
                weights.append(0.6 * shared if shared else -0.3)
        return weights

    def _play(self, engine: Oskar, seat: int, hand: Sequence[str]) -> Action:
        legal = [a for a in engine.legal_actions(seat) if isinstance(a, Play)]
        unplayed = {a.card for a in legal}
        cards = [c for c in (Card.parse(text) for text in hand) if c in unplayed]
        if not cards:
            # Without a known hand any unplayed card could be in it.
            return self.rng.choice(legal)
        rnd = engine.round
        bad_dice = not set(engine.dice[seat] or ()) & self._others_show(engine, seat)
        affinity = self._affinity(engine, seat, bad_dice)
        last = len(rnd.trick) == engine.players - 1
        certainty = 1.0 if last else 0.6
        played_value = sum(c.value * n for c, n in rnd.played.items())
        held_value = sum(c.value for c in cards)
        unseen = DECK_VALUE - played_value - held_value
        unseen_cards = max(1, 38 - sum(rnd.played.values()) - len(cards))
        stock_guess = unseen * stock_size(engine.players) / unseen_cards

        best: list[tuple[float, float, Card]] = []
        for card in sorted(set(cards)):
            trick = [*rnd.trick, (seat, card)]
            winner = trick_winner(trick)
            points = float(sum(c.value for _, c in trick))
            zeros = sum(1 for _, c in trick if c.is_zero)
            if card.is_zero and zeros == 2 and rnd.stock_winner is None:
                points += stock_guess
            score = certainty * affinity[winner] * points
            if winner == seat and bad_dice:
                score -= power(card) * 0.1
            elif winner != seat:
                # Keeping strong cards is worth something unless they are a burden.
                score += (0.15 if bad_dice else -0.15) * power(card)
            else:
                score -= 0.05 * power(card)
            best.append((score, self.rng.random(), card))
        _, _, choice = max(best)
        return Play(seat, choice)
