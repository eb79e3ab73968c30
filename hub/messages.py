"""What the hub accepts from a table: one Pydantic model per topic, every field bounded.

The hub trusts nothing from the wire. A table's password lets it publish
under its own topics (the broker's ACL), not put garbage into the café's
history: every message is parsed here, at the edge, before anything is
stored, with a bound on every string, list and number. What the hub stores
is the model's own dump, so a field the hub does not know never reaches the
database or a page.

A ``record`` passes only if its text replays (``controller.records.record.replay``)
to the totals and winners it claims, for a game the hub knows, with the
seats it names, finished, and not in the future; its uid must be the sending
table's (a table cannot claim another table's record ids). The stored report
is the replay's own.

``parse`` answers a model or raises ``Refused`` with one line that says
what was wrong, for the dashboard's list of problems. It never raises
anything else, whatever the bytes.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    model_validator,
)

from controller.fleet import topics
from controller.games import specs
from controller.games.base import TableError
from controller.records.record import replay
from controller.tags.members import NicknameError, check_nickname

# Message sizes per topic (bytes of JSON). The broker's max_packet_size is larger
# (``hub.broker.MAX_PACKET_BYTES``); these are what a real table sends, with room.
MAX_BYTES = {
    topics.STATUS: 16_384,  # with up to 32 open alerts
    topics.STATE: 16_384,
    topics.EVENT: 4_096,
    topics.ALERT: 4_096,
    topics.RECORD: 200_000,
    topics.CONFIG_RESULT: 4_096,
}
MAX_RECORD_CHARS = 160_000  # a long game's record is some 10 kB
MAX_SEATS = 16
CLOCK_SKEW = dt.timedelta(minutes=10)  # how far ahead of the hub a table's clock may run
EARLIEST = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class Refused(ValueError):
    """A message the hub does not store; the text says why in one line."""


def _one_line(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("holds a line break or control character")
    return value


def _stamp(value: str) -> str | None:
    """A table's wall-clock stamp on a state, event, alert or status, or None (unknown)
    when it is before 2020: a Pi stamps 1970 until NTP has set its clock, and a staff
    call made then must still reach the floor. The hub files such a message under its
    own arrival time; a stamp in the future is still refused."""
    if _moment(value) < EARLIEST:
        return None
    return value


def _game_stamp(value: str) -> str:
    """A record's start or end: any past time, 1970 too. A game played before the Pi's
    clock was set is still a game; the hub shows its time as "clock not set" and files
    it under its arrival (``hub.storage.trusted_time``)."""
    _moment(value)
    return value


def _moment(value: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise ValueError("has no time zone")
    if moment > dt.datetime.now(dt.UTC) + CLOCK_SKEW:
        raise ValueError("is in the future")
    return moment


def _nickname(value: str) -> str:
    try:
        return check_nickname(value)
    except NicknameError:
        raise ValueError("is not a nickname (1 to 16 printable characters)") from None


# One line of printable text, at most so many characters.
Title = Annotated[str, StringConstraints(max_length=120), AfterValidator(_one_line)]
Note = Annotated[str, StringConstraints(max_length=300), AfterValidator(_one_line)]


def _names_or_none(values: list[Any]) -> list[str | None]:
    names: list[str | None] = []
    for value in values:
        try:
            names.append(check_nickname(value) if isinstance(value, str) else None)
        except NicknameError:
            names.append(None)
    return names


Stamp = Annotated[str, StringConstraints(max_length=40), AfterValidator(_stamp)]
GameStamp = Annotated[str, StringConstraints(max_length=40), AfterValidator(_game_stamp)]
Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:+/-]{0,79}$")]
Word = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
Nickname = Annotated[str, StringConstraints(max_length=64), AfterValidator(_nickname)]
SeatNumber = Annotated[int, Field(ge=1, le=MAX_SEATS)]  # as people count: from 1
Player = Annotated[int, Field(ge=0, lt=MAX_SEATS)]  # as the engines count: from 0
Score = Annotated[int, Field(ge=-1_000_000_000, le=1_000_000_000)]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Seconds = Annotated[int, Field(ge=0, le=10**9)]
SeatKey = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]?$")]  # "1".."99", as JSON keys
# A record's or message's id across the café: "<table id>/..." (controller.fleet.outbox).
UID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,31}/[\x21-\x7e]{1,160}$"
MessageUid = Annotated[str, StringConstraints(pattern=UID_PATTERN)]


class _Message(BaseModel):
    # Strict: "3" is not 3 and "false" is not False. Fields the hub does not know are
    # dropped (a newer table may send more), never stored.
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class SeatState(_Message):
    seat: SeatNumber
    joined: bool = False
    bot: bool = False
    reader: bool = True


class TableState(_Message):
    """``state``: what the floor shows of a table (``controller.fleet.reporter.table_state``)."""

    version: Annotated[int, Field(ge=0, le=2**53)] = 0
    screen: Word = "unknown"
    game: Word | None = None
    title: Title | None = None
    game_started: Stamp | None = None  # the table's wall clock: shown, never subtracted
    game_elapsed: Seconds | None = None  # how long the game has run, by the table's steady clock
    round: Count | None = None
    seats: list[SeatState] = Field(default_factory=list, max_length=MAX_SEATS)
    waiting_for: list[SeatNumber] = Field(default_factory=list, max_length=MAX_SEATS)
    totals: Annotated[list[Score], Field(max_length=MAX_SEATS)] | None = None
    readers_offline: list[SeatNumber] = Field(default_factory=list, max_length=MAX_SEATS)
    nicknames: dict[SeatKey, Nickname] = Field(default_factory=dict, max_length=MAX_SEATS)
    journal: Note = "ok"
    decks: dict[Word, tuple[Count, Count]] = Field(default_factory=dict, max_length=64)


class Event(_Message):
    """``event``: a game started or finished, a reader gone or back, a call answered."""

    kind: Word
    at: Stamp | None = None
    game: Word | None = None
    totals: Annotated[list[Score], Field(max_length=MAX_SEATS)] | None = None
    winners: Annotated[list[SeatNumber], Field(max_length=MAX_SEATS)] | None = None
    seat: Annotated[int, Field(ge=0, le=MAX_SEATS)] | None = None
    alert: Id | None = None
    uid: MessageUid | None = None  # kept in the table's outbox until the hub confirms it


class Alert(_Message):
    """``alert``: a call for staff or a reader offline."""

    id: Id
    kind: Word = "alert"
    text: Note = ""
    seat: Player | None = None
    at: Stamp | None = None
    uid: MessageUid | None = None  # kept in the table's outbox until the hub confirms it


class Status(_Message):
    """``status``: online or not (the last will says not), retained; sent as a heartbeat.

    ``alerts`` (from a table that sends them) lists its open alerts, ``answered``
    the calls last answered at the table: the hub stores an alert it missed and
    closes an answered call whose event it missed.
    """

    online: bool
    at: Stamp | None = None
    alerts: Annotated[list[Alert], Field(max_length=32)] | None = None
    answered: Annotated[list[Id], Field(max_length=32)] | None = None


class ConfigResult(_Message):
    """``config/result``: the table's answer to a configuration push."""

    id: Id
    ok: bool
    message: Note = ""
    version: Annotated[int, Field(ge=0, le=2**53)] | None = None
    at: Stamp | None = None
    uid: MessageUid | None = None  # kept in the table's outbox until the hub confirms it


