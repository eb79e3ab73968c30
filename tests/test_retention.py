"""Bounded storage: finished games leave the journal after the retention, once exported."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from controller.fleet.outbox import Outbox
from controller.records.clock import TableClock
from controller.records.files import save_finished_record
from controller.records.journal import Journal
from controller.records.retention import BATCH, JournalUpkeep

HEADER = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
DAY = dt.timedelta(days=1)
NOW = dt.datetime(2026, 11, 30, 20, 0, tzinfo=dt.UTC)


class Clocks:
    """A wall clock set by the test, synchronised or not; steady time follows it."""

    def __init__(self) -> None:
        self.wall = NOW - 400 * DAY
        self.synced = True

    def clock(self) -> TableClock:
        return TableClock(
            wall=lambda: self.wall,
            steady=lambda: self.wall.timestamp(),
            boot=lambda: "boot",
            synced=lambda: self.synced,
        )


def play(journal: Journal, clocks: Clocks, folder: Path | None, days_apart: float) -> int:
    """One finished game; its record file written when ``folder`` is given."""
    journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 1)
    clocks.wall += dt.timedelta(minutes=30)
    journal.game_finished("record text", {"totals": [1, 2, 3]})
    game = journal.current_game
    assert game is not None
    if folder is not None:
        save_finished_record(folder, "oshaka-trick", "record text", journal)
    clocks.wall += days_apart * DAY
    return game


def test_only_exported_games_older_than_the_retention_leave(tmp_path: Path) -> None:
    clocks = Clocks()
    folder = tmp_path / "records"
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        old = [play(journal, clocks, folder, 10) for _ in range(10)]  # 400 .. 310 days ago
        unexported = play(journal, clocks, None, 10)  # a crash before its file was written
        clocks.wall = NOW - 20 * DAY
        recent = [play(journal, clocks, folder, 1) for _ in range(5)]
        clocks.wall = NOW
        upkeep = JournalUpkeep(journal, retention_days=183)
        assert upkeep.step()[0] == len(old)
        left = [g.id for g in journal.games()]
        assert left == [unexported, *recent]
        assert journal.entry_count(old[0]) == 0 and journal.meta(f"record-file:{old[0]}") is None
        assert upkeep.step()[0] == 0  # nothing more: the rest is recent or not exported


def test_nothing_leaves_on_a_clock_that_is_not_synchronised(tmp_path: Path) -> None:
    clocks = Clocks()
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        for _ in range(3):
            play(journal, clocks, tmp_path / "records", 100)
        clocks.wall, clocks.synced = NOW + 3650 * DAY, False
        assert JournalUpkeep(journal, retention_days=30).step()[0] == 0
        assert len(journal.games()) == 3


def test_a_game_stamped_1970_is_not_old_and_keeps_the_games_before_it(tmp_path: Path) -> None:
    clocks = Clocks()
    folder = tmp_path / "records"
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        clocks.wall = NOW - 5 * DAY
        recent = play(journal, clocks, folder, 1)
        clocks.wall, clocks.synced = dt.datetime(1970, 1, 1, tzinfo=dt.UTC), False
        unset = play(journal, clocks, folder, 0)  # a game before NTP: stamped 1970
        clocks.wall, clocks.synced = NOW, True
        last = play(journal, clocks, folder, 0)
        assert JournalUpkeep(journal, retention_days=30).step()[0] == 0
        assert [g.id for g in journal.games()] == [recent, unset, last]


def test_with_a_hub_a_game_leaves_only_once_the_hub_has_it(tmp_path: Path) -> None:
    clocks = Clocks()
    path = tmp_path / "j.sqlite3"
    folder = tmp_path / "records"
    with Journal.open(path, clock=clocks.clock()) as journal:
        games = [play(journal, clocks, folder, 100) for _ in range(3)]
        outbox = Outbox(path, "table-1")
        try:
            outbox.add_finished_games()
            pending = dict(outbox.pending())
            first_uid = next(uid for uid in pending if f"/{games[0]}/" in uid)
            outbox.delivered(first_uid)
            clocks.wall = NOW
            upkeep = JournalUpkeep(journal, retention_days=30, hub=True)
            assert upkeep.step()[0] == 1
            assert [g.id for g in journal.games()] == games[1:]
            assert outbox.counts() == (2, 0)  # the delivered row went with its game
        finally:
            outbox.close()


def test_upkeep_runs_only_when_idle_and_due_and_a_little_at_a_time(tmp_path: Path) -> None:
    clocks = Clocks()
    folder = tmp_path / "records"
    steady = [0.0]
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        for _ in range(BATCH + 5):
            play(journal, clocks, folder, 0.01)
        play(journal, clocks, folder, 0)
        clocks.wall = NOW
        upkeep = JournalUpkeep(
            journal, retention_days=30, steady=lambda: steady[0], every=600, first=60
        )
        upkeep.run(idle=True)  # the first minute after the start is left alone
        assert upkeep.forgotten == 0
        steady[0] = 61
        upkeep.run(idle=False)  # a game is on: never
        assert upkeep.forgotten == 0
        upkeep.run(idle=True)
        assert upkeep.forgotten == BATCH  # one batch per step
        steady[0] = 62.5  # more was left: the next step a second later, not a minute
        upkeep.run(idle=True)
        assert upkeep.forgotten == BATCH + 5


def test_space_is_given_back_to_the_disk(tmp_path: Path) -> None:
    clocks = Clocks()
    path = tmp_path / "j.sqlite3"
    folder = tmp_path / "records"
    with Journal.open(path, clock=clocks.clock()) as journal:
        for _ in range(30):
            journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 1)
            # One transaction of many entries (a deal), so the test does not wait on fsyncs.
            journal.deal_accepted([{"seat": n % 3, "play": "R1" * 40} for n in range(60)])
            journal.game_finished("record " * 500, {"totals": [1, 2, 3]})
            save_finished_record(folder, "oshaka-trick", "x", journal)
            clocks.wall += DAY
        journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        full = path.stat().st_size
        clocks.wall = NOW + 365 * DAY
        upkeep = JournalUpkeep(journal, retention_days=30)
        while upkeep.step() != (0, 0):
            pass
        journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert len(journal.games()) == 1 and upkeep.reclaimed > 0
        assert path.stat().st_size < full / 4
