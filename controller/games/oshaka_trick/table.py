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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    GameAdapter,
    Gesture,
    Presentation,
    Press,
    SeatInput,
    Simulation,
    Tap,
)
from controller.games.base import JSON, Action, Event, GameOver
from controller.games.oshaka_trick.actions import ChooseLead, Place, Play
from controller.games.oshaka_trick.bots import OshakaBot
from controller.games.oshaka_trick.cards import COLOUR_NAMES, Card
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.events import (
    CardPlaced,
    LeadChoiceDue,
    OshakaPenalty,
    PlacementDue,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from controller.games.oshaka_trick.snapshot import OshakaOverlay, OshakaSnapshot
from controller.games.oshaka_trick.spec import SPEC
from controller.games.oshaka_trick.state import Phase
from controller.games.words import Items, Player, Signed, Words, as_arg, say
from controller.view import GameView, MessageKind
from hardware.cues import Cue, Sound
from hardware.events import Button

# The seat buttons of each choice (the module docstring's table).
FACE_UP, FACE_DOWN = Button.PREV, Button.NEXT
PREVIOUS, CHOOSE, NEXT = Button.PREV, Button.OK, Button.NEXT


@dataclass
class LeadCursor:
    """The seat a round-2 lead chooser's OK button would name: moved by input, shown by the
    presentation (button label and overlay), followed by the simulation's gestures."""

    seat: int = 0

    def move(self, step: int, players: int) -> None:
        self.seat = (self.seat + step) % players


class OshakaInput(SeatInput):
    """A tap plays a card; buttons place a won card or choose who leads round 2."""

    def __init__(self, engine: OshakaTrick, cursor: LeadCursor) -> None:
        self.engine = engine
        self.cursor = cursor

    def on_card(self, player: int, card: str) -> Action:
        return Play(player, Card.parse(card))

    def on_button(self, player: int, button: Button) -> Action | Words | None:
        engine = self.engine
        expected = engine.expected
        if engine.phase is Phase.PLACE and expected is not None and expected.seat == player:
            # The engine offers exactly two placements of the card due: face up, face down.
            legal = [a for a in engine.legal_actions(player) if isinstance(a, Place)]
            if button in (FACE_UP, FACE_DOWN):
                face_up = button == FACE_UP
                return next(a for a in legal if a.face_up == face_up)
            card = legal[0].card
            assert card is not None  # the engine's own placements name the card
            return say(
                "Place {card}: PREV puts it face up to score, NEXT face down for -1",
                card=card.words,
            )
        if engine.phase is Phase.LEAD and player in engine.lead_choosers:
            if button in (PREVIOUS, NEXT):
                self.cursor.move(-1 if button == PREVIOUS else 1, engine.players)
                return None
            return ChooseLead(player, self.cursor.seat)
        if expected is not None and expected.seat == player:
            return say("Tap the card you play on your reader")
        return None

    def hints(self) -> list[tuple[int, Button, Words]]:
        engine, expected = self.engine, self.engine.expected
        if expected is None:
            return []
        if engine.phase is Phase.PLACE:
            # The two labels differ in their first word, so a cut label still tells them apart.
            card = engine.round.to_place[0].words
            return [
                (expected.seat, FACE_UP, say("Score {card}", card=card)),
                (expected.seat, FACE_DOWN, say("Face down {card}", card=card)),
            ]
        if engine.phase is Phase.LEAD:
            out: list[tuple[int, Button, Words]] = []
            for chooser in engine.lead_choosers:
                out += [
                    (chooser, PREVIOUS, say("Previous seat")),
                    (chooser, CHOOSE, say("{player} leads", player=Player(self.cursor.seat))),
                    (chooser, NEXT, say("Next seat")),
                ]
            return out
        return []


class OshakaPresentation(Presentation):
    """Engine events as messages and LED cues; the snapshot with the lead cursor over it."""

    event_sounds: ClassVar[Mapping[type[Event], Sound]] = {
        TrickWon: Sound.TRICK_WON,
        RoundScored: Sound.ROUND_OVER,
        GameOver: Sound.GAME_WON,
    }

    def __init__(self, engine: OshakaTrick, cursor: LeadCursor) -> None:
        self.engine = engine
        self.cursor = cursor

    def feedback(self, event: Event) -> list[Feedback]:
        handler = _FEEDBACK.get(type(event))
        return handler(event) if handler is not None else []

    def result_rule(self, report: JSON) -> Words:
        return say(
            "Most points over both rounds: the top card of each face-up column scores, "
            "each face-down card -1, each Oshaka penalty minus its number"
        )

    def result_rows(self, report: JSON) -> list[tuple[Words, list[int]]]:
        """The points each player's total is made of, over both rounds: the top cards of
        the face-up columns, minus one a face-down card, minus each Oshaka card's number."""
        players = self.engine.players
        tops, face_down, oshaka = [0] * players, [0] * players, [0] * players
        for rnd in report.get("rounds") or []:
            for seat in range(players):
                tops[seat] += sum(int(col[-1][1:]) for col in rnd["columns"][seat].values() if col)
                face_down[seat] -= rnd["penalties"][seat]
                oshaka[seat] -= sum(int(card[1:]) for card in rnd["oshaka"][seat])
        return [
            (say("Column tops"), tops),
            (say("Face down"), face_down),
            (say("Oshaka"), oshaka),
        ]

    def result_counts(self, report: JSON) -> list[tuple[Words, list[int]]]:
        """How many cards each player has where, over both rounds: counts, not points."""
        players = self.engine.players
        columns, face_down, oshaka = [0] * players, [0] * players, [0] * players
        for rnd in report.get("rounds") or []:
            for seat in range(players):
                columns[seat] += len(rnd["columns"][seat])
                face_down[seat] += rnd["penalties"][seat]
                oshaka[seat] += len(rnd["oshaka"][seat])
        return [
            (say("Face-up columns"), columns),
            (say("Face-down cards"), face_down),
            (say("Oshaka cards"), oshaka),
        ]

    def game_view(self) -> GameView[OshakaSnapshot, OshakaOverlay]:
        snap = self.engine.snapshot()
        cursor = self.cursor.seat if snap.phase is Phase.LEAD else None
        return GameView(snap, OshakaOverlay(lead_cursor=cursor))

    def waiting_players(self) -> list[int]:
        engine = self.engine
        if engine.phase is Phase.LEAD:
            return list(engine.lead_choosers)
        expected = engine.expected
        return [] if expected is None else [expected.seat]


class OshakaSimulation(Simulation):
    """How a person would take an action (taps and presses), bots, and dealt hands."""

    def __init__(self, engine: OshakaTrick, cursor: LeadCursor) -> None:
        self.engine = engine
        self.cursor = cursor

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play):
            return [Tap(str(action.card))]
        if isinstance(action, Place):
            return [Press(FACE_UP if action.face_up else FACE_DOWN)]
        if isinstance(action, ChooseLead):
            steps = (action.lead - self.cursor.seat) % self.engine.players
            return [*[Press(NEXT)] * steps, Press(CHOOSE)]
        return []

    def make_bot(self, rng: random.Random) -> Bot:
        return OshakaBot(rng)

    def hand(self, player: int) -> tuple[str, ...]:
        registered = self.engine.registered_hand(player)
        return tuple(str(c) for c in registered) if registered is not None else ()


