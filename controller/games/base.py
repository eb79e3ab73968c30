"""The contract every game engine keeps, and the errors it raises.

An engine is a pure, deterministic state machine in the style of OpenSpiel's
``State``: it is built from a record header, takes typed actions through
``apply()`` and answers with typed events. It does no I/O, reads no clock and
owns no hidden random generator, so replaying a game record rebuilds exactly
the same game.

This module, like everything in ``controller/games``, imports the standard
library only.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, ClassVar, Self

from controller.games.words import Arg, Items, Text, Verbatim, Words, as_arg, say

JSON = dict[str, Any]


class TableError(Exception):
    """Root of every error the table reports to a person.

    The message is written for a player or a member of staff: it says what
    happened and, where it helps, what to do. It is a ``Text`` (a message key
    with typed arguments, see ``controller.games.words``) that the table's
    presenter shows in each reader's language with seats counted from 1;
    ``str()`` is its English record-line form (players by their 0-based record
    seats), for the replay command and the logs.
    """

    def __init__(self, text: Words = "", *rest: object) -> None:
        super().__init__(str(text), *rest)
        self.text: Words = text


class IllegalAction(TableError, ValueError):
    """The rules refuse this action; the game state is unchanged."""


class MalformedAction(TableError, ValueError):
    """An action object is not of the record format's shape."""


class BadOption(TableError, ValueError):
    """A header or game option is missing, unknown or out of range."""


@dataclass(frozen=True)
class Expectation:
    """What the engine waits for next: which seat, and which verb.

    ``expects`` is one of the game's own verbs, a ``StrEnum`` (``Verb`` in its
    actions module), so it compares equal to the record's word and is that
    word in JSON.
    """

    seat: int
    expects: StrEnum

    def to_json(self) -> JSON:
        return {"seat": self.seat, "expects": str(self.expects)}


@dataclass(frozen=True)
class Action:
    """One step a seat takes. Subclasses add the verb's payload."""

    seat: int

    def to_json(self) -> JSON:
        """The action as a record line's object."""
        raise NotImplementedError


@dataclass(frozen=True)
class Event:
    """Something that happened, for the table to hand to the display and LEDs."""


@dataclass(frozen=True)
class TurnPassed(Event):
    """It is now this seat's turn (to play, bid, place...); the LEDs and display follow it."""

    seat: int


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended: final totals and the winning seats (all of them on a tie)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Chance:
    """Which chance the table supplies from its own seeded generator.

    A table with a virtual deck deals (``cards``); one with virtual dice rolls
    them (``dice``). What the table does not supply, people enter: hands and
    turned cards by tap, dice faces by button.
    """

    cards: bool = True
    dice: bool = True


