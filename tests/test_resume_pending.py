"""What is pending between two journaled actions survives a crash: a take-back's cards
waiting to be put back, and the cut for the deal.

Each test plays at a table with a journal, "crashes" (the table and its devices are
dropped, nothing more is written), then rebuilds a new table from the same journal file
the way the kiosk does at start-up (``controller.kiosk.resume``) and plays on.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.resume import resume_cut_if_pending, resume_if_unfinished
from controller.records.journal import Journal, pending_replays
from controller.view import Screen
from hardware.events import Button
from tests.test_table_who_starts import CutRig, hints_of, journaled_physical, start_round_one

ROOT = Path(__file__).resolve().parent.parent


def killed_mid(what: str, path: Path) -> None:
    """Play into the middle of ``what`` ("cut": two seats have cut; "take-back": seat 4
    took back its renege) in a process of its own, which then SIGKILLs itself."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.test_resume_pending", what, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr


def _play_and_die(what: str, path: Path) -> None:
    """The child process of ``killed_mid``."""
    rig, _ = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        if what == "cut":
            rig.to_cut()
            rig.tap(0, "9H")
            rig.tap(1, "KS")
        else:
            renege_taken_back(rig)
        os.kill(os.getpid(), signal.SIGKILL)


def renege_taken_back(rig: CutRig) -> None:
    """Round one dealt; seat 3 leads spades, seat 4 reneges with 3♦, seat 1 plays 4♠, and
    seat 4 takes its renege back (PREV): seat 1's 4♠ waits to be put back."""
    start_round_one(rig)
    for seat, card in ((2, "AS"), (3, "3D"), (0, "4S")):
        rig.tap(seat, card)
    rig.press(3, Button.PREV)


def crash(journal: Journal) -> None:
    """What the process's death does to its journal: the file and the writer lock let go,
    and nothing written (no clean-stop mark)."""
    journal._db.close()
    assert journal._lock is not None
    journal._lock.release()


def reopened(path: Path) -> tuple[CutRig, Journal]:
    """A new table on the journal file a crashed one left (its own journal connection)."""
    journal = Journal.open(path, TableConfig.simulated(4), clock=lambda: dt.datetime(2026, 12, 1))
    return CutRig(4, deal="physical", journal=journal), journal


def plays_of(rig: CutRig) -> list[dict[str, object]]:
    game = rig.table.game
    assert game is not None
    return [a.to_json() for a in game.recorder.actions if "play" in a.to_json()]


def test_a_take_back_in_progress_survives_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    rig, journal = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        renege_taken_back(rig)
        game_id = journal.current_game
        assert game_id is not None
        assert pending_replays(journal, game_id) == [{"seat": 0, "play": "4S"}]
    # The crash: nothing more is written. A new table resumes from the journal file.
    crash(journal)
    second, reopened_journal = reopened(path)
    with second.devices:
        second.loop.drain()
        assert resume_if_unfinished(reopened_journal, second.table) is not None
        assert second.screen() is Screen.PLAY
        game = second.table.game
        assert game is not None and game.engine.expected is not None
        assert game.engine.expected.seat == 3  # the seat that took back plays again
        # While a card waits to be put back, no take-back is offered (as before the crash).
        assert not any(h[1] == "prev" and "take back" in h[2] for h in hints_of(second))
        second.tap(3, "6S")  # the legal card: seat 1's 4♠ comes back by itself, no tap
        assert plays_of(second) == [
            {"seat": 2, "play": "AS"},
            {"seat": 3, "play": "6S"},
            {"seat": 0, "play": "4S"},
        ]
        assert pending_replays(reopened_journal, game_id) == []
        second.tap(1, "5S")  # the dealer's card ends the trick and the round
        game = second.table.game
        assert game is not None
        assert [obj for obj, _ in reopened_journal.actions(game_id)] == [
            a.to_json() for a in game.recorder.actions
        ]
        assert game.engine.report()["rounds"][0]["tricks"] == [0, 0, 1, 0]


def test_without_the_journaled_list_the_others_would_tap_again(tmp_path: Path) -> None:
    """The resume above puts the card back because of the journaled list: the same journal
    with the list removed resumes waiting for seat 4 and then for seat 1's own tap."""
    path = tmp_path / "journal.db"
    rig, journal = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        renege_taken_back(rig)
        game_id = journal.current_game
        assert game_id is not None
    crash(journal)
    second, reopened_journal = reopened(path)
    with second.devices:
        second.loop.drain()
        row = reopened_journal.unfinished()
        assert row is not None
        second.table.resume(
            row.game, row.players, row.header, reopened_journal.actions(row.id), row.seed
        )
        second.tap(3, "6S")
        assert plays_of(second)[-1] == {"seat": 3, "play": "6S"}  # seat 1's card not back


