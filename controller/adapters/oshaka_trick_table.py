"""Oshaka Trick at the table.

Seat input by phase:

| phase | tap a card | prev | ok | next |
| --- | --- | --- | --- | --- |
| play (your turn) | play that card | - | - | - |
| place (you won the trick) | - | face up: score | - | face down: -1 |
| lead (lowest scorer, before round 2) | - | previous seat | choose this seat | next seat |
"""

from __future__ import annotations

import random

from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    Gesture,
    Press,
    SingleClassAdapter,
    Tap,
)
from controller.bots.oshaka_trick_bot import OshakaBot
from controller.games.base import Action, Event, GameOver
from controller.games.oshaka_trick import (
    SPEC,
    Card,
    CardPlaced,
    ChooseLead,
    LeadChoiceDue,
    OshakaPenalty,
    OshakaTrick,
    Phase,
    Place,
    PlacementDue,
    Play,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from controller.view import MessageKind
from hardware.cues import Cue


class OshakaAdapter(SingleClassAdapter):
    spec = SPEC
    engine: OshakaTrick

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        self.lead_cursor = 0

    def on_card(self, player: int, card: str) -> Action:
        return Play(player, Card.parse(card))

    def on_button(self, player: int, button: str) -> Action | str | None:
        engine = self.engine
        expected = engine.expected
        if engine.phase is Phase.PLACE and expected is not None and expected.seat == player:
            card = engine.round.to_place[0]
            if button == "prev":
                return Place(player, True, card)
            if button == "next":
                return Place(player, False, card)
            return f"place {card}: PREV puts it face up to score, NEXT face down for -1"
        if engine.phase is Phase.LEAD and player in engine.lead_choosers:
            if button == "prev":
                self.lead_cursor = (self.lead_cursor - 1) % engine.players
                return None
            if button == "next":
                self.lead_cursor = (self.lead_cursor + 1) % engine.players
                return None
            return ChooseLead(player, self.lead_cursor)
        if expected is not None and expected.seat == player:
            return "tap the card you play on your reader"
        return None

    def hints(self) -> list[tuple[int, str, str]]:
        engine, expected = self.engine, self.engine.expected
        if expected is None:
            return []
        if engine.phase is Phase.PLACE:
            card = engine.round.to_place[0]
            return [
                (expected.seat, "prev", f"{card} face up"),
                (expected.seat, "next", f"{card} face down"),
            ]
        if engine.phase is Phase.LEAD:
            out = []
            for chooser in engine.lead_choosers:
                out += [
                    (chooser, "prev", "previous seat"),
                    (chooser, "ok", f"seat {self.lead_cursor} leads"),
                    (chooser, "next", "next seat"),
                ]
            return out
        return []

    def feedback(self, event: Event) -> list[Feedback]:
        handler = _FEEDBACK.get(type(event))
        return handler(self, event) if handler is not None else []

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play):
            return [Tap(str(action.card))]
        if isinstance(action, Place):
            return [Press("prev" if action.face_up else "next")]
        if isinstance(action, ChooseLead):
            steps = (action.lead - self.lead_cursor) % self.engine.players
            return [*[Press("next")] * steps, Press("ok")]
        return []

    def make_bot(self, rng: random.Random) -> Bot:
        return OshakaBot(rng)

    def hand(self, player: int) -> tuple[str, ...]:
        registered = self.engine.registered_hand(player)
        return tuple(str(c) for c in registered) if registered is not None else ()

    def waiting_players(self) -> list[int]:
        if self.engine.phase is Phase.LEAD:
            return list(self.engine.lead_choosers)
        return super().waiting_players()


def _trick_won(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon)
    return [
        Feedback(
            e.seat,
            f"Seat {e.seat} wins trick {e.trick}: {e.reason}",
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    ]


def _penalty(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, OshakaPenalty)
    text = f"Oshaka penalty for seat {e.seat}: {e.reason} (-{e.card.number})"
    return [Feedback(e.seat, text, MessageKind.PENALTY, Cue.PENALTY)]


def _placed(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, CardPlaced)
    how = "face up to score" if e.face_up else "face down (-1)"
    return [Feedback(e.seat, f"Seat {e.seat} places {e.card} {how}")]


def _placement_due(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, PlacementDue)
    text = f"Seat {e.seat}: place {e.card}: PREV face up to score, NEXT face down (-1)"
    return [Feedback(e.seat, text)]


def _renege(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RenegeProven)
    text = f"Seat {e.seat} did not follow suit in trick {e.trick} although it held that colour"
    return [Feedback(e.seat, text, MessageKind.REFUSED, Cue.REFUSED)]


def _round_scored(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    scores = ", ".join(f"seat {s}: {v}" for s, v in enumerate(e.scores))
    return [Feedback(None, f"Round {e.round} scored - {scores}", MessageKind.WON)]


def _lead_due(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, LeadChoiceDue)
    who = " or ".join(f"seat {s}" for s in e.choosers)
    return [Feedback(None, f"Lowest score: {who} chooses who leads round 2 (PREV/NEXT, then OK)")]


def _round_started(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    return [Feedback(None, f"Round {e.round}: seat {e.lead} leads")]


def _game_over(_: OshakaAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    who = ", ".join(f"seat {s}" for s in e.winners)
    verb = "wins" if len(e.winners) == 1 else "share the victory"
    return [Feedback(s, None, cue=Cue.TRICK_WON) for s in e.winners] + [
        Feedback(None, f"Game over: {who} {verb}", MessageKind.WON)
    ]


_FEEDBACK = {
    TrickWon: _trick_won,
    OshakaPenalty: _penalty,
    CardPlaced: _placed,
    PlacementDue: _placement_due,
    RenegeProven: _renege,
    RoundScored: _round_scored,
    LeadChoiceDue: _lead_due,
    RoundStarted: _round_started,
    GameOver: _game_over,
}


ADAPTER = OshakaAdapter
