"""The table's own space (issue 29): the demo's controls cover nothing, the options read.

The simulator's "staff tag at seat" buttons live in a strip of their own under
the centre: on every screen (the menus, the options, the staff desk, play and
results of every game) at 800x480 and 1920x1080, their boxes and every pixel
they draw stay in that strip, which no seat panel and no centre content uses.
The options screen's lines keep a readable size (at least 1/24 of the short
side) however many options a game has, and the seat panels follow the cursor
and the values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.kiosk.app import Kiosk
from controller.kiosk.windowed import apply_ui_action
from controller.view import Screen, TableView
from controller.words import Presenter
from display import renderer as renderer_module
from display import theme
from display.renderer import Renderer
from display.scenes import oss as oss_scene
from display.ui import TapDeckCard, TapStaff
from hardware.events import Button
from tests.test_display import SIZES, every_screen
from tests.test_table_options import Rig

SIM_SEATS = (0, 1, 2, 3)


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def game_views(game: str, tmp_path: Path) -> Iterator[TableView]:
    """Views of a real 4-bot table playing ``game``: a sample of play, then its results."""
    kiosk = Kiosk.create(
        TableConfig.simulated(4, bots=4),
        seed=5,
        auto_game=game,
        records_dir=tmp_path,
        journal_path=tmp_path / f"{game}.db",
    )
    with kiosk:
        kiosk.loop.drain()
        for step in range(3000):
            if step % 40 == 0:
                yield kiosk.table.view
            if kiosk.table.screen is Screen.RESULTS or not kiosk.simulator.step(0.0):
                break
            kiosk.loop.drain()
        yield kiosk.table.view


def options_view(tmp_path: Path, line: int = 0) -> TableView:
    """Oh Pshaw's options screen with the cursor on ``line``."""
    rig = Rig(tmp_path / "options.sqlite3")
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2, 3))
        for _ in range(line):
            rig.press(0, Button.NEXT)
        view = rig.table.view
    rig.journal.close()
    return view


def staff_view(tmp_path: Path) -> TableView:
    """The staff desk opened by the demo's staff tag at seat 3."""
    kiosk = Kiosk.create(
        TableConfig.simulated(4), seed=3, records_dir=tmp_path, journal_path=tmp_path / "s.db"
    )
    with kiosk:
        kiosk.loop.drain()
        assert apply_ui_action(kiosk, TapStaff(2))
        kiosk.loop.drain()
        assert kiosk.table.screen is Screen.STAFF
        return kiosk.table.view


def all_screens(tmp_path: Path) -> Iterator[TableView]:
    yield from every_screen()
    yield options_view(tmp_path, line=5)
    yield staff_view(tmp_path)
    for game in specs():
        yield from game_views(game, tmp_path)


