"""The table's command line: ``replay`` a game record, run the ``kiosk``.

Every failure a user can cause ends with one clear line on standard error and
exit status 2; nothing is printed on standard output then.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from controller import (
    app,
    assign,
    doctor,
    journal_cli,
    scoresheet,
    staff_cli,
    tags_cli,
    terminal_words,
)
from controller.config import load
from controller.games import specs
from controller.games.base import TableError
from controller.games.words import Items, Verbatim, say, say_plural
from controller.record import decode, replay
from controller.safe_text import one_line
from controller.sd_notify import Notifier
from hardware.errors import HardwareError
from hub import cli as hub_cli

USAGE_ERROR = 2


def _read_input(name: str) -> str:
    """The record's text; bytes are decoded here (strict UTF-8, whatever the locale says)."""
    if name == "-":
        return decode(sys.stdin.buffer.read())
    shown = Verbatim(one_line(name))
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise TableError(say("cannot open {file}: no such file", file=shown)) from None
    except IsADirectoryError:
        raise TableError(
            say("cannot open {file}: it is a folder, not a record file", file=shown)
        ) from None
    except OSError as exc:
        raise TableError(
            say("cannot open {file}: {reason}", file=shown, reason=Verbatim(str(exc.strerror)))
        ) from None
    except ValueError:  # a NUL in the name: no file can have it
        raise TableError(
            say("cannot open {file}: no file name holds a NUL character", file=shown)
        ) from None
    return decode(data)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record and print its score sheet (or the spec's JSON object)."""
    try:
        text = _read_input(args.file)
    except TableError as exc:
        print(one_line(terminal_words.presenter(args)(exc.text)), file=sys.stderr)
        return USAGE_ERROR
    try:
        engine = replay(text)
    except TableError as exc:
        # The record format's own error line: ``line N:`` and the record's 0-based seats,
        # in English whatever the language, so it matches the record it points at.
        print(one_line(str(exc)), file=sys.stderr)
        return USAGE_ERROR
    if args.json:
        print(json.dumps(scoresheet.report_json(engine)))
    else:
        print(scoresheet.render(engine, terminal_words.presenter(args)), end="")
    return 0


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
    return app.run(args)


def kiosk_argument_problems(args: argparse.Namespace) -> None:
    """Refuse, before anything starts, a headless game that the bots could never play.

    ``--game`` must be a game the table runs, and the bots need a seat count
    the game allows: ``--players`` on the simulated table, or the bot seats of
    ``--config``. (With a window, people play and the table's menus check.)
    """
    games = specs()
    game = games.get(args.game)
    if game is None:
        raise TableError(
            say(
                "--game {game}: the table has no such game; choose one of {games}",
                game=Verbatim(repr(args.game)),
                games=Items(tuple(Verbatim(g) for g in games), either=True),
            )
        )
    low, high = game.min_players, game.max_players
    if args.config is None:
        if not low <= args.players <= high:
            raise TableError(
                say(
                    "--players {count}: {game} is played by {low} to {high} players; "
                    "choose --players {low} to {high}",
                    count=Verbatim(str(args.players)),
                    game=Verbatim(game.title),
                    low=low,
                    high=high,
                )
            )
        return
    if not args.headless and (app.display_available() or Notifier().enabled):
        return  # a window (under systemd the kiosk waits for its display): people play
    config = load(Path(args.config))
    bots = sum(1 for seat in config.seats if seat.bot)
    if not low <= bots <= high:
        raise TableError(
            say_plural(
                "{config}: headless, only bots play, and {game} needs {low} to {high} of them; "
                "the configuration has {n} bot seat (set bot = true in its [[seat]] tables, "
                "or run it with a display)",
                "{config}: headless, only bots play, and {game} needs {low} to {high} of them; "
                "the configuration has {n} bot seats (set bot = true in its [[seat]] tables, "
                "or run it with a display)",
                bots,
                config=Verbatim(str(args.config)),
                game=Verbatim(game.title),
                low=low,
                high=high,
            )
        )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cafe-table",
        description="The game-cafe table: replay game records, run the kiosk.",
    )
    terminal_words.add_argument(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    replay_cmd = commands.add_parser(
        "replay", help="re-score a game record", description="Re-score a table-record/1 file."
    )
    replay_cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    replay_cmd.add_argument("file", metavar="FILE", help="the record file, or - for stdin")
    replay_cmd.set_defaults(func=cmd_replay)
    kiosk_cmd = commands.add_parser(
        "kiosk",
        help="run the table (simulated hardware unless a config says otherwise)",
        description="Run the kiosk table. Without a display, bots play one game headless.",
    )
    app.add_arguments(kiosk_cmd)
    kiosk_cmd.set_defaults(func=cmd_kiosk)
    journal_cli.add_commands(commands)
    assign.add_command(commands)
    tags_cli.add_command(commands)
    staff_cli.add_command(commands)
    hub_cli.add_command(commands)
    doctor.add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
