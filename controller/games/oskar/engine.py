"""Oskar: trick-taking for film-genre teams thrown together by dice.

Rules: ``shared/rules/oskar.txt`` plus the rulings of the game-record spec.
In short:

* 38 cards: ``Y1``-``Y4``, ``G2``-``G8``, ``B3``-``B11``, ``L4``-``L16`` and
  five red zeros ``R0``; a card is worth its number, 238 points in all. Every
  seat holds ``38 // players`` cards (3 players 12, 4 players 9, 5 players 7,
  6 players 6); the rest (2 or 3 cards) is the face-down stock.
* Every seat shows two dice (``western``, ``horror``, ``comedy``, ``action``,
  ``scifi``, ``romance``). Each seat records one ``dice`` action, in any
  order, before the first card of the game is played.
* Round 1 is dealt by the header's ``dealer``; the seat left of the dealer
  leads. Nobody has to follow suit. Without zeros the best colour wins
  (yellow > green > blue > lilac), the highest number within it. With one
  zero in the trick colours lapse: the highest number wins, equal numbers go
  to the earlier card. The second zero wins the trick outright, and the first
  seat in a round to win a trick that way also wins the stock. Further zeros
  mean nothing. The trick winner leads the next trick. A round ends when
  every seat has played its hand.
* Scoring: a seat's points are the values of the cards it won, plus the
  stock's value (238 less the values of the cards dealt, i.e. played) if it
  won the stock. A seat's points count once in the column of every distinct
  genre its dice show; a genre with 120 points or more is trendy; a seat gets
  one Oskar token for each of its dice that shows a trendy genre.
* The game ends when the round in which a seat reaches ``tokens_to_win``
  (7 or 8) tokens is scored; the most tokens win (ties share the win). The
  dice are not rerolled after that final round.
* Otherwise every seat records one ``reroll``: the seats with the most points
  first (each must reroll both dice), then the seats with the fewest points
  (each may reroll none, one or both), then every other seat (none or one).
  Within each group the order is seat order from the round's start player
  (the seat that led its first trick). When every seat has the same points,
  all of them have "the most" and must reroll both. Then the seat left of the
  dealer deals the next round and the seat left of the new dealer leads.
* Doubles: whenever a ``dice`` or ``reroll`` action leaves a seat's two dice
  showing the same face, that seat may record one more ``reroll`` of exactly
  one die right away (again after that one, if it shows doubles again). If
  the next action is anyone else's, the seat declined. The offer is optional,
  so ``expected`` (the report's ``next``) always names the action the game
  cannot go on without; the pending offer is in ``snapshot().doubles`` and
  in the seat's ``legal_actions``. This project adds an explicit decline:
  ``{"seat": s, "reroll": []}`` without ``dice`` (``KeepDoubles``) from the
  seat with the open offer; ``decides`` names the seat a table waits for
  (the open offer first).

Hands are optional (the spec has no Oskar ``hand`` verb; this project adds
one, as Oshaka Trick and Oh Pshaw have): without registrations a play is
refused only when the card is not an Oskar card or has already been played
this round (five times, for ``R0``); a registered seat may play only cards it
holds, and nobody may play a card a registered hand holds. A registration is
no move in the game (it does not answer a doubles offer). ``chance_actions``
deals a round as hand registrations and rolls the opening dice, stopping
after doubles until that seat decides. Dice faces are whatever the seat shows:
the table's virtual roller uses ``roll`` with an injected ``random.Random``,
while manual entry records the faces a person reports, so any faces are
accepted in ``dice`` and for the rerolled dice of a ``reroll``; a die that is
kept must keep its face.

``next`` while the dice are first rolled names the lowest seat that has not
rolled yet, though any seat that has not rolled may roll. During the reroll
phase it names the next seat in the rulebook's order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self

from controller.games.base import (
    JSON,
    Action,
    BadOption,
    Chance,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    MalformedAction,
    TurnPassed,
    best_seats,
    describe,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.interned import Interned
from controller.games.oskar.snapshot import GENRE_CAPTIONS as GENRE_CAPTIONS
from controller.games.oskar.snapshot import GENRE_WORDS as GENRE_WORDS
from controller.games.oskar.snapshot import GENRES as GENRES
from controller.games.oskar.snapshot import TREND_THRESHOLD as TREND_THRESHOLD
from controller.games.oskar.snapshot import (
    NextUp,
    RerollView,
    RoundView,
    SeatView,
    StockResult,
    StockView,
    TrickCard,
    genre_columns,
)
from controller.games.oskar.snapshot import OskarSnapshot as OskarSnapshot
from controller.games.oskar.snapshot import Phase as Phase
from controller.games.oskar.snapshot import Verb as Verb
from controller.games.oskar.snapshot import genre_word as genre_word
from controller.games.words import Card as CardArg
from controller.games.words import Items, Player, Text, Verbatim, Words, as_arg, say, say_plural

# colour letter -> (lowest number, highest number); one card per number.
COLOUR_RANGES: Mapping[str, tuple[int, int]] = {
    "Y": (1, 4),
    "G": (2, 8),
    "B": (3, 11),
    "L": (4, 16),
}
# Higher beats lower while colours count (no zero in the trick).
COLOUR_STRENGTH: Mapping[str, int] = {"Y": 4, "G": 3, "B": 2, "L": 1}
COLOUR_NAMES: Mapping[str, str] = {
    "Y": "yellow",
    "G": "green",
    "B": "blue",
    "L": "lilac",
    "R": "red",
}
# How a card reads in a message: the overview card's colour word and the number.
_CARD_WORDS: Mapping[str, Callable[[int], Text]] = {
    "Y": lambda n: say("Yellow {number}", number=n),
    "G": lambda n: say("Green {number}", number=n),
    "B": lambda n: say("Blue {number}", number=n),
    "L": lambda n: say("Lilac {number}", number=n),
    "R": lambda n: say("Red {number}", number=n),
}


def card_words(notation: str) -> Words:
    """An Oskar card as a message writes it: "Lilac 16", "Red 0" (the deck's ``words``)."""
    colour, digits = notation[:1], notation[1:]
    named = _CARD_WORDS.get(colour)
    if named is None or not digits.isdigit():
        return notation
    return named(int(digits))


def _genre(genre: str) -> Text | Verbatim:
    """A genre of the record ("scifi") in the rulebook's words ("science fiction")."""
    return GENRE_WORDS.get(genre) or Verbatim(genre)


ZEROS = 5
DEFAULT_TOKENS_TO_WIN = 7
TOKENS_TO_WIN_CHOICES: tuple[int, ...] = (7, 8)
FORMAT = "table-record/1"


def hand_size(players: int) -> int:
    """Cards dealt to each seat: the deck dealt evenly (12, 9, 7, 6 for 3..6 players)."""
    return DECK_SIZE // players


def stock_size(players: int) -> int:
    """Cards left over after the deal: the face-down stock (2 or 3 cards)."""
    return DECK_SIZE - players * hand_size(players)


# The one shared instance of each card, by (colour, number): see ``Card``.
_CARDS: dict[tuple[str, int], Card] = {}


class Card:
    """An Oskar card; its notation is the colour letter and number (``L16``, ``R0``).

    Cards are looked up and compared on every step of a game (hands, the played
    counts, legal actions), so there is one shared instance per card: ``Card("L",
    16)`` always returns the same object, equality is identity and hashing is the
    interpreter's own, with no Python-level ``__eq__``/``__hash__`` in the hot path.
    Instances are immutable; copies (``copy``, ``deepcopy``, pickling) return the
    shared instance. They order as (colour, number), as the dataclass they
    replace did.
    """

    __slots__ = ("colour", "is_zero", "number")
    colour: str
    number: int
    is_zero: bool

    def __new__(cls, colour: str, number: int) -> Card:
        canonical = type(colour) is str and type(number) is int
        if canonical:
            found = _CARDS.get((colour, number))
            if found is not None:
                return found
        card = object.__new__(cls)
        object.__setattr__(card, "colour", colour)
        object.__setattr__(card, "number", number)
        object.__setattr__(card, "is_zero", colour == "R")
        if canonical:
            # Only exact str/int values are shared: Card("Y", 1.0) stays a stranger
            # that ``check_card`` refuses.
            _CARDS[(colour, number)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Card cannot change ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Card cannot change ({name})")

    def __reduce__(self) -> tuple[type[Card], tuple[str, int]]:
        return (Card, (self.colour, self.number))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) < (other.colour, other.number)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) <= (other.colour, other.number)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) > (other.colour, other.number)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) >= (other.colour, other.number)

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read ``Y4``-style notation (any letter case); MalformedAction on anything else."""
        if not isinstance(text, str):
            raise MalformedAction(
                say(
                    "a card is written as text like Y4 or R0, not {value}",
                    value=Verbatim(describe(text)),
                )
            )
        known = _BY_NOTATION.get(text)
        if known is not None:
            return known
        cleaned = text.strip().upper()
        colour, digits = cleaned[:1], cleaned[1:]
        if colour == "R" and digits == "0":
            return Card("R", 0)
        if colour in COLOUR_RANGES and digits.isdigit() and not digits.startswith("0"):
            low, high = COLOUR_RANGES[colour]
            if low <= int(digits) <= high:
                return Card(colour, int(digits))
        raise MalformedAction(
            say(
                "{value} is not an Oskar card; the cards are Y1-Y4, G2-G8, B3-B11, L4-L16 and R0",
                value=Verbatim(describe(text)),
            )
        )

    @property
    def value(self) -> int:
        """Points the card is worth: its number (zeros are worth nothing)."""
        return self.number

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def full_deck() -> list[Card]:
    """All 38 cards in a fixed order (the five zeros last)."""
    cards = [Card(c, n) for c, (low, high) in COLOUR_RANGES.items() for n in range(low, high + 1)]
    return cards + [Card("R", 0)] * ZEROS


DECK_SIZE = len(full_deck())
DECK_VALUE = sum(card.value for card in full_deck())
ZERO = Card("R", 0)
_DECK: tuple[Card, ...] = tuple(full_deck())  # what ``deal`` shuffles a copy of
# The distinct cards in card order, and each card's place in it, computed once:
# sorting by a dict lookup is far cheaper than the dataclass's generated __lt__,
# and legal actions walk this order instead of re-sorting the deck on every call.
DECK_ORDER: tuple[Card, ...] = tuple(sorted(set(full_deck())))
CARD_ORDER: Mapping[Card, int] = {card: index for index, card in enumerate(DECK_ORDER)}
_UNPLAYED: Mapping[Card, int] = dict.fromkeys(DECK_ORDER, 0)
# Canonical notation -> the shared card: what records and taps are parsed from.
_BY_NOTATION: Mapping[str, Card] = {str(card): card for card in DECK_ORDER}


# Each colour card's rank while colours count (colour strength, then number), as one int.
_COLOUR_RANK: Mapping[Card, int] = {
    card: COLOUR_STRENGTH[card.colour] * 100 + card.number
    for card in DECK_ORDER
    if not card.is_zero
}


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """``sorted(cards)`` in card order, by a precomputed index (Oskar cards only)."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


