"""The durable journal: written before outputs, exact resume, staff corrections, damage, history."""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli import journal as journal_cli
from controller.config.table_config import TableConfig
from controller.games.base import JSON
from controller.kiosk.resume import resume_if_unfinished
from controller.kiosk.simulation import Simulator
from controller.records.history import export_record, history_lines, summaries, write_csv
from controller.records.journal import (
    ABANDONED,
    FINISHED,
    PLAYING,
    SCHEMA_VERSION,
    STATUSES,
    Journal,
    JournalError,
)
from controller.records.record import replay
from controller.table import JournalSink, Table
from controller.tags.registry import SIMULATED_STAFF_UID, simulated
from controller.view import Screen
from hardware.cues import Cue
from hardware.events import Button, ButtonPressed
from hardware.leds import RecordingStrip, SeatLeds
from tests.rigs import TableRig
from tests.words import shown

WHEN = dt.datetime(2025, 1, 31, 20, 15, tzinfo=dt.UTC)
LATER = 1000.0  # seconds after the rig's clock: every transient LED cue has ended


def clock() -> dt.datetime:
    return WHEN


class Rig(TableRig):
    """Four bots at a table with mock devices, a fake clock and a journal file."""

    def __init__(self, path: Path, *, leds: CheckingLeds | None = None, seed: int = 5) -> None:
        self.journal = Journal.open(path, TableConfig.simulated(4, bots=4), clock=clock)
        super().__init__(4, bots=4, seed=seed, leds=leds, journal=self.journal)
        # The same LEDs as ``self.leds``, typed as what can also say what a seat shows.
        self.lit: SeatLeds | CheckingLeds = leds if leds is not None else self.devices.leds
        self.sim = Simulator(
            self.table, self.devices, self.registry, bot_seats={0, 1, 2, 3}, rng=random.Random(3)
        )

    def __enter__(self) -> Rig:
        self.devices.open()
        self.loop.drain()
        return self

    def __exit__(self, *exc: object) -> None:
        self.devices.close()
        self.journal.close()

    def start(self) -> None:
        self.start_game("oshaka-trick")

    def play(self, player_actions: int) -> None:
        """Let the bots act (through the mock devices) until that many player actions stand."""
        for _ in range(10_000):
            if self.player_actions() >= player_actions or self.table.screen is not Screen.PLAY:
                return
            assert self.sim.step(0.0)
            self.loop.drain()
        raise AssertionError("the bots got stuck")

    def finish(self) -> None:
        self.play(10_000)
        assert self.table.screen is Screen.RESULTS

    def player_actions(self) -> int:
        game = self.table.game
        return 0 if game is None else game.chance.count(False)

    def pairs(self) -> list[tuple[JSON, bool]]:
        game = self.table.game
        assert game is not None
        return [(a.to_json(), c) for a, c in zip(game.recorder.actions, game.chance, strict=True)]

    def state(self) -> dict[str, Any]:
        """Everything a resume must reproduce (messages aside)."""
        game = self.table.game
        assert game is not None
        view = self.table.view
        return {
            "screen": view.screen,
            "engine": game.adapter.engine.snapshot(),
            "view_game": view.game,
            "hands": view.hands,
            "buttons": view.buttons,
            "expected": game.adapter.engine.expected,
            "waiting": [game.players[p] for p in game.adapter.presentation.waiting_players()],
            "leds": [self.lit.showing(s, self.now + LATER) for s in range(4)],
            "record": game.recorder.dumps(),
        }


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with Rig(tmp_path / "journal.sqlite3") as r:
        yield r


def light_table(path: Path) -> tuple[Table, Journal, SeatLeds]:
    """A table on a copied journal with real LED logic but no buttons or readers: cheap to make."""
    config = TableConfig.simulated(4, bots=4)
    leds = SeatLeds(RecordingStrip(32), {s: range(s * 8, s * 8 + 8) for s in range(4)})
    journal = Journal.open(path, config, clock=clock)
    table = Table(
        config, simulated(), leds=leds, rng=random.Random(99), clock=lambda: 100.0, journal=journal
    )
    return table, journal, leds


