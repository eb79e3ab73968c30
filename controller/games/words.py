"""Player-facing words as data: a message key with typed arguments.

Engines, adapters, the table and the display never build a sentence a person
reads. They build a ``Text``: the English source sentence, which is also the
gettext catalog key (msgid), and its arguments as typed values:

    say("{player} wins trick {trick}", player=Player(2), trick=5)
    say_plural("needs {n} more trick", "needs {n} more tricks", 3)

One presenter (``controller.words.Presenter``) turns a ``Text`` into the text
for one reader: it looks the key up in that reader's language, names an engine
``Player`` by the physical seat (counted from 1) or by the nickname that sits
there, writes a ``Card`` the way its game names cards (suit symbols, Oss's
tribe names), formats numbers and seconds for the language, and joins lists
with the language's "and"/"or".

``say`` and ``say_plural`` are also the keywords the catalog extractor looks
for (``.venv/bin/python -m controller.words update``), so every sentence written with
them lands in the catalogs. Write the key as a whole sentence with named
fields (``{player}``, never ``%s`` and never an f-string): translators move
the fields around, and a sentence glued from pieces cannot be translated.

``str(text)`` is the English rendering for places with no reader, such as a
replay's error line: there players are named by the record's own 0-based
``seat`` numbers ("seat 2"), so the line matches the record it points at.

Like the rest of ``controller/games``, this module imports the standard library only.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, slots=True)
class Player:
    """An engine player (0-based, as records number them); shown as the seat where they sit."""

    index: int


@dataclass(frozen=True, slots=True)
class Seat:
    """A physical seat of the table (0-based inside the program, shown counted from 1)."""

    index: int


@dataclass(frozen=True, slots=True)
class Card:
    """A card in its game's notation ("QH", "R13", "T1-4b"); the game's deck says how it reads."""

    notation: str


@dataclass(frozen=True, slots=True)
class Field:
    """A report field by its key ("hand_size"): its game's spec (``GameSpec.field_labels``)
    or the names every card game shares say how it reads ("hand size")."""

    key: str


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit letter of a French-suited deck ("S", "H", "D", "C"): shown as ♠ ♥ ♦ ♣."""

    code: str


@dataclass(frozen=True, slots=True)
class Seconds:
    """A duration in seconds (toss times), formatted for the language ("0,372 s" in German)."""

    value: float


@dataclass(frozen=True, slots=True)
class Signed:
    """A score change shown with its sign ("+3", "-1", "0")."""

    value: int


@dataclass(frozen=True, slots=True)
class Items:
    """Several values joined the language's way: "A, B and C" or, with ``either``, "A, B or C"."""

    values: tuple[Arg, ...]
    either: bool = False


@dataclass(frozen=True, slots=True)
class Verbatim:
    """Text shown as it is, never translated: a nickname, a file name, a tag id, a version.

    Use it only for what no language would change; everything else is a ``Text``.
    """

    text: str


Arg = Union[int, float, Player, Seat, Card, Field, Suit, Seconds, Signed, Items, Verbatim, "Text"]


@dataclass(frozen=True, slots=True)
class Text:
    """One message: its catalog key (the English sentence) and its typed arguments.

    ``plural`` and ``count`` make it a plural message (gettext's ``ngettext``):
    ``key`` is the singular, ``plural`` the English plural, and ``count`` picks
    the form; ``count`` is also available to the sentence as ``{n}``.
    """

    key: str
    args: tuple[tuple[str, Arg], ...] = ()
    plural: str | None = None
    count: int | None = None

    def arguments(self) -> dict[str, Arg]:
        """The arguments by name, with ``n`` = ``count`` for a plural message."""
        named: dict[str, Arg] = dict(self.args)
        if self.count is not None:
            named.setdefault("n", self.count)
        return named

    def english(self) -> str:
        """The English source sentence this message chooses (singular or plural)."""
        if self.plural is not None and self.count is not None and self.count != 1:
            return self.plural
        return self.key

    def __str__(self) -> str:
        return fill(self.english(), {k: _record_words(v) for k, v in self.arguments().items()})


def say(key: str, /, **args: Arg) -> Text:
    """A message: ``key`` is the English sentence with ``{named}`` fields, ``args`` fill them."""
    return Text(key, tuple(args.items()))


def say_plural(singular: str, plural: str, count: int, /, **args: Arg) -> Text:
    """A message whose wording depends on ``count`` ("1 trick" / "2 tricks"); ``{n}`` is it."""
    return Text(singular, tuple(args.items()), plural, count)


Words = Text | str
"""What a view field or a refusal may hold while rooms move to ``Text``: a plain ``str``
is shown as it is (and counted as untranslated by the pseudo-locale test)."""


def as_arg(words: Words) -> Arg:
    """``words`` as an argument of another message (a plain ``str`` stays as it is)."""
    return Verbatim(words) if isinstance(words, str) else words


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with its ``{name}`` fields replaced; unknown fields stay as written.

    ``str.format`` would raise on a translator's typo; a table must still show
    a sentence, so a field without a value is left visible instead.
    """
    out: list[str] = []
    for literal, name, spec, _conversion in string.Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        if name in values:
            out.append(values[name])
        else:
            out.append("{" + name + (":" + spec if spec else "") + "}")
    return "".join(out)


def fields(template: str) -> set[str]:
    """The ``{name}`` fields a sentence uses (the catalog test compares them per language)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _record_words(value: Arg) -> str:
    """An argument in English as a record's error line writes it (players 0-based)."""
    if isinstance(value, Player):
        return f"seat {value.index}"
    if isinstance(value, Seat):
        return f"seat {value.index + 1}"
    if isinstance(value, Card):
        return value.notation
    if isinstance(value, Suit):
        return value.code
    if isinstance(value, Seconds):
        return f"{value.value:.3f} s"
    if isinstance(value, Signed):
        return f"{value.value:+d}" if value.value else "0"
    if isinstance(value, Items):
        parts = [_record_words(v) for v in value.values]
        joint = " or " if value.either else " and "
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + joint + parts[-1]
    if isinstance(value, Verbatim):
        return value.text
    if isinstance(value, Text):
        return str(value)
    return str(value)
