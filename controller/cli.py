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

from controller import app, assign, doctor, journal_cli, scoresheet
from controller.games.base import TableError
from controller.record import replay

USAGE_ERROR = 2


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        with open(name, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        raise TableError(f"cannot open {name}: no such file") from None
    except IsADirectoryError:
        raise TableError(f"cannot open {name}: it is a folder, not a record file") from None
    except UnicodeDecodeError:
        raise TableError(f"cannot read {name}: a record must be UTF-8 text") from None
    except OSError as exc:
        raise TableError(f"cannot open {name}: {exc.strerror}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record and print its score sheet (or the spec's JSON object)."""
    try:
        engine = replay(_read_input(args.file))
    except TableError as exc:
        print(exc, file=sys.stderr)
        return USAGE_ERROR
    if args.json:
        print(json.dumps(scoresheet.report_json(engine)))
    else:
        print(scoresheet.render(engine), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m controller",
        description="The game-cafe table: replay game records, run the kiosk.",
    )
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
    kiosk_cmd.set_defaults(func=app.run)
    journal_cli.add_commands(commands)
    assign.add_command(commands)
    doctor.add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