def raw_rows(path: Path) -> list[tuple[Any, ...]]:
    """Every entry row, read over a separate connection (what is on the disk)."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT game, seq, kind, data, at FROM entries ORDER BY game, seq")
        out = rows.fetchall()
    db.close()
    return out


# --- the file ------------------------------------------------------------------------------


def test_the_journal_is_wal_with_full_sync_and_a_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal.open(path, TableConfig.simulated())
    sink: JournalSink = journal  # the table's protocol
    assert sink is journal
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # A small page cache: the journal is written at its end, not read back while playing.
    assert journal._db.execute("PRAGMA cache_size").fetchone()[0] == -64
    assert journal.meta("schema") == str(SCHEMA_VERSION)
    config = json.loads(journal.meta("config") or "{}")
    assert len(config["seats"]) == 4
    journal.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_actions_before_any_game_are_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(JournalError, match="no game was started"):
            journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        assert journal.entry_count() == 0


def test_a_failed_write_says_so_and_keeps_what_was_there(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        header = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
        journal.game_started("oshaka-trick", [0, 1, 2], header, 1)
        journal._db.execute("PRAGMA query_only = ON")  # as a disk gone read-only would
        with pytest.raises(JournalError, match="could not write to the game journal"):
            journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        journal._db.execute("PRAGMA query_only = OFF")
        assert journal.entry_count() == 0 and journal.unfinished() is not None


# --- written before outputs ----------------------------------------------------------------


class CheckingLeds:
    """LEDs that check, at every cue, that the disk already holds every accepted action."""

    def __init__(self, inner: SeatLeds, path: Path) -> None:
        self.inner = inner
        self.path = path
        self.table: Table | None = None
        self.checked = 0

    def cue(self, seat: int, cue: Cue, now: float) -> None:
        table = self.table
        if table is not None and table.game is not None:
            game = table.game
            on_disk = [json.loads(row[3]) for row in raw_rows(self.path) if row[2] != "correction"]
            engine_actions = [a.to_json() for a in game.recorder.actions]
            assert on_disk == engine_actions
            self.checked += 1
        self.inner.cue(seat, cue, now)

    def showing(self, seat: int, now: float) -> Cue:
        return self.inner.showing(seat, now)


def test_every_action_is_on_disk_before_an_led_changes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    segments = {s: range(s * 8, s * 8 + 8) for s in range(4)}
    leds = CheckingLeds(SeatLeds(RecordingStrip(32), segments), path)
    with Rig(path, leds=leds) as rig:
        leds.table = rig.table
        rig.start()
        rig.play(12)
        assert rig.player_actions() == 12
    # Every turn change lights a seat, so each accepted action was checked.
    assert leds.checked >= 12


class OrderSink:
    """A JournalSink that logs its calls into a shared list, with the table's outputs."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def game_started(self, game_id: str, players: list[int], header: JSON, seed: int) -> None:
        self.log.append("journal:start")

    def action_accepted(self, action: JSON, chance: bool) -> None:
        self.log.append("journal:chance" if chance else "journal:action")

    def deal_accepted(self, actions: list[JSON]) -> None:
        self.log.append("journal:deal")

    def correction(self, kind: str, detail: JSON) -> None:
        self.log.append(f"journal:{kind}")

    def game_finished(self, record: str, report: JSON) -> None:
        self.log.append("journal:finished")

    def cut_pending(self, state: JSON) -> None:
        self.log.append("journal:cut")


class OrderLeds:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def cue(self, seat: int, cue: Cue, now: float) -> None:
        self.log.append(f"led:{cue.value}")


def test_the_table_journals_before_it_lights_or_shows() -> None:
    log: list[str] = []
    config = TableConfig.simulated(4, bots=4)
    table = Table(config, simulated(), leds=OrderLeds(log), journal=OrderSink(log))
    table.handle(ButtonPressed(0, Button.OK, 0.0))  # wake: the menu
    table.handle(ButtonPressed(0, Button.OK, 0.0))  # its first game; seat 0 joins
    for seat in range(1, 4):
        table.handle(ButtonPressed(seat, Button.OK, 0.0))
    table.handle(ButtonPressed(0, Button.NEXT, 0.0))  # start
    assert table.screen in (Screen.STARTER, Screen.PLAY)
    if table.screen is Screen.STARTER:
        # Seat 0 answers Oshaka's first-lead question.
        table.handle(ButtonPressed(0, Button.OK, 0.0))
    start = log.index("journal:start")
    deals = [i for i, e in enumerate(log) if e == "journal:deal"]
    first_turn = log.index("led:your_turn")
    assert start < min(deals) and max(deals) < first_turn


# --- exact resume --------------------------------------------------------------------------


