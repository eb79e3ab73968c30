"""Cutting for the deal: who starts, where the rulebook says the lowest card decides.

Oh Pshaw's rulebook: "Der erste Geber wird durch Abheben für die niedrigste
Karte bestimmt." Every joined seat cuts one card from the shuffled deck (taps
it at its reader, or the table cuts for it: a bot's seat, a seat whose reader
is offline, a seat that presses OK, or every seat with the virtual deal); the
lowest card starts, and seats tied for the lowest cut again, only among
themselves. The cut's cards are not cards in play: nothing of the cut reaches
the engine or the record but the seat it chose (the header's starter key).
``Cut`` is plain state; the starter screen (``controller.table.screens``)
drives it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.games.words import Card, Items, Seat, Words, say


@dataclass
class Cut:
    """One cut for the deal: who still cuts in this round of it, and what each cut."""

    contenders: list[int]  # the seats cutting in this round (all joined; then the tied)
    rank: Callable[[str], int]  # what a cut card counts; the lowest starts
    deck: Sequence[str]  # the game's cards, from which the table cuts for a seat
    cards: dict[int, str] = field(default_factory=dict)  # seat -> card cut in this round
    seen: set[str] = field(default_factory=set)  # every card cut so far (not drawn again)

    def waiting(self) -> list[int]:
        """The seats still to cut in this round, in seat order."""
        return [seat for seat in self.contenders if seat not in self.cards]

    def refusal(self, seat: int, card: str) -> Words | None:
        """Why ``seat`` may not cut ``card`` now, or None when it may."""
        if seat not in self.contenders:
            return say(
                "{seat} is out of this cut: only the seats tied for the lowest card cut again",
                seat=Seat(seat),
            )
        if seat in self.cards:
            return say(
                "{seat} has cut already ({card}): one card per seat; wait for the others",
                seat=Seat(seat),
                card=Card(self.cards[seat]),
            )
        holder = next((s for s, c in self.cards.items() if c == card), None)
        if holder is not None:
            return say(
                "{card} was cut already by {other}: cut another card from the deck",
                card=Card(card),
                other=Seat(holder),
            )
        return None

    def take(self, seat: int, card: str) -> None:
        """``seat`` cut ``card`` (checked by ``refusal`` first)."""
        self.cards[seat] = card
        self.seen.add(card)

    def draw(self, seat: int, rng: random.Random) -> str:
        """The table cuts for ``seat``: a card nobody has cut yet, at random."""
        taken = set(self.cards.values())
        fresh = [card for card in self.deck if card not in self.seen]
        card = rng.choice(fresh or [card for card in self.deck if card not in taken])
        self.take(seat, card)
        return card

    def lowest(self) -> list[int]:
        """The seats holding the lowest card of this round (all contenders have cut)."""
        low = min(self.rank(card) for card in self.cards.values())
        return [seat for seat in self.contenders if self.rank(self.cards[seat]) == low]

    def again(self, tied: list[int]) -> None:
        """The tied seats cut again, only among themselves."""
        self.contenders = list(tied)
        self.cards = {}

    def shown(self) -> Items:
        """This round's cuts as a list: "Seat 1 7♥, Seat 2 3♣ and Seat 3 J♠"."""
        return Items(
            tuple(
                say("{seat} {card}", seat=Seat(seat), card=Card(self.cards[seat]))
                for seat in self.contenders
                if seat in self.cards
            )
        )
