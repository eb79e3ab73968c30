"""The staff PIN's lockout survives a restart: it is journaled, and read back at start.

Issue 33: pulling the power undid the lock, so wrong PINs could be tried
three at a time, a restart apart.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

from controller.config.table_config import StaffConfig, TableConfig
from controller.kiosk.app import Kiosk
from controller.records.clock import Stamp, TableClock, steady_seconds
from controller.records.journal import Journal
from controller.tags.pin_lock import lock_left
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.tags.staff_pin import hash_pin
from controller.view import Screen
from controller.words import Presenter
from hardware.events import TagPresented

NOON = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def locked(
    at: dt.datetime,
    seconds: float = 300.0,
    *,
    steady: float | None = None,
    boot: str = "a",
    synced: bool = True,
) -> dict[str, object]:
    """A journaled PIN lock; without ``steady`` as journaled before steady readings were kept."""
    event: dict[str, object] = {"kind": "staff-pin-locked", "at": at.isoformat(timespec="seconds"),
                                "seconds": seconds, "seat": 1}  # fmt: skip
    if steady is not None:
        event.update(steady=steady, boot=boot, synced=synced)
    return event


def stamp(wall: dt.datetime, steady: float = 1000.0, boot: str = "a", synced: bool = True) -> Stamp:
    return Stamp(wall, steady, boot, synced)


def test_what_is_left_of_the_latest_lock() -> None:
    wrong = {"kind": "staff-pin-wrong", "at": NOON.isoformat(), "wrong": 1}
    assert lock_left([], stamp(NOON)) == 0.0
    assert lock_left([wrong], stamp(NOON)) == 0.0
    earlier = locked(NOON - dt.timedelta(hours=2), steady=100.0)
    latest = locked(NOON - dt.timedelta(seconds=100), steady=900.0)
    assert lock_left([earlier, wrong, latest], stamp(NOON, 1000.0)) == 200.0
    assert lock_left([latest], stamp(NOON, 900.0 + 3600)) == 0.0  # long over


def test_within_one_boot_the_steady_clock_times_the_lock_whatever_the_wall_clock_says() -> None:
    lock = locked(NOON, steady=1000.0)
    behind = stamp(dt.datetime(1970, 1, 1, tzinfo=dt.UTC), 1060.0, synced=False)
    assert lock_left([lock], behind) == 240.0  # not 300: a minute has passed
    far_ahead = stamp(NOON + dt.timedelta(days=400), 1060.0)
    assert lock_left([lock], far_ahead) == 240.0  # not 0: only a minute has passed


def test_across_boots_only_what_is_certain_counts() -> None:
    lock = locked(NOON, steady=5000.0, boot="a")
    # A new boot 45 s ago on a clock not set: only those 45 s are certain.
    assert (
        lock_left([lock], stamp(dt.datetime(1970, 1, 1, tzinfo=dt.UTC), 45.0, "b", False)) == 255.0
    )
    # Not synchronised now, though it reads far ahead: the same.
    assert lock_left([lock], stamp(NOON + dt.timedelta(days=9), 45.0, "b", False)) == 255.0
    # Synchronised at the lock and now: the wall clock is believed.
    assert lock_left([lock], stamp(NOON + dt.timedelta(seconds=100), 45.0, "b")) == 200.0
    assert lock_left([lock], stamp(NOON + dt.timedelta(hours=1), 45.0, "b")) == 0.0
    # A lock taken on a clock not set proves nothing about the wall time since.
    unsynced = locked(dt.datetime(1970, 1, 1, tzinfo=dt.UTC), steady=50.0, synced=False)
    assert lock_left([unsynced], stamp(NOON, 45.0, "b")) == 255.0
    # Synchronised both times but running backwards: only this boot's time counts.
    assert lock_left([lock], stamp(NOON - dt.timedelta(hours=1), 45.0, "b")) == 255.0


def test_a_lock_journaled_without_steady_time_falls_back_to_the_wall_clock() -> None:
    assert lock_left([locked(NOON - dt.timedelta(seconds=100))], stamp(NOON)) == 200.0
    # A Pi has no real-time clock: after a power cut it may boot in 1970 until NTP syncs.
    assert lock_left([locked(NOON)], stamp(dt.datetime(1970, 1, 1, tzinfo=dt.UTC))) == 300.0


def test_a_restarted_kiosk_keeps_the_staff_desk_locked(tmp_path: Path) -> None:
    config = dataclasses.replace(
        TableConfig.simulated(), staff=StaffConfig(pin_hash=hash_pin("PONO"), lockout=300.0)
    )
    journal_path = tmp_path / "journal.sqlite3"
    # Three wrong PINs a minute ago locked the desk, then the kiosk was restarted.
    minute_ago = TableClock(
        wall=lambda: dt.datetime.now().astimezone() - dt.timedelta(minutes=1),
        steady=lambda: steady_seconds() - 60.0,
    )
    with Journal.open(journal_path, config, clock=minute_ago) as journal:
        journal.staff_event("staff-pin-locked", {"seat": 1, "seconds": 300.0})
    kiosk = Kiosk.create(config, seed=1, journal_path=journal_path)
    with kiosk:
        # The staff tag at the attract screen: the desk stays closed, and says why.
        kiosk.events.put(TagPresented(1, SIMULATED_STAFF_UID, 0.0))
        kiosk.loop.drain()
        assert kiosk.table.screen is Screen.ATTRACT
        said = Presenter()(kiosk.table.messages[-1].text)
        assert "stays closed" in said
        # What was left of the five minutes locked a minute before the restart.
        seconds = int(re.search(r"locked for (\d+) s", said).group(1))  # type: ignore[union-attr]
        assert 230 < seconds <= 240
