"""The reader board's logic: poll a tag reader, debounce, and feed the link.

Pure (MicroPython and CPython): the hardware is a ``Reader`` whose
``read_uid()`` returns the uid of the tag in the field or ``None``; time comes
in as ``now_ms``. ``firmware/main.py`` wires a real MFRC522 to this; the host
tests wire a scripted reader and run the very same code against a
pseudo-terminal.

Debounce works in polls, not milliseconds, so it is deterministic: the board
polls at a fixed rate (``POLL_MS``). A new uid counts once it was read
``confirm`` times (reads of nothing in between do not reset it: an MFRC522
often sees a card held still only every other poll), and a tag counts as
taken away after ``release`` reads in a row that saw nothing. So a card held
still is one tap, however the radio flickers.
"""

from firmware.link import GONE, PLACED, Link, const

POLL_MS = const(25)
"""How often the board polls its reader."""


class Reader:
    """What the board needs from a tag reader: the uid in the field, or ``None``."""

    def read_uid(self) -> str | None:
        """Upper-case hex uid of the tag in the field, or ``None``; never raises for a misread."""
        raise NotImplementedError


class Debouncer:
    """Turns a stream of per-poll reads into placed/gone events for whole taps."""

    def __init__(self, confirm: int = 2, release: int = 6) -> None:
        self.confirm = confirm
        self.release = release
        self.present = None  # type: str | None
        self._candidate = None  # type: str | None
        self._seen = 0
        self._absent = 0

    def update(self, uid: str | None) -> list[tuple[str, str]]:
        """Take one poll's read; return the (kind, uid) events it completes, in order."""
        events = []  # type: list[tuple[str, str]]
        if uid is None:
            self._absent += 1
            if self._absent >= self.release:
                self._candidate = None
                self._seen = 0
                if self.present is not None:
                    events.append((GONE, self.present))
                    self.present = None
            return events
        self._absent = 0
        if uid == self.present:
            self._candidate = None
            self._seen = 0
            return events
        if uid == self._candidate:
            self._seen += 1
        else:
            self._candidate = uid
            self._seen = 1
        if self._seen >= self.confirm:
            if self.present is not None:
                events.append((GONE, self.present))
            events.append((PLACED, uid))
            self.present = uid
            self._candidate = None
            self._seen = 0
        return events

    def reset(self) -> None:
        """Forget everything (the reader was re-initialised)."""
        self.present = None
        self._candidate = None
        self._seen = 0
        self._absent = 0


class Board:
    """One seat's reader board: reader -> debouncer -> link.

    Call ``step(now_ms)`` every ``POLL_MS`` and write what it returns to the
    host; hand bytes from the host to ``receive()``.
    """

    def __init__(self, reader: Reader, link: Link, debouncer: Debouncer | None = None) -> None:
        self.reader = reader
        self.link = link
        self.debouncer = debouncer if debouncer is not None else Debouncer()
        self.read_errors = 0

    def step(self, now_ms: int) -> list[bytes]:
        """Poll the reader once and return the frames to send now."""
        try:
            uid = self.reader.read_uid()
        except Exception:  # a misread or a bus glitch: treat as nothing seen
            self.read_errors += 1
            uid = None
        for kind, tag in self.debouncer.update(uid):
            self.link.push(kind, tag)
        return self.link.poll(now_ms)

    def receive(self, data: bytes) -> None:
        """Bytes from the host."""
        self.link.receive(data)
