"""Oss, the jacks dexterity game: the rules the table keeps while people throw jacks.

The players do the tricks with their hands; the engine keeps the flow and the
score. A round goes: the chief reveals three solo tricks and a duel trick;
from the chief clockwise every seat plays a tribe card below a solo trick;
the first two cards below a trick duel with the duel trick, later ones try the
trick alone; the attempts are made in turn order from the chief, with replays
bought by discarding a tribe card; then everyone attempts the challenge,
whose winner becomes the chief; then everyone draws one tribe card.

Chance enters only as actions (``hand``, ``draw``, ``reveal``, ``challenge``),
so a record replays a game exactly; :meth:`Oss.chance_actions` (the engine
contract) and :func:`chance_action` draw those actions from an injected
``random.Random`` for the table's virtual deck, the simulated game and the
tests. Every rule the table needs is here: a "most jacks" duel entered as
``counts`` is judged by the engine, which tribe a tapped card may be is
:meth:`Oss.check_tribe`, and the toss timer's times are ``timed`` actions the
engine keeps in its attempt log and bests (so an undo or a resume keeps them).
:meth:`Oss.snapshot` returns a frozen :class:`OssSnapshot`. The record verbs
are documented in ``docs/oss-records.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import product
from typing import Any, ClassVar, Self

from controller.games.base import (
    JSON,
    Action,
    BadOption,
    Chance,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    MalformedAction,
    Snapshot,
    best_seats,
    describe,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.oss import cards
from controller.games.words import Items, Player, Text, Verbatim, Words, say, say_plural

HAND_SIZE = 5
MAX_ROUNDS = 4
DEFAULT_OPTIONS: dict[str, Any] = {"rounds": 4, "replays_per_round": 2, "replay_scope": "player"}
REPLAY_SCOPES = ("player", "table")

#: The project's rulings where the rulebook leaves a choice; the display shows them as help.
RULINGS: list[Text] = [
    say(
        "Replays: a player may replay at most 2 times per round (option replays per round); "
        "when replays count for the table, the limit counts every replay at the table in "
        "that round."
    ),
    say(
        "A replay is offered only after a failure (a lost solo attempt or a lost duel): "
        "a success is already the best result, so replaying it could only lose the card."
    ),
    say(
        "To replay, the player discards one tribe card from their hand; it is out of the "
        "game. A player with no card in hand, or no replay left, is not asked and their "
        "card is lost."
    ),
    say(
        "The loser of a duel may replay: the duel restarts from the beginning and the new "
        "result replaces the old one. Each duelist's replays count separately."
    ),
    say("A tie in a duel restarts it; a tie is not a replay and costs nothing."),
    say(
        "The duel is fought at the turn of its first player (the one who placed first); the "
        "second duelist has no turn of their own. Several tricks can each start a duel in "
        "the same round; every duel uses the revealed duel trick."
    ),
    say(
        "The duel winner keeps one of the two tribe cards; when both show the same value "
        "the winner keeps their own card without being asked."
    ),
    say(
        "Challenges cannot be replayed. Report each elimination, or the winner outright; "
        "the last player standing wins the card (4 points) and becomes the chief."
    ),
    say("The new chief starts the next round: reveals the tricks, plays first and attempts first."),
    say(
        "Hands are registered (5 cards at the start, then one draw per player after each "
        "round but the last) so the table can refuse a card a player does not hold; hands "
        "stay private."
    ),
    say("There is no draw after the last round: the game is over."),
    say(
        "Score: the values of the tribe cards won (whatever tribe they come from) plus 4 "
        "per challenge card. Tied players share the victory."
    ),
]

#: How the table plays Oss where the rulebook leaves it open (its buttons, its toss timer);
#: the adapter picks the ones that matter now as the display's help.
TABLE_RULINGS: list[Text] = [
    say("The table cannot know who is the most big-boned: it draws the first chief."),
    say(
        "Each player plays their own tribe's cards; a card of another tribe is refused, "
        "except the duel card a duel winner keeps."
    ),
    say("Choose the trick with PREV/NEXT first, then tap the tribe card: the tap plays it."),
    say(
        "Kat!, Manu! and Bagi! are won by the most jacks: each count is entered (PREV/NEXT "
        "then OK; below 0 is failed, which any count beats; equal counts are a tie and the "
        "duel starts again). One duelist may enter both counts."
    ),
    say(
        "Other duels: either duelist reports OK (I won), NEXT (I lost) or PREV (tie: start again)."
    ),
    say(
        "Challenges: each player still in presses NEXT when eliminated, or OK to take the "
        "challenge outright; the last one left wins it."
    ),
    say(
        "The toss timer only measures: the players still report every result. A time over "
        "the countdown limit is flagged; the best time is a player's fastest."
    ),
    say("In a duel the timer's times go to the two duelists in turn, first duelist first."),
]


class Verb(StrEnum):
    """The record verbs of Oss (``docs/oss-records.md``); a ``StrEnum``, so they are their JSON."""

    HAND = "hand"
    DRAW = "draw"
    REVEAL = "reveal"
    TRIBE = "tribe"
    RESULT = "result"
    COUNTS = "counts"
    COUNT = "count"
    TIMED = "timed"
    REPLAY = "replay"
    PASS = "pass"
    KEEP = "keep"
    CHALLENGE = "challenge"


class Outcome(StrEnum):
    """A ``result`` as a seat reports it."""

    WON = "won"
    LOST = "lost"
    TIE = "tie"


class AttemptKind(StrEnum):
    """An attempt of the round: one seat alone, or two seats in a duel."""

    SOLO = "solo"
    DUEL = "duel"


_VERBS: dict[str, tuple[str, ...]] = {verb: () for verb in Verb} | {
    Verb.TRIBE: ("trick",),
    Verb.COUNT: ("of",),
}

#: What each verb asks of a seat, for messages ("seat 2 cannot <phrase> now").
_PHRASES: dict[Verb, Text] = {
    Verb.HAND: say("register a hand"),
    Verb.DRAW: say("register a draw"),
    Verb.REVEAL: say("reveal the tricks"),
    Verb.TRIBE: say("play a tribe card"),
    Verb.RESULT: say("report a result"),
    Verb.COUNTS: say("enter a duel's counts"),
    Verb.COUNT: say("confirm a duelist's count"),
    Verb.TIMED: say("record a timed toss"),
    Verb.REPLAY: say("replay"),
    Verb.PASS: say("pass"),
    Verb.KEEP: say("keep a card"),
    Verb.CHALLENGE: say("reveal the challenge card"),
}

#: Duel tricks won by "the most jacks": the duelists' counts decide (the ``counts`` verb).
MOST_JACKS_DUELS: frozenset[str] = frozenset({"Kat!", "Manu!", "Bagi!"})
#: The most jacks a count can reach (the game has six jacks besides the Jack).
MAX_COUNT = 6
#: The count below 0: the duelist failed (dropped the Jack); any count beats it.
FAILED = -1
#: The longest toss the ``timed`` verb takes, in milliseconds (an hour: anything longer is a typo).
MAX_TIMED_MILLIS = 3_600_000

RESULTS = tuple(Outcome)


class Phase(StrEnum):
    """Where the game stands; each phase takes the verbs listed in ``_PHASE_VERBS``."""

    HAND = "hand"
    REVEAL = "reveal"
    TRIBE = "tribe"
    RESULT = "result"
    REPLAY = "replay"
    KEEP = "keep"
    CHALLENGE = "challenge"
    CHALLENGE_RESULT = "challenge-result"
    DRAW = "draw"
    OVER = "over"


_PHASE_VERBS: dict[Phase, tuple[Verb, ...]] = {
    Phase.HAND: (Verb.HAND,),
    Phase.REVEAL: (Verb.REVEAL,),
    Phase.TRIBE: (Verb.TRIBE,),
    Phase.RESULT: (Verb.RESULT, Verb.COUNTS, Verb.COUNT, Verb.TIMED),
    Phase.REPLAY: (Verb.REPLAY, Verb.PASS),
    Phase.KEEP: (Verb.KEEP,),
    Phase.CHALLENGE: (Verb.CHALLENGE,),
    Phase.CHALLENGE_RESULT: (Verb.RESULT,),
    Phase.DRAW: (Verb.DRAW,),
    Phase.OVER: (),
}

# What the table waits for, as "the table waits for seat 2 to <phrase>".
_WAITING: dict[Phase, Text] = {
    Phase.HAND: say("register their hand"),
    Phase.REVEAL: say("reveal the tricks"),
    Phase.TRIBE: say("play a tribe card"),
    Phase.RESULT: say("report the result of their attempt"),
    Phase.REPLAY: say("replay or pass"),
    Phase.KEEP: say("choose the card to keep"),
    Phase.CHALLENGE: say("reveal the challenge card"),
    Phase.CHALLENGE_RESULT: say("report the challenge"),
    Phase.DRAW: say("register their draw"),
}


# --- actions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hand(Action):
    """A seat's five starting tribe cards (values), registered before round 1."""

    values: tuple[int, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, "hand": list(self.values)}


