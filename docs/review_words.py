"""Draw every screen players meet in one language, with the sentences each shows, for
reading the German or Japanese catalogs in context (docs/words.md, "Review in context").

    .venv/bin/python docs/review_words.py --language de [--out DIR] [--only KIND] [--size WxH]

writes into ``--out`` (default ``review-<language>`` in the current folder):

* ``<nnn>-<scene>.png``: every scene of the legibility sweep (``tests/test_legibility.py``),
  drawn with the table and every seat in the language and seats without nicknames (so
  "Platz 3" / "3番席" show): the table's own screens (attract, menu, rules pages, join,
  options, staff desk, cut, who leads first, staff overlay, halt), and each game at its
  smallest table, the first and the last view of every phase and its results;
* ``sentences.txt``: for each picture, every sentence it shows and, under it, the English
  key it was translated from, so a reader sees each sentence beside its neighbours.

``--only`` keeps one kind of scene: ``table`` or a game id (``oh-pshaw``). A catalog edit
shows at the next run: the ``.po`` files are compiled in memory when newer than the ``.mo``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"  # no window: draw off screen
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the sweep's tables live in tests/, not in the package

from controller.games import specs  # noqa: E402
from controller.games.words import Text, Words  # noqa: E402
from controller.words import Presenter  # noqa: E402
from controller.words.catalogs import TRANSLATED  # noqa: E402
from display.screenshot import screenshot_view  # noqa: E402
from docs.screenshots import still_clock  # noqa: E402
from tests.test_legibility import Scene, game_scenes, in_language, table_scenes  # noqa: E402


@contextmanager
def said() -> Iterator[list[tuple[str, str]]]:
    """(English key, sentence) of every message presented while the block runs."""
    found: list[tuple[str, str]] = []
    real = Presenter.__call__

    def present(self: Presenter, words: Words) -> str:
        out = real(self, words)
        if isinstance(words, Text):
            found.append((words.english(), out))
        return out

    Presenter.__call__ = present  # type: ignore[method-assign]
    try:
        yield found
    finally:
        Presenter.__call__ = real  # type: ignore[method-assign]


def scenes(kind: str) -> list[Scene]:
    """The scenes of ``kind`` ("table" or a game id), seats without nicknames."""
    if kind == "table":
        return table_scenes()
    with tempfile.TemporaryDirectory() as folder:
        found = game_scenes(kind, specs()[kind].min_players, Path(folder))
    return [Scene(s.name, replace(s.view, nicknames={})) for s in found]


def file_name(number: int, scene: str) -> str:
    """A picture's file name: its number, then the scene's name as a file name."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in scene).strip("_")
    return f"{number:03d}-{safe}.png"


def draw(language: str, kinds: Sequence[str], out: Path, size: tuple[int, int]) -> list[Path]:
    """Draw every scene of ``kinds`` in ``language`` into ``out``, with ``sentences.txt``."""
    lines: list[str] = []
    written: list[Path] = []
    number = 0
    with still_clock():
        for kind in kinds:
            for scene in scenes(kind):
                path = out / file_name(number, scene.name)
                with said() as sentences:
                    written.append(screenshot_view(in_language(scene.view, language), path, size))
                lines.append(f"## {path.name}: {scene.name}")
                for key, sentence in dict.fromkeys(sentences):
                    lines.append(f"  {sentence}")
                    if sentence != key:
                        lines.append(f"      <- {key}")
                lines.append("")
                number += 1
    (out / "sentences.txt").write_text("\n".join(lines), encoding="utf-8")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, draw the screens and say where they went."""
    kinds = ["table", *specs()]
    parser = argparse.ArgumentParser(description="Draw every screen in one language for review.")
    parser.add_argument("--language", required=True, choices=TRANSLATED)
    parser.add_argument("--out", type=Path, help="folder (default: review-<language>)")
    parser.add_argument("--only", choices=kinds, help="one kind of scene: table or a game id")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (800x480 for tight ones)")
    args = parser.parse_args(argv)
    try:
        width, height = (int(n) for n in args.size.lower().split("x"))
    except ValueError:
        print(f"--size {args.size!r}: write it as WIDTHxHEIGHT, e.g. 800x480", file=sys.stderr)
        return 2
    out: Path = args.out or Path(f"review-{args.language}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not os.access(out, os.W_OK):
            raise PermissionError("it is not writable")
    except OSError as error:
        print(f"Cannot write into {out}: {error}. Give --out a folder you may write to.",
              file=sys.stderr)  # fmt: skip
        return 1
    written = draw(args.language, [args.only] if args.only else kinds, out, (width, height))
    print(f"{len(written)} pictures and sentences.txt in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
