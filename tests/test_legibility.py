"""The legibility standard, enforced on every scene (issue 29 item 1; docs/display.md).

Every screen of the table (attract, menu, join, options, the cut and the
first-lead question, a rules page, the staff desk and the staff overlay with
its question, a halted table) and every phase of every game (real bot tables
of 2 and of the most seats, the demo's on-screen hand shown, every seat named
by a nickname as long as a member card allows) is drawn in English, German and
Japanese at each supported size and rotation, with the demo's own controls, while
``display.legibility.recording()`` collects every text drawn. A frame fails on:

* text smaller than 1/24 of the screen's short side (1/32 for secondary text);
* text whose ink overlaps another text's, or straddles a control's edge (a
  label inside its button is the button's);
* text cut off (outside its box or its clip) without an "…".

The quick suite draws the most crowded table screens at 800x480 (the tightest
screen); the slow run draws every scene at every size and rotation. The results
screen is one parameter set of its own, off while it is redesigned (``RESULTS_OFF``).
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.games.words import Verbatim, say
from controller.kiosk.app import Kiosk
from controller.kiosk.disk_full import HALTED
from controller.tags.members import NICKNAME_MAX
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.view import Screen, TableView
from display import legibility
from display.fitting import ELLIPSIS
from display.legibility import DrawnText, Role, least_size
from display.renderer import Renderer
from display.scenes import oss as oss_scene
from display.theme import Fonts, Metrics, Painter
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.rigs import TableRig
from tests.test_table_who_starts import CutRig, to_starter

SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080))
ROTATIONS = (0, 90, 180, 270)
LANGUAGES = ("en", "de", "ja")
SIM_SEATS = (0, 1, 2, 3)  # the demo window's "staff tag at seat" controls
# As long as a member card's nickname may be, in wide letters, with a hyphen to break at.
LONG_NAME = ("Wilhelmina-Maxim" + "W" * NICKNAME_MAX)[:NICKNAME_MAX]


@dataclass(frozen=True)
class Scene:
    """A view to draw, named for a failure message."""

    name: str
    view: TableView


# --- the scenes ------------------------------------------------------------------------


def hold_ok(rig: TableRig, seat: int, seconds: float) -> None:
    """OK held at ``seat`` for ``seconds``: a rules page opens."""
    rig.events.put(ButtonPressed(seat, Button.OK, 50.0))
    rig.events.put(ButtonReleased(seat, Button.OK, 50.0 + seconds))
    rig.loop.drain()


def table_scenes() -> list[Scene]:
    """The table's own screens, walked to through mock buttons and readers."""
    found: list[Scene] = []
    rig = TableRig(4)
    with rig.devices:
        rig.loop.drain()
        found.append(Scene("attract", rig.table.view))
        rig.press(0, Button.OK)
        found.append(Scene("menu", rig.table.view))
        hold_ok(rig, 2, 1.5)
        found.append(Scene("rules page on the menu", rig.table.view))
        rig.now += 1000.0
        rig.table.tick(rig.now)
        while rig.table.view.games[rig.table.selected].game_id != "oh-pshaw":
            rig.press(0, Button.NEXT)
        rig.press(0, Button.OK)
        rig.press(1, Button.OK)
        found.append(Scene("join", rig.table.view))
        rig.press(2, Button.OK)
        rig.press(3, Button.OK)
        rig.press(0, Button.NEXT)
        assert rig.screen() is Screen.OPTIONS
        for line in range(len(rig.table.view.options)):
            if line % 4 == 0:
                found.append(Scene(f"options line {line}", rig.table.view))
            rig.press(0, Button.NEXT)
    staff = TableRig(4)
    with staff.devices:
        staff.loop.drain()
        staff.tap_uid(2, SIMULATED_STAFF_UID)
        found.append(Scene("staff desk", staff.table.view))
    cut = CutRig(4)
    with cut.devices:
        cut.loop.drain()
        cut.to_cut()
        found.append(Scene("cut for the deal", cut.table.view))
    first = TableRig(4)
    with first.devices:
        first.loop.drain()
        to_starter(first, "oshaka-trick", (0, 1, 2, 3))
        found.append(Scene("who leads first", first.table.view))
    overlay = TableRig(4)
    with overlay.devices:
        overlay.loop.drain()
        engine: Any = overlay.start_game("oshaka-trick")
        game = overlay.table.game
        assert game is not None and engine.expected is not None
        player = engine.expected.seat
        card = engine.legal_actions(player)[0].to_json()["play"]
        overlay.tap(game.players[player], card)  # something for staff to undo
        hold_ok(overlay, 1, 2.0)
        found.append(Scene("rules page during play", overlay.table.view))
        overlay.tap_uid(2, SIMULATED_STAFF_UID)
        found.append(Scene("staff overlay", overlay.table.view))
        overlay.press(2, Button.PREV)
        found.append(Scene("staff overlay: undo?", overlay.table.view))
        halted = replace(overlay.table.view, halted=HALTED)
        found.append(Scene("halted", halted))
    return found


