"""Help at the table (issue 13, item 6): a long press of OK opens a rules page for that
seat, from the menu and during play; it states the table's rulings and closes by itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.games import specs
from controller.table import HELP_SECONDS
from controller.table.pages import help_seconds
from controller.view import Screen
from display.renderer import Renderer
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.rigs import TableRig, painted_text
from tests.words import shown, shown_all


@pytest.fixture
def rig() -> Iterator[TableRig]:
    with TableRig(4).running() as r:
        yield r


def hold_ok(rig: TableRig, seat: int, seconds: float) -> None:
    """OK held down at ``seat`` for ``seconds`` (button times), as the button layer reports it."""
    rig.events.put(ButtonPressed(seat, Button.OK, 50.0))
    rig.events.put(ButtonReleased(seat, Button.OK, 50.0 + seconds))
    rig.loop.drain()


def test_a_long_press_on_the_menu_opens_the_chosen_games_rules_at_that_seat(rig: TableRig) -> None:
    rig.press(0, Button.OK)  # wake: the menu
    while rig.table.view.games[rig.table.selected].game_id != "oh-pshaw":
        rig.press(0, Button.NEXT)
    assert rig.screen() is Screen.CHOOSE_GAME
    hold_ok(rig, 2, 0.4)  # a short press: no page (and it chose the game)
    assert rig.table.view.help == {}
    hold_ok(rig, 2, 1.5)
    title, lines = shown(rig.table.view.help[2][0]), shown_all(rig.table.view.help[2][1])
    assert title == "Oh Pshaw: the rules at this table"
    assert lines == shown_all(specs()["oh-pshaw"].rules)
    assert any("only the tied seats score" in line for line in lines)  # the table's ruling
    assert any("end the game early" in line for line in lines)
    assert set(rig.table.view.help) == {2}  # only at the seat that asked
    open_for = help_seconds(len(lines))
    assert open_for >= HELP_SECONDS
    rig.now += open_for - 1
    rig.table.tick(rig.now)
    assert 2 in rig.table.view.help
    rig.now += 2
    rig.table.tick(rig.now)
    assert rig.table.view.help == {}  # closed by itself


def test_a_long_press_during_play_shows_the_game_in_progress_page_by_page(
    rig: TableRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig.start_game("oh-pshaw", (0, 1, 2))
    hold_ok(rig, 1, 2.0)
    title, lines = shown(rig.table.view.help[1][0]), shown_all(rig.table.view.help[1][1])
    assert title.startswith("Oh Pshaw") and lines == shown_all(specs()["oh-pshaw"].rules)
    written = painted_text(monkeypatch)
    # At 800x480 the seat panel holds a few lines: the rest turn over by themselves
    # (every 6 s) before the page closes (help_seconds: longer for a long page), so every
    # line is shown.
    for step in range(12):
        rig.table.tick(rig.now + 6.5 * step)
        if 1 not in rig.table.view.help:
            break
        Renderer((800, 480)).render(rig.table.view)
    # Each rule starts behind a dash of its own, then its words.
    starts = {written[i + 1] for i, w in enumerate(written[:-1]) if w == "-"}
    for line in lines:
        assert any(s.startswith(f"{line.split()[0]} {line.split()[1]}") for s in starts), line
    assert written.count(title) >= 2  # drawn on more than one page


def test_every_game_has_a_rules_page() -> None:
    for spec in specs().values():
        assert len(spec.rules) >= 4, spec.id
    assert any("helped someone" in line for line in shown_all(specs()["oshaka-trick"].rules))
