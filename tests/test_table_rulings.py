"""Issue 13 through the table with mock devices: staff's early end of Oh Pshaw (the
leaders win, recorded so that the export, replay, history and CSV show how it ended) and
Oshaka Trick's first lead chosen at the table."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games.oh_pshaw.engine import OhPshaw
from controller.records.history import export_record, history_lines, summaries, write_csv
from controller.records.journal import FINISHED, Journal
from controller.records.record import replay
from controller.records.scoresheet import render
from controller.table.staff_mode import ASK_END, BACK
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.view import Screen
from display.renderer import Renderer
from display.screenshot import screenshot_view
from hardware.events import Button
from tests.rigs import TableRig, painted_text
from tests.words import shown


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
        return self.engine_as(OhPshaw)

    def bid_round(self) -> None:
        """Every seat bids 0 with its OK button (the seat whose turn it is)."""
        while self.engine.phase == "bid":
            self.press(self.engine.turn, Button.OK)

    def play_round(self) -> None:
        """Every seat taps its first legal card until the round is scored."""
        number = self.engine.round.index
        while self.engine.round.index == number and not self.engine.finished:
            seat = self.engine.turn
            card = self.engine.legal_actions(seat)[0]
            self.tap(seat, card.to_json()["play"])


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with Rig(tmp_path / "journal.sqlite3").running() as r:
        yield r
    r.journal.close()


def messages(rig: TableRig) -> list[str]:
    return [shown(m.text) for m in rig.table.messages]


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
    rig.press(2, Button.NEXT)  # asks how to end it
    assert messages(rig)[-1] == shown(ASK_END) and rig.screen() is Screen.PLAY
    rig.press(2, Button.PREV)  # goes back: nothing ended
    assert messages(rig)[-1] == shown(BACK) and not rig.engine.finished
    rig.press(2, Button.NEXT)
    rig.press(2, Button.OK)  # end now
    rig.press(2, Button.OK)  # confirm (staff mode asks before anything destructive)

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
    rig.press(1, Button.NEXT)
    rig.press(1, Button.NEXT)
    rig.press(1, Button.OK)  # confirm
    assert rig.screen() is Screen.ATTRACT
    assert summaries(rig.journal) == []  # abandoned: no finished game


def test_end_now_before_any_play_is_refused_with_words(rig: Rig) -> None:
    rig.start_game("oh-pshaw")
    rig.tap_uid(0, SIMULATED_STAFF_UID)
    rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)
    rig.press(0, Button.OK)  # confirm
    assert rig.screen() is Screen.PLAY
    assert "nothing has been played yet" in messages(rig)[-1]


# --- Oshaka Trick: the first lead chosen at the table ------------------------------------------


class OshakaRig(TableRig):
    """Four people at a table with mock devices and the Oshaka deck."""

    deck = "oshaka"

    def to_question(self) -> None:
        """Wake the table, choose Oshaka Trick, let all four seats join, and start."""
        self.join_game("oshaka-trick")


@pytest.fixture
def oshaka() -> Iterator[OshakaRig]:
    with OshakaRig(4).running() as r:
        yield r


def oshaka_lead(rig: TableRig) -> int:
    game = rig.table.game
    assert game is not None
    return int(game.engine.header()["lead"])


def test_oshaka_asks_who_most_recently_helped_someone_and_that_seat_leads(
    oshaka: OshakaRig,
) -> None:
    oshaka.to_question()
    assert oshaka.screen() is Screen.STARTER
    view = oshaka.table.view
    assert shown(view.prompt) == "Who most recently helped someone?"
    assert "Who most recently helped someone?" in messages(oshaka)[-1]
    assert {(h.seat, h.button, shown(h.label)) for h in view.buttons} == {
        (s, "ok", "it's me") for s in range(4)
    }
    oshaka.press(2, Button.PREV)  # only OK (or a tap) answers
    assert oshaka.screen() is Screen.STARTER
    oshaka.tap(2, "R5")  # seat 2 answers first, with a tap
    assert oshaka.screen() is Screen.PLAY
    assert oshaka_lead(oshaka) == 2
    assert "Seat 3 leads the first trick" in messages(oshaka)  # seat 2, counted from 1
    game = oshaka.table.game
    assert game is not None and game.engine.expected is not None
    assert game.engine.expected.seat == 2  # seat 2 plays the first card
    oshaka.press(1, Button.OK)  # a late answer is an ordinary press in the game
    assert oshaka_lead(oshaka) == 2


def test_oshaka_first_lead_by_ok_and_only_from_a_joined_seat() -> None:
    rig = OshakaRig(5)
    with rig.devices:
        rig.loop.drain()
        rig.to_question()  # seats 0-3 joined; seat 4 did not
        rig.press(4, Button.OK)
        assert rig.screen() is Screen.STARTER
        assert messages(rig)[-1] == "Seat 5 has not joined this game"  # seat 4, from 1
        rig.press(3, Button.OK)
        assert rig.screen() is Screen.PLAY and oshaka_lead(rig) == 3


def test_nobody_answers_so_the_table_draws_the_first_lead(oshaka: OshakaRig) -> None:
    oshaka.to_question()
    oshaka.now += 29.0
    oshaka.table.tick(oshaka.now)
    assert oshaka.screen() is Screen.STARTER  # still waiting
    oshaka.now += 2.0
    oshaka.table.tick(oshaka.now)
    assert oshaka.screen() is Screen.PLAY
    lead = oshaka_lead(oshaka)
    assert f"Nobody answered, so the table drew: Seat {lead + 1} leads the first trick" in (
        messages(oshaka)
    )


def test_the_starter_screen_draws_at_800x480(oshaka: OshakaRig, tmp_path: Path) -> None:
    oshaka.to_question()
    path = screenshot_view(oshaka.table.view, tmp_path / "starter.png", size=(800, 480))
    image = pygame.image.load(str(path))
    assert image.get_size() == (800, 480)
    # Something besides the background was drawn (the question and the seat panels).
    colours = {image.get_at((x, y))[:3] for x in range(0, 800, 16) for y in range(0, 480, 16)}
    assert len(colours) > 3


def test_oh_pshaw_shows_the_last_rounds_scores_while_the_next_is_bid(
    rig: Rig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig.start_game("oh-pshaw")
    rig.bid_round()
    rig.play_round()  # round 1 scored; round 2 dealt and waiting for bids
    scored = rig.engine.report()["rounds"][0]["scores"]
    assert rig.engine.snapshot().last_round == tuple(scored)
    # Seats by their panels' labels, a score with its sign (0 without), as English lists them.
    names = [shown(rig.table.view.seats[s].label) for s in range(len(scored))]
    each = [f"{names[s]} {'+' if v > 0 else ''}{v}" for s, v in enumerate(scored)]
    summary = "Round 1 scored: " + ", ".join(each[:-1]) + ", and " + each[-1]
    written = painted_text(monkeypatch)
    for size in ((800, 480), (1280, 720)):
        written.clear()
        Renderer(size).render(rig.table.view)
        first = next(i for i, w in enumerate(written) if w.startswith("Round 1 scored"))
        # The summary in full, on one line or wrapped onto two.
        assert summary in (written[first], f"{written[first]} {written[first + 1]}"), size
    rig.bid_round()  # play starts: the round's own bids and tricks instead
    written.clear()
    Renderer((1280, 720)).render(rig.table.view)
    assert not any(w.startswith("Round 1 scored") for w in written)
