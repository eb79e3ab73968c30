"""The staff desk: what staff do at the table outside a game.

A staff tag tapped on the attract screen opens the desk at that seat. Its
seat buttons move through a menu (PREV / NEXT) and choose (OK):

* enroll a deck: the display names the next card to tap; a tag already
  enrolled to another card is refused; the registry is saved after every
  accepted tap (when the table has a registry file);
* audit a deck: tap every card in any order, then OK shows what is missing,
  unknown, from another deck or duplicated;
* game history: the latest finished games, oldest first, under their column names;
* stop the kiosk (only in a locked-down window, where players cannot quit);
* close.

With a staff PIN configured (``[staff] pin_hash``) the desk opens on the PIN
entry: the PIN's presses on the desk seat's buttons, then the menu. A wrong
PIN closes the desk (and counts towards the lock, see ``staff_pin``).

Card taps at any seat feed the enrollment or audit in progress. Everything
here is plain state turned into a ``StaffView`` for the display; the desk
never touches a game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.games.words import Text, Words, as_arg, say, say_plural
from controller.tags.enrollment import DeckAudit, Enrollment
from controller.tags.registry import TagRegistry, decks
from controller.tags.staff_pin import PinGuard
from controller.view import Button, StaffView

RECENT_LINES = 8


@dataclass
class StaffDesk:
    """The staff menu and the task chosen from it, for one staff member at one seat."""

    seat: int
    registry: TagRegistry
    registry_path: Path | None
    # The game history as rows of presented cells, the column names first.
    history: Callable[[], Sequence[tuple[str, ...]]] | None = None
    guard: PinGuard | None = None  # the staff PIN, asked for first when configured
    can_quit: bool = False  # offer "Stop the kiosk"
    selected: int = 0
    task: str = "menu"  # "pin", "menu", "enroll", "audit", "history"
    enrollment: Enrollment | None = None
    audit: DeckAudit | None = None
    lines: list[Words] = field(default_factory=list)
    table: tuple[tuple[str, ...], ...] = ()  # the history, column names first
    closed: bool = False
    quit: bool = False  # staff chose to stop the kiosk
    farewell: Words = ""  # why the desk closed itself, for the table to say

    def __post_init__(self) -> None:
        if self.guard is not None:
            self.guard.start()
            self.task = "pin"

    @property
    def options(self) -> list[tuple[Text, str, str]]:
        """(label, task, deck) for every menu line."""
        known = decks()
        items = [
            (say("Enroll the {deck} deck", deck=as_arg(deck.title)), "enroll", d)
            for d, deck in known.items()
        ]
        items += [
            (say("Audit the {deck} deck", deck=as_arg(deck.title)), "audit", d)
            for d, deck in known.items()
        ]
        if self.history is not None:
            items.append((say("Game history"), "history", ""))
        if self.can_quit:
            items.append((say("Stop the kiosk"), "quit", ""))
        items.append((say("Close the staff menu"), "close", ""))
        return items

    # --- input ----------------------------------------------------------------------

    def button(self, button: Button) -> None:
        """A press at the staff seat."""
        if self.task == "pin" and self.guard is not None:
            right = self.guard.press(button, self.seat)
            if right:
                self.task = "menu"
            elif right is not None:
                locked = self.guard.locked_for()
                self.closed = True
                self.farewell = (
                    say_plural(
                        "Wrong staff PIN: locked for {n} second",
                        "Wrong staff PIN: locked for {n} seconds",
                        round(locked),
                    )
                    if locked > 0
                    else say("Wrong staff PIN: the staff desk closed")
                )
            return
        if self.task == "menu":
            count = len(self.options)
            if button == Button.PREV:
                self.selected = (self.selected - 1) % count
            elif button == Button.NEXT:
                self.selected = (self.selected + 1) % count
            elif button == Button.OK:
                self._choose()
            return
        if self.task == "enroll" and button == Button.NEXT and self.enrollment is not None:
            self.enrollment.skip()
            self.lines.append(say("Skipped: that card is asked for again at the end"))
            return
        if self.task == "audit" and button == Button.OK and self.audit is not None:
            self.task = "audit-report"
            self.lines = list(self.audit.report().lines())
            return
        # PREV (and OK where it does nothing else) goes back to the menu.
        self.task, self.enrollment, self.audit, self.lines = "menu", None, None, []

    def tap(self, uid: str) -> None:
        """A tag tapped at any seat while the desk is open."""
        if self.task == "enroll" and self.enrollment is not None:
            self.lines.append(self.enrollment.tap(uid).message)
        elif self.task == "audit" and self.audit is not None:
            self.lines.append(self.audit.tap(uid).message)
        else:
            self.lines.append(say("Choose enroll or audit first (PREV / NEXT, then OK)"))
        self.lines = self.lines[-RECENT_LINES:]

    def _choose(self) -> None:
        _, task, deck = self.options[self.selected]
        self.lines = []
        if task == "close":
            self.closed = True
        elif task == "quit":
            self.closed = self.quit = True
        elif task == "enroll":
            if self.registry_path is None:
                # A table without a registry file (the simulator) practises on a copy
                # whose deck starts empty, so every step of enrolling can be seen.
                self.task, self.enrollment = task, Enrollment(_without(self.registry, deck), deck)
                self.lines.append(
                    say(
                        "Practice only: this table has no [tags] registry file; the deck starts "
                        "empty here and nothing is saved"
                    )
                )
            else:
                self.task, self.enrollment = (
                    task,
                    Enrollment(self.registry, deck, path=self.registry_path),
                )
        elif task == "audit":
            self.task, self.audit = task, DeckAudit(self.registry, deck)
        elif task == "history" and self.history is not None:
            self.task = task
            rows = tuple(self.history())
            if len(rows) > 1:  # the column names and at least one game
                self.table, self.lines = rows, []
            else:
                self.table, self.lines = (), [say("No finished games yet")]

    # --- the view --------------------------------------------------------------------

    def view(self) -> StaffView:
        if self.task == "pin" and self.guard is not None:
            entered = self.guard.entered
            return StaffView(
                title=say("Staff"),
                prompt=say("Enter the staff PIN on your seat's buttons (PREV / OK / NEXT)"),
                lines=("*" * entered + "-" * (self.guard.pin.presses - entered),),
                hint=say("a tag alone does not open the desk: its UID is not a secret"),
                seat=self.seat,
            )
        if self.task == "menu":
            return StaffView(
                title=say("Staff"),
                prompt=say("PREV / NEXT choose, OK opens"),
                options=tuple(label for label, _, _ in self.options),
                selected=self.selected,
                seat=self.seat,
            )
        if self.task == "enroll" and self.enrollment is not None:
            return StaffView(
                title=say("Enroll: {deck}", deck=as_arg(decks()[self.enrollment.deck].title)),
                prompt=self.enrollment.prompt,
                lines=tuple(self.lines),
                hint=say("NEXT skips this card, PREV finishes"),
                seat=self.seat,
            )
        if self.task == "audit" and self.audit is not None:
            return StaffView(
                title=say("Audit: {deck}", deck=as_arg(decks()[self.audit.deck].title)),
                prompt=say("Tap every card of the deck, in any order; OK shows the result"),
                lines=tuple(self.lines),
                hint=say("OK: result, PREV: back"),
                seat=self.seat,
            )
        history = self.task == "history"
        return StaffView(
            title=say("Game history") if history else say("Audit result"),
            prompt="",
            lines=tuple(self.lines),
            table=self.table if history else (),
            hint=say("PREV: back"),
            seat=self.seat,
        )


def _without(registry: TagRegistry, deck: str) -> TagRegistry:
    """A copy of ``registry`` without ``deck``'s tags (the original is left as it is)."""
    data = registry.to_json()
    decks_json = data["decks"]
    assert isinstance(decks_json, dict)
    decks_json.pop(deck, None)
    return TagRegistry.from_json(data)