def with_hand(kiosk: Kiosk, view: TableView) -> TableView:
    """``view`` as the demo shows it: seat 0's hand on screen, to click."""
    game = kiosk.table.game
    if view.screen is not Screen.PLAY or game is None:
        return view
    simulation: Any = getattr(game.adapter, "simulation", None)
    if simulation is None:
        return view
    return replace(view, human_seats=(0,), hands={0: tuple(simulation.hand(0))})


def game_scenes(game_id: str, seats: int, folder: Path) -> list[Scene]:
    """A real bot table of ``seats`` playing ``game_id`` to its results: the first and
    the last view of each phase (the last holds the most: scores, columns, tricks); the
    last alone where the first equals it (about a fifth of the phases, mostly those that
    showed one view: every check drew that view twice for nothing)."""
    kiosk = Kiosk.create(
        TableConfig.simulated(seats, bots=seats),
        seed=11,
        auto_game=game_id,
        records_dir=folder,
        journal_path=folder / f"{game_id}-{seats}.db",
    )
    firsts: dict[tuple[Screen, str], TableView] = {}
    lasts: dict[tuple[Screen, str], TableView] = {}
    with kiosk:
        kiosk.loop.drain()
        for _ in range(20000):
            view = kiosk.table.view
            phase = str(getattr(getattr(view.game, "snapshot", None), "phase", ""))
            key = (view.screen, phase)
            shown = with_hand(kiosk, view)
            firsts.setdefault(key, shown)
            lasts[key] = shown
            if view.screen is Screen.RESULTS or not kiosk.simulator.step(0.0):
                break
            kiosk.loop.drain()
    names = {seat: LONG_NAME[: NICKNAME_MAX - 1] + str(seat) for seat in range(seats)}
    found: list[Scene] = []
    for key, first in firsts.items():
        last = lasts[key]
        for which, view in (("first", first), ("last", last)):
            if which == "first" and view == last:
                continue
            named = replace(view, nicknames=names)
            found.append(Scene(f"{game_id} {seats} seats {key[0].value} {key[1]} {which}", named))
    return found


@functools.cache
def scenes_of(kind: str) -> tuple[Scene, ...]:
    """The scenes of ``kind`` ("table", or a game id), built once per test run."""
    if kind == "table":
        return tuple(table_scenes())
    spec = specs()[kind]
    with tempfile.TemporaryDirectory() as folder:
        found = game_scenes(kind, spec.min_players, Path(folder))
        found += game_scenes(kind, spec.max_players, Path(folder))
    return tuple(found)


def play_scenes(kind: str) -> list[Scene]:
    """The scenes of ``kind`` but the results; a game's only while it is played (its table
    passes the menus on the way, which the "table" scenes hold)."""
    if kind == "table":
        return list(scenes_of(kind))
    return [s for s in scenes_of(kind) if s.view.screen is Screen.PLAY]


def results_scenes(kind: str) -> list[Scene]:
    return [s for s in scenes_of(kind) if s.view.screen is Screen.RESULTS]


def in_language(view: TableView, language: str) -> TableView:
    """``view`` with the table and every seat reading ``language``."""
    return replace(
        view, language=language, seat_languages={seat.seat: language for seat in view.seats}
    )


# --- the checks ------------------------------------------------------------------------


@functools.cache
def kept_fonts(size: tuple[int, int]) -> Fonts:
    """The fonts and the pictures drawn with them, kept for every drawing of ``size`` in a
    run, as a kiosk keeps them from frame to frame.

    Each picture is kept by what it shows, so a drawing reads the same with them as
    from scratch (``test_a_drawing_reads_the_same_with_kept_pictures_as_from_scratch``)
    at a quarter of the cost: a new renderer's fonts start empty, and drawing every
    text and card again was most of the sweep's time.
    """
    return Fonts.for_window(size)