@dataclass(frozen=True)
class Draw(Action):
    """The tribe card a seat draws from its deck at the end of a round."""

    value: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "draw": self.value}


@dataclass(frozen=True)
class Reveal(Action):
    """The chief reveals the round's tricks: one solo trick of each family and a duel trick."""

    solo: tuple[str, ...]
    duel: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "reveal": {"solo": list(self.solo), "duel": self.duel}}


@dataclass(frozen=True)
class Tribe(Action):
    """A seat plays a tribe card of ``value`` below the solo trick ``trick``."""

    value: int
    trick: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "tribe": self.value, "trick": self.trick}


@dataclass(frozen=True)
class Result(Action):
    """How an attempt went for this seat: ``won``, ``lost`` or (duels only) ``tie``.

    In the challenge, ``lost`` eliminates the seat and ``won`` names the winner.
    """

    result: Outcome

    def __post_init__(self) -> None:
        # Callers may name the outcome by its word ("won"); the engine compares members.
        object.__setattr__(self, "result", Outcome(self.result))

    def to_json(self) -> JSON:
        return {"seat": self.seat, "result": self.result}


@dataclass(frozen=True)
class Counts(Action):
    """A "most jacks" duel entered as the duelists' counts, first duelist first; the engine judges.

    ``FAILED`` (-1) is a duelist who failed (dropped the Jack): any count beats it.
    Equal counts are a tie and the duel starts again. Either duelist may enter both.
    """

    counts: tuple[int, int]

    def to_json(self) -> JSON:
        return {"seat": self.seat, "counts": list(self.counts)}


@dataclass(frozen=True)
class Count(Action):
    """One duelist's count of a "most jacks" duel, confirmed at the table (``of``: whose jacks).

    It decides nothing: the duel is judged by ``Counts``, which a table sends when
    the second count is confirmed. It is journaled so that a count confirmed
    before a crash or a staff undo is still confirmed after it. Never expected,
    so ``legal_actions`` does not list it (as ``Timed``).
    """

    of: int
    count: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "count": self.count, "of": self.of}


@dataclass(frozen=True)
class Timed(Action):
    """The toss timer measured this seat's toss in the attempt going on, in milliseconds.

    It only measures: it decides nothing and is never expected, so ``legal_actions``
    does not list it. The engine keeps the attempt log and each seat's best from it.
    """

    millis: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "timed": self.millis}


@dataclass(frozen=True)
class Replay(Action):
    """After a failure, the seat discards a tribe card of ``value`` to try again."""

    value: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "replay": self.value}


@dataclass(frozen=True)
class Pass(Action):
    """After a failure, the seat declines its replay."""

    def to_json(self) -> JSON:
        return {"seat": self.seat, "pass": True}


@dataclass(frozen=True)
class Keep(Action):
    """The duel winner keeps the duel's tribe card of ``value``; the other is out."""

    value: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "keep": self.value}


@dataclass(frozen=True)
class Challenge(Action):
    """The chief reveals the round's challenge card."""

    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "challenge": self.card}


# --- events ----------------------------------------------------------------------


@dataclass(frozen=True)
class HandRegistered(Event):
    seat: int
    count: int


@dataclass(frozen=True)
class CardDrawn(Event):
    seat: int


@dataclass(frozen=True)
class TricksRevealed(Event):
    round: int
    solo: tuple[str, ...]
    duel: str


@dataclass(frozen=True)
class TribePlayed(Event):
    seat: int
    value: int
    trick: str


@dataclass(frozen=True)
class DuelFormed(Event):
    trick: str
    duel: str
    first: int
    second: int


@dataclass(frozen=True)
class AttemptBegins(Event):
    """The next attempt: a solo (one seat) or a duel (two seats, first duelist first)."""

    kind: AttemptKind
    trick: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class SoloResult(Event):
    seat: int
    trick: str
    value: int
    won: bool


@dataclass(frozen=True)
class DuelCounted(Event):
    """A "most jacks" duel's counts as entered (first duelist first); the result follows."""

    seats: tuple[int, int]
    counts: tuple[int, int]


@dataclass(frozen=True)
class CountConfirmed(Event):
    """``seat`` confirmed ``of``'s count in a "most jacks" duel; the other count is still due."""

    seat: int
    of: int
    count: int


@dataclass(frozen=True)
class TossTimed(Event):
    """A timed toss went into the attempt log; ``best_before`` is the seat's best until now."""

    seat: int
    millis: int
    best_before: int | None


@dataclass(frozen=True)
class DuelTied(Event):
    first: int
    second: int


@dataclass(frozen=True)
class DuelResult(Event):
    winner: int
    loser: int


@dataclass(frozen=True)
class Replayed(Event):
    seat: int
    discarded: int
    replays_left: int


@dataclass(frozen=True)
class CardWon(Event):
    seat: int
    tribe: int
    value: int


@dataclass(frozen=True)
class CardOut(Event):
    tribe: int
    value: int
    why: str


@dataclass(frozen=True)
class ChallengeRevealed(Event):
    card: str


@dataclass(frozen=True)
class Eliminated(Event):
    seat: int


@dataclass(frozen=True)
class ChallengeWon(Event):
    seat: int
    card: str


@dataclass(frozen=True)
class RoundScored(Event):
    round: int
    scores: tuple[int, ...]


# --- small value types -----------------------------------------------------------


@dataclass(frozen=True)
class TribeCard:
    """One physical tribe card: whose tribe it belongs to and its value."""

    tribe: int
    value: int


@dataclass(frozen=True)
class Won:
    """A tribe card in a seat's won pile, with the round it was won in."""

    card: TribeCard
    round: int


@dataclass(frozen=True)
class Placement:
    """A tribe card played below a solo trick, in playing order."""

    seat: int
    value: int
    trick: str


@dataclass(frozen=True)
class Attempt:
    """One attempt of the round: a solo (one seat) or a duel (first duelist, second)."""

    kind: AttemptKind
    trick: str
    seats: tuple[int, ...]
    values: tuple[int, ...]

    def card_of(self, seat: int) -> TribeCard:
        return TribeCard(seat, self.values[self.seats.index(seat)])


@dataclass(frozen=True)
class TimedToss:
    """One entry of the attempt log: a toss the timer measured, to the millisecond."""

    seat: int
    millis: int
    round: int
    trick: str  # the solo trick attempted, or the duel trick

    def to_json(self) -> JSON:
        return {"seat": self.seat, "millis": self.millis, "round": self.round, "trick": self.trick}


@dataclass
class RoundInfo:
    """What the report shows about one round besides the scores."""

    chief: int
    solo: tuple[str, ...] = ()
    duel: str | None = None
    challenge: str | None = None
    challenge_winner: int | None = None
    replays: list[int] = field(default_factory=list)


def _values(counter: Counter[int]) -> list[int]:
    return sorted(counter.elements())