def test_a_restarted_table_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as first:
        first.start()
        first.play(23)
        before = first.state()
        # No close: the process "dies" here with the journal open, and the
        # kernel drops a dead process's writer lock.
        assert first.journal._lock is not None
        first.journal._lock.release()
        with Rig(path, seed=1234) as second:
            row = resume_if_unfinished(second.journal, second.table)
            assert row is not None and row.status == PLAYING
            assert second.table.screen is Screen.PLAY
            assert second.state() == before
            assert "resumed" in shown(second.table.messages[-1].text)
            # ... and play goes on from there, through the same devices.
            second.play(30)
            assert second.player_actions() == 30


def test_resume_is_exact_at_every_phase(tmp_path: Path) -> None:
    """Copy the journal at many points of a whole game; each copy resumes to the same state."""
    with Rig(tmp_path / "journal.sqlite3") as rig:
        rig.start()
        checked = 0
        for target in range(0, 400, 7):
            rig.play(target)
            if rig.table.screen is not Screen.PLAY:
                break
            copy = tmp_path / f"copy-{target}.sqlite3"
            rig.journal.backup(copy)
            table, journal, leds = light_table(copy)
            assert resume_if_unfinished(journal, table) is not None
            game = table.game
            assert game is not None and rig.table.game is not None
            expected = rig.state()
            assert game.adapter.engine.snapshot() == expected["engine"]
            assert table.view.game == expected["view_game"]
            assert table.view.hands == expected["hands"]
            assert table.view.buttons == expected["buttons"]
            assert game.adapter.engine.expected == expected["expected"]
            assert [leds.showing(s, 100.0 + LATER) for s in range(4)] == expected["leds"]
            # Nothing lost or doubled.
            assert journal.actions(journal.current_game or 0) == rig.pairs()
            journal.close()
            checked += 1
        assert checked > 15
        assert rig.table.screen is Screen.RESULTS


class DiesAtTheEnd(Journal):
    """A journal whose table "crashes" just before the end of the game is journaled."""

    def game_finished(self, record: str, report: JSON) -> None:
        raise KeyboardInterrupt("power cut")


