"""Oss's vocabulary: the record verbs, the phases that take them, the actions and events.

The verbs are ``docs/oss-records.md``'s (``Verb`` lives in ``verbs``, which the spec
reads at start-up without these classes); every action is a frozen value whose
``to_json`` is its record line, and every event a frozen value ``apply`` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.games.base import (
    JSON,
    Action,
    Event,
)
from controller.games.oss.verbs import Verb as Verb
from controller.games.words import Text, say


class Outcome(StrEnum):
    """A ``result`` as a seat reports it."""

    WON = "won"
    LOST = "lost"
    TIE = "tie"


class AttemptKind(StrEnum):
    """An attempt of the round: one seat alone, or two seats in a duel."""

    SOLO = "solo"
    DUEL = "duel"


VERB_KEYS: dict[str, tuple[str, ...]] = {verb: () for verb in Verb} | {
    Verb.TRIBE: ("trick",),
    Verb.COUNT: ("of",),
}

#: What each verb asks of a seat, for messages ("seat 2 cannot <phrase> now").
PHRASES: dict[Verb, Text] = {
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
    """Where the game stands; each phase takes the verbs listed in ``PHASE_VERBS``."""

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


PHASE_VERBS: dict[Phase, tuple[Verb, ...]] = {
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
WAITING: dict[Phase, Text] = {
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
