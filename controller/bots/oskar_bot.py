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
* Rerolls: it must reroll both with the most points; otherwise it rerolls the
  dice whose genre nobody else shows, as many as it is allowed. After rolling
  doubles it rerolls one die when nobody else shows that genre, and keeps
  them (``KeepDoubles``) otherwise.

Only the seat's own hand and the public engine state are used; all dice come
from the injected ``random.Random`` through the engine's dice helpers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.games.base import Action
from controller.games.oskar import (
    COLOUR_STRENGTH,
    DECK_VALUE,
    Card,
    KeepDoubles,
    Oskar,
    Phase,
    Play,
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
        """The optional reroll after doubles: taken when nobody else shows that genre."""
        faces = engine.dice[seat]
        if engine.doubles != seat or faces is None:
            return None
        if faces[0] in self._others_show(engine, seat):
            return None
        return reroll_action(self.rng, seat, faces, [1])

    def _reroll(self, engine: Oskar, seat: int) -> Action:
        faces = engine.dice[seat]
        assert faces is not None
        allowed = engine.reroll_allowance(seat)
        most = max(allowed)
        if min(allowed) == 2:
            return reroll_action(self.rng, seat, faces, [0, 1])
        shown = self._others_show(engine, seat)
        bad = [i for i in (0, 1) if faces[i] not in shown]
        if faces[0] == faces[1] and len(bad) == 2:
            bad = [1] if most == 1 else bad  # one fresh die is enough to leave doubles
        return reroll_action(self.rng, seat, faces, bad[:most])

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
