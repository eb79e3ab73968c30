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

from controller.tags import RegistryError, TagRegistry, deck_cards

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


# --- enrollment -----------------------------------------------------------------


@dataclass(frozen=True)
class EnrollTap:
    """What a tap did during enrollment. ``card`` is the card it was enrolled as, if accepted."""

    accepted: bool
    message: str
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
    def prompt(self) -> str:
        """What the display says."""
        card = self.next_card
        if card is None:
            return f"The {self.deck} deck is enrolled: all {self.total} cards have tags"
        number = self.total - len(self._todo) + 1
        return f"Tap {card} ({number} of {self.total} in the {self.deck} deck)"

    def tap(self, uid: str) -> EnrollTap:
        """Enroll ``uid`` as the next card, or refuse it with a reason."""
        card = self.next_card
        key = _clean(uid)
        if card is None:
            return EnrollTap(False, f"The {self.deck} deck is already complete")
        if key in self._session:
            return EnrollTap(
                False,
                f"That tag was just enrolled as {self._session[key]}; tap the card {card}",
            )
        existing = self.registry.lookup(key)
        if existing is not None:
            what = "a staff tag" if existing.is_staff else f"{existing.card} of {existing.deck}"
            return EnrollTap(False, f"That tag is already {what}; tap the card {card}")
        try:
            self.registry.enroll(self.deck, card, key)
        except RegistryError as exc:
            return EnrollTap(False, f"{exc}; tap the card {card}")
        self._session[key] = card
        self._done.append((key, card))
        self._todo.pop(0)
        if self.path is not None:
            self.registry.save(self.path)
        following = self.next_card
        then = f"; now tap {following}" if following else "; the deck is complete"
        return EnrollTap(True, f"{card} enrolled{then}", card)

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
    message: str
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
    foreign: list[tuple[str, str]] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.unknown or self.foreign or self.duplicated)

    def lines(self) -> list[str]:
        """The report as lines for the display."""
        if self.complete:
            return [f"The {self.deck} deck is complete: {self.seen} cards"]
        out = [f"{self.deck}: {self.seen} cards tapped"]
        if self.missing:
            out.append(f"Missing ({len(self.missing)}): {', '.join(self.missing)}")
        if self.duplicated:
            out.append(f"Too many: {', '.join(self.duplicated)}")
        if self.foreign:
            out.append("From another deck: " + ", ".join(what for _, what in self.foreign))
        if self.unknown:
            out.append(f"Unknown tags ({len(self.unknown)}): {', '.join(self.unknown)}")
        return out


class DeckAudit:
    """Tap every card of a deck, in any order; ``report()`` says what is wrong with it."""

    def __init__(self, registry: TagRegistry, deck: str) -> None:
        self.registry = registry
        self.deck = deck
        self._expected = Counter(deck_cards(deck))
        self._seen_uids: dict[str, str] = {}  # uid -> card, for this deck's tags
        self._unknown: list[str] = []
        self._foreign: list[tuple[str, str]] = []

    def tap(self, uid: str) -> AuditTap:
        """Record one tap; a second tap of the same tag is noted and ignored."""
        key = _clean(uid)
        if key in self._seen_uids:
            return AuditTap("again", f"{self._seen_uids[key]} was already tapped", None)
        if key in self._unknown or any(key == u for u, _ in self._foreign):
            return AuditTap("again", "That tag was already tapped", None)
        entry = self.registry.lookup(key)
        if entry is None:
            self._unknown.append(key)
            return AuditTap("unknown", f"Unknown tag {key}: not enrolled")
        if entry.deck != self.deck:
            what = "a staff tag" if entry.is_staff else f"{entry.card} of {entry.deck}"
            self._foreign.append((key, what))
            return AuditTap("foreign", f"That is {what}, not a {self.deck} card", entry.card)
        self._seen_uids[key] = entry.card
        return AuditTap("card", f"{entry.card} ({len(self._seen_uids)} tapped)", entry.card)

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
    message: str
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
    def prompt(self) -> str:
        seat = self.next_seat
        if seat is None:
            return "Every seat has its reader"
        return f"Tap any card on the reader at seat {seat}"

    def tap(self, port: str) -> AssignTap:
        seat = self.next_seat
        if seat is None:
            return AssignTap(False, "Every seat already has its reader")
        if port not in self.ports:
            return AssignTap(False, f"{port} is not one of the readers being assigned")
        for taken, where in self.assignment.items():
            if where == port:
                return AssignTap(
                    False, f"That reader is already seat {taken}; tap at seat {seat}", taken
                )
        self.assignment[seat] = port
        after = self.next_seat
        then = f"; now seat {after}" if after is not None else "; done"
        return AssignTap(True, f"Seat {seat} is the reader at {port}{then}", seat)

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
