"""Reader supervision: backoff, reconnection after a lost or missing device, stable port
names, and the reader factory."""

from __future__ import annotations

import os
import queue
import sys
import threading
from pathlib import Path

import pytest

from hardware.errors import HardwareConfigError, ReaderUnavailable
from hardware.events import EventQueue, InputEvent, ReaderOffline, ReaderOnline, TagPresented
from hardware.line_protocol import SerialLineReader
from hardware.link_reader import LinkReader
from hardware.mock_reader import MockReader
from hardware.pn532_reader import PN532Reader
from hardware.port_names import is_stable_name, serial_ports, stable_port_name
from hardware.protocols import READER_PROTOCOLS
from hardware.reader_factory import reader_for
from hardware.rfid125 import Rfid125Reader
from hardware.seat_reader import SeatReader
from hardware.supervisor import Backoff, SupervisedReader

WAIT = 5.0


def test_backoff_doubles_up_to_its_cap_and_resets() -> None:
    backoff = Backoff(first=0.5, factor=2.0, cap=3.0)
    assert [backoff.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    backoff.reset()
    assert backoff.next_delay() == 0.5
    with pytest.raises(ValueError):
        Backoff(first=0)


class FlakyReader(SeatReader):
    """A reader whose device is missing for the first ``missing`` opens; it can be 'unplugged'."""

    def __init__(self, events: EventQueue, missing: int) -> None:
        super().__init__(0, "/dev/serial/by-id/flaky", events)
        self.missing = missing
        self.opens = 0
        self._open = False
        self.opened = threading.Event()

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        self.opens += 1
        if self.opens <= self.missing:
            raise ReaderUnavailable(f"seat 0's reader at {self.port} is not there", "missing")
        self._open = True
        self._events.put(ReaderOnline(0, self.port, 1.0))
        self.opened.set()

    def close(self) -> None:
        if self._open:
            self._open = False
            self._events.put(ReaderOffline(0, self.port, "closed", 2.0))

    def pull_cable(self) -> None:
        self._open = False
        self._events.put(ReaderOffline(0, self.port, "lost the connection: EIO", 3.0))


def events_of(events: EventQueue) -> list[InputEvent]:
    out: list[InputEvent] = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def supervised(events: EventQueue, missing: int) -> tuple[SupervisedReader, FlakyReader]:
    box: list[FlakyReader] = []

    def build(q: EventQueue) -> FlakyReader:
        box.append(FlakyReader(q, missing))
        return box[0]

    reader = SupervisedReader(
        0, "/dev/serial/by-id/flaky", events, build, backoff=Backoff(0.001, 2.0, 0.01)
    )
    return reader, box[0]


def test_a_missing_reader_is_reported_once_and_retried_until_it_appears() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader, inner = supervised(events, missing=4)
    reader.open()  # does not raise: the game waits instead of failing
    assert inner.opened.wait(WAIT)
    offline = events.get(timeout=WAIT)
    assert offline == ReaderOffline(
        0,
        inner.port,
        "seat 0's reader at /dev/serial/by-id/flaky is not there",
        offline.at,
        "missing",  # the kind the table puts into words travels with it
    )
    assert events.get(timeout=WAIT) == ReaderOnline(0, inner.port, 1.0)
    assert inner.opens == 5 and reader.attempts == 5
    assert reader.online and reader.is_open
    reader.close()
    assert events_of(events) == [ReaderOffline(0, inner.port, "closed", 2.0)]
    assert not reader.is_open


def test_a_lost_link_is_reopened_with_backoff() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader, inner = supervised(events, missing=0)
    reader.open()
    assert isinstance(events.get(timeout=WAIT), ReaderOnline)
    inner.opened.clear()
    inner.missing = inner.opens + 2  # gone for two more attempts after the pull
    inner.pull_cable()
    assert inner.opened.wait(WAIT)
    assert [type(e) for e in events_of(events)] == [ReaderOffline, ReaderOnline]
    reader.close()
    reader.close()  # idempotent


def test_close_stops_the_retries() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader, _ = supervised(events, missing=10**9)
    reader.open()
    assert isinstance(events.get(timeout=WAIT), ReaderOffline)
    reader.close()
    attempts = reader.attempts
    assert not reader.is_open
    closed = events.get(timeout=WAIT)
    assert isinstance(closed, ReaderOffline) and closed.reason == "closed"
    assert reader.attempts == attempts  # no retries after close (the thread was joined)


# --- stable names ---------------------------------------------------------------------


def make_udev(tmp_path: Path) -> tuple[Path, Path, Path]:
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "ttyUSB0").touch()
    (dev / "ttyUSB1").touch()
    by_id, by_path = tmp_path / "by-id", tmp_path / "by-path"
    by_id.mkdir()
    by_path.mkdir()
    (by_id / "usb-cafe_reader_E661-if00").symlink_to(dev / "ttyUSB0")
    (by_path / "platform-usb-0:1.1:1.0").symlink_to(dev / "ttyUSB0")
    (by_path / "platform-usb-0:1.2:1.0").symlink_to(dev / "ttyUSB1")
    return dev, by_id, by_path


