"""A simple, sensible Oshaka Trick bot.

The heuristic, in the order it matters:

* Winning a trick is worth what its cards would add once placed (a card that
  would be a forced Oshaka penalty counts minus its number, a card that can
  only go face down counts -1). The bot tries to win tricks worth more than
  nothing and to lose the others.
* Knowing the cards already on the table, it estimates whether a card would
  win (exactly so when it plays last).
* When placing, it weighs a face-up card's gain against the Oshaka penalties
  it risks (unplayed cards of that colour under the new top, and in round 2
  the whole fourth colour once a third is opened) and places it face down
  (-1) when the risk is larger.
"""

from __future__ import annotations

import random

from controller.games.base import Action
from controller.games.common.tricks import Trick
from controller.games.oshaka_trick.actions import ChooseLead, Place, Play
from controller.games.oshaka_trick.cards import COLOURS, Card
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.state import Phase


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

    def card_value(self, engine: OshakaTrick, seat: int, card: Card) -> float:
        """What taking ``card`` into ``seat``'s area is worth now, roughly."""
        if engine.forced_reason(seat, card) is not None:
            return -card.number
        return max(self._face_up_value(engine, seat, card), -1.0)

    def _face_up_value(self, engine: OshakaTrick, seat: int, card: Card) -> float:
        """Points a face-up placement adds, less the Oshaka penalties it risks later.

        Raising a column's top to ``card`` makes every unplayed card of that
        colour between the old and the new top a future forced penalty if this
        seat wins it; each unplayed card ends in some seat's trick, this one's
        about one time in ``players``. In round 2 a third colour also makes the
        whole fourth colour a forced penalty.
        """
        rnd = engine.round
        area = rnd.areas[seat]
        column = area.columns.get(card.colour)
        top = column[-1].number if column else 0
        odds = 1.0 / engine.players
        risked = [
            n
            for n in range(top + 1, card.number)
            if Card(card.colour, n) not in rnd.played and Card(card.colour, n) in engine.deck
        ]
        loss = odds * sum(risked)
        if rnd.number == 2 and not column and len(area.columns) == 2:
            fourth = [c for c in COLOURS if c != card.colour and c not in area.columns]
            loss += odds * sum(
                c.number
                for c in engine.deck
                if c.colour in fourth and c not in rnd.played and c != card
            )
        return (card.number - top) - loss

    def _wants_face_up(self, engine: OshakaTrick, seat: int, card: Card) -> bool:
        # Face down costs exactly 1; face up is worth its gain less its risk.
        return self._face_up_value(engine, seat, card) > -1.0

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
    def _would_win(trick: Trick[Card, str], seat: int, card: Card) -> bool:
        return trick.with_play(seat, card).winner()[0] == seat
