"""``cafe-table staff set-pin``: store the staff PIN in ``table.toml``, hashed, never in clear.

The PIN is asked for twice without echo (or read as one line from standard
input when that is not a terminal, for scripted installs), hashed with
scrypt, and written as ``pin_hash`` in the file's ``[staff]`` section (added
if missing; the rest of the file is kept as it is, and the new file replaces
the old one atomically). Without ``--config`` the line is printed instead.
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import sys
import tempfile
from pathlib import Path

from controller.config.reading import ConfigError
from controller.config.table_config import load
from controller.games.words import Verbatim, say
from controller.tags.staff_pin import PinError, hash_pin, parse_pin
from controller.words import Presenter
from controller.words import terminal as terminal_words

USAGE_ERROR = 2
COMMAND = "staff set-pin"
ENGLISH = Presenter()
_SECTION = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
_PIN_HASH = re.compile(r"^\s*pin_hash\s*=")


def read_pin(present: Presenter = ENGLISH) -> str:
    """The new PIN, as button letters; PinError if it is not one, or the two entries differ."""
    if not sys.stdin.isatty():
        return parse_pin(sys.stdin.readline())
    hint = present(say("PIN (4-12 presses of P = prev, O = ok, N = next, e.g. PNNOPN): "))
    first = parse_pin(getpass.getpass(hint))
    if parse_pin(getpass.getpass(present(say("The same PIN again: ")))) != first:
        raise PinError(say("the two PINs differ; nothing was changed"))
    return first


def with_pin_hash(text: str, pin_hash: str) -> str:
    """``text`` (a table.toml) with ``[staff] pin_hash`` set, everything else unchanged."""
    lines = text.splitlines(keepends=True)
    line = f'pin_hash = "{pin_hash}"\n'
    section = None
    staff_at = None
    for i, raw in enumerate(lines):
        match = _SECTION.match(raw)
        if match:
            section = match.group(1).strip()
            if section == "staff":
                staff_at = i
            continue
        if section == "staff" and _PIN_HASH.match(raw):
            lines[i] = line
            return "".join(lines)
    if staff_at is not None:
        lines.insert(staff_at + 1, line)
        return "".join(lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines) + f"\n[staff]\n{line}"


def set_pin(args: argparse.Namespace) -> int:
    present = terminal_words.presenter(args)
    try:
        pin_hash = hash_pin(read_pin(present))
    except PinError as exc:
        terminal_words.complain(args, COMMAND, exc.text)
        return USAGE_ERROR
    if args.config is None:
        print(f'[staff]\npin_hash = "{pin_hash}"')
        return 0
    path = Path(args.config)
    try:
        load(path)  # a broken file is refused before anything is written
        text = path.read_text(encoding="utf-8")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(with_pin_hash(text, pin_hash))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except ConfigError as exc:
        terminal_words.complain(args, COMMAND, exc.text)
        return USAGE_ERROR
    except OSError as exc:
        problem = say(
            "cannot write {file} ({reason})",
            file=Verbatim(str(path)),
            reason=Verbatim(str(exc.strerror)),
        )
        terminal_words.complain(args, COMMAND, problem)
        return USAGE_ERROR
    done = say(
        "The staff PIN is set in {file} (stored hashed); restart the kiosk to use it.",
        file=Verbatim(str(path)),
    )
    print(present(done))
    return 0


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    staff = commands.add_parser(
        "staff", help="staff settings (the staff PIN)", description=__doc__.splitlines()[0]
    )
    staff_commands = staff.add_subparsers(dest="staff_command", required=True, metavar="COMMAND")
    pin = staff_commands.add_parser(
        "set-pin",
        help="store a new staff PIN (hashed) in table.toml",
        description="Store a new staff PIN, hashed, as [staff] pin_hash in table.toml.",
    )
    pin.add_argument("--config", metavar="FILE", help="the table.toml to write (else: print)")
    pin.set_defaults(func=set_pin)