def recorded(
    view: TableView, size: tuple[int, int], rotation: int, fonts: Fonts | None = None
) -> legibility.Drawing:
    """Every text and control ``view`` draws at ``size`` and ``rotation`` (the demo's
    staff controls shown), for the checks below to read; with the run's kept pictures
    (``kept_fonts``) unless ``fonts`` are given."""
    renderer = Renderer(size, rotation=rotation)
    renderer.fonts = kept_fonts(size) if fonts is None else fonts
    renderer.staff_seats = SIM_SEATS
    with legibility.recording() as drawing:
        renderer.draw(view)
    return drawing


def problems(view: TableView, size: tuple[int, int], rotation: int) -> list[str]:
    """What breaks the standard in ``view`` drawn at ``size`` and ``rotation``."""
    return problems_in(recorded(view, size, rotation), size)


def problems_in(drawing: legibility.Drawing, size: tuple[int, int]) -> list[str]:
    """What breaks the standard in ``drawing`` (a frame of ``size``)."""
    short = min(size)
    texts = [t for t in drawing.texts if t.text.strip() and t.rect.w > 0]
    found: list[str] = []
    for text in texts:
        least = least_size(short, text.role)
        if text.size < least:
            found.append(f"{text.text!r} at {text.size} px < {least} ({text.role.value})")
        if text.clipped:
            found.append(f"{text.text!r} cut off without an ellipsis at {tuple(text.rect)}")
    words = [t for t in texts if not t.card]
    for index, text in enumerate(words):
        for other in words[index + 1 :]:
            if other.group != text.group and _overlap(text, other):
                found.append(f"{text.text!r} overlaps {other.text!r}")
        for control in drawing.controls:
            if control.colliderect(text.rect) and not control.contains(text.rect):
                found.append(f"{text.text!r} straddles a control at {tuple(control)}")
    return sorted(set(found))


def cut_labels(view: TableView, size: tuple[int, int], rotation: int) -> list[str]:
    """The texts a player must read that ``view`` drawn at ``size`` and ``rotation`` cuts
    with "…" (the issue's "Done when": a player never meets cut text). A nickname may be
    cut between its letters, the words before it whole ("Wilhelm…", "3 · Wilhelm…",
    "won by Wilhel…"): it is a name, not words to read, and the seat's number or
    colour still tells it apart (a heading with no room for a few of its letters says
    "Seat 3", an Oss chip its card's value alone)."""
    return cuts_in(recorded(view, size, rotation), view)


def cuts_in(drawing: legibility.Drawing, view: TableView) -> list[str]:
    """The texts ``drawing`` (of ``view``) cut with "…" that ``cut_labels`` reports."""
    names = [name for name in view.nicknames.values() if name]
    found = []
    for text in drawing.texts:
        if not text.cut:
            continue
        kept = text.text.removesuffix(ELLIPSIS).strip()
        number, _, rest = kept.partition(" ")
        if number.isdigit():
            kept = rest.removeprefix("·").strip()
        # The cut falls inside a nickname that ends the text ("won by Wilhelm…"): the
        # words before it are whole.
        if kept and any(kept.endswith(name[:k]) for name in names for k in range(3, len(name))):
            continue
        found.append(f"{text.text!r} cut with an ellipsis")
    return sorted(set(found))


def _overlap(a: DrawnText, b: DrawnText) -> bool:
    clash = a.rect.clip(b.rect)
    return clash.w > 1 and clash.h > 1  # antialiased edges may touch


def assert_legible(
    scenes: list[Scene], size: tuple[int, int], rotation: int, *, uncut: bool = False
) -> None:
    """Fail on any problem of ``scenes`` in the three languages; with ``uncut``, on any
    label cut with "…" too (``cut_labels``), read from the same drawing."""
    failures: list[str] = []
    for scene in scenes:
        for language in LANGUAGES:
            view = in_language(scene.view, language)
            drawing = recorded(view, size, rotation)
            found = problems_in(drawing, size) + (cuts_in(drawing, view) if uncut else [])
            for problem in found:
                failures.append(f"{scene.name} [{language}]: {problem}")
    assert not failures, f"{len(failures)} at {size} turned {rotation}:\n" + "\n".join(
        failures[:60]
    )


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # Oss's running toss timer reads the clock: one fixed instant for every picture.
    monkeypatch.setattr(oss_scene, "clock", lambda: 1000.0)


KINDS = ("table", *specs())


