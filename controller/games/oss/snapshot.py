"""What everyone at an Oss table can see, as typed values: the engine's snapshot.

The display imports these types (never the rules) and reads them by attribute:
the view carries the engine's ``OssSnapshot`` and, beside it, the table's
overlay ``TableSide`` (the toss timer, the choices in progress).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from controller.games.base import (
    JSON,
    Expectation,
    Overlay,
    Snapshot,
    json_expectation,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    AttemptKind,
    Phase,
    Verb,
)
from controller.games.oss.options import DEFAULTS
from controller.games.oss.values import tribe_of
from controller.games.words import Words

# --- the typed snapshot ------------------------------------------------------------
#
# What everyone can see, as frozen values the display reads by attribute.
# ``to_json()`` gives their plain data (for logs, tests and golden files);
# ``from_json`` reads it back, forgiving: a missing or mistyped field takes a default.


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ints(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))


def _objects(value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, Mapping)]


class PlacementMode(StrEnum):
    """What a tribe card below a trick will do: duel, attempt alone, or (so far) neither."""

    ALONE = "alone so far"
    DUEL = "duel"
    SOLO = "solo"


@dataclass(frozen=True)
class PlacementView(Snapshot):
    """A tribe card below a solo trick: whose, its value, and what it will do."""

    seat: int
    value: int
    mode: PlacementMode

    def to_json(self) -> JSON:
        return {"seat": self.seat, "value": self.value, "mode": str(self.mode)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlacementView:
        mode = data.get("mode")
        known = mode in tuple(PlacementMode)
        return cls(
            _int(data.get("seat")),
            _int(data.get("value")),
            PlacementMode(str(mode)) if known else PlacementMode.SOLO,
        )


@dataclass(frozen=True)
class TrickView(Snapshot):
    """A trick card on the table; a solo trick also has its position and the cards below it."""

    card: cards.TrickCard  # name, family, throw, set-up, do, note, duel style
    index: int | None = None  # a solo trick's position (None for the duel trick)
    placements: tuple[PlacementView, ...] = ()

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def kind(self) -> AttemptKind:
        return AttemptKind(self.card.kind)

    @classmethod
    def named(
        cls, name: str, index: int | None = None, placements: Sequence[PlacementView] = ()
    ) -> TrickView:
        """The trick card called ``name`` (at ``index``, with the cards placed below it)."""
        return cls(cards.TRICKS_BY_NAME[name], index, tuple(placements))

    def to_json(self) -> JSON:
        data: JSON = self.card.to_json()
        if self.index is not None:
            data["index"] = self.index
            data["placements"] = [p.to_json() for p in self.placements]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrickView:
        placements = tuple(PlacementView.from_json(p) for p in _objects(data.get("placements")))
        known = cards.TRICKS_BY_NAME.get(str(data.get("name")))
        if known is not None:
            # The deck's own card: its instructions stay messages, shown in each reader's language.
            return cls(known, _opt_int(data.get("index")), placements)
        card = cards.TrickCard(
            name=str(data.get("name", "?")),
            family=_int(data.get("family")),
            throw=str(data.get("throw", "")),
            setup=str(data.get("setup", "")),
            do=str(data.get("do", "")),
            note=str(data.get("note", "")),
            style=str(data.get("style", "")),
        )
        placements = tuple(PlacementView.from_json(p) for p in _objects(data.get("placements")))
        return cls(card, _opt_int(data.get("index")), placements)


@dataclass(frozen=True)
class AttemptView(Snapshot):
    """One attempt of the round as the display shows it."""

    kind: AttemptKind
    trick: str  # the trick thrown: the solo trick, or the duel trick
    below: str  # the solo trick the cards lie below
    seats: tuple[int, ...]
    values: tuple[int, ...]
    status: str  # "waiting", "current", "won", "lost" or "won by seat N"

    def to_json(self) -> JSON:
        return {
            "kind": str(self.kind),
            "trick": self.trick,
            "below": self.below,
            "seats": list(self.seats),
            "values": list(self.values),
            "status": self.status,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AttemptView:
        kind = AttemptKind.DUEL if data.get("kind") == AttemptKind.DUEL else AttemptKind.SOLO
        return cls(
            kind,
            str(data.get("trick", "?")),
            str(data.get("below", "?")),
            _ints(data.get("seats")),
            _ints(data.get("values")),
            str(data.get("status", "")),
        )


class Ending(StrEnum):
    """How a reported attempt ended, as the table shows it again."""

    SUCCEEDED = "succeeded"  # a solo attempt
    FAILED = "failed"
    DUEL_WON = "duel won"
    TIED = "tied"  # a duel, played again
    OUT = "out"  # a seat eliminated from the challenge
    CHALLENGE_WON = "challenge won"


@dataclass(frozen=True)
class ResultView(Snapshot):
    """One attempt's reported result: the game's ``number``-th, how it ended, the trick
    (or challenge card), the seats it concerns (a duel's winner first; both when tied)
    and the tosses the timer measured in it (milliseconds, in order)."""

    number: int
    ending: Ending
    trick: str
    seats: tuple[int, ...]
    times: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        return {
            "number": self.number,
            "ending": str(self.ending),
            "trick": self.trick,
            "seats": list(self.seats),
            "times": list(self.times),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultView:
        ending = data.get("ending")
        return cls(
            _int(data.get("number")),
            Ending(str(ending)) if ending in tuple(Ending) else Ending.FAILED,
            str(data.get("trick", "?")),
            _ints(data.get("seats")),
            _ints(data.get("times")),
        )


@dataclass(frozen=True)
class ChallengeView(Snapshot):
    """The challenge card being attempted and the seats still in it."""

    name: str
    setup: Words  # the card's instructions, as messages (shown in each reader's language)
    do: Words
    note: Words
    remaining: tuple[int, ...]

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "setup": str(self.setup),
            "do": str(self.do),
            "note": str(self.note),
            "remaining": list(self.remaining),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChallengeView:
        known = cards.CHALLENGES_BY_NAME.get(str(data.get("name")))
        if known is not None:
            remaining = _ints(data.get("remaining"))
            return cls(known.name, known.setup, known.do, known.note, remaining)
        return cls(
            str(data.get("name", "?")),
            str(data.get("setup", "")),
            str(data.get("do", "")),
            str(data.get("note", "")),
            _ints(data.get("remaining")),
        )


@dataclass(frozen=True)
class SeatState(Snapshot):
    """What everyone can see of one seat."""

    seat: int
    chief: bool
    hand_size: int
    deck_size: int
    won: tuple[int, ...]
    challenges: tuple[str, ...]
    score: int
    replays_left: int

    @property
    def tribe(self) -> int:
        """The tribe the seat plays (card notation ``T{tribe}-...``)."""
        return tribe_of(self.seat)

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "chief": self.chief,
            "hand_size": self.hand_size,
            "deck_size": self.deck_size,
            "won": list(self.won),
            "challenges": list(self.challenges),
            "score": self.score,
            "replays_left": self.replays_left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatState:
        challenges = data.get("challenges")
        return cls(
            _int(data.get("seat")),
            data.get("chief") is True,
            _int(data.get("hand_size")),
            _int(data.get("deck_size")),
            _ints(data.get("won")),
            tuple(str(c) for c in challenges) if isinstance(challenges, list | tuple) else (),
            _int(data.get("score")),
            _int(data.get("replays_left")),
        )


@dataclass(frozen=True)
class TossView(Snapshot):
    """One entry of the attempt log as the display shows it, flagged over the table's limit."""

    seat: int
    millis: int
    round: int
    trick: str
    over_limit: bool = False

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "millis": self.millis,
            "round": self.round,
            "trick": self.trick,
            "over_limit": self.over_limit,
        }


