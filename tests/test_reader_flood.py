"""A reader that floods the table with valid tags: throttled, reported once, nobody starved.

Issue 33: a board sending valid ``TAG`` lines at USB speed kept one loop turn
busy for 209 s (no frame, no watchdog ping, memory growing). Now each real
reader has a rate limit of its own (``hardware.flood``) and every loop turn a
budget (``controller.table.turn_budget``). The throttle is tested alone on a fake
clock, then a real pseudo-terminal floods one seat of a kiosk while another
seat taps. How fast the loop then turns is measured in
``benchmarks/reader_flood.py``, not asserted here.
"""

from __future__ import annotations

import queue
import time

import pytest

from controller.config.table_config import SeatConfig, TableConfig
from controller.kiosk.app import Kiosk
from controller.table import Table
from controller.table.turn_budget import EVENTS_PER_TURN, TurnBudget
from hardware.events import (
    InputEvent,
    ReaderFlooding,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.flood import BURST, RATE, ReaderThrottle
from hardware.ptys import PtyFlood, PtyPair


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def taken(events: queue.SimpleQueue[InputEvent]) -> list[InputEvent]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_taps_within_the_rate_pass_untouched() -> None:
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    clock = Clock()
    throttle = ReaderThrottle(events, 2, rate=5, burst=3, clock=clock)
    for i in range(20):  # a quick player: two taps a second
        throttle.put(TagPresented(2, f"04{i:06X}", clock.now))
        throttle.put(TagRemoved(2, clock.now))
        clock.now += 0.5
    got = taken(events)
    assert len(got) == 40 and not any(isinstance(e, ReaderFlooding) for e in got)
    assert throttle.dropped == 0


def test_a_flood_is_reported_once_and_dropped_in_pairs_until_it_calms_down() -> None:
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    clock = Clock()
    throttle = ReaderThrottle(events, 1, rate=5, burst=3, calm=2.0, clock=clock)
    throttle.put(ReaderOnline(1, "/dev/pts/9", clock.now))
    for _ in range(1000):  # a thousand taps a second for a second
        throttle.put(TagPresented(1, "04A1B2C3", clock.now))
        throttle.put(TagRemoved(1, clock.now))
        clock.now += 0.001
    throttle.put(ReaderProblem(1, "a bad line", clock.now))  # status reports still pass
    got = taken(events)
    taps = [e for e in got if isinstance(e, TagPresented)]
    removals = [e for e in got if isinstance(e, TagRemoved)]
    assert len(taps) == 3 == len(removals)  # the burst, each with its removal
    floods = [e for e in got if isinstance(e, ReaderFlooding)]
    assert [(e.seat, e.rate) for e in floods] == [(1, 5)]
    assert floods[0].at == pytest.approx(100.003)  # the fourth tap, the first over the burst
    assert isinstance(got[0], ReaderOnline) and isinstance(got[-1], ReaderProblem)
    # Presented and removed still alternate, as the table expects of a reader.
    kinds = [type(e) for e in got if isinstance(e, TagPresented | TagRemoved)]
    assert kinds == [TagPresented, TagRemoved] * 3
    # Still flooding a second later: nothing passes, and nothing more is said.
    clock.now += 1.0
    throttle.put(TagPresented(1, "04A1B2C3", clock.now))
    assert taken(events) == []
    # Quiet for the calm time: the seat's taps count again, and a new flood is reported.
    clock.now += 2.5
    throttle.put(TagPresented(1, "04A1B2C3", clock.now))
    assert taken(events) == [TagPresented(1, "04A1B2C3", clock.now)]
    assert throttle.dropped == 998


def test_the_budget_bounds_a_turn_by_count_and_by_time() -> None:
    clock = Clock()
    budget = TurnBudget(events=4, seconds=0.1, clock=clock)
    budget.start()
    spent = 0
    while budget.allows():
        budget.spend()
        spent += 1
    assert spent == 4
    budget.start()
    budget.spend()
    clock.now += 0.2  # one slow input used the time slice
    assert not budget.allows()
    stop = [False]
    budget = TurnBudget(clock=clock, stop=lambda: stop[0])
    budget.start()
    stop[0] = True
    assert not budget.allows()


def test_a_pty_flooding_one_seat_neither_stalls_the_loop_nor_starves_the_other_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handled: list[InputEvent] = []
    per_turn = [0]
    real = Table.handle

    def counting(table: Table, event: InputEvent) -> None:
        handled.append(event)
        per_turn[0] += 1
        real(table, event)

    monkeypatch.setattr(Table, "handle", counting)
    with PtyPair() as flooding, PtyPair() as quiet:
        seats = tuple(
            SeatConfig(index=i, reader=pty.slave_path, pixels=(i * 4, i * 4 + 4))
            for i, pty in enumerate((flooding, quiet))
        )
        kiosk = Kiosk.create(TableConfig(seats=seats), seed=1)
        busiest = 0
        queued = 0
        turns = 0

        def turn() -> None:
            nonlocal busiest, queued, turns
            per_turn[0] = 0
            kiosk.run_frame(lambda view: None, most=0.05)
            busiest = max(busiest, per_turn[0])
            queued = max(queued, kiosk.events.qsize())
            turns += 1

        def seen(wanted: type, seat: int) -> bool:
            return any(isinstance(e, wanted) and getattr(e, "seat", None) == seat for e in handled)

        with kiosk:
            flood = PtyFlood(flooding, b"TAG 04A1B2C3D4E5F6\nTAG 04A1B2C3D4E5F7\n" * 100).start()
            try:
                deadline = time.monotonic() + 30  # generous: only a hang fails here
                while not seen(ReaderFlooding, 0):
                    assert time.monotonic() < deadline, "the flood was never reported"
                    turn()
                flood_seen_at = turns
                # Mid-flood, a player taps at the other seat.
                quiet.write(b"TAG 04F00D00000001\n")
                while not seen(TagPresented, 1):
                    assert time.monotonic() < deadline, "the other seat's tap never arrived"
                    turn()
                # The flood goes on for some more turns.
                for _ in range(20):
                    turn()
            finally:
                flood.stop()
        sent = flood.sent
    lines = sent // len(b"TAG 04A1B2C3D4E5F6\n")
    assert lines > 1000, f"only {lines} lines were sent: no flood"
    assert turns > flood_seen_at
    # One report of the flood; the flooding seat's taps stopped at the burst, plus what the
    # bucket refilled (RATE a second) while the flood built up: on a loaded machine the
    # reader's thread delivers the flood more slowly, so a few more pass before it trips.
    floods = [e for e in handled if isinstance(e, ReaderFlooding)]
    assert len(floods) == 1
    flooded = [e for e in handled if isinstance(e, TagPresented) and e.seat == 0]
    build_up = floods[0].at - flooded[0].at
    assert len(flooded) <= BURST + int(RATE * build_up) + 1
    # No turn handled more than its budget; the queue stayed short.
    assert busiest <= EVENTS_PER_TURN
    assert queued <= 4 * BURST


def test_only_real_readers_are_throttled() -> None:
    # Simulated seats (bots tapping at full speed in a headless game) are not limited.
    kiosk = Kiosk.create(TableConfig.simulated(), seed=1)
    reader = kiosk.devices.mock_reader(0)
    assert reader is not None
    with kiosk:
        taken(kiosk.events)  # the readers' online reports
        for i in range(50):
            reader.present(f"04{i:06X}")
            reader.remove()
        got = taken(kiosk.events)
    assert sum(isinstance(e, TagPresented) for e in got) == 50
    assert not any(isinstance(e, ReaderFlooding) for e in got)
