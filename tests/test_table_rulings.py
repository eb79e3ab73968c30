"""Issue 13 through the table with mock devices: staff's early end of Oh Pshaw (the
leaders win, recorded so that the export, replay, history and CSV show how it ended)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import TableConfig
from controller.games.oh_pshaw import OhPshaw
from controller.history import export_record, history_lines, summaries, write_csv
from controller.journal import FINISHED, Journal
from controller.record import replay
from controller.scoresheet import render
from controller.table.staff_mode import ASK_END, BACK
from controller.tags import SIMULATED_STAFF_UID
from controller.view import Screen
from tests.rigs import TableRig


def clock() -> dt.datetime:
    return dt.datetime(2025, 1, 31, 20, 15, tzinfo=dt.UTC)


class Rig(TableRig):
    """Four people at a journaled table with mock devices, an Oh Pshaw deck and a virtual deal."""

    deck = "standard-52"

    def __init__(self, path: Path) -> None:
        self.journal = Journal.open(path, TableConfig.simulated(4), clock=clock)
        super().__init__(4, journal=self.journal)

    @property
    def engine(self) -> OhPshaw:
        game = self.table.game
        assert game is not None and isinstance(game.adapter.engine, OhPshaw)
        return game.adapter.engine

    def bid_round(self) -> None:
        """Every seat bids 0 with its OK button (the seat whose turn it is)."""
        while self.engine.phase == "bid":
            self.press(self.engine.turn, "ok")

    def play_round(self) -> None:
        """Every seat taps its first legal card until the round is scored."""
        number = self.engine.round.index
        while self.engine.round.index == number and not self.engine.finished:
            seat = self.engine.turn
            card = self.engine.legal_actions(seat)[0]
            self.tap(seat, card.to_json()["play"])


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path / "journal.sqlite3")
    with r.devices:
        r.loop.drain()
        yield r
    r.journal.close()


def messages(rig: Rig) -> list[str]:
    return [m.text for m in rig.table.messages]


def test_staff_end_now_finishes_oh_pshaw_with_the_leaders_as_winners(rig: Rig) -> None:
    rig.start_game("oh-pshaw")
    rig.bid_round()
    rig.play_round()  # round 1 scored
    rig.bid_round()  # round 2 bid, not played
    totals = rig.engine.totals()
    leaders = [s for s, t in enumerate(totals) if t == max(totals)]
    game_id = rig.journal.current_game
    assert game_id is not None

    rig.tap_uid(2, SIMULATED_STAFF_UID)
    rig.press(2, "next")  # asks how to end it
    assert messages(rig)[-1] == ASK_END and rig.screen() is Screen.PLAY
    rig.press(2, "prev")  # goes back: nothing ended
    assert messages(rig)[-1] == BACK and not rig.engine.finished
    rig.press(2, "next")
    rig.press(2, "ok")  # end now

    assert rig.screen() is Screen.RESULTS
    assert any("Staff ended the game in round 2" in text for text in messages(rig))
    result = rig.table.result
    assert result is not None
    assert result["finished"] is True and result["ended"] == "early"
    assert result["winners"] == leaders and result["totals"] == totals

    # The journal holds a finished game whose record replays to the same end.
    row = rig.journal.game(game_id)
    assert row is not None and row.status == FINISHED
    record = export_record(rig.journal, game_id)
    assert record.splitlines()[-1].endswith('"end": "early"}')
    engine = replay(record)
    assert engine.report() == result
    assert "Ended early by staff" in render(engine)
    games = summaries(rig.journal)
    assert [g.ended for g in games] == ["early"]
    assert "finished (early)" in history_lines(games)[1]
    out = io.StringIO()
    write_csv(games, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert rows[0]["status"] == FINISHED and rows[0]["ended"] == "early"
    assert rows[0]["winners"] == " ".join(str(s) for s in leaders)


def test_staff_next_twice_still_abandons_oh_pshaw(rig: Rig) -> None:
    rig.start_game("oh-pshaw")
    rig.bid_round()
    rig.tap_uid(1, SIMULATED_STAFF_UID)
    rig.press(1, "next")
    rig.press(1, "next")
    assert rig.screen() is Screen.ATTRACT
    assert summaries(rig.journal) == []  # abandoned: no finished game


def test_end_now_before_any_play_is_refused_with_words(rig: Rig) -> None:
    rig.start_game("oh-pshaw")
    rig.tap_uid(0, SIMULATED_STAFF_UID)
    rig.press(0, "next")
    rig.press(0, "ok")
    assert rig.screen() is Screen.PLAY
    assert "nothing has been played yet" in messages(rig)[-1]
