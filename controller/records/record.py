"""Game records (``table-record/1``): reading, writing and replaying them.

The format is the contract in ``shared/spec/game-record.md``: JSON Lines, a
header on line 1, one action per further non-blank line, ``{"note": ...}``
lines ignored. Reading validates at the boundary and reports the first
problem as ``line N: ...`` in words a player understands.

Lines end at ``\n`` only (a ``\r`` before it is dropped): JSON strings may hold
U+2028, U+2029 or U+0085, which ``str.splitlines`` would wrongly split at.
Every line is bounded before and while it is parsed (nesting depth, digits
of a number, no NaN or Infinity), so no input gets past as a traceback, and
every message is one line (``safe_text.one_line``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.games import engine_class
from controller.games.base import JSON, Action, Engine, TableError
from controller.words.safe_text import one_line, shorten

logger = logging.getLogger(__name__)

FORMAT = "table-record/1"
MAX_DEPTH = 16  # arrays and objects inside each other; a real record line nests 3 deep
MAX_DIGITS = 30  # digits in a number; a real record has at most a few


class RecordError(TableError, ValueError):
    """A record breaks the format or a rule; ``line`` is the 1-based line at fault."""

    def __init__(self, line: int, message: str) -> None:
        message = one_line(message)  # a quoted value must not start a forged second line
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


@dataclass(frozen=True)
class RecordLine:
    """One action line as read: its line number and its JSON object."""

    number: int
    obj: Mapping[str, Any]


@dataclass
class Record:
    """A header and its actions, as read from or about to be written to a file."""

    header: JSON
    lines: list[RecordLine] = field(default_factory=list)
    header_line: int = 1


class _Bound(ValueError):
    """A JSON value past the bounds of a record line; the message says which."""


def _number(text: str) -> int | float:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Bound(
            f"the number {shorten(text, 20)} is too long; a record's numbers have at most "
            f"{MAX_DIGITS} digits"
        )
    value = float(text) if any(c in text for c in ".eE") else int(text)
    if isinstance(value, float) and not math.isfinite(value):
        raise _Bound(f"the number {shorten(text, 20)} is too large")
    return value


def _constant(name: str) -> Any:
    raise _Bound(f"{name} is not a number JSON allows; write a plain number")


def _depth(raw: str) -> int:
    """How deep arrays and objects nest in a line (outside strings)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_line(raw: str, number: int) -> Any:
    """Parse one record line's JSON within the bounds; RecordError names the line."""
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise RecordError(
            number,
            f"this line nests arrays or objects more than {MAX_DEPTH} deep; "
            "a record line is one flat object",
        )
    try:
        return json.loads(raw, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except _Bound as exc:
        raise RecordError(number, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise RecordError(number, f"this line is not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # bounds of the json module itself
        raise RecordError(number, f"this line cannot be read as JSON ({exc})") from None


def lines(text: str) -> Iterator[tuple[int, str]]:
    """The record's lines with their 1-based numbers, split at ``\n`` only."""
    for number, raw in enumerate(text.split("\n"), start=1):
        yield number, raw.removesuffix("\r")


def decode(data: bytes) -> str:
    """A record's bytes as text; RecordError names the line of a byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(
            line,
            f"this line is not UTF-8 text (byte 0x{data[exc.start]:02x}); save the record as UTF-8",
        ) from None


def _objects(text: str) -> Iterator[tuple[int, Any]]:
    for number, raw in lines(text):
        if not raw.strip(" \t\r"):  # JSON's own whitespace: U+2028 and friends are not blank
            continue
        yield number, load_line(raw, number)


def parse(text: str) -> Record:
    """Read a record's header and action lines, checking the shape only (not the rules)."""
    objects = _objects(text.lstrip("\ufeff"))
    first = next(objects, None)
    if first is None:
        raise RecordError(1, "the record is empty; line 1 must be the header")
    number, header = first
    if not isinstance(header, dict):
        raise RecordError(number, "the header must be a JSON object")
    if header.get("format") != FORMAT:
        raise RecordError(
            number, f'the header\'s "format" must be "{FORMAT}", not {header.get("format")!r}'
        )
    record = Record(header=header, header_line=number)
    for number, obj in objects:
        if not isinstance(obj, dict):
            raise RecordError(number, "an action must be a JSON object")
        if set(obj) == {"note"}:
            continue
        record.lines.append(RecordLine(number, obj))
    return record


def start(record: Record) -> Engine:
    """Build the engine a record's header describes."""
    try:
        engine_type = engine_class(record.header.get("game"))
        return engine_type.from_header(record.header)
    except TableError as exc:
        raise RecordError(record.header_line, str(exc)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
        raise RecordError(
            record.header_line, _unusable(record.header_line, "header", exc)
        ) from None


def replay(text: str) -> Engine:
    """Replay a whole record and return the engine at its end; RecordError on the first fault."""
    record = parse(text)
    engine = start(record)
    try:
        replay_actions(engine, (line.obj for line in record.lines))
    except ActionRefused as exc:
        raise RecordError(record.lines[exc.index].number, exc.reason) from None
    return engine


class ActionRefused(TableError, ValueError):
    """An action of a game being replayed does not replay; ``index`` counts from 0."""

    def __init__(self, index: int, obj: Mapping[str, Any], reason: str) -> None:
        super().__init__(f"action {index + 1} ({dict(obj)}) does not replay: {reason}")
        self.index = index
        self.obj = obj
        self.reason = reason


def replay_actions(
    engine: Engine,
    actions: Iterable[Mapping[str, Any]],
    accepted: Callable[[Action], None] | None = None,
) -> Engine:
    """The one replay loop: apply ``actions`` (JSON objects) to ``engine`` in order.

    A record read from a file, a journaled game resumed after a crash and a
    game rebuilt after a staff undo all go through here, so they agree on what
    replays. ``accepted`` sees each action once the engine took it (the table
    records them). The first action the engine refuses raises ActionRefused.
    """
    # The cyclic garbage collector would walk every parsed action of a long game
    # again and again (a replay allocates many small objects and frees none): it
    # made resuming 10x the actions cost 11.3x the time. Nothing a replay builds
    # forms a cycle, so it pauses for the loop and runs as usual afterwards.
    with _collector_paused():
        _replay_into(engine, actions, accepted)
    return engine


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _replay_into(
    engine: Engine,
    actions: Iterable[Mapping[str, Any]],
    accepted: Callable[[Action], None] | None,
) -> None:
    for index, obj in enumerate(actions):
        try:
            if engine.finished:
                raise TableError("the game is already over; nothing more can be played")
            action = engine.parse_action(obj)
            engine.apply(action)
        except TableError as exc:
            raise ActionRefused(index, obj, str(exc)) from None
        except _TRIPS as exc:
            raise ActionRefused(index, obj, _unusable(index + 1, "action", exc)) from None
        if accepted is not None:
            accepted(action)


# What an engine may raise when it trips over a value instead of refusing it.
_TRIPS = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError)


def _unusable(where: int, what: str, exc: Exception) -> str:
    """An engine tripped over a value instead of refusing it: still one line, never a traceback.

    Logged with its traceback (at debug level) for the engine's maintainer.
    """
    logger.debug("%s %d: the engine failed on the %s", what, where, exc_info=True)
    return (
        f"this {what} has a value the game cannot use ({type(exc).__name__}: "
        f"{shorten(str(exc), 80)})"
    )


def dumps(header: Mapping[str, Any], actions: Iterable[Action | Mapping[str, Any]]) -> str:
    """Write a record: the header, then one compact JSON object per line."""
    out = [json.dumps(dict(header), ensure_ascii=False)]
    for action in actions:
        obj = action.to_json() if isinstance(action, Action) else dict(action)
        out.append(json.dumps(obj, ensure_ascii=False))
    return "\n".join(out) + "\n"


# An action as it stands in a game, and whether chance supplied it (a virtual
# deal) rather than a player: the journal and the table keep games this way.
ActionPair = tuple[JSON, bool]


def drop_trailing_chance(pairs: list[ActionPair]) -> int:
    """Take the chance actions off the end (a deal nobody has played to yet); how many."""
    dropped = 0
    while pairs and pairs[-1][1]:
        pairs.pop()
        dropped += 1
    return dropped


def undo_last_player_action(pairs: list[ActionPair]) -> JSON | None:
    """Take back the last player action and any deal that followed it.

    Returns the action taken back, or None (and changes nothing that matters)
    when no player has acted yet. The table's staff undo and the journal's
    rebuild of an ``undo`` correction both go through here, so they agree.
    """
    drop_trailing_chance(pairs)
    return pairs.pop()[0] if pairs else None


class Recorder:
    """Keeps the record of a game as it is played: the header and every accepted action."""

    def __init__(self, engine: Engine) -> None:
        self.header: JSON = engine.header()
        self.actions: list[Action] = []

    def accepted(self, action: Action) -> None:
        self.actions.append(action)

    def dumps(self) -> str:
        return dumps(self.header, self.actions)
