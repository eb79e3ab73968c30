"""``cafe-table dev new-game KEY``: a new game's folder, playable from the first minute.

A newcomer adds a game by running this command and editing the files of one
folder, ``controller/games/<key>/``: it writes a small, complete trick game
there from ``controller/cli/game_template/`` (spec, engine, table side, bot and
the game's catalogs), which the registry finds with no other edit. The menu,
the simulated tags, the headless demo, records, replay and the conformance
test then know it. docs/architecture.md's "How to add a game" starts here.

This is a developer's tool, so it speaks English only (its words are not in
the staff catalogs).
"""

from __future__ import annotations

import argparse
import keyword
import re
import shutil
import subprocess
import sys
from pathlib import Path
from string import Template

import controller
from controller.games import game_folders, specs
from controller.words.catalogs import game_domain

USAGE_ERROR = 2
TEMPLATES = Path(__file__).resolve().parent / "game_template"
GAMES = Path(controller.__file__).resolve().parent / "games"
KEY = re.compile(r"[a-z][a-z0-9_]{1,30}")
# Folder names of controller/games that are not games (shared code).
RESERVED = frozenset({"common", "base", "spec", "words", "interned"})


class ScaffoldError(ValueError):
    """A key or title the scaffold cannot use; the message says what to choose instead."""


def class_name(key: str) -> str:
    """The engine's class name for ``key``: ``lucky_sevens`` -> ``LuckySevens``."""
    return "".join(part.capitalize() for part in key.split("_") if part)


def check_key(key: str, games: Path = GAMES) -> None:
    """Refuse a key that is not a module name or that an existing game or folder has."""
    if not KEY.fullmatch(key) or keyword.iskeyword(key) or key.endswith("_"):
        raise ScaffoldError(
            f"{key!r} is not a game key: use 2 to 31 lower-case letters, digits and "
            "underscores, starting with a letter (for example lucky_sevens)"
        )
    if key in RESERVED:
        raise ScaffoldError(
            f"{key!r} is reserved for shared code in controller/games; choose another"
        )
    if (games / key).exists() or (games / f"{key}.py").exists():
        raise ScaffoldError(f"controller/games/{key} already exists; choose another key")
    game_id = key.replace("_", "-")
    taken = {spec.id for spec in specs().values()}
    if game_id in taken or key in game_folders():
        raise ScaffoldError(f"a game with the id {game_id!r} is already registered; choose another")


def new_game(key: str, title: str | None = None, games: Path = GAMES) -> list[Path]:
    """Write the folder of a new game ``key``; the files written, catalogs included."""
    check_key(key, games)
    title = (title or key.replace("_", " ").title()).strip()
    if not title or any(ch in title for ch in '"\\\n\r$'):
        raise ScaffoldError("the title must be a non-empty line without quotes, backslashes or $")
    values = {
        "key": key,
        "game_id": key.replace("_", "-"),
        "title": title,
        "name": class_name(key),
        "deck_size": "12",
        "tricks": "3",
    }
    folder = games / key
    folder.mkdir(parents=True)
    written = []
    for template in sorted(TEMPLATES.glob("*.py.tmpl")):
        target = folder / template.name.removesuffix(".tmpl")
        target.write_text(Template(template.read_text(encoding="utf-8")).substitute(values))
        written.append(target)
    tidy(folder)
    domain = game_domain(key, f"controller.games.{key}")
    if domain is not None:  # the game's catalogs: a template and an empty .po per language
        # Imported here: babel's message tools are not for the kiosk's start (issue 33).
        from controller.words.extract import update

        update(domain)
        written.append(domain.pot)
        written += sorted(domain.locale.glob("*/LC_MESSAGES/*.po"))
    return written


def tidy(folder: Path) -> None:
    """Sort the imports and format the new files as the project's ruff would, where it is.

    The template's import order depends on the key (``base`` sorts before or after
    it), so the project's own formatter settles it; without ruff the files are
    still correct Python, only perhaps not in ruff's order.
    """
    beside = Path(sys.executable).parent / "ruff"
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    if ruff is None:
        return
    root = GAMES.parent.parent
    for command in (["check", "--fix", "--select", "I"], ["format"]):
        quiet = ["--quiet", "--no-cache"]  # no .ruff_cache left in the checkout
        subprocess.run([ruff, *command, *quiet, str(folder)], cwd=root, check=False)


def cmd_new_game(args: argparse.Namespace) -> int:
    """Write the folder and say what to do next (one line on stderr and exit 2 if refused)."""
    try:
        written = new_game(args.key, args.title)
    except ScaffoldError as exc:
        print(f"cafe-table dev new-game: {exc}", file=sys.stderr)
        return USAGE_ERROR
    root = GAMES.parent.parent
    for path in written:
        print(f"wrote {path.relative_to(root)}")
    game_id = args.key.replace("_", "-")
    print(
        f"\nNext: edit controller/games/{args.key}/engine.py (the rules) and spec.py (deck,"
        f" options, rules page),\nplay it:  .venv/bin/cafe-table kiosk --headless --game {game_id}"
        f" --players 3\ntranslate controller/games/{args.key}/locale/*/LC_MESSAGES/{args.key}.po"
        " after  .venv/bin/python -m controller.words update"
    )
    return 0


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``cafe-table dev``: tools for people who work on the table's code."""
    dev = commands.add_parser(
        "dev", help="tools for developers", description="Tools for people who develop the table."
    )
    tools = dev.add_subparsers(dest="tool", required=True, metavar="TOOL")
    new = tools.add_parser(
        "new-game",
        help="write a new, playable game folder controller/games/KEY/",
        description="Write controller/games/KEY/: a small trick game to edit into yours.",
    )
    new.add_argument("key", metavar="KEY", help="the game's module name, e.g. lucky_sevens")
    new.add_argument("--title", help="the game's title (default: from KEY, e.g. Lucky Sevens)")
    new.set_defaults(func=cmd_new_game)