def _require_value(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise MalformedAction(
            say(
                "{what} must be a tribe card value 1..4, not {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    return value


def _require_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not FAILED <= value <= MAX_COUNT:
        raise MalformedAction(
            say(
                "a count must be {failed} (failed) to {most} jacks, not {value}",
                failed=FAILED,
                most=MAX_COUNT,
                value=Verbatim(describe(value)),
            )
        )
    return value


def _require_trick(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise MalformedAction(
            say(
                "{what} must be a trick name, not {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    name = cards.trick_name(value)
    if name is None:
        raise MalformedAction(
            say(
                "{what}: there is no trick called {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    return name


# --- the typed snapshot ------------------------------------------------------------
#
# What everyone can see, as frozen values the display reads by attribute.
# ``to_json()`` gives the plain data the table hands to the display (and that
# logs and tests read); ``from_json`` reads it back, forgiving: a display fed a
# partial picture still draws, so a missing or mistyped field takes a default.


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


def _seat_map(value: object) -> dict[int, int]:
    """``{"0": 1234}`` (JSON object keys are text) read back as ``{0: 1234}``."""
    if not isinstance(value, Mapping):
        return {}
    out: dict[int, int] = {}
    for key, number in value.items():
        if str(key).isdigit() and _opt_int(number) is not None:
            out[int(key)] = _int(number)
    return out


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
        return Oss.tribe_of(self.seat)

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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TossView:
        return cls(
            _int(data.get("seat")),
            _int(data.get("millis")),
            _int(data.get("round")),
            str(data.get("trick", "")),
            data.get("over_limit") is True,
        )


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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimerView:
        limit, started = data.get("limit"), data.get("started_at")
        number = int | float
        return cls(
            float(limit) if isinstance(limit, number) and not isinstance(limit, bool) else None,
            data.get("running") is True,
            float(started)
            if isinstance(started, number) and not isinstance(started, bool)
            else None,
            _opt_int(data.get("seat")),
            tuple(TossView.from_json(e) for e in _objects(data.get("log"))),
            _seat_map(data.get("bests")),
            _int(data.get("cancelled")),
            data.get("present") is not False,
        )


@dataclass(frozen=True)
class TableSide(Snapshot):
    """What the table adds to the engine's picture: the timer and the choices in progress."""

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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSide:
        timer = data.get("timer")
        chosen = data.get("chosen_trick")
        texts = data.get("help")
        return cls(
            TimerView.from_json(timer) if isinstance(timer, Mapping) else TimerView(),
            _opt_int(data.get("timed_seat")),
            chosen if isinstance(chosen, str) else None,
            data.get("counting_duel") is True,
            _seat_map(data.get("counts")),
            tuple(str(t) for t in texts) if isinstance(texts, list | tuple) else (),
        )


#: The keys ``TableSide`` adds to the snapshot's JSON form.
_TABLE_KEYS = frozenset(("timer", "timed_seat", "chosen_trick", "counting_duel", "counts", "help"))


@dataclass(frozen=True)
class OssSnapshot(Snapshot):
    """What everyone at the table can see of a game of Oss (``Oss.snapshot()``).

    ``table`` is None from the engine; the table's presentation adds its side
    (``TableSide``). ``to_json()`` is the engine's snapshot dict, with the
    table's keys beside the engine's when ``table`` is set.
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
    table: TableSide | None = None
    game: str = "oss"

    @property
    def current_attempt(self) -> AttemptView | None:
        if self.current is not None and 0 <= self.current < len(self.attempts):
            return self.attempts[self.current]
        return None

    def with_table(self, side: TableSide) -> OssSnapshot:
        """This snapshot with the table's side added."""
        return replace(self, table=side)

    def to_json(self) -> JSON:
        data: JSON = {
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
        }
        if self.table is not None:
            data.update(self.table.to_json())
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OssSnapshot:
        """The snapshot read back from its JSON form (forgiving: see above)."""
        phase = data.get("phase")
        nxt = data.get("next")
        options = data.get("options")
        options = options if isinstance(options, Mapping) else {}
        duel, challenge = data.get("duel"), data.get("challenge")
        expected = None
        if isinstance(nxt, Mapping) and _opt_int(nxt.get("seat")) is not None:
            expected = Expectation(_int(nxt.get("seat")), str(nxt.get("expects", "")))
        has_table = any(key in data for key in _TABLE_KEYS)
        return cls(
            round=_int(data.get("round"), 1),
            rounds=_int(data.get("rounds"), 1),
            phase=Phase(phase) if phase in tuple(Phase) else Phase.HAND,
            chief=_int(data.get("chief")),
            next=expected,
            rounds_option=_int(options.get("rounds"), DEFAULT_OPTIONS["rounds"]),
            replays_per_round=_int(
                options.get("replays_per_round"), DEFAULT_OPTIONS["replays_per_round"]
            ),
            replay_scope=str(options.get("replay_scope", DEFAULT_OPTIONS["replay_scope"])),
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
            table=TableSide.from_json(data) if has_table else None,
        )

    @classmethod
    def of(cls, game: OssSnapshot | Mapping[str, Any]) -> OssSnapshot:
        """``game`` as a snapshot: itself, or read back from the JSON the view carries."""
        return game if isinstance(game, OssSnapshot) else cls.from_json(game)


class Oss(Engine):
    """One game of Oss; see the module docstring and ``docs/oss-records.md``."""

    game_id: ClassVar[str] = "oss"
    title: ClassVar[str] = "Oss"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(
        self,
        players: int,
        chief: int,
        rounds: int = 4,
        replays_per_round: int = 2,
        replay_scope: str = "player",
    ) -> None:
        if not self.min_players <= players <= self.max_players:
            raise BadOption(
                say("oss is for 2 to 6 players, not {players}", players=Verbatim(str(players)))
            )
        if not 0 <= chief < players:
            raise BadOption(
                say(
                    '"chief" must be a seat 0..{last}, not {chief}',
                    last=Verbatim(str(players - 1)),
                    chief=Verbatim(str(chief)),
                )
            )
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadOption(
                say(
                    'option "rounds" must be 1..{most}, not {rounds}',
                    most=MAX_ROUNDS,
                    rounds=Verbatim(str(rounds)),
                )
            )
        if not 0 <= replays_per_round <= 8:
            raise BadOption(
                say(
                    'option "replays_per_round" must be 0..8, not {replays}',
                    replays=Verbatim(str(replays_per_round)),
                )
            )
        if replay_scope not in REPLAY_SCOPES:
            raise BadOption(
                say(
                    'option "replay_scope" must be "player" or "table", not {value}',
                    value=Verbatim(describe(replay_scope)),
                )
            )
        self.players = players
        self.first_chief = chief
        self.rounds = rounds
        self.replays_per_round = replays_per_round
        self.replay_scope = replay_scope

        self._phase = Phase.HAND
        self._chief = chief
        self._round = 1
        self._hands: list[Counter[int]] = [Counter() for _ in range(players)]
        self._decks: list[Counter[int]] = [Counter(cards.TRIBE_VALUES) for _ in range(players)]
        self._won: list[list[Won]] = [[] for _ in range(players)]
        self._challenges: list[list[tuple[int, str]]] = [[] for _ in range(players)]
        self._out: list[TribeCard] = []
        self._pending: list[int] = self._from_chief()  # seats still to register hand / draw
        self._solo: tuple[str, ...] = ()
        self._duel: str | None = None
        self._used_tricks: set[str] = set()
        self._used_challenges: set[str] = set()
        self._placements: list[Placement] = []
        self._attempts: list[Attempt] = []
        self._outcomes: list[str | None] = []
        self._index = 0
        self._winner: int | None = None  # of the duel being decided
        self._loser: int | None = None  # the seat that may replay
        self._refused_replay: int | None = None  # lost just now and could not replay
        self._refusing: int | None = None  # the same, for the action being applied
        self._replays: list[int] = [0] * players
        self._challenge: str | None = None
        self._remaining: list[int] = []
        self._info: list[RoundInfo] = [RoundInfo(chief, replays=[0] * players)]
        # The toss timer's side, from ``timed`` actions: the attempt log and bests (ms).
        self._tosses: list[TimedToss] = []
        self._bests: dict[int, int] = {}
        self._timed_in_attempt = 0
        # The counts confirmed (``count``) in the duel being counted, by counted seat.
        self._confirmed: dict[int, int] = {}
        # The last action was a timed toss: the decision it times is still to come.
        self._last_timed = False

    # --- header and actions ---------------------------------------------------

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, "oss")
        chief = read_seat_key(header, "chief", players)
        options = {**DEFAULT_OPTIONS, **read_options(header, DEFAULT_OPTIONS, "oss")}
        for key in ("rounds", "replays_per_round"):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(
                    say(
                        'option "{key}" must be a whole number, not {value}',
                        key=Verbatim(key),
                        value=Verbatim(describe(value)),
                    )
                )
        if not isinstance(options["replay_scope"], str):
            raise BadOption(
                say(
                    'option "replay_scope" must be "player" or "table", not {value}',
                    value=Verbatim(describe(options["replay_scope"])),
                )
            )
        return cls(
            players,
            chief,
            rounds=options["rounds"],
            replays_per_round=options["replays_per_round"],
            replay_scope=options["replay_scope"],
        )

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The first chief is "the most big-boned": the table cannot know, so it draws one.
        return new_header(cls, players, options, "chief", rng)

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        # What the shuffled decks give now, worked out from the state alone (no copy
        # of the game played forward): hands or draws, then the reveal that follows
        # them (they take no trick card), or the challenge card.
        if not chance.cards:
            return []
        phase = self._phase
        dealt: list[Action] = []
        if phase is Phase.HAND:
            for seat in self._pending:
                deck = list(self.deck_of(seat))
                dealt.append(Hand(seat, tuple(sorted(rng.sample(deck, HAND_SIZE)))))
        elif phase is Phase.DRAW:
            dealt = [Draw(seat, rng.choice(self.deck_of(seat))) for seat in self._pending]
        if phase in (Phase.HAND, Phase.DRAW, Phase.REVEAL):
            dealt.append(_reveal_from(self, self._chief, rng))
        elif phase is Phase.CHALLENGE:
            dealt.append(Challenge(self._chief, rng.choice(self.available_challenges())))
        return dealt

    def header(self) -> JSON:
        options: JSON = {}
        current = {
            "rounds": self.rounds,
            "replays_per_round": self.replays_per_round,
            "replay_scope": self.replay_scope,
        }
        for key, value in current.items():
            if value != DEFAULT_OPTIONS[key]:
                options[key] = value
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": options,
            "chief": self.first_chief,
        }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        seat, word = split_action(obj, self.players, _VERBS)
        verb = Verb(word)
        payload = obj[verb]
        if verb is Verb.HAND:
            if not isinstance(payload, list) or len(payload) != HAND_SIZE:
                raise MalformedAction(
                    say(
                        '"hand" must list the {n} tribe card values in hand, not {value}',
                        n=HAND_SIZE,
                        value=Verbatim(describe(payload)),
                    )
                )
            return Hand(seat, tuple(_require_value(v, "a hand card") for v in payload))
        if verb is Verb.DRAW:
            return Draw(seat, _require_value(payload, '"draw"'))
        if verb is Verb.REVEAL:
            if not isinstance(payload, dict) or set(payload) != {"solo", "duel"}:
                raise MalformedAction(
                    say(
                        '"reveal" must be an object {example}',
                        example=Verbatim('{"solo": [three trick names], "duel": name}'),
                    )
                )
            solo = payload["solo"]
            if not isinstance(solo, list) or len(solo) != 3:
                raise MalformedAction(
                    say(
                        '"solo" must list three trick names, one per family, not {value}',
                        value=Verbatim(describe(solo)),
                    )
                )
            names = tuple(_require_trick(name, "a solo trick") for name in solo)
            return Reveal(seat, names, _require_trick(payload["duel"], "the duel trick"))
        if verb is Verb.TRIBE:
            if "trick" not in obj:
                raise MalformedAction(
                    say('a "tribe" action needs a "trick": the solo trick to play below')
                )
            return Tribe(
                seat, _require_value(payload, '"tribe"'), _require_trick(obj["trick"], '"trick"')
            )
        if verb is Verb.RESULT:
            if payload not in RESULTS:
                raise MalformedAction(
                    say(
                        '"result" must be "won", "lost" or "tie", not {value}',
                        value=Verbatim(describe(payload)),
                    )
                )
            return Result(seat, Outcome(payload))
        if verb is Verb.COUNTS:
            if not isinstance(payload, list) or len(payload) != 2:
                raise MalformedAction(
                    say(
                        '"counts" must list the two duelists\' counts, first duelist first, '
                        "not {value}",
                        value=Verbatim(describe(payload)),
                    )
                )
            return Counts(seat, (_require_count(payload[0]), _require_count(payload[1])))
        if verb is Verb.COUNT:
            if "of" not in obj:
                raise MalformedAction(
                    say('a "count" action needs "of": the duelist whose jacks were counted')
                )
            of = obj["of"]
            if isinstance(of, bool) or not isinstance(of, int) or not 0 <= of < self.players:
                raise MalformedAction(
                    say(
                        '"of" must be a seat 0..{last}, not {value}',
                        last=Verbatim(str(self.players - 1)),
                        value=Verbatim(describe(of)),
                    )
                )
            return Count(seat, of, _require_count(payload))
        if verb is Verb.TIMED:
            if (
                isinstance(payload, bool)
                or not isinstance(payload, int)
                or not 0 <= payload <= MAX_TIMED_MILLIS
            ):
                raise MalformedAction(
                    say(
                        '"timed" must be a toss time in milliseconds (0..{most}), not {value}',
                        most=Verbatim(str(MAX_TIMED_MILLIS)),
                        value=Verbatim(describe(payload)),
                    )
                )
            return Timed(seat, payload)
        if verb is Verb.REPLAY:
            return Replay(seat, _require_value(payload, '"replay" (the card discarded)'))
        if verb is Verb.PASS:
            if payload is not True:
                raise MalformedAction(
                    say('"pass" must be true, not {value}', value=Verbatim(describe(payload)))
                )
            return Pass(seat)
        if verb is Verb.KEEP:
            return Keep(seat, _require_value(payload, '"keep"'))
        # Verb.CHALLENGE
        if not isinstance(payload, str) or cards.challenge_name(payload) is None:
            known = ", ".join(card.name for card in cards.CHALLENGES)
            raise MalformedAction(
                say(
                    "there is no challenge card called {value}; they are: {known}",
                    value=Verbatim(describe(payload)),
                    known=Verbatim(known),
                )
            )
        name = cards.challenge_name(payload)
        assert name is not None
        return Challenge(seat, name)

    # --- applying actions --------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if not 0 <= action.seat < self.players:
            raise MalformedAction(
                say(
                    '"seat" must be a seat 0..{last}, not {seat}',
                    last=Verbatim(str(self.players - 1)),
                    seat=Verbatim(str(action.seat)),
                )
            )
        verb = _verb_of(action)
        if self._phase is Phase.OVER:
            raise IllegalAction(say("the game is already over; nothing more can be played"))
        if verb not in _PHASE_VERBS[self._phase]:
            raise IllegalAction(self._out_of_order(action.seat, verb))
        if isinstance(action, Timed):
            # A time changes no turn, so the replay just refused stays explained.
            timed = self._timed(action)
            self._last_timed = True
            return timed
        if isinstance(action, Count):
            # A confirmed count changes no turn either; the duel waits for ``counts``.
            return self._count(action)
        handlers: dict[Verb, Callable[[Any], list[Event]]] = {
            Verb.HAND: self._hand,
            Verb.DRAW: self._draw,
            Verb.REVEAL: self._reveal,
            Verb.TRIBE: self._tribe,
            Verb.RESULT: self._result,
            Verb.COUNTS: self._counts,
            Verb.REPLAY: self._replay,
            Verb.PASS: self._pass,
            Verb.KEEP: self._keep,
            Verb.CHALLENGE: self._reveal_challenge,
        }
        # Every handler checks everything before it changes anything, so a refused
        # action returns here with the state untouched, the last refusal included.
        events = handlers[verb](action)
        self._refused_replay, self._refusing = self._refusing, None
        self._last_timed = False
        return events

    @property
    def toss_timed(self) -> bool:
        """Whether the toss of the decision now awaited is timed already (the last action)."""
        return self._last_timed

    def _out_of_order(self, seat: int, verb: Verb) -> Text:
        who = Player(seat)
        if verb is Verb.REPLAY and self._refused_replay == seat:
            if not self._hands[seat]:
                return say(
                    "{player} cannot replay: it has no tribe card left in hand to discard",
                    player=who,
                )
            return say("{player} cannot replay: {why}", player=who, why=self._limit_text(seat))
        if verb is Verb.REPLAY:
            return say(
                "{player} cannot replay now: a replay is only offered after a failure", player=who
            )
        if verb is Verb.PASS:
            return say(
                "{player} cannot pass now: a replay is only offered after a failure", player=who
            )
        if verb is Verb.TIMED:
            return say(
                "{player} cannot record a timed toss now: no attempt is going on", player=who
            )
        return say(
            "{player} cannot {what} now: {why}",
            player=who,
            what=_PHRASES[verb],
            why=self._waiting_text(),
        )

    def _limit_text(self, seat: int) -> Text:
        limit = self.replays_per_round
        if self.replay_scope == "table":
            return say_plural(
                "no more than {n} replay per round at the table, and all are used",
                "no more than {n} replays per round at the table, and all are used",
                limit,
            )
        return say_plural(
            "no more than {n} replay per round, and {player} has used them",
            "no more than {n} replays per round, and {player} has used them",
            limit,
            player=Player(seat),
        )

    def _waiting_text(self) -> Text:
        expected = self.expected
        if expected is None:
            return say("the game is over")
        return say(
            "the table waits for {player} to {what}",
            player=Player(expected.seat),
            what=_WAITING[self._phase],
        )

    def _turn_check(self, seat: int, expected: int, what: Text) -> None:
        if seat != expected:
            raise IllegalAction(
                say(
                    "{player} cannot {what}: it is {other}'s turn",
                    player=Player(seat),
                    what=what,
                    other=Player(expected),
                )
            )

    # hand and draw: chance, registered by each seat in any order

    def _hand(self, action: Hand) -> list[Event]:
        seat = action.seat
        if seat not in self._pending:
            raise IllegalAction(
                say("{player} has already registered its hand", player=Player(seat))
            )
        counts = Counter(action.values)
        over = [v for v, n in counts.items() if n > self._decks[seat][v]]
        if over:
            raise IllegalAction(
                say(
                    "a tribe holds only two cards of value {value}, not {count}",
                    value=over[0],
                    count=counts[over[0]],
                )
            )
        self._decks[seat] -= counts
        self._hands[seat] += counts
        self._pending.remove(seat)
        if not self._pending:
            self._phase = Phase.REVEAL
        return [HandRegistered(seat, HAND_SIZE)]

    def _draw(self, action: Draw) -> list[Event]:
        seat = action.seat
        if seat not in self._pending:
            raise IllegalAction(say("{player} has already drawn this round", player=Player(seat)))
        if self._decks[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player}'s tribe deck holds no card of value {value} (left in it: {left})",
                    player=Player(seat),
                    value=action.value,
                    left=Verbatim(", ".join(map(str, _values(self._decks[seat])))),
                )
            )
        self._decks[seat][action.value] -= 1
        self._decks[seat] = +self._decks[seat]
        self._hands[seat][action.value] += 1
        self._pending.remove(seat)
        if not self._pending:
            self._start_round()
        return [CardDrawn(seat)]

    def _start_round(self) -> None:
        # Every seat holds a card to play: it played one card a round and drew one
        # after each round but the last, and three draws are exactly its deck.
        self._round += 1
        self._phase = Phase.REVEAL
        self._replays = [0] * self.players
        self._info.append(RoundInfo(self._chief, replays=[0] * self.players))

    # reveal of the tricks

    def _reveal(self, action: Reveal) -> list[Event]:
        self._turn_check(action.seat, self._chief, _PHRASES[Verb.REVEAL])
        families = [cards.TRICKS_BY_NAME[name].family for name in action.solo]
        if sorted(families) != [1, 2, 3]:
            raise IllegalAction(
                say(
                    "the solo tricks must be one of each solo family (1, 2 and 3), "
                    "not families {families}",
                    families=Verbatim(", ".join(map(str, families))),
                )
            )
        if cards.TRICKS_BY_NAME[action.duel].family != cards.DUEL:
            raise IllegalAction(
                say("{trick} is a solo trick, not a duel trick", trick=Verbatim(action.duel))
            )
        for name in (*action.solo, action.duel):
            if name in self._used_tricks:
                raise IllegalAction(
                    say(
                        "{trick} was played in an earlier round and is out of the game",
                        trick=Verbatim(name),
                    )
                )
        solo = tuple(sorted(action.solo, key=lambda n: cards.TRICKS_BY_NAME[n].family))
        self._solo = solo
        self._duel = action.duel
        self._used_tricks.update((*solo, action.duel))
        self._placements = []
        self._phase = Phase.TRIBE
        info = self._info[-1]
        info.solo, info.duel = solo, action.duel
        return [TricksRevealed(self._round, solo, action.duel)]

    # tribe cards below the tricks

    def _tribe(self, action: Tribe) -> list[Event]:
        seat = action.seat
        self._turn_check(seat, self._next_placer(), _PHRASES[Verb.TRIBE])
        solo = Verbatim(", ".join(self._solo))
        if action.trick == self._duel:
            raise IllegalAction(
                say(
                    "{trick} is the duel trick: tribe cards go below one of the solo "
                    "tricks ({solo})",
                    trick=Verbatim(action.trick),
                    solo=solo,
                )
            )
        if action.trick not in self._solo:
            raise IllegalAction(
                say(
                    "{trick} is not on the table; the solo tricks are {solo}",
                    trick=Verbatim(action.trick),
                    solo=solo,
                )
            )
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player} has no tribe card of value {value} in hand",
                    player=Player(seat),
                    value=action.value,
                )
            )
        self._take_from_hand(seat, action.value)
        self._placements.append(Placement(seat, action.value, action.trick))
        events: list[Event] = [TribePlayed(seat, action.value, action.trick)]
        if len(self._placements) == self.players:
            events += self._form_attempts()
        return events

    def _next_placer(self) -> int:
        return (self._chief + len(self._placements)) % self.players

    def _form_attempts(self) -> list[Event]:
        events: list[Event] = []
        duel_of: dict[int, Attempt] = {}
        for trick in self._solo:
            below = [p for p in self._placements if p.trick == trick]
            if len(below) >= 2:
                first, second = below[0], below[1]
                duel = Attempt(
                    AttemptKind.DUEL, trick, (first.seat, second.seat), (first.value, second.value)
                )
                duel_of[first.seat] = duel
                duel_of[second.seat] = duel
                assert self._duel is not None
                events.append(DuelFormed(trick, self._duel, first.seat, second.seat))
        attempts: list[Attempt] = []
        for seat in self._from_chief():
            if seat in duel_of:
                if duel_of[seat].seats[0] == seat:
                    attempts.append(duel_of[seat])
                continue
            placed = next(p for p in self._placements if p.seat == seat)
            attempts.append(Attempt(AttemptKind.SOLO, placed.trick, (seat,), (placed.value,)))
        self._attempts = attempts
        self._outcomes = [None] * len(attempts)
        self._index = 0
        self._phase = Phase.RESULT
        events.append(self._begins())
        return events

    def _begins(self) -> AttemptBegins:
        # A new attempt (or a duel starting again): the timer's turns start afresh.
        self._timed_in_attempt = 0
        self._confirmed = {}
        attempt = self._attempts[self._index]
        return AttemptBegins(attempt.kind, attempt.trick, attempt.seats)

    # results of attempts and of the challenge

    def _result(self, action: Result) -> list[Event]:
        if self._phase is Phase.CHALLENGE_RESULT:
            return self._challenge_result(action)
        attempt = self._attempts[self._index]
        seat = action.seat
        if attempt.kind is AttemptKind.SOLO:
            self._turn_check(seat, attempt.seats[0], _PHRASES[Verb.RESULT])
            if action.result is Outcome.TIE:
                raise IllegalAction(say("a solo attempt is won or lost; only a duel can tie"))
            card = attempt.card_of(seat)
            if action.result is Outcome.WON:
                self._won[seat].append(Won(card, self._round))
                self._outcomes[self._index] = "won"
                return [
                    SoloResult(seat, attempt.trick, card.value, True),
                    CardWon(seat, card.tribe, card.value),
                    *self._next_attempt(),
                ]
            events: list[Event] = [SoloResult(seat, attempt.trick, card.value, False)]
            return events + self._after_loss(seat, None)
        if seat not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} cannot report a result: the duel is between {first} and {second}",
                    player=Player(seat),
                    first=Player(first),
                    second=Player(second),
                )
            )
        return self._duel_outcome(seat, action.result)

    def _duel_outcome(self, seat: int, outcome: Outcome) -> list[Event]:
        """The duel in progress ends as ``outcome`` for ``seat`` (one of its duelists)."""
        attempt = self._attempts[self._index]
        other = attempt.seats[1] if seat == attempt.seats[0] else attempt.seats[0]
        self._confirmed = {}  # the duel is decided, or starts again: counts afresh
        if outcome is Outcome.TIE:
            self._timed_in_attempt = 0  # the duel starts again
            first, second = attempt.seats
            return [DuelTied(first, second)]
        winner, loser = (seat, other) if outcome is Outcome.WON else (other, seat)
        return [DuelResult(winner, loser), *self._after_loss(loser, winner)]

    def _count(self, action: Count) -> list[Event]:
        attempt = self._counted_duel(action.seat)
        if action.of not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} is not in the duel: it is between {first} and {second}",
                    player=Player(action.of),
                    first=Player(first),
                    second=Player(second),
                )
            )
        self._confirmed[action.of] = action.count
        return [CountConfirmed(action.seat, action.of, action.count)]

    @property
    def confirmed_counts(self) -> dict[int, int]:
        """The counts confirmed so far (``count``) in the duel being counted, by counted seat."""
        return dict(self._confirmed)

    def _counts(self, action: Counts) -> list[Event]:
        attempt = self._counted_duel(action.seat)
        first_count, second_count = action.counts
        first, second = attempt.seats
        # The most jacks wins; equal counts (failed included) are a tie.
        if first_count == second_count:
            outcome = Outcome.TIE
        else:
            outcome = Outcome.WON if first_count > second_count else Outcome.LOST
        counted = DuelCounted((first, second), action.counts)
        return [counted, *self._duel_outcome(first, outcome)]

    def _counted_duel(self, seat: int) -> Attempt:
        """The attempt now, refused unless it is a "most jacks" duel of ``seat``'s."""
        attempt = self._attempts[self._index]
        if attempt.kind is not AttemptKind.DUEL:
            raise IllegalAction(
                say(
                    'counts decide a duel; {player} attempts {trick} alone: report "won" or "lost"',
                    player=Player(attempt.seats[0]),
                    trick=Verbatim(attempt.trick),
                )
            )
        if self._duel not in MOST_JACKS_DUELS:
            raise IllegalAction(
                say(
                    "{trick} is not won by the most jacks: the duelists report "
                    '"won", "lost" or "tie"',
                    trick=Verbatim(str(self._duel)),
                )
            )
        if seat not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} cannot enter the counts: the duel is between {first} and {second}",
                    player=Player(seat),
                    first=Player(first),
                    second=Player(second),
                )
            )
        return attempt

    def _timed(self, action: Timed) -> list[Event]:
        attempt = self._attempts[self._index]
        seat = action.seat
        if seat not in attempt.seats:
            raise IllegalAction(
                say(
                    "{player} cannot record a timed toss: {who} attempts {trick} now",
                    player=Player(seat),
                    who=Items(tuple(Player(s) for s in attempt.seats)),
                    trick=Verbatim(self._attempt_trick(attempt)),
                )
            )
        best = self._bests.get(seat)
        entry = TimedToss(seat, action.millis, self._round, self._attempt_trick(attempt))
        self._tosses.append(entry)
        if best is None or action.millis < best:
            self._bests[seat] = action.millis
        self._timed_in_attempt += 1
        return [TossTimed(seat, action.millis, best)]

    def _attempt_trick(self, attempt: Attempt) -> str:
        """The trick an attempt throws: its solo trick, or the round's duel trick."""
        if attempt.kind is AttemptKind.SOLO or self._duel is None:
            return attempt.trick
        return self._duel

    def _after_loss(self, loser: int, winner: int | None) -> list[Event]:
        """A seat failed (solo) or lost a duel: offer a replay, or settle the attempt."""
        self._winner = winner
        if self.replays_left(loser) > 0 and self._hands[loser]:
            self._loser = loser
            self._phase = Phase.REPLAY
            return []
        self._refusing = loser  # kept by apply() once the action is through
        return self._settle()

    def _settle(self) -> list[Event]:
        """The attempt in progress is over: the failed solo card is out, or the duel is kept."""
        attempt = self._attempts[self._index]
        self._loser = None
        if attempt.kind is AttemptKind.SOLO:
            card = attempt.card_of(attempt.seats[0])
            self._out.append(card)
            self._outcomes[self._index] = "lost"
            return [CardOut(card.tribe, card.value, "failed"), *self._next_attempt()]
        winner = self._winner
        assert winner is not None
        self._outcomes[self._index] = f"won by seat {winner}"
        if attempt.values[0] == attempt.values[1]:
            return self._keep_card(winner, attempt.card_of(winner))
        self._phase = Phase.KEEP
        return []

    def _keep_card(self, winner: int, kept: TribeCard) -> list[Event]:
        attempt = self._attempts[self._index]
        other = next(s for s in attempt.seats if attempt.card_of(s) != kept)
        lost = attempt.card_of(other)
        self._won[winner].append(Won(kept, self._round))
        self._out.append(lost)
        self._winner = None
        return [
            CardWon(winner, kept.tribe, kept.value),
            CardOut(lost.tribe, lost.value, "duel"),
            *self._next_attempt(),
        ]

    def _next_attempt(self) -> list[Event]:
        self._index += 1
        if self._index < len(self._attempts):
            self._phase = Phase.RESULT
            return [self._begins()]
        self._phase = Phase.CHALLENGE
        return []

    def _replay(self, action: Replay) -> list[Event]:
        seat = action.seat
        assert self._loser is not None
        self._turn_check(seat, self._loser, _PHRASES[Verb.REPLAY])
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player} has no tribe card of value {value} in hand to discard",
                    player=Player(seat),
                    value=action.value,
                )
            )
        self._take_from_hand(seat, action.value)
        self._out.append(TribeCard(seat, action.value))
        self._replays[seat] += 1
        self._info[-1].replays[seat] += 1
        self._loser = None
        self._winner = None
        self._phase = Phase.RESULT
        return [
            CardOut(seat, action.value, "replay"),
            Replayed(seat, action.value, self.replays_left(seat)),
            self._begins(),
        ]

    def _pass(self, action: Pass) -> list[Event]:
        assert self._loser is not None
        self._turn_check(action.seat, self._loser, _PHRASES[Verb.PASS])
        return self._settle()

    def _keep(self, action: Keep) -> list[Event]:
        winner = self._winner
        assert winner is not None
        self._turn_check(action.seat, winner, _PHRASES[Verb.KEEP])
        attempt = self._attempts[self._index]
        if action.value not in attempt.values:
            raise IllegalAction(
                say(
                    "the duel's tribe cards are {values}, not {value}",
                    values=Items(tuple(attempt.values)),
                    value=action.value,
                )
            )
        first = attempt.card_of(attempt.seats[0])
        kept = first if first.value == action.value else attempt.card_of(attempt.seats[1])
        return self._keep_card(winner, kept)

    # the challenge

    def _reveal_challenge(self, action: Challenge) -> list[Event]:
        self._turn_check(action.seat, self._chief, _PHRASES[Verb.CHALLENGE])
        card = cards.CHALLENGES_BY_NAME[action.card]
        if self.players < card.min_players:
            raise IllegalAction(
                say_plural(
                    "{card} is removed from the deck with {n} player",
                    "{card} is removed from the deck with {n} players",
                    self.players,
                    card=Verbatim(card.name),
                )
            )
        if card.name in self._used_challenges:
            raise IllegalAction(
                say("{card} was attempted in an earlier round", card=Verbatim(card.name))
            )
        self._used_challenges.add(card.name)
        self._challenge = card.name
        self._remaining = self._from_chief()
        self._phase = Phase.CHALLENGE_RESULT
        self._info[-1].challenge = card.name
        return [ChallengeRevealed(card.name)]

    def _challenge_result(self, action: Result) -> list[Event]:
        seat = action.seat
        if seat not in self._remaining:
            raise IllegalAction(
                say("{player} is already eliminated from the challenge", player=Player(seat))
            )
        if action.result is Outcome.TIE:
            raise IllegalAction(
                say(
                    'a challenge has no tie: report "lost" for each seat eliminated, '
                    'or "won" for the winner'
                )
            )
        events: list[Event] = []
        if action.result is Outcome.WON:
            winner = seat
        else:
            events.append(Eliminated(seat))
            remaining = [s for s in self._remaining if s != seat]
            if len(remaining) > 1:
                self._remaining = remaining
                return events
            winner = remaining[0]
        return events + self._challenge_won(winner)

    def _challenge_won(self, winner: int) -> list[Event]:
        assert self._challenge is not None
        card = self._challenge
        self._challenges[winner].append((self._round, card))
        self._remaining = [winner]
        self._chief = winner
        self._info[-1].challenge_winner = winner
        events: list[Event] = [
            ChallengeWon(winner, card),
            RoundScored(self._round, tuple(self._round_scores(self._round))),
        ]
        if self._round >= self.rounds:
            self._phase = Phase.OVER
            totals = self.totals()
            events.append(GameOver(tuple(totals), tuple(best_seats(totals))))
            return events
        self._pending = [s for s in self._from_chief() if self._decks[s]]
        if self._pending:
            self._phase = Phase.DRAW
        else:
            self._start_round()
        return events

    # --- helpers -------------------------------------------------------------------

    def _from_chief(self) -> list[int]:
        return [(self._chief + k) % self.players for k in range(self.players)]

    def _take_from_hand(self, seat: int, value: int) -> None:
        self._hands[seat][value] -= 1
        self._hands[seat] = +self._hands[seat]

    def _round_scores(self, round_number: int) -> list[int]:
        return [
            sum(w.card.value for w in self._won[s] if w.round == round_number)
            + cards.CHALLENGE_POINTS * sum(1 for r, _ in self._challenges[s] if r == round_number)
            for s in range(self.players)
        ]

    # --- what the table, the display and the bots read ------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def round(self) -> int:
        """The round in progress (1-based); the last round once the game is over."""
        return self._round

    @property
    def chief(self) -> int:
        return self._chief

    @property
    def solo_tricks(self) -> tuple[str, ...]:
        """This round's three solo tricks, in family order (empty before the reveal)."""
        return self._solo if self._phase not in (Phase.HAND, Phase.REVEAL) else ()

    @property
    def duel_trick(self) -> str | None:
        return self._duel if self._phase not in (Phase.HAND, Phase.REVEAL) else None

    @property
    def placements(self) -> tuple[Placement, ...]:
        """This round's tribe cards below the tricks, in playing order."""
        return tuple(self._placements) if self.solo_tricks else ()

    @property
    def current_attempt(self) -> Attempt | None:
        if self._phase in (Phase.RESULT, Phase.REPLAY, Phase.KEEP):
            return self._attempts[self._index]
        return None

    @property
    def duel_winner(self) -> int | None:
        """The winner of the duel being settled (while its loser decides on a replay)."""
        return self._winner

    @property
    def challenge_remaining(self) -> tuple[int, ...]:
        return tuple(self._remaining) if self._phase is Phase.CHALLENGE_RESULT else ()

    @staticmethod
    def tribe_of(seat: int) -> int:
        """The tribe a seat plays: seat ``p`` plays tribe ``p + 1`` (cards ``T{p+1}-...``)."""
        return seat + 1

    def check_tribe(self, seat: int, tribe: int) -> None:
        """Refuse (IllegalAction) a tapped card of ``tribe`` that ``seat`` may not use now.

        A seat plays, replays and discards its own tribe's cards; the duel winner
        keeps either duel card, so while it keeps, the two duelists' tribes are allowed.
        """
        attempt = self.current_attempt
        if self._phase is Phase.KEEP and attempt is not None and seat == self._winner:
            tribes = [self.tribe_of(s) for s in attempt.seats]
            if tribe not in tribes:
                raise IllegalAction(
                    say(
                        "keep a card of the duel: a {tribes} card, not tribe {tribe}",
                        tribes=Items(tuple(Verbatim(f"T{t}") for t in tribes), either=True),
                        tribe=tribe,
                    )
                )
            return
        own = self.tribe_of(seat)
        if tribe != own:
            raise IllegalAction(
                say(
                    "that card belongs to tribe {tribe}; {player} plays tribe {own}",
                    tribe=tribe,
                    player=Player(seat),
                    own=own,
                )
            )

    @property
    def tosses(self) -> tuple[TimedToss, ...]:
        """The attempt log: every ``timed`` toss, in order."""
        return tuple(self._tosses)

    @property
    def bests(self) -> dict[int, int]:
        """Each timed seat's fastest toss, in milliseconds."""
        return dict(self._bests)

    @property
    def timed_seat(self) -> int | None:
        """Whose toss the timer measures next: the attempt's seats in turn, first duelist first."""
        attempt = self.current_attempt
        if attempt is None or self._phase is not Phase.RESULT:
            return None
        return attempt.seats[self._timed_in_attempt % len(attempt.seats)]

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """A seat's private hand (values). Only that seat's own device may show it."""
        return tuple(_values(self._hands[seat]))

    def deck_of(self, seat: int) -> tuple[int, ...]:
        """The values left in a seat's face-down tribe deck (for the chance helpers)."""
        return tuple(_values(self._decks[seat]))

    def replays_left(self, seat: int) -> int:
        used = self._replays[seat] if self.replay_scope == "player" else sum(self._replays)
        return max(0, self.replays_per_round - used)

    def available_tricks(self, family: int) -> tuple[str, ...]:
        """Trick cards of a family still in its deck (not revealed in an earlier round)."""
        return tuple(c.name for c in cards.family(family) if c.name not in self._used_tricks)

    def available_challenges(self) -> tuple[str, ...]:
        return tuple(
            c.name
            for c in cards.challenges_for(self.players)
            if c.name not in self._used_challenges
        )

    def totals(self) -> list[int]:
        return [
            sum(w.card.value for w in self._won[s])
            + cards.CHALLENGE_POINTS * len(self._challenges[s])
            for s in range(self.players)
        ]

    def census(self) -> list[dict[str, list[int]]]:
        """Where every tribe card is, per tribe: hand, deck, table (below a trick), won, out."""
        table = Counter[TribeCard]()
        if self._phase in (Phase.TRIBE, Phase.RESULT, Phase.REPLAY, Phase.KEEP):
            settled = self._index if self._phase is not Phase.TRIBE else 0
            if self._phase is Phase.TRIBE:
                table.update(TribeCard(p.seat, p.value) for p in self._placements)
            else:
                for attempt in self._attempts[settled:]:
                    table.update(attempt.card_of(s) for s in attempt.seats)
        won = Counter(w.card for pile in self._won for w in pile)
        out = Counter(self._out)
        result = []
        for tribe in range(self.players):
            result.append(
                {
                    "hand": _values(self._hands[tribe]),
                    "deck": _values(self._decks[tribe]),
                    "table": sorted(c.value for c in table.elements() if c.tribe == tribe),
                    "won": sorted(c.value for c in won.elements() if c.tribe == tribe),
                    "out": sorted(c.value for c in out.elements() if c.tribe == tribe),
                }
            )
        return result

    @property
    def expected(self) -> Expectation | None:
        phase = self._phase
        if phase is Phase.OVER:
            return None
        if phase in (Phase.HAND, Phase.DRAW):
            return Expectation(self._pending[0], Verb(phase.value))
        if phase in (Phase.REVEAL, Phase.CHALLENGE):
            return Expectation(self._chief, Verb(phase.value))
        if phase is Phase.TRIBE:
            return Expectation(self._next_placer(), Verb.TRIBE)
        if phase is Phase.RESULT:
            return Expectation(self._attempts[self._index].seats[0], Verb.RESULT)
        if phase is Phase.REPLAY:
            assert self._loser is not None
            return Expectation(self._loser, Verb.REPLAY)
        if phase is Phase.KEEP:
            assert self._winner is not None
            return Expectation(self._winner, Verb.KEEP)
        # CHALLENGE_RESULT: anyone still in may report; name the first from the chief.
        return Expectation(self._remaining[0], Verb.RESULT)

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self._phase
        if phase is Phase.HAND:
            if seat not in self._pending:
                return []
            return [Hand(seat, combo) for combo in _hands_from(self._decks[seat])]
        if phase is Phase.DRAW:
            if seat not in self._pending:
                return []
            return [Draw(seat, v) for v in sorted(self._decks[seat])]
        if phase is Phase.REVEAL:
            if seat != self._chief:
                return []
            families = [self.available_tricks(f) for f in (1, 2, 3, cards.DUEL)]
            return [Reveal(seat, (a, b, c), d) for a, b, c, d in product(*families)]
        if phase is Phase.TRIBE:
            if seat != self._next_placer():
                return []
            return [
                Tribe(seat, v, trick) for v in sorted(self._hands[seat]) for trick in self._solo
            ]
        if phase is Phase.RESULT:
            attempt = self._attempts[self._index]
            if seat not in attempt.seats:
                return []
            if attempt.kind is AttemptKind.SOLO:
                return [Result(seat, Outcome.WON), Result(seat, Outcome.LOST)]
            results: list[Action] = [Result(seat, r) for r in RESULTS]
            if self._duel in MOST_JACKS_DUELS:
                counts = range(FAILED, MAX_COUNT + 1)
                results += [Counts(seat, (a, b)) for a in counts for b in counts]
            return results
        if phase is Phase.REPLAY:
            if seat != self._loser:
                return []
            return [Replay(seat, v) for v in sorted(self._hands[seat])] + [Pass(seat)]
        if phase is Phase.KEEP:
            if seat != self._winner:
                return []
            return [Keep(seat, v) for v in sorted(set(self._attempts[self._index].values))]
        if phase is Phase.CHALLENGE:
            if seat != self._chief:
                return []
            return [Challenge(seat, name) for name in self.available_challenges()]
        if phase is Phase.CHALLENGE_RESULT:
            if seat not in self._remaining:
                return []
            return [Result(seat, Outcome.WON), Result(seat, Outcome.LOST)]
        return []

    def snapshot(self) -> OssSnapshot:
        totals = self.totals()
        tricks = []
        for index, name in enumerate(self.solo_tricks):
            below = [p for p in self._placements if p.trick == name]
            placements = [
                PlacementView(p.seat, p.value, self._mode(i, len(below)))
                for i, p in enumerate(below)
            ]
            tricks.append(TrickView.named(name, index, placements))
        attempts = []
        if self._attempts and self._phase not in (Phase.HAND, Phase.REVEAL, Phase.TRIBE):
            for i, attempt in enumerate(self._attempts):
                current = i == self._index and self.current_attempt is not None
                attempts.append(
                    AttemptView(
                        attempt.kind,
                        self._attempt_trick(attempt),
                        attempt.trick,
                        attempt.seats,
                        attempt.values,
                        self._outcomes[i] or ("current" if current else "waiting"),
                    )
                )
        duel = None
        if self.solo_tricks and self._duel is not None:
            duel = TrickView.named(self._duel)
        challenge = None
        if self._challenge is not None and self._phase is Phase.CHALLENGE_RESULT:
            card = cards.CHALLENGES_BY_NAME[self._challenge]
            challenge = ChallengeView(
                card.name, card.setup, card.do, card.note, tuple(self._remaining)
            )
        seats = tuple(
            SeatState(
                s,
                s == self._chief,
                sum(self._hands[s].values()),
                sum(self._decks[s].values()),
                tuple(w.card.value for w in self._won[s]),
                tuple(name for _, name in self._challenges[s]),
                totals[s],
                self.replays_left(s),
            )
            for s in range(self.players)
        )
        return OssSnapshot(
            round=self._round,
            rounds=self.rounds,
            phase=self._phase,
            chief=self._chief,
            next=self.expected,
            rounds_option=self.rounds,
            replays_per_round=self.replays_per_round,
            replay_scope=self.replay_scope,
            tricks=tuple(tricks),
            duel=duel,
            attempts=tuple(attempts),
            current=self._index if self.current_attempt else None,
            duel_winner=self._winner,
            replaying=self._loser,
            challenge=challenge,
            challenges_left=len(self.available_challenges()),
            seats=seats,
            winners=tuple(best_seats(totals)),
        )

    def _mode(self, position: int, count: int) -> PlacementMode:
        if count == 1 and self._phase is Phase.TRIBE:
            return PlacementMode.ALONE
        return PlacementMode.DUEL if position < 2 and count >= 2 else PlacementMode.SOLO

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        notes: list[Words] = []
        tricks = round_report["tricks"]
        if tricks:
            notes.append(
                say(
                    "Solo tricks {solo}; duel trick {duel}",
                    solo=Items(tuple(Verbatim(t) for t in tricks["solo"])),
                    duel=Verbatim(tricks["duel"]),
                )
            )
        challenge = round_report["challenge"]
        if challenge:
            winner, card = challenge["winner"], Verbatim(challenge["card"])
            if winner is None:
                notes.append(say("Challenge {challenge}: nobody won it", challenge=card))
            else:
                notes.append(
                    say(
                        "Challenge {challenge} won by {player}",
                        challenge=card,
                        player=Player(winner),
                    )
                )
        return notes

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        won: list[Words] = [" ".join(map(str, values)) or "-" for values in round_report["won"]]
        challenge = round_report["challenge"]
        winner = challenge["winner"] if challenge else None
        # A challenge card's name is a proper name, the same in every language.
        card = challenge["card"] if challenge else ""
        chief: list[Words] = [
            say("chief") if s == round_report["chief"] else "" for s in range(self.players)
        ]
        taken: list[Words] = [card if s == winner else "-" for s in range(self.players)]
        replays: list[Words] = [str(n) for n in round_report["replays"]]
        return [
            (say("chief"), chief),
            (say("tribe cards"), won),
            (say("challenge"), taken),
            (say("replays"), replays),
        ]

    def report(self) -> JSON:
        rounds = []
        for number, info in enumerate(self._info, start=1):
            rounds.append(
                {
                    "scores": self._round_scores(number),
                    "chief": info.chief,
                    "tricks": {"solo": list(info.solo), "duel": info.duel} if info.duel else None,
                    "won": [
                        [w.card.value for w in self._won[s] if w.round == number]
                        for s in range(self.players)
                    ],
                    "replays": list(info.replays),
                    "challenge": (
                        {"card": info.challenge, "winner": info.challenge_winner}
                        if info.challenge
                        else None
                    ),
                }
            )
        totals = self.totals()
        expected = self.expected
        return {
            "finished": expected is None,
            "rounds": rounds,
            "totals": totals,
            "winners": best_seats(totals),
            "next": expected.to_json() if expected else None,
        }


