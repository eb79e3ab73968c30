"""A game's options, declared once and read from a record header before its engine sees them.

Each game declares its options in one place, as a tuple of ``OptionSpec`` (the
record key, the type, the default, the limits, the rulebook's words) held by a
frozen dataclass derived from ``GameOptions`` whose fields are named after the
keys. The game's ``GameSpec.options`` is that same tuple (the menu, the options
screen and ``table.toml`` read it), and the engine's ``from_header`` calls the
dataclass's ``read``: the one parser here refuses a header's unknown key, a
value of the wrong type or out of its limits, fills in the defaults and hands
the engine a typed value. What depends on more than one option or on the
players (Oh Pshaw's named schedules and its largest hand) is resolved in the
game's own module, from that typed value; no engine restates a default or a limit.

Like the rest of ``controller/games``, this module imports the standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from controller.games.base import JSON, BadOption, describe, read_options
from controller.games.words import Items, Verbatim, Words, say


class OptionKind(enum.StrEnum):
    """The type of an option's value, as a record header writes it."""

    FLAG = "flag"  # true / false
    NUMBER = "number"  # a whole number in [low, high]
    CHOICE = "choice"  # one of ``choices``
    SCHEDULE = "schedule"  # one of ``choices`` or a list of whole numbers (Oh Pshaw's hand sizes)


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its record key, its type and limits, and how the rulebook names it.

    ``default`` is what a header without the key means; ``None`` means "derived
    from the number of players" (the game's own module resolves it). ``low``/``high``
    bound a number (``None``: no bound, or one that depends on the players and the
    game resolves); ``choices`` lists the words a choice (or a named schedule) accepts.
    """

    key: str
    label: Words  # the rulebook's name for it, for the options screen
    kind: OptionKind
    default: Any
    explanation: Words = ""  # one line a player understands
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    # How a choice (or a named schedule) reads on screen, by its record word
    # ("mild" -> say("mild")); a choice without an entry is shown as written.
    choice_words: Mapping[str, Words] = field(default_factory=dict)
    # The options screen's step through a number without ``high`` (it offers 21 values).
    step: int = 1

    def check(self, value: object) -> None:
        """Raise BadOption, naming this option, if ``value`` is not of its type and limits."""
        if self.kind is OptionKind.FLAG:
            if not isinstance(value, bool):
                raise BadOption(
                    say(
                        'option "{option}" must be true or false, not {value}',
                        option=Verbatim(self.key),
                        value=Verbatim(describe(value)),
                    )
                )
        elif self.kind is OptionKind.NUMBER:
            self._check_number(value)
        elif self.kind is OptionKind.CHOICE:
            if value not in self.choices:
                raise BadOption(
                    say(
                        'option "{option}" must be {choices}, not {value}',
                        option=Verbatim(self.key),
                        choices=_either(self.choices),
                        value=Verbatim(describe(value)),
                    )
                )
        elif (
            self.kind is OptionKind.SCHEDULE
            and not isinstance(value, list)
            and value not in self.choices
        ):
            # The list's hand sizes depend on the largest hand: the game checks them.
            raise BadOption(
                say(
                    'option "{option}" must be {choices} or a list of hand sizes, not {value}',
                    option=Verbatim(self.key),
                    choices=Verbatim(", ".join(f'"{c}"' for c in self.choices)),
                    value=Verbatim(describe(value)),
                )
            )

    def value_text(self, value: object) -> str:
        """A value as a player reads it on the options screen ("on", "mild", "1, 2, 3")."""
        if self.kind is OptionKind.FLAG:
            return "on" if value else "off"
        if value is None:
            return "as the rulebook sets it for the players"
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return str(value)

    def value_words(self, value: object) -> Words:
        """A value as a player reads it on the options screen, in the reader's language."""
        if self.kind is OptionKind.FLAG:
            return say("on") if value else say("off")
        if value is None:
            return say("as the rulebook sets it for the players")
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)  # hand sizes: numbers only
        if isinstance(value, str):
            # A game names its choices in ``choice_words``; one it does not name shows as
            # written (and the pseudo-locale test counts it as untranslated).
            return self.choice_words.get(value, value)
        return str(value)

    def _check_number(self, value: object) -> None:
        if value is None and self.default is None:
            return  # "derived from the players", written out as null
        low, high = self.low, self.high
        whole = isinstance(value, int) and not isinstance(value, bool)
        if (
            isinstance(value, int)
            and whole
            and (low is None or low <= value)
            and (high is None or value <= high)
        ):
            return
        option, shown = Verbatim(self.key), Verbatim(describe(value))
        if low is not None and high is not None and high == low + 1:
            # Two values allowed: name them both, whatever was wrong.
            raise BadOption(
                say(
                    'option "{option}" must be {low} or {high}, not {value}',
                    option=option,
                    low=low,
                    high=high,
                    value=shown,
                )
            )
        if low is not None and high is None:
            raise BadOption(
                say(
                    'option "{option}" must be a whole number from {low}, not {value}',
                    option=option,
                    low=low,
                    value=shown,
                )
            )
        if not whole:
            raise BadOption(
                say(
                    'option "{option}" must be a whole number, not {value}',
                    option=option,
                    value=shown,
                )
            )
        if low is not None and high is not None:
            raise BadOption(
                say(
                    'option "{option}" must be {low}..{high}, not {value}',
                    option=option,
                    low=Verbatim(str(low)),
                    high=Verbatim(str(high)),
                    value=shown,
                )
            )
        assert high is not None  # a whole number below no ``low``, so above ``high``
        raise BadOption(
            say(
                'option "{option}" must be at most {high}, not {value}',
                option=option,
                high=high,
                value=shown,
            )
        )


