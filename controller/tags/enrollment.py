"""Staff tasks done by tapping cards: enrolling a deck's tags, auditing a deck, assigning readers.

Three small, pure state machines fed one tap at a time (a uid, and for seat
assignment the port it came from). Each returns a result the display can
show as it is (``message`` is written for staff at the table) and never
raises for a bad tap: a refused tap changes nothing.

* ``Enrollment``: the display names the next card to tap; a tap enrolls its
  tag as that card, unless the tag is already another card (in any deck, or
  a staff tag) or was already tapped in this session. The registry is saved
  (atomically) after every accepted tap when a path is given, so a power cut
  loses at most the tap in hand. Resumable: cards already enrolled for the
  deck are not asked for again.
* ``DeckAudit``: tap every card of a deck in any order, then see what is
  missing, unknown, from another deck, or duplicated.
* ``SeatAssignment``: tap a card at seat 0's reader, then seat 1's, ...; it
  learns which reader port is which seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.games.words import (
    Card,
    Items,
    Seat,
    Text,
    Verbatim,
    as_arg,
    say,
    say_plural,
)
from controller.tags.registry import RegistryError, TagRegistry, deck_cards

__all__ = [
    "AssignTap",
    "AuditReport",
    "AuditTap",
    "DeckAudit",
    "EnrollTap",
    "Enrollment",
    "SeatAssignment",
]


def _clean(uid: str) -> str:
    return TagRegistry.normalize(uid)


def _cards(cards: list[str]) -> Items:
    return Items(tuple(Card(card) for card in cards))


# --- enrollment -----------------------------------------------------------------


@dataclass(frozen=True)
class EnrollTap:
    """What a tap did during enrollment. ``card`` is the card it was enrolled as, if accepted."""

    accepted: bool
    message: Text
    card: str | None = None


class Enrollment:
    """Enroll the tags of a new (or partly enrolled) deck, one card at a time, in deck order."""

    def __init__(self, registry: TagRegistry, deck: str, *, path: Path | None = None) -> None:
        self.registry = registry
        self.deck = deck
        self.path = path
        cards = deck_cards(deck)  # raises RegistryError for an unknown deck
        have = Counter(card for _, card in registry.cards_of(deck))
        # The cards still to enroll, in deck order; a card the deck holds n
        # times is asked for n times, less the copies already enrolled.
        self._todo: list[str] = []
        for card in cards:
            if have[card] > 0:
                have[card] -= 1
            else:
                self._todo.append(card)
        self.total = len(cards)
        self._session: dict[str, str] = {}  # uid -> card, tapped in this session
        self._done: list[tuple[str, str]] = []

    @property
    def next_card(self) -> str | None:
        """The card the display asks for now, or ``None`` when the deck is complete."""
        return self._todo[0] if self._todo else None

    @property
    def done(self) -> bool:
        return not self._todo

    @property
    def remaining(self) -> int:
        return len(self._todo)

    @property
    def prompt(self) -> Text:
        """What the display says."""
        card = self.next_card
        deck = Verbatim(self.deck)
        if card is None:
            return say(
                "The {deck} deck is enrolled: all {total} cards have tags",
                deck=deck,
                total=self.total,
            )
        number = self.total - len(self._todo) + 1
        return say(
            "Tap {card} ({number} of {total} in the {deck} deck)",
            card=Card(card),
            number=number,
            total=self.total,
            deck=deck,
        )

    def tap(self, uid: str) -> EnrollTap:
        """Enroll ``uid`` as the next card, or refuse it with a reason."""
        card = self.next_card
        key = _clean(uid)
        if card is None:
            return EnrollTap(
                False, say("The {deck} deck is already complete", deck=Verbatim(self.deck))
            )
        wanted = Card(card)
        if key in self._session:
            return EnrollTap(
                False,
                say(
                    "That tag was just enrolled as {enrolled}; tap the card {card}",
                    enrolled=Card(self._session[key]),
                    card=wanted,
                ),
            )
        existing = self.registry.lookup(key)
        if existing is not None:
            return EnrollTap(
                False,
                say(
                    "That tag is already {what}; tap the card {card}",
                    what=existing.words(),
                    card=wanted,
                ),
            )
        try:
            self.registry.enroll(self.deck, card, key)
        except RegistryError as exc:
            return EnrollTap(
                False, say("{problem}; tap the card {card}", problem=as_arg(exc.text), card=wanted)
            )
        self._session[key] = card
        self._done.append((key, card))
        self._todo.pop(0)
        if self.path is not None:
            self.registry.save(self.path)
        following = self.next_card
        if following is None:
            return EnrollTap(
                True, say("{card} enrolled; the deck is complete", card=Card(card)), card
            )
        return EnrollTap(
            True,
            say("{card} enrolled; now tap {following}", card=Card(card), following=Card(following)),
            card,
        )

    def skip(self) -> str | None:
        """Put the asked-for card last (it is missing from the box for now); return the next."""
        if self._todo:
            self._todo.append(self._todo.pop(0))
        return self.next_card


# --- deck audit -----------------------------------------------------------------------


@dataclass(frozen=True)
class AuditTap:
    """What one audit tap was: ``kind`` is "card", "again", "unknown" or "foreign"."""

    kind: str
    message: Text
    card: str | None = None


@dataclass(frozen=True)
class AuditReport:
    """The audit's findings; ``complete`` when nothing is missing, unknown, foreign or doubled.

    ``missing`` lists cards not seen (a card the deck holds twice appears once
    per missing copy); ``unknown`` tag uids enrolled nowhere; ``foreign``
    (uid, "card of deck") for tags of other decks; ``duplicated`` cards seen
    on more distinct tags than the deck holds (a second copy got in).
    """

    deck: str
    seen: int
    missing: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    foreign: list[tuple[str, Text]] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.unknown or self.foreign or self.duplicated)

    def lines(self) -> list[Text]:
        """The report as lines for the display."""
        deck = Verbatim(self.deck)
        if self.complete:
            return [
                say_plural(
                    "The {deck} deck is complete: {n} card",
                    "The {deck} deck is complete: {n} cards",
                    self.seen,
                    deck=deck,
                )
            ]
        out = [
            say_plural("{deck}: {n} card tapped", "{deck}: {n} cards tapped", self.seen, deck=deck)
        ]
        if self.missing:
            out.append(
                say(
                    "Missing ({count}): {cards}",
                    count=len(self.missing),
                    cards=_cards(self.missing),
                )
            )
        if self.duplicated:
            out.append(say("Too many: {cards}", cards=_cards(self.duplicated)))
        if self.foreign:
            out.append(
                say(
                    "From another deck: {cards}",
                    cards=Items(tuple(what for _, what in self.foreign)),
                )
            )
        if self.unknown:
            out.append(
                say(
                    "Unknown tags ({count}): {tags}",
                    count=len(self.unknown),
                    tags=Items(tuple(Verbatim(uid) for uid in self.unknown)),
                )
            )
        return out


class DeckAudit:
    """Tap every card of a deck, in any order; ``report()`` says what is wrong with it."""

    def __init__(self, registry: TagRegistry, deck: str) -> None:
        self.registry = registry
        self.deck = deck
        self._expected = Counter(deck_cards(deck))
        self._seen_uids: dict[str, str] = {}  # uid -> card, for this deck's tags
        self._unknown: list[str] = []
        self._foreign: list[tuple[str, Text]] = []

    def tap(self, uid: str) -> AuditTap:
        """Record one tap; a second tap of the same tag is noted and ignored."""
        key = _clean(uid)
        if key in self._seen_uids:
            return AuditTap(
                "again", say("{card} was already tapped", card=Card(self._seen_uids[key])), None
            )
        if key in self._unknown or any(key == u for u, _ in self._foreign):
            return AuditTap("again", say("That tag was already tapped"), None)
        entry = self.registry.lookup(key)
        if entry is None:
            self._unknown.append(key)
            return AuditTap("unknown", say("Unknown tag {tag}: not enrolled", tag=Verbatim(key)))
        if entry.deck != self.deck:
            what = entry.words()
            self._foreign.append((key, what))
            return AuditTap(
                "foreign",
                say("That is {what}, not a {deck} card", what=what, deck=Verbatim(self.deck)),
                entry.card,
            )
        self._seen_uids[key] = entry.card
        return AuditTap(
            "card",
            say("{card} ({count} tapped)", card=Card(entry.card), count=len(self._seen_uids)),
            entry.card,
        )

    def was_tapped(self, uid: str) -> bool:
        """Whether this tag was tapped already in this audit."""
        return _clean(uid) in self._seen_uids

    def report(self) -> AuditReport:
        seen = Counter(self._seen_uids.values())
        missing = [
            card
            for card in dict.fromkeys(deck_cards(self.deck))
            for _ in range(max(0, self._expected[card] - seen[card]))
        ]
        duplicated = sorted(card for card, n in seen.items() if n > self._expected[card])
        return AuditReport(
            self.deck,
            len(self._seen_uids) + len(self._unknown) + len(self._foreign),
            missing,
            list(self._unknown),
            list(self._foreign),
            duplicated,
        )


# --- seat assignment ---------------------------------------------------------------------


@dataclass(frozen=True)
class AssignTap:
    """What a tap did during seat assignment."""

    accepted: bool
    message: Text
    seat: int | None = None


class SeatAssignment:
    """Learn which reader is which seat: tap any card at seat 0, then seat 1, and so on.

    Open every reader port with a provisional seat number (its index in
    ``ports``) and feed ``tap(port)`` with the port each ``TagPresented``
    came from. ``assignment`` maps seat -> port once ``done``.
    """

    def __init__(self, ports: Sequence[str], seats: int) -> None:
        if seats > len(ports):
            raise ValueError(f"{seats} seats need {seats} readers; only {len(ports)} are connected")
        self.ports = list(ports)
        self.seats = seats
        self.assignment: dict[int, str] = {}

    @property
    def next_seat(self) -> int | None:
        n = len(self.assignment)
        return n if n < self.seats else None

    @property
    def done(self) -> bool:
        return self.next_seat is None

    @property
    def prompt(self) -> Text:
        seat = self.next_seat
        if seat is None:
            return say("Every seat has its reader")
        return say("Tap any card on the reader at {seat}", seat=Seat(seat))

    def tap(self, port: str) -> AssignTap:
        seat = self.next_seat
        if seat is None:
            return AssignTap(False, say("Every seat already has its reader"))
        if port not in self.ports:
            return AssignTap(
                False, say("{port} is not one of the readers being assigned", port=Verbatim(port))
            )
        for taken, where in self.assignment.items():
            if where == port:
                return AssignTap(
                    False,
                    say(
                        "That reader is already {taken}; tap at {seat}",
                        taken=Seat(taken),
                        seat=Seat(seat),
                    ),
                    taken,
                )
        self.assignment[seat] = port
        after = self.next_seat
        reader = Verbatim(port)
        if after is None:
            return AssignTap(
                True,
                say("{seat} is the reader at {port}; done", seat=Seat(seat), port=reader),
                seat,
            )
        return AssignTap(
            True,
            say(
                "{seat} is the reader at {port}; now {next}",
                seat=Seat(seat),
                port=reader,
                next=Seat(after),
            ),
            seat,
        )

    def undo(self) -> int | None:
        """Forget the last seat assigned (a tap at the wrong reader); return that seat."""
        if not self.assignment:
            return None
        seat = max(self.assignment)
        del self.assignment[seat]
        return seat

    def toml(self, protocol: str = "link") -> str:
        """``[[seat]]`` tables for table.toml with each seat's reader and protocol."""
        return "".join(
            f'[[seat]]\nreader = "{self.assignment[s]}"\nprotocol = "{protocol}"\n\n'
            for s in sorted(self.assignment)
        )
