"""The renderer's caches: a change redraws only what it touches, and the picture stays exact.

A renderer that drew a run of views one after another (reusing its cached
panels, centre and static layer) must show, pixel for pixel, what a fresh
renderer draws for the last view; and its hit boxes must be the same.
"""

from __future__ import annotations

import functools
import random
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.games.oh_pshaw.state import Phase as OhPshawPhase
from controller.games.oshaka_trick.bots import OshakaBot
from controller.kiosk.app import Kiosk
from controller.view import Message, MessageKind, Screen, TableView
from display.layout import Side, default_sides
from display.renderer import Renderer
from display.scenes import oh_pshaw as oh_pshaw_scene
from display.scenes import oss as oss_scene
from display.theme import Fonts, Metrics, Painter
from tests.test_display import SIZES, attract_view, every_screen, oshaka_engine, play_view

GAMES = tuple(specs())


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


@functools.cache
def reference_fonts(size: tuple[int, int]) -> Fonts:
    """The text and card pictures the reference renderers of ``size`` draw with, kept
    across the module as a kiosk keeps them across frames.

    The reference is still a fresh renderer: its layout, panels and centre are drawn
    whole, which is what these tests hold the renderer's own caches to. Only the
    pictures, kept by what they show, are not drawn anew each time (that was half of
    the module's time). They are never the tested renderer's: a picture kept wrongly
    there still differs from the reference's, and ``tests/test_legibility.py`` holds
    kept pictures to pictures drawn from scratch.
    """
    return Fonts.for_window(size)


def assert_same_as_fresh(renderer: Renderer, view: TableView) -> None:
    """What ``renderer`` shows, once what moves has landed, equals a fresh renderer's
    full redraw of ``view`` (with the kept pictures of ``reference_fonts``)."""
    if renderer.motion.due is not None:
        # A card still travelling or a trick still held (display/motion.py): their ends
        # are what a fresh renderer draws.
        later = renderer.clock() + 10.0
        renderer.clock = lambda: later
        renderer.draw(view)
    fresh = Renderer(renderer.size, rotation=renderer.rotation, sides=renderer.sides)
    fresh.fonts = reference_fonts(renderer.size)
    fresh.staff_seats = renderer.staff_seats
    fresh.draw(view)
    if renderer.motion.paging:
        # Pages (Oss's tricks) are not a movement that lands: they turn for as long as
        # they are shown, from the frame that first showed them. The fresh renderer is
        # given the same moment and the same start (after its first frame, which begins
        # its motion anew), and draws the whole picture again: both show the same page.
        fresh.clock = renderer.clock
        fresh.motion.turn_pages_as(renderer.motion)
        fresh.invalidate()
        fresh.draw(view)
    assert pixels(renderer.surface) == pixels(fresh.surface), f"{view.screen} differs"
    assert renderer.hit_boxes == fresh.hit_boxes


def kiosk_views(game: str, steps: int) -> Iterator[TableView]:
    """Every view of a real table whose bots walk the menus and play ``steps`` gestures."""
    with tempfile.TemporaryDirectory() as records:  # a finished game's record goes there
        kiosk = Kiosk.create(
            TableConfig.simulated(4, bots=4), seed=5, auto_game=game, records_dir=Path(records)
        )
        with kiosk.devices:
            kiosk.loop.drain()
            for _ in range(steps):
                yield kiosk.table.view
                if not kiosk.simulator.step(0.0):
                    break
                kiosk.loop.drain()
            yield kiosk.table.view


def test_a_change_to_one_seat_redraws_only_that_panel_and_the_centre() -> None:
    view = play_view(version=10)
    renderer = Renderer((1920, 1080))
    assert renderer.draw(view)
    assert renderer.panels_drawn == len(view.seats)
    assert renderer.dirty_rects == [pygame.Rect(0, 0, 1920, 1080)]
    changed = list(view.seats)
    changed[3] = replace(changed[3], reader_online=False)
    assert renderer.draw(replace(view, version=11, seats=tuple(changed)))
    assert renderer.panels_drawn == len(view.seats) + 1
    assert renderer.layout is not None
    slot = next(s for s in renderer.layout.slots if s.seat_index == 3)
    assert slot.rect in renderer.dirty_rects
    # The only other region drawn is the centre (the view changed); never another panel.
    others = [r for r in renderer.dirty_rects if r != slot.rect]
    assert others == [renderer.layout.centre]
    assert_same_as_fresh(renderer, replace(view, version=11, seats=tuple(changed)))


