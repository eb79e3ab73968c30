"""The table's command line: every subcommand's parser, and the dispatch.

Every failure a user can cause ends with one clear line on standard error and
exit status 2; nothing is printed on standard output then.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

from controller.cli import assign, dev, doctor, kiosk, replay
from controller.cli import journal as journal_cli
from controller.cli import staff as staff_cli
from controller.cli import tags as tags_cli
from controller.words import terminal as terminal_words
from hub import cli as hub_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cafe-table",
        description="The game-cafe table: replay game records, run the kiosk.",
    )
    terminal_words.add_argument(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    replay.add_command(commands)
    kiosk.add_command(commands)
    journal_cli.add_commands(commands)
    assign.add_command(commands)
    tags_cli.add_command(commands)
    staff_cli.add_command(commands)
    hub_cli.add_command(commands)
    doctor.add_command(commands)
    dev.add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
