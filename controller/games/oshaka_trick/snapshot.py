"""What everyone at an Oshaka Trick table sees: the snapshot the display draws.

``OshakaSnapshot`` (with a ``SeatSnapshot`` per seat) is frozen and typed; its
``to_json``/``from_json`` are the JSON form logs and the golden files keep.
``build_snapshot`` makes one from the engine's state; ``OshakaOverlay`` is
what the table shows on top (the lead cursor).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from controller.games.base import (
    JSON,
    Expectation,
    Overlay,
    Snapshot,
    TrickCard,
    best_seats,
    json_expectation,
    json_int,
    json_ints,
    json_opt_int,
    json_strs,
    json_trick,
)
from controller.games.oshaka_trick.actions import Verb
from controller.games.oshaka_trick.cards import COLOURS, HAND_SIZE, ROUNDS, TRICKS_PER_ROUND
from controller.games.oshaka_trick.state import GAME_ID, TITLE, Phase, Placed, RoundState


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


@dataclass(frozen=True)
class SeatSnapshot(Snapshot):
    """What is public of one seat's area this round."""

    seat: int
    columns: Mapping[str, tuple[str, ...]]  # colour -> face-up cards, oldest first
    face_down: int
    oshaka: tuple[str, ...]
    round_score: int
    total: int
    cards_left: int
    hand_registered: bool

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "columns": {colour: list(cards) for colour, cards in self.columns.items()},
            "face_down": self.face_down,
            "oshaka": list(self.oshaka),
            "round_score": self.round_score,
            "total": self.total,
            "cards_left": self.cards_left,
            "hand_registered": self.hand_registered,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        columns = data.get("columns")
        return cls(
            seat=json_int(data.get("seat")),
            columns={
                colour: json_strs(columns.get(colour))
                for colour in COLOURS
                if isinstance(columns, Mapping) and columns.get(colour)
            },
            face_down=json_int(data.get("face_down")),
            oshaka=json_strs(data.get("oshaka")),
            round_score=json_int(data.get("round_score")),
            total=json_int(data.get("total")),
            cards_left=json_int(data.get("cards_left")),
            hand_registered=data.get("hand_registered") is True,
        )