@dataclass(frozen=True)
class Snapshot:
    """What everyone at the table can see of a game, as a frozen, typed value.

    Each engine returns its own subclass from ``snapshot()``; the table hands
    it to the display as it is (``controller.view.GameView``), and the display
    imports that class and reads its fields instead of string keys.
    ``to_json()`` is the same data as plain JSON (for logs, golden files and
    the generic scene of a game without a scene of its own).
    """

    def to_json(self) -> JSON:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The snapshot read back from ``to_json()``'s form (a log, a golden file).

        Forgiving where a game implements it: a missing or odd field takes a
        harmless default (see the ``json_*`` readers below), so a partial
        picture still reads.
        """
        raise NotImplementedError(f"{cls.__name__} cannot be read back from JSON")

    @classmethod
    def of(cls, game: Self | Mapping[str, Any]) -> Self:
        """``game`` itself if it is this snapshot type, else read from its JSON form."""
        if isinstance(game, Snapshot):
            assert isinstance(game, cls), f"a {type(game).__name__} is not a {cls.__name__}"
            return game
        return cls.from_json(game)


@dataclass(frozen=True)
class Overlay:
    """What the table shows on top of a game's snapshot: its cursors and highlights.

    The engine knows nothing of them (the bid a seat's OK button would make, the
    dice a seat has picked to reroll): they are the table's, kept by a game's
    adapter and handed to the display beside the engine's ``Snapshot`` (in
    ``controller.view.GameView``). A game without any uses this empty one. Each
    game's own is a frozen dataclass with defaults for every field (no cursor
    shown), so a display handed none still draws. ``to_json()`` gives the keys
    the game's JSON picture adds to the snapshot's (for logs and golden files).
    """

    def to_json(self) -> JSON:
        return asdict(self)


@dataclass(frozen=True)
class TrickCard(Snapshot):
    """One card on the table in a trick: who played it (engine seat) and what (notation)."""

    seat: int
    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, "card": self.card}


# Forgiving readers of a snapshot's JSON form, for ``from_json`` methods: a
# partial or odd picture (an old log, a hand-made one) must still read, so a
# missing or mistyped field takes a default.


def json_int(value: object, default: int = 0) -> int:
    """``value`` if it is a whole number (not a boolean), else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def json_opt_int(value: object) -> int | None:
    """``value`` if it is a whole number (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def json_ints(value: object) -> tuple[int, ...]:
    """The whole numbers of a list (anything else gives an empty tuple)."""
    if not isinstance(value, list | tuple):
        return ()
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))


def json_strs(value: object) -> tuple[str, ...]:
    """A list's items as text (anything else gives an empty tuple)."""
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def json_expectation(value: object, verbs: type[StrEnum]) -> Expectation | None:
    """An ``Expectation.to_json()`` object of a game whose verbs are ``verbs`` read back,
    or None (also for a verb the game does not know)."""
    if not isinstance(value, Mapping) or json_opt_int(value.get("seat")) is None:
        return None
    verb = value.get("expects")
    if not isinstance(verb, str) or verb not in {str(known) for known in verbs}:
        return None
    return Expectation(json_int(value.get("seat")), verbs(verb))


def json_trick(value: object) -> tuple[TrickCard, ...]:
    """A list of ``{"seat", "card"}`` objects read back as trick cards."""
    if not isinstance(value, list | tuple):
        return ()
    return tuple(
        TrickCard(json_int(t.get("seat")), str(t.get("card", "?")))
        for t in value
        if isinstance(t, Mapping) and json_opt_int(t.get("seat")) is not None
    )


