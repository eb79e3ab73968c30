"""The way into the staff desk: the PIN guard, what the desk may offer, and its way out.

A staff tag on the attract screen opens the desk, unless the staff PIN is
locked after wrong tries; staff leaving the desk by "Stop the kiosk" sets
``quit_requested``, which the kiosk's loop reads.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

from controller.config.table_config import TableConfig
from controller.games.base import JSON
from controller.games.words import Text, say
from controller.tags.registry import TagRegistry
from controller.tags.staff_desk import StaffDesk
from controller.tags.staff_pin import PinGuard, PinHash

logger = logging.getLogger(__name__)


def pin_guard(
    config: TableConfig,
    clock: Callable[[], float],
    staff_log: Callable[[str, JSON], None] | None,
) -> PinGuard | None:
    """The staff PIN's guard, when ``[staff] pin_hash`` sets one; wrong tries are journaled."""
    staff = config.staff
    if staff.pin_hash is None:
        return None

    def report(event: str, detail: dict[str, object]) -> None:
        logger.warning("staff PIN: %s %s", event, detail)
        if staff_log is not None:
            staff_log(event, dict(detail))

    return PinGuard(
        PinHash.parse(staff.pin_hash),
        clock,
        tries=staff.tries,
        lockout=staff.lockout,
        report=report,
    )


class StaffDoor:
    """Opens the staff desk (or says why not) and keeps whether staff stopped the kiosk."""

    def __init__(
        self,
        registry: TagRegistry,
        guard: PinGuard | None,
        history: Callable[[], list[tuple[str, ...]]] | None,
        *,
        can_quit: bool,
    ) -> None:
        self.registry = registry
        self.guard = guard
        self.history = history
        self.can_quit = can_quit  # the desk offers "Stop the kiosk" (a locked-down window)
        self.quit_requested = False

    def open(self, seat: int, config: TableConfig) -> StaffDesk | Text:
        """The desk for staff at ``seat``, or why it stays closed (the PIN is locked)."""
        guard = self.guard
        if guard is not None and guard.locked_for() > 0:
            return say(
                "The staff PIN is locked for {seconds} s after wrong tries; "
                "the staff desk stays closed",
                seconds=math.ceil(guard.locked_for()),
            )
        return StaffDesk(
            seat, self.registry, config.tags, self.history, guard=guard, can_quit=self.can_quit
        )

    def closed(self, desk: StaffDesk) -> None:
        """The desk closed itself; staff may have chosen to stop the kiosk there."""
        if desk.quit:
            self.quit_requested = True