def test_the_sweep_sees_every_text_and_control() -> None:
    """The recording is the display's one text path: a frame's words and buttons are in it."""
    scene = next(s for s in scenes_of("table") if s.name == "menu")
    renderer = Renderer((800, 480))
    renderer.staff_seats = SIM_SEATS
    with legibility.recording() as drawing:
        renderer.draw(scene.view)
    drawn = {t.text for t in drawing.texts}
    assert any("Oh Pshaw" in text for text in drawn), drawn
    assert len(drawing.controls) >= len(renderer.hit_boxes) > 0
    assert all(t.role is Role.PRIMARY or t.role is Role.SECONDARY for t in drawing.texts)
    outside = Renderer((800, 480))
    outside.draw(scene.view)
    assert legibility.active() is None  # nothing is kept outside a recording


def test_the_attract_screen_names_every_game_once() -> None:
    """Each game by its own name on one tile, however many variants the menu lists (a line
    of variants was once cut so that Oskar and Oss never showed)."""
    attract = next(s for s in scenes_of("table") if s.name == "attract")
    renderer = Renderer((800, 480))
    with legibility.recording() as drawing:
        renderer.draw(attract.view)
    names = [t.text for t in drawing.texts]
    for spec in specs().values():
        assert names.count(spec.title) == 1, (spec.title, names)
    assert not any("Quick" in name for name in names)  # no variant


# The quick suite's share: the table's screens most crowded at 800x480, in German (the
# longest words) and Japanese (another font). Everything else is in the slow sweep: each
# game is played to its end by bots at two table sizes first (a dozen seconds a game).
QUICK = (
    "menu",
    "options line 0",
    "staff overlay: undo?",
    "rules page during play",
    "cut for the deal",
)


@pytest.mark.parametrize("language", ("de", "ja"))
def test_the_most_crowded_table_screens_are_legible_at_800x480(language: str) -> None:
    scenes = [s for s in scenes_of("table") if s.name in QUICK]
    assert len(scenes) == len(QUICK)
    failures = [
        f"{scene.name}: {problem}"
        for scene in scenes
        for check in (problems, cut_labels)
        for problem in check(in_language(scene.view, language), (800, 480), 0)
    ]
    assert not failures, "\n".join(failures)


def test_a_cut_label_is_found_and_a_cut_nickname_is_not() -> None:
    """``cut_labels`` sees a label ended with "…" and lets a long nickname be cut."""
    scene = next(s for s in scenes_of("table") if s.name == "menu")
    named = replace(scene.view, nicknames={0: LONG_NAME * 5})  # cut on its panel
    renderer = Renderer((800, 480))
    with legibility.recording() as drawing:
        renderer.draw(in_language(named, "de"))
    assert any(t.cut and LONG_NAME[:3] in t.text for t in drawing.texts)
    assert cut_labels(in_language(named, "de"), (800, 480), 0) == []
    # A button label far too long for its button ends with "…", and is found.
    wordy = say("{seat}", seat=Verbatim("take back every card played in this whole round"))
    long_labels = tuple(replace(hint, label=wordy) for hint in named.buttons)
    found = cut_labels(in_language(replace(named, buttons=long_labels), "de"), (800, 480), 0)
    assert found and all(problem.startswith("'take back") for problem in found), found


def test_a_line_a_layout_shortens_itself_is_recorded_as_cut() -> None:
    """A layout that ends a line with "…" itself (``Painter.ellipsis``: the last line a
    block keeps, a centre message) and draws it as a plain line is seen as cut, as the
    text fitting's own shortening is; a text that merely ends with "…" is not."""
    surface = pygame.Surface((400, 100))
    painter = Painter(surface, Renderer((800, 480)).fonts, Metrics.for_size((800, 480)))
    line = "Nobody answered, so the table drew lots for who starts"
    with legibility.recording() as drawing:
        shortened = painter.ellipsis(line, 20, 150)
        painter.text(say("{seat}", seat=Verbatim(shortened)), (0, 0), 20)
        painter.text(say("{seat}", seat=Verbatim("The table deals…")), (0, 40), 20)
    assert shortened.endswith(ELLIPSIS) and len(shortened) < len(line)
    assert [(t.text, t.cut) for t in drawing.texts] == [
        (shortened, True),
        ("The table deals…", False),
    ]


# Where no label a player must read is cut with "…" (the "Done when"): every
# table screen and every game's smallest and largest table, at every size, upright and
# turned a quarter (a turn of 270 draws the canvas of 90 turned the other way, and 180
# that of 0), in the three languages.
UNCUT_SIZES = tuple((w, h, rotation) for w, h in SIZES for rotation in (0, 90))