class ReportClaim(_Message):
    """What a record message claims of its game's end: checked against the replay."""

    finished: Literal[True]
    totals: Annotated[list[Score], Field(max_length=MAX_SEATS)]
    winners: Annotated[list[Player], Field(max_length=MAX_SEATS)]


class Replayed(NamedTuple):
    """A record's own account of its game: the replay's report and the header's options."""

    report: dict[str, Any]
    options: dict[str, Any]


class RecordMessage(_Message):
    """``record``: a finished game, its record text, and what the table says it came to."""

    uid: MessageUid
    game: Word
    journal_game: Annotated[int, Field(ge=0)] | None = None
    seats: Annotated[list[Player], Field(min_length=1, max_length=MAX_SEATS)]
    started: GameStamp | None = None
    finished: GameStamp
    # Whether the table's clock was set (synchronised) when it stamped the game; None:
    # a table that does not say (its stamps are believed unless before 2025).
    clock_set: bool | None = None
    report: ReportClaim
    record: Annotated[str, StringConstraints(max_length=MAX_RECORD_CHARS)]
    # A bad nickname costs the game that name, not its record (docs/cafe.md).
    nicknames: (
        Annotated[list[Any], Field(max_length=MAX_SEATS), AfterValidator(_names_or_none)] | None
    ) = None
    # Set by ``check_record``: the replay's report and the header's options, to store.
    _replayed: Replayed | None = PrivateAttr(default=None)

    @property
    def replayed(self) -> Replayed:
        """What the record's text replays to; only a checked record (``parse``) has it."""
        if self._replayed is None:
            raise RuntimeError("the record was not checked: use hub.messages.parse")
        return self._replayed

    @model_validator(mode="after")
    def _consistent(self) -> RecordMessage:
        if len(set(self.seats)) != len(self.seats):
            raise ValueError("seats names a seat twice")
        if self.nicknames is not None and len(self.nicknames) != len(self.seats):
            raise ValueError("nicknames must have one entry per seat")
        if self.started is not None and dt.datetime.fromisoformat(
            self.started
        ) > dt.datetime.fromisoformat(self.finished):
            raise ValueError("the game finished before it started")
        return self


