"""The legibility standard, and a record of every text a frame draws so a test can hold it.

The standard (issue 29, docs/display.md): text a player must read to play
(prompts, button labels, card names, scores) is at least 1/24 of the screen's
shorter side; secondary text (hints such as "N more below", a rules page's
small print) at least 1/32. Where text does not fit at that size the layout
changes (pages, fewer columns, shorter labels); the font never shrinks below it.
Sizes are the sizes the display asks its fonts for (``display/theme.py``:
``Metrics.small`` is 1/24 of the short side).

``recording()`` collects, while it is open, every text the painters draw
(``theme.Painter``'s one text path, card faces included) with where its ink
landed on the canvas, its size, whether it was shortened with "…" and whether
any of it was cut off without one, and every clickable control's rectangle.
Outside a recording nothing is kept (one test of a module global per text).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum

import pygame

PRIMARY_SHARE = 1 / 24
SECONDARY_SHARE = 1 / 32


class Role(Enum):
    """How much a player depends on a text: what they must read to play, or a hint."""

    PRIMARY = "primary"
    SECONDARY = "secondary"


def least_size(short_side: int, role: Role = Role.PRIMARY) -> int:
    """The smallest text size the standard allows for ``role`` on a screen of that short side."""
    share = PRIMARY_SHARE if role is Role.PRIMARY else SECONDARY_SHARE
    return round(short_side * share)


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: its words, where its ink is (canvas pixels), its size and fate.

    ``cut`` says it was shortened and ends with "…"; ``clipped`` that part of
    it fell outside its box or the drawing's clip without a "…" to say so.
    ``group`` is shared by the lines of one block; ``card`` marks a card face's
    rank, drawn inside a card picture (its ``rect`` is then the card's).
    """

    text: str
    rect: pygame.Rect
    size: int
    role: Role
    cut: bool
    clipped: bool
    group: int = 0  # the lines of one text block share it: they may touch each other
    card: bool = False


@dataclass
class Drawing:
    """What was drawn while a recording was open: texts and clickable controls.

    ``shortened`` holds the lines a layout ended with "…" itself (``Painter.ellipsis``:
    the last line a block keeps, a centre message's line) before drawing them, so that
    such a line is recorded as cut like one the text fitting shortened.
    """

    texts: list[DrawnText] = field(default_factory=list)
    controls: list[pygame.Rect] = field(default_factory=list)
    shortened: set[str] = field(default_factory=set)


_recording: Drawing | None = None


def active() -> Drawing | None:
    """The open recording, or None (then painters keep nothing)."""
    return _recording


@contextmanager
def recording() -> Iterator[Drawing]:
    """Collect every text and control drawn until the block ends."""
    global _recording
    before = _recording
    _recording = Drawing()
    try:
        yield _recording
    finally:
        _recording = before
