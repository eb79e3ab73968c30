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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.games.base import JSON, BadOption, MalformedAction
from controller.games.cards import CardFace, CardType
from controller.games.options import OptionKind as OptionKind
from controller.games.options import OptionSpec as OptionSpec
from controller.games.options import read_declared
from controller.games.words import Arg, Text, Verbatim, Words, as_arg, say

if TYPE_CHECKING:
    from controller.games.base import Engine


@dataclass(frozen=True)
class DeckSpec:
    """The physical deck a game is played with, as the tag registry enrolls it.

    ``cards`` lists every card's notation in a fixed order (a card printed
    several times, like Oskar's five zeros, appears that many times);
    ``card_type`` (the game's cards module) reads and writes that notation,
    names a card and describes its face, so nothing outside the game parses it.
    """

    id: str  # the registry's name for the deck, e.g. "standard-52"
    title: Words  # what the staff desk and the tags command call it, in their language
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

    def holds(self, notation: str) -> bool:
        """Whether ``notation`` is a card of this deck (in any spelling the game accepts)."""
        return self._card(notation) is not None

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

    With ``cut`` the rulebook cuts for it instead (Oh Pshaw: the lowest card
    deals): every joined seat cuts one card of the game's deck, ``cut`` says what
    a card counts (lower is lower), the lowest starts and tied seats cut again.
    """

    key: str  # the header key that names the starting seat, e.g. "lead"
    question: Words  # the rulebook's words, e.g. "Who most recently helped someone?"
    role: Words  # what that seat does, e.g. "leads the first trick"
    cut: Callable[[str], int] | None = None  # a cut card's rank (card notation -> rank)


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
    # The rules: returns the engine class, importing its module on the first call. The
    # registry, the menu and the attract screen need every spec at start-up but no
    # game's rules, so a game's engine is imported when a game of it is first played,
    # resumed or read, not before the table is up (``engine``).
    load_engine: Callable[[], type[Engine]]
    # Add-on decks a variant plays besides ``deck`` (Oh Pshaw's eight Wizard cards):
    # enrolled and audited like any deck; the engine refuses their cards without the option.
    addon_decks: tuple[DeckSpec, ...] = ()
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
    def engine(self) -> type[Engine]:
        """The game's engine class (its module imported on first use: ``load_engine``)."""
        return self.load_engine()

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
        """Refuse options no table of this game could play (``table.toml``'s house defaults).

        The declared checks first (an unknown key, a value of the wrong type or out
        of its limits); then what the game resolves from the players (Oh Pshaw's
        largest hand): refused only if no number of players can play them, with the
        refusal for the fewest players.
        """
        read_declared({"options": dict(options)}, self.options, self.id)
        refusals: list[BadOption] = []
        for players in range(self.min_players, self.max_players + 1):
            try:
                self.new_header(players, options, random.Random(0))
            except BadOption as refused:
                refusals.append(refused)
            else:
                return
        raise refusals[0]

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
