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
from controller.records.journal import Journal
from controller.tags.pin_lock import lock_left
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.tags.staff_pin import hash_pin
from controller.view import Screen
from controller.words import Presenter
from hardware.events import TagPresented

NOON = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def locked(at: dt.datetime, seconds: float = 300.0) -> dict[str, object]:
    return {"kind": "staff-pin-locked", "at": at.isoformat(timespec="seconds"), "seconds": seconds,
            "seat": 1}  # fmt: skip


def test_what_is_left_of_the_latest_lock() -> None:
    wrong = {"kind": "staff-pin-wrong", "at": NOON.isoformat(), "wrong": 1}
    assert lock_left([], NOON) == 0.0
    assert lock_left([wrong], NOON) == 0.0
    earlier, latest = locked(NOON - dt.timedelta(hours=2)), locked(NOON - dt.timedelta(seconds=100))
    assert lock_left([earlier, wrong, latest], NOON) == 200.0
    assert lock_left([latest], NOON + dt.timedelta(hours=1)) == 0.0  # long over


def test_a_clock_behind_the_lock_locks_again_in_full() -> None:
    # A Pi has no real-time clock: after a power cut it may boot in 1970 until NTP syncs.
    assert lock_left([locked(NOON)], dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) == 300.0


def test_a_restarted_kiosk_keeps_the_staff_desk_locked(tmp_path: Path) -> None:
    config = dataclasses.replace(
        TableConfig.simulated(), staff=StaffConfig(pin_hash=hash_pin("PONO"), lockout=300.0)
    )
    journal_path = tmp_path / "journal.sqlite3"
    with Journal.open(journal_path, config) as journal:
        # Three wrong PINs a minute ago locked the desk, then the power went.
        minute_ago = journal.clock() - dt.timedelta(minutes=1)
        journal.clock = lambda: minute_ago
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