MODELS: dict[str, type[_Message]] = {
    topics.STATUS: Status,
    topics.STATE: TableState,
    topics.EVENT: Event,
    topics.ALERT: Alert,
    topics.RECORD: RecordMessage,
    topics.CONFIG_RESULT: ConfigResult,
}


def parse(table_id: str, leaf: str, data: bytes) -> _Message:
    """The checked message a table sent on ``leaf``; Refused says what is wrong."""
    model = MODELS.get(leaf)
    if model is None:
        raise Refused(f"{leaf} is not a topic a table publishes to")
    if len(data) > MAX_BYTES[leaf]:
        raise Refused(f"{leaf}: {len(data)} bytes, more than the {MAX_BYTES[leaf]} allowed")
    try:
        message = model.model_validate_json(data)
    except ValidationError as exc:
        raise Refused(f"{leaf}: {_first_error(exc)}") from None
    except (ValueError, RecursionError) as exc:  # pydantic's JSON parser's own limits
        raise Refused(f"{leaf}: not readable JSON ({type(exc).__name__})") from None
    uid = getattr(message, "uid", None)
    if uid is not None and not uid.startswith(f"{table_id}/"):
        raise Refused(f"{leaf}: its uid {uid[:60]!r} is not one of {table_id}'s")
    if isinstance(message, RecordMessage):
        check_record(table_id, message)
    return message


def uid_of(table_id: str, data: bytes) -> str | None:
    """The ``uid`` of ``table_id``'s message ``data`` even when it is refused, or None."""
    if len(data) > max(MAX_BYTES.values()):
        return None
    payload = topics.decode(data)
    uid = None if payload is None else payload.get("uid")
    if not isinstance(uid, str) or not uid.startswith(f"{table_id}/"):
        return None
    return uid if re.fullmatch(UID_PATTERN, uid) else None


def check_record(table_id: str, message: RecordMessage) -> Replayed:
    """The replay's report of a record that replays to what it claims; Refused otherwise."""
    if not message.uid.startswith(f"{table_id}/"):
        raise Refused(f"record: its uid {message.uid[:60]!r} is not one of {table_id}'s")
    if message.game not in specs():
        raise Refused(f"record: {message.game!r} is not a game this hub knows")
    try:
        engine = replay(message.record)
        report = engine.report()
        header = engine.header()
    except TableError as exc:
        raise Refused(f"record: the record does not replay: {str(exc)[:200]}") from None
    except Exception as exc:  # an engine's own bug must not take the hub down
        raise Refused(f"record: the record cannot be replayed ({type(exc).__name__})") from None
    if header.get("game") != message.game:
        raise Refused(f"record: its text is a game of {header.get('game')!r}, not {message.game!r}")
    if header.get("players") != len(message.seats):
        raise Refused(
            f"record: {len(message.seats)} seats named for a game of {header.get('players')}"
        )
    if not engine.finished:
        raise Refused("record: the game in the record is not finished")
    if list(report.get("totals", [])) != message.report.totals:
        raise Refused(
            f"record: claims totals {message.report.totals}, the record replays to "
            f"{list(report.get('totals', []))}"
        )
    if list(report.get("winners", [])) != message.report.winners:
        raise Refused(
            f"record: claims winners {message.report.winners}, the record replays to "
            f"{list(report.get('winners', []))}"
        )
    options = header.get("options")
    replayed = Replayed(dict(report), dict(options) if isinstance(options, dict) else {})
    message._replayed = replayed
    return replayed


def lenient_state(raw: object) -> tuple[TableState, set[str]]:
    """A stored state for the floor, and the fields that were not valid (shown as "?").

    States are checked before they are stored; this guards what an older hub
    stored unchecked, so one bad field costs that table that field, not the page.
    """
    if not isinstance(raw, dict):
        return TableState(), {"state"} if raw is not None else set()
    bad: set[str] = set()
    data = dict(raw)
    for _ in range(3):
        try:
            return TableState.model_validate(data, strict=False), bad
        except ValidationError as exc:
            fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
            if not fields:
                break
            bad |= fields
            data = {k: v for k, v in data.items() if k not in bad}
    return TableState(), bad | {"state"}


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "not valid"
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "the message"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg'].removeprefix('Value error, ')}{more}"[:300]
