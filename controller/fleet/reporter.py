"""What a table tells the café: its state after each change, events when things happen.

``FleetReporter`` watches the table from the table loop: after every input it
compares the table's new view with the last one it reported and hands the
link a new state (rate-limited by the link), an event for a game started or
finished and for a reader gone or back, and an alert for a reader offline. It
reads views only; it never changes the table.

How long the game has run goes in the state as ``game_elapsed``, seconds from
a steady clock (the journal's, which also counts a game resumed after a
restart): the hub judges "running long" from it, never from ``game_started``
and its own clock, since a table's wall clock may be wrong (a Pi has no
real-time clock and can think it is 1970 until NTP has set it).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any, Protocol

from controller.view import Screen, TableView
from controller.words import Presenter

ENGLISH = Presenter()


class Link(Protocol):
    """What the reporter needs of ``FleetLink``."""

    def publish_state(self, state: dict[str, Any]) -> None: ...

    def event(self, kind: str, **data: Any) -> None: ...

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None: ...


def table_state(
    view: TableView,
    *,
    game_started: str | None,
    game_elapsed: float | None = None,
    waiting: list[int],
    totals: list[int] | None,
    round_number: int | None,
    decks: dict[str, tuple[int, int]],
    journal: str = "ok",
) -> dict[str, Any]:
    """The retained ``state`` message: plain data, seats numbered from 1 as people count."""
    title = None
    if view.game_id is not None:
        words = view.game_title or next(
            (g.title for g in view.games if g.game_id == view.game_id), view.game_id
        )
        # A title may be a message ("Oskar: first to 8 tokens"): the hub's pages are English.
        title = ENGLISH(words)
    return {
        "version": view.version,
        "screen": view.screen.value,
        "game": view.game_id,
        "title": title,
        "game_started": game_started,
        "game_elapsed": None if game_elapsed is None else round(game_elapsed),
        "round": round_number,
        "seats": [
            {"seat": s.seat + 1, "joined": s.joined, "bot": s.is_bot, "reader": s.reader_online}
            for s in view.seats
        ],
        "waiting_for": [seat + 1 for seat in waiting],
        "totals": totals,
        "readers_offline": [s.seat + 1 for s in view.seats if not s.reader_online],
        # Seats a member card named (seats counted from 1, as above).
        "nicknames": {str(seat + 1): name for seat, name in sorted(view.nicknames.items())},
        "journal": journal,
        "decks": {deck: list(counts) for deck, counts in decks.items()},
    }


# A table's clock reading before this is a clock NTP has not set yet (a Pi has no RTC).
_CLOCK_SET_AFTER = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def _wall_now() -> str | None:
    """The time now for ``game_started``, or None while the table's clock is plainly not set."""
    now = dt.datetime.now(dt.UTC)
    return now.isoformat(timespec="seconds") if now >= _CLOCK_SET_AFTER else None


class FleetReporter:
    """Turns the table's successive views into state, events and alerts for the link."""

    def __init__(
        self,
        link: Link,
        now: Callable[[], str | None] | None = None,
        *,
        elapsed: Callable[[], float | None] | None = None,
        steady: Callable[[], float] = time.monotonic,
    ) -> None:
        self.link = link
        self.now = now or _wall_now
        # The game's elapsed seconds as the journal counts them; without a journal (or
        # for a game it cannot time), the steady clock since this reporter saw it start.
        self.elapsed = elapsed
        self.steady = steady
        self._last: TableView | None = None
        self.game_started: str | None = None
        self._started_steady: float | None = None
        self._ended_after: float | None = None  # the elapsed time frozen on the results screen
        self._offline_alerts = 0
        self._last_sent: dict[str, Any] | None = None  # the last state sent, without its version

    def is_new(self, view: TableView) -> bool:
        """Whether ``view`` is a version not reported yet (worth gathering facts for)."""
        return self._last is None or self._last.version != view.version

    def observe(self, view: TableView, **facts: Any) -> None:
        """Report ``view`` if it changed; ``facts`` are ``table_state``'s other arguments."""
        last = self._last
        if not self.is_new(view):
            return
        self._last = view
        if view.screen is Screen.PLAY and (last is None or last.screen is not Screen.PLAY):
            if last is not None or self.game_started is None:
                self.game_started = self.now()
                self._started_steady = self.steady()
            self._ended_after = None
            self.link.event("game-started", game=view.game_id)
        if view.screen is Screen.RESULTS and last is not None and last.screen is Screen.PLAY:
            self._ended_after = self._playing_elapsed()
            result = view.result or {}
            self.link.event(
                "game-finished",
                game=view.game_id,
                totals=result.get("totals"),
                winners=[w + 1 for w in result.get("winners", [])],
            )
        if view.screen not in (Screen.PLAY, Screen.RESULTS):
            self.game_started = None
            self._started_steady = self._ended_after = None
        if last is not None:
            for before, after in zip(last.seats, view.seats, strict=False):
                if before.reader_online and not after.reader_online:
                    self._offline_alerts += 1
                    self.link.event("reader-offline", seat=after.seat + 1)
                    self.link.alert(
                        f"reader-{after.seat}-{self._offline_alerts}",
                        "reader-offline",
                        f"Seat {after.seat + 1}'s reader is not answering: check its USB cable",
                        seat=after.seat,
                    )
                elif after.reader_online and not before.reader_online:
                    self.link.event("reader-back", seat=after.seat + 1)
        state = table_state(
            view, game_started=self.game_started, game_elapsed=self._game_elapsed(view), **facts
        )
        # A new version that changes nothing the hub shows (the attract screen turning its
        # showcase page every few seconds) is not worth a message on the café's network.
        unchanged = {k: v for k, v in state.items() if k != "version"}
        if unchanged == self._last_sent:
            return
        self._last_sent = unchanged
        self.link.publish_state(state)

    def _game_elapsed(self, view: TableView) -> float | None:
        """Seconds the game on the screen has been played (frozen once it is over)."""
        if view.screen is Screen.PLAY:
            return self._playing_elapsed()
        if view.screen is Screen.RESULTS:
            return self._ended_after
        return None

    def _playing_elapsed(self) -> float | None:
        counted = None if self.elapsed is None else self.elapsed()
        if counted is not None:
            return counted
        return None if self._started_steady is None else self.steady() - self._started_steady
