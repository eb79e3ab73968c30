"""The table's command line: every subcommand's parser, and the dispatch.

Every failure a user can cause ends with one clear line on standard error and
exit status 2; nothing is printed on standard output then.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

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
    """Run one command (``argv``, else the process's arguments); its exit status."""
    return _dispatch(argv)[1]


def program() -> NoReturn:
    """The process's entry (the ``cafe-table`` script, ``python -m controller``).

    A kiosk has closed everything it opened by the time its command returns:
    journal, LEDs, readers, the window, the café link. What the interpreter
    would do next (free every object, run pygame's ``atexit`` quit) was about
    80% of a ``systemctl stop`` (0.5-0.8 s of 0.6-0.9 s on an x86 core, far
    more on a Pi), inside the unit's stop timeout and the 2 s the issue asks
    for. So after the kiosk the output is flushed and the process leaves at
    once (``os._exit``); every other command ends the usual way.
    """
    args, status = _dispatch(None)
    if args.command == "kiosk":
        logging.shutdown()  # flushes the log's handlers
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


def _dispatch(argv: Sequence[str] | None) -> tuple[argparse.Namespace, int]:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return args, status