_VERB_OF: dict[type[Action], Verb] = {
    Hand: Verb.HAND,
    Draw: Verb.DRAW,
    Reveal: Verb.REVEAL,
    Tribe: Verb.TRIBE,
    Result: Verb.RESULT,
    Counts: Verb.COUNTS,
    Count: Verb.COUNT,
    Timed: Verb.TIMED,
    Replay: Verb.REPLAY,
    Pass: Verb.PASS,
    Keep: Verb.KEEP,
    Challenge: Verb.CHALLENGE,
}


def _verb_of(action: Action) -> Verb:
    verb = _VERB_OF.get(type(action))
    if verb is None:
        raise MalformedAction(
            say("oss does not know the action {action}", action=Verbatim(repr(action)))
        )
    return verb


def _hands_from(deck: Counter[int]) -> list[tuple[int, ...]]:
    """Every distinct hand of HAND_SIZE values that a deck can deal, smallest first."""
    values = sorted(deck)
    hands: list[tuple[int, ...]] = []

    def build(i: int, chosen: list[int]) -> None:
        if len(chosen) == HAND_SIZE:
            hands.append(tuple(chosen))
            return
        if i == len(values):
            return
        value = values[i]
        for n in range(min(deck[value], HAND_SIZE - len(chosen)), -1, -1):
            build(i + 1, chosen + [value] * n)

    build(0, [])
    return sorted(hands)


