"""The PN532 reader: Adafruit's real driver over a pseudo-terminal against a PN532 emulator
(a test-only helper speaking PN532 HSU frames), and the polling logic with a fake driver."""

from __future__ import annotations

import os
import queue
import select
import sys
import threading
import tty
from types import TracebackType
from typing import Any

import pytest

from hardware.errors import ReaderUnavailable
from hardware.events import (
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.pn532_reader import PN532Reader
from hardware.problems import Offline

WAIT = 5.0
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID4 = bytes.fromhex("DEADBEEF")
ACK = b"\x00\x00\xff\x00\xff\x00"

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def pn532_frame(data: bytes) -> bytes:
    """A PN532 normal information frame around ``data`` (TFI first)."""
    length = len(data)
    return (
        b"\x00\x00\xff"
        + bytes([length, (-length) & 0xFF])
        + data
        + bytes([(-sum(data)) & 0xFF, 0x00])
    )


class Pn532Emulator:
    """Just enough of a PN532 in HSU mode for Adafruit's driver: firmware version,
    SAM configuration and InListPassiveTarget (one ISO 14443-A card, or none)."""

    def __init__(self) -> None:
        self.card: bytes | None = None
        self.commands: list[int] = []
        self._buf = bytearray()

    def feed(self, data: bytes) -> bytes:
        """Bytes from the host; returns the PN532's answers (ACK, then the response)."""
        self._buf += data
        out = b""
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0 or len(self._buf) < start + 4:
                return out
            length, lcs = self._buf[start + 2], self._buf[start + 3]
            if (length + lcs) & 0xFF:
                del self._buf[: start + 2]  # not a frame start after all
                continue
            end = start + 4 + length + 2
            if len(self._buf) < end:
                return out
            body = bytes(self._buf[start + 4 : start + 4 + length])
            dcs = self._buf[start + 4 + length]
            del self._buf[:end]
            if length == 0 or (sum(body) + dcs) & 0xFF or body[0] != 0xD4:
                continue
            self.commands.append(body[1])
            out += ACK + self._answer(body[1])

    def _answer(self, command: int) -> bytes:
        if command == 0x02:  # GetFirmwareVersion: PN532 v1.6
            return pn532_frame(bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
        if command == 0x14:  # SAMConfiguration
            return pn532_frame(bytes([0xD5, 0x15]))
        if command == 0x4A:  # InListPassiveTarget
            card = self.card
            if card is None:
                return b""  # a real PN532 keeps waiting; the driver times out
            target = bytes([0x01, 0x01, 0x00, 0x44, 0x00, len(card)]) + card
            return pn532_frame(bytes([0xD5, 0x4B]) + target)
        return b""


class EmulatedDevice:
    """The emulator on the master side of a pseudo-terminal, in a thread; ``unplug()`` hangs up."""

    def __init__(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.master: int | None = master
        self._slave = slave
        self.path = os.ttyname(slave)
        self.chip = Pn532Emulator()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self.master
            if master is None:
                return
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    answer = self.chip.feed(os.read(master, 1024))
                    if answer:
                        os.write(master, answer)
            except OSError:
                return

    def unplug(self) -> None:
        master, self.master = self.master, None
        if master is not None:
            os.close(master)

    def __enter__(self) -> EmulatedDevice:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self.unplug()
        os.close(self._slave)


def next_tag_event(events: EventQueue) -> InputEvent:
    while True:
        event = events.get(timeout=WAIT)
        if not isinstance(event, ReaderProblem):
            return event


def test_the_emulator_answers_a_firmware_version_request() -> None:
    chip = Pn532Emulator()
    request = pn532_frame(bytes([0xD4, 0x02]))
    answer = chip.feed(b"\x55\x55" + b"\x00" * 15 + request[:4])
    assert answer == b""
    answer = chip.feed(request[4:])
    assert answer.startswith(ACK)
    assert answer[len(ACK) :] == pn532_frame(bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))


@posix_only
def test_adafruits_driver_reads_cards_from_the_emulated_pn532() -> None:
    events: EventQueue = queue.SimpleQueue()
    with EmulatedDevice() as device:
        reader = PN532Reader(5, device.path, events, poll_timeout=0.05, read_timeout=0.2)
        with reader:
            online = events.get(timeout=WAIT)
            assert online == ReaderOnline(5, device.path, online.at)
            device.chip.card = UID7
            presented = next_tag_event(events)
            assert presented == TagPresented(5, "04A1B2C3D4E5F6", presented.at)
            device.chip.card = UID4  # swapped without a gap
            assert isinstance(next_tag_event(events), TagRemoved)
            presented = next_tag_event(events)
            assert isinstance(presented, TagPresented) and presented.uid == "DEADBEEF"
            device.chip.card = None
            assert isinstance(next_tag_event(events), TagRemoved)
            assert reader.polls >= 3
        offline = next_tag_event(events)
        assert isinstance(offline, ReaderOffline) and offline.reason == "closed"
        assert {0x02, 0x14, 0x4A} <= set(device.chip.commands)


@posix_only
def test_an_unplugged_pn532_is_reported_offline() -> None:
    events: EventQueue = queue.SimpleQueue()
    with EmulatedDevice() as device:
        with PN532Reader(1, device.path, events, poll_timeout=0.05, read_timeout=0.2) as r:
            assert isinstance(events.get(timeout=WAIT), ReaderOnline)
            device.unplug()
            offline = next_tag_event(events)
            assert isinstance(offline, ReaderOffline)
            assert offline.reason.startswith("lost the connection")
            assert not r.is_open
        assert events.empty()  # closing a reader already offline says nothing more


@posix_only
def test_a_port_with_no_pn532_behind_it_is_unavailable() -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as silent:
        reader = PN532Reader(2, silent.slave_path, events, read_timeout=0.02)
        with pytest.raises(ReaderUnavailable, match=r"seat 2's PN532 reader .* does not answer"):
            reader.open()
        assert not reader.is_open
    assert events.empty()


def test_the_port_gets_a_short_read_and_a_generous_write_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pyserial's POSIX ``write`` raises a timeout after a completed write if its
    deadline passed meanwhile (pyserial issue 281), so a write timeout as short
    as the read timeout made a busy moment look like a PN532 that does not
    answer (it failed this suite once under CI load)."""
    opened: dict[str, Any] = {}

    def record(seat: int, port: str, **timeouts: Any) -> Any:
        opened.update(timeouts)
        raise ReaderUnavailable("recorded", Offline.SILENT)

    monkeypatch.setattr("hardware.pn532_reader.open_serial_port", record)
    with pytest.raises(ReaderUnavailable):
        PN532Reader(3, "/dev/ttyUSB3", queue.SimpleQueue()).open()
    assert opened["read_timeout"] == pytest.approx(0.1)
    assert opened["write_timeout"] >= 0.5


# --- the polling logic with a fake driver ---------------------------------------------


class FakePn532:
    """Stands in for Adafruit's PN532_UART: returns scripted answers, then stops the test."""

    def __init__(self, script: list[Any], done: threading.Event) -> None:
        self._script = script
        self._done = done
        self._empty = 0
        self.calls = 0

    def read_passive_target(self, timeout: float = 1.0) -> bytearray | None:
        self.calls += 1
        if not self._script:
            self._empty += 1
            if self._empty >= 5:  # the script's end has been seen and debounced
                self._done.set()
            return None
        item = self._script.pop(0)
        if not self._script and isinstance(item, BaseException):
            self._done.set()  # the reader handles this in its thread before any close()
        if isinstance(item, BaseException):
            raise item
        return None if item is None else bytearray(item)


class FakePort:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def run_fake(script: list[Any], **kwargs: Any) -> tuple[list[InputEvent], FakePort]:
    events: EventQueue = queue.SimpleQueue()
    done = threading.Event()
    port = FakePort()
    reader = PN532Reader(
        3,
        "fake",
        events,
        make_pn532=lambda _port: FakePn532(script, done),
        open_port=lambda seat, path: port,
        clock=lambda: 1.0,
        **kwargs,
    )
    reader.open()
    assert done.wait(WAIT)
    reader.close()
    out: list[InputEvent] = []
    while not events.empty():
        out.append(events.get_nowait())
    return out, port


def test_a_card_held_still_with_missed_polls_is_one_tap() -> None:
    script: list[Any] = [UID4, None, UID4, UID4, None, UID4, None, None, None]
    events, port = run_fake(script, release=2)
    assert events == [
        ReaderOnline(3, "fake", 1.0),
        TagPresented(3, "DEADBEEF", 1.0),
        TagRemoved(3, 1.0),
        ReaderOffline(3, "fake", "closed", 1.0),
    ]
    assert port.closed


def test_garbled_answers_are_rate_limited_problems_and_polling_goes_on() -> None:
    script: list[Any] = [RuntimeError("Response checksum did not match"), UID4]
    script += [RuntimeError("Did not receive expected ACK")] * 3
    events, _ = run_fake(script)
    problems = [e for e in events if isinstance(e, ReaderProblem)]
    assert len(problems) == 1 and "garbled answer" in problems[0].message
    assert TagPresented(3, "DEADBEEF", 1.0) in events


def test_too_many_garbled_answers_in_a_row_take_the_reader_offline() -> None:
    script: list[Any] = [RuntimeError("garbage")] * 5
    events, _ = run_fake(script, max_errors=5)
    offline = [e for e in events if isinstance(e, ReaderOffline)]
    assert len(offline) == 1 and "5 garbled answers in a row" in offline[0].reason


def test_a_serial_error_takes_the_reader_offline() -> None:
    events, _ = run_fake([UID4, OSError(5, "Input/output error")])
    assert isinstance(events[-1], ReaderOffline)
    assert events[-1].reason == "lost the connection: [Errno 5] Input/output error"
