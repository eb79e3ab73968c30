"""Oss, the jacks dexterity game: the rules the table keeps while people throw jacks.

The players do the tricks with their hands; the engine keeps the flow and the
score. A round goes: the chief reveals three solo tricks and a duel trick;
from the chief clockwise every seat plays a tribe card below a solo trick;
the first two cards below a trick duel with the duel trick, later ones try the
trick alone; the attempts are made in turn order from the chief, with replays
bought by discarding a tribe card; then everyone attempts the challenge,
whose winner becomes the chief; then everyone draws one tribe card.

Chance enters only as actions (``hand``, ``draw``, ``reveal``, ``challenge``),
so a record replays a game exactly; :func:`chance_action` draws those actions
from an injected ``random.Random`` for the kiosk's simulated game and the
tests. The record verbs are documented in ``docs/oss-records.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import product
from typing import Any, ClassVar, Self

from controller.games import oss_cards as cards
from controller.games.base import (
    JSON,
    Action,
    BadOption,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    MalformedAction,
    best_seats,
    describe,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.spec import DeckSpec, GameSpec, OptionKind, OptionSpec, Requirement

HAND_SIZE = 5
MAX_ROUNDS = 4
DEFAULT_OPTIONS: dict[str, Any] = {"rounds": 4, "replays_per_round": 2, "replay_scope": "player"}
REPLAY_SCOPES = ("player", "table")

#: The project's rulings where the rulebook leaves a choice; the display shows them as help.
RULINGS: list[str] = [
    "Replays: a seat may replay at most 2 times per round (option replays_per_round); "
    'with replay_scope "table" the limit counts every replay at the table in that round.',
    "A replay is offered only after a failure (a lost solo attempt or a lost duel): "
    "a success is already the best result, so replaying it could only lose the card.",
    "To replay, the seat discards one tribe card from its hand; it is out of the game. "
    "A seat with no card in hand, or no replay left, is not asked and its card is lost.",
    "The loser of a duel may replay: the duel restarts from the beginning and the new "
    "result replaces the old one. Each duelist's replays count separately.",
    "A tie in a duel restarts it; a tie is not a replay and costs nothing.",
    "The duel is fought at the turn of its first player (the one who placed first); the "
    "second duelist has no turn of their own. Several tricks can each start a duel in the "
    "same round; every duel uses the revealed duel trick.",
    "The duel winner keeps one of the two tribe cards; when both show the same value the "
    "winner keeps their own card without being asked.",
    "Challenges cannot be replayed. Report each elimination, or the winner outright; "
    "the last seat standing wins the card (4 points) and becomes the chief.",
    "The new chief starts the next round: reveals the tricks, plays first and attempts first.",
    "Hands are registered (5 cards at the start, then one draw per seat after each round "
    "but the last) so the table can refuse a card a seat does not hold; hands stay private.",
    "There is no draw after the last round: the game is over.",
    "Score: the values of the tribe cards won (whatever tribe they come from) plus 4 per "
    "challenge card. Tied seats share the victory.",
]

_VERBS: dict[str, tuple[str, ...]] = {
    "hand": (),
    "draw": (),
    "reveal": (),
    "tribe": ("trick",),
    "result": (),
    "replay": (),
    "pass": (),
    "keep": (),
    "challenge": (),
}

#: What each verb asks of a seat, for messages ("seat 2 cannot <phrase> now").
_PHRASES: dict[str, str] = {
    "hand": "register a hand",
    "draw": "register a draw",
    "reveal": "reveal the tricks",
    "tribe": "play a tribe card",
    "result": "report a result",
    "replay": "replay",
    "pass": "pass",
    "keep": "keep a card",
    "challenge": "reveal the challenge card",
}

RESULTS = ("won", "lost", "tie")


class Phase(Enum):
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


_PHASE_VERBS: dict[Phase, tuple[str, ...]] = {
    Phase.HAND: ("hand",),
    Phase.REVEAL: ("reveal",),
    Phase.TRIBE: ("tribe",),
    Phase.RESULT: ("result",),
    Phase.REPLAY: ("replay", "pass"),
    Phase.KEEP: ("keep",),
    Phase.CHALLENGE: ("challenge",),
    Phase.CHALLENGE_RESULT: ("result",),
    Phase.DRAW: ("draw",),
    Phase.OVER: (),
}

_WAITING: dict[Phase, str] = {
    Phase.HAND: "register their hand",
    Phase.REVEAL: "reveal the tricks",
    Phase.TRIBE: "play a tribe card",
    Phase.RESULT: "report the result of their attempt",
    Phase.REPLAY: "replay or pass",
    Phase.KEEP: "choose the card to keep",
    Phase.CHALLENGE: "reveal the challenge card",
    Phase.CHALLENGE_RESULT: "report the challenge",
    Phase.DRAW: "register their draw",
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

    result: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "result": self.result}


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

    kind: str
    trick: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class SoloResult(Event):
    seat: int
    trick: str
    value: int
    won: bool


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

    kind: str
    trick: str
    seats: tuple[int, ...]
    values: tuple[int, ...]

    def card_of(self, seat: int) -> TribeCard:
        return TribeCard(seat, self.values[self.seats.index(seat)])


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
        raise MalformedAction(f"{what} must be a tribe card value 1..4, not {describe(value)}")
    return value


def _require_trick(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise MalformedAction(f"{what} must be a trick name, not {describe(value)}")
    name = cards.trick_name(value)
    if name is None:
        raise MalformedAction(f"{what}: there is no trick called {describe(value)}")
    return name


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
            raise BadOption(f"oss is for 2 to 6 players, not {players}")
        if not 0 <= chief < players:
            raise BadOption(f'"chief" must be a seat 0..{players - 1}, not {chief}')
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadOption(f'option "rounds" must be 1..{MAX_ROUNDS}, not {rounds}')
        if not 0 <= replays_per_round <= 8:
            raise BadOption(f'option "replays_per_round" must be 0..8, not {replays_per_round}')
        if replay_scope not in REPLAY_SCOPES:
            raise BadOption(
                f'option "replay_scope" must be "player" or "table", not {describe(replay_scope)}'
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
        self._replays: list[int] = [0] * players
        self._challenge: str | None = None
        self._remaining: list[int] = []
        self._info: list[RoundInfo] = [RoundInfo(chief, replays=[0] * players)]

    # --- header and actions ---------------------------------------------------

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, "oss")
        chief = read_seat_key(header, "chief", players)
        options = {**DEFAULT_OPTIONS, **read_options(header, DEFAULT_OPTIONS, "oss")}
        for key in ("rounds", "replays_per_round"):
            value = options[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f'option "{key}" must be a whole number, not {describe(value)}')
        if not isinstance(options["replay_scope"], str):
            raise BadOption(
                'option "replay_scope" must be "player" or "table", '
                f"not {describe(options['replay_scope'])}"
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
        seat, verb = split_action(obj, self.players, _VERBS)
        payload = obj[verb]
        if verb == "hand":
            if not isinstance(payload, list) or len(payload) != HAND_SIZE:
                raise MalformedAction(
                    f'"hand" must list the {HAND_SIZE} tribe card values in hand, '
                    f"not {describe(payload)}"
                )
            return Hand(seat, tuple(_require_value(v, "a hand card") for v in payload))
        if verb == "draw":
            return Draw(seat, _require_value(payload, '"draw"'))
        if verb == "reveal":
            if not isinstance(payload, dict) or set(payload) != {"solo", "duel"}:
                raise MalformedAction(
                    '"reveal" must be an object {"solo": [three trick names], "duel": name}'
                )
            solo = payload["solo"]
            if not isinstance(solo, list) or len(solo) != 3:
                raise MalformedAction(
                    f'"solo" must list three trick names, one per family, not {describe(solo)}'
                )
            names = tuple(_require_trick(name, "a solo trick") for name in solo)
            return Reveal(seat, names, _require_trick(payload["duel"], "the duel trick"))
        if verb == "tribe":
            if "trick" not in obj:
                raise MalformedAction(
                    'a "tribe" action needs a "trick": the solo trick to play below'
                )
            return Tribe(
                seat, _require_value(payload, '"tribe"'), _require_trick(obj["trick"], '"trick"')
            )
        if verb == "result":
            if payload not in RESULTS:
                raise MalformedAction(
                    f'"result" must be "won", "lost" or "tie", not {describe(payload)}'
                )
            return Result(seat, str(payload))
        if verb == "replay":
            return Replay(seat, _require_value(payload, '"replay" (the card discarded)'))
        if verb == "pass":
            if payload is not True:
                raise MalformedAction(f'"pass" must be true, not {describe(payload)}')
            return Pass(seat)
        if verb == "keep":
            return Keep(seat, _require_value(payload, '"keep"'))
        # verb == "challenge"
        if not isinstance(payload, str) or cards.challenge_name(payload) is None:
            known = ", ".join(card.name for card in cards.CHALLENGES)
            raise MalformedAction(
                f"there is no challenge card called {describe(payload)}; they are: {known}"
            )
        name = cards.challenge_name(payload)
        assert name is not None
        return Challenge(seat, name)

    # --- applying actions --------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if not 0 <= action.seat < self.players:
            raise MalformedAction(f'"seat" must be a seat 0..{self.players - 1}, not {action.seat}')
        verb = _verb_of(action)
        if self._phase is Phase.OVER:
            raise IllegalAction("the game is already over; nothing more can be played")
        if verb not in _PHASE_VERBS[self._phase]:
            raise IllegalAction(self._out_of_order(action.seat, verb))
        handlers: dict[str, Callable[[Any], list[Event]]] = {
            "hand": self._hand,
            "draw": self._draw,
            "reveal": self._reveal,
            "tribe": self._tribe,
            "result": self._result,
            "replay": self._replay,
            "pass": self._pass,
            "keep": self._keep,
            "challenge": self._reveal_challenge,
        }
        # Every handler checks everything before it changes anything.
        refused_before = self._refused_replay
        self._refused_replay = None
        try:
            return handlers[verb](action)
        except Exception:
            self._refused_replay = refused_before
            raise

    def _out_of_order(self, seat: int, verb: str) -> str:
        if verb == "replay" and self._refused_replay == seat:
            if not self._hands[seat]:
                return f"seat {seat} cannot replay: it has no tribe card left in hand to discard"
            return f"seat {seat} cannot replay: {self._limit_text(seat)}"
        if verb in ("replay", "pass"):
            return f"seat {seat} cannot {verb} now: a replay is only offered after a failure"
        return f"seat {seat} cannot {_PHRASES[verb]} now: {self._waiting_text()}"

    def _limit_text(self, seat: int) -> str:
        limit = self.replays_per_round
        if self.replay_scope == "table":
            return f"no more than {limit} replays per round at the table, and all are used"
        return f"no more than {limit} replays per round, and seat {seat} has used them"

    def _waiting_text(self) -> str:
        expected = self.expected
        if expected is None:
            return "the game is over"
        return f"the table waits for seat {expected.seat} to {_WAITING[self._phase]}"

    def _turn_check(self, seat: int, expected: int, what: str) -> None:
        if seat != expected:
            raise IllegalAction(f"seat {seat} cannot {what}: it is seat {expected}'s turn")

    # hand and draw: chance, registered by each seat in any order

    def _hand(self, action: Hand) -> list[Event]:
        seat = action.seat
        if seat not in self._pending:
            raise IllegalAction(f"seat {seat} has already registered its hand")
        counts = Counter(action.values)
        over = [v for v, n in counts.items() if n > self._decks[seat][v]]
        if over:
            raise IllegalAction(
                f"a tribe holds only two cards of value {over[0]}, not {counts[over[0]]}"
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
            raise IllegalAction(f"seat {seat} has already drawn this round")
        if self._decks[seat][action.value] == 0:
            raise IllegalAction(
                f"seat {seat}'s tribe deck holds no card of value {action.value} "
                f"(left in it: {', '.join(map(str, _values(self._decks[seat])))})"
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
        self._turn_check(action.seat, self._chief, "reveal the tricks")
        families = [cards.TRICKS_BY_NAME[name].family for name in action.solo]
        if sorted(families) != [1, 2, 3]:
            raise IllegalAction(
                "the solo tricks must be one of each solo family (1, 2 and 3), "
                f"not families {', '.join(map(str, families))}"
            )
        if cards.TRICKS_BY_NAME[action.duel].family != cards.DUEL:
            raise IllegalAction(f"{action.duel} is a solo trick, not a duel trick")
        for name in (*action.solo, action.duel):
            if name in self._used_tricks:
                raise IllegalAction(f"{name} was played in an earlier round and is out of the game")
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
        self._turn_check(seat, self._next_placer(), "play a tribe card")
        if action.trick == self._duel:
            raise IllegalAction(
                f"{action.trick} is the duel trick: tribe cards go below one of the solo "
                f"tricks ({', '.join(self._solo)})"
            )
        if action.trick not in self._solo:
            raise IllegalAction(
                f"{action.trick} is not on the table; the solo tricks are {', '.join(self._solo)}"
            )
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(f"seat {seat} has no tribe card of value {action.value} in hand")
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
                    "duel", trick, (first.seat, second.seat), (first.value, second.value)
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
            attempts.append(Attempt("solo", placed.trick, (seat,), (placed.value,)))
        self._attempts = attempts
        self._outcomes = [None] * len(attempts)
        self._index = 0
        self._phase = Phase.RESULT
        events.append(self._begins())
        return events

    def _begins(self) -> AttemptBegins:
        attempt = self._attempts[self._index]
        return AttemptBegins(attempt.kind, attempt.trick, attempt.seats)

    # results of attempts and of the challenge

    def _result(self, action: Result) -> list[Event]:
        if self._phase is Phase.CHALLENGE_RESULT:
            return self._challenge_result(action)
        attempt = self._attempts[self._index]
        seat = action.seat
        if attempt.kind == "solo":
            self._turn_check(seat, attempt.seats[0], "report a result")
            if action.result == "tie":
                raise IllegalAction("a solo attempt is won or lost; only a duel can tie")
            card = attempt.card_of(seat)
            if action.result == "won":
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
                f"seat {seat} cannot report a result: the duel is between seats "
                f"{first} and {second}"
            )
        other = attempt.seats[1] if seat == attempt.seats[0] else attempt.seats[0]
        if action.result == "tie":
            return [DuelTied(*attempt.seats)]
        winner, loser = (seat, other) if action.result == "won" else (other, seat)
        return [DuelResult(winner, loser), *self._after_loss(loser, winner)]

    def _after_loss(self, loser: int, winner: int | None) -> list[Event]:
        """A seat failed (solo) or lost a duel: offer a replay, or settle the attempt."""
        self._winner = winner
        if self.replays_left(loser) > 0 and self._hands[loser]:
            self._loser = loser
            self._phase = Phase.REPLAY
            return []
        self._refused_replay = loser
        return self._settle()

    def _settle(self) -> list[Event]:
        """The attempt in progress is over: the failed solo card is out, or the duel is kept."""
        attempt = self._attempts[self._index]
        self._loser = None
        if attempt.kind == "solo":
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
        self._turn_check(seat, self._loser, "replay")
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(
                f"seat {seat} has no tribe card of value {action.value} in hand to discard"
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
        self._turn_check(action.seat, self._loser, "pass")
        return self._settle()

    def _keep(self, action: Keep) -> list[Event]:
        winner = self._winner
        assert winner is not None
        self._turn_check(action.seat, winner, "keep a card")
        attempt = self._attempts[self._index]
        if action.value not in attempt.values:
            shown = " and ".join(map(str, attempt.values))
            raise IllegalAction(f"the duel's tribe cards are {shown}, not {action.value}")
        first = attempt.card_of(attempt.seats[0])
        kept = first if first.value == action.value else attempt.card_of(attempt.seats[1])
        return self._keep_card(winner, kept)

    # the challenge

    def _reveal_challenge(self, action: Challenge) -> list[Event]:
        self._turn_check(action.seat, self._chief, "reveal the challenge card")
        card = cards.CHALLENGES_BY_NAME[action.card]
        if self.players < card.min_players:
            raise IllegalAction(f"{card.name} is removed from the deck with {self.players} players")
        if card.name in self._used_challenges:
            raise IllegalAction(f"{card.name} was attempted in an earlier round")
        self._used_challenges.add(card.name)
        self._challenge = card.name
        self._remaining = self._from_chief()
        self._phase = Phase.CHALLENGE_RESULT
        self._info[-1].challenge = card.name
        return [ChallengeRevealed(card.name)]

    def _challenge_result(self, action: Result) -> list[Event]:
        seat = action.seat
        if seat not in self._remaining:
            raise IllegalAction(f"seat {seat} is already eliminated from the challenge")
        if action.result == "tie":
            raise IllegalAction(
                'a challenge has no tie: report "lost" for each seat eliminated, '
                'or "won" for the winner'
            )
        events: list[Event] = []
        if action.result == "won":
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
            return Expectation(self._pending[0], phase.value)
        if phase in (Phase.REVEAL, Phase.CHALLENGE):
            return Expectation(self._chief, phase.value)
        if phase is Phase.TRIBE:
            return Expectation(self._next_placer(), "tribe")
        if phase is Phase.RESULT:
            return Expectation(self._attempts[self._index].seats[0], "result")
        if phase is Phase.REPLAY:
            assert self._loser is not None
            return Expectation(self._loser, "replay")
        if phase is Phase.KEEP:
            assert self._winner is not None
            return Expectation(self._winner, "keep")
        # CHALLENGE_RESULT: anyone still in may report; name the first from the chief.
        return Expectation(self._remaining[0], "result")

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
            outcomes = ("won", "lost") if attempt.kind == "solo" else RESULTS
            return [Result(seat, r) for r in outcomes]
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
            return [Result(seat, "won"), Result(seat, "lost")]
        return []

    def snapshot(self) -> JSON:
        expected = self.expected
        totals = self.totals()
        revealed = bool(self.solo_tricks)
        tricks = []
        for index, name in enumerate(self.solo_tricks):
            below = [p for p in self._placements if p.trick == name]
            placements = [
                {"seat": p.seat, "value": p.value, "mode": self._mode(i, len(below))}
                for i, p in enumerate(below)
            ]
            tricks.append(
                {**cards.TRICKS_BY_NAME[name].to_json(), "index": index, "placements": placements}
            )
        attempts = []
        if self._attempts and self._phase not in (Phase.HAND, Phase.REVEAL, Phase.TRIBE):
            for i, attempt in enumerate(self._attempts):
                attempts.append(
                    {
                        "kind": attempt.kind,
                        "trick": attempt.trick if attempt.kind == "solo" else self._duel,
                        "below": attempt.trick,
                        "seats": list(attempt.seats),
                        "values": list(attempt.values),
                        "status": self._outcomes[i]
                        or ("current" if i == self._index and self.current_attempt else "waiting"),
                    }
                )
        duel = None
        if revealed and self._duel is not None:
            duel = cards.TRICKS_BY_NAME[self._duel].to_json()
        challenge = None
        if self._challenge is not None and self._phase in (Phase.CHALLENGE_RESULT,):
            challenge = {
                **cards.CHALLENGES_BY_NAME[self._challenge].to_json(),
                "remaining": list(self._remaining),
            }
        seats = []
        for s in range(self.players):
            seats.append(
                {
                    "seat": s,
                    "chief": s == self._chief,
                    "hand_size": sum(self._hands[s].values()),
                    "deck_size": sum(self._decks[s].values()),
                    "won": [w.card.value for w in self._won[s]],
                    "challenges": [name for _, name in self._challenges[s]],
                    "score": totals[s],
                    "replays_left": self.replays_left(s),
                }
            )
        return {
            "game": self.game_id,
            "round": self._round,
            "rounds": self.rounds,
            "phase": self._phase.value,
            "chief": self._chief,
            "next": expected.to_json() if expected else None,
            "options": {
                "rounds": self.rounds,
                "replays_per_round": self.replays_per_round,
                "replay_scope": self.replay_scope,
            },
            "tricks": tricks,
            "duel": duel,
            "attempts": attempts,
            "current": self._index if self.current_attempt else None,
            "duel_winner": self._winner,
            "replaying": self._loser,
            "challenge": challenge,
            "challenges_left": len(self.available_challenges()),
            "seats": seats,
            "winners": best_seats(totals),
        }

    def _mode(self, position: int, count: int) -> str:
        if count == 1 and self._phase is Phase.TRIBE:
            return "alone so far"
        return "duel" if position < 2 and count >= 2 else "solo"

    def sheet_rows(self, round_report: JSON) -> list[tuple[str, list[str]]]:
        won = [" ".join(map(str, values)) or "-" for values in round_report["won"]]
        challenge = round_report["challenge"]
        winner = challenge["winner"] if challenge else None
        card = challenge["card"] if challenge else ""
        chief = ["chief" if s == round_report["chief"] else "" for s in range(self.players)]
        return [
            ("chief", chief),
            ("tribe cards", won),
            ("challenge", [card if s == winner else "-" for s in range(self.players)]),
            ("replays", [str(n) for n in round_report["replays"]]),
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


def _verb_of(action: Action) -> str:
    verbs: dict[type[Action], str] = {
        Hand: "hand",
        Draw: "draw",
        Reveal: "reveal",
        Tribe: "tribe",
        Result: "result",
        Replay: "replay",
        Pass: "pass",
        Keep: "keep",
        Challenge: "challenge",
    }
    verb = verbs.get(type(action))
    if verb is None:
        raise MalformedAction(f"oss does not know the action {action!r}")
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
    if expected.expects == "hand":
        deck = list(engine.deck_of(seat))
        return Hand(seat, tuple(sorted(rng.sample(deck, HAND_SIZE))))
    if expected.expects == "draw":
        return Draw(seat, rng.choice(engine.deck_of(seat)))
    if expected.expects == "reveal":
        solo = tuple(rng.choice(engine.available_tricks(f)) for f in (1, 2, 3))
        return Reveal(seat, solo, rng.choice(engine.available_tricks(cards.DUEL)))
    if expected.expects == "challenge":
        return Challenge(seat, rng.choice(engine.available_challenges()))
    return None


def chance_actions(engine: Oss, rng: random.Random) -> list[Action]:
    """Apply every chance action due now (e.g. all the hands) and return them in order."""
    done: list[Action] = []
    while (action := chance_action(engine, rng)) is not None:
        engine.apply(action)
        done.append(action)
    return done


__all__: Sequence[str] = (
    "RULINGS",
    "Attempt",
    "Challenge",
    "Draw",
    "Hand",
    "Keep",
    "Oss",
    "Pass",
    "Phase",
    "Placement",
    "Replay",
    "Result",
    "Reveal",
    "Tribe",
    "chance_action",
    "chance_actions",
)


SPEC = GameSpec(
    id=Oss.game_id,
    key="oss",
    title=Oss.title,
    min_players=Oss.min_players,
    max_players=Oss.max_players,
    deck=DeckSpec("oss-tribes", "Oss tribe cards", cards.TRIBE_CARDS, cards.canonical_tribe_card),
    engine=Oss,
    options=(
        OptionSpec(
            "rounds",
            "Rounds",
            OptionKind.NUMBER,
            4,
            "how many rounds are played",
            low=1,
            high=MAX_ROUNDS,
        ),
        OptionSpec(
            "replays_per_round",
            "Replays per round",
            OptionKind.NUMBER,
            2,
            "how many failed tricks may be tried again each round",
            low=0,
            high=8,
        ),
        OptionSpec(
            "replay_scope",
            "Replays count",
            OptionKind.CHOICE,
            "player",
            "per player, or shared by the whole table",
            choices=REPLAY_SCOPES,
        ),
    ),
    requirements=frozenset({Requirement.VIRTUAL_DEAL}),
)
