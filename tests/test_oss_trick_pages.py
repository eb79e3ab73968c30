"""Oss's tricks paged when one row of them would cut a name (issue 29: 800x480, six seats).

A real table of six bots is played until the tricks and their placements are on it; at
800x480 the centre then holds a row of columns too narrow for "Maradono" or "Kiri KanOss".
Pages of fewer, wider columns show every trick's name whole: the page of the trick chosen
with PREV/NEXT, else the pages turn every ``TRICK_PAGE_SECONDS`` on the display's own clock
(a fake one here), and the renderer is asked for a frame when the page is due. A table
whose tricks fit (four seats, these tricks) asks for no frame at all while it is still.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.view import Screen, TableView
from display import legibility
from display.renderer import Renderer
from display.scenes import oss as oss_scene

SEATS = 6
#: A table whose tricks' names fit one row whole at every size (its deal's tricks).
FEW_SEATS = 4
#: Where the renderer's fake clock starts.
START = 100.0


def tricks_on_the_table(seats: int = SEATS) -> TableView:
    """The first view of a game of ``seats`` bots whose tricks all have a placement under
    them."""
    with tempfile.TemporaryDirectory() as records:
        kiosk = Kiosk.create(
            TableConfig.simulated(seats, bots=seats),
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


@dataclass
class Display:
    """A renderer of ``size`` on a fake clock that starts at ``START``."""

    size: tuple[int, int]
    now: float = START

    def __post_init__(self) -> None:
        self.renderer = Renderer(self.size)
        self.renderer.clock = lambda: self.now

    def names_drawn(self, view: TableView) -> tuple[set[str], list[str]] | None:
        """The trick names drawn whole on the centre, and any drawn cut; None when the
        renderer had nothing to draw (the same view, nothing due)."""
        game = view.game
        assert game is not None
        snap = oss_scene.game_of(game).snapshot
        names = {t.name for t in (*snap.tricks, *((snap.duel,) if snap.duel else ()))}
        with legibility.recording() as drawing:
            if not self.renderer.draw(view):
                return None
        texts = [t for t in drawing.texts if not t.card]
        whole = {t.text for t in texts if t.text in names}
        cut = [
            t.text for t in texts if t.cut and any(n.startswith(t.text.rstrip("…")) for n in names)
        ]
        return whole, cut


def every_name(view: TableView) -> set[str]:
    game = view.game
    assert game is not None
    snap = oss_scene.game_of(game).snapshot
    return {t.name for t in snap.tricks} | ({snap.duel.name} if snap.duel else set())


@pytest.fixture(scope="module")
def table() -> TableView:
    return tricks_on_the_table()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_trick_name_is_read_whole_as_the_pages_turn(
    table: TableView, size: tuple[int, int]
) -> None:
    view = unfocused(table)
    display = Display(size)
    seen: set[str] = set()
    pages: list[frozenset[str]] = []
    for page in range(4):
        display.now = START + page * oss_scene.TRICK_PAGE_SECONDS
        drawn = display.names_drawn(view)
        assert drawn is not None, "the page was due and nothing was drawn"
        whole, cut = drawn
        assert not cut, cut
        seen |= whole
        pages.append(frozenset(whole))
        # The renderer is asked for a frame when the page turns, not before.
        assert display.renderer.next_frame_in(view) == pytest.approx(oss_scene.TRICK_PAGE_SECONDS)
    assert seen == every_name(view)
    assert len(set(pages)) > 1  # the page turned: one row of six seats' centre cuts a name
    assert pages[0] == pages[2] != pages[1]  # two pages, in turn
    display.now += 1.5
    assert display.names_drawn(view) is None  # not yet
    assert display.renderer.next_frame_in(view) == pytest.approx(oss_scene.TRICK_PAGE_SECONDS - 1.5)
    # The toss timer is not running: the scene asks for no frames on the table's clock.
    assert view.game is not None and oss_scene.SCENE.animation_step(view.game) is None


def test_the_pages_turn_with_motion_off(table: TableView) -> None:
    display = Display((800, 480))
    display.renderer.motion.enabled = False
    view = unfocused(table)
    first = display.names_drawn(view)
    display.now += oss_scene.TRICK_PAGE_SECONDS
    second = display.names_drawn(view)
    assert first is not None and second is not None and first[0] != second[0]


def test_a_table_whose_tricks_fit_asks_for_no_frames() -> None:
    # Without the messages: a message too long for the centre's lines turns pages of
    # its own (``generic.draw_messages``), which is not what this test is about.
    view = replace(unfocused(tricks_on_the_table(FEW_SEATS)), messages=())
    for size in ((800, 480), (1920, 1080)):
        display = Display(size)
        drawn = display.names_drawn(view)
        assert drawn is not None
        assert drawn[1] == []  # every name whole (one may be on two lines), on one page
        assert display.renderer.next_frame_in(view) is None
        frames = display.renderer.frames_drawn
        for _ in range(5):
            display.now += oss_scene.TRICK_PAGE_SECONDS
            assert display.names_drawn(view) is None
        assert display.renderer.frames_drawn == frames


def test_the_chosen_trick_holds_its_page(table: TableView) -> None:
    view = unfocused(table)
    game = view.game
    assert game is not None
    snap = oss_scene.game_of(game).snapshot
    for trick in snap.tricks:
        side = replace(oss_scene.game_of(game).overlay, chosen_trick=trick.name)
        chosen = replace(view, game=replace(game, overlay=side))
        display = Display((800, 480))
        for moment in (START, START + oss_scene.TRICK_PAGE_SECONDS):
            display.now = moment
            display.renderer.invalidate()
            drawn = display.names_drawn(chosen)
            assert drawn is not None
            whole, cut = drawn
            assert trick.name in whole and not cut
            # A page held while a seat chooses asks for no page turn.
            assert display.renderer.next_frame_in(chosen) is None
