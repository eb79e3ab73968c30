"""What turns or closes by itself with time: a seat's rules page, the pages of a long screen,
a seat's look back at the last trick.

Holding OK at a seat for ``HELP_HOLD`` seconds opens the rules page of the
game in progress (or chosen on the menu) on that seat's panel; it closes by
itself after ``HELP_SECONDS``. Holding NEXT as long during a game brings the
last trick back on that seat's panel (``recalls``) for ``RECALL_SECONDS``. A
press that reports (``SeatInput.reports``: Oss, where NEXT also means "failure")
waits here until it is let go, and counts only if it was short, so that no hold
reports by accident.
While a rules page is open or the results are shown, the page number turns
every ``RESULTS_PAGE_SECONDS``: the display shows the page it is told and
wraps round when it has fewer. On the attract screen it turns every
``ATTRACT_PAGE_SECONDS``: the showcase of the games (``display/showcase.py``)
steps through their rules lines.
"""

from __future__ import annotations

from controller.games import spec_of
from controller.games.words import Verbatim, Words, say

HELP_HOLD = 1.0  # seconds OK is held down for a seat's rules page
HELP_SECONDS = 25.0  # a rules page closes by itself after this long
RECALL_SECONDS = 8.0  # the last trick brought back on a seat's panel stays this long
RESULTS_PAGE_SECONDS = 6.0  # the results' rounds turn a page by themselves when they do not fit
ATTRACT_PAGE_SECONDS = 8.0  # the idle table's showcase: a game's next rules line, or the next game
# A long rules page stays open long enough to read every line: at the legible size a
# narrow panel at 800x480 holds about one rule a page (display/menu_screens.help_body).
LINE_SECONDS = 6.0


def help_seconds(lines: int) -> float:
    """How long a rules page of ``lines`` lines stays open: ``HELP_SECONDS``, or longer for
    a long page, so that its pages (turning every ``RESULTS_PAGE_SECONDS``) all come round."""
    return max(HELP_SECONDS, LINE_SECONDS * lines)


def rules_page(game_id: str) -> tuple[Words, tuple[Words, ...]]:
    """A game's rules page for a seat: its title and the lines of ``GameSpec.rules``."""
    spec = spec_of(game_id)
    return say("{game}: the rules at this table", game=Verbatim(spec.title)), spec.rules


class Pages:
    """The seats' open rules pages, the OK holds that open them, and the turning page."""

    def __init__(self) -> None:
        self._ok_down: dict[int, float] = {}  # seat -> when its OK went down (event time)
        self._next_down: dict[int, float] = {}  # seat -> when its NEXT went down
        self._recall: dict[int, float] = {}  # seat -> when its look at the last trick ends
        # seat -> a report pressed there (its button, when it went down): it counts when
        # let go, if short (``SeatInput.reports``).
        self._reporting: dict[int, tuple[object, float]] = {}
        self._help: dict[int, tuple[str, float]] = {}  # seat -> (game id, closes at)
        self.page = 0  # which page of a long screen the display shows
        self._page_at = 0.0

    def ok_down(self, seat: int, at: float) -> None:
        """OK went down at ``seat`` (the press has acted already)."""
        self._ok_down[seat] = at

    def ok_up(self, seat: int, at: float) -> bool:
        """OK came up at ``seat``: whether it was held long enough for the rules page."""
        down = self._ok_down.pop(seat, None)
        return down is not None and at - down >= HELP_HOLD

    def next_down(self, seat: int, at: float) -> None:
        """NEXT went down at ``seat`` (the press has acted already)."""
        self._next_down[seat] = at

    def next_up(self, seat: int, at: float) -> bool:
        """NEXT came up at ``seat``: whether it was held long enough to recall the last trick."""
        down = self._next_down.pop(seat, None)
        return down is not None and at - down >= HELP_HOLD

    def report_down(self, seat: int, button: object, at: float) -> None:
        """A press that reports went down at ``seat``: it waits to be let go."""
        self._reporting[seat] = (button, at)

    def report_up(self, seat: int, button: object, at: float) -> bool:
        """``button`` came up at ``seat``: whether it was a report's short press, which
        counts now (a hold of ``HELP_HOLD`` or more reports nothing: it looks back)."""
        waiting = self._reporting.get(seat)
        if waiting is None or waiting[0] != button:
            return False
        del self._reporting[seat]
        return at - waiting[1] < HELP_HOLD

    def recall(self, seat: int, now: float) -> None:
        """Show the last trick on ``seat``'s panel for ``RECALL_SECONDS`` from ``now``."""
        self._recall[seat] = now + RECALL_SECONDS

    def recalls(self) -> tuple[int, ...]:
        """The seats looking at the last trick, as the view carries them."""
        return tuple(sorted(self._recall))

    def open_help(self, seat: int, game_id: str, now: float) -> None:
        """Show ``game_id``'s rules page at ``seat`` for ``help_seconds`` from ``now``."""
        self._help[seat] = (game_id, now + help_seconds(len(rules_page(game_id)[1])))

    def help(self) -> dict[int, tuple[Words, tuple[Words, ...]]]:
        """The open rules pages by seat, as the view carries them."""
        return {seat: rules_page(game_id) for seat, (game_id, _) in self._help.items()}

    def turn(self, step: int, now: float) -> None:
        """A seat turned the page by ``step`` (PREV -1, NEXT +1); the page then stays its
        full time before turning by itself again."""
        self.page += step
        self._page_at = now

    def tick(self, now: float, *, results: bool, attract: bool = False) -> bool:
        """Close the rules pages that are due and turn the page; whether anything changed."""
        closed = [seat for seat, (_, until) in self._help.items() if now >= until]
        for seat in closed:
            del self._help[seat]
        looked = [seat for seat, until in self._recall.items() if now >= until]
        for seat in looked:
            del self._recall[seat]
        paging = results or attract or bool(self._help)
        every = ATTRACT_PAGE_SECONDS if attract and not self._help else RESULTS_PAGE_SECONDS
        if paging and now - self._page_at >= every:
            self._page_at = now
            self.page += 1
            return True
        return bool(closed or looked)