class Engine(ABC):
    """One game in progress. See the module docstring for the rules of the house."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    players: int

    @classmethod
    @abstractmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        """Start a game from a record header; raise BadOption on a bad one."""

    @classmethod
    @abstractmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        """A header for a new game of ``players`` with ``options``.

        Starting details the rulebook leaves to the players (who leads or deals
        first) are drawn from ``rng``; BadOption on bad options.
        """

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        """The chance actions a virtual deck or virtual dice supply now, drawn from ``rng``.

        OpenSpiel's chance nodes, made explicit: dealt hands, a turned card,
        rolled dice. They are ordinary actions of the record, so a game dealt by
        the table replays exactly. Empty when chance has nothing to supply now
        (or when ``chance`` says people supply it). Decided from the state alone,
        so a game rebuilt from its record is never dealt twice.
        """
        return []

    @abstractmethod
    def header(self) -> JSON:
        """The record header that starts this game (``format`` and ``game`` included)."""

    @abstractmethod
    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        """Turn a record line's object into a typed action for this game's seats.

        Checks the shape only (seat in range, one known verb, well-formed cards);
        raises MalformedAction. Whether the rules allow it is ``apply``'s job.
        """

    @abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Take one action and return what happened.

        Raises IllegalAction, leaving the state untouched, when the rules refuse it.
        """

    @property
    @abstractmethod
    def expected(self) -> Expectation | None:
        """Whose turn it is and what is expected, or None when the game is over."""

    @property
    def finished(self) -> bool:
        return self.expected is None

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action the seat may take now, as far as the engine knows.

        Where hands are not registered the engine cannot know a seat's cards;
        it then lists every card that could still be in that hand.
        """

    @abstractmethod
    def snapshot(self) -> Snapshot:
        """What everyone at the table can see, as a frozen typed value (no hidden hands)."""

    @abstractmethod
    def report(self) -> JSON:
        """The replay result: ``finished``, ``rounds``, ``totals``, ``winners``, ``next``."""

    def early_end(self, seat: int) -> Action | None:
        """The action by which staff end the game now under the rulebook's early end, or None.

        Only games whose rulebook says how a game cut short is decided have one
        (Oh Pshaw: the leaders win); others can only be abandoned.
        """
        return None

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        """Extra score-sheet rows for one round of ``report()``: a label and one cell per seat.

        Labels and cells are messages the sheet presents in its reader's
        language (numbers may stay plain text). The default shows every
        per-seat list of numbers or words in the round object; engines
        override it where a friendlier summary helps.
        """
        rows: list[tuple[Words, list[Words]]] = []
        for key, value in round_report.items():
            if key == "scores" or not isinstance(value, list) or len(value) != self.players:
                continue
            if all(isinstance(v, int | str) for v in value):
                rows.append((field_label(key), [in_words(v) for v in value]))
        return rows

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        """Sentences under the score sheet for one round's facts that are not per seat.

        A person reads them, so seats are ``Player`` arguments (the presenter
        counts them from 1) and no field name of the report shows. The default
        names every remaining field in plain words; engines override it to say
        what the fields mean.
        """
        notes: list[Words] = []
        for key, value in round_report.items():
            per_seat = isinstance(value, list) and len(value) == self.players
            if key == "scores" or per_seat or value in (None, [], {}, False):
                continue
            notes.append(
                say(
                    "{field}: {value}",
                    field=as_arg(field_label(key)),
                    value=as_arg(in_words(value)),
                )
            )
        return notes


# --- helpers shared by the engines' boundaries --------------------------------


def describe(value: object) -> str:
    """A short, JSON-ish rendering of a value for error messages."""
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def require_int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Check a JSON value is a whole number in [low, high]; booleans are not numbers."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(
            say(
                "{what} must be a whole number, not {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise MalformedAction(
                say(
                    "{what} must be in {low}..{high}, not {value}",
                    what=Verbatim(what),
                    low=Verbatim(str(low)),
                    high=Verbatim(str(high)),
                    value=Verbatim(str(value)),
                )
            )
        if low is not None and value < low:
            raise MalformedAction(
                say(
                    "{what} must be at least {low}, not {value}",
                    what=Verbatim(what),
                    low=low,
                    value=value,
                )
            )
        assert high is not None  # not below ``low``, so above ``high``
        raise MalformedAction(
            say(
                "{what} must be at most {high}, not {value}",
                what=Verbatim(what),
                high=high,
                value=value,
            )
        )
    return value


def read_players(header: Mapping[str, Any], low: int, high: int, game: str) -> int:
    """The header's ``players``, checked against the game's range."""
    if "players" not in header:
        raise BadOption(say('the header has no "players"'))
    value = header["players"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOption(
            say('"players" must be a whole number, not {value}', value=Verbatim(describe(value)))
        )
    if not low <= value <= high:
        raise BadOption(
            say(
                "{game} is for {low} to {high} players, not {value}",
                game=Verbatim(game),
                low=low,
                high=high,
                value=value,
            )
        )
    return value


def new_header(
    engine: type[Engine],
    players: int,
    options: Mapping[str, Any],
    seat_key: str,
    rng: random.Random,
) -> JSON:
    """A checked header for a new game whose starting seat (``seat_key``) is drawn from ``rng``."""
    read_players({"players": players}, engine.min_players, engine.max_players, engine.game_id)
    header: JSON = {
        "format": "table-record/1",
        "game": engine.game_id,
        "players": players,
        "options": dict(options),
        seat_key: rng.randrange(players),
    }
    engine.from_header(header)  # refuses bad options with their own message
    return header


def read_seat_key(header: Mapping[str, Any], key: str, players: int) -> int:
    """A header key that names a seat (``lead``, ``dealer``)."""
    if key not in header:
        raise BadOption(
            say(
                'the header has no "{key}" (the seat 0..{last})',
                key=Verbatim(key),
                last=Verbatim(str(players - 1)),
            )
        )
    value = header[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise BadOption(
            say(
                '"{key}" must be a seat 0..{last}, not {value}',
                key=Verbatim(key),
                last=Verbatim(str(players - 1)),
                value=Verbatim(describe(value)),
            )
        )
    return value


def read_options(header: Mapping[str, Any], known: Iterable[str], game: str) -> dict[str, Any]:
    """The header's ``options`` object; an unknown key is refused with the list of known ones."""
    options = header.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOption(
            say('"options" must be an object, not {value}', value=Verbatim(describe(options)))
        )
    known_keys = sorted(known)
    for key in options:
        if key not in known_keys:
            listed = ", ".join(known_keys) if known_keys else "none"
            raise BadOption(
                say(
                    'unknown option "{option}" for {game}; its options are: {listed}',
                    option=Verbatim(str(key)),
                    game=Verbatim(game),
                    listed=Verbatim(listed),
                )
            )
    return dict(options)


