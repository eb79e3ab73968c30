"""Honest time: a journal on a clock that starts in 1970 and is stepped mid-game.

The table's clocks are one injected object (``TableClock``): the wall clock is
shifted and stepped while the steady clock runs on, as on a Pi without a
real-time clock whose NTP client sets the time in the middle of a game.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.fleet.reporter import FleetReporter
from controller.records.clock import JUMP_SECONDS, Stamp, TableClock, trusted_wall
from controller.records.files import save_finished_record, write_missing_records
from controller.records.history import GameSummary, history_lines, summaries, write_csv
from controller.records.journal import FINISHED, PLAYING, SCHEMA_VERSION, Journal
from controller.view import Screen, TableView
from hub import storage as hub_storage
from hub.messages import TableState
from hub.storage import Storage
from hub.web import game_elapsed

HEADER = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
EPOCH = dt.datetime(1970, 1, 1, 0, 0, 5, tzinfo=dt.UTC)
TRUE_START = dt.datetime(2026, 12, 1, 19, 0, tzinfo=dt.UTC)
SCHEMA_1 = Path(__file__).parent / "journals" / "schema-1.sqlite3"


@dataclass
class FakeClocks:
    """A wall clock that can be stepped and a steady clock that only moves forward."""

    wall_at_zero: dt.datetime
    steady: float = 100.0
    synced: bool = False
    boot: str = "boot-a"

    def clock(self) -> TableClock:
        return TableClock(
            wall=lambda: self.wall_at_zero + dt.timedelta(seconds=self.steady),
            steady=lambda: self.steady,
            boot=lambda: self.boot,
            synced=lambda: self.synced,
        )

    def wait(self, seconds: float) -> None:
        self.steady += seconds

    def step_wall(self, seconds: float, *, synced: bool = True) -> None:
        self.wall_at_zero += dt.timedelta(seconds=seconds)
        self.synced = synced


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def test_a_stamp_sees_a_jump_only_within_one_boot() -> None:
    first = Stamp(EPOCH, 10.0, "a", False)
    assert Stamp(EPOCH + dt.timedelta(seconds=60), 70.0, "a", False).jump_since(first) is None
    stepped = Stamp(TRUE_START, 70.0, "a", True)
    jump = stepped.jump_since(first)
    assert jump is not None and jump > 50 * 365 * 86400
    small = Stamp(EPOCH + dt.timedelta(seconds=60 + JUMP_SECONDS / 2), 70.0, "a", False)
    assert small.jump_since(first) is None  # a slew, not a step
    assert Stamp(TRUE_START, 5.0, "b", True).jump_since(first) is None  # another boot


def test_a_game_begun_in_1970_gets_true_stamps_when_ntp_steps_the_clock(tmp_path: Path) -> None:
    clocks = FakeClocks(EPOCH)
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(30)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        game_id = journal.games()[0].id
        assert journal.games()[0].started.startswith("1970-01-01")
        # NTP sets the clock: 2026, 40 s of play after the start.
        clocks.wait(10)
        clocks.step_wall((TRUE_START - EPOCH).total_seconds() - 100, synced=True)
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
        game = journal.game(game_id)
        assert game is not None
        entries = journal.entries(game.id)
        now = clocks.clock().stamp().wall
        assert at(game.started) == (now - dt.timedelta(seconds=40)).replace(microsecond=0)
        assert [at(e.at) for e in entries] == [
            (now - dt.timedelta(seconds=10)).replace(microsecond=0),
            now.replace(microsecond=0),
        ]
        assert journal.elapsed(game.id, clocks.clock().stamp()) == 40.0
        clocks.wait(20)
        journal.game_finished("record", {"totals": [1, 2, 3]})
        over = journal.game(game_id)
        assert over is not None and over.status == FINISHED
        assert over.played == 60.0 and over.finished_synced is True
        assert at(over.started) < at(over.finished or "")


def test_a_clock_stepped_back_mid_game_keeps_the_stamps_in_order(tmp_path: Path) -> None:
    clocks = FakeClocks(TRUE_START + dt.timedelta(hours=3), synced=True)  # fake-hwclock ahead
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(60)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        clocks.wait(60)
        clocks.step_wall(-3 * 3600)
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
        clocks.wait(60)
        journal.game_finished("record", {"totals": [1, 2, 3]})
        (game,) = journal.games()
        stamps = [at(game.started), *(at(e.at) for e in journal.entries(game.id))]
        stamps.append(at(game.finished or ""))
        assert stamps == sorted(stamps)
        assert (stamps[-1] - stamps[0]).total_seconds() == 180  # not 180 s minus three hours
        assert game.played == 180.0


def test_a_clock_reset_to_1970_rewrites_nothing(tmp_path: Path) -> None:
    clocks = FakeClocks(TRUE_START)
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(10)
        clocks.step_wall(-(TRUE_START - EPOCH).total_seconds(), synced=False)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        (game,) = journal.games()
        assert game.started.startswith("2026-12-01")  # kept: 1970 is not a better clock
        assert journal.elapsed(game.id, clocks.clock().stamp()) == 10.0


def test_time_across_a_restart_counts_only_within_each_boot(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clocks = FakeClocks(TRUE_START, synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(50)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
    # A power cut: a new boot, whose steady clock starts again near zero, back in 1970.
    clocks.boot, clocks.steady, clocks.wall_at_zero, clocks.synced = "boot-b", 5.0, EPOCH, False
    with Journal.open(path, clock=clocks.clock()) as journal:
        game = journal.current_game
        assert game is not None
        clocks.wait(30)
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
        clocks.wait(15)
        assert journal.elapsed(game, clocks.clock().stamp()) == 50.0 + 15.0
        assert journal.playing_elapsed() == 65.0
        # The first boot's stamps are not rewritten from the second boot's clock.
        assert journal.entries(game)[0].at.startswith("2026-12-01")


def test_record_files_are_named_by_game_number_and_only_a_synced_time(tmp_path: Path) -> None:
    clocks = FakeClocks(EPOCH)
    folder = tmp_path / "records"
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        names = []
        for wall, synced in ((EPOCH, False), (TRUE_START, True), (EPOCH, True)):
            clocks.wall_at_zero, clocks.synced = wall - dt.timedelta(seconds=clocks.steady), synced
            journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
            clocks.wait(30)
            journal.game_finished(f"record {synced}", {"totals": [0, 0, 0]})
            names.append(save_finished_record(folder, "oshaka-trick", "x", journal).name)
        assert names == [
            "000001-oshaka-trick.jsonl",  # a clock not set: no time in the name
            "000002-20261201-190030-oshaka-trick.jsonl",
            "000003-oshaka-trick.jsonl",  # "synchronised" but 1970: not believed
        ]
        assert write_missing_records(journal, folder) == []


def test_only_a_synced_plausible_time_is_trusted() -> None:
    assert trusted_wall("2026-12-01T19:00:00+00:00", True) == TRUE_START
    assert trusted_wall("2026-12-01T19:00:00+00:00", None) == TRUE_START  # schema 1: as before
    assert trusted_wall("2026-12-01T19:00:00+00:00", False) is None
    assert trusted_wall("1970-01-01T00:00:05+00:00", True) is None
    assert trusted_wall("garbage", True) is None


def test_a_journal_of_schema_1_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    shutil.copy(SCHEMA_1, path)
    with sqlite3.connect(path) as old:
        before = old.execute("SELECT id, status, started, record FROM games").fetchall()
        entries = old.execute(
            "SELECT game, seq, data, at FROM entries ORDER BY game, seq"
        ).fetchall()
    old.close()
    clocks = FakeClocks(TRUE_START, synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        assert journal.notices == []  # migrated in place, not moved aside
        assert journal.meta("schema") == str(SCHEMA_VERSION)
        games = journal.games()
        assert [(g.id, g.status, g.started, g.record) for g in games] == before
        assert [g.status for g in games] == [FINISHED, PLAYING]
        assert journal.elapsed(games[0].id) is None  # no steady stamps: not known, not guessed
        # The unfinished game resumes and goes on with honest stamps.
        assert journal.current_game == games[1].id
        have = len(journal.entries(games[1].id))
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        new = journal.entries(games[1].id)[-1]
        assert new.seq == have + 1 and new.steady == clocks.steady and new.boot == "boot-a"
    with sqlite3.connect(path) as db:
        after = db.execute(
            "SELECT game, seq, data, at FROM entries WHERE steady IS NULL ORDER BY game, seq"
        ).fetchall()
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    assert after == entries  # every old entry kept as it was


def playing(version: int) -> TableView:
    return TableView(version=version, screen=Screen.PLAY, seats=(), game_id="oskar")


class Link:
    def __init__(self) -> None:
        self.states: list[dict[str, object]] = []

    def publish_state(self, state: dict[str, object]) -> None:
        self.states.append(state)

    def event(self, kind: str, **data: object) -> None:
        pass

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None:
        pass


FACTS: dict[str, object] = {"waiting": [], "totals": None, "round_number": None, "decks": {}}


def test_the_table_reports_its_own_elapsed_time_and_no_1970_start() -> None:
    link = Link()
    counted = [125.4]
    reporter = FleetReporter(link, now=lambda: None, elapsed=lambda: counted[0])
    reporter.observe(playing(1), **FACTS)
    counted[0] = 200.0
    reporter.observe(playing(2), **FACTS)
    assert [s["game_elapsed"] for s in link.states] == [125, 200]
    assert link.states[0]["game_started"] is None  # a clock not set is not reported


def test_without_a_journal_the_reporter_times_the_game_by_its_steady_clock() -> None:
    link = Link()
    steady = [1000.0]
    reporter = FleetReporter(link, now=lambda: None, steady=lambda: steady[0])
    reporter.observe(playing(1), **FACTS)
    steady[0] += 90
    reporter.observe(playing(2), **FACTS)
    assert [s["game_elapsed"] for s in link.states] == [0, 90]


def test_the_hub_judges_running_long_from_the_tables_elapsed_time() -> None:
    hub_now = dt.datetime(2026, 11, 30, 20, 0, tzinfo=dt.UTC)
    received = (hub_now - dt.timedelta(minutes=10)).isoformat()
    # A table whose clock is hours off: its own count is 20 minutes.
    state = TableState(screen="play", game_started="2026-11-30T10:00:00+00:00", game_elapsed=1200)
    elapsed = game_elapsed(state, received, hub_now)
    assert elapsed == dt.timedelta(minutes=30)  # 20 reported + 10 since the report came
    over = TableState(screen="results", game_elapsed=1200)
    assert game_elapsed(over, received, hub_now) == dt.timedelta(minutes=20)  # frozen
    # No elapsed time from the table: the hub does not guess from a start time.
    assert game_elapsed(TableState(screen="play", game_started=received), received, hub_now) is None


def _power_cut(clocks: FakeClocks, boot: str, wall_at_zero: dt.datetime, synced: bool) -> None:
    """A new boot: its steady clock starts again near zero, its wall clock where it is set."""
    clocks.boot, clocks.steady, clocks.wall_at_zero, clocks.synced = boot, 5.0, wall_at_zero, synced


def test_stamps_of_a_boot_before_ntp_are_placed_just_before_the_next_boot(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clocks = FakeClocks(EPOCH)  # boot a: 1970, never synchronised, then the power goes
    with Journal.open(path, clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(30)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        clocks.wait(20)
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
    # Boot b: NTP has set the clock; this boot began at TRUE_START.
    _power_cut(clocks, "boot-b", TRUE_START, synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        game = journal.current_game
        assert game is not None
        clocks.wait(10)
        journal.action_accepted({"seat": 2, "play": "R3"}, chance=False)
        row = journal.game(game)
        assert row is not None
        stamps = [at(row.started), *(at(e.at) for e in journal.entries(game))]
        # Boot a's stamps end at boot b's start, 30 s and 20 s apart as they were played.
        assert stamps == [
            TRUE_START - dt.timedelta(seconds=50),
            TRUE_START - dt.timedelta(seconds=20),
            TRUE_START,
            TRUE_START + dt.timedelta(seconds=15),
        ]
        # Played time stays the steady clock's: boot b counts from its first stamp on.
        assert journal.elapsed(game, clocks.clock().stamp()) == 50.0


def test_a_plausible_clock_not_synchronised_in_an_earlier_boot_is_placed_too(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    saved = TRUE_START - dt.timedelta(days=3)  # timesyncd's clock of the last shutdown
    clocks = FakeClocks(saved)
    with Journal.open(path, clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(40)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
    # Boot b starts unsynchronised in 1970 too; NTP sets the clock mid-game.
    _power_cut(clocks, "boot-b", EPOCH, synced=False)
    with Journal.open(path, clock=clocks.clock()) as journal:
        game = journal.current_game
        assert game is not None
        clocks.wait(10)
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
        row = journal.game(game)
        assert row is not None and row.started.startswith(saved.date().isoformat())
        clocks.wait(10)
        clocks.step_wall((TRUE_START - EPOCH).total_seconds(), synced=True)
        journal.action_accepted({"seat": 2, "play": "R3"}, chance=False)
        row = journal.game(game)
        assert row is not None
        boot_b_start = TRUE_START  # the clock as it reads now, less boot b's steady seconds
        stamps = [at(row.started), *(at(e.at) for e in journal.entries(game))]
        assert stamps == [
            boot_b_start - dt.timedelta(seconds=40),
            boot_b_start,
            boot_b_start + dt.timedelta(seconds=15),
            boot_b_start + dt.timedelta(seconds=25),
        ]
        assert journal.meta("unsynced-boots") == "[]"  # both boots now read true times


def test_an_earlier_boot_on_a_synchronised_clock_is_believed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clocks = FakeClocks(TRUE_START - dt.timedelta(hours=2), synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(30)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        before = [e.at for e in journal.entries(journal.games()[0].id)]
    _power_cut(clocks, "boot-b", TRUE_START, synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        game = journal.current_game
        assert game is not None
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
        assert [e.at for e in journal.entries(game)][:1] == before


def test_several_boots_before_ntp_are_placed_each_before_the_next(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clocks = FakeClocks(EPOCH)
    with Journal.open(path, clock=clocks.clock()) as journal:
        journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
        clocks.wait(30)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
    _power_cut(clocks, "boot-b", EPOCH, synced=False)
    with Journal.open(path, clock=clocks.clock()) as journal:
        clocks.wait(20)  # boot b: its one stamp 25 s after its start
        journal.action_accepted({"seat": 1, "play": "R2"}, chance=False)
    _power_cut(clocks, "boot-c", TRUE_START, synced=True)
    with Journal.open(path, clock=clocks.clock()) as journal:
        game = journal.current_game
        assert game is not None
        journal.action_accepted({"seat": 2, "play": "R3"}, chance=False)
        row = journal.game(game)
        assert row is not None
        stamps = [at(row.started), *(at(e.at) for e in journal.entries(game))]
        boot_b_start = TRUE_START - dt.timedelta(seconds=25)
        assert stamps == [
            boot_b_start - dt.timedelta(seconds=30),
            boot_b_start,
            TRUE_START,
            TRUE_START + dt.timedelta(seconds=5),
        ]


def test_the_history_shows_a_clock_not_set_as_such_in_the_journals_order(tmp_path: Path) -> None:
    clocks = FakeClocks(EPOCH)
    with Journal.open(tmp_path / "j.sqlite3", clock=clocks.clock()) as journal:
        for wall, synced in ((EPOCH, False), (TRUE_START, True), (EPOCH, False)):
            clocks.wall_at_zero, clocks.synced = wall - dt.timedelta(seconds=clocks.steady), synced
            journal.game_started("oshaka-trick", [0, 1, 2], HEADER, 7)
            clocks.wait(30)
            journal.game_finished("record", {"totals": [0, 0, 0], "winners": [0]})
        games = summaries(journal)
    assert [g.id for g in games] == [1, 2, 3]  # the journal's order, though 1 and 3 read 1970
    assert [g.clock_set for g in games] == [False, True, False]
    lines = history_lines(games)
    assert "clock not set" in lines[1] and "1970" not in lines[1] and "after" not in lines[1]
    assert "12/1/26" in lines[2] and "clock not set" not in lines[2]
    assert "clock not set, after 12/1/26" in lines[3]
    out = io.StringIO()
    write_csv(games, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["started"], r["finished"], r["clock_set"]) for r in rows] == [
        ("", "", "no"),
        ("2026-12-01T19:00:00+00:00", "2026-12-01T19:00:30+00:00", "yes"),
        ("", "", "no"),
    ]


def test_a_synchronised_clock_that_reads_1970_is_not_set_either() -> None:
    game = GameSummary(
        id=1,
        game="oshaka-trick",
        title="Oshaka Trick",
        status=FINISHED,
        started="2026-12-01T19:00:00+00:00",
        finished="1970-01-01T00:10:00+00:00",
        seats=(0, 1, 2),
        scores=(0, 0, 0),
        winners=(0,),
        finished_synced=True,
    )
    assert game.started_trusted and not game.finished_trusted and not game.clock_set
    assert "clock not set" in history_lines([game])[1]


def _hub_record(game: int, finished: str) -> dict[str, object]:
    return {"uid": f"table-1/j/{game}/{finished}", "game": "oshaka-trick", "seats": [0, 1, 2],
            "started": finished, "finished": finished, "report": {"totals": [0, 0, 0]},
            "record": "r"}  # fmt: skip


def test_the_hubs_history_lists_games_by_arrival_not_by_the_tables_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    try:
        arrivals = iter(["2026-12-01T19:00:00.000+00:00", "2026-12-01T19:40:00.000+00:00"])
        monkeypatch.setattr(hub_storage, "now", lambda: next(arrivals))
        storage.add_record("table-1", _hub_record(5, "2026-12-01T18:59:00+00:00"))
        storage.add_record("table-1", _hub_record(6, "1970-01-01T00:40:00+00:00"))  # before NTP
        assert [g.uid.split("/")[2] for g in storage.games()] == ["6", "5"]
        # A backlog arriving within one millisecond keeps the table's order (10 after 9).
        monkeypatch.setattr(hub_storage, "now", lambda: "2026-12-01T20:00:00.000+00:00")
        storage.add_record("table-1", _hub_record(10, "1970-01-01T00:05:00+00:00"))
        storage.add_record("table-1", _hub_record(9, "2026-12-01T19:50:00+00:00"))
        assert [g.uid.split("/")[2] for g in storage.games()] == ["10", "9", "6", "5"]
    finally:
        storage.close()