def test_a_message_for_one_seat_redraws_that_panel_only() -> None:
    view = attract_view(version=1)
    renderer = Renderer((800, 480))
    renderer.draw(view)
    before = renderer.panels_drawn
    told = replace(
        view,
        version=2,
        messages=(Message("Seat 2's reader is unplugged", MessageKind.PROBLEM, seat=2),),
    )
    renderer.draw(told)
    assert renderer.panels_drawn == before + 1
    assert_same_as_fresh(renderer, told)


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_seats_next_message_repaints_only_its_message_line(rotation: int) -> None:
    """A seat that shows a message and gets another: only that line is drawn again,
    for every side of the table (seat 2 faces the others' way)."""
    first = Message("Seat 3 plays Green 4", MessageKind.INFO, seat=2)
    view = replace(play_view(version=10), messages=(first,))
    renderer = Renderer((1920, 1080), rotation=rotation)
    renderer.draw(view)
    panels = renderer.panels_drawn
    second = Message("Seat 3 wins trick 2 with Green 4", MessageKind.WON, seat=2)
    told = replace(view, version=11, messages=(first, second))
    renderer.draw(told)
    assert renderer.panels_drawn == panels
    assert renderer.lines_repainted == 1
    assert renderer.layout is not None
    slot = next(s for s in renderer.layout.slots if s.seat_index == 2)
    centre = renderer.window_rect(renderer.layout.centre)
    line = next(r for r in renderer.dirty_rects if r != centre)
    assert renderer.window_rect(slot.rect).contains(line)
    assert line.w * line.h < slot.rect.w * slot.rect.h // 4
    assert_same_as_fresh(renderer, told)


def _play_on_to_seat_4(
    rotation: int,
    human: tuple[int, ...],
    size: tuple[int, int] = (1920, 1080),
    sides: tuple[Side, ...] | None = None,
) -> tuple[Renderer, TableView, int]:
    """A renderer that drew a mid-trick view, then the view after seat 3's play passed
    the turn to seat 4; with how many panels it had drawn before that play."""
    engine = oshaka_engine(actions=24)
    assert engine.expected is not None and engine.expected.seat == 2
    renderer = Renderer(size, rotation=rotation, sides=sides)
    renderer.draw(play_view(engine, version=10, human=human))
    panels = renderer.panels_drawn
    engine.apply(OshakaBot(random.Random(1)).choose(engine, 2))
    assert engine.expected is not None and engine.expected.seat == 3  # the same trick
    after = play_view(engine, version=11, human=human)
    renderer.draw(after)
    return renderer, after, panels


def _window_slot(renderer: Renderer, view: TableView, player: int) -> pygame.Rect:
    """Where ``player``'s panel shows in the window."""
    assert renderer.layout is not None
    slot = next(s for s in renderer.layout.slots if view.seats[s.seat_index].player == player)
    return renderer.window_rect(slot.rect)


@pytest.mark.parametrize("rotation", [0, 90])
def test_the_turn_passing_on_repaints_only_the_next_seats_edge_and_heading(rotation: int) -> None:
    """Seat 3 plays and seat 4 is next: seat 4's panel is drawn again only where the turn
    shows, its edge and its heading, for every side of the table (seat 3's, which
    played, repaints its own edge and heading and its hand's count: no panel is drawn
    whole)."""
    renderer, after, panels = _play_on_to_seat_4(rotation, human=())
    assert renderer.panels_drawn == panels
    assert renderer.turns_repainted == 2
    assert renderer.bodies_repainted == 1
    slot = _window_slot(renderer, after, 3)
    inside = [r for r in renderer.dirty_rects if slot.contains(r)]
    assert len(inside) == 5  # four strips of the edge, and the heading
    assert sum(r.w * r.h for r in inside) < slot.w * slot.h // 3
    assert_same_as_fresh(renderer, after)