def test_a_staff_undo_or_a_put_back_ends_what_is_pending(tmp_path: Path) -> None:
    rig, journal = journaled_physical(tmp_path / "journal.db")
    with rig.devices:
        rig.loop.drain()
        renege_taken_back(rig)
        game_id = journal.current_game
        assert game_id is not None
        assert pending_replays(journal, game_id) == [{"seat": 0, "play": "4S"}]
        assert rig.table.undo_last()  # staff take back seat 3's AS: the table drops the list
        assert pending_replays(journal, game_id) == []


# --- the cut for the deal ------------------------------------------------------------------


def test_a_crash_mid_cut_comes_back_to_the_cut_with_the_cards_already_cut(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.db"
    rig, journal = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        rig.tap(0, "9H")
        rig.tap(1, "KS")
        assert journal.pending_cut() is not None
    crash(journal)
    second, reopened_journal = reopened(path)
    with second.devices:
        second.loop.drain()
        assert resume_if_unfinished(reopened_journal, second.table) is None  # no game yet
        assert resume_cut_if_pending(reopened_journal, second.table)
        assert second.screen() is Screen.STARTER
        view = second.table.view
        assert view.cuts == {0: "9H", 1: "KS"}
        assert view.cutting == (2, 3)
        assert sorted(second.table.joined) == [0, 1, 2, 3]
        texts = second.texts()
        assert "Oh Pshaw: Quick: 1 to 7 cards: the cut for the deal resumed where it stopped" in (
            texts
        )
        assert "Seat 1 cut 9♥" in texts and "Seat 2 cut K♠" in texts
        second.tap(1, "2S")  # seat 2 has cut already: refused as before the crash
        assert second.last()[0].startswith("Seat 2 has cut already (K♠)")
        second.tap(2, "4C")
        second.tap(3, "AD")
        assert second.screen() is Screen.PLAY
        assert second.dealer_seat() == 2
        assert "Cut for the deal: Seat 1 9♥, Seat 2 K♠, Seat 3 4♣, and Seat 4 A♦" in (
            second.texts()
        )
        assert reopened_journal.pending_cut() is None  # the game began: no cut pending


def test_a_cut_again_after_a_tie_resumes_among_the_tied_seats(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    rig, journal = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        for seat, card in enumerate(("5C", "5D", "9H", "KS")):
            rig.tap(seat, card)  # seats 1 and 2 tie on the fives
        assert rig.table.view.cutting == (0, 1)
    crash(journal)
    second, reopened_journal = reopened(path)
    with second.devices:
        second.loop.drain()
        assert resume_cut_if_pending(reopened_journal, second.table)
        assert second.table.view.cutting == (0, 1)
        second.tap(2, "2H")  # out of this cut, as before the crash
        assert second.last()[0].startswith("Seat 3 is out of this cut")
        second.tap(0, "3S")
        second.tap(1, "2S")
        assert second.dealer_seat() == 1
        texts = second.texts()
        # How the cut went, the round before the crash included, as the game begins.
        assert "Cut for the deal: Seat 1 5♣, Seat 2 5♦, Seat 3 9♥, and Seat 4 K♠" in texts
        assert "Seat 1 and Seat 2 tie for the lowest card: they cut again" in texts
        assert "Seat 2 cut the lowest card (2♠) and deals the first round" in texts


def test_a_cut_the_table_cannot_resume_is_forgotten_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    rig, journal = journaled_physical(path)
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        state = journal.pending_cut()
        assert state is not None
        # As if the table had lost seats 3 and 4 since (a new configuration).
        journal.cut_pending({**state, "joined": [0, 1, 2, 3, 7]})
    crash(journal)
    second, reopened_journal = reopened(path)
    with second.devices:
        second.loop.drain()
        assert not resume_cut_if_pending(reopened_journal, second.table)
        assert second.screen() is Screen.ATTRACT
        assert reopened_journal.pending_cut() is None


@pytest.mark.slow  # two table processes started and killed: over 5 s
def test_a_process_killed_mid_cut_or_mid_take_back_resumes_where_it_was(
    tmp_path: Path,
) -> None:
    """The same two crashes as above, by a real SIGKILL of the process that played."""
    cut_path, take_back_path = tmp_path / "cut.db", tmp_path / "take-back.db"
    killed_mid("cut", cut_path)
    killed_mid("take-back", take_back_path)
    table, journal = reopened(cut_path)
    with table.devices:
        table.loop.drain()
        assert resume_cut_if_pending(journal, table.table)
        assert table.table.view.cuts == {0: "9H", 1: "KS"}
    table, journal = reopened(take_back_path)
    with table.devices:
        table.loop.drain()
        assert resume_if_unfinished(journal, table.table) is not None
        table.tap(3, "6S")
        assert plays_of(table)[-1] == {"seat": 0, "play": "4S"}  # put back, no tap


if __name__ == "__main__":
    _play_and_die(sys.argv[1], Path(sys.argv[2]))
