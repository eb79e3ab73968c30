"""Reading a TOML configuration: typed getters whose every error names the key and the fix.

``table_config`` (the table's ``table.toml``) and ``cafe`` (its ``[cafe]``
section) both read through ``Reader``, so a bad value is refused the same way
everywhere: ``<file>: <key> <problem>; <fix>``, on one line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeVar

from controller.games.base import TableError
from controller.games.words import Text, Verbatim, Words, as_arg, say
from controller.words.safe_text import one_line

T = TypeVar("T")


class ConfigError(TableError, ValueError):
    """The configuration file is unreadable or has a bad key."""

    def __init__(self, message: Words) -> None:
        # Values quoted from the file must not break the one-line message (a Text's
        # values are made one line where it is printed).
        super().__init__(one_line(message) if isinstance(message, str) else message)


NAME_MAX, PATH_MAX = 255, 4095


def path_words(text: str) -> Text | None:
    """Why ``text`` cannot be a file or port name on this system, or None if it can."""
    if "\x00" in text:
        return say("it holds a NUL character")
    if len(os.fsencode(text)) > PATH_MAX:
        return say("it is longer than {most} bytes", most=Verbatim(str(PATH_MAX)))
    if any(len(os.fsencode(part)) > NAME_MAX for part in text.split("/")):
        return say("a part of it is longer than {most} bytes", most=Verbatim(str(NAME_MAX)))
    return None


def path_problem(text: str) -> str | None:
    """``path_words`` in English, for the journal's English messages."""
    from controller.words import Presenter  # the presenter reads the configuration's types

    words = path_words(text)
    return None if words is None else Presenter()(words)


def source_words(source: str) -> Verbatim:
    """The file an error is about, as it names it (on one line, never translated)."""
    return Verbatim(one_line(source))


def value_words(value: object) -> Verbatim:
    """A value quoted from the file as the file writes it (on one line, never translated)."""
    return Verbatim(one_line(repr(value)))


def bounds_words(low: float, high: float, value: object) -> dict[str, Verbatim]:
    """The fields of a range error: the limits as the file writes them, and the value given."""
    return {"low": Verbatim(str(low)), "high": Verbatim(str(high)), "value": value_words(value)}


def listed_words(names: list[str]) -> Verbatim:
    """Names a person copies into the file, comma-separated as written there."""
    return Verbatim(", ".join(names))


class Reader:
    """Typed getters that name the key and the fix in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: Words, fix: Words) -> ConfigError:
        return ConfigError(
            say(
                "{source}: {key} {problem}; {fix}",
                source=Verbatim(one_line(self.source)),
                key=Verbatim(one_line(key)),  # a quoted TOML key may hold a line break
                problem=as_arg(one_line(problem) if isinstance(problem, str) else problem),
                fix=as_arg(one_line(fix) if isinstance(fix, str) else fix),
            )
        )

    def known(self, table: Mapping[str, Any], where: str, keys: set[str]) -> None:
        for key in table:
            if key not in keys:
                name = f"{where}.{key}" if where else key
                raise self.fail(
                    name,
                    say("is not a setting the table knows"),
                    say("use one of: {keys}", keys=listed_words(sorted(keys))),
                )

    def table(self, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(
                key,
                say("must be a table"),
                say("write it as {section} with keys below it", section=Verbatim(f"[{key}]")),
            )
        return value

    def string(self, table: Mapping[str, Any], key: str, default: str) -> str:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, str) or not value:
            raise self.fail(
                key,
                say("must be a text in quotes, not {value}", value=value_words(value)),
                say('e.g. "mock"'),
            )
        return value

    def path(self, table: Mapping[str, Any], key: str, default: str) -> str:
        """A text that the system can take as a file or port name."""
        value = self.string(table, key, default)
        problem = path_words(value)
        if problem is not None:
            raise self.fail(
                key,
                say("is not a usable path: {problem}", problem=problem),
                say("fix it"),
            )
        return value

    def boolean(self, table: Mapping[str, Any], key: str, default: bool) -> bool:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, bool):
            raise self.fail(
                key,
                say("must be true or false, not {value}", value=value_words(value)),
                say("write true or false"),
            )
        return value

    def integer(self, table: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            bounds = bounds_words(low, high, value)
            raise self.fail(
                key,
                say("must be a whole number {low}..{high}, not {value}", **bounds),
                say("fix it"),
            )
        return value

    def number(
        self, table: Mapping[str, Any], key: str, default: float, low: float, high: float
    ) -> float:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            bounds = bounds_words(low, high, value)
            raise self.fail(
                key, say("must be a number {low}..{high}, not {value}", **bounds), say("fix it")
            )
        return float(value)

    def choice(self, table: Mapping[str, Any], key: str, options: tuple[T, ...], default: T) -> T:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if value not in options:
            raise self.fail(
                key,
                say("is {value}", value=value_words(value)),
                say("use one of {choices}", choices=listed_words([repr(o) for o in options])),
            )
        result: T = value
        return result