# --- chance, from an injected random generator ------------------------------------------


def chance_action(engine: Oss, rng: random.Random) -> Action | None:
    """The chance action the engine waits for, drawn from ``rng``; None for a seat's decision.

    Shuffles are modelled as uniform draws from what is left: a hand is a sample
    of the seat's deck, a draw is one of its remaining cards, a reveal takes one
    unused card of each trick family, a challenge one unused challenge card.
    Everything is drawn from sorted sequences so a seed always gives the same game.
    """
    expected = engine.expected
    if expected is None:
        return None
    seat = expected.seat
    if expected.expects == Verb.HAND:
        deck = list(engine.deck_of(seat))
        return Hand(seat, tuple(sorted(rng.sample(deck, HAND_SIZE))))
    if expected.expects == Verb.DRAW:
        return Draw(seat, rng.choice(engine.deck_of(seat)))
    if expected.expects == Verb.REVEAL:
        return _reveal_from(engine, seat, rng)
    if expected.expects == Verb.CHALLENGE:
        return Challenge(seat, rng.choice(engine.available_challenges()))
    return None


def _reveal_from(engine: Oss, chief: int, rng: random.Random) -> Reveal:
    solo = tuple(rng.choice(engine.available_tricks(f)) for f in (1, 2, 3))
    return Reveal(chief, solo, rng.choice(engine.available_tricks(cards.DUEL)))


def chance_actions(engine: Oss, rng: random.Random) -> list[Action]:
    """Apply every chance action due now (e.g. all the hands) and return them in order."""
    done = engine.chance_actions(rng, Chance())
    for action in done:
        engine.apply(action)
    return done


__all__: Sequence[str] = (
    "RULINGS",
    "TABLE_RULINGS",
    "Attempt",
    "AttemptKind",
    "Challenge",
    "Counts",
    "Draw",
    "Hand",
    "Keep",
    "Oss",
    "Outcome",
    "Pass",
    "Phase",
    "Placement",
    "Replay",
    "Result",
    "Reveal",
    "Timed",
    "Tribe",
    "Verb",
    "chance_action",
    "chance_actions",
)