def _either(words: Sequence[str]) -> Items:
    """Record words, quoted as a header writes them: '"a", "b" or "c"' in any language."""
    return Items(tuple(Verbatim(f'"{w}"') for w in words), either=True)


def read_declared(
    header: Mapping[str, Any], declared: Sequence[OptionSpec], game: str
) -> dict[str, Any]:
    """The header's ``options`` checked against ``declared``, every default filled in.

    BadOption, in words a player understands, for an ``options`` that is not an
    object, an unknown key (the known ones listed), or a value of the wrong type
    or out of its limits; the checks run in the order the options are declared.
    A schedule's list comes back as a tuple (the typed options are frozen).
    """
    given = read_options(header, (option.key for option in declared), game)
    values: dict[str, Any] = {}
    for option in declared:
        if option.key in given:
            option.check(given[option.key])
        value = given.get(option.key, option.default)
        values[option.key] = tuple(value) if isinstance(value, list) else value
    return values


class GameOptions:
    """A game's options as the engine receives them: checked, defaults filled in, typed.

    A game derives a frozen dataclass from it whose fields are its option keys
    and sets ``declared`` (its ``OptionSpec`` tuple, which its ``GameSpec``
    lists as ``options``). ``read`` is the one way from a header to the value.
    """

    declared: ClassVar[tuple[OptionSpec, ...]] = ()

    @classmethod
    def read(cls, header: Mapping[str, Any], game: str) -> Self:
        """The options of a record header for ``game``; BadOption on a bad one."""
        return cls(**read_declared(header, cls.declared, game))

    @classmethod
    def chosen(cls, game: str, **options: Any) -> Self:
        """The options with these keys changed from their defaults (checked as a header's)."""
        return cls.read({"options": options}, game)

    def changed(self) -> JSON:
        """The options that differ from their defaults, as a header writes them."""
        out: JSON = {}
        for option in self.declared:
            value = getattr(self, option.key)
            if value != option.default:
                out[option.key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class NoOptions(GameOptions):
    """The options of a game that has none: any key in the header is refused."""