def check_card(card: Card) -> None:
    """Refuse a hand-built Card that is no Oskar card (MalformedAction, as ``Card.parse``)."""
    if card not in CARD_ORDER or type(card.number) is not int:
        Card.parse(str(card))


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat winning the (possibly unfinished) trick ``plays`` of (seat, card) pairs."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    zeros = [seat for seat, card in plays if card.is_zero]
    if zeros:
        return _winner(plays, zeros)
    seat, _ = max(plays, key=lambda play: (COLOUR_STRENGTH[play[1].colour], play[1].number))
    return seat


def _winner(plays: Sequence[tuple[int, Card]], zeros: Sequence[int]) -> int:
    """``trick_winner`` of a non-empty trick of Oskar cards whose zeros' seats are ``zeros``.

    The engine's own path (cards it has checked): without zeros it ranks cards by
    a precomputed table instead of building a (strength, number) key per card.
    """
    if len(zeros) >= 2:
        return zeros[1]
    if zeros:
        # Colours lapse; the first of equal numbers keeps the trick (strict >).
        best_seat, best_number = plays[0][0], plays[0][1].number
        for seat, card in plays[1:]:
            if card.number > best_number:
                best_seat, best_number = seat, card.number
        return best_seat
    # The first of the highest ranks, as ``max`` keeps the first of equal keys.
    rank = _COLOUR_RANK
    try:
        best_seat, best_rank = plays[0][0], rank[plays[0][1]]
        for seat, card in plays[1:]:
            if rank[card] > best_rank:
                best_seat, best_rank = seat, rank[card]
    except KeyError:  # a hand-built stranger of a Card: rank it as trick_winner does
        return trick_winner(plays)
    return best_seat


class WinReason(StrEnum):
    """Why a trick went where it did (``TrickWon.reason``): decided by its zeros."""

    BEST_COLOUR = "best colour"  # no zero: the best colour wins, the highest number within it
    FIRST_ZERO = "first zero"  # one zero: colours lapse, the highest number wins
    SECOND_ZERO = "second zero"  # two or more: the second zero takes the trick


# The reason by the number of zeros in the trick (0, 1, 2 or more).
_WIN_REASONS: tuple[WinReason, WinReason, WinReason] = (
    WinReason.BEST_COLOUR,
    WinReason.FIRST_ZERO,
    WinReason.SECOND_ZERO,
)


def win_reason(plays: Sequence[tuple[int, Card]]) -> WinReason:
    """Why ``trick_winner`` chose its seat."""
    zeros = sum(1 for _, card in plays if card.is_zero)
    return _WIN_REASONS[min(zeros, 2)]


# --- dice ----------------------------------------------------------------------


def check_face(value: object) -> str:
    """A die face from a record (any letter case), or MalformedAction naming the faces."""
    if type(value) is str and value in _FACES:
        return value  # already as the record writes it (every die of a virtual roll)
    if isinstance(value, str) and value.strip().lower() in GENRES:
        return value.strip().lower()
    raise MalformedAction(
        say(
            "{value} is not a die face; the faces are {faces}",
            value=Verbatim(describe(value)),
            faces=Verbatim(", ".join(GENRES)),
        )
    )


_FACES: frozenset[str] = frozenset(GENRES)