@dataclass(frozen=True)
class TimerView(Snapshot):
    """The toss timer as the display shows it: the running clock, the log and the bests."""

    limit: float | None = None  # seconds per attempt, or None
    running: bool = False
    started_at: float | None = None  # the running toss's start, time.monotonic()
    seat: int | None = None  # whose toss is running
    log: tuple[TossView, ...] = ()  # the latest entries, oldest first
    bests: Mapping[int, int] = field(default_factory=dict)  # seat -> fastest, ms
    cancelled: int = 0
    present: bool = True  # the table has a toss timer ([timer] in table.toml)

    @property
    def last(self) -> TossView | None:
        return self.log[-1] if self.log else None

    def to_json(self) -> JSON:
        return {
            "limit": self.limit,
            "running": self.running,
            "started_at": self.started_at,
            "seat": self.seat,
            "log": [entry.to_json() for entry in self.log],
            "last": None if self.last is None else self.last.to_json(),
            "bests": {str(seat): ms for seat, ms in sorted(self.bests.items())},
            "cancelled": self.cancelled,
            "present": self.present,
        }


@dataclass(frozen=True)
class TableSide(Overlay):
    """What the table shows over an Oss snapshot: the timer and the choices in progress.

    The adapter's presentation fills it; the engine never sees it.
    """

    timer: TimerView = field(default_factory=TimerView)
    timed_seat: int | None = None  # whose toss the timer measures next
    chosen_trick: str | None = None  # the trick the seat on turn has chosen so far
    counting_duel: bool = False  # a "most jacks" duel is being reported: counts are entered
    counts: Mapping[int, int] = field(default_factory=dict)  # confirmed counts, by seat
    # The rulings that matter now, most useful first; JSON carries their English words
    # (the display finds their messages in ``SPEC.vocabulary["rulings"]``).
    help: tuple[Words, ...] = ()

    def to_json(self) -> JSON:
        return {
            "timer": self.timer.to_json(),
            "timed_seat": self.timed_seat,
            "chosen_trick": self.chosen_trick,
            "counting_duel": self.counting_duel,
            "counts": {str(seat): count for seat, count in sorted(self.counts.items())},
            "help": [str(text) for text in self.help],
        }