# The played seat's panel on each side of the table, under each turn of the screen.
PLAYED_SEAT_PLACES = [
    (Side.BOTTOM, 0),
    (Side.LEFT, 90),
    (Side.TOP, 180),
    (Side.RIGHT, 270),
    (Side.BOTTOM, 270),
    (Side.LEFT, 0),
    (Side.TOP, 90),
    (Side.RIGHT, 180),
]


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    ("side", "rotation"), PLAYED_SEAT_PLACES, ids=lambda v: getattr(v, "name", str(v))
)
def test_a_play_repaints_only_the_hand_count_of_the_players_body(
    side: Side, rotation: int, size: tuple[int, int]
) -> None:
    """Seat 3 plays a card: of its body only the hand's count changes, so only that line
    is drawn again (with the edge and heading the turn left), wherever its panel sits and
    however the screen is turned; the picture is a full redraw's, pixel for pixel."""
    sides = list(default_sides(4))
    sides[sides.index(side)], sides[2] = sides[2], side  # seat 3 is the third seat
    renderer, after, panels = _play_on_to_seat_4(rotation, (), size, tuple(sides))
    assert renderer.panels_drawn == panels
    assert renderer.bodies_repainted == 1
    slot = _window_slot(renderer, after, 2)
    inside = [r for r in renderer.dirty_rects if slot.contains(r)]
    assert len(inside) == 6  # the edge's four strips, the heading, the hand's count
    assert sum(r.w * r.h for r in inside) < slot.w * slot.h // 2
    assert_same_as_fresh(renderer, after)


def test_a_score_change_draws_the_body_whole_and_the_score_counts() -> None:
    """A won trick changes a seat's columns and score: not a part the scene repaints
    alone, so the panel is drawn whole, and its score counts up on the frames after."""
    engine = oshaka_engine(actions=24)
    bot = OshakaBot(random.Random(1))
    renderer = Renderer((1920, 1080))
    now = [100.0]
    renderer.clock = lambda: now[0]
    renderer.draw(play_view(engine, version=10, human=()))
    scores = [s.round_score for s in engine.snapshot().seats]
    version = 11
    while [s.round_score for s in engine.snapshot().seats] == scores:
        expected = engine.expected
        assert expected is not None
        engine.apply(bot.choose(engine, expected.seat))
        now[0] += 5.0
        renderer.draw(play_view(engine, version=version, human=()))
        version += 1
    drawn = renderer.panels_drawn
    assert renderer.motion.due is not None  # a seat's score counts
    now[0] += 0.05
    last = play_view(engine, version=version - 1, human=())
    assert renderer.draw(last)  # a frame of the count
    assert renderer.panels_drawn > drawn
    assert_same_as_fresh(renderer, last)


@pytest.mark.slow  # a real game's hundred steps, each checked against a full redraw
def test_oh_pshaw_plays_that_pass_the_turn_leave_the_seats_bodies_alone() -> None:
    """In Oh Pshaw's trick play a card passes the turn on and changes no seat's figures
    (until the trick is won): the panels' edges and headings show it, and their bodies,
    which do not show the turn, are not drawn again; the picture stays a full redraw's."""
    renderer = Renderer((800, 480))
    play_frames = whole = 0
    for view in kiosk_views("oh-pshaw", 100):
        before = renderer.panels_drawn
        renderer.draw(view)
        if view.screen is not Screen.PLAY or view.game is None:
            continue
        if oh_pshaw_scene.snapshot_of(view).phase is not OhPshawPhase.PLAY:
            continue
        play_frames += 1
        whole += renderer.panels_drawn - before
        assert_same_as_fresh(renderer, view)
    assert play_frames > 20
    # Each trick's winner's figures change (a panel or two a trick); the plays draw none.
    assert whole < play_frames * 0.6, (whole, play_frames)


