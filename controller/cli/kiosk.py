"""``cafe-table kiosk``: run the table, windowed or headless, after checking its arguments."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.config.table_config import load
from controller.games import specs
from controller.games.base import TableError
from controller.games.words import Items, Verbatim, say, say_plural
from controller.kiosk import arguments
from controller.kiosk import run as kiosk_run
from controller.kiosk import windowed as kiosk_window
from controller.kiosk.sd_notify import Notifier
from controller.words import terminal as terminal_words
from hardware.errors import HardwareError

USAGE_ERROR = 2


def cmd_kiosk(args: argparse.Namespace) -> int:
    """Check the kiosk's arguments (one line and exit 2 if wrong), then run it."""
    try:
        kiosk_argument_problems(args)
    except TableError as exc:
        terminal_words.complain(args, "kiosk", exc.text)
        return USAGE_ERROR
    except HardwareError as exc:
        terminal_words.complain(args, "kiosk", str(exc))
        return USAGE_ERROR
    return kiosk_run.run(args)


def kiosk_argument_problems(args: argparse.Namespace) -> None:
    """Refuse, before anything starts, a game that could never start.

    ``--game`` must be a game the table runs, and the players need a seat count
    the game allows: ``--players``, else (headless) the bot seats of ``--config``,
    and headless with ``--config`` as many seats with simulated devices at the
    front of the table (``arguments.headless_table``). In the window without
    ``--config`` either option starts the demo's game with the person and bots
    (``arguments.window_starts_a_game``); with ``--config`` people choose the game
    at the table and the table's menus check, so the options are refused there.
    """
    games = specs()
    game = games.get(arguments.demo_game(args))
    if game is None:
        raise TableError(
            say(
                "--game {game}: the table has no such game; choose one of {games}",
                game=Verbatim(repr(args.game)),
                games=Items(tuple(Verbatim(g) for g in games), either=True),
            )
        )
    low, high = game.min_players, game.max_players
    headless = args.headless or not (kiosk_window.display_available() or Notifier().enabled)
    if args.config is not None and not headless:
        # A window (under systemd the kiosk waits for its display): people play.
        if arguments.window_starts_a_game(args):
            raise TableError(
                say(
                    "--game and --players start the demo's game in a window without "
                    "--config; at the table of {config} the players choose the game on its "
                    "menu: leave them out, or add --headless for a game of bots",
                    config=Verbatim(str(args.config)),
                )
            )
        return
    if not headless and not arguments.window_starts_a_game(args):
        return  # the demo's window without a game to start: its menus check
    config = None if args.config is None else load(Path(args.config))
    players = arguments.headless_players(args, config)
    if config is not None and args.players is None and not low <= players <= high:
        raise TableError(
            say_plural(
                "{config}: headless, only bots play, and {game} needs {low} to {high} of them; "
                "the configuration has {n} bot seat (give --players, or set bot = true in its "
                "[[seat]] tables, or run it with a display)",
                "{config}: headless, only bots play, and {game} needs {low} to {high} of them; "
                "the configuration has {n} bot seats (give --players, or set bot = true in its "
                "[[seat]] tables, or run it with a display)",
                players,
                config=Verbatim(str(args.config)),
                game=Verbatim(game.title),
                low=low,
                high=high,
            )
        )
    if not low <= players <= high:
        raise TableError(
            say(
                "--players {count}: {game} is played by {low} to {high} players; "
                "choose --players {low} to {high}",
                count=Verbatim(str(players)),
                game=Verbatim(game.title),
                low=low,
                high=high,
            )
        )
    if config is not None:
        arguments.headless_table(config, players, str(args.config))


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``cafe-table kiosk [...]``: the table itself."""
    kiosk_cmd = commands.add_parser(
        "kiosk",
        help="run the table (simulated hardware unless a config says otherwise)",
        description="Run the kiosk table. Without a display, bots play one game headless.",
    )
    arguments.add_arguments(kiosk_cmd)
    kiosk_cmd.set_defaults(func=cmd_kiosk)