def assert_controls_cover_nothing(view: TableView, size: tuple[int, int]) -> None:
    renderer = Renderer(size)
    renderer.staff_seats = SIM_SEATS
    renderer.draw(view)
    layout = renderer.layout
    assert layout is not None
    strip = layout.controls
    assert strip.h > 0
    assert not strip.colliderect(layout.centre), view.screen
    assert not any(strip.colliderect(slot.rect) for slot in layout.slots), view.screen
    controls = [
        rect for rect, action in renderer.hit_boxes if isinstance(action, TapStaff | TapDeckCard)
    ]
    assert {a.seat for _, a in renderer.hit_boxes if isinstance(a, TapStaff)} == set(SIM_SEATS)
    for rect in controls:
        assert strip.contains(rect), (view.screen, rect, strip)
    # Every pixel the controls draw is in their strip: the same frame drawn without
    # them differs nowhere else.
    without = Renderer(size)
    without.staff_seats = SIM_SEATS
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(renderer_module, "draw_staff_buttons", lambda *args: None)
        without.draw(view)
    patched = without.surface.copy()
    patched.blit(renderer.surface, strip, strip)
    assert pixels(patched) == pixels(renderer.surface), f"{view.screen}: drawn outside the strip"


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_the_demos_controls_never_cover_the_table(
    size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Oss's running toss timer reads the clock: one fixed instant for both pictures.
    monkeypatch.setattr(oss_scene, "clock", lambda: 1000.0)
    screens: set[Screen] = set()
    for view in all_screens(tmp_path):
        assert_controls_cover_nothing(view, size)
        screens.add(view.screen)
    assert {
        Screen.ATTRACT,
        Screen.CHOOSE_GAME,
        Screen.JOIN,
        Screen.OPTIONS,
        Screen.STAFF,
        Screen.PLAY,
        Screen.RESULTS,
    } <= screens


def test_the_staff_desk_keeps_its_controls_in_the_strip(tmp_path: Path) -> None:
    view = staff_view(tmp_path)
    for size in SIZES:
        assert_controls_cover_nothing(view, size)


def test_a_table_without_simulated_readers_keeps_the_whole_centre(tmp_path: Path) -> None:
    view = options_view(tmp_path)
    plain = Renderer((800, 480))
    plain.draw(view)
    demo = Renderer((800, 480))
    demo.staff_seats = SIM_SEATS
    demo.draw(view)
    assert plain.layout is not None and demo.layout is not None
    assert plain.layout.controls.h == 0
    assert demo.layout.centre_area == plain.layout.centre


class TextSizes:
    """Records the size of every line of text a painter draws, by what it says."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sizes: dict[str, list[int]] = {}
        original = theme.Painter.text

        def text(painter: theme.Painter, words: object, *args: object, **kw: object) -> object:
            size = args[1] if len(args) > 1 else kw["size"]
            assert isinstance(size, int)
            self.sizes.setdefault(painter.words(words), []).append(size)  # type: ignore[arg-type]
            return original(painter, words, *args, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(theme.Painter, "text", text)


@pytest.mark.parametrize("line", [0, 6, 12])
def test_the_options_list_is_drawn_at_a_readable_size(
    line: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = options_view(tmp_path, line)
    assert len(view.options) >= 12  # Oh Pshaw's list does not fit whole at 800x480
    recorded = TextSizes(monkeypatch)
    renderer = Renderer((800, 480))
    renderer.staff_seats = SIM_SEATS
    renderer.draw(view)
    words = Presenter.for_view(view)
    least = 480 / 24
    labels = [words(label) for label, _, _ in view.options]
    drawn = [label for label in labels if label in recorded.sizes]
    assert words(view.options[view.options_cursor][0]) in drawn  # the cursor's line shows
    for label in drawn:
        assert min(recorded.sizes[label]) >= least, (label, recorded.sizes[label])
    hidden = len(labels) - len(drawn)
    assert hidden > 0
    hints = [text for text in recorded.sizes if "more above" in text or "more below" in text]
    assert hints, "the hidden lines are not announced"
    shown_numbers = sum(int(part) for hint in hints for part in hint.split() if part.isdigit())
    assert shown_numbers == hidden


def panel_pixels(renderer: Renderer, seat_index: int) -> bytes:
    assert renderer.layout is not None
    slot = next(s for s in renderer.layout.slots if s.seat_index == seat_index)
    return pixels(renderer.surface.subsurface(slot.rect))


def test_the_seat_panels_follow_the_options_cursor_and_values(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "live.sqlite3")
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2, 3))
        renderer = Renderer((800, 480))
        renderer.draw(rig.table.view)
        rig.cursor_to("Largest hand")
        renderer.draw(rig.table.view)
        on_line = panel_pixels(renderer, 2)
        # The panel drawn incrementally equals a fresh drawing of the same view.
        fresh = Renderer((800, 480))
        fresh.draw(rig.table.view)
        assert on_line == panel_pixels(fresh, 2)
        before = rig.value("Largest hand")
        rig.press(0, Button.OK)  # change the value at seat 1
        assert rig.value("Largest hand") != before
        renderer.draw(rig.table.view)
        assert panel_pixels(renderer, 2) != on_line  # seat 3's panel shows the new value
        fresh = Renderer((800, 480))
        fresh.draw(rig.table.view)
        assert panel_pixels(renderer, 2) == panel_pixels(fresh, 2)
    rig.journal.close()


def test_the_panel_key_reads_the_options() -> None:
    from display.scenes import panel_key

    view = next(v for v in every_screen() if v.screen is Screen.JOIN)
    view = replace(view, screen=Screen.OPTIONS)
    renderer = Renderer((800, 480))
    renderer.draw(view)
    assert renderer.layout is not None
    slot = renderer.layout.slots[0]
    seat = view.seats[0]
    moved = replace(view, options_cursor=view.options_cursor + 1)
    assert panel_key(slot, view, seat) != panel_key(slot, moved, seat)
