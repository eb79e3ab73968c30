"""Staff tasks by tapping cards: tag enrollment, deck audit, seat assignment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.tags.enrollment import DeckAudit, Enrollment, SeatAssignment
from controller.tags.registry import (
    SIMULATED_STAFF_UID,
    RegistryError,
    TagRegistry,
    deck_cards,
    simulated,
    simulated_uid,
)
from tests.words import shown, shown_all


def uid(n: int) -> str:
    return f"04{n:012X}"


# --- enrollment -------------------------------------------------------------------------


def test_enrollment_names_each_card_in_deck_order_and_saves_after_each_tap(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    registry = TagRegistry()
    enrollment = Enrollment(registry, "standard-52", path=path)
    cards = deck_cards("standard-52")
    assert enrollment.next_card == cards[0] == "2S"
    assert shown(enrollment.prompt) == "Tap 2♠ (1 of 52 in the standard-52 deck)"
    result = enrollment.tap(uid(0))
    assert result.accepted and result.card == "2S"
    assert shown(result.message) == "2♠ enrolled; now tap 3♠"
    saved = json.loads(path.read_text())
    assert saved["decks"]["standard-52"] == {uid(0): "2S"}
    for n in range(1, 52):
        assert enrollment.tap(uid(n)).accepted
    assert enrollment.done and enrollment.next_card is None
    assert "all 52 cards have tags" in shown(enrollment.prompt)
    reloaded = TagRegistry.load(path)
    assert [reloaded.lookup(uid(n)).card for n in range(52)] == cards
    assert not enrollment.tap(uid(99)).accepted


def test_enrollment_refuses_a_tag_already_another_card_and_changes_nothing() -> None:
    registry = simulated(["oshaka"])
    enrollment = Enrollment(registry, "standard-52")
    taken = simulated_uid("oshaka", "R7")
    result = enrollment.tap(taken.lower())
    assert not result.accepted
    assert shown(result.message) == "That tag is already R7 of oshaka; tap the card 2♠"
    assert enrollment.next_card == "2S"
    assert registry.lookup(taken).card == "R7"  # type: ignore[union-attr]
    staff = enrollment.tap(SIMULATED_STAFF_UID)
    assert not staff.accepted and "a staff tag" in shown(staff.message)


def test_enrollment_refuses_the_same_tag_twice_even_for_a_card_the_deck_holds_twice() -> None:
    registry = TagRegistry()
    enrollment = Enrollment(registry, "oskar")
    cards = deck_cards("oskar")
    for n, _ in enumerate(cards[:-5]):
        assert enrollment.tap(uid(n)).accepted
    assert enrollment.next_card == "R0"  # the oskar deck holds five zeros
    assert enrollment.tap(uid(500)).accepted
    again = enrollment.tap(uid(500))
    assert not again.accepted
    assert shown(again.message) == "That tag was just enrolled as R0; tap the card R0"
    assert enrollment.remaining == 4


def test_enrollment_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    first = Enrollment(TagRegistry(), "oshaka", path=path)
    for n in range(10):
        first.tap(uid(n))
    resumed = Enrollment(TagRegistry.load(path), "oshaka", path=path)
    assert resumed.next_card == deck_cards("oshaka")[10]
    assert resumed.remaining == 52 - 10


def test_skip_puts_a_missing_card_last() -> None:
    enrollment = Enrollment(TagRegistry(), "oshaka")
    assert enrollment.skip() == "R2"
    enrollment.tap(uid(1))
    assert enrollment.remaining == 51
    assert enrollment._todo[-1] == "R1"


def test_enrollment_of_an_unknown_deck_is_refused() -> None:
    with pytest.raises(RegistryError, match='no deck "tarot"'):
        Enrollment(TagRegistry(), "tarot")


# --- audit -------------------------------------------------------------------------------------


def test_a_full_deck_tapped_in_any_order_is_complete() -> None:
    registry = simulated(["oshaka"])
    audit = DeckAudit(registry, "oshaka")
    for card in reversed(deck_cards("oshaka")):
        assert audit.tap(simulated_uid("oshaka", card)).kind == "card"
    report = audit.report()
    assert report.complete and report.seen == 52
    assert shown_all(report.lines()) == ("The oshaka deck is complete: 52 cards",)


def test_audit_finds_missing_unknown_foreign_and_duplicated_cards() -> None:
    registry = simulated(["oshaka", "standard-52"])
    registry.enroll("oshaka", "B3", uid(7))  # a second tagged B3 got into the box
    audit = DeckAudit(registry, "oshaka")
    for card in deck_cards("oshaka"):
        if card not in ("R1", "Y13"):
            audit.tap(simulated_uid("oshaka", card))
    assert audit.tap(uid(7)).kind == "card"
    assert audit.tap(simulated_uid("oshaka", "G5")).kind == "again"
    assert audit.tap("DEADBEEF").kind == "unknown"
    foreign = audit.tap(simulated_uid("standard-52", "QH"))
    assert (
        foreign.kind == "foreign"
        and shown(foreign.message) == "That is Q♥ of standard-52, not a oshaka card"
    )
    report = audit.report()
    assert report.missing == ["R1", "Y13"]
    assert report.duplicated == ["B3"]
    assert report.unknown == ["DEADBEEF"]
    assert [(tag, shown(what)) for tag, what in report.foreign] == [
        (simulated_uid("standard-52", "QH"), "Q♥ of standard-52")
    ]
    assert not report.complete
    assert shown_all(report.lines()) == (
        "oshaka: 53 cards tapped",
        "Missing (2): R1 and Y13",
        "Too many: B3",
        "From another deck: Q♥ of standard-52",
        "Unknown tags (1): DEADBEEF",
    )


def test_audit_counts_copies_of_a_card_the_deck_holds_several_times() -> None:
    registry = simulated(["oskar"])
    audit = DeckAudit(registry, "oskar")
    for card in deck_cards("oskar")[:-5]:
        audit.tap(simulated_uid("oskar", card))
    for copy in range(3):  # three of the five zeros
        audit.tap(simulated_uid("oskar", "R0", copy))
    assert audit.report().missing == ["R0", "R0"]


# --- seat assignment ----------------------------------------------------------------------------


PORTS = [
    "/dev/serial/by-path/usb-1.1",
    "/dev/serial/by-path/usb-1.2",
    "/dev/serial/by-path/usb-1.3",
]


def test_seats_are_assigned_by_tapping_at_each_seat_in_turn() -> None:
    assignment = SeatAssignment(PORTS, seats=3)
    # People count seats from 1: the first seat (seat 0 inside) is "Seat 1".
    assert shown(assignment.prompt) == "Tap any card on the reader at Seat 1"
    assert assignment.tap(PORTS[2]).seat == 0
    again = assignment.tap(PORTS[2])
    assert not again.accepted
    assert shown(again.message) == "That reader is already Seat 1; tap at Seat 2"
    assert assignment.tap(PORTS[0]).accepted
    assert not assignment.tap("/dev/ttyUSB7").accepted
    last = assignment.tap(PORTS[1])
    assert last.accepted and shown(last.message).endswith("; done")
    assert assignment.done
    assert assignment.assignment == {0: PORTS[2], 1: PORTS[0], 2: PORTS[1]}
    assert assignment.toml().startswith(f'[[seat]]\nreader = "{PORTS[2]}"\nprotocol = "link"\n')


def test_seat_assignment_can_undo_and_needs_enough_readers() -> None:
    assignment = SeatAssignment(PORTS, seats=2)
    assignment.tap(PORTS[0])
    assert assignment.undo() == 0
    assert assignment.next_seat == 0
    assert assignment.undo() is None
    with pytest.raises(ValueError, match="only 3 are connected"):
        SeatAssignment(PORTS, seats=4)