def test_stable_names_prefer_by_id_then_by_path(tmp_path: Path) -> None:
    dev, by_id, by_path = make_udev(tmp_path)
    dirs = (by_id, by_path)
    assert stable_port_name(str(dev / "ttyUSB0"), dirs) == str(by_id / "usb-cafe_reader_E661-if00")
    assert stable_port_name(str(dev / "ttyUSB1"), dirs) == str(by_path / "platform-usb-0:1.2:1.0")
    assert stable_port_name("/dev/ttyACM9", dirs) == "/dev/ttyACM9"
    assert serial_ports(dirs) == sorted(
        [str(by_id / "usb-cafe_reader_E661-if00"), str(by_path / "platform-usb-0:1.2:1.0")]
    )
    assert is_stable_name(str(by_path / "platform-usb-0:1.2:1.0"), dirs)
    assert not is_stable_name(str(dev / "ttyUSB1"), dirs)


def test_missing_udev_folders_mean_no_stable_names(tmp_path: Path) -> None:
    assert serial_ports((tmp_path / "nope",)) == []


# --- the factory ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("protocol", "kind"),
    [
        ("line", SerialLineReader),
        ("link", LinkReader),
        ("rdm6300", Rfid125Reader),
        ("id12la", Rfid125Reader),
        ("pn532", PN532Reader),
    ],
)
def test_reader_for_builds_each_protocol_supervised(protocol: str, kind: type) -> None:
    events: EventQueue = queue.SimpleQueue()
    reader = reader_for(1, "/dev/serial/by-path/x", protocol, events)
    assert isinstance(reader, SupervisedReader)
    assert isinstance(reader.inner, kind)
    assert reader.seat == 1 and reader.port == "/dev/serial/by-path/x"
    assert isinstance(reader_for(1, "/dev/x", protocol, events, supervise=False), kind)
    assert events.empty()
    assert protocol in READER_PROTOCOLS


def test_reader_for_mock_and_unknown_protocols() -> None:
    events: EventQueue = queue.SimpleQueue()
    assert isinstance(reader_for(0, "mock", "link", events), MockReader)
    with pytest.raises(HardwareConfigError, match='"wiegand" is not one of'):
        reader_for(0, "/dev/x", "wiegand", events)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_supervised_line_reader_comes_back_on_its_stable_name(tmp_path: Path) -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    name = tmp_path / "cafe-seat0"
    first = PtyPair().open()
    name.symlink_to(first.slave_path)
    reader = SupervisedReader(
        0,
        str(name),
        events,
        lambda q: SerialLineReader(0, str(name), q),
        backoff=Backoff(0.01, 2.0, 0.05),
    )
    second = PtyPair()
    try:
        reader.open()
        assert isinstance(events.get(timeout=WAIT), ReaderOnline)
        first.hang_up()
        name.unlink()  # udev removes the link when the device goes
        offline = events.get(timeout=WAIT)
        assert isinstance(offline, ReaderOffline) and offline.reason.startswith("lost")
        second.open()
        os.symlink(second.slave_path, name)  # ... and makes it again when it returns
        assert isinstance(events.get(timeout=WAIT), ReaderOnline)
        second.write(b"TAG 04A1B2C3\n")
        tag = events.get(timeout=WAIT)
        assert isinstance(tag, TagPresented) and tag.uid == "04A1B2C3"
    finally:
        reader.close()
        first.close()
        second.close()
