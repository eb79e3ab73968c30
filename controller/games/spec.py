"""What the table needs to know about a game, said once: the ``GameSpec``.

Every game module in this package ends with one ``SPEC``: the game's id and
title, how many may play, the deck it is played with (every card and its
notation), its options (names, types, defaults, limits, the rulebook's words),
the presets a menu offers, what the game requires of the table (Oss cannot be
dealt from a physical deck yet) and the words and symbols the display needs
(colours, genres). Every other room derives from it: the tag registry's
decks, the table's menu, the options screen, the display's vocabulary. Nothing
outside a game's module re-states a deck or a rule constant.

Like the rest of ``controller/games``, this module imports the standard library only.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.games.base import JSON, BadOption, MalformedAction, describe
from controller.games.cards import CardFace, CardType
from controller.games.words import Arg, Items, Text, Verbatim, Words, as_arg, say

if TYPE_CHECKING:
    from controller.games.base import Engine


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
    from the number of players" (``Engine`` resolves it). ``low``/``high`` bound
    a number; ``choices`` lists the words a choice (or a named schedule) accepts.
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
            raise BadOption(
                say(
                    'option "{option}" must be {choices} or a list of whole numbers, not {value}',
                    option=Verbatim(self.key),
                    choices=_either(self.choices),
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
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadOption(
                say(
                    'option "{option}" must be a whole number, not {value}',
                    option=Verbatim(self.key),
                    value=Verbatim(describe(value)),
                )
            )
        if self.low is not None and value < self.low:
            raise BadOption(
                say(
                    'option "{option}" must be at least {low}, not {value}',
                    option=Verbatim(self.key),
                    low=self.low,
                    value=value,
                )
            )
        if self.high is not None and value > self.high:
            raise BadOption(
                say(
                    'option "{option}" must be at most {high}, not {value}',
                    option=Verbatim(self.key),
                    high=self.high,
                    value=value,
                )
            )


def _either(words: Sequence[str]) -> Items:
    """Record words, quoted as a header writes them: '"a", "b" or "c"' in any language."""
    return Items(tuple(Verbatim(f'"{w}"') for w in words), either=True)


@dataclass(frozen=True)
class DeckSpec:
    """The physical deck a game is played with, as the tag registry enrolls it.

    ``cards`` lists every card's notation in a fixed order (a card printed
    several times, like Oskar's five zeros, appears that many times);
    ``card_type`` (the game's cards module) reads and writes that notation,
    names a card and describes its face, so nothing outside the game parses it.
    """

    id: str  # the registry's name for the deck, e.g. "standard-52"
    title: str
    cards: tuple[str, ...]
    card_type: CardType[Any]

    def canonical(self, text: object) -> str:
        """The canonical notation of a card written ``text``; BadCard if not a card."""
        return self.card_type.notation(self.card_type.parse(text))

    def distinct(self) -> tuple[str, ...]:
        """Each card notation once, in deck order."""
        return tuple(dict.fromkeys(self.cards))

    def name(self, notation: str) -> Words:
        """How the card written ``notation`` reads in a message ("Red 7", "Q♥"); a text
        that is not a card of this deck reads as written."""
        card = self._card(notation)
        return notation if card is None else self.card_type.name(card)

    def face(self, notation: str) -> CardFace:
        """What the face of the card written ``notation`` shows (a stranger: its notation)."""
        card = self._card(notation)
        return CardFace(notation) if card is None else self.card_type.face(card)

    def _card(self, notation: str) -> object | None:
        """The card written ``notation`` (any spelling the game accepts), or None."""
        try:
            card: object = self.card_type.parse(notation)
        except MalformedAction:
            return None
        return card


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """Words and symbols a game's display needs that the rest of its spec does not say.

    Every scene may read what is declared here (the generic scene reads
    ``verb_prompts``); a game with more to say subclasses it in its spec.py with
    typed fields (Oskar's genre words, Oshaka's colours), and its scene reads
    those attributes from the game's ``VOCABULARY``.
    """

    # What a seat is asked to do, by the verb the engine expects of it ("play a card");
    # a verb without an entry gets the display's shared prompt.
    verb_prompts: Mapping[str, Words] = field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A named set of options the menu offers as one line (a rulebook variant)."""

    label: Words
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Starter:
    """How the rulebook picks who starts, asked at the table before the game begins.

    The table shows ``question``; the first joined seat to tap a card or press
    OK is named in the header under ``key`` (an engine seat). Nobody answering
    within the table's time leaves the header's random draw (``new_header``).
    """

    key: str  # the header key that names the starting seat, e.g. "lead"
    question: Words  # the rulebook's words, e.g. "Who most recently helped someone?"
    role: Words  # what that seat does, e.g. "leads the first trick"


class Requirement(enum.StrEnum):
    """Something a game needs from the table before the menu may offer it."""

    # Hands and revealed cards cannot (yet) be entered by tapping physical
    # cards, so the table must deal from its virtual deck.
    VIRTUAL_DEAL = "virtual-deal"


@dataclass(frozen=True)
class GameSpec:
    """Everything about one game that more than its engine needs to know."""

    id: str  # the record's "game"
    key: str  # the id as a module name: the folder controller/games/<key>/, display/scenes/<key>.py
    title: str
    min_players: int
    max_players: int
    deck: DeckSpec
    engine: type[Engine]
    options: tuple[OptionSpec, ...] = ()
    presets: tuple[Preset, ...] = ()
    requirements: frozenset[Requirement] = frozenset()
    # The rulebook's question that picks the starting seat at the table (None:
    # the table draws it).
    starter: Starter | None = None
    # The rules page a seat's long press of OK shows, written for players: the
    # rulebook in short and the table's rulings where the rulebook leaves a choice.
    rules: tuple[Words, ...] = ()
    # The names of the game's own report fields ("genres": "points per genre") for
    # a score sheet's default rows and notes; fields any card game has are named in
    # ``controller.games.base.FIELD_LABELS``.
    field_labels: Mapping[str, Words] = field(default_factory=dict)
    # Words and symbols the display draws (prompts, colour names, genres, ...): a
    # ``Vocabulary``, or the game's subclass of it that its scene reads.
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    # Where the menu lists the game: by rank, then by id (a new game comes last).
    menu_rank: int = 100
    # The package of the game's folder (``table``, ``bots``, ``search``, ``locale/``);
    # empty: ``controller.games.<key>``. A game registered from outside names its own.
    home: str = ""

    @property
    def package(self) -> str:
        """The Python package that holds this game's folder."""
        return self.home or f"controller.games.{self.key}"

    def option(self, key: str) -> OptionSpec:
        """The option named ``key``; KeyError if the game has none."""
        for option in self.options:
            if option.key == key:
                return option
        raise KeyError(key)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse an unknown option or a value of the wrong type or out of its limits."""
        known = {option.key: option for option in self.options}
        for key, value in options.items():
            if key not in known:
                listed = ", ".join(sorted(known)) if known else "none"
                raise BadOption(
                    say(
                        'unknown option "{option}" for {game}; its options are: {listed}',
                        option=Verbatim(key),
                        game=Verbatim(self.id),
                        listed=Verbatim(listed),
                    )
                )
            known[key].check(value)

    def changed_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` without the keys that only repeat their default (a header's form)."""
        defaults = {option.key: option.default for option in self.options}
        return {k: v for k, v in options.items() if k not in defaults or v != defaults[k]}

    def variant(self, options: Mapping[str, Any]) -> str:
        """The name of the variant these options play, for titles, history and score sheets.

        A preset's label when the options are exactly one of the presets; else
        the rulebook's names of the options that differ from the defaults; else
        "standard rules".
        """
        changed = self.changed_options(options)
        for preset in self.presets:
            if self.changed_options(preset.options) == changed:
                return str(preset.label)
        if not changed:
            return "standard rules"
        words = []
        for option in self.options:
            if option.key in changed:
                value = changed[option.key]
                label = str(option.label).lower()
                if option.kind is OptionKind.FLAG:
                    words.append(label if value else f"no {label}")
                else:
                    words.append(f"{label} {option.value_text(value)}")
        return ", ".join(words)

    def variant_words(self, options: Mapping[str, Any]) -> Words:
        """``variant`` for a screen: the same choice of words, as a message in any language."""
        changed = self.changed_options(options)
        for preset in self.presets:
            if self.changed_options(preset.options) == changed:
                return preset.label
        if not changed:
            return say("standard rules")
        parts: list[Arg] = []
        for option in self.options:
            if option.key in changed:
                value = changed[option.key]
                label = as_arg(option.label)
                if option.kind is OptionKind.FLAG:
                    parts.append(label if value else say("no {option}", option=label))
                else:
                    parts.append(
                        say(
                            "{option} {value}",
                            option=label,
                            value=as_arg(option.value_words(value)),
                        )
                    )
        # "A, B, C" as the old English variant reads (a list, not a sentence with "and").
        joined = parts[-1]
        for part in reversed(parts[:-1]):
            joined = say("{first}, {rest}", first=part, rest=joined)
        return joined if isinstance(joined, Text) else say("{option}", option=joined)

    def title_words(self, options: Mapping[str, Any]) -> Words:
        """The game and its variant for a screen's title: "Oskar: first to 8 tokens"."""
        return say(
            "{game}: {variant}",
            game=Verbatim(self.title),
            variant=as_arg(self.variant_words(options)),
        )

    def new_header(
        self, players: int, options: Mapping[str, Any] | None, rng: random.Random
    ) -> JSON:
        """A record header for a new game; undecided starting details are drawn from ``rng``."""
        return self.engine.new_header(players, dict(options or {}), rng)