@dataclass(frozen=True)
class OssSnapshot(Snapshot):
    """What everyone at the table can see of a game of Oss (``Oss.snapshot()``).

    The table's side (the timer, the choices in progress) is not here but in
    ``TableSide``, the overlay the table's presentation hands the display beside it.
    """

    round: int
    rounds: int
    phase: Phase
    chief: int
    next: Expectation | None
    rounds_option: int  # the options the game was started with
    replays_per_round: int
    replay_scope: str
    tricks: tuple[TrickView, ...]  # this round's solo tricks, in family order
    duel: TrickView | None  # the round's duel trick, once revealed
    attempts: tuple[AttemptView, ...]
    current: int | None  # index in ``attempts`` of the attempt being reported
    duel_winner: int | None
    replaying: int | None  # the seat deciding on a replay
    challenge: ChallengeView | None
    challenges_left: int
    seats: tuple[SeatState, ...]
    winners: tuple[int, ...]
    game: str = "oss"
    # The latest reported results, newest last: what the centre holds a moment and a
    # seat brings back with a long NEXT.
    last_attempts: tuple[ResultView, ...] = ()

    @property
    def current_attempt(self) -> AttemptView | None:
        if self.current is not None and 0 <= self.current < len(self.attempts):
            return self.attempts[self.current]
        return None

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "round": self.round,
            "rounds": self.rounds,
            "phase": str(self.phase),
            "chief": self.chief,
            "next": None if self.next is None else self.next.to_json(),
            "options": {
                "rounds": self.rounds_option,
                "replays_per_round": self.replays_per_round,
                "replay_scope": self.replay_scope,
            },
            "tricks": [t.to_json() for t in self.tricks],
            "duel": None if self.duel is None else self.duel.to_json(),
            "attempts": [a.to_json() for a in self.attempts],
            "current": self.current,
            "duel_winner": self.duel_winner,
            "replaying": self.replaying,
            "challenge": None if self.challenge is None else self.challenge.to_json(),
            "challenges_left": self.challenges_left,
            "seats": [s.to_json() for s in self.seats],
            "winners": list(self.winners),
            "last_attempts": [result.to_json() for result in self.last_attempts],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OssSnapshot:
        """The snapshot read back from its JSON form (forgiving: see above)."""
        phase = data.get("phase")
        nxt = data.get("next")
        options = data.get("options")
        options = options if isinstance(options, Mapping) else {}
        duel, challenge = data.get("duel"), data.get("challenge")
        return cls(
            round=_int(data.get("round"), 1),
            rounds=_int(data.get("rounds"), 1),
            phase=Phase(phase) if phase in tuple(Phase) else Phase.HAND,
            chief=_int(data.get("chief")),
            next=json_expectation(nxt, Verb),
            rounds_option=_int(options.get("rounds"), DEFAULTS.rounds),
            replays_per_round=_int(options.get("replays_per_round"), DEFAULTS.replays_per_round),
            replay_scope=str(options.get("replay_scope", DEFAULTS.replay_scope)),
            tricks=tuple(TrickView.from_json(t) for t in _objects(data.get("tricks"))),
            duel=TrickView.from_json(duel) if isinstance(duel, Mapping) else None,
            attempts=tuple(AttemptView.from_json(a) for a in _objects(data.get("attempts"))),
            current=_opt_int(data.get("current")),
            duel_winner=_opt_int(data.get("duel_winner")),
            replaying=_opt_int(data.get("replaying")),
            challenge=ChallengeView.from_json(challenge)
            if isinstance(challenge, Mapping)
            else None,
            challenges_left=_int(data.get("challenges_left")),
            seats=tuple(SeatState.from_json(s) for s in _objects(data.get("seats"))),
            winners=_ints(data.get("winners")),
            last_attempts=tuple(
                ResultView.from_json(r) for r in _objects(data.get("last_attempts"))
            ),
        )
