"""Cutting for the deal: who starts, where the rulebook says the lowest card decides.

Oh Pshaw's rulebook: "Der erste Geber wird durch Abheben für die niedrigste
Karte bestimmt." Every joined seat cuts one card from the shuffled deck (taps
it at its reader, or the table cuts for it: a bot's seat, a seat whose reader
is offline, a seat that presses OK, or every seat with the virtual deal); the
lowest card starts, and seats tied for the lowest cut again, only among
themselves. The cut's cards are not cards in play: nothing of the cut reaches
the engine or the record but the seat it chose (the header's starter key).
``Cut`` is plain state; the starter screen (``controller.table.screens``)
drives it and journals it (``to_json``) after every card, so a table that
crashes mid-cut resumes it (``from_json``) instead of starting over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.games.base import JSON
from controller.games.words import Card, Items, Seat, Words, say


@dataclass
class Cut:
    """One cut for the deal: who still cuts in this round of it, and what each cut."""

    contenders: list[int]  # the seats cutting in this round (all joined; then the tied)
    rank: Callable[[str], int]  # what a cut card counts; the lowest starts
    deck: Sequence[str]  # the game's cards, from which the table cuts for a seat
    cards: dict[int, str] = field(default_factory=dict)  # seat -> card cut in this round
    seen: set[str] = field(default_factory=set)  # every card cut so far (not drawn again)
    earlier: list[dict[int, str]] = field(default_factory=list)  # the tied rounds before

    def to_json(self) -> JSON:
        """The cut as the journal keeps it (seats as text: JSON object keys)."""
        return {
            "contenders": list(self.contenders),
            "cards": {str(seat): card for seat, card in self.cards.items()},
            "seen": sorted(self.seen),
            "earlier": [{str(s): c for s, c in cards.items()} for cards in self.earlier],
        }

    @classmethod
    def from_json(cls, data: JSON, rank: Callable[[str], int], deck: Sequence[str]) -> Cut:
        """The cut ``to_json`` wrote; ValueError (or KeyError, TypeError) if it is not one."""

        def cards_of(obj: object) -> dict[int, str]:
            if not isinstance(obj, dict) or not all(c in deck for c in obj.values()):
                raise ValueError(f"not the cards of a cut: {obj!r}")
            return {int(seat): str(card) for seat, card in obj.items()}

        contenders = [int(seat) for seat in data["contenders"]]
        cards = cards_of(data["cards"])
        if not contenders or not set(cards) <= set(contenders):
            raise ValueError(f"a cut's cards {cards} are not its contenders' {contenders}")
        return cls(
            contenders,
            rank,
            deck,
            cards,
            {str(card) for card in data["seen"] if card in deck},
            [cards_of(obj) for obj in data["earlier"]],
        )

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
        self.earlier.append(self.cards)
        self.contenders = list(tied)
        self.cards = {}

    def shown(self, cards: dict[int, str] | None = None) -> Items:
        """This round's cuts (or ``cards``, an earlier round's) as a list: "Seat 1 7♥,
        Seat 2 3♣ and Seat 3 J♠"."""
        cards = self.cards if cards is None else cards
        return Items(
            tuple(
                say("{seat} {card}", seat=Seat(seat), card=Card(cards[seat]))
                for seat in sorted(cards)
            )
        )
