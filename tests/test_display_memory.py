"""The display's economies (issue 15) change nothing a player sees.

An idle English table must not load Noto Sans CJK nor Babel's locale data;
the words the renderer remembers must be the words the presenter gives (the
toss timer's seconds, rounded without ``decimal``, included); the snapshots
it remembers go when the table is back on the attract screen; a
panel painted without filling it first must still cover every pixel of its
rectangle; and the renderer's picture, drawn in parts, must be the scene
drawn in one go.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import pygame
import pytest
from babel import Locale
from babel.numbers import format_decimal

from controller.games.words import Items, Seconds, Verbatim, say
from controller.words import Presenter
from controller.words.catalogs import LANGUAGES, PSEUDO
from display import generic
from display.layout import compute_layout, default_sides
from display.renderer import Renderer
from display.scenes import draw_view, paint_panel
from display.theme import (
    LIST_PATTERNS,
    Memo,
    Metrics,
    Painter,
    RememberingPresenter,
    thousandths,
)
from tests.test_display import SIZES, attract_view, every_screen, generic_view

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("language", [*LANGUAGES, PSEUDO])
def test_remembered_words_are_the_presenters_words(language: str) -> None:
    plain = Presenter(language, (2, 0, 1), {1: "Mika"}, "oh-pshaw")
    remembering = RememberingPresenter.of(plain, Memo())
    texts = [
        say("{n} players", n=3),
        say("Seat {number}", number=Verbatim("4")),
        say("{a} and {b}", a=1234, b=0.5),
        say("{games}", games=Items(tuple(Verbatim(g) for g in ("Oss", "Oskar", "Oh Pshaw")))),
        say("{games}", games=Items((Verbatim("Oss"), Verbatim("Oskar")), either=True)),
    ]
    for _ in range(2):  # the second time from the memo
        for text in texts:
            assert remembering(text) == plain(text)
    for value in (*range(-999, 1000), 1000, -1000, 123456, 0.5, -2.25):
        assert remembering.number(value) == plain.number(value), value
    # Seconds as Oss's toss timer gives them, ties to the third decimal included.
    rng = random.Random(7)
    seconds = [0.0005, 0.0015, 0.0025, 1.2345, 2.0, 0, 999.9995, -0.0005, 0.1 + 0.2]
    seconds += [round(rng.uniform(0, 30), rng.choice((3, 4, 6))) for _ in range(2000)]
    for value in seconds:
        assert remembering(say("{s}", s=Seconds(value))) == plain(say("{s}", s=Seconds(value)))


def test_thousandths_round_the_shortest_decimal_half_to_even_as_decimal_does() -> None:
    rng = random.Random(11)
    ties = [0.0005, 0.0015, 0.0025, 0.9995, 999.9995, -0.0005, -0.0015, 1.2345]
    odd = [0, 7, -7, 2.0, -0.0, 0.1 + 0.2, 1e-05, 5e-324, -2.5e-07, 999.9994999]
    drawn = [round(rng.uniform(-1000, 1000), rng.choice((0, 2, 3, 4, 6, 9))) for _ in range(5000)]
    for value in ties + odd + drawn:
        exact = Decimal(str(value)).quantize(Decimal("0.001"), ROUND_HALF_EVEN)
        assert thousandths(value) == f"{exact:.3f}", value
    assert [thousandths(v) for v in (0.0005, 0.0015, 1e-05, -0.0)] == [
        "0.000",
        "0.002",
        "0.000",
        "-0.000",
    ]


def test_the_remembered_snapshots_go_back_on_the_attract_screen() -> None:
    # The generic scene (a game without a scene of its own) reads its snapshot as JSON
    # through parsed(): start from nothing remembered, so the check cannot pass on what
    # an earlier test left behind.
    generic.forget_parsed()
    renderer = Renderer((800, 480))
    renderer.draw(generic_view(version=10))
    assert generic._PARSED, "the play screen should have read its snapshot through parsed()"
    renderer.draw(attract_view(version=11))
    assert not generic._PARSED


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_list_patterns_kept_are_babels(language: str) -> None:
    locale = Locale.parse(language)
    for either, style in ((False, "standard"), (True, "or")):
        assert LIST_PATTERNS[(language, either)] == dict(locale.list_patterns[style])
    assert all(format_decimal(v, locale=locale) == str(v) for v in range(-999, 1000))


def test_a_painter_remembers_what_it_presented_in_its_fonts_memo() -> None:
    renderer = Renderer((800, 480))
    painter = Painter(pygame.Surface((10, 10)), renderer.fonts, Metrics.for_size((800, 480)))
    assert painter.present(say("{n} players", n=5)) == "5 players"
    assert len(renderer.fonts.presented) == 1
    painter.present(say("{n} players", n=5))
    assert len(renderer.fonts.presented) == 1


def test_an_idle_english_table_loads_neither_the_cjk_font_nor_babels_locale_data() -> None:
    # A fresh interpreter: another test in this process may have loaded either already.
    script = textwrap.dedent(
        """
        import os, sys
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        sys.path.insert(0, {root!r})
        from dataclasses import replace
        import babel.localedata
        from display.renderer import Renderer
        from tests.test_display import attract_view

        def cjk_loaded(renderer):
            faces = renderer.fonts._cache.values()
            fonts = any(face._fonts[1:] != [None] * (len(face._fonts) - 1) for face in faces)
            coverage = any("CJK" in str(path) for path in renderer.fonts.coverage._fonts)
            return fonts or coverage

        renderer = Renderer((1920, 1080))
        view = attract_view()
        renderer.draw(view)
        print(cjk_loaded(renderer), sorted(babel.localedata._cache))
        japanese = replace(view, version=view.version + 1, language="ja")
        renderer.draw(japanese)
        print(cjk_loaded(renderer))
        """
    ).format(root=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    english, japanese = done.stdout.strip().splitlines()[-2:]
    assert english == "False []", english
    # The same check sees the CJK font once a Japanese screen needs it.
    assert japanese == "True"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_renderers_frame_is_the_scene_drawn_in_one_go(size: tuple[int, int]) -> None:
    renderer = Renderer(size)
    for index, view in enumerate(every_screen()):
        view = replace(view, version=1000 + index)
        renderer.invalidate()
        renderer.draw(view)
        whole = pygame.Surface(size)
        deep = view.screen.value == "play" and bool(view.human_seats)
        layout = compute_layout(size, default_sides(len(view.seats)), deep)
        painter = Painter(
            whole, renderer.fonts, Metrics.for_size(size), words=Presenter.for_view(view)
        )
        draw_view(painter, layout, view)
        same = pygame.image.tobytes(renderer.surface, "RGB") == pygame.image.tobytes(whole, "RGB")
        assert same, f"{view.screen} differs"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_panel_covers_its_whole_rectangle_whatever_was_under_it(size: tuple[int, int]) -> None:
    renderer = Renderer(size)
    metrics = Metrics.for_size(size)
    for view in every_screen():
        deep = view.screen.value == "play" and bool(view.human_seats)
        layout = compute_layout(size, default_sides(len(view.seats)), deep)
        pictures = []
        for under in ((255, 0, 255), (0, 255, 0)):
            canvas = pygame.Surface(size)
            canvas.fill(under)
            for slot in layout.slots:
                seat = view.seats[slot.seat_index]
                paint_panel(canvas, renderer.fonts, metrics, slot, view, seat)
            pictures.append(
                [pygame.image.tobytes(canvas.subsurface(s.rect), "RGB") for s in layout.slots]
            )
        assert pictures[0] == pictures[1], f"{view.screen}: a panel left pixels unpainted"
