"""The docs' screenshot script (docs/screenshots.py) draws a real picture, the same every run."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from display.renderer import Renderer
from docs import screenshots
from tests.test_legibility import game_scenes, in_language

PICTURE = "legible-oss-en"  # the quickest table, and the one whose toss times read a clock


def test_the_script_draws_a_picture_and_draws_it_the_same_again(tmp_path: Path) -> None:
    assert screenshots.main(["--out", str(tmp_path / "first"), "--only", PICTURE]) == 0
    assert screenshots.main(["--out", str(tmp_path / "again"), "--only", PICTURE]) == 0
    first, again = (tmp_path / run / f"{PICTURE}.png" for run in ("first", "again"))
    assert [p.name for p in (tmp_path / "first").iterdir()] == [first.name]  # that one only
    picture = pygame.image.load(str(first))
    assert picture.get_size() == screenshots.SIZE
    colours = {tuple(picture.get_at((x, y))) for x in range(0, 800, 8) for y in range(0, 480, 8)}
    assert len(colours) > 20, "a blank or nearly blank picture"
    assert first.read_bytes() == again.read_bytes()


def test_it_draws_every_picture_the_docs_show_and_says_a_pattern_that_matches_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = (Path(__file__).parent.parent / "docs" / "display.md").read_text(encoding="utf-8")
    names = screenshots.picture_names()
    assert len(names) == 33  # 4 games x 3 languages, twice, and 3 games' largest tables
    assert all(f"images/{name}.png" in shown for name in names), names
    assert screenshots.main(["--out", str(tmp_path), "--only", "legible-chess-*"]) == 2
    assert "No picture matches 'legible-chess-*'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_a_turned_screen_is_saved_as_the_canvas_seat_1_reads(tmp_path: Path) -> None:
    """``--rotation 90`` saves the quarter-turned screen upright: the very canvas a window
    of the turned shape (480x800) draws unturned."""
    assert screenshots.main(["--out", str(tmp_path), "--only", PICTURE, "--rotation", "90"]) == 0
    saved = tmp_path / f"{PICTURE}-turned90.png"
    assert [p.name for p in tmp_path.iterdir()] == [saved.name]
    picture = pygame.image.load(str(saved))
    width, height = screenshots.SIZE
    assert picture.get_size() == (height, width)
    with screenshots.still_clock():
        (tmp_path / "table").mkdir()
        scenes = game_scenes("oss", screenshots.PLAY_SEATS, tmp_path / "table")
        view = screenshots.pick(scenes, "legible", "oss", screenshots.PLAY_SEATS)
        canvas = Renderer((height, width)).render(in_language(view, "en"))
    assert pygame.image.tobytes(picture, "RGB") == pygame.image.tobytes(canvas, "RGB")