def check_faces(value: object) -> tuple[str, str]:
    """The two faces a seat shows, from a record's ``dice`` list."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise MalformedAction(
            say(
                '"dice" must list the two faces showing, not {value}',
                value=Verbatim(describe(value)),
            )
        )
    return check_face(value[0]), check_face(value[1])


def roll(rng: random.Random, n: int) -> list[str]:
    """Roll ``n`` genre dice with the injected generator (the table's virtual roller)."""
    return [rng.choice(GENRES) for _ in range(n)]


def score_round(dice: Sequence[Sequence[str]], points: Sequence[int]) -> RoundScore:
    """Genre totals, trendy genres and tokens for one round.

    A seat's points count once in each distinct genre its dice show; a genre
    is trendy at ``TREND_THRESHOLD`` or more; each die showing a trendy genre
    earns its seat one token.
    """
    totals = dict.fromkeys(GENRES, 0)
    for faces, seat_points in zip(dice, points, strict=True):
        for genre in set(faces):
            totals[genre] += seat_points
    trendy = tuple(g for g in GENRES if totals[g] >= TREND_THRESHOLD)
    tokens = tuple(sum(1 for face in faces if face in trendy) for faces in dice)
    return RoundScore(totals, trendy, tokens)


@dataclass(frozen=True)
class RoundScore:
    """The outcome of a round's trend determination."""

    genre_totals: Mapping[str, int]
    trendy: tuple[str, ...]
    tokens: tuple[int, ...]


class RerollLimit(StrEnum):
    """Why a seat may reroll the dice it may: the rulebook's group, or an open doubles offer."""

    MOST = "most"  # the most points after the round: must reroll both dice
    FEWEST = "fewest"  # the fewest points: none, one or both
    REST = "rest"  # everyone else: none or one
    DOUBLES = "doubles"  # rolled doubles just now: exactly one die, or keep them

    @property
    def counts(self) -> frozenset[int]:
        """The numbers of dice a seat with this limit may reroll."""
        return _LIMIT_COUNTS[self]


_LIMIT_COUNTS: Mapping[RerollLimit, frozenset[int]] = {
    RerollLimit.MOST: frozenset({2}),
    RerollLimit.FEWEST: frozenset({0, 1, 2}),
    RerollLimit.REST: frozenset({0, 1}),
    RerollLimit.DOUBLES: frozenset({1}),
}


@dataclass(frozen=True)
class RerollRefused:
    """A reroll of ``count`` dice the rules refuse ``seat``, and the rule that refuses it."""

    seat: int
    count: int
    limit: RerollLimit

    @property
    def words(self) -> Text:
        """The refusal as a whole sentence (what a record's refused line says)."""
        player, count = Player(self.seat), self.count
        if self.limit is RerollLimit.MOST:
            return say_plural(
                "{player} must reroll both dice (most points), not reroll {n} die",
                "{player} must reroll both dice (most points), not reroll {n} dice",
                count,
                player=player,
            )
        if self.limit is RerollLimit.FEWEST:
            return say_plural(
                "{player} may reroll none, one or both dice (fewest points), not reroll {n} die",
                "{player} may reroll none, one or both dice (fewest points), not reroll {n} dice",
                count,
                player=player,
            )
        if self.limit is RerollLimit.DOUBLES:
            return say(
                "{player} rolled doubles and may reroll exactly one die, not {count}",
                player=player,
                count=count,
            )
        return say_plural(
            "{player} may reroll at most one die, not reroll {n} die",
            "{player} may reroll at most one die, not reroll {n} dice",
            count,
            player=player,
        )


@dataclass(frozen=True)
class RerollRule:
    """Who rerolls after a round, in which order, and how many dice each may reroll."""

    order: tuple[int, ...]
    most: tuple[int, ...]
    fewest: tuple[int, ...]
    limits: tuple[RerollLimit, ...]  # per seat: its group, which says how many dice

    @property
    def allowed(self) -> tuple[frozenset[int], ...]:
        """Per seat: the permitted numbers of dice rerolled."""
        return tuple(limit.counts for limit in self.limits)

    def refuse_count(self, seat: int, count: int) -> Text:
        """Why ``seat`` may not reroll ``count`` dice, as a whole sentence."""
        return RerollRefused(seat, count, self.limits[seat]).words


def reroll_rule(points: Sequence[int], start: int) -> RerollRule:
    """The rulebook's reroll order and allowances for a round's points.

    Ties in the most (or fewest) points put every tied seat in that group;
    with every seat tied all of them have the most. Within a group seats go
    in seat order from ``start``, the round's start player.
    """
    players = len(points)
    seating = [(start + i) % players for i in range(players)]
    top, low = max(points), min(points)
    most = tuple(s for s in seating if points[s] == top)
    fewest = tuple(s for s in seating if points[s] == low and s not in most)
    rest = tuple(s for s in seating if s not in most and s not in fewest)
    limits = []
    for seat in range(players):
        if seat in most:
            limits.append(RerollLimit.MOST)
        elif seat in fewest:
            limits.append(RerollLimit.FEWEST)
        else:
            limits.append(RerollLimit.REST)
    return RerollRule(most + fewest + rest, most, fewest, tuple(limits))


# --- actions -------------------------------------------------------------------


@dataclass(frozen=True)
class RollDice(Action):
    """A seat's first roll of its two dice, at the start of the game."""

    faces: tuple[str, str]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.DICE: list(self.faces)}


@dataclass(frozen=True)
class Reroll(Action):
    """Which dice (0, 1) a seat rerolled and the faces now showing; ``()`` keeps both."""

    rerolled: tuple[int, ...]
    faces: tuple[str, str]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.REROLL: list(self.rerolled), Verb.DICE: list(self.faces)}


@dataclass(frozen=True)
class KeepDoubles(Action):
    """The seat with an open doubles offer declines it explicitly (``"reroll": []``, no dice).

    The spec's implicit decline (the next action is anyone else's) still
    holds; this makes the decision a line of the record, so a table can wait
    for it and a rebuilt game knows it was taken.
    """

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.REROLL: []}


@dataclass(frozen=True)
class RollRequest:
    """A seat's decision to roll: which of its dice (0, 1), both for the opening roll.

    Not a line of the record: the record holds the chance outcome drawn for it
    (``RollDice`` or ``Reroll``, by ``Oskar.roll_outcome``), as the game-record
    spec defines those verbs. A person who rolls physical dice reports the
    outcome instead (the same actions, faces entered by hand).
    """

    seat: int
    dice: tuple[int, ...]


class DoublesOpen(IllegalAction):
    """Refused at a table: ``seat`` rolled doubles and decides first (``Oskar.check_order``)."""

    def __init__(self, text: Words, seat: int) -> None:
        super().__init__(text)
        self.seat = seat


