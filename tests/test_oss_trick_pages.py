"""Oss's tricks paged when one row of them would cut a name (issue 29: 800x480, six seats).

A real table of six bots is played until the tricks and their placements are on it; at
800x480 the centre then holds a row of columns too narrow for "Maradono" or "Kiri KanOss".
Pages of fewer, wider columns show every trick's name whole: the page of the trick chosen
with PREV/NEXT, else the pages turn every ``TRICK_PAGE_SECONDS`` on the scene's clock, and
the renderer is asked for a frame when the page is due.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.view import Screen, TableView
from display import legibility
from display.renderer import Renderer
from display.scenes import oss as oss_scene

SEATS = 6


def tricks_on_the_table() -> TableView:
    """The first view of a six-seat game whose tricks all have a placement under them."""
    with tempfile.TemporaryDirectory() as records:
        kiosk = Kiosk.create(
            TableConfig.simulated(SEATS, bots=SEATS),
            seed=3,
            auto_game="oss",
            records_dir=Path(records),
        )
        with kiosk.devices:
            kiosk.loop.drain()
            for _ in range(3000):
                view = kiosk.table.view
                if view.screen is Screen.PLAY and view.game is not None:
                    snap = oss_scene.game_of(view.game).snapshot
                    if snap.tricks and all(t.placements for t in snap.tricks):
                        return view
                if not kiosk.simulator.step(0.0):
                    break
                kiosk.loop.drain()
    raise AssertionError("the bots never placed a card under every trick")


def unfocused(view: TableView) -> TableView:
    """``view`` with no trick being chosen: nothing holds the page (an attempt does not)."""
    game = view.game
    assert game is not None
    side = replace(oss_scene.game_of(game).overlay, chosen_trick=None)
    return replace(view, game=replace(game, overlay=side))


def names_drawn(view: TableView, size: tuple[int, int]) -> tuple[set[str], list[str]]:
    """The trick names drawn whole on the centre, and any drawn cut."""
    game = view.game
    assert game is not None
    snap = oss_scene.game_of(game).snapshot
    names = {t.name for t in (*snap.tricks, *((snap.duel,) if snap.duel else ()))}
    with legibility.recording() as drawing:
        Renderer(size).draw(view)
    texts = [t for t in drawing.texts if not t.card]
    whole = {t.text for t in texts if t.text in names}
    cut = [t.text for t in texts if t.cut and any(n.startswith(t.text.rstrip("…")) for n in names)]
    return whole, cut


@pytest.fixture(scope="module")
def table() -> TableView:
    return tricks_on_the_table()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_trick_name_is_read_whole_as_the_pages_turn(
    table: TableView, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    view = unfocused(table)
    game = view.game
    assert game is not None
    snap = oss_scene.game_of(game).snapshot
    every = {t.name for t in snap.tricks} | ({snap.duel.name} if snap.duel else set())
    seen: set[str] = set()
    pages: list[frozenset[str]] = []
    for page in range(4):
        monkeypatch.setattr(
            oss_scene, "clock", lambda page=page: 6000.0 + page * oss_scene.TRICK_PAGE_SECONDS
        )
        whole, cut = names_drawn(view, size)
        assert not cut, cut
        seen |= whole
        pages.append(frozenset(whole))
    assert seen == every
    assert len(set(pages)) > 1  # the page turned: one row of six seats' centre cuts a name
    # The renderer is asked for a frame when the page turns, not before.
    monkeypatch.setattr(oss_scene, "clock", lambda: 6001.5)
    assert oss_scene.SCENE.animation_step(game) == pytest.approx(oss_scene.TRICK_PAGE_SECONDS - 1.5)


def test_the_chosen_trick_holds_its_page(table: TableView, monkeypatch: pytest.MonkeyPatch) -> None:
    view = unfocused(table)
    game = view.game
    assert game is not None
    snap = oss_scene.game_of(game).snapshot
    for trick in snap.tricks:
        side = replace(oss_scene.game_of(game).overlay, chosen_trick=trick.name)
        chosen = replace(view, game=replace(game, overlay=side))
        for moment in (6000.0, 6000.0 + oss_scene.TRICK_PAGE_SECONDS):
            monkeypatch.setattr(oss_scene, "clock", lambda moment=moment: moment)
            whole, cut = names_drawn(chosen, (800, 480))
            assert trick.name in whole and not cut
