"""The journal's check at start: bounded after a clean stop, full after an unclean one.

Issue 33: every start ran a full integrity check before READY=1 (28 s for five
years of play on a fast core). ``controller.records.journal_check`` says what runs
when; how long a start takes with a large journal is measured in
``benchmarks/journal_start.py``.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.records.journal import Journal
from controller.records.journal_check import OPEN_MARK, page_problems

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each check the journal ran was the quick one."""
    seen: list[bool] = []
    real = page_problems

    def spy(db: sqlite3.Connection, *, quick: bool, **options: object) -> list[str]:
        seen.append(quick)
        return real(db, quick=quick, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("controller.records.journal.page_problems", spy)
    return seen


def test_after_a_clean_stop_the_next_start_checks_quickly(
    tmp_path: Path, checks: list[bool]
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, TableConfig.simulated()) as journal:
        assert journal.meta(OPEN_MARK) == "1"  # marked open while the kiosk runs
    with Journal.open(path, TableConfig.simulated()):
        pass
    assert checks == [True]  # a new file needs no check; a clean reopen a quick one
    with Journal.open_existing(path) as reader:
        assert reader.meta(OPEN_MARK) == "0"
    assert checks[-1] is False  # the journal commands (and doctor) check in full


def test_after_an_unclean_stop_the_next_start_checks_in_full(
    tmp_path: Path, checks: list[bool]
) -> None:
    path = tmp_path / "journal.sqlite3"
    # A real process opens the journal and dies without closing it (as a power cut would).
    script = (
        "import os, sys; from controller.records.journal import Journal; "
        "Journal.open(__import__('pathlib').Path(sys.argv[1])); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], cwd=ROOT, check=True, timeout=60)
    with Journal.open(path, TableConfig.simulated()):
        pass
    assert checks == [False]
    with Journal.open(path, TableConfig.simulated()):
        pass
    assert checks == [False, True]  # closed cleanly this time


def big_database(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (a TEXT)")
    db.executemany("INSERT INTO t VALUES (?)", ((f"row {i}" * 8,) for i in range(20_000)))
    db.commit()
    return db


def ticking(step: float) -> Iterator[float]:
    now = 0.0
    while True:
        yield now
        now += step


def test_the_quick_check_stops_at_its_time_bound_and_found_nothing(tmp_path: Path) -> None:
    db = big_database(tmp_path / "big.sqlite3")
    clock = ticking(0.5)  # every look at the clock, half a second later
    assert page_problems(db, quick=True, seconds=1.0, clock=lambda: next(clock)) == []
    # It was cut short: only a few looks at the clock were needed.
    assert next(clock) <= 3.0


def test_a_full_check_keeps_systemd_waiting_and_runs_to_the_end(tmp_path: Path) -> None:
    db = big_database(tmp_path / "big.sqlite3")
    clock = ticking(10.0)
    alive: list[int] = []
    assert page_problems(db, quick=False, keep_alive=lambda: alive.append(1),
                         clock=lambda: next(clock)) == []  # fmt: skip
    assert alive  # EXTEND_TIMEOUT_USEC in the kiosk


def test_a_damaged_file_is_still_found(tmp_path: Path) -> None:
    path = tmp_path / "big.sqlite3"
    big_database(path).close()
    data = bytearray(path.read_bytes())
    data[4096 * 3 + 200 : 4096 * 3 + 400] = b"\xff" * 200  # a page of the table overwritten
    path.write_bytes(bytes(data))
    with sqlite3.connect(path) as db:
        assert page_problems(db, quick=False) != []
