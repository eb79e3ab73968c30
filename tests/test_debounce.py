"""Debounce as a stability filter: chatter never makes a toss, a clean bounce times exactly.

Issue 33: the toss timer's debounce was a 20 ms lockout, so a pad chattering
at 1 kHz made 15 to 30 "tosses" of 20 to 50 ms, journaled as timed actions.
The filter (``hardware.debounce``) is tested alone, then through the toss
timer on gpiozero's MockFactory with a fake clock (every edge at a chosen
instant; times are binary fractions so the sums are exact), and once on the
real clock, where the debouncer's own thread delivers the settled edge.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.view import MessageKind
from hardware.debounce import CHATTER_AFTER, Chatter, Settled, StabilityFilter
from hardware.events import (
    Button,
    InputEvent,
    TossCancelled,
    TossStarted,
    TossStopped,
    WiringProblem,
)
from hardware.toss_timer import MIN_TOSS, TossTimer
from tests.mock_gpio import FakeClock
from tests.test_toss_timer import PIN

MS = 1 / 1024  # about a millisecond, exact in binary


def chatter(
    start: float, seconds: float, period: float = MS, first: bool = True
) -> Iterator[tuple[float, bool]]:
    """Edges of a contact chattering at about 1 kHz: (time, closed) alternating, from
    ``first``; an even count of them, so it ends where it was before."""
    closed = first
    for i in range(int(seconds / period)):
        yield start + i * period, closed
        closed = not closed


def bounce(at: float, closed: bool) -> list[tuple[float, bool]]:
    """A clean switch closing or opening at ``at``: three bounces within 5 ms."""
    return [(at, closed), (at + 2 * MS, not closed), (at + 3 * MS, closed),
            (at + 4 * MS, not closed), (at + 5 * MS, closed)]  # fmt: skip


def test_the_filter_never_settles_chatter_and_reports_it_once() -> None:
    filt = StabilityFilter(False, stable=0.02, chatter_after=1.0)
    settled: list[Settled] = []
    reports: list[Chatter] = []
    for at, closed in chatter(100.0, 3.0):
        done, said = filt.edge(closed, at)
        settled += [done] if done else []
        reports += [said] if said else []
    assert settled == []
    assert len(reports) == 1 and reports[0].since == 100.0 and reports[0].edges > 900
    # It stops chattering, open: back where it was, so no change; then a clean press counts.
    assert filt.settle(104.0) is None and filt.level is False
    filt.edge(True, 105.0)
    assert filt.settle(105.5) == Settled(True, 105.0)


def test_the_filter_dates_a_clean_bounce_from_its_first_edge() -> None:
    filt = StabilityFilter(False, stable=0.02)
    for at, closed in bounce(10.0, True):
        assert filt.edge(closed, at) == (None, None)
    assert filt.due() == 10.0 + 5 * MS + 0.02
    assert filt.settle(10.0 + 5 * MS + 0.01) is None  # not yet held long enough
    assert filt.settle(10.5) == Settled(True, 10.0)
    assert filt.settle(11.0) is None  # once only


class PadRig:
    """A toss timer in pad mode (the Jack on a contact pad) on a mock pin and a fake clock."""

    def __init__(self, factory: Any, clock: FakeClock) -> None:
        self.clock = clock
        self.events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        self.timer = TossTimer(PIN, self.events, mode="pad", pin_factory=factory, clock=clock)
        self.pin = factory.pin(PIN)
        self.timer.open()

    def edges(self, edges: list[tuple[float, bool]] | Iterator[tuple[float, bool]]) -> None:
        for at, closed in edges:
            self.clock.now = at
            if closed:  # pull-up: the Jack on the pad pulls the pin low
                self.pin.drive_low()
            else:
                self.pin.drive_high()

    def settled(self, at: float) -> list[InputEvent]:
        self.clock.now = at
        self.timer.settle()
        found = []
        while not self.events.empty():
            found.append(self.events.get_nowait())
        return found


@pytest.fixture
def pad(monkeypatch: pytest.MonkeyPatch) -> Iterator[PadRig]:
    clock = FakeClock()
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", clock)
    factory = MockFactory()
    rig = PadRig(factory, clock)
    rig.edges([(1000.0, True)])  # the Jack rests on the pad
    assert rig.settled(1000.5) == []
    yield rig
    rig.timer.close()
    factory.close()


def test_a_pad_chattering_at_1khz_makes_no_toss_and_is_reported_as_wiring(pad: PadRig) -> None:
    pad.edges(chatter(1001.0, 0.2, period=MS, first=False))  # the Jack rests; the wire is loose
    found = pad.settled(1003.5)
    assert not any(isinstance(e, TossStarted | TossStopped | TossCancelled) for e in found)
    wiring = [e for e in found if isinstance(e, WiringProblem)]
    assert [(e.seat, e.device) for e in wiring] == [(None, "timer")]  # said once
    assert wiring[0].at == pytest.approx(1001.0 + CHATTER_AFTER, abs=0.01)
    # The contact holds again (the Jack on the pad): a real toss is timed as ever.
    pad.edges([(1004.0, False), (1004.75, True)])
    tossed = pad.settled(1005.0)
    assert [type(e) for e in tossed] == [TossStarted, TossStopped]
    stopped = tossed[1]
    assert isinstance(stopped, TossStopped) and stopped.duration == 0.75


def test_a_toss_with_a_clean_5ms_bounce_at_each_end_is_timed_edge_to_edge(pad: PadRig) -> None:
    pad.edges(bounce(1001.0, False))  # lifted, the contact bouncing
    pad.edges(bounce(1001.8125, True))  # landed, bouncing
    found = pad.settled(1002.5)
    assert [type(e) for e in found] == [TossStarted, TossStopped]
    stopped = found[1]
    assert isinstance(stopped, TossStopped)
    assert stopped.duration == 0.8125
    assert stopped.started_at == 1001.0


def test_a_toss_shorter_than_a_person_can_toss_is_refused_as_a_glitch(
    pad: PadRig, caplog: pytest.LogCaptureFixture
) -> None:
    short = MIN_TOSS / 2
    pad.edges([(1001.0, False), (1001.0 + short, True)])
    found = pad.settled(1002.0)
    assert [type(e) for e in found] == [TossStarted, TossCancelled]
    cancelled = found[1]
    assert isinstance(cancelled, TossCancelled) and cancelled.reason == "too short"
    assert "too short to be one" in caplog.text


def test_on_the_real_clock_the_debouncers_thread_delivers_the_settled_edges() -> None:
    factory = MockFactory()
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    timer = TossTimer(PIN, events, mode="press", pin_factory=factory, min_duration=0)
    pin = factory.pin(PIN)
    timer.open()
    try:
        pin.drive_low()  # pressed, and nobody calls settle(): the thread must
        started = events.get(timeout=5)
        assert isinstance(started, TossStarted)
    finally:
        timer.close()
        factory.close()


def test_the_table_says_where_the_wiring_chatters() -> None:
    kiosk = Kiosk.create(TableConfig.simulated(), seed=1)
    kiosk.table.handle(WiringProblem(None, "timer", 0.0))
    kiosk.table.handle(WiringProblem(2, Button.OK, 0.0))
    timer, button = kiosk.table.messages[-2:]
    assert timer.kind is MessageKind.PROBLEM and timer.seat is None
    assert "toss timer" in str(timer.text)
    assert button.kind is MessageKind.PROBLEM and button.seat == 2
