"""A game joined from Seats 1, 3 and 4 (issue 29, item 5): every screen, the history and the
score sheet name each player by the table's seat, as the players see it.

The record numbers its players 0..n-1 (the record format: it does not know the seats), so
player 1 of this game sits at Seat 3. The table's window is the kiosk's composition root
(``Kiosk.create``) with a window over it; here nobody sits at Seat 2 and bots play the
other seats, joined through their mock buttons as people would.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.records import scoresheet
from controller.records.history import history_table, summaries
from controller.records.journal import Journal
from controller.records.record import replay
from controller.view import Screen, TableView
from display import legibility
from display.renderer import Renderer

EMPTY = 1  # Seat 2: nobody joins there
# A whole game is played first (about 7 s on two busy cores).
pytestmark = pytest.mark.slow


def texts_of(view: TableView) -> Counter[str]:
    """Every text a frame of ``view`` draws, counted."""
    with legibility.recording() as drawing:
        Renderer((1280, 720)).draw(view)
    return Counter(t.text for t in drawing.texts)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Kiosk, list[TableView]]:
    """An Oshaka Trick game of bots at Seats 1, 3 and 4 played to its results screen."""
    folder = tmp_path_factory.mktemp("seats")
    base = TableConfig.simulated(4, bots=4)
    config = replace(base, seats=tuple(replace(s, bot=s.index != EMPTY) for s in base.seats))
    kiosk = Kiosk.create(
        config, seed=5, auto_game="oshaka-trick", records_dir=folder, journal_path=folder / "j.db"
    )
    views: list[TableView] = []
    with kiosk:
        kiosk.loop.drain()
        for _ in range(20000):
            views.append(kiosk.table.view)
            if kiosk.table.view.screen is Screen.RESULTS or not kiosk.simulator.step(0.0):
                break
            kiosk.loop.drain()
    return kiosk, views


def test_every_surface_names_the_seat_where_the_player_sits(
    played: tuple[Kiosk, list[TableView]],
) -> None:
    kiosk, views = played
    results = views[-1]
    assert results.screen is Screen.RESULTS
    game = kiosk.table.game
    assert game is not None
    assert game.players == [0, 2, 3] and results.players == (0, 2, 3)
    engine = game.adapter.engine
    winners = engine.report()["winners"]
    assert winners and all(w in (0, 1, 2) for w in winners)
    seat_names = [f"Seat {seat + 1}" for seat in game.players]  # Seat 1, Seat 3, Seat 4
    winner_names = [seat_names[w] for w in winners]

    # The results screen: the winner line and the score columns name the seats; "Seat 2"
    # only labels its own empty panel.
    shown = texts_of(results)
    winner_line = next(t for t in shown if " win" in t and t.startswith("Seat"))
    assert all(name in winner_line for name in winner_names), winner_line
    assert all(shown[name] >= 2 for name in seat_names), shown  # a panel and a column each
    assert sum(n for t, n in shown.items() if "Seat 2" in t) == 1, shown

    # The last play frame: the centre's score table and its status name the same seats.
    last_play = next(v for v in reversed(views) if v.screen is Screen.PLAY)
    playing = texts_of(last_play)
    assert sum(n for t, n in playing.items() if "Seat 2" in t) == 1, playing

    # The score sheet, told the seating, names the same seats and the same winner.
    sheet = scoresheet.render(engine, seats=game.players)
    header = next(line for line in sheet.splitlines() if "Seat 1" in line)
    assert header.split() == ["Seat", "1", "Seat", "3", "Seat", "4"]
    (winner_line_sheet,) = re.findall(r"^(?:Winner|Shared victory): (.*)$", sheet, re.MULTILINE)
    assert all(name in winner_line_sheet for name in winner_names)
    assert "Seat 2" not in sheet

    # The history (the staff desk's and ``history``'s rows) names the seats and the winner.
    assert kiosk.journal is not None
    with Journal.open_existing(kiosk.journal.path) as journal:
        (summary,) = summaries(journal)
    assert summary.seats == (0, 2, 3)
    heading, row = history_table([summary])
    assert row[heading.index("seats")] == "1 3 4"
    assert all(name in row[heading.index("winner")] for name in winner_names)


def test_the_record_keeps_the_format_players_0_to_n_minus_1(
    played: tuple[Kiosk, list[TableView]],
) -> None:
    """The contract: the record and its replay number the players, not the seats."""
    kiosk, _ = played
    assert kiosk.last_record is not None
    text = Path(kiosk.last_record).read_text("utf-8")
    header = json.loads(text.splitlines()[0])
    assert header["players"] == 3
    seats = {json.loads(line).get("seat") for line in text.splitlines()[1:] if line.strip()}
    assert seats <= {0, 1, 2, None}
    engine = replay(text)
    game = kiosk.table.game
    assert game is not None
    assert engine.report()["winners"] == game.adapter.engine.report()["winners"]
    replayed = scoresheet.render(engine)  # no seating: the format's players, from Seat 1
    assert "Seat 1" in replayed and "Seat 3" in replayed and "Seat 4" not in replayed
