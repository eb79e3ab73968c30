"""Finished games always have their record file, even after a kill right after the finish mark."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.records.files import RecordFileError, save_record, write_missing_records
from controller.records.journal import FINISHED, Journal
from controller.records.record import replay
from tests.test_journal import Rig, cli

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60

# A kiosk that dies (SIGKILL) the moment it would write the record file: after
# the journal has marked the game finished, before any file exists.
DIES_AFTER_THE_FINISH_MARK = """
import os, signal, sys
from pathlib import Path
from controller.kiosk.app import Kiosk
from controller.config.table_config import TableConfig

journal, out = Path(sys.argv[1]), Path(sys.argv[2])
kiosk = Kiosk.create(
    TableConfig.simulated(4, bots=4), seed=7, auto_game="oshaka-trick",
    records_dir=out, journal_path=journal,
)
kiosk.save_record = lambda game_id, text: os.kill(os.getpid(), signal.SIGKILL)
with kiosk:
    kiosk.resume()
    kiosk.run_headless()
"""


def headless(journal: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "controller",
            "kiosk",
            "--headless",
            "--seed",
            "4",
            "--journal",
            str(journal),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.mark.slow
def test_a_kill_after_the_finish_mark_leaves_the_record_to_the_next_start(
    tmp_path: Path,
) -> None:
    journal, out = tmp_path / "journal.sqlite3", tmp_path / "out"
    died = subprocess.run(
        [sys.executable, "-c", DIES_AFTER_THE_FINISH_MARK, str(journal), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=TIMEOUT,
        check=False,
    )
    assert died.returncode == -signal.SIGKILL, died.stderr
    with Journal.open_existing(journal) as reader:
        (row,) = reader.games()
        assert row.status == FINISHED and row.record is not None
        assert [r.id for r in reader.records_missing()] == [1]
        record = row.record
    assert not out.exists() or not list(out.glob("*.jsonl"))  # the kill came first

    done = headless(journal, out)  # the next start
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob("*.jsonl"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    assert record in texts  # written from the journal, whole
    assert replay(record).finished
    assert len(files) == 2  # and the new game's own record
    assert not list(out.glob(".*.tmp"))  # no temporary file left behind
    with Journal.open_existing(journal) as reader:
        assert reader.records_missing() == []

    again = headless(journal, out)  # a third start writes nothing twice
    assert again.returncode == 0, again.stderr
    texts = [f.read_text(encoding="utf-8") for f in sorted(out.glob("*.jsonl"))]
    assert len(texts) == 3 and texts.count(record) == 1


def test_an_identical_file_is_kept_and_another_game_of_the_same_second_gets_a_number(
    tmp_path: Path,
) -> None:
    when = dt.datetime(2026, 1, 2, 20, 15, 30)
    first = save_record(tmp_path, "oss", "one\n", when)
    assert first.name == "20260102-201530-oss.jsonl"
    assert save_record(tmp_path, "oss", "one\n", when) == first
    second = save_record(tmp_path, "oss", "two\n", when)
    assert second.name == "20260102-201530-oss-2.jsonl"
    assert second.read_text(encoding="utf-8") == "two\n"
    assert first.read_text(encoding="utf-8") == "one\n"


def test_a_game_just_finished_gets_its_own_file_beside_an_identical_one(tmp_path: Path) -> None:
    """Two headless demos of the same seed within one second write the same record:
    the second game's file must not be taken for the first's (a full test run lost one so)."""
    when = dt.datetime(2026, 1, 2, 20, 15, 30)
    first = save_record(tmp_path, "oss", "one\n", when)
    again = save_record(tmp_path, "oss", "one\n", when, maybe_saved=False)
    assert again.name == "20260102-201530-oss-2.jsonl"
    assert [p.read_text(encoding="utf-8") for p in (first, again)] == ["one\n", "one\n"]


def test_games_finished_before_tracking_began_are_not_written_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Rig(path) as rig:
        rig.start()
        rig.finish()
        # The rig saves no record files: the finished game is missing one.
        assert [r.id for r in rig.journal.records_missing()] == [1]
        written = write_missing_records(rig.journal, tmp_path / "records")
        assert [p.read_text(encoding="utf-8") for p in written] == rig.records
        assert rig.journal.records_missing() == []
    with Journal.open(path) as journal:
        journal._db.execute("DELETE FROM meta")  # a journal from before record tracking
    with Journal.open(path) as journal:
        assert journal.records_missing() == []  # old games are not written again


def test_recover_reports_and_writes_missing_records_under_the_writer_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    j = ("--journal", str(path))
    with Rig(path) as rig:  # a kiosk that holds the lock; it saves no record files
        rig.start()
        rig.finish()
        record = rig.records[0]
        assert cli("recover", *j) == 0  # reading needs no lock
        out = capsys.readouterr().out
        assert "Finished 1 game 1 without a record file: the kiosk writes them" in out
        assert cli("recover", *j, "--write-records") == 2  # writing does
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"in use by another table program (pid {os.getpid()}" in err
    assert list(tmp_path.glob("*.jsonl")) == []
    assert cli("recover", *j, "--write-records") == 0
    (written,) = tmp_path.glob("*-oshaka-trick.jsonl")
    assert written.read_text(encoding="utf-8") == record
    assert f"Wrote the record of game 1: {written}" in capsys.readouterr().out
    assert cli("recover", *j) == 0
    assert "without a record file" not in capsys.readouterr().out


def test_a_record_that_cannot_be_written_says_so_in_one_line(tmp_path: Path) -> None:
    blocked = tmp_path / "records"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    with pytest.raises(RecordFileError, match="could not write the game record") as caught:
        save_record(blocked, "oss", "one\n", dt.datetime(2026, 1, 2, 20, 15, 30))
    assert "safe in the journal" in str(caught.value) and "\n" not in str(caught.value)
