"""The command line's language: which presenter writes what ``cafe-table`` prints.

People at the table and staff at the terminal read the same words: the
command line writes its messages in the table's language. It is, first found:
``--lang`` (before the command: ``cafe-table --lang de history``), the
``CAFE_TABLE_LANG`` environment variable, ``[table] language`` of the
``--config`` file the command was given, else English. JSON output, records
and CSV files never change with the language.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from controller.games.words import Text, Verbatim, Words, as_arg, say, say_plural
from controller.words import LANGUAGES, Presenter
from controller.words.catalogs import ENGLISH
from controller.words.safe_text import one_line

ENVIRONMENT = "CAFE_TABLE_LANG"


def language_of(config: str | Path | None) -> str | None:
    """``[table] language`` of a table.toml, or None when it has none (or cannot be read).

    Read on its own and defensively: a broken file is reported by the
    command that loads it, in whatever language is chosen without it.
    """
    if config is None:
        return None
    try:
        data: Mapping[str, Any] = tomllib.loads(Path(config).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    table = data.get("table")
    value = table.get("language") if isinstance(table, dict) else None
    return value if isinstance(value, str) and value in LANGUAGES else None


def table_language(config: object) -> str:
    """The table's language from a loaded configuration (``[table] language``), else English.

    Read with ``getattr``: the configuration gains its ``language`` in another change.
    """
    value = getattr(config, "language", None)
    return value if isinstance(value, str) and value in LANGUAGES else ENGLISH


def chosen_language(args: argparse.Namespace) -> str:
    """The language of this run: ``--lang``, then the environment, then the config, then English."""
    for candidate in (
        getattr(args, "lang", None),
        os.environ.get(ENVIRONMENT),
        language_of(getattr(args, "config", None)),
    ):
        if candidate in LANGUAGES:
            return str(candidate)
    return ENGLISH


def presenter(args: argparse.Namespace) -> Presenter:
    """The presenter that writes this run's messages: the staff's words come first
    where a key is also another room's (the history's "playing" is "läuft" here)."""
    return Presenter(chosen_language(args), domain="staff")


def complain(
    args: argparse.Namespace, command: str, words: Words, out: TextIO | None = None
) -> None:
    """One line on standard error: ``command: what happened`` in the run's language."""
    line = presenter(args)(
        say("{command}: {problem}", command=Verbatim(command), problem=as_arg(words))
    )
    print(one_line(line), file=sys.stderr if out is None else out)


def add_argument(parser: argparse.ArgumentParser) -> None:
    """The top-level ``--lang`` option."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help=f"the language of messages and score sheets (default: ${ENVIRONMENT}, "
        "else [table] language of --config, else en)",
    )


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``-aligned)."""
    fill = " " * max(0, width - columns(text))
    return fill + text if right else text + fill


def seconds(value: float) -> Text:
    """A wait or a timeout in whole seconds ("60 seconds"): a person's time, not a toss time."""
    return say_plural("{n} second", "{n} seconds", round(value))
