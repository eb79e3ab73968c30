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
from importlib import import_module
from typing import NoReturn

from controller.words import terminal as terminal_words

# Each subcommand's module and the function that adds its commands, in the order ``--help``
# lists them. A command line loads only the module of the command it runs (the kiosk's
# run time, the journal, the doctor's checks are not imported for a replay), and every
# module when it must list them all: ``--help``, no command, or one it does not know.
SUBCOMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("controller.cli.replay", "add_command", ("replay",)),
    ("controller.cli.kiosk", "add_command", ("kiosk",)),
    ("controller.cli.journal", "add_commands", ("history", "export", "recover")),
    ("controller.cli.assign", "add_command", ("assign-readers",)),
    ("controller.cli.tags", "add_command", ("tags",)),
    ("controller.cli.staff", "add_command", ("staff",)),
    ("hub.cli", "add_command", ("hub",)),
    ("controller.cli.doctor", "add_command", ("doctor",)),
    ("controller.cli.dev", "add_command", ("dev",)),
)


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` runs when it plainly names one (after ``--lang X``, if
    given), else None: then every subcommand is loaded and argparse says what is wrong."""
    words = list(argv)
    if words[:1] == ["--lang"]:
        words = words[2:]
    elif words and words[0].startswith("--lang="):
        words = words[1:]
    if words and any(words[0] in names for _, _, names in SUBCOMMANDS):
        return words[0]
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with ``argv``, only the subcommand it names, if any."""
    parser = argparse.ArgumentParser(
        prog="cafe-table",
        description="The game-cafe table: replay game records, run the kiosk.",
    )
    terminal_words.add_argument(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = None if argv is None else _command_named(argv)
    for module, adds, names in SUBCOMMANDS:
        if named is None or named in names:
            getattr(import_module(module), adds)(commands)
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
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    status: int = args.func(args)
    return args, status
