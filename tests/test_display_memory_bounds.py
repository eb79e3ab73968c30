"""The display's caches stay within their memory bounds over a long evening of games.

Issue 15 (RSS after 500 games): the drawn pictures were bounded by number only
(4,000 surfaces held 87 MB at 1280x720 after a few games), and every size of
Noto Sans CJK a suit symbol was fitted at stayed open (about 2.6 MB each).
``ImageCache`` is now bounded by the bytes of its pictures as well, and the
fallback fonts by how many are open at once.
"""

from __future__ import annotations

import platform
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.kiosk.app import Kiosk
from controller.view import Screen
from display import renderer as renderer_module
from display.memory import release_memory
from display.renderer import Renderer
from display.theme import FONT_FILES, IMAGE_BUDGET, Fonts, ImageCache, picture_bytes
from tests.test_display import attract_view, play_view


def picture(width: int, height: int = 10) -> pygame.Surface:
    return pygame.Surface((width, height), pygame.SRCALPHA, 32)


def test_pictures_beyond_the_byte_budget_go_least_recently_used_first() -> None:
    one = picture_bytes(picture(100))
    cache = ImageCache(budget=5 * one)
    for n in range(5):
        cache.put(n, picture(100))
    assert cache.get(0) is not None  # 0 is now the most recently used
    cache.put(5, picture(100))
    assert cache.get(1) is None, "the least recently used picture stayed over the budget"
    assert all(cache.get(n) is not None for n in (0, 2, 3, 4, 5))
    assert cache.held == 5 * one


def test_the_budget_holds_over_many_pictures_and_a_key_drawn_again_counts_once() -> None:
    cache = ImageCache(budget=50_000)
    for n in range(1000):
        cache.put(n % 300, picture(20 + n % 70))
        assert cache.held <= 50_000
    kept = [cache.get(key) for key in range(300)]
    assert cache.held == sum(picture_bytes(p) for p in kept if p is not None)


def test_a_picture_larger_than_the_budget_is_kept_alone() -> None:
    cache = ImageCache(budget=100)
    cache.put("small", picture(1, 1))
    big = cache.put("big", picture(100))
    assert cache.get("big") is big
    assert cache.get("small") is None
    assert len(cache) == 1


def test_the_number_bound_still_holds() -> None:
    cache = ImageCache(limit=3)
    for n in range(10):
        cache.put(n, picture(1, 1))
    assert len(cache) == 3
    assert cache.held == 3 * picture_bytes(picture(1, 1))


def test_turned_copies_count_in_the_budget_and_go_with_their_picture() -> None:
    one = picture_bytes(picture(100))
    cache = ImageCache(budget=4 * one)
    kept = cache.put("a", picture(100))
    turned = cache.turned(kept, 90)
    assert turned.get_size() == (10, 100)
    assert cache.turned(kept, 90) is turned  # turned once, then kept
    assert cache.held == one + picture_bytes(turned)
    for n in range(3):
        cache.put(n, picture(100))
    assert cache.get("a") is None  # the oldest went, and its turned copy with it
    assert cache.held == 3 * one


def test_a_picture_the_cache_does_not_hold_is_turned_but_not_kept() -> None:
    cache = ImageCache()
    loose = picture(30)
    first = cache.turned(loose, 270)
    assert first.get_size() == (10, 30)
    assert cache.turned(loose, 270) is not first
    assert cache.held == 0


def test_only_a_few_fallback_fonts_are_open_however_many_sizes_draw_suits() -> None:
    missing = [path for paths in FONT_FILES.values() for path in paths if not path.is_file()]
    assert not missing, f"the Noto fonts are part of the test environment: {missing}"
    fonts = Fonts()
    first = pygame.image.tobytes(fonts.get(10).render("7♠"), "RGBA")
    for size in range(10, 60):
        face = fonts.get(size)
        assert face.missing("7♠ 10♥") == ""  # drawn by Noto Sans CJK, which has the suits
        drawn = face.render("7♠ 10♥")
        assert drawn.get_width() > face.size("7")[0]
        assert len(fonts.fallbacks) <= fonts.fallbacks.limit
    # Size 10's font was closed since; asked for again, it is opened again and draws the same.
    assert pygame.image.tobytes(fonts.get(10).render("7♠"), "RGBA") == first


@pytest.mark.slow
def test_a_renderer_drawing_every_game_keeps_its_caches_within_their_bounds(
    tmp_path: Path,
) -> None:
    """Four games, every view drawn at 1280x720: the caches fill up to their bounds only."""
    renderer = Renderer((1280, 720))
    for game in specs():
        kiosk = Kiosk.create(
            TableConfig.simulated(4, bots=4), seed=15, auto_game=game, records_dir=tmp_path
        )
        with kiosk.devices:
            kiosk.loop.drain()
            while kiosk.table.screen is not Screen.RESULTS:
                renderer.draw(kiosk.table.view)
                assert kiosk.simulator.step(0.0), f"the bots stopped in {game}"
                kiosk.loop.drain()
            renderer.draw(kiosk.table.view)
    images = renderer.fonts.images
    assert len(images) > 100  # the games really drew many different pictures
    assert images.held <= images.budget
    assert len(renderer.fonts.fallbacks) <= renderer.fonts.fallbacks.limit


def test_a_larger_window_gets_a_larger_picture_budget_in_proportion() -> None:
    small, hd, full = Renderer((800, 480)), Renderer((1280, 720)), Renderer((1920, 1080))
    assert small.fonts.images.budget == hd.fonts.images.budget == IMAGE_BUDGET
    assert full.fonts.images.budget == IMAGE_BUDGET * 9 // 4
    small.resize((1920, 1080))
    assert small.fonts.images.budget == full.fonts.images.budget


def test_back_on_the_attract_screen_the_caches_are_dropped_and_the_picture_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's pictures, words and fonts go when the table returns to idling; what the
    renderer shows is what a fresh renderer draws."""
    released: list[bool] = []

    def release() -> bool:
        released.append(True)
        return True

    monkeypatch.setattr(renderer_module, "release_memory", release)
    renderer = Renderer((1280, 720))
    renderer.draw(play_view(version=1))
    assert len(renderer.fonts.images) > 20 and len(renderer.fonts) > 0
    renderer.draw(attract_view(version=2))
    assert released == [True]
    fresh = Renderer((1280, 720))
    fresh.draw(attract_view(version=2))
    assert pygame.image.tobytes(renderer.surface, "RGB") == pygame.image.tobytes(
        fresh.surface, "RGB"
    )
    # Only what the attract screen drew is kept.
    assert len(renderer.fonts.images) == len(fresh.fonts.images)
    renderer.draw(attract_view(version=3))
    assert released == [True]  # idling on: nothing more to give back


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc",
    reason="malloc_trim is glibc's (Raspberry Pi OS, Debian); this C library has none",
)
def test_release_memory_trims_the_heap_on_glibc() -> None:
    assert release_memory() is True
