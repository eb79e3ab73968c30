"""Headless with ``--config`` (issue 29, item 5): the bots sit at the table's first seats, so
the printed sheet, the record's replay, the results screen and the history name the same
seats; ``--players`` is honoured (or refused with a clear message, test_bad_input_config)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from controller.cli.main import build_parser
from controller.kiosk import headless
from controller.records.history import history_table, summaries
from controller.records.journal import Journal
from controller.view import TableView

# Seat 1 and Seat 4 are people's chairs in the file, Seats 2 and 3 bots: headless, nobody
# sits anywhere, and the three bots --players asks for take Seats 1 to 3.
CONFIG = """\
[table]
records = "records"

[[seat]]
pixels = [0, 8]

[[seat]]
bot = true
pixels = [8, 16]

[[seat]]
bot = true
pixels = [16, 24]

[[seat]]
pixels = [24, 32]
"""


def views_drawn(monkeypatch: pytest.MonkeyPatch) -> list[TableView]:
    """The views the headless demo draws (the final table, the results screen), kept instead
    of drawn: the pictures themselves are not needed here."""
    drawn: list[TableView] = []

    def render_png(view: TableView, path: Path, *rest: Any, **named: Any) -> Path:
        drawn.append(view)
        return path

    monkeypatch.setattr(headless, "render_png", render_png)
    return drawn


def test_every_report_of_a_headless_game_names_the_same_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(CONFIG, "utf-8")
    drawn = views_drawn(monkeypatch)
    out = tmp_path / "out"
    parser = build_parser()
    game = ["--game", "oss", "--players", "3", "--seed", "2", "--out", str(out)]
    args = parser.parse_args(["kiosk", "--headless", "--config", str(config), *game])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    sheet_winner = re.findall(r"^Winner: (.*)$", printed, re.MULTILINE)
    assert len(sheet_winner) == 1
    # The results screen: engine player p sits at the table's Seat p + 1.
    assert drawn and drawn[-1].players == (0, 1, 2)
    # The record's replay prints the same sheet.
    record = next(out.glob("*-oss.jsonl"))
    replay = parser.parse_args(["replay", str(record)])
    assert replay.func(replay) == 0
    replayed = capsys.readouterr().out
    assert re.findall(r"^Winner: (.*)$", replayed, re.MULTILINE) == sheet_winner
    assert "Seat 1" in replayed and "Seat 3" in replayed and "Seat 4" not in replayed
    # The history line names the seats that played and the same winner.
    with Journal.open_existing(out / "journal.sqlite3") as journal:
        (played,) = summaries(journal)
    assert played.seats == (0, 1, 2)
    header, row = history_table([played])
    assert row[header.index("winner")] == sheet_winner[0]


def test_the_headless_demo_times_no_toss_it_cannot_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a display nobody tosses a Jack: the demo's Oss reports results with the
    buttons rather than time every bot's toss at 0.000 s (issue 29, Small)."""
    drawn = views_drawn(monkeypatch)
    out = tmp_path / "out"
    parser = build_parser()
    game = ["--game", "oss", "--players", "2", "--seed", "1", "--out", str(out)]
    args = parser.parse_args(["kiosk", "--headless", *game])
    assert args.func(args) == 0
    capsys.readouterr()
    record = next(out.glob("*-oss.jsonl")).read_text("utf-8")
    assert '"timed"' not in record
    shown_game = drawn[-1].game
    assert shown_game is not None
    assert shown_game.to_json()["timer"]["present"] is False
