"""The trick-taking kernel: the hand, play and trick events, and the trick with its rules.

Oshaka Trick and Oh Pshaw share this much: a seat may register its hand
(``RegisterHand``, answered by ``HandRegistered``), a seat plays a card
(``CardPlayed``), a full trick is won (``TrickWon``). The ``Trick`` keeps the
cards on the table in play order and decides, by the game's ``TrickRules``,
what a seat may play (follow the led suit while it holds one) and who wins.

The classes are generic in the game's card type ``C`` (an Oshaka ``Card``, an
Oh Pshaw card number) and suit type ``S``; each game's notation stays its own,
and each game names the parametrised classes once (``RegisterHand[Card]``).
A trick game's winner rules differ, so ``TrickRules`` names one of ``WinRule``:

* ``WinRule.HIGHEST`` (Oh Pshaw, whist): the highest trump wins, else the
  highest card of the led suit.
* ``WinRule.LOWEST`` (Oshaka Trick): with every card of the led suit the
  lowest wins; otherwise the lowest card of a suit other than the led one,
  equal ranks going to the later player.

``Trick.winner`` also says how the trick was won (``TrickWin``), for games that
explain it (``TrickWon.reason``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from controller.games.base import JSON, Action, Event
from controller.games.words import Words

C = TypeVar("C")  # a game's card
S = TypeVar("S")  # a game's suit (colour)

HAND = "hand"  # the record's verb of a hand registration


# --- the action and the events every trick game shares ---------------------------


@dataclass(frozen=True)
class RegisterHand(Action, Generic[C]):
    """A seat's hand for the current round, registered before its first play."""

    cards: tuple[C, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, HAND: [str(c) for c in self.cards]}


@dataclass(frozen=True)
class HandRegistered(Event):
    """A seat's hand was registered: from now on its plays are checked against it."""

    seat: int
    count: int


@dataclass(frozen=True)
class CardPlayed(Event, Generic[C]):
    """``seat`` played ``card`` to trick number ``trick`` (from 1)."""

    seat: int
    card: C
    trick: int


@dataclass(frozen=True)
class TrickWon(Event, Generic[C]):
    """``seat`` won trick number ``trick``; ``cards`` are its (seat, card) plays in order.

    ``reason`` says why, in words: which of the game's ways to win a trick decided
    it (Oshaka Trick: the smallest card off the lead, or of all; Oh Pshaw: the
    highest trump, or the highest of the suit led). None for a game that does not say.
    """

    seat: int
    trick: int
    cards: tuple[tuple[int, C], ...]
    reason: Words | None = None


# --- the trick ---------------------------------------------------------------------


class WinRule(Enum):
    """Which card wins a trick: see the module docstring."""

    HIGHEST = "highest"
    LOWEST = "lowest"


class TrickWin(Enum):
    """How a trick was won, as ``Trick.winner`` decided it."""

    HIGHEST_LED = "highest of the led suit"
    HIGHEST_TRUMP = "highest trump"
    LOWEST_ALL_LED = "lowest, every card of the led suit"
    LOWEST_OFF_LEAD = "lowest of a suit other than the led one"
    # Oh Pshaw's Wizard variant: a Wizard always wins, a trick of Jesters alone goes to the first.
    FIRST_WIZARD = "first Wizard"
    ALL_JESTERS = "all Jesters"


@dataclass(frozen=True, slots=True)
class TrickRules(Generic[C, S]):
    """A game's trick rules: how to read a card's suit and rank, and which card wins.

    ``suit`` and ``rank`` are called on the hot paths: give C-level callables
    (``operator.attrgetter``, a tuple's ``__getitem__``) where the game can.
    Ranks only need to order the cards of one suit.
    """

    suit: Callable[[C], S]
    rank: Callable[[C], int]
    wins: WinRule


