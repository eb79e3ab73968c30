"""What is pending between two journaled actions survives a crash: a take-back's cards
waiting to be put back, and the cut for the deal.

Each test plays at a table with a journal, "crashes" (the table and its devices are
dropped, nothing more is written), then rebuilds a new table from the same journal file
the way the kiosk does at start-up (``controller.kiosk.resume``) and plays on.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from controller.config.table_config import TableConfig
from controller.kiosk.resume import resume_if_unfinished
from controller.records.journal import Journal, pending_replays
from controller.view import Screen
from tests.test_table_who_starts import CutRig, hints_of, journaled_physical, start_round_one


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
        start_round_one(rig)
        rig.tap(2, "AS")  # the eldest leads spades
        rig.tap(3, "3D")  # a renege
        rig.tap(0, "4S")
        rig.press(3, "prev")  # seat 4 takes back its 3♦; seat 1's 4♠ waits to be put back
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
        start_round_one(rig)
        for seat, card in ((2, "AS"), (3, "3D"), (0, "4S")):
            rig.tap(seat, card)
        rig.press(3, "prev")
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
        start_round_one(rig)
        for seat, card in ((2, "AS"), (3, "3D"), (0, "4S")):
            rig.tap(seat, card)
        rig.press(3, "prev")
        game_id = journal.current_game
        assert game_id is not None
        assert pending_replays(journal, game_id) == [{"seat": 0, "play": "4S"}]
        assert rig.table.undo_last()  # staff take back seat 3's AS: the table drops the list
        assert pending_replays(journal, game_id) == []
