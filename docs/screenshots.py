"""Draw anew the screenshots docs/display.md shows, the same on every run.

    .venv/bin/python docs/screenshots.py [--out DIR] [--only PATTERN] [--rotation 90]

writes, at 800x480 in English, German and Japanese (``<lang>``: en, de, ja):

* ``legible-<game>-<lang>.png``: each game's play screen, a 4-seat bot table late in
  its game (the last view of its card-playing phase), seat 0's hand on screen;
* ``largest-<game>-<lang>.png``: the same play screen at each game's largest table where
  it has more than 4 seats (Oh Pshaw 7, Oskar 6, Oss 6: the narrowest panels);
* ``results-<game>-<lang>.png``: the first page of the results of each game's largest
  table (Oshaka Trick 4 seats, Oh Pshaw 7, Oskar 6, Oss 6).

The tables are the legibility sweep's (``tests/test_legibility.py``: seeded bots,
every seat named by a nickname as long as a member card allows), so a picture is
what that test checks; drawn without the demo's staff strip. ``--only`` keeps the
pictures whose name (without ".png") matches a shell pattern, e.g. ``'*-ja'``.
``--rotation 90`` (or 180, 270) draws them on a screen turned for mounting, saved
upright as seat 1 reads them (a quarter turn: 480x800), named ``…-turned90.png``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fnmatch import fnmatch
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"  # no window: draw off screen
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the sweep's tables live in tests/, not in the package

import pygame  # noqa: E402
from gpiozero.pins import mock as mock_pins  # noqa: E402

from controller.games import specs  # noqa: E402
from controller.view import Screen, TableView  # noqa: E402
from display.layout import ROTATIONS  # noqa: E402
from display.renderer import Renderer  # noqa: E402
from display.scenes import oss as oss_scene  # noqa: E402
from display.screenshot import save_screenshot, screenshot_view  # noqa: E402
from tests.test_legibility import LANGUAGES, Scene, game_scenes, in_language  # noqa: E402

SIZE = (800, 480)
PLAY_SEATS = 4
# The phase in which each game's cards are played: its last view is late in the game.
PLAY_PHASE = {"oshaka-trick": "play", "oh-pshaw": "play", "oskar": "play", "oss": "tribe"}
KINDS = ("legible", "largest", "results")


def picture_names() -> list[str]:
    """Every picture this script draws, by file name without ".png"."""
    return [
        f"{kind}-{game_id}-{language}"
        for kind in KINDS
        for game_id in PLAY_PHASE
        if kind != "largest" or specs()[game_id].max_players > PLAY_SEATS
        for language in LANGUAGES
    ]


@contextmanager
def still_clock() -> Iterator[None]:
    """Clocks that do not run: Oss's running toss timer is drawn at one fixed instant, and
    the mock pins' clock (which times a bot's toss) advances a millisecond a reading."""
    shown, edges = oss_scene.clock, mock_pins.monotonic
    readings = itertools.count()
    oss_scene.clock = lambda: 1000.0
    mock_pins.monotonic = lambda: next(readings) / 1000
    try:
        yield
    finally:
        oss_scene.clock, mock_pins.monotonic = shown, edges


def pick(scenes: Sequence[Scene], kind: str, game_id: str, seats: int) -> TableView:
    """The view a picture of ``kind`` shows, out of a bot table's scenes."""
    if kind == "results":
        found = [s for s in scenes if s.view.screen is Screen.RESULTS]
    else:
        wanted = f"{game_id} {seats} seats {Screen.PLAY.value} {PLAY_PHASE[game_id]} last"
        found = [s for s in scenes if s.name == wanted]
    if not found:
        raise SystemExit(
            f"No {kind} view in the {game_id} table's scenes: has its play phase been "
            f"renamed? Update PLAY_PHASE in {Path(__file__).name}."
        )
    return found[0].view


def draw(names: Sequence[str], out: Path, rotation: int = 0) -> list[Path]:
    """Draw the pictures ``names`` (from ``picture_names()``) into ``out`` on a screen turned
    ``rotation`` degrees for mounting; their paths."""
    tables: dict[tuple[str, int], list[Scene]] = {}
    written: list[Path] = []
    with still_clock(), tempfile.TemporaryDirectory() as scratch:
        for name in names:
            kind, rest = name.split("-", 1)
            game_id, language = rest.rsplit("-", 1)
            seats = PLAY_SEATS if kind == "legible" else specs()[game_id].max_players
            if (game_id, seats) not in tables:  # one bot game per table, for every language
                folder = Path(scratch) / f"{game_id}-{seats}"  # a journal of its own
                folder.mkdir()
                tables[game_id, seats] = game_scenes(game_id, seats, folder)
            view = pick(tables[game_id, seats], kind, game_id, seats)
            shown = in_language(view, language)
            if rotation:
                path = out / f"{name}-turned{rotation}.png"
                written.append(save_screenshot(upright(shown, rotation), path))
            else:
                written.append(screenshot_view(shown, out / f"{name}.png", SIZE))
    return written


def upright(view: TableView, rotation: int) -> pygame.Surface:
    """``view`` drawn on a screen turned ``rotation`` degrees, turned back so that seat 1
    (the canvas's bottom edge) reads it: the canvas the table lays out."""
    renderer = Renderer(SIZE, rotation=rotation)
    return pygame.transform.rotate(renderer.render(view), rotation)  # anticlockwise: back


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, draw the pictures asked for and say where they went."""
    parser = argparse.ArgumentParser(description="Draw anew the screenshots docs/display.md shows.")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "images", help="folder (docs/images)"
    )
    parser.add_argument("--only", default="*", help="a shell pattern, e.g. 'results-oss-*'")
    parser.add_argument(
        "--rotation",
        type=int,
        choices=ROTATIONS,
        default=0,
        help="the screen turned for mounting (90: portrait), saved upright",
    )
    args = parser.parse_args(argv)
    names = [name for name in picture_names() if fnmatch(name, args.only)]
    if not names:
        print(
            f"No picture matches {args.only!r}. Pictures: {', '.join(picture_names())}",
            file=sys.stderr,
        )
        return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        if not os.access(args.out, os.W_OK):
            raise PermissionError("it is not writable")
    except OSError as error:
        print(f"Cannot write the pictures into {args.out}: {error}. Give --out a folder "
              "you may write to.", file=sys.stderr)  # fmt: skip
        return 1
    written = draw(names, args.out, args.rotation)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
