"""A simple, sensible Oshaka Trick bot.

The heuristic, in the order it matters:

* Winning a trick is worth what its cards would add once placed (a card that
  would be a forced Oshaka penalty counts minus its number, a card that can
  only go face down counts -1). The bot tries to win tricks worth more than
  nothing and to lose the others.
* Knowing the cards already on the table, it estimates whether a card would
  win (exactly so when it plays last).
* When placing, it scores a card face up when that adds to the column without
  making many still unseen cards of that colour future Oshaka penalties, and
  in round 2 it is wary of opening a third colour.
"""

from __future__ import annotations

import random

from controller.games.base import Action
from controller.games.oshaka_trick import (
    Card,
    ChooseLead,
    OshakaTrick,
    Phase,
    Place,
    Play,
    Trick,
)


class OshakaBot:
    """Chooses an action for one seat; deterministic for a given ``rng``."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, engine: OshakaTrick, seat: int) -> Action:
        legal = engine.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        if engine.phase is Phase.PLACE:
            return self._place(engine, seat, legal)
        if engine.phase is Phase.LEAD:
            return self._lead(engine, seat)
        plays = [a for a in legal if isinstance(a, Play)]
        return self._play(engine, seat, plays)

    # --- placing ----------------------------------------------------------------

    def card_value(self, engine: OshakaTrick, seat: int, card: Card) -> int:
        """What taking ``card`` into ``seat``'s area is worth now, roughly."""
        if engine.forced_reason(seat, card) is not None:
            return -card.number
        area = engine.round.areas[seat]
        column = area.columns.get(card.colour)
        gain = card.number - column[-1].number if column else card.number
        return max(gain if self._wants_face_up(engine, seat, card) else -1, -1)

    def _unseen_below(self, engine: OshakaTrick, card: Card, floor: int) -> int:
        """Unplayed cards of ``card``'s colour between ``floor`` and ``card``."""
        played = engine.round.played
        return sum(
            1
            for n in range(floor + 1, card.number)
            if Card(card.colour, n) not in played
        )

    def _wants_face_up(self, engine: OshakaTrick, seat: int, card: Card) -> bool:
        area = engine.round.areas[seat]
        column = area.columns.get(card.colour)
        if column:
            # Raising the top turns every unseen card below the new top into a
            # possible Oshaka penalty; accept that only for a worthwhile gain.
            risk = self._unseen_below(engine, card, column[-1].number)
            return card.number - column[-1].number >= 1 + risk // 3
        if engine.round.number == 2 and len(area.columns) >= 2 and card.number < 8:
            return False  # a third colour in round 2 makes a fourth colour fatal
        risk = self._unseen_below(engine, card, 0)
        return card.number >= 2 + risk // 2 or risk == 0

    def _place(self, engine: OshakaTrick, seat: int, legal: list[Action]) -> Action:
        card = engine.round.to_place[0]
        face_up = self._wants_face_up(engine, seat, card)
        return next(a for a in legal if isinstance(a, Place) and a.face_up == face_up)

    def _lead(self, engine: OshakaTrick, seat: int) -> Action:
        # Let the current leader in points lead: leading gives the least information.
        totals = engine.totals()
        leader = max(range(engine.players), key=lambda s: (totals[s], -s))
        return ChooseLead(seat, leader)

    # --- playing ------------------------------------------------------------------

    def _play(self, engine: OshakaTrick, seat: int, plays: list[Play]) -> Action:
        trick = engine.round.trick
        last = len(trick.plays) == engine.players - 1
        scored = []
        for play in plays:
            wins = self._would_win(trick, seat, play.card)
            cards = [c for _, c in trick.plays] + [play.card]
            value = sum(self.card_value(engine, seat, c) for c in cards)
            # Expected value: certain when last, discounted otherwise since
            # later players may still take the trick.
            weight = 1.0 if last else 0.5
            score = weight * value if wins else 0.0
            # Prefer shedding high cards that would hurt us later, keep low ones.
            score += 0.01 * play.card.number
            scored.append((score, self.rng.random(), play))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return scored[0][2]

    @staticmethod
    def _would_win(trick: Trick, seat: int, card: Card) -> bool:
        probe = Trick(trick.lead_seat, [*trick.plays, (seat, card)])
        return probe.winner()[0] == seat