@pytest.mark.slow  # a real game's steps, each checked against a full redraw
@pytest.mark.parametrize(("size", "rotation"), [((800, 480), 0), ((1920, 1080), 90)])
def test_oskar_plays_repaint_only_the_players_figures(size: tuple[int, int], rotation: int) -> None:
    """In Oskar a card played changes the player's hand count alone: its figures beside
    the dice are repainted, not the panel; the picture stays a full redraw's."""
    renderer = Renderer(size, rotation=rotation)
    for view in kiosk_views("oskar", 90):
        renderer.draw(view)
        assert_same_as_fresh(renderer, view)
    assert renderer.bodies_repainted > 5


def test_a_seat_with_an_on_screen_hand_is_drawn_whole_when_its_turn_comes() -> None:
    """The simulator lights a person's on-screen hand on their turn: the body shows
    the turn too, so the panel is drawn again whole."""
    renderer, after, panels = _play_on_to_seat_4(0, human=(3,))
    assert renderer.turns_repainted == 1  # seat 3's, which played; not seat 4's
    assert renderer.panels_drawn == panels + 1
    assert _window_slot(renderer, after, 3) in renderer.dirty_rects
    assert_same_as_fresh(renderer, after)


def test_a_seat_whose_message_shows_neither_before_nor_after_is_not_drawn() -> None:
    """A seat's messages change, but neither its old nor its new one fits its line (each
    would be cut; the centre says them): its panel looks the same, so nothing of it is
    drawn again."""
    long = "Seat 3 " + "waits for the reader that was unplugged a while ago " * 4
    view = replace(play_view(version=10), messages=(Message(long, MessageKind.PROBLEM, seat=2),))
    renderer = Renderer((800, 480))
    renderer.draw(view)
    panels = renderer.panels_drawn
    told = replace(
        view, version=11, messages=(*view.messages, Message(long + ".", MessageKind.INFO, seat=2))
    )
    renderer.draw(told)
    assert renderer.panels_drawn == panels
    assert renderer.layout is not None
    assert renderer.dirty_rects == [renderer.layout.centre]
    assert_same_as_fresh(renderer, told)


def test_a_seat_whose_message_line_goes_is_drawn_whole() -> None:
    """A seat's last message goes (newer lines pushed it out): its body takes the line's
    room back, so its panel is drawn whole."""
    view = play_view(version=10)
    renderer = Renderer((800, 480))
    renderer.draw(view)
    panels = renderer.panels_drawn
    gone = replace(view, version=11, messages=tuple(m for m in view.messages if m.seat != 2))
    renderer.draw(gone)
    assert renderer.panels_drawn == panels + 1
    assert_same_as_fresh(renderer, gone)


def test_the_simulators_staff_buttons_are_part_of_the_cached_centre() -> None:
    renderer = Renderer((800, 480))
    renderer.staff_seats = (0, 1)
    for version, view in enumerate(every_screen(), start=200):
        renderer.draw(replace(view, version=version))
        assert_same_as_fresh(renderer, replace(view, version=version))
    panels = renderer.panels_drawn
    before = pixels(renderer.surface)
    renderer.staff_seats = (0, 1, 2)
    last = replace(view, version=version + 1)
    renderer.draw(last)
    assert renderer.panels_drawn == panels  # only the centre changed
    assert pixels(renderer.surface) != before  # a button for seat 2 now
    assert_same_as_fresh(renderer, last)


def test_the_same_version_draws_nothing_and_dirties_nothing() -> None:
    view = attract_view(version=1)
    renderer = Renderer((800, 480))
    renderer.draw(view)
    assert not renderer.draw(view)
    assert renderer.dirty_rects == []


# The full-HD runs take most of this file's time: the quick run keeps 800x480.
SIZES_QUICK_FIRST = [
    SIZES[0],
    *(pytest.param(size, marks=pytest.mark.slow) for size in SIZES[1:]),
]


def timer_running(view: TableView) -> bool:
    """Whether ``view`` shows Oss's toss timer running (the centre then moves by itself)."""
    if view.screen is not Screen.PLAY or view.game is None:
        return False
    return oss_scene.game_of(view.game).overlay.timer.running