class OshakaAdapter(GameAdapter):
    """Oshaka Trick at the table: the three roles, sharing the lead cursor."""

    spec = SPEC
    engine: OshakaTrick

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        assert isinstance(self.engine, OshakaTrick)
        self.lead_cursor = LeadCursor()
        self.input = OshakaInput(self.engine, self.lead_cursor)
        self.presentation = OshakaPresentation(self.engine, self.lead_cursor)
        self.simulation = OshakaSimulation(self.engine, self.lead_cursor)


def _trick_won(e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon) and e.reason is not None  # Oshaka always says why
    text = say(
        "{player} wins trick {trick}: {reason}",
        player=Player(e.seat),
        trick=e.trick,
        reason=as_arg(e.reason),
    )
    return [Feedback(e.seat, text, MessageKind.WON, Cue.TRICK_WON)]


def _penalty(e: Event) -> list[Feedback]:
    assert isinstance(e, OshakaPenalty)
    text = say(
        "Oshaka penalty for {player}: {reason} ({points})",
        player=Player(e.seat),
        reason=as_arg(e.reason),
        points=Signed(-e.card.number),
    )
    return [Feedback(e.seat, text, MessageKind.PENALTY, Cue.PENALTY)]


def _placed(e: Event) -> list[Feedback]:
    assert isinstance(e, CardPlaced)
    player, card = Player(e.seat), e.card.words
    if e.face_up:
        text = say("{player} places {card} face up to score", player=player, card=card)
    else:
        text = say("{player} places {card} face down (-1)", player=player, card=card)
    return [Feedback(e.seat, text)]


def _placement_due(e: Event) -> list[Feedback]:
    assert isinstance(e, PlacementDue)
    text = say(
        "{player} places {card}: PREV face up, NEXT face down (-1)",
        player=Player(e.seat),
        card=e.card.words,
    )
    return [Feedback(e.seat, text)]


def _renege(e: Event) -> list[Feedback]:
    assert isinstance(e, RenegeProven)
    text = say(
        "{player} did not follow {colour} in trick {trick} although it held {colour}",
        player=Player(e.seat),
        colour=COLOUR_NAMES[e.colour],
        trick=e.trick,
    )
    return [Feedback(e.seat, text, MessageKind.REFUSED, Cue.REFUSED)]


def _round_scored(e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    scores = Items(
        tuple(say("{player}: {points}", player=Player(s), points=v) for s, v in enumerate(e.scores))
    )
    text = say("Round {round} scored: {scores}", round=e.round, scores=scores)
    return [Feedback(None, text, MessageKind.WON)]


def _lead_due(e: Event) -> list[Feedback]:
    assert isinstance(e, LeadChoiceDue)
    text = say(
        "Lowest score: {choosers} picks who leads round 2",
        choosers=_anyone(e.choosers),
    )
    return [Feedback(None, text)]


def _round_started(e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    return [
        Feedback(None, say("Round {round}: {player} leads", round=e.round, player=Player(e.lead)))
    ]


def _game_over(e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    if len(e.winners) == 1:
        text = say("Game over: {player} wins", player=Player(e.winners[0]))
    else:
        text = say(
            "Game over: {players} share the victory",
            players=Items(tuple(Player(s) for s in e.winners)),
        )
    return [Feedback(s, None, cue=Cue.TRICK_WON) for s in e.winners] + [
        Feedback(None, text, MessageKind.WON)
    ]


def _anyone(players: tuple[int, ...]) -> Items:
    """Engine players as "A or B" (the lowest scorers who may choose)."""
    return Items(tuple(Player(p) for p in players), either=True)


_FEEDBACK: dict[type[Event], Callable[[Event], list[Feedback]]] = {
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
