"""``cafe-table kiosk``'s arguments: what they are, and the settings and files they name."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from controller.config.reading import ConfigError
from controller.config.table_config import MOCK, TableConfig
from controller.games.base import TableError
from controller.games.words import Verbatim, say, say_plural
from controller.records.files import DEMO_OUT
from controller.records.journal import JOURNAL_NAME
from controller.words.safe_text import one_line

HEADLESS_PLAYERS = 4  # bots in the headless demo without --players or --config
DEMO_GAME = "oshaka-trick"  # the demo's game without --game


def demo_game(args: argparse.Namespace) -> str:
    """The game the demo plays: ``--game``, else ``DEMO_GAME``."""
    return str(args.game) if args.game is not None else DEMO_GAME


def window_starts_a_game(args: argparse.Namespace) -> bool:
    """Whether the window's demo starts a game by itself: ``--game`` or ``--players`` given
    (``demo_game`` with that many players: the person at Seat 1, bots at the other seats)."""
    return args.game is not None or args.players is not None


def window_table(args: argparse.Namespace) -> TableConfig:
    """The window's all-simulated table without ``--config``: a seat per ``--players``
    (``HEADLESS_PLAYERS`` without it), the person at Seat 1 and bots at the others."""
    return TableConfig.simulated(args.players if args.players is not None else HEADLESS_PLAYERS)


def config_path(args: argparse.Namespace) -> Path | None:
    return Path(args.config) if args.config else None


def journal_file(args: argparse.Namespace, records: Path) -> Path | None:
    """The journal the kiosk keeps: --journal, else journal.sqlite3 in the records folder."""
    if args.no_journal:
        return None
    return Path(args.journal) if args.journal else records / JOURNAL_NAME


def headless_players(args: argparse.Namespace, config: TableConfig | None) -> int:
    """How many bots play the headless game: ``--players``, else the bot seats of
    ``--config``, else ``HEADLESS_PLAYERS``."""
    if args.players is not None:
        return int(args.players)
    if config is None:
        return HEADLESS_PLAYERS
    return sum(1 for seat in config.seats if seat.bot)


def headless_table(config: TableConfig, players: int, source: str) -> TableConfig:
    """``config`` (read from ``source``) with ``players`` bots at its first seats, no one else.

    Headless, nobody sits at the table, so the bots take the first seats: the player
    the record calls seat N sits at the table's Seat N, and the printed sheet, the
    record's replay, the results screen and the history name every seat alike.
    Refused (``TableError``) when the table has too few seats, or when one of them has a
    real reader or real buttons, which a bot cannot use.
    """
    seats = config.seats
    if players > len(seats):
        raise TableError(
            say_plural(
                "--players {count}: {config} has {n} seat; choose --players {n}, or add "
                "[[seat]] tables",
                "--players {count}: {config} has {n} seats; choose --players {n} or fewer, or "
                "add [[seat]] tables",
                len(seats),
                count=Verbatim(str(players)),
                config=Verbatim(source),
            )
        )
    for seat in seats[:players]:
        if seat.reader != MOCK or seat.buttons is not None:
            raise TableError(
                say(
                    "{config}: headless, bots play at the first {count} seats, but Seat "
                    "{seat}'s reader or buttons are real and a bot cannot use them; choose "
                    "fewer --players, or run the table with a display",
                    config=Verbatim(source),
                    count=players,
                    seat=seat.index + 1,
                )
            )
    return replace(config, seats=tuple(replace(seat, bot=seat.index < players) for seat in seats))


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
    parser.add_argument(
        "--game",
        default=None,
        help=f"the game to play (default {DEMO_GAME}): headless, the bots play it; in the "
        "window without --config, it starts by itself with you at Seat 1 and bots at the "
        "other seats",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help=f"players of that game (default {HEADLESS_PLAYERS}; headless with --config, its "
        "bot seats' count): headless, bots at the table's first seats; in the window "
        "without --config, a table of that many seats, you and the bots",
    )
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