def test_a_running_toss_timer_redraws_the_centre_at_its_own_cadence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(oss_scene, "clock", lambda: now[0])
    running = next(v for v in kiosk_views("oss", 400) if timer_running(v))
    renderer = Renderer((800, 480))
    renderer.clock = lambda: now[0]
    assert renderer.draw(running)
    assert renderer.next_frame_in(running) == pytest.approx(oss_scene.TIMER_FRAME)
    before, panels = pixels(renderer.surface), renderer.panels_drawn
    now[0] += oss_scene.TIMER_FRAME / 2
    assert not renderer.draw(running)  # not due yet
    now[0] += oss_scene.TIMER_FRAME
    assert renderer.next_frame_in(running) == 0.0
    assert renderer.draw(running)
    assert renderer.layout is not None
    assert renderer.dirty_rects == [renderer.layout.centre]
    assert renderer.panels_drawn == panels  # the panels do not move
    assert pixels(renderer.surface) != before  # the clock moved on
    assert_same_as_fresh(renderer, running)


def test_a_still_table_needs_no_frame_until_its_view_changes() -> None:
    view = attract_view(version=1)
    renderer = Renderer((800, 480))
    assert renderer.next_frame_in(view) == 0.0
    renderer.draw(view)
    assert renderer.next_frame_in(view) is None
    assert renderer.next_frame_in(replace(view, version=2)) == 0.0


@pytest.mark.parametrize("size", SIZES_QUICK_FIRST, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("rotation", [0, pytest.param(90, marks=pytest.mark.slow)])
@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_incremental_draws_of_every_screen_equal_a_full_redraw(
    size: tuple[int, int], rotation: int
) -> None:
    views = list(every_screen())
    renderer = Renderer(size, rotation=rotation)
    version = 100
    # Every screen after every other one, so each is drawn over another's cached parts.
    for previous in views:
        for view in views:
            if view is previous:
                continue
            version += 2
            renderer.draw(replace(previous, version=version))
            target = replace(view, version=version + 1)
            renderer.draw(target)
            assert_same_as_fresh(renderer, target)


@pytest.mark.parametrize("size", SIZES_QUICK_FIRST, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    # One game in the quick run; every game with --runslow.
    "game",
    [GAMES[0], *(pytest.param(game, marks=pytest.mark.slow) for game in GAMES[1:])],
)
def test_a_real_game_drawn_view_by_view_equals_a_full_redraw(
    game: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Oss shows its running toss timer against the clock: one fixed moment for both pictures.
    monkeypatch.setattr(oss_scene, "clock", lambda: 1_000_000.0)
    renderer = Renderer(size)
    screens: set[Screen] = set()
    play_frames = play_panels = 0
    for view in kiosk_views(game, 70):
        before = renderer.panels_drawn
        renderer.draw(view)
        screens.add(view.screen)
        if view.screen is Screen.PLAY:
            play_frames += 1
            play_panels += renderer.panels_drawn - before
        assert_same_as_fresh(renderer, view)
    assert {Screen.ATTRACT, Screen.CHOOSE_GAME, Screen.JOIN, Screen.PLAY} <= screens
    assert play_frames > 20
    # A play touches a seat or two, not the whole table.
    share = play_panels / (play_frames * len(view.seats))
    assert share < 0.6, share


@pytest.mark.parametrize("max_width", [0, 60])
def test_a_text_pictures_ink_is_the_pictures_bounding_rect_worked_out_once(max_width: int) -> None:
    renderer = Renderer((800, 480))
    p = Painter(renderer.surface, renderer.fonts, Metrics.for_size((800, 480)))
    for text in ("Total 41", "gyp", "on target, far too long for sixty pixels"):
        picture = p.render_text(text, 24, (250, 250, 250), True, max_width)
        expected = picture.get_bounding_rect()
        assert p.ink(text, 24, (250, 250, 250), True, max_width) == expected
        kept = len(renderer.fonts.inks)
        again = p.ink(text, 24, (250, 250, 250), True, max_width)
        assert again == expected
        assert len(renderer.fonts.inks) == kept  # remembered, not scanned again
        again.move_ip(5, 5)  # the caller's own copy: what is kept does not move
        assert p.ink(text, 24, (250, 250, 250), True, max_width) == expected
