"""``cafe-table kiosk``'s arguments: what they are, and the settings and files they name."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig
from controller.games.words import Verbatim, say
from controller.records.files import DEMO_OUT
from controller.records.journal import JOURNAL_NAME
from controller.words.safe_text import one_line

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


def config_path(args: argparse.Namespace) -> Path | None:
    return Path(args.config) if args.config else None


def journal_file(args: argparse.Namespace, records: Path) -> Path | None:
    """The journal the kiosk keeps: --journal, else journal.sqlite3 in the records folder."""
    if args.no_journal:
        return None
    return Path(args.journal) if args.journal else records / JOURNAL_NAME


def with_window_options(config: TableConfig, args: argparse.Namespace) -> TableConfig:
    """The configuration with --size / --fullscreen / --windowed applied to its [display]."""
    display = config.display
    if args.size:
        width, _, height = args.size.lower().partition("x")
        if not (width.isdigit() and height.isdigit()):
            raise ConfigError(
                say(
                    "--size {size}: give the window size as WIDTHxHEIGHT, e.g. 1920x1080",
                    size=Verbatim(one_line(args.size)),
                )
            )
        if not 320 <= int(width) <= 7680 or not 240 <= int(height) <= 4320:
            raise ConfigError(
                say(
                    "--size {size}: width 320..7680 and height 240..4320",
                    size=Verbatim(one_line(args.size)),
                )
            )
        display = replace(display, width=int(width), height=int(height))
    if args.fullscreen or args.windowed:
        display = replace(display, fullscreen=bool(args.fullscreen))
    return replace(config, display=display)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="table.toml (default: all simulated)")
    parser.add_argument(
        "--size",
        metavar="WxH",
        help="window size in pixels, e.g. 1920x1080 (default: [display] width and height "
        "of --config, else 1280x720); PNGs of the headless game are drawn at this size",
    )
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument(
        "--fullscreen",
        action="store_true",
        help="fill the screen at its own resolution (default: [display] fullscreen, else off)",
    )
    screen.add_argument(
        "--windowed", action="store_true", help="a window, even if --config says full screen"
    )
    parser.add_argument("--headless", action="store_true", help="bots play one game, no window")
    parser.add_argument("--game", default="oshaka-trick", help="the game bots play headless")
    parser.add_argument("--players", type=int, default=4, help="seats in the headless game")
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument(
        "--out",
        default=str(DEMO_OUT),
        help="folder for the headless PNG, record and journal, made if missing (history, "
        "export and recover find it there)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds a bot waits before acting"
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="the crash-safe journal (default: journal.sqlite3 in the records folder; "
        "headless: in --out)",
    )
    parser.add_argument(
        "--no-journal", action="store_true", help="keep no journal (nothing is resumed)"
    )