@dataclass(frozen=True)
class PlacedCard(Snapshot):
    """A card of the last trick as its winner placed it (``Placed``)."""

    card: str
    placed: Placed

    def to_json(self) -> JSON:
        return {"card": self.card, "placed": str(self.placed)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        placed = data.get("placed")
        return cls(
            card=str(data.get("card", "")),
            placed=Placed(placed) if placed in set(Placed) else Placed.DOWN,
        )


@dataclass(frozen=True)
class OshakaSnapshot(Snapshot):
    """What everyone at an Oshaka Trick table can see; the display reads its fields.

    The table's lead cursor is not here but in ``OshakaOverlay``.
    """

    game: str
    title: str
    players: int
    phase: Phase
    round: int
    rounds: int
    trick_number: int
    tricks_per_round: int
    lead_seat: int
    lead_colour: str | None
    trick: tuple[TrickCard, ...]
    to_place: tuple[str, ...]  # the won cards still to resolve, the next one first
    trick_winner: int | None
    lead_choosers: tuple[int, ...]
    next: Expectation | None
    seats: tuple[SeatSnapshot, ...]
    round_scores: tuple[tuple[int, ...], ...]  # finished rounds' scores per seat
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    # The round's last completed trick (while it is being placed, the trick in play), its
    # winner, and where its cards went so far: what a seat brings back with a long NEXT.
    last_trick: tuple[TrickCard, ...] = ()
    last_trick_winner: int | None = None
    last_placement: tuple[PlacedCard, ...] = ()

    def seat(self, player: int) -> SeatSnapshot | None:
        """The area of engine seat ``player``, if the snapshot has it."""
        return next((s for s in self.seats if s.seat == player), None)

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "phase": self.phase.value,
            "round": self.round,
            "rounds": self.rounds,
            "trick_number": self.trick_number,
            "tricks_per_round": self.tricks_per_round,
            "lead_seat": self.lead_seat,
            "lead_colour": self.lead_colour,
            "trick": [t.to_json() for t in self.trick],
            "to_place": list(self.to_place),
            "trick_winner": self.trick_winner,
            "lead_choosers": list(self.lead_choosers),
            "next": None if self.next is None else self.next.to_json(),
            "seats": [seat.to_json() for seat in self.seats],
            "round_scores": [list(scores) for scores in self.round_scores],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "last_trick": [t.to_json() for t in self.last_trick],
            "last_trick_winner": self.last_trick_winner,
            "last_placement": [p.to_json() for p in self.last_placement],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        phase = data.get("phase")
        seats = data.get("seats")
        rounds = data.get("round_scores")
        lead_colour = data.get("lead_colour")
        return cls(
            game=str(data.get("game", GAME_ID)),
            title=str(data.get("title") or TITLE),
            players=json_int(data.get("players"), 4),
            phase=Phase(phase) if phase in set(Phase) else Phase.PLAY,
            round=json_int(data.get("round"), 1),
            rounds=json_int(data.get("rounds"), ROUNDS),
            trick_number=json_int(data.get("trick_number"), 1),
            tricks_per_round=json_int(data.get("tricks_per_round"), TRICKS_PER_ROUND),
            lead_seat=json_int(data.get("lead_seat")),
            lead_colour=lead_colour if lead_colour in COLOURS else None,
            trick=json_trick(data.get("trick")),
            to_place=json_strs(data.get("to_place")),
            trick_winner=json_opt_int(data.get("trick_winner")),
            lead_choosers=json_ints(data.get("lead_choosers")),
            next=json_expectation(data.get("next"), Verb),
            seats=tuple(
                SeatSnapshot.from_json(s)
                for s in (seats if isinstance(seats, list) else [])
                if isinstance(s, Mapping)
            ),
            round_scores=tuple(json_ints(r) for r in (rounds if isinstance(rounds, list) else [])),
            totals=json_ints(data.get("totals")),
            winners=json_ints(data.get("winners")),
            last_trick=json_trick(data.get("last_trick")),
            last_trick_winner=json_opt_int(data.get("last_trick_winner")),
            last_placement=tuple(
                PlacedCard.from_json(p)
                for p in _list(data.get("last_placement"))
                if isinstance(p, Mapping)
            ),
        )


@dataclass(frozen=True)
class OshakaOverlay(Overlay):
    """What the table shows over an Oshaka Trick snapshot: the lead chooser's cursor.

    ``lead_cursor`` is the seat the round-2 lead chooser's OK button would name
    (None outside that choice); the engine never sees it.
    """

    lead_cursor: int | None = None

    def to_json(self) -> JSON:
        return {} if self.lead_cursor is None else {"lead_cursor": self.lead_cursor}


def build_snapshot(
    phase: Phase,
    rnd: RoundState,
    finished_rounds: Sequence[RoundState],
    players: int,
    lead_choosers: tuple[int, ...],
    expected: Expectation | None,
    totals: Sequence[int],
) -> OshakaSnapshot:
    """The public picture of a game in ``phase`` whose current round is ``rnd``."""
    plays_made = {seat: 0 for seat in range(players)}
    if phase is not Phase.LEAD:  # between rounds the last trick is already counted
        for seat, _ in rnd.trick.plays:
            plays_made[seat] += 1
    completed = rnd.trick_number - 1 if phase is not Phase.LEAD else TRICKS_PER_ROUND
    seats = tuple(
        SeatSnapshot(
            seat=seat,
            columns={
                c: tuple(str(x) for x in area.columns[c]) for c in COLOURS if area.columns.get(c)
            },
            face_down=len(area.face_down),
            oshaka=tuple(str(c) for c in area.oshaka),
            round_score=area.score(),
            total=totals[seat],
            cards_left=HAND_SIZE - completed - plays_made[seat],
            hand_registered=seat in rnd.hands,
        )
        for seat, area in enumerate(rnd.areas)
    )
    return OshakaSnapshot(
        game=GAME_ID,
        title=TITLE,
        players=players,
        phase=phase,
        round=rnd.number,
        rounds=ROUNDS,
        trick_number=rnd.trick_number,
        tricks_per_round=TRICKS_PER_ROUND,
        lead_seat=rnd.trick.lead_seat,
        lead_colour=rnd.trick.led,
        trick=tuple(TrickCard(s, str(c)) for s, c in rnd.trick.plays),
        to_place=tuple(str(c) for c in rnd.to_place) if phase is Phase.PLACE else (),
        trick_winner=rnd.winner,
        lead_choosers=lead_choosers,
        next=expected,
        seats=seats,
        round_scores=tuple(tuple(a.score() for a in r.areas) for r in finished_rounds),
        totals=tuple(totals),
        winners=tuple(best_seats(totals)) if phase is Phase.OVER else (),
        last_trick=tuple(TrickCard(s, str(c)) for s, c in rnd.last_trick),
        last_trick_winner=rnd.last_winner,
        last_placement=tuple(PlacedCard(str(card), placed) for card, placed in rnd.placed),
    )
