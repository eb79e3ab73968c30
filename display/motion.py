"""Motion on the table's screen: short eased movements drawn on the display's own clock.

The table's state is final before anything is drawn; motion only decides
*where* the drawing of that state is at this moment. A ``Motion`` belongs to
one renderer, which starts each frame with ``begin(now, scope)`` (its own
clock, injected in tests) and asks ``due`` when it needs the next frame. The
scenes ask it, while drawing, for:

- ``trick(plays, last, winner)``: the trick to draw. A completed trick stays,
  its winner marked, until the next card is played *and* for at least
  ``HOLD_SECONDS``; then it slides to its winner while the next trick's cards
  travel in from their seats (``TrickPicture``).
- ``held(last, winner)``: the trick just won, while it must still stay (a round
  that ended with it no longer has it in its snapshot; a phase that shows
  something else in the trick area once the hold is over).
- ``results(name, latest)``: what a game just decided that is no trick (a roll of
  the dice, an attempt's outcome): each new one stays ``RESULT_SECONDS`` from
  when this display first saw it, even when the next comes sooner.
- ``count(name, values)``: figures that count up (or down) to their new value
  (``figure(name, value)`` for one).
- ``glide(name, point)``: a point (the turn glow) moving to its new place.
- ``page(name, pages, seconds)``: which page of something too long for one
  (Oss's tricks on a small screen) shows now; the pages turn every ``seconds``.
  Not a movement: they turn with motion off too, and only while there are pages.

The renderer draws in parts (the centre, each seat's panel) and keeps each
until it changes; what a part asks for while it is drawn inside ``part(name)``
is followed for that part alone, and ``due_of(name)`` says when it needs
drawing again (a panel whose score counts is drawn again while it counts,
the others are not).

Every movement lasts 150-300 ms, eased out (fast start, gentle landing). When
frames fall behind (a gap of more than ``FALL_BEHIND`` between two frames
while something moves), what was moving jumps to its end: a late frame shows
where things are, never a stutter. ``enabled = False`` (``[display] motion =
false``) draws every movement at its end at once; the trick's hold stays,
since it is what lets players see the trick at all.

This module draws nothing and imports nothing of pygame: positions are plain
tuples, so it is tested with a fake clock alone.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar, cast

# How long each movement takes (seconds): all within the 150-300 ms that reads as
# "it moved there" without making anyone wait.
TRAVEL_SECONDS = 0.22  # a played card from its seat to the trick
SLIDE_SECONDS = 0.26  # a won trick to its winner
COUNT_SECONDS = 0.3  # a score counting to its new value
GLIDE_SECONDS = 0.2  # the turn glow to the next seat
# A completed trick stays at least this long, even when the next card comes sooner
# (a bot leading at once): long enough to see which card won.
HOLD_SECONDS = 2.0
# A result that is no trick (a roll of the dice, an attempt's outcome) is a sentence to
# read, not a card to glance at: it stays a little longer than the trick's hold.
RESULT_SECONDS = 3.0
# Frames while something moves: 30 a second is smooth on a Pi and leaves it room.
FRAME_STEP = 1 / 30
# A gap this long between frames while moving means the display fell behind:
# what moves jumps to its end rather than crawling on in big steps.
FALL_BEHIND = 0.1

Play = tuple[int, str]  # (engine seat, card)
Result = TypeVar("Result", bound=Hashable)
# The part of the picture drawn outside any ``Motion.part``: the renderer's centre.
CENTRE = "centre"


def ease_out(t: float) -> float:
    """Cubic ease-out of ``t`` in [0, 1]: quick to leave, soft to land."""
    t = min(1.0, max(0.0, t))
    return 1.0 - (1.0 - t) ** 3


def lerp_point(start: tuple[int, int], end: tuple[int, int], t: float) -> tuple[int, int]:
    """The point ``t`` of the way from ``start`` to ``end``."""
    return (round(start[0] + (end[0] - start[0]) * t), round(start[1] + (end[1] - start[1]) * t))


@dataclass(frozen=True)
class TrickPicture:
    """What the trick area shows at this moment.

    ``plays`` are the cards to draw where they lie; ``arriving`` says, per card
    still travelling in from its seat, how far it has come (0..1, eased).
    ``won`` is the completed trick still shown (its ``winner`` marked), and
    ``gone`` how far it has slid toward its winner (0 while it stays).
    """

    plays: tuple[Play, ...] = ()
    arriving: Mapping[str, float] = field(default_factory=dict)
    won: tuple[Play, ...] = ()
    winner: int | None = None
    gone: float = 0.0


@dataclass
class _Won:
    plays: tuple[Play, ...]
    winner: int
    at: float  # when the display first saw it completed


@dataclass
class _Tween:
    start: object  # the value it moves from
    end: object  # the value it moves to
    at: float  # when it started


class Motion:
    """The movements of one display; see the module docstring."""

    def __init__(self, *, enabled: bool = True, still: bool = False) -> None:
        """``enabled``: movements are drawn (else each is drawn at its end at once).
        ``still``: nothing is followed at all (a one-off picture, a screenshot)."""
        self.enabled = enabled
        self.still = still
        self.now = 0.0
        self.frames_moving = 0  # frames drawn while something moved (for tests and stats)
        self.shown: TrickPicture | None = None  # the trick area's last picture (for tests)
        self._scope: Hashable = None
        self._fresh = True  # the scope's first frame: what is there was there already
        self._previous_frame: float | None = None
        self._skip_before = -1.0  # movements started before this jumped to their end
        self._moving = False  # something asked for a frame in the current one
        self._last_moving = False
        # The part being drawn, whether it moves in this frame and when it wakes without
        # moving; and when each part drawn so far wants its next frame.
        self._part: Hashable = CENTRE
        self._drawn = False  # the part was drawn in this frame (its due is to be renewed)
        self._part_moving = False
        self._part_wake: float | None = None
        self._dues: dict[Hashable, float] = {}
        self._trick: tuple[Play, ...] = ()
        self._last: tuple[Play, ...] = ()
        self._won: _Won | None = None
        self._arrivals: dict[str, float] = {}
        self._tweens: dict[str, _Tween] = {}  # figures counting
        self._glides: dict[str, _Tween] = {}  # points gliding
        # name -> the results shown, each with when this display first saw it, oldest first
        self._results: dict[str, list[tuple[Hashable, float]]] = {}
        self._seen: dict[str, set[Hashable]] = {}  # name -> the results seen so far
        self._pages: dict[str, tuple[int, float]] = {}  # name -> (how many, first shown)

    # --- the renderer's side ----------------------------------------------------------

    def begin(self, now: float, scope: Hashable) -> None:
        """Start a frame at ``now`` of what ``scope`` names (a game in play; None for
        anything else): a new scope forgets what the old one moved."""
        if self.still:
            return
        if scope != self._scope:
            self.reset()
            self._scope = scope
        if (
            self._last_moving
            and self._previous_frame is not None
            and now - self._previous_frame > FALL_BEHIND
        ):
            self._skip_before = now  # fell behind: what moves jumps to its end
        self.now = now
        self._moving = False
        self._start_part(CENTRE)

    @contextmanager
    def part(self, name: Hashable) -> Iterator[None]:
        """Draw the part ``name`` of this frame (a seat's panel) inside this block: what it
        asks for is followed for it alone (``due_of``); then the centre again."""
        self._close_part()
        self._start_part(name, drawn=True)
        try:
            yield
        finally:
            self._close_part()
            self._start_part(CENTRE)

    def _start_part(self, name: Hashable, drawn: bool = False) -> None:
        self._part = name
        self._drawn = drawn
        self._part_moving = False
        self._part_wake = None

    def _close_part(self) -> None:
        """Remember when the part just drawn wants its next frame (it was drawn now); a
        part not drawn in this frame keeps what it wanted."""
        if self.still or not self._drawn:
            return
        pending = self._pending()
        if pending is None:
            self._dues.pop(self._part, None)
        else:
            self._dues[self._part] = pending

    def _pending(self) -> float | None:
        """When the part being drawn wants its next frame, as drawn so far."""
        if self._part_moving:
            return self.now + FRAME_STEP
        return self._part_wake

    def _dues_now(self) -> dict[Hashable, float]:
        """Each part's next frame, the part being drawn as drawn so far included."""
        if not self._drawn:
            return self._dues
        dues = dict(self._dues)
        pending = self._pending()
        if pending is None:
            dues.pop(self._part, None)
        else:
            dues[self._part] = pending
        return dues

    def places_moved(self) -> None:
        """The picture was laid out anew (a resize, a turn): a point headed somewhere is
        there at once, rather than gliding across from where the old layout had it."""
        self._glides.clear()

    def due_of(self, name: Hashable) -> float | None:
        """When the part ``name`` needs drawing again by motion alone, or None while still."""
        return None if self.still else self._dues_now().get(name)

    def end(self) -> None:
        """The frame is drawn: remember whether something still moves."""
        if self.still:
            return
        self._close_part()
        self._part = CENTRE
        self._fresh = False
        self._last_moving = self._moving
        self._previous_frame = self.now
        if self._moving:
            self.frames_moving += 1

    @property
    def due(self) -> float | None:
        """When the next frame is needed by motion alone (by any part), or None while all
        is still."""
        if self.still:
            return None
        return min(self._dues_now().values(), default=None)

    def reset(self) -> None:
        """Forget everything followed (a new game, another screen)."""
        self._fresh = True
        self._last_moving = False
        self._trick = ()
        self._last = ()
        self._won = None
        self.shown = None
        self._arrivals.clear()
        self._tweens.clear()
        self._results.clear()
        self._seen.clear()
        self._glides.clear()
        self._pages.clear()
        self._dues.clear()
        self._start_part(CENTRE)

    # --- movements ------------------------------------------------------------------------

    def _progress(self, started: float, seconds: float) -> float:
        """How far a movement that started at ``started`` is (eased, 0..1)."""
        if not self.enabled or started < self._skip_before:
            return 1.0
        t = (self.now - started) / seconds
        if t >= 1.0:
            return 1.0
        self._moving = True
        self._part_moving = True
        return ease_out(t)

    def _wake_at(self, moment: float) -> None:
        if moment > self.now and (self._part_wake is None or moment < self._part_wake):
            self._part_wake = moment

    def trick(
        self, plays: Sequence[Play], last: Sequence[Play] = (), winner: int | None = None
    ) -> TrickPicture:
        """What the trick area shows: ``plays`` is the trick in play, ``last`` the
        trick completed before it (won by ``winner``)."""
        self._drawn = True
        self.shown = self._trick_picture(tuple(plays), tuple(last), winner)
        return self.shown

    def _trick_picture(
        self, plays: tuple[Play, ...], last: tuple[Play, ...], winner: int | None
    ) -> TrickPicture:
        if self.still:
            return TrickPicture(plays=plays, won=() if plays else last, winner=winner)
        if last and winner is not None and last != self._last:
            # A trick was completed since the last frame (on the scope's first frame it
            # was completed before this display looked: no hold, no slide).
            self._won = None if self._fresh and plays else _Won(last, winner, self.now)
            if self._fresh and self._won is not None:
                self._won.at -= HOLD_SECONDS  # shown since before: only until the next card
            for _, card in last:
                if card not in self._arrivals:
                    # The card that completed it was never drawn in the trick: it travels in.
                    self._arrivals[card] = self.now - TRAVEL_SECONDS if self._fresh else self.now
        self._last = last
        if not last:
            self._won = None  # a new round: the trick won last is no longer on the table
        won = self._won
        # Only the cards on the table keep their arrival: a card back in a hand (a new
        # round) travels in again when it is played again.
        on_table = {card for _, card in (*plays, *last, *(won.plays if won else ()))}
        for card in [card for card in self._arrivals if card not in on_table]:
            del self._arrivals[card]
        hold_end = won.at + HOLD_SECONDS if won is not None else self.now
        for _, card in plays:
            if card not in self._arrivals:
                # A card seen for the first time travels in, once the won trick may go.
                self._arrivals[card] = (
                    self.now - TRAVEL_SECONDS if self._fresh else max(self.now, hold_end)
                )
        self._trick = plays
        if won is not None and (not plays or self.now < hold_end):
            # The completed trick stays: no card played yet, or not yet long enough.
            if plays:
                self._wake_at(hold_end)
            return TrickPicture(
                arriving=self._arriving(won.plays), won=won.plays, winner=won.winner
            )
        arriving = self._arriving(plays)
        if won is not None:
            gone = self._progress(max(hold_end, self._first_arrival(plays)), SLIDE_SECONDS)
            if gone < 1.0:
                return TrickPicture(plays, arriving, won.plays, won.winner, gone)
            self._won = None
        return TrickPicture(plays, arriving)

    def _arriving(self, plays: Sequence[Play]) -> dict[str, float]:
        """How far each card of ``plays`` still travelling in has come."""
        arriving = {}
        for _, card in plays:
            started = self._arrivals.get(card)
            done = 1.0 if started is None else self._progress(started, TRAVEL_SECONDS)
            if done < 1.0:
                arriving[card] = done
        return arriving

    def _first_arrival(self, plays: Sequence[Play]) -> float:
        return min((self._arrivals[card] for _, card in plays), default=self.now)

    def held(self, last: Sequence[Play] = (), winner: int | None = None) -> TrickPicture | None:
        """The trick just completed while it must still stay, or None.

        ``last`` and ``winner``, when the snapshot still has the completed trick, note
        it as ``trick`` does: a phase that shows something else in the trick area
        (Oshaka's round summary) shows the trick first, for ``HOLD_SECONDS``.
        """
        self._drawn = True
        if last and winner is not None and not self.still:
            self._trick_picture((), tuple(last), winner)
        won = self._won
        if self.still or won is None:
            return None
        hold_end = won.at + HOLD_SECONDS
        if self.now >= hold_end:
            return None
        self._wake_at(hold_end)
        self.shown = TrickPicture(
            arriving=self._arriving(won.plays), won=won.plays, winner=won.winner
        )
        return self.shown

    def results(self, name: str, latest: Sequence[Result]) -> list[Result]:
        """The results called ``name`` still on show, oldest first.

        ``latest`` are the game's newest results, newest last (e.g. its latest rolls
        of the dice; several may come between two frames). Each one this display
        has not seen before stays ``RESULT_SECONDS`` from the frame that first showed
        it, even when the next comes sooner (bots rolling one after another), motion
        on or off. Results already there at the scope's first frame were seen before:
        they are not shown again. Results must differ from each other (a game
        numbers them).
        """
        self._drawn = True
        if self.still:
            return []
        shown = self._results.setdefault(name, [])
        seen_before = self._seen.setdefault(name, set())
        for result in latest:
            if result not in seen_before:
                seen_before.add(result)
                if not self._fresh:
                    shown.append((result, self.now))
        if len(seen_before) > 4 * len(latest) + 8:
            seen_before.intersection_update(latest)  # only the game's latest can come again
        shown[:] = [(result, seen) for result, seen in shown if self.now < seen + RESULT_SECONDS]
        if shown:
            self._wake_at(shown[0][1] + RESULT_SECONDS)
        return cast(list[Result], [result for result, _ in shown])

    def count(self, name: str, values: Sequence[int | None]) -> list[int | None]:
        """``values`` as they show now: a changed figure counts from its old value."""
        self._drawn = True
        shown = list(values)
        if self.still:
            return shown
        target = tuple(values)
        tween = self._tweens.get(name)
        if tween is None or self._fresh:
            self._tweens[name] = _Tween(target, target, self.now - COUNT_SECONDS)
            return shown
        if tween.end != target:
            # Count on from what shows now, so a second change mid-count does not jump.
            tween = _Tween(tuple(self._counted(tween)), target, self.now)
            self._tweens[name] = tween
        done = self._progress(tween.at, COUNT_SECONDS)
        if done >= 1.0:
            return shown
        return self._counted(tween, done)

    def figure(self, name: str, value: int) -> int:
        """One figure as it shows now (``count`` of one value): a seat's score on its panel."""
        shown = self.count(name, (value,))[0]
        return value if shown is None else shown

    def span(self, name: str, value: int) -> tuple[int, int]:
        """The least and the greatest value the figure ``name``, headed for ``value``, shows
        in its count (``value`` twice when it is still): what a box must be sized for, so
        that it does not change its width while the figure counts (99 -> 105)."""
        tween = self._tweens.get(name)
        if self.still or tween is None or tween.start == tween.end:
            return value, value  # still, or a tween made already done (no progress to ask)
        start = tween.start[0] if isinstance(tween.start, tuple) and tween.start else None
        if not isinstance(start, int) or self._progress(tween.at, COUNT_SECONDS) >= 1.0:
            return value, value
        return min(start, value), max(start, value)

    def _counted(self, tween: _Tween, done: float | None = None) -> list[int | None]:
        if done is None:
            done = self._progress(tween.at, COUNT_SECONDS)
        start = tween.start
        end = tween.end
        assert isinstance(start, tuple) and isinstance(end, tuple)
        counted: list[int | None] = []
        for index, value in enumerate(end):
            old = start[index] if index < len(start) else None
            if value is None or old is None:
                counted.append(value)
            else:
                counted.append(round(old + (value - old) * done))
        return counted

    def glide(self, name: str, point: tuple[int, int]) -> tuple[int, int]:
        """Where the thing called ``name``, now headed for ``point``, shows."""
        self._drawn = True
        if self.still:
            return point
        tween = self._glides.get(name)
        if tween is None or self._fresh:
            self._glides[name] = _Tween(point, point, self.now - GLIDE_SECONDS)
            return point
        if tween.end != point:
            start = tween.end
            if isinstance(tween.start, tuple) and isinstance(tween.end, tuple):
                done = self._progress(tween.at, GLIDE_SECONDS)
                start = lerp_point(tween.start, tween.end, done)
            tween = _Tween(start, point, self.now)
            self._glides[name] = tween
        done = self._progress(tween.at, GLIDE_SECONDS)
        assert isinstance(tween.start, tuple)
        return point if done >= 1.0 else lerp_point(tween.start, point, done)

    @property
    def paging(self) -> bool:
        """Whether some part of the picture shows pages that turn (Oss's tricks when they
        do not fit): unlike a movement, they never land."""
        return bool(self._pages)

    def turn_pages_as(self, other: Motion) -> None:
        """Turn this display's pages in step with ``other``'s (the same counts, first shown
        at the same moments): a second display of the same table shows the same page."""
        self._pages = dict(other._pages)

    def page(self, name: str, pages: int, seconds: float, held: int | None = None) -> int:
        """Which of ``pages`` pages called ``name`` shows now (0 is the first).

        Each page shows ``seconds``, in turn, from the frame that first showed the
        first of them, on this display's clock, and the part being drawn is woken
        when the next is due. ``held`` keeps that page showing (a seat choosing on
        it) and asks for no frame; once let go, the pages turn on from it a whole
        ``seconds`` later. One page (it all fits) asks for no frame either. A new
        count of pages (a resize) starts again at the first. Pages are content, not
        a movement: they turn with motion off too; a still picture shows ``held``
        or the first.
        """
        self._drawn = True
        if self.still:
            return held or 0
        if pages <= 1:
            self._pages.pop(name, None)
            return 0
        if held is not None:
            self._pages[name] = (pages, self.now - held * seconds)
            return held
        known = self._pages.get(name)
        if known is None or known[0] != pages:
            known = (pages, self.now)
            self._pages[name] = known
        started = known[1]
        turns = int((self.now - started) // seconds)
        self._wake_at(started + (turns + 1) * seconds)
        return turns % pages


# The motion of a picture drawn once (a screenshot, ``draw_view``): nothing moves.
STILL = Motion(enabled=False, still=True)