@dataclass(frozen=True)
class RegisterHand(Action):
    """A seat's hand for the current round, registered before its first play in it."""

    cards: tuple[Card, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.HAND: [str(c) for c in self.cards]}


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick."""

    card: Card

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: str(self.card)}


# What the engine expects, built once per seat and verb (expected is read on every step).
_EXPECT: Mapping[str, tuple[Expectation, ...]] = {
    verb: tuple(Expectation(seat, verb) for seat in range(6))
    for verb in (Verb.DICE, Verb.PLAY, Verb.REROLL)
}

_EXPECT_PLAY = _EXPECT[Verb.PLAY]
_EXPECT_DICE = _EXPECT[Verb.DICE]
_EXPECT_REROLL = _EXPECT[Verb.REROLL]

# Every choice of dice a reroll may name (compared by ==, so a hand-built list still
# reaches the full check, which words what is wrong with it).
_DICE_CHOICES: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (0, 1), (1, 0))

# "Seat N's turn" events, built once: events are frozen values, and one is
# answered after nearly every card.
_TURNS: tuple[TurnPassed, ...] = tuple(TurnPassed(seat) for seat in range(6))

# Every seat's opening roll, each pair of faces, built once (listed as legal actions).
_ROLLS: tuple[tuple[RollDice, ...], ...] = tuple(
    tuple(RollDice(seat, (a, b)) for a in GENRES for b in GENRES) for seat in range(6)
)

# Every seat's Play of every card, built once: actions are frozen values, and building
# a frozen dataclass costs more than looking one up (legal_actions lists them often).
_PLAYS: tuple[Mapping[Card, Play], ...] = tuple(
    {card: Play(seat, card) for card in DECK_ORDER} for seat in range(6)
)


def dice_action(rng: random.Random, seat: int) -> RollDice:
    """The ``dice`` action of a seat rolling both dice on the virtual roller."""
    first, second = roll(rng, 2)
    return RollDice(seat, (first, second))


def reroll_action(
    rng: random.Random, seat: int, current: Sequence[str], which: Sequence[int]
) -> Reroll:
    """The ``reroll`` action of a seat rerolling the dice ``which`` (0, 1) of ``current``."""
    chosen = tuple(sorted(set(which)))
    if any(index not in (0, 1) for index in chosen):
        raise ValueError(f"dice are numbered 0 and 1, not {list(which)}")
    faces = list(current)
    for index in chosen:
        faces[index] = roll(rng, 1)[0]
    return Reroll(seat, chosen, (faces[0], faces[1]))


def deal(rng: random.Random, players: int) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle and deal evenly; returns each seat's sorted hand and the stock."""
    if not 3 <= players <= 6:
        raise ValueError(f"Oskar is for 3 to 6 players, not {players}")
    deck = list(_DECK)
    rng.shuffle(deck)
    size = hand_size(players)
    hands = [sort_cards(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
    return hands, sort_cards(deck[players * size :])


# --- events --------------------------------------------------------------------


@dataclass(frozen=True)
class DiceRolled(Event):
    seat: int
    faces: tuple[str, str]
    doubles: bool


@dataclass(frozen=True)
class RerollDone(Event):
    """A seat rerolled ``rerolled`` (maybe none); ``doubles_reroll`` if it was the extra one."""

    seat: int
    rerolled: tuple[int, ...]
    faces: tuple[str, str]
    doubles: bool
    doubles_reroll: bool


@dataclass(frozen=True)
class DoublesDeclined(Event):
    """The seat with doubles let the next action pass without its extra reroll."""

    seat: int


@dataclass(frozen=True)
class HandRegistered(Event):
    """The engine now knows the seat's hand for this round (its size only is public)."""

    seat: int
    cards: int


# Each (seat, cards) event made once and shared, as CardPlayed below: four per round.
_HAND_REGISTERED: Interned[tuple[int, int], HandRegistered] = Interned()


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card went to the trick; ``zero`` counts the zeros in the trick with this one
    (1: the first zero, colours lapse; 2: the second, it takes the trick), 0 for a colour."""

    seat: int
    card: Card
    trick: int
    zero: int = 0


# Each (seat, card, trick) event made once and shared: events are frozen values, and
# building a frozen dataclass costs more than looking one up (one is answered per card).
# Interned: the table forgets them between games, so a night of games keeps none.
_CARD_PLAYED: Interned[tuple[int, Card, int, int], CardPlayed] = Interned()


@dataclass(frozen=True)
class TrickWon(Event):
    seat: int
    trick: int
    cards: tuple[tuple[int, Card], ...]
    points: int
    reason: WinReason


@dataclass(frozen=True)
class StockWon(Event):
    """The seat won a trick with a second zero first this round: the stock is its."""

    seat: int
    cards: int


@dataclass(frozen=True)
class RoundScored(Event):
    round: int
    points: tuple[int, ...]
    stock_value: int
    stock_winner: int | None
    genre_totals: Mapping[str, int]
    trendy: tuple[str, ...]
    tokens: tuple[int, ...]
    totals: tuple[int, ...]
    threshold: int = TREND_THRESHOLD  # the genre points that made a genre trendy


@dataclass(frozen=True)
class RerollsDue(Event):
    """After a round: who rerolls in which order; ``most`` must reroll both."""

    order: tuple[int, ...]
    most: tuple[int, ...]
    fewest: tuple[int, ...]


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    dealer: int
    lead: int


# --- state ---------------------------------------------------------------------


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    number: int
    dealer: int
    lead: int
    players: int
    trick_lead: int = 0
    trick: list[tuple[int, Card]] = field(default_factory=list)
    trick_number: int = 1
    # Every card counted from 0, so that looking up an unplayed card costs no __missing__.
    played: Counter[Card] = field(default_factory=lambda: Counter(_UNPLAYED))
    cards_played: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    stock_winner: int | None = None
    # Registered hands: the cards dealt, and those not yet played (None: not registered).
    dealt: list[tuple[Card, ...] | None] = field(default_factory=list)
    hands: list[list[Card] | None] = field(default_factory=list)
    # The seat to play next: the trick's lead, then clockwise (kept, not derived, as it
    # is read several times for every card played).
    turn: int = 0

    def __post_init__(self) -> None:
        self.trick_lead = self.lead
        self.turn = self.lead
        self.cards_played = [0] * self.players
        self.points = [0] * self.players
        self.tricks_won = [0] * self.players
        self.dealt = [None] * self.players
        self.hands = [None] * self.players

    def zeros_unaccounted(self) -> int:
        """Zeros neither played nor in a registered hand: what an unregistered seat may hold."""
        held = sum(h.count(ZERO) for h in self.hands if h is not None)
        return ZEROS - self.played[ZERO] - held

    def holder(self, card: Card) -> int | None:
        """The seat whose registered hand still holds ``card`` (a non-zero card), or None."""
        for seat, hand in enumerate(self.hands):
            if hand is not None and card in hand:
                return seat
        return None


@dataclass(frozen=True)
class RoundResult:
    """A scored round: the dice it was scored with, its points and its tokens."""

    number: int
    dealer: int
    lead: int
    dice: tuple[tuple[str, str], ...]
    points: tuple[int, ...]
    stock_value: int
    stock_winner: int | None
    score: RoundScore


class Oskar(Engine):
    """The Oskar engine; see the module docstring for the rules and rulings it enforces."""

    game_id: ClassVar[str] = "oskar"
    title: ClassVar[str] = "Oskar"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6

    def __init__(self, players: int, dealer: int, tokens_to_win: int = DEFAULT_TOKENS_TO_WIN):
        if not self.min_players <= players <= self.max_players:
            raise BadOption(say("oskar is for 3 to 6 players, not {players}", players=players))
        if not 0 <= dealer < players:
            raise BadOption(
                say(
                    '"dealer" must be a seat 0..{last}, not {dealer}',
                    last=Verbatim(str(players - 1)),
                    dealer=Verbatim(str(dealer)),
                )
            )
        if tokens_to_win not in TOKENS_TO_WIN_CHOICES:
            raise BadOption(
                say(
                    '"tokens_to_win" must be 7 or 8, not {value}',
                    value=Verbatim(str(tokens_to_win)),
                )
            )
        self.players = players
        self.first_dealer = dealer
        self.tokens_to_win = tokens_to_win
        self.hand_size = hand_size(players)
        self.trend_threshold = TREND_THRESHOLD  # genre points that make a genre trendy
        self.phase = Phase.DICE
        self.dice: list[tuple[str, str] | None] = [None] * players
        self.tokens: list[int] = [0] * players
        self.round = RoundState(1, dealer, (dealer + 1) % players, players)
        self.results: list[RoundResult] = []
        self.rule: RerollRule | None = None
        self.rerolls_done = 0
        self.doubles: int | None = None  # the seat that may reroll one of its doubles now

    # --- construction and notation ------------------------------------------

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, cls.game_id)
        options = read_options(header, ("tokens_to_win",), cls.game_id)
        tokens = options.get("tokens_to_win", DEFAULT_TOKENS_TO_WIN)
        if isinstance(tokens, bool) or tokens not in TOKENS_TO_WIN_CHOICES:
            raise BadOption(
                say(
                    'option "tokens_to_win" must be 7 or 8, not {value}',
                    value=Verbatim(describe(tokens)),
                )
            )
        dealer = read_seat_key(header, "dealer", players)
        return cls(players, dealer, tokens)

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The rulebook does not say who deals first; the table draws the dealer.
        return new_header(cls, players, options, "dealer", rng)

    def header(self) -> JSON:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "players": self.players,
            "options": {"tokens_to_win": self.tokens_to_win},
            "dealer": self.first_dealer,
        }

    _VERBS: ClassVar[dict[str, tuple[str, ...]]] = {verb: () for verb in Verb}

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        if Verb.REROLL in obj:
            # A reroll carries "dice" too, which is also a verb of its own: check the
            # shape without it, then read it as the reroll's faces.
            rest = {key: value for key, value in obj.items() if key != Verb.DICE}
            seat, _ = split_action(rest, self.players, self._VERBS)
            rerolled = self._read_rerolled(obj[Verb.REROLL])
            if Verb.DICE not in obj:
                if not rerolled:
                    return KeepDoubles(seat)  # "reroll": [] without dice: keeps its doubles
                raise MalformedAction(
                    say('a "reroll" action must also give the "dice" now showing')
                )
            return Reroll(seat, rerolled, check_faces(obj[Verb.DICE]))
        seat, verb = split_action(obj, self.players, self._VERBS)
        if verb == Verb.PLAY:
            return Play(seat, Card.parse(obj[Verb.PLAY]))
        if verb == Verb.HAND:
            value = obj[Verb.HAND]
            if not isinstance(value, list):
                raise MalformedAction(
                    say(
                        '"hand" must be a list of cards, not {value}',
                        value=Verbatim(describe(value)),
                    )
                )
            return RegisterHand(seat, tuple(Card.parse(text) for text in value))
        return RollDice(seat, check_faces(obj[Verb.DICE]))

    @staticmethod
    def _read_rerolled(value: object) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise MalformedAction(
                say(
                    '"reroll" must list the dice rerolled (0, 1), e.g. [1] or [], not {value}',
                    value=Verbatim(describe(value)),
                )
            )
        for index in value:
            if isinstance(index, bool) or not isinstance(index, int) or index not in (0, 1):
                raise MalformedAction(
                    say(
                        '"reroll" names dice 0 and 1 only, not {value}',
                        value=Verbatim(describe(index)),
                    )
                )
        if len(set(value)) != len(value):
            raise MalformedAction(
                say('"reroll" names a die twice: {value}', value=Verbatim(describe(value)))
            )
        return tuple(sorted(value))

    # --- the state machine ----------------------------------------------------

    @property
    def expected(self) -> Expectation | None:
        phase = self.phase
        if phase is Phase.PLAY:
            return _EXPECT_PLAY[self.round.turn]
        if phase is Phase.DICE:
            return _EXPECT_DICE[self.unrolled()[0]]
        if self.phase is Phase.REROLL:
            assert self.rule is not None
            return _EXPECT_REROLL[self.rule.order[self.rerolls_done]]
        return None

    @property
    def decides(self) -> int | None:
        """The seat the table waits for first: an open doubles offer, else the expected seat.

        ``expected`` names only what the game cannot go on without, and the
        doubles offer is optional in the record; a table still lets the seat
        decide (``KeepDoubles`` or a reroll of one die) before anyone else acts.
        """
        if self.doubles is not None:
            return self.doubles
        expected = self.expected
        return None if expected is None else expected.seat

    def check_order(self, action: Action) -> None:
        """Refuse, as a table does, any move but the doubles offer's answer while it is open.

        The record's rule lets the next action of anyone else decline an open
        offer silently (``apply`` accepts it); a table instead waits for the
        seat that rolled doubles (``decides``), so that nobody's tap takes its
        choice away. Raises ``DoublesOpen`` naming that seat.
        """
        offer = self.doubles
        if offer is None or self.phase is Phase.OVER:
            return
        answers = isinstance(action, KeepDoubles | Reroll) and action.seat == offer
        if answers or isinstance(action, RegisterHand):
            return  # a registration is no move in the game
        if isinstance(action, Play):
            raise DoublesOpen(
                say(
                    "not {card} yet: {player} rolled doubles and decides first whether to "
                    "reroll one die",
                    card=CardArg(str(action.card)),
                    player=Player(offer),
                ),
                offer,
            )
        raise DoublesOpen(
            say("wait: {player} rolled doubles and decides first", player=Player(offer)), offer
        )

    def unrolled(self) -> list[int]:
        """Seats that have not rolled their dice yet."""
        return [seat for seat, faces in enumerate(self.dice) if faces is None]

    def apply(self, action: Action) -> list[Event]:
        if type(action) is Play and self.doubles is None and 0 <= action.seat < self.players:
            # The common case first: a card played with no doubles offer open.
            phase = self.phase
            if phase is Phase.PLAY:
                # Its commonest form: the seat to play plays a card its registered hand
                # holds. Only the tests that could refuse it run here, cheapest first;
                # anything else goes through ``_check_play``, which finds and words the
                # refusal in the order it always has.
                rnd, card = self.round, action.card
                hand = rnd.hands[action.seat]
                if (
                    action.seat == rnd.turn
                    and hand is not None
                    and card in CARD_ORDER
                    and card in hand
                    and (rnd.played[card] < ZEROS if card.is_zero else not rnd.played[card])
                ):
                    return self._play(action)
            elif phase is Phase.OVER:
                raise IllegalAction(say("the game is over; nothing more can be played"))
            self._check_play(action)
            return self._play(action)
        if self.phase is Phase.OVER:
            raise IllegalAction(say("the game is over; nothing more can be played"))
        if not 0 <= action.seat < self.players:
            raise IllegalAction(
                say("there is no {player} at this table", player=Player(action.seat))
            )
        if isinstance(action, RollDice):
            self._check_dice(action)
        elif isinstance(action, Reroll):
            self._check_reroll(action)
        elif isinstance(action, Play):
            self._check_play(action)
        elif isinstance(action, RegisterHand):
            self._check_hand(action)
        elif isinstance(action, KeepDoubles):
            if self.doubles != action.seat:
                raise IllegalAction(
                    say(
                        '{player} has no doubles to keep: "reroll": [] without dice answers '
                        "a doubles offer only",
                        player=Player(action.seat),
                    )
                )
        else:
            raise IllegalAction(
                say("Oskar has no action {name}", name=Verbatim(type(action).__name__))
            )
        # Validated: from here on the state changes.
        if isinstance(action, RegisterHand):
            # A registration tells the engine what a seat holds; it is no move in the
            # game, so it does not answer an open doubles offer.
            return self._register(action)
        events: list[Event] = []
        pending, self.doubles = self.doubles, None
        is_doubles_reroll = isinstance(action, Reroll) and pending == action.seat
        if pending is not None and not is_doubles_reroll:
            events.append(DoublesDeclined(pending))
        if isinstance(action, RollDice):
            return events + self._roll(action)
        if isinstance(action, Reroll):
            return events + self._reroll(action, is_doubles_reroll)
        if isinstance(action, KeepDoubles):
            return events  # the offer is closed: DoublesDeclined above says so
        assert isinstance(action, Play)
        return events + self._play(action)

    # --- registered hands -----------------------------------------------------

    def _check_hand(self, action: RegisterHand) -> None:
        seat, rnd = action.seat, self.round
        player = Player(seat)
        if not self.round_in_progress():
            raise IllegalAction(
                say(
                    "{player} cannot register a hand now: the round is over; hands for the "
                    "next round are registered once the rerolls are done",
                    player=player,
                )
            )
        if rnd.hands[seat] is not None:
            raise IllegalAction(
                say("{player} has already registered its hand for this round", player=player)
            )
        if rnd.cards_played[seat]:
            raise IllegalAction(
                say(
                    "{player} cannot register a hand now: it has already played this round",
                    player=player,
                )
            )
        cards = action.cards
        for card in cards:
            if card not in CARD_ORDER:
                check_card(card)  # a hand-built Card must still be an Oskar card
        if len(cards) != self.hand_size:
            raise IllegalAction(
                say(
                    "{player}'s hand must have {size} cards, not {count}",
                    player=player,
                    size=self.hand_size,
                    count=len(cards),
                )
            )
        distinct = set(cards)
        # Counting compares every card with ==, slow for cards: count only a hand with zeros.
        zeros = cards.count(ZERO) if ZERO in distinct else 0
        distinct.discard(ZERO)
        played = rnd.played
        clear = len(distinct) + zeros == len(cards) and not any(map(played.__getitem__, distinct))
        if clear:
            for other in rnd.hands:
                if other is not None and not distinct.isdisjoint(other):
                    clear = False
                    break
        if clear:
            # No card twice, none played, none in another registered hand (every hand
            # of a virtual deal): only the zeros are left to check. Without zeros there
            # is nothing to check: the zeros played and registered never exceed five.
            if zeros:
                self._check_zeros(player, zeros)
            return
        counts = Counter(cards)
        counts.pop(ZERO, 0)
        # One pass over the registered hands, not one per card: who holds what.
        held = {c for h in rnd.hands if h is not None for c in h if c != ZERO}
        for card, count in counts.items():
            named = CardArg(str(card))
            if count > 1:
                raise IllegalAction(
                    say("{card} is in {player}'s hand twice", card=named, player=player)
                )
            if rnd.played[card]:
                raise IllegalAction(say("{card} has already been played this round", card=named))
            if card in held:
                holder = rnd.holder(card)
                assert holder is not None
                raise IllegalAction(
                    say(
                        "{card} is already in {holder}'s registered hand",
                        card=named,
                        holder=Player(holder),
                    )
                )
        self._check_zeros(player, zeros)

    def _check_zeros(self, player: Player, zeros: int) -> None:
        """Refuse a hand with more zeros than are neither played nor registered elsewhere."""
        free = self.round.zeros_unaccounted()
        if zeros > free:
            raise IllegalAction(
                say(
                    "{player}'s hand has {zeros} zeros, but only {free} of the five are "
                    "not played or in another registered hand",
                    player=player,
                    zeros=zeros,
                    free=free,
                )
            )

    def _register(self, action: RegisterHand) -> list[Event]:
        rnd = self.round
        hand = sort_cards(action.cards)
        rnd.dealt[action.seat] = tuple(hand)
        rnd.hands[action.seat] = hand
        key = (action.seat, len(action.cards))
        registered = _HAND_REGISTERED.get(key)
        if registered is None:
            registered = _HAND_REGISTERED[key] = HandRegistered(*key)
        return [registered]

    def registered_hand(self, seat: int) -> tuple[Card, ...] | None:
        """The seat's registered cards not yet played this round, or None (for its own bot)."""
        hand = self.round.hands[seat] if self.round_in_progress() else None
        return None if hand is None else tuple(hand)

    def stock_cards(self) -> tuple[Card, ...] | None:
        """The stock of the current round once every hand is registered, else None.

        It lies face down: only tools that may see everything (the simulator,
        a staff audit) ask for it; the snapshot shows its size only.
        """
        rnd = self.round
        if not self.round_in_progress() or any(d is None for d in rnd.dealt):
            return None
        rest = Counter(full_deck())
        for dealt in rnd.dealt:
            assert dealt is not None
            rest -= Counter(dealt)
        return tuple(sorted(rest.elements()))

    # --- chance -----------------------------------------------------------------

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        """The virtual deal of a round not yet touched, then the virtual opening dice.

        The deal registers every seat's hand; the opening dice are rolled seat
        by seat and stop after a seat that rolled doubles, so that seat decides
        (reroll one die or ``KeepDoubles``) before the next seat rolls.
        """
        rnd = self.round
        if rnd.trick and self.phase is Phase.PLAY:
            return []  # asked after every card: mid-trick there is nothing to deal or roll
        actions: list[Action] = []
        # Cheap tests first: this is asked after every action of a virtual table.
        untouched = (
            rnd.trick_number == 1
            and not rnd.trick
            and not any(rnd.cards_played)
            and all(h is None for h in rnd.hands)
        )
        if chance.cards and untouched and self.round_in_progress():
            hands, _ = deal(rng, self.players)
            actions += [RegisterHand(seat, tuple(hand)) for seat, hand in enumerate(hands)]
        if chance.dice and self.phase is Phase.DICE and self.doubles is None:
            for seat in self.unrolled():
                action = dice_action(rng, seat)
                actions.append(action)
                if action.faces[0] == action.faces[1]:
                    break
        return actions

    def roll_outcome(self, request: RollRequest, rng: random.Random) -> RollDice | Reroll:
        """The chance outcome of a seat's decision to roll, drawn from ``rng``.

        The opening roll (both dice of a seat that has not rolled) is a ``dice``
        action; any other roll is a ``reroll`` of the picked dice, refused here
        (``RerollRefused`` in its words) as ``apply`` would refuse it, before
        anything is drawn. The draws are those of ``dice_action`` and
        ``reroll_action``, so a seed rolls the same faces as it always did.
        """
        seat, dice = request.seat, tuple(sorted(set(request.dice)))
        if self.phase is Phase.DICE and self.doubles != seat and self.dice[seat] is None:
            if dice != (0, 1):
                raise IllegalAction(
                    say("{player} must roll its dice first (a dice action)", player=Player(seat))
                )
            return dice_action(rng, seat)
        current = self.dice[seat]
        limit = self.reroll_limit(seat)
        if current is None or limit is None:
            # Words the refusal as ``apply`` does: a reroll of those dice, now.
            self._check_reroll(Reroll(seat, dice, current or (GENRES[0], GENRES[0])))
            raise AssertionError("a seat that may not reroll has its reroll refused")
        refused = self.reroll_refusal(seat, len(dice))
        if refused is not None:
            raise IllegalAction(refused.words)
        return reroll_action(rng, seat, current, dice)

    # --- dice -------------------------------------------------------------------

    def _check_dice(self, action: RollDice) -> None:
        seat = action.seat
        for face in action.faces:
            check_face(face)
        if self.dice[seat] is not None:
            if self.phase is Phase.DICE:
                raise IllegalAction(
                    say("{player} has already rolled its dice", player=Player(seat))
                )
            raise IllegalAction(
                say(
                    "{player} cannot roll its dice again: the dice are rolled once at the start "
                    "of the game and rerolled after each round",
                    player=Player(seat),
                )
            )

    def _roll(self, action: RollDice) -> list[Event]:
        seat, faces = action.seat, action.faces
        self.dice[seat] = faces
        doubles = faces[0] == faces[1]
        if doubles:
            self.doubles = seat
        events: list[Event] = [DiceRolled(seat, faces, doubles)]
        if not self.unrolled():
            self.phase = Phase.PLAY
            events.append(TurnPassed(self.round.turn))
        return events

    def _check_reroll(self, action: Reroll) -> None:
        seat = action.seat
        for face in action.faces:
            check_face(face)
        rerolled = action.rerolled
        if rerolled not in _DICE_CHOICES and (
            any(index not in (0, 1) for index in rerolled) or len(set(rerolled)) != len(rerolled)
        ):
            raise IllegalAction(
                say(
                    "dice are numbered 0 and 1, not {value}",
                    value=Verbatim(str(list(action.rerolled))),
                )
            )
        current = self.dice[seat]
        player = Player(seat)
        if self.doubles == seat:
            assert current is not None
            if len(action.rerolled) != 1:
                refused = RerollRefused(seat, len(action.rerolled), RerollLimit.DOUBLES)
                raise IllegalAction(refused.words)
        elif self.phase is Phase.REROLL:
            rule = self.rule
            assert rule is not None
            due = rule.order[self.rerolls_done]
            if seat != due:
                done = rule.order[: self.rerolls_done]
                if seat in done:
                    raise IllegalAction(
                        say(
                            "{player} has already rerolled after this round; "
                            "it is {due}'s turn to reroll",
                            player=player,
                            due=Player(due),
                        )
                    )
                raise IllegalAction(
                    say(
                        "{player} cannot reroll yet: it is {due}'s turn",
                        player=player,
                        due=Player(due),
                    )
                )
            limit = rule.limits[seat]
            if len(action.rerolled) not in limit.counts:
                raise IllegalAction(RerollRefused(seat, len(action.rerolled), limit).words)
        elif self.phase is Phase.DICE:
            if current is None:
                raise IllegalAction(
                    say("{player} must roll its dice first (a dice action)", player=player)
                )
            raise IllegalAction(
                say(
                    "{player} cannot reroll now: only a seat that has just rolled doubles "
                    "may reroll one die before the game starts",
                    player=player,
                )
            )
        else:
            raise IllegalAction(
                say(
                    "{player} cannot reroll now: dice are rerolled after the round, "
                    "and it is {turn}'s turn to play",
                    player=player,
                    turn=Player(self.round.turn),
                )
            )
        assert current is not None
        for index in (0, 1):
            if index not in action.rerolled and action.faces[index] != current[index]:
                raise IllegalAction(
                    say(
                        "{player} kept die {die}, so it must still show {kept}, not {shown}",
                        player=player,
                        die=Verbatim(str(index)),
                        kept=as_arg(genre_word(current[index])),
                        shown=as_arg(genre_word(action.faces[index])),
                    )
                )

    def _reroll(self, action: Reroll, is_doubles_reroll: bool) -> list[Event]:
        seat, faces = action.seat, action.faces
        self.dice[seat] = faces
        doubles = faces[0] == faces[1]
        events: list[Event] = [RerollDone(seat, action.rerolled, faces, doubles, is_doubles_reroll)]
        if doubles:
            self.doubles = seat
        if is_doubles_reroll:
            return events
        assert self.rule is not None
        self.rerolls_done += 1
        if self.rerolls_done == len(self.rule.order):
            events += self._next_round()
        return events

    # --- playing a card -------------------------------------------------------

    def _check_play(self, action: Play) -> None:
        seat, card, rnd = action.seat, action.card, self.round
        check_card(card)  # a hand-built Card must still be an Oskar card
        # The words of a refusal are built only when one is raised (this runs per card).
        if self.phase is Phase.DICE:
            waiting = self.unrolled()
            raise IllegalAction(
                say(
                    "{player} cannot play {card} yet: {waiting} must first roll their dice",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    waiting=Items(tuple(Player(s) for s in waiting)),
                )
            )
        if self.phase is Phase.REROLL:
            assert self.rule is not None
            due = self.rule.order[self.rerolls_done]
            raise IllegalAction(
                say(
                    "{player} cannot play {card} yet: the dice are being rerolled after the "
                    "round and it is {due}'s turn to reroll",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    due=Player(due),
                )
            )
        if seat != rnd.turn:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it is {turn}'s turn",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    turn=Player(rnd.turn),
                )
            )
        if card.is_zero and rnd.played[card] >= ZEROS:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: all five zeros have been played this round",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        if not card.is_zero and rnd.played[card]:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it has already been played this round",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        hand = rnd.hands[seat]
        if hand is not None and card not in hand:
            held: Words = " ".join(str(c) for c in hand) if hand else say("no cards")
            raise IllegalAction(
                say(
                    "{player} does not hold {card}; its hand: {held}",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    held=Verbatim(held) if isinstance(held, str) else held,
                )
            )
        if hand is None and card.is_zero and rnd.zeros_unaccounted() <= 0:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: every zero left is in a registered hand",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        holder = None if hand is not None or card.is_zero else rnd.holder(card)
        if holder is not None:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it is in {holder}'s registered hand",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    holder=Player(holder),
                )
            )

    def _play(self, action: Play) -> list[Event]:
        seat, card, rnd = action.seat, action.card, self.round
        rnd.played[card] += 1
        rnd.cards_played[seat] += 1
        hand = rnd.hands[seat]
        if hand is not None:
            hand.remove(card)
        trick = rnd.trick
        trick.append((seat, card))
        zero = sum(1 for _, c in trick if c.is_zero) if card.is_zero else 0
        key = (seat, card, rnd.trick_number, zero)
        played = _CARD_PLAYED.get(key)
        if played is None:
            played = _CARD_PLAYED[key] = CardPlayed(*key)
        if len(trick) < self.players:
            rnd.turn = turn = (seat + 1) % self.players  # the seat played was the turn
            return [played, _TURNS[turn]]
        events: list[Event] = [played]
        events += self._finish_trick()
        return events

    def _finish_trick(self) -> list[Event]:
        rnd = self.round
        plays = tuple(rnd.trick)
        # One pass for what ``trick_winner`` and ``win_reason`` would each walk the trick
        # for (once per trick): its points (a card is worth its number) and its zeros.
        points = 0
        zeros: list[int] = []
        for seat, card in plays:
            points += card.number
            if card.is_zero:
                zeros.append(seat)
        winner = _winner(plays, zeros)
        rnd.points[winner] += points
        rnd.tricks_won[winner] += 1
        reason = _WIN_REASONS[min(len(zeros), 2)]
        events: list[Event] = [TrickWon(winner, rnd.trick_number, plays, points, reason)]
        if rnd.stock_winner is None and len(zeros) >= 2:
            rnd.stock_winner = winner
            events.append(StockWon(winner, stock_size(self.players)))
        rnd.trick = []
        rnd.trick_lead = rnd.turn = winner
        if rnd.trick_number < self.hand_size:
            rnd.trick_number += 1
            events.append(_TURNS[winner])
            return events
        return events + self._finish_round()

    def stock_value(self) -> int:
        """The value of the stock: the deck's total less the cards played this round.

        Only exact once the round is over (every dealt card has been played).
        """
        played = sum(card.number * count for card, count in self.round.played.items())
        return DECK_VALUE - played

    def _finish_round(self) -> list[Event]:
        rnd = self.round
        # Every card played lies in a finished trick now, so the cards played are worth
        # the points won: ``stock_value()`` without walking the played counts.
        stock_value = DECK_VALUE - sum(rnd.points)
        points = list(rnd.points)
        if rnd.stock_winner is not None:
            points[rnd.stock_winner] += stock_value
        dice = tuple(self._faces(seat) for seat in range(self.players))
        score = score_round(dice, points)
        for seat, won in enumerate(score.tokens):
            self.tokens[seat] += won
        self.results.append(
            RoundResult(
                rnd.number,
                rnd.dealer,
                rnd.lead,
                dice,
                tuple(points),
                stock_value,
                rnd.stock_winner,
                score,
            )
        )
        events: list[Event] = [
            RoundScored(
                rnd.number,
                tuple(points),
                stock_value,
                rnd.stock_winner,
                score.genre_totals,
                score.trendy,
                score.tokens,
                tuple(self.tokens),
            )
        ]
        if max(self.tokens) >= self.tokens_to_win:
            self.phase = Phase.OVER
            events.append(GameOver(tuple(self.tokens), tuple(best_seats(self.tokens))))
            return events
        self.rule = reroll_rule(points, rnd.lead)
        self.rerolls_done = 0
        self.phase = Phase.REROLL
        events.append(RerollsDue(self.rule.order, self.rule.most, self.rule.fewest))
        return events

    def _next_round(self) -> list[Event]:
        old = self.round
        dealer = (old.dealer + 1) % self.players
        self.round = RoundState(old.number + 1, dealer, (dealer + 1) % self.players, self.players)
        self.rule = None
        self.rerolls_done = 0
        self.phase = Phase.PLAY
        lead = self.round.lead
        return [RoundStarted(self.round.number, dealer, lead), TurnPassed(lead)]

    def _faces(self, seat: int) -> tuple[str, str]:
        faces = self.dice[seat]
        assert faces is not None, "every seat rolls before the first play"
        return faces

    # --- what the table, display and bots read ---------------------------------

    def round_in_progress(self) -> bool:
        """True while the current round has been dealt and is not yet scored."""
        return self.phase in (Phase.DICE, Phase.PLAY)

    def reroll_allowance(self, seat: int) -> frozenset[int]:
        """How many dice ``seat`` may reroll in its next action (empty: it may not)."""
        limit = self.reroll_limit(seat)
        return frozenset() if limit is None else limit.counts

    def reroll_limit(self, seat: int) -> RerollLimit | None:
        """The rule that says how many dice ``seat`` may reroll now, or None if it may not."""
        if self.doubles == seat:
            return RerollLimit.DOUBLES
        if self.phase is Phase.REROLL and self.expected is _EXPECT_REROLL[seat]:
            assert self.rule is not None
            return self.rule.limits[seat]
        return None

    def reroll_refusal(self, seat: int, count: int) -> RerollRefused | None:
        """Why the rules refuse ``seat`` a reroll of ``count`` dice now, or None if they allow it.

        The question a table asks while a seat picks its dice, for a seat that
        may reroll now (``reroll_limit`` is not None).
        """
        limit = self.reroll_limit(seat)
        assert limit is not None, "only a seat that may reroll now picks dice"
        return None if count in limit.counts else RerollRefused(seat, count, limit)

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY and self.doubles is None:
            rnd = self.round
            hand = rnd.hands[seat]
            if hand is not None and seat == rnd.turn:
                # Asked before nearly every card: the seat to play, its hand registered
                # and no doubles offer open has exactly the plays of its cards (the
                # hand is kept in card order; repeated zeros are dropped).
                return list(map(_PLAYS[seat].__getitem__, dict.fromkeys(hand)))
        actions: list[Action] = []
        if phase is Phase.OVER:
            return actions
        if phase is Phase.DICE and self.dice[seat] is None:
            actions += _ROLLS[seat]
        if phase is Phase.PLAY and seat == self.round.turn:
            rnd = self.round
            hand = rnd.hands[seat]
            if hand is not None:
                # The hand is kept in card order: drop repeated zeros, keep the order.
                actions += map(_PLAYS[seat].__getitem__, dict.fromkeys(hand))
                if self.doubles is None:
                    return actions  # no reroll is open while cards are played
            else:
                # Without a registered hand any card not accounted for could be in it.
                zeros_free = rnd.zeros_unaccounted() > 0
                played = rnd.played
                held = {c for h in rnd.hands if h is not None for c in h}
                plays = _PLAYS[seat]
                actions += [
                    plays[card]
                    for card in DECK_ORDER
                    if (zeros_free if card.is_zero else not played[card] and card not in held)
                ]
        current = self.dice[seat]
        if current is not None:
            for count in sorted(self.reroll_allowance(seat)):
                actions += _rerolls(seat, current, count)
        if self.doubles == seat:
            actions.append(KeepDoubles(seat))
        return actions

    def totals(self) -> list[int]:
        """Oskar tokens per seat."""
        return list(self.tokens)

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        points: list[Words] = [str(p) for p in round_report["points"]]
        return [(say("film points"), points)]

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        notes: list[Words] = []
        if round_report["trendy"]:
            trendy = Items(tuple(_genre(g) for g in round_report["trendy"]))
            notes.append(say("Trendy genres: {genres}", genres=trendy))
        if round_report.get("genres"):
            per_genre = Items(
                tuple(
                    say("{genre} {points}", genre=_genre(g), points=t)
                    for g, t in round_report["genres"].items()
                )
            )
            notes.append(say("Points per genre: {points}", points=per_genre))
        stock = round_report.get("stock")
        if stock is not None:
            won_by, value = stock["won_by"], stock["value"]
            if won_by is None:
                notes.append(
                    say_plural(
                        "Nobody took the stock ({n} point)",
                        "Nobody took the stock ({n} points)",
                        value,
                    )
                )
            else:
                notes.append(
                    say_plural(
                        "The stock ({n} point) went to {player}",
                        "The stock ({n} points) went to {player}",
                        value,
                        player=Player(won_by),
                    )
                )
        return notes

    def round_json(self, result: RoundResult) -> JSON:
        return {
            "scores": list(result.score.tokens),
            "points": list(result.points),
            "trendy": list(result.score.trendy),
            "genres": {g: t for g, t in result.score.genre_totals.items() if t},
            "stock": {
                "value": result.stock_value,
                "won_by": result.stock_winner,
            },
        }

    def _running_round_json(self) -> JSON:
        # Tokens are handed out only when the round is scored, so a round in
        # progress adds none yet; its points are the tricks won so far.
        return {
            "scores": [0] * self.players,
            "points": list(self.round.points),
            "trendy": [],
        }

    def report(self) -> JSON:
        rounds = [self.round_json(result) for result in self.results]
        if self.round_in_progress():
            rounds.append(self._running_round_json())
        expected = self.expected
        return {
            "finished": self.phase is Phase.OVER,
            "rounds": rounds,
            "totals": self.totals(),
            "winners": best_seats(self.tokens),
            "next": None if expected is None else expected.to_json(),
        }

    def snapshot(self) -> OskarSnapshot:
        # The base contract still says JSON; OskarSnapshot.to_json() is that JSON.
        rnd = self.round
        expected = self.expected
        genre_totals: dict[str, int] = dict.fromkeys(GENRES, 0)
        for seat, faces in enumerate(self.dice):
            if faces is not None:
                for genre in set(faces):
                    genre_totals[genre] += rnd.points[seat]
        seats = tuple(
            SeatView(
                seat=seat,
                dice=self.dice[seat],
                tokens=self.tokens[seat],
                points=rnd.points[seat],
                tricks_won=rnd.tricks_won[seat],
                cards_left=self.hand_size - rnd.cards_played[seat],
                stock=rnd.stock_winner == seat,
                rolled=self.dice[seat] is not None,
                hand_registered=rnd.hands[seat] is not None and self.round_in_progress(),
            )
            for seat in range(self.players)
        )
        last = self._round_view(self.results[-1]) if self.results else None
        # Once a round is scored (rerolls, or the game over) the columns show its
        # scored totals, stock included; while it is played, the running ones.
        scored = self.phase in (Phase.REROLL, Phase.OVER) and last is not None
        if scored:
            assert last is not None
            columns = genre_columns(last.genres, last.trendy)
        else:
            columns = genre_columns(genre_totals, None)
        rule = self.rule
        return OskarSnapshot(
            game=self.game_id,
            title=self.title,
            players=self.players,
            phase=self.phase,
            round=rnd.number,
            dealer=rnd.dealer,
            lead=rnd.lead,
            hand_size=self.hand_size,
            tokens_to_win=self.tokens_to_win,
            trick_number=rnd.trick_number,
            trick_lead=rnd.trick_lead,
            trick=tuple(TrickCard(s, str(c)) for s, c in rnd.trick),
            trick_winner=trick_winner(rnd.trick) if rnd.trick else None,
            zeros_in_trick=sum(1 for _, c in rnd.trick if c.is_zero),
            played=tuple(sorted(str(c) for c in rnd.played.elements())),
            # The stock lies face down: its size and its winner are public, its
            # value only once the round is scored (in "last_round").
            stock=StockView(stock_size(self.players), rnd.stock_winner),
            genre_totals=genre_totals,
            trend_threshold=self.trend_threshold,
            seats=seats,
            doubles=self.doubles,
            rerolls=None
            if rule is None
            else RerollView(rule.order, rule.most, rule.fewest, self.rerolls_done),
            last_round=last,
            next=None if expected is None else NextUp(expected.seat, Verb(expected.expects)),
            tokens=tuple(self.tokens),
            winners=tuple(best_seats(self.tokens)) if self.phase is Phase.OVER else (),
            columns=columns,
            columns_scored=scored,
            decides=self.decides,
        )

    def _round_view(self, result: RoundResult) -> RoundView:
        report = self.round_json(result)
        return RoundView(
            scores=tuple(report["scores"]),
            points=tuple(report["points"]),
            trendy=tuple(report["trendy"]),
            genres=report["genres"],
            stock=StockResult(result.stock_value, result.stock_winner),
        )


def _rerolls(seat: int, current: tuple[str, str], count: int) -> tuple[Reroll, ...]:
    """Every reroll of ``count`` dice from ``current`` (faces of rerolled dice vary).

    Built once per seat, faces and count: actions are frozen values, and legal
    actions after every round list the same few dozen of them again.
    """
    key = (seat, current, count)
    found = _REROLLS.get(key)
    if found is not None:
        return found
    if count == 0:
        made = [Reroll(seat, (), current)]
    elif count == 1:
        made = [Reroll(seat, (0,), (face, current[1])) for face in GENRES] + [
            Reroll(seat, (1,), (current[0], face)) for face in GENRES
        ]
    else:
        made = [Reroll(seat, (0, 1), (a, b)) for a in GENRES for b in GENRES]
    found = _REROLLS[key] = tuple(made)
    return found


_REROLLS: Interned[tuple[int, tuple[str, str], int], tuple[Reroll, ...]] = Interned()
