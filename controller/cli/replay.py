"""``cafe-table replay FILE``: re-score a game record (the record spec's replay command).

Its output and exit statuses are a contract (../shared/spec/game-record.md):
the score sheet, or with ``--json`` the spec's JSON object; a bad record is one
line on standard error naming the record's line, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from controller.games.base import TableError
from controller.games.words import Verbatim, say
from controller.records import scoresheet
from controller.records.record import decode, replay
from controller.words import terminal as terminal_words
from controller.words.safe_text import one_line

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


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``cafe-table replay [--json] FILE``."""
    replay_cmd = commands.add_parser(
        "replay", help="re-score a game record", description="Re-score a table-record/1 file."
    )
    replay_cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    replay_cmd.add_argument("file", metavar="FILE", help="the record file, or - for stdin")
    replay_cmd.set_defaults(func=cmd_replay)
