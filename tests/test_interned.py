"""Values the engines intern for a game are forgotten when the table rests.

Issue 15 (RSS after 500 games): Oskar's shared ``CardPlayed`` events and
won-trick feedback were kept in module dicts for the life of the process, and
grew by a few hundred entries a game for hundreds of games (the feedback
stopped only at a bound of 4,096). They are ``Interned`` tables now, emptied
when the table goes back to the attract screen.
"""

from __future__ import annotations

from pathlib import Path

from controller.config.table_config import TableConfig
from controller.games.interned import Interned, forget_interned, interned_count
from controller.games.oskar import engine as oskar
from controller.kiosk.app import Kiosk
from controller.view import Screen
from hardware.events import Button


def screen(kiosk: Kiosk) -> Screen:
    """The table's screen, read afresh (the loop changes it between two reads)."""
    return kiosk.table.screen


def test_forgetting_empties_every_interned_table_and_only_those() -> None:
    first: Interned[int, str] = Interned()
    second: Interned[str, int] = Interned()
    plain: dict[int, str] = {}
    first[1] = plain[1] = "one"
    second["two"] = 2
    assert interned_count() >= 2
    forget_interned()
    assert not first and not second
    assert interned_count() == 0
    assert plain == {1: "one"}


def test_an_oskar_game_interns_while_it_runs_and_the_rested_table_keeps_nothing(
    tmp_path: Path,
) -> None:
    kiosk = Kiosk.create(
        TableConfig.simulated(4, bots=4), seed=15, auto_game="oskar", records_dir=tmp_path
    )
    held_in_play = 0
    with kiosk.devices:
        kiosk.loop.drain()
        while kiosk.table.screen is not Screen.RESULTS:
            assert kiosk.simulator.step(0.0), "the bots stopped"
            kiosk.loop.drain()
            held_in_play = max(held_in_play, interned_count())
        assert held_in_play > 20  # the game really shared its events and feedback
        assert oskar.CARD_PLAYED  # still there on the results screen
        kiosk.simulator.auto_game = None  # stay on the attract screen
        kiosk.simulator.press(0, Button.OK)
        for _ in range(1000):
            if screen(kiosk) is Screen.ATTRACT:
                break
            kiosk.simulator.step(0.0)
            kiosk.loop.drain()
        assert screen(kiosk) is Screen.ATTRACT
    assert interned_count() == 0