class Trick(Generic[C, S]):
    """The cards on the table in one trick, in the order played, under the game's rules.

    Iterating a trick gives its ``(seat, card)`` plays; ``len`` counts them and an
    empty trick is false. ``led`` is the suit of the first card (None before it).
    """

    __slots__ = ("lead_seat", "led", "plays", "rules")

    def __init__(self, rules: TrickRules[C, S], lead_seat: int) -> None:
        self.rules = rules
        self.lead_seat = lead_seat
        self.plays: list[tuple[int, C]] = []
        self.led: S | None = None

    def __len__(self) -> int:
        return len(self.plays)

    def __bool__(self) -> bool:
        return bool(self.plays)

    def __iter__(self) -> Iterator[tuple[int, C]]:
        return iter(self.plays)

    def __repr__(self) -> str:
        return f"Trick(lead_seat={self.lead_seat}, plays={self.plays!r})"

    def add(self, seat: int, card: C) -> None:
        """Put ``seat``'s card on the table (the engine has checked it may be played)."""
        if not self.plays:
            self.led = self.rules.suit(card)
        self.plays.append((seat, card))

    def with_play(self, seat: int, card: C) -> Trick[C, S]:
        """A copy of this trick with ``seat``'s card added (a bot's "what if I played it")."""
        probe = Trick(self.rules, self.lead_seat)
        probe.plays = [*self.plays, (seat, card)]
        probe.led = self.rules.suit(probe.plays[0][1])
        return probe

    def follows(self, card: C, hand: Iterable[C]) -> bool:
        """Whether playing ``card`` from ``hand`` keeps must-follow: the led suit while held."""
        led = self.led
        if led is None:
            return True
        suit = self.rules.suit
        return suit(card) == led or led not in map(suit, hand)  # map: the loop stays in C

    def unfollowed(self, seat: int) -> C | None:
        """The card ``seat`` played in this trick off the suit led (a renege if it held
        that suit; the trick does not know), or None: it followed, or played no card here."""
        led = self.led
        if led is None:
            return None
        for played_by, card in self.plays:
            if played_by == seat:
                return None if self.rules.suit(card) == led or self.exempt(card) else card
        return None

    def exempt(self, card: C) -> bool:
        """Whether ``card`` may be played whatever the suit led (none in the kernel's rules)."""
        return False

    def playable(self, hand: Collection[C]) -> Collection[C]:
        """The cards of ``hand`` that may be played now: the led suit's if any, else all.

        Where every card may be played this is ``hand`` itself (no copy: the
        engines call it for every legal-actions question), so do not change it.
        """
        led = self.led
        if led is None:
            return hand
        suit = self.rules.suit
        return [c for c in hand if suit(c) == led] or hand

    def winner(self, trump: S | None = None) -> tuple[int, C, TrickWin]:
        """The winning seat, its card, and how it won; ``trump`` for ``WinRule.HIGHEST``."""
        # Called once a trick by every engine and bot: each card's suit and rank is read once.
        rules, led = self.rules, self.led
        suit, rank = rules.suit, rules.rank
        plays = iter(self.plays)
        best_seat, best = next(plays)
        best_rank = rank(best)
        if rules.wins is WinRule.HIGHEST:
            best_suit = led
            for seat, card in plays:
                card_suit = suit(card)
                if card_suit == best_suit:
                    card_rank = rank(card)
                    if card_rank > best_rank:
                        best_seat, best, best_rank = seat, card, card_rank
                elif card_suit == trump:
                    best_seat, best, best_suit, best_rank = seat, card, card_suit, rank(card)
            how = TrickWin.HIGHEST_LED if best_suit == led else TrickWin.HIGHEST_TRUMP
            return best_seat, best, how
        # WinRule.LOWEST: the lowest card off the led suit, equal ranks to the later
        # player (<=); with none off the led suit, the lowest (one suit has no equal ranks).
        off_seat, off, off_rank = -1, best, 0
        for seat, card in plays:
            card_rank = rank(card)
            if suit(card) != led:
                if off_seat < 0 or card_rank <= off_rank:
                    off_seat, off, off_rank = seat, card, card_rank
            elif off_seat < 0 and card_rank < best_rank:
                best_seat, best, best_rank = seat, card, card_rank
        if off_seat >= 0:
            return off_seat, off, TrickWin.LOWEST_OFF_LEAD
        return best_seat, best, TrickWin.LOWEST_ALL_LED