def test_a_game_whose_last_action_is_journaled_resumes_to_its_results(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as rig:
        rig.journal.__class__ = DiesAtTheEnd
        rig.start()
        with pytest.raises(KeyboardInterrupt):
            rig.finish()
        full = rig.table.game
        assert full is not None and full.adapter.engine.finished
        expected_record = full.recorder.dumps()
    with Rig(path) as again:
        assert resume_if_unfinished(again.journal, again.table) is not None
        assert again.table.screen is Screen.RESULTS
        assert again.records == [expected_record]
        row = again.journal.games()[0]
        assert row.status == FINISHED and row.record == expected_record
        assert again.journal.unfinished() is None


class DiesMidDeal(Journal):
    """A journal whose table "crashes" while the deal is being journaled, after two hands."""

    written = 0

    def _inside_write(self) -> None:
        self.written += 1
        if self.written == 3:  # the game's start, then two hands of the deal
            raise KeyboardInterrupt("power cut")


def test_a_deal_cut_short_leaves_no_half_deal_and_is_dealt_again(tmp_path: Path) -> None:
    with Rig(tmp_path / "whole.sqlite3") as whole:
        whole.start()
        expected = whole.state()
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as cut:
        cut.journal.__class__ = DiesMidDeal
        with pytest.raises(KeyboardInterrupt):
            cut.start()
        assert cut.journal.entry_count() == 0  # the deal is one transaction: none of it stands
    with Rig(path) as again:
        assert resume_if_unfinished(again.journal, again.table) is not None
        assert again.state() == expected
        entries = again.journal.entries(1)
        assert [e.kind for e in entries] == ["chance"] * 4  # one whole deal, no corrections
        assert again.journal.actions(1) == again.pairs()
        standing = again.journal.actions(1)
    with Rig(path) as third:  # a whole deal stands: nothing taken back or dealt twice
        assert resume_if_unfinished(third.journal, third.table) is not None
        assert third.journal.entry_count(1) == 4
        assert third.journal.actions(1) == standing
        assert third.state() == expected
        third.play(1)
    with Rig(path) as fourth:
        assert resume_if_unfinished(fourth.journal, fourth.table) is not None
        assert fourth.journal.entry_count(1) == 5


# --- staff corrections -------------------------------------------------------------------


def test_staff_undo_is_a_correction_and_deletes_nothing(rig: Rig, tmp_path: Path) -> None:
    rig.start()
    rig.play(9)
    game_id = rig.journal.current_game
    assert game_id is not None
    rows_before = raw_rows(rig.journal.path)
    last = rig.pairs()[-1][0]
    rig.tap_uid(2, SIMULATED_STAFF_UID)  # staff mode at seat 2
    assert rig.table.staff_seat == 2
    rig.press(2, Button.PREV)  # undo ...
    rig.press(2, Button.OK)  # ... confirmed
    rows_after = raw_rows(rig.journal.path)
    assert rows_after[: len(rows_before)] == rows_before  # history kept, row for row
    assert len(rows_after) == len(rows_before) + 1
    added = json.loads(rows_after[-1][3])
    assert rows_after[-1][2] == "correction"
    assert added == {"kind": "undo", "action": last}
    assert rig.player_actions() == 8
    assert rig.journal.actions(game_id) == rig.pairs()
    # A resume after the undo gives the table as it stands after it.
    copy = tmp_path / "copy.sqlite3"
    rig.journal.backup(copy)
    table, journal, _ = light_table(copy)
    assert resume_if_unfinished(journal, table) is not None
    assert table.game is not None and rig.table.game is not None
    assert table.game.adapter.engine.snapshot() == rig.table.game.adapter.engine.snapshot()
    journal.close()


def test_undo_back_to_the_deal_matches_the_table(rig: Rig) -> None:
    rig.start()
    rig.play(3)
    game_id = rig.journal.current_game
    assert game_id is not None
    for _ in range(5):  # two more than there are player actions
        rig.tap_uid(1, SIMULATED_STAFF_UID)  # staff mode closes after each action
        rig.press(1, Button.PREV)
        rig.press(1, Button.OK)
        assert rig.table.staff_seat is None
        assert rig.journal.actions(game_id) == rig.pairs()
    assert rig.player_actions() == 0
    assert all(chance for _, chance in rig.pairs())
    corrections = [r for r in raw_rows(rig.journal.path) if r[2] == "correction"]
    assert len(corrections) == 3  # an undo with nothing to undo is not journaled
    rig.play(4)  # play goes on
    assert rig.journal.actions(game_id) == rig.pairs()


def test_undo_on_the_results_screen_reopens_the_game(rig: Rig) -> None:
    rig.start()
    rig.finish()
    game_id = rig.journal.current_game
    assert game_id is not None
    game_row = rig.journal.game(game_id)
    assert game_row is not None and game_row.status == FINISHED
    assert rig.table.undo_last()
    reopened = rig.journal.game(game_id)
    assert reopened is not None and reopened.status == PLAYING and reopened.report is None
    assert rig.journal.unfinished() == reopened
    assert rig.journal.actions(game_id) == rig.pairs()


def test_staff_abandon_is_a_correction(rig: Rig) -> None:
    rig.start()
    rig.play(5)
    game_id = rig.journal.current_game
    rows_before = raw_rows(rig.journal.path)
    rig.tap_uid(3, SIMULATED_STAFF_UID)
    rig.press(3, Button.NEXT)  # abandon ...
    assert rig.table.screen is Screen.PLAY  # ... not before it is confirmed
    rig.press(3, Button.OK)
    assert rig.screen() is Screen.ATTRACT
    rows_after = raw_rows(rig.journal.path)
    assert rows_after[:-1] == rows_before
    assert json.loads(rows_after[-1][3]) == {"kind": "abandon", "game": "oshaka-trick"}
    row = rig.journal.game(game_id or 0)
    assert row is not None and row.status == ABANDONED and row.finished is not None
    assert rig.journal.unfinished() is None
    assert summaries(rig.journal) == []
    assert [s.status for s in summaries(rig.journal, STATUSES)] == [ABANDONED]


def test_players_cannot_undo(rig: Rig) -> None:
    rig.start()
    rig.play(4)
    before = raw_rows(rig.journal.path)
    for seat in range(4):
        rig.press(seat, Button.PREV)
        rig.press(seat, Button.OK)
    after = raw_rows(rig.journal.path)
    assert not [r for r in after if r[2] == "correction"]
    assert after[: len(before)] == before


def test_a_new_game_over_an_unresumed_one_abandons_it_on_record(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3", clock=clock) as journal:
        header = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
        journal.game_started("oshaka-trick", [0, 1, 2], header, 7)
        journal.game_started("oshaka-trick", [0, 1, 2], header, 8)
        first, second = journal.games()
        assert first.status == ABANDONED and second.status == PLAYING
        entry = journal.entries(first.id)[-1]
        assert entry.kind == "correction" and entry.data["kind"] == "abandon"
        assert journal.current_game == second.id


def test_the_latest_games_are_the_last_ones_oldest_first(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3", clock=clock) as journal:
        header = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
        for seed in range(5):  # each new game abandons the one before
            journal.game_started("oshaka-trick", [0, 1, 2], header, seed)
        every = [row.id for row in journal.games()]
        assert [row.id for row in journal.games(latest=2)] == every[-2:]
        assert [row.id for row in journal.games((ABANDONED,), latest=3)] == every[1:4]
        assert [row.id for row in journal.games(latest=50)] == every
        assert journal.games(latest=0) == []


# --- damaged journals --------------------------------------------------------------------


def aside(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob("journal.damaged-*"))


def assert_fresh_and_working(path: Path) -> None:
    with Journal.open(path) as journal:
        assert journal.notices == [] and journal.games() == []
        header = {"format": "table-record/1", "game": "oshaka-trick", "players": 3, "lead": 0}
        journal.game_started("oshaka-trick", [0, 1, 2], header, 1)
        journal.action_accepted({"seat": 0, "play": "R1"}, chance=False)
        assert journal.entry_count() == 1


def test_garbage_is_moved_aside_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    garbage = bytes(random.Random(1).randrange(256) for _ in range(5000))
    path.write_bytes(garbage)
    journal = Journal.open(path, clock=clock)
    assert len(journal.notices) == 1
    moved = aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == garbage  # kept as it was
    assert str(moved[0]) in journal.notices[0] and "fresh journal" in journal.notices[0]
    assert "not a readable SQLite database" in journal.notices[0]
    journal.close()
    assert_fresh_and_working(path)


def test_a_truncated_journal_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as rig:
        rig.start()
        rig.finish()
    size = path.stat().st_size
    assert size > 8192
    with open(path, "r+b") as handle:
        handle.truncate(size // 2)
    journal = Journal.open(path)
    assert journal.notices and "could not be used" in journal.notices[0]
    assert [p.stat().st_size for p in aside(tmp_path)] == [size // 2]
    assert journal.games() == []
    journal.close()


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ("CREATE TABLE notes (x)", "not a game journal"),
        ("PRAGMA application_id = 1128351301; PRAGMA user_version = 99", "schema 99"),
    ],
)
def test_a_database_of_another_schema_is_moved_aside(
    tmp_path: Path, setup: str, words: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(setup + "; CREATE TABLE IF NOT EXISTS other (y);")
    db.close()
    journal = Journal.open(path)
    assert len(journal.notices) == 1 and words in journal.notices[0]
    assert len(aside(tmp_path)) == 1
    journal.close()
    assert_fresh_and_working(path)


def test_a_game_that_no_longer_replays_moves_the_journal_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as rig:
        rig.start()
        rig.play(6)
    with sqlite3.connect(path) as db:  # a hand edit: a card nobody holds, out of turn
        db.execute(
            "INSERT INTO entries (game, seq, kind, data, at) VALUES"
            " (1, 1000, 'action', '{\"seat\":9,\"play\":\"R1\"}', 'x')"
        )
    db.close()
    with Rig(path) as again:
        assert resume_if_unfinished(again.journal, again.table) is None
        assert again.table.screen is Screen.ATTRACT and again.table.game is None
        assert len(again.journal.notices) == 1
        assert "cannot be resumed" in again.journal.notices[0]
        assert again.journal.games() == []  # fresh
        assert len(aside(tmp_path)) == 1
        again.start()  # and the table works on
        again.play(2)
        assert again.journal.player_actions(again.journal.current_game or 0) == 2


# --- history, export and the commands ------------------------------------------------------


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, JSON]:
    """A journal with one finished game and one in progress; the finished record and report."""
    path = tmp_path_factory.mktemp("history") / "journal.sqlite3"
    with Rig(path) as rig:
        rig.start()
        rig.finish()
        record, result = rig.records[0], rig.table.result
        assert result is not None
        rig.press(0, Button.OK)  # results -> attract
        rig.start()
        rig.play(10)
    return path, record, result


def finished_journal(two_games: tuple[Path, str, JSON], path: Path) -> tuple[str, JSON]:
    """A private copy of ``two_games``' journal at ``path`` (closed, so one file holds it all)."""
    source, record, result = two_games
    shutil.copyfile(source, path)
    return record, result


def test_history_export_and_csv(tmp_path: Path, two_games: tuple[Path, str, JSON]) -> None:
    path = tmp_path / "journal.sqlite3"
    record, result = finished_journal(two_games, path)
    with Journal.open_existing(path) as journal:
        games = summaries(journal)
        assert len(games) == 1
        game = games[0]
        assert (game.id, game.game, game.title, game.seats) == (
            1,
            "oshaka-trick",
            "Oshaka Trick",
            (0, 1, 2, 3),
        )
        assert list(game.scores) == result["totals"]
        assert list(game.winners) == result["winners"]  # seats 0..3 are engine seats 0..3
        assert game.date == "2025-01-31 20:15"
        assert export_record(journal, 1) == record
        assert replay(export_record(journal, 2)).report()["finished"] is False
        lines = history_lines(games)
        assert lines[0].split()[:3] == ["#", "date", "game"]
        assert "Oshaka Trick" in lines[1] and " ".join(map(str, result["totals"])) in lines[1]
        out = io.StringIO()
        write_csv(summaries(journal, STATUSES), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["status"] for r in rows] == [FINISHED, PLAYING]
    assert rows[0]["scores"] == " ".join(map(str, result["totals"]))
    assert rows[0]["seats"] == "0 1 2 3" and rows[0]["players"] == "4"


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="table")
    commands = parser.add_subparsers(dest="command", required=True)
    journal_cli.add_commands(commands)
    args = parser.parse_args(list(argv))
    status: int = args.func(args)
    return status


def test_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], two_games: tuple[Path, str, JSON]
) -> None:
    path = tmp_path / "journal.sqlite3"
    record, _ = finished_journal(two_games, path)
    j = ("--journal", str(path))

    assert cli("history", *j) == 0
    out = capsys.readouterr().out
    assert "Oshaka Trick" in out and len(out.strip().splitlines()) == 2

    csv_file = tmp_path / "history.csv"
    assert cli("history", *j, "--all", "--csv", str(csv_file)) == 0
    assert "wrote 2 games" in capsys.readouterr().err
    rows = list(csv.DictReader(csv_file.open(encoding="utf-8")))
    assert [r["id"] for r in rows] == ["1", "2"]

    assert cli("export", *j, "1") == 0
    assert capsys.readouterr().out == record
    target = tmp_path / "game.jsonl"
    assert cli("export", *j, "last", str(target)) == 0
    assert "wrote game 2" in capsys.readouterr().err
    assert replay(target.read_text(encoding="utf-8")).report()["finished"] is False

    assert cli("recover", *j) == 0
    out = capsys.readouterr().out
    assert "2 games (1 finished, 0 abandoned, 1 in progress), " in out
    assert "Unfinished game 2: Oshaka Trick" in out
    # Seats are counted from 1 for people: the game sat at seats 0..3 inside.
    assert "played at Seat 1, Seat 2, Seat 3, and Seat 4" in out
    assert "The kiosk will resume it: Waiting for Seat " in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("export", "7"), "there is no game 7 in the journal; the journal holds games 1 to 2"),
        (("export", "seven"), "'seven' is not a game number"),
        (("history", "--journal", "{tmp}/missing.sqlite3"), "there is no journal at"),
        (("recover", "--journal", "{tmp}/garbage.sqlite3"), "is damaged"),
        (("history", "--config", "{tmp}/none.toml"), "no such file"),
    ],
)
def test_command_errors_exit_2_with_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    two_games: tuple[Path, str, JSON],
    argv: tuple[str, ...],
    words: str,
) -> None:
    path = tmp_path / "journal.sqlite3"
    finished_journal(two_games, path)
    (tmp_path / "garbage.sqlite3").write_bytes(b"not a database at all" * 100)
    argv = tuple(a.replace("{tmp}", str(tmp_path)) for a in argv)
    if "--journal" not in argv and "--config" not in argv:
        argv = (*argv, "--journal", str(path))
    assert cli(*argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err and len(captured.err.strip().splitlines()) == 1
    assert (tmp_path / "garbage.sqlite3").exists()  # commands never move a journal


def test_recover_with_no_unfinished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as rig:
        rig.start()
        rig.finish()
    assert cli("recover", "--journal", str(path)) == 0
    assert "No unfinished game" in capsys.readouterr().out
