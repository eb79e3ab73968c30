"""Typed input events that hardware threads put on the table's one queue.

Every device in ``hardware`` is handed the same ``queue.SimpleQueue[InputEvent]``
through its constructor and only ever *puts* these events on it; the table
loop (``controller/table/``) is the single consumer and owns all state.
Nothing here knows the game rules.

Conventions shared by every event:

* ``seat`` is the seat number the device was configured for (``0 ..
  players-1`` in the game record's numbering; the hardware does not check it).
* ``at`` is a ``time.monotonic()`` timestamp taken as close to the source as
  the backend allows: the GPIO edge time for buttons, the moment the bytes
  were read for serial readers, the moment of the call for mocks. Compare it
  only with other ``time.monotonic()`` values.

Per seat, a reader's events keep a simple order: ``ReaderOnline``, then
``TagPresented`` and ``TagRemoved`` strictly alternating (a reader never
announces a second tag without removing the first), then ``ReaderOffline``.
After ``ReaderOffline`` the seat's tag state is unknown; a later
``ReaderOnline`` starts again with no tag present.

Dispatch on ``type(event)`` with a table (``{TagPresented: on_tag, ...}``)
rather than an ``isinstance`` ladder.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

__all__ = [
    "Button",
    "ButtonPressed",
    "ButtonReleased",
    "Clock",
    "Contact",
    "EventQueue",
    "InputEvent",
    "Offline",
    "ReaderFlooding",
    "ReaderOffline",
    "ReaderOnline",
    "ReaderProblem",
    "TagPresented",
    "TagRemoved",
    "TimerEvent",
    "TossCancelled",
    "TossStarted",
    "TossStopped",
    "Wakeup",
    "WiringProblem",
]


class Button(StrEnum):
    """A seat button, named by where it is from the player's side, left to right.

    The names say where a button is, not what it means: the table decides that
    per screen and phase. A ``StrEnum``, so a button is its name in JSON,
    records, ``table.toml`` and logs.
    """

    PREV = "prev"
    OK = "ok"
    NEXT = "next"


Contact: TypeAlias = Button | Literal["timer"]
"""Something a person presses: a seat's ``Button``, or ``"timer"``, the table's one toss
timer. The simulator presses either; either can chatter (``WiringProblem``)."""


@dataclass(frozen=True, slots=True)
class TagPresented:
    """A tag was placed on a seat's reader.

    ``uid`` is the tag's UID as upper-case hexadecimal without separators,
    e.g. ``"04A1B2C3D4E5F6"`` (4 to 10 bytes).
    """

    seat: int
    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class TagRemoved:
    """The tag that was on a seat's reader has been taken away."""

    seat: int
    at: float


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A seat's button went down."""

    seat: int
    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    """A seat's button came back up."""

    seat: int
    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class ReaderOnline:
    """A seat's reader is open and listening. ``port`` is e.g. ``"/dev/ttyUSB0"`` or ``"mock"``."""

    seat: int
    port: str
    at: float


class Offline(StrEnum):
    """Why a reader is offline, as a kind the table can put into words.

    The hardware never imports the controller, so its sentences stay English
    staff-log lines (``ReaderOffline.reason``, ``str(ReaderUnavailable)``); the
    kind travels beside them and the controller maps it to a translated
    message (``controller/table/readers.py``).
    """

    CLOSED = "closed"  # closed on purpose by the program
    MISSING = "missing"  # the device file is not there (unplugged, renamed)
    BUSY = "busy"  # another program holds the port
    DENIED = "denied"  # no permission to open the port
    SILENT = "silent"  # the port opens but the reader does not answer
    LOST = "lost"  # the connection broke (cable pulled, I/O errors)
    FAILED = "failed"  # anything else


@dataclass(frozen=True, slots=True)
class ReaderOffline:
    """A seat's reader stopped listening.

    ``reason`` is ``"closed"`` when the program closed it on purpose, otherwise
    a sentence for the staff log such as ``"lost the connection: ..."``.
    ``kind`` says the same as one of ``hardware.problems.Offline``'s values,
    which the table turns into words in the reader's language; left out, it
    is ``"closed"`` for the reason ``"closed"`` and ``"lost"`` otherwise.
    """

    seat: int
    port: str
    reason: str
    at: float
    kind: str = ""

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", "closed" if self.reason == "closed" else "lost")


@dataclass(frozen=True, slots=True)
class ReaderProblem:
    """A reader sent something it should not have (a corrupt or unknown line).

    The reader keeps running; no tag event is produced from the bad data.
    ``message`` is a sentence for the staff log.
    """

    seat: int
    message: str
    at: float


@dataclass(frozen=True, slots=True)
class ReaderFlooding:
    """A reader sends tags far faster than anyone taps (``rate`` a second is its limit):
    a faulty board or a stuck tag. Its taps are dropped until it calms down
    (``hardware.flood``); said once per flood."""

    seat: int
    rate: float
    at: float


@dataclass(frozen=True, slots=True)
class TossStarted:
    """Timing began at ``at`` (the starting edge, as a ``time.monotonic()`` value)."""

    timer: str
    at: float


@dataclass(frozen=True, slots=True)
class TossStopped:
    """A timed toss: ``duration`` seconds between the starting and the stopping edge.

    ``duration`` is computed from the two edges' ticks (``ticks_diff``), not
    from ``stopped_at - started_at``; ``at`` is when the event was settled
    (the stopping edge in pad mode, the release of the stopping press in press mode).
    """

    timer: str
    started_at: float
    stopped_at: float
    duration: float
    at: float

    @property
    def millis(self) -> int:
        """The duration in whole milliseconds (rounded), as the display shows it."""
        return round(self.duration * 1000)


@dataclass(frozen=True, slots=True)
class TossCancelled:
    """The toss being timed was thrown away: ``reason`` is ``"long press"``,
    ``"too long"`` or ``"cancelled"`` (from software)."""

    timer: str
    at: float
    reason: str


@dataclass(frozen=True, slots=True)
class WiringProblem:
    """A contact keeps chattering without ever holding still: a loose wire or a worn switch.

    ``seat`` is the seat of a button (None for the table's toss timer); ``device`` is
    the ``Button``, or ``"timer"``. Said once per outbreak (``hardware.debounce``).
    """

    seat: int | None
    device: Contact
    at: float


@dataclass(frozen=True, slots=True)
class Wakeup:
    """Not input: something outside the loop (a stop signal) wants it to look up now.

    The loop only ends its wait on the queue for it; the table never sees it.
    ``reason`` says who woke it (``"SIGTERM"``).
    """

    at: float
    reason: str


TimerEvent: TypeAlias = TossStarted | TossStopped | TossCancelled
"""Every event a toss timer (``hardware.toss_timer``) puts on the queue."""

InputEvent: TypeAlias = (
    TagPresented
    | TagRemoved
    | ButtonPressed
    | ButtonReleased
    | ReaderOnline
    | ReaderOffline
    | ReaderProblem
    | ReaderFlooding
    | TossStarted
    | TossStopped
    | TossCancelled
    | WiringProblem
    | Wakeup
)
"""Every event a hardware device may put on the table's queue (and ``Wakeup``, which is not
passed on to the table)."""

EventQueue: TypeAlias = queue.SimpleQueue[InputEvent]
"""The one queue the composition root creates and hands to every device.

A ``SimpleQueue``: unbounded (a device never blocks on ``put``) and written in
C, so the table loop's timed wait, which it does on every turn, costs less
than ``queue.Queue``'s lock-and-condition dance."""

Clock: TypeAlias = Callable[[], float]
"""A source of ``time.monotonic()``-compatible timestamps (injected for tests)."""