def uncut_cases() -> list[Any]:
    # The table's screens are all in the sweep below, which checks their cuts itself.
    return [
        pytest.param(kind, (w, h), rotation, id=f"{kind}-{w}x{h}-{rotation}")
        for kind in specs()
        for w, h, rotation in UNCUT_SIZES
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "size", "rotation"), uncut_cases())
def test_no_label_a_player_reads_is_cut(kind: str, size: tuple[int, int], rotation: int) -> None:
    # A game's smallest and largest table, the scenes the sweeps do not draw (the menus
    # on the way to the game); the sweeps check the play and results scenes' cuts from
    # the drawings they make anyway.
    swept = set(map(id, play_scenes(kind) + results_scenes(kind)))
    scenes = [scene for scene in scenes_of(kind) if id(scene) not in swept]
    assert scenes
    failures = [
        f"{scene.name} [{language}]: {problem}"
        for scene in scenes
        for language in LANGUAGES
        for problem in cut_labels(in_language(scene.view, language), size, rotation)
    ]
    assert not failures, f"{len(failures)} cut:\n" + "\n".join(failures[:60])


# The table sizes between a game's smallest and largest (Oh Pshaw 4-6 seats, Oskar 4-5,
# Oss 3-5) share their layouts; they are checked for cut labels at the smallest screen
# and the largest, turned a quarter, where their centres are narrowest (Oh Pshaw's round
# summary was cut at 4-6 seats turned when 3 and 7 were whole).
MIDDLE_SIZES = ((800, 480, 90), (1920, 1080, 90))


def middle_cases() -> list[Any]:
    return [
        pytest.param(game_id, seats, id=f"{game_id}-{seats}")
        for game_id, spec in specs().items()
        for seats in range(spec.min_players + 1, spec.max_players)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "seats"), middle_cases())
def test_no_label_is_cut_at_the_table_sizes_between(game_id: str, seats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        scenes = game_scenes(game_id, seats, Path(folder))
    assert scenes
    failures = [
        f"{scene.name} [{language}] {w}x{h} turned {rotation}: {problem}"
        for scene in scenes
        for language in LANGUAGES
        for w, h, rotation in MIDDLE_SIZES
        for problem in cut_labels(in_language(scene.view, language), (w, h), rotation)
    ]
    assert not failures, f"{len(failures)} cut:\n" + "\n".join(failures[:60])


def sweep_cases() -> list[Any]:
    return [
        pytest.param(kind, size, rotation, id=f"{kind}-{size[0]}x{size[1]}-{rotation}")
        for kind in KINDS
        for size in SIZES
        for rotation in ROTATIONS
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "size", "rotation"), sweep_cases())
def test_every_scene_is_legible(kind: str, size: tuple[int, int], rotation: int) -> None:
    # Upright and turned a quarter, no label cut either (``test_no_label_...`` above
    # holds the other scenes to it); 180 and 270 draw those canvases turned.
    assert_legible(play_scenes(kind), size, rotation, uncut=(*size, rotation) in UNCUT_SIZES)


def what_it_reads(drawing: legibility.Drawing) -> tuple[object, ...]:
    """Everything of a recording that the checks read, in an order of its own."""
    texts = sorted(repr(text) for text in drawing.texts)
    return texts, sorted(map(tuple, drawing.controls)), sorted(drawing.shortened)


@pytest.mark.slow
def test_a_drawing_reads_the_same_with_kept_pictures_as_from_scratch() -> None:
    """The sweep draws with the pictures kept from its earlier drawings (``kept_fonts``);
    every text, control and cut it records must be what a new renderer records. At the
    largest size turned a quarter (the most pictures, turned) for the game with the most
    scenes, its results and every table screen, in the three languages."""
    size, rotation = (1920, 1080), 90
    scenes = [*play_scenes("oss"), *results_scenes("oss"), *play_scenes("table")]
    views = [in_language(scene.view, language) for scene in scenes for language in LANGUAGES]
    kept = Fonts.for_window(size)
    for view in views:  # the pictures kept before they are read
        recorded(view, size, rotation, kept)
    for view in views:
        fresh = recorded(view, size, rotation, Fonts.for_window(size))  # a new renderer's
        again = recorded(view, size, rotation, kept)
        assert fresh.texts, view.screen
        assert what_it_reads(again) == what_it_reads(fresh), view.screen


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(specs()))  # a case a game: the workers share them
def test_every_results_screen_is_legible(kind: str) -> None:
    for size in SIZES:
        for rotation in ROTATIONS:
            uncut = (*size, rotation) in UNCUT_SIZES
            assert_legible(results_scenes(kind), size, rotation, uncut=uncut)