def split_action(
    obj: Mapping[str, Any], players: int, verbs: Mapping[str, Sequence[str]]
) -> tuple[int, str]:
    """Check an action object's shape and return its seat and verb.

    ``verbs`` maps each verb of the game to the extra keys it may carry
    (e.g. ``place`` may carry ``card``).
    """
    if "seat" not in obj:
        raise MalformedAction(say('the action has no "seat"'))
    seat = obj["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise MalformedAction(
            say(
                '"seat" must be a seat 0..{last}, not {value}',
                last=Verbatim(str(players - 1)),
                value=Verbatim(describe(seat)),
            )
        )
    found = [key for key in obj if key in verbs]
    if not found:
        known = ", ".join(sorted(verbs))
        others = [key for key in obj if key != "seat"]
        if others:
            raise MalformedAction(
                say(
                    'unknown action "{action}"; this game knows: {known}',
                    action=Verbatim(str(others[0])),
                    known=Verbatim(known),
                )
            )
        raise MalformedAction(
            say("the action names no verb; this game knows: {known}", known=Verbatim(known))
        )
    if len(found) > 1:
        raise MalformedAction(
            say(
                "an action takes exactly one verb, not {verbs}",
                verbs=Verbatim(", ".join(str(f) for f in found)),
            )
        )
    verb = found[0]
    allowed = {"seat", verb, *verbs[verb]}
    for key in obj:
        if key not in allowed:
            raise MalformedAction(
                say(
                    '"{key}" does not belong in a "{verb}" action',
                    key=Verbatim(str(key)),
                    verb=Verbatim(verb),
                )
            )
    return seat, verb


def best_seats(totals: Sequence[int]) -> list[int]:
    """Seats with the highest total (all of them on a tie)."""
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]


# The words of report fields the games share, for the default sheet; any other
# field shows its own name with spaces (a toy game's field is not translated).
FIELD_LABELS: Mapping[str, Text] = {
    "bids": say("bid"),
    "tricks": say("tricks won"),
    "points": say("points"),
    "penalties": say("penalties"),
    "trump": say("trump"),
    "hand_size": say("hand size"),
    "dealer": say("dealer"),
    "turned": say("turned card"),
    "status": say("bids against tricks"),
    "reneges": say("reneges"),
    "tie_break": say("tie-break round"),
    "trendy": say("trendy genres"),
    "genres": say("points per genre"),
    "stock": say("stock"),
    "chief": say("chief"),
    "won": say("cards won"),
    "replays": say("replays"),
    "challenge": say("challenge"),
}


def field_label(key: str) -> Words:
    """A report field's name as the sheet's reader reads it ("hand_size": "hand size")."""
    return FIELD_LABELS.get(key, key.replace("_", " "))


def in_words(value: object) -> Words:
    """A report value as a person would write it: lists joined in words, no JSON punctuation."""
    if value is None:
        return say("none")
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, Mapping):
        return _listed(
            say("{field} {value}", field=as_arg(field_label(str(k))), value=as_arg(in_words(v)))
            for k, v in value.items()
        )
    if isinstance(value, Sequence):
        return _listed(as_arg(in_words(v)) for v in value)
    return str(value)


def _listed(parts: Iterable[Arg]) -> Words:
    """Several values as the language joins a list ("a, b and c")."""
    values = tuple(parts)
    if not values:
        return say("none")
    return say("{items}", items=Items(values))
