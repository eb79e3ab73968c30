"""``--game`` and ``--players`` in the window (issue 29, item 5): the demo starts that game
with that many players, the person at Seat 1 joined with the bots, or the kiosk refuses in
one line before the window opens. pygame draws with SDL's dummy driver (tests/conftest.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from controller.cli import kiosk as kiosk_cli
from controller.cli.main import build_parser
from controller.kiosk import app, windowed
from controller.kiosk.app import Kiosk
from controller.kiosk.arguments import window_table
from controller.view import Screen
from display.ui import Quit
from display.window import Window
from hardware.events import Button


def window_args(tmp_path: Path, *options: str) -> argparse.Namespace:
    args = build_parser().parse_args(
        ["kiosk", "--journal", str(tmp_path / "journal.sqlite3"), "--bot-delay", "0", *options]
    )
    return args


def run_until(
    monkeypatch: pytest.MonkeyPatch, args: argparse.Namespace, done: Screen, turns: int = 4000
) -> Kiosk:
    """Run the windowed kiosk of ``args`` until its table shows ``done`` (then close the
    window); the kiosk it ran."""
    made: list[Kiosk] = []
    create = Kiosk.create

    def keep(*given: object, **named: object) -> Kiosk:
        kiosk = create(*given, **named)  # type: ignore[arg-type]
        made.append(kiosk)
        return kiosk

    monkeypatch.setattr(app.Kiosk, "create", keep)
    count = [0]

    def poll(self: Window) -> list[object]:
        count[0] += 1
        table = made[0].table
        if table.screen is done or count[0] > turns:
            return [Quit()]
        if table.screen is Screen.STARTER and 0 in table.joined:
            # "Who starts?": the person at Seat 1 answers (OK: "I do"), as a click would.
            made[0].simulator.press(0, Button.OK)
        return []

    monkeypatch.setattr(Window, "poll", poll)
    assert windowed.windowed(args, window_table(args)) == 0
    return made[0]


@pytest.mark.slow  # the window, the menus walked and the game dealt: about 6 s
def test_game_and_players_start_that_game_with_the_person_and_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = window_args(tmp_path, "--game", "oss", "--players", "3")
    kiosk = run_until(monkeypatch, args, Screen.PLAY)
    table = kiosk.table
    assert table.screen is Screen.PLAY
    game = table.game
    assert game is not None and game.adapter.game_id == "oss"
    assert game.players == [0, 1, 2]  # the person at Seat 1, bots at Seats 2 and 3
    assert len(table.view.seats) == 3
    # One game only: the walk leaves the next game's menus to the people.
    assert kiosk.simulator.auto_game is None


def test_without_game_or_players_the_window_waits_on_its_menus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kiosk = run_until(monkeypatch, window_args(tmp_path), Screen.PLAY, turns=8)
    assert kiosk.table.game is None and kiosk.table.screen is Screen.ATTRACT
    assert len(kiosk.table.view.seats) == 4


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--game", "oss", "--players", "9"), "--players 9: Oss is played by"),
        (("--players", "1"), "--players 1: Oshaka Trick is played by"),
        (("--game", "chess"), "--game 'chess': the table has no such game"),
    ],
)
def test_a_game_the_window_cannot_start_is_refused_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    options: tuple[str, ...],
    says: str,
) -> None:
    monkeypatch.setattr(windowed, "display_available", lambda: True)
    args = window_args(tmp_path, *options)
    assert args.func(args) == kiosk_cli.USAGE_ERROR
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err, err


def test_game_and_players_are_refused_with_a_table_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At a configured table people choose the game on its menu."""
    config = tmp_path / "table.toml"
    config.write_text('[table]\nlanguage = "en"\n', "utf-8")
    monkeypatch.setattr(windowed, "display_available", lambda: True)
    args = window_args(tmp_path, "--config", str(config), "--game", "oss")
    assert args.func(args) == kiosk_cli.USAGE_ERROR
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--headless" in err and "--config" in err, err
