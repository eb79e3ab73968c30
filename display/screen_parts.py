"""What several screens draw alike, and the words and colours they share.

A few lines of text centred in a box (most panel bodies), the messages under
a centre's content, a scrolled menu of rows (choosing a game, the staff desk),
and the game's title as the screens name it. The screens' own modules
(``menu_screens``, ``results_screen``, ``staff_screen``) and the seat panel
(``scenes``, ``panel_parts``) draw with these; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from controller.games.words import Words, say, say_plural
from controller.view import GameChoice, MessageKind, TableView
from display import legibility, theme
from display.fitting import Fitted
from display.generic import draw_messages, game_json
from display.legibility import Role
from display.theme import Painter
from display.ui import UiAction

PROBLEM_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PROBLEM]
NOT_PLAYING = say("not playing")


def centred_lines(
    p: Painter, rect: pygame.Rect, lines: list[tuple[Words, theme.Colour, int, bool]]
) -> None:
    """A few lines of text centred in ``rect`` (text, colour, size, bold)."""
    wrapped: list[tuple[str, theme.Colour, int, bool]] = []
    for text, colour, size, bold in lines:
        for piece in p.wrap(text, size, rect.w, bold):
            wrapped.append((piece, colour, size, bold))
    heights = [p.metrics.leading(size) for _, _, size, _ in wrapped]
    if sum(heights) > rect.h and wrapped:
        # More lines than room: they show whole, in pages that turn (``Motion.page``),
        # which page shows in the corner, rather than the last kept line cut with "…".
        wrapped, heights = _page_of_lines(p, rect, lines, wrapped, heights)
    y = rect.centery - sum(heights) // 2
    for (text, colour, size, bold), height in zip(wrapped, heights, strict=True):
        p.text(
            text,
            (rect.centerx, y + height // 2),
            size,
            colour,
            bold=bold,
            anchor="center",
            max_width=rect.w,
        )
        y += height


# How long each page of lines too many for their box shows (seconds).
LINES_PAGE_SECONDS = 6.0


def _page_of_lines(
    p: Painter,
    rect: pygame.Rect,
    lines: list[tuple[Words, theme.Colour, int, bool]],
    wrapped: list[tuple[str, theme.Colour, int, bool]],
    heights: list[int],
) -> tuple[list[tuple[str, theme.Colour, int, bool]], list[int]]:
    """The page of ``wrapped`` (``lines`` wrapped across ``rect``, each line's height in
    ``heights``) that shows now, when they do not all fit ``rect``: as many lines as fit
    a page, the pages turning every ``LINES_PAGE_SECONDS``, and "1/2" drawn in
    ``rect``'s bottom right corner. Lines are wrapped again short of that corner."""
    m = p.metrics
    marker_size = legibility.least_size(m.unit, Role.SECONDARY)
    marker_h = m.leading(marker_size)
    marker_w = p.measure("9/9", marker_size, True) + m.pad
    # The lines keep clear of the corner's figures: a little narrower, a line shorter.
    room = pygame.Rect(rect.left, rect.top, rect.w - 2 * marker_w, rect.h - marker_h)
    room.centerx = rect.centerx
    wrapped = [
        (piece, colour, size, bold)
        for text, colour, size, bold in lines
        for piece in p.wrap(text, size, room.w, bold)
    ]
    heights = [m.leading(size) for _, _, size, _ in wrapped]
    if max(heights) > room.h:
        return [], []  # no room for a line at all: nothing to page
    pages: list[list[int]] = [[]]
    used = 0
    for index, height in enumerate(heights):
        if pages[-1] and used + height > room.h:
            pages.append([])
            used = 0
        pages[-1].append(index)
        used += height
    name = "lines: " + " ".join(text for text, _, _, _ in wrapped[:2])
    page = p.motion.page(name, len(pages), LINES_PAGE_SECONDS)
    with p.secondary():
        p.text(
            f"{page + 1}/{len(pages)}",  # figures: the same in every language
            rect.bottomright,
            marker_size,
            theme.TEXT_DIM,
            bold=True,
            anchor="bottomright",
        )
    shown = pages[page]
    return [wrapped[i] for i in shown], [heights[i] for i in shown]


def pieces_in_rows(
    p: Painter,
    rect: pygame.Rect,
    pieces: Sequence[tuple[Words, theme.Colour]],
    size: int,
    *,
    bold: bool = True,
) -> int:
    """Short texts ("Bid 2", "Total 41", "on target") side by side across ``rect``, each
    whole, a new row where the next does not fit the one it is on; returns the bottom
    of the last line drawn (``rect.top`` if none was).

    For a panel too low or narrow for its usual layout: one line of them cut a figure
    or a note to "Ge…"; rows keep each whole. Pieces that find no row inside ``rect``
    are left out, in order, rather than cut (the centre or the chips elsewhere say them
    too); only a piece wider than ``rect`` on its own is ended with "…".
    """
    colours = dict(enumerate(colour for _, colour in pieces))
    rows = rows_of(p, [text for text, _ in pieces], rect.w, size, bold)
    row_h = p.metrics.leading(size)
    bottom, index = rect.top, 0
    for number, row in enumerate(rows):
        y, x = rect.top + number * row_h, rect.left
        for text in row:
            ink = p.ink(text, size, colours[index], bold, rect.w)
            if y + ink.bottom > rect.bottom:
                return bottom
            drawn = p.text(text, (x, y), size, colours[index], bold=bold, max_width=rect.right - x)
            x, bottom, index = drawn.right + _piece_gap(p, size, bold), drawn.bottom, index + 1
    return bottom


def rows_of(
    p: Painter, texts: Sequence[Words], width: int, size: int, bold: bool
) -> list[list[Words]]:
    """``texts`` in rows no wider than ``width``, in order, each whole (``pieces_in_rows``)."""
    gap = _piece_gap(p, size, bold)
    rows: list[list[Words]] = []
    x = width + 1  # the first text starts a row
    for text in texts:
        piece = p.measure(p.words(text), size, bold)
        if x + piece > width:
            rows.append([])
            x = 0
        rows[-1].append(text)
        x += piece + gap
    return rows


def _piece_gap(p: Painter, size: int, bold: bool) -> int:
    return p.measure("   ", size, bold)


def line_or_rows(
    p: Painter,
    rect: pygame.Rect,
    line: Words,
    pieces: Sequence[Words],
    size: int,
    colour: theme.Colour,
    *,
    bold: bool = False,
) -> int:
    """``line`` ("3 tokens · 56 points") where it fits ``rect``'s width, else its
    ``pieces`` ("3 tokens", "56 points") in rows (``pieces_in_rows``); the bottom."""
    if p.measure(p.words(line), size, bold) <= rect.w:
        return p.text(line, rect.topleft, size, colour, bold=bold).bottom
    return pieces_in_rows(p, rect, [(piece, colour) for piece in pieces], size, bold=bold)


def line_or_rows_height(
    p: Painter, width: int, line: Words, pieces: Sequence[Words], size: int, *, bold: bool = False
) -> int:
    """How tall ``line_or_rows`` draws ``line`` or its ``pieces`` ``width`` wide (leading)."""
    if p.measure(p.words(line), size, bold) <= width:
        return p.metrics.leading(size)
    return len(rows_of(p, pieces, width, size, bold)) * p.metrics.leading(size)


def selected_choice(view: TableView) -> GameChoice | None:
    if 0 <= view.selected_game < len(view.games):
        return view.games[view.selected_game]
    return None


def current_game(view: TableView) -> GameChoice | None:
    for choice in view.games:
        if choice.game_id == view.game_id:
            return choice
    return selected_choice(view) if view.game_id is None else None


def game_title(view: TableView) -> Words:
    if view.game_title is not None:  # the game in progress, with the variant it plays
        return view.game_title
    choice = current_game(view)
    if choice is not None:
        return choice.title
    game = game_json(view.game) or view.result or {}
    return str(game.get("title") or view.game_id or view.title)


def messages_below(p: Painter, rect: pygame.Rect, top: int, view: TableView) -> None:
    if view.messages:
        draw_messages(p, pygame.Rect(rect.left, top, rect.w, rect.bottom - top), view)


def menu_rows(
    p: Painter,
    rect: pygame.Rect,
    top: int,
    bottom: int,
    rows: Sequence[tuple[Words, Words]],
    selected: int,
    hit: Callable[[int], UiAction] | None = None,
) -> None:
    """A list of (label, detail) rows with one selected, scrolled so it is always in view.

    On a narrow centre (``Metrics.narrow``) each row stacks its label over its detail,
    each wrapped whole (``stacked_rows``)."""
    m = p.metrics
    if m.narrow(rect.w):
        stacked_rows(p, rect, top, bottom, rows, selected, hit)
        return
    count = max(1, len(rows))
    room = bottom - top
    row_h = max(m.small + 4, min(round(m.body * 2.0), (room - m.pad * (count - 1)) // count))
    width = min(rect.w, round(m.unit * 0.9))
    # The selected row is as tall as two lines of its detail need, when one would cut it
    # ("as the rulebook sets it for the player count"): the others give way.
    tall = row_h
    if 0 <= selected < len(rows) and rows[selected][1]:
        label, detail = rows[selected]
        wanted = p.measure(p.words(label), m.body, True) + p.measure(p.words(detail), m.small)
        if wanted + m.pad * 8 > width:
            tall = max(row_h, 2 * m.leading(m.small) + 4)
    fits = max(1, (room + m.pad - (tall - row_h)) // (row_h + m.pad))
    # Keep the selected row in view: scroll the window of rows around it.
    first = min(max(0, selected - fits // 2), max(0, len(rows) - fits))
    y = top
    for index in range(first, min(len(rows), first + fits)):
        label, detail = rows[index]
        chosen = index == selected
        row = pygame.Rect(0, y, width, tall if chosen else row_h)
        row.centerx = rect.centerx
        y = row.bottom + m.pad
        _row_box(p, row, chosen)
        size = m.body if row_h >= m.body else m.small
        label_right = row.left + m.pad * 2 + round(row.w * 0.9)
        if detail:
            # The detail takes a third of the row, or what the label leaves when that is
            # more, on two lines when the row is tall enough: a value such as "as the
            # rulebook sets it for the player count" is read whole.
            label_w = p.measure(p.words(label), size, chosen)
            detail_w = max(round(row.w * 0.34), row.w - label_w - m.pad * 6)
            box = pygame.Rect(0, row.top + 2, detail_w, row.h - 4)
            box.right = row.right - m.pad * 2
            ink = theme.TEXT if chosen else theme.TEXT_DIM
            drawn = p.fit_text(detail, box, m.small, ink, align="right")
            label_right = drawn.left - m.pad  # the label keeps clear of the detail
        p.text(
            label,
            (row.left + m.pad * 2, row.centery),
            size,
            theme.TEXT,
            bold=chosen,
            anchor="midleft",
            max_width=max(1, min(label_right, row.right - m.pad * 2) - row.left - m.pad * 2),
        )
        if hit is not None:
            p.hit(row, hit(index))
    _more_rows(p, rect, bottom, first, len(rows) - first - fits)


def _row_box(p: Painter, row: pygame.Rect, chosen: bool) -> None:
    """A menu row's box: the selected one lit and framed in the turn colour."""
    p.box(
        row,
        theme.SELECTED if chosen else theme.BUTTON,
        theme.TURN if chosen else theme.BUTTON_EDGE,
        max(1, p.metrics.pad // 2 + (2 if chosen else 0)),
    )


def _more_rows(p: Painter, rect: pygame.Rect, bottom: int, above: int, below: int) -> None:
    """Under a scrolled list, how many of its rows are out of view above and below."""
    m = p.metrics
    more: list[Words] = []
    if above > 0:
        more.append(say_plural("{n} more above", "{n} more above", above))
    if below > 0:
        more.append(say_plural("{n} more below", "{n} more below", below))
    if more:
        p.centred_text(
            " - ".join(p.words(text) for text in more),
            rect,
            bottom + m.pad // 2,
            m.small,
            theme.TEXT_DIM,
        )


def stacked_rows(
    p: Painter,
    rect: pygame.Rect,
    top: int,
    bottom: int,
    rows: Sequence[tuple[Words, Words]],
    selected: int,
    hit: Callable[[int], UiAction] | None = None,
) -> None:
    """``menu_rows`` for a narrow centre: each row its label over its detail, each on up
    to three lines at a legible size, the rows as tall as their words; the window of rows
    in view scrolls with the selected one and "N more above / below" says what is not."""
    m = p.metrics
    inner = rect.w - 4 * m.pad
    fitted: list[tuple[Fitted, Fitted | None, int]] = []
    for index, (label, detail) in enumerate(rows):
        chosen = index == selected
        name = p.fit(label, inner, 3 * m.leading(m.body), m.body, bold=chosen, max_lines=3)
        more = p.fit(detail, inner, 3 * m.leading(m.small), m.small, max_lines=3)
        lines = len(more.lines) if p.words(detail) else 0
        height = len(name.lines) * m.leading(name.size) + lines * m.leading(more.size)
        fitted.append((name, more if lines else None, height + 2 * m.pad))
    # "N more above" gets a line over the rows (the line under them says how many below:
    # on a narrow centre the two do not fit on one).
    above_line = pygame.Rect(rect.left, top, rect.w, m.leading(m.small))
    top = above_line.bottom + m.pad // 2
    # The selected row in view, and as many around it as fit, one below then one above.
    first = last = min(max(0, selected), len(rows) - 1)
    used = fitted[first][2] if rows else 0
    grown = True
    while grown:
        grown = False
        for index in (last + 1, first - 1):
            if 0 <= index < len(rows) and used + m.pad + fitted[index][2] <= bottom - top:
                used += m.pad + fitted[index][2]
                first, last = min(first, index), max(last, index)
                grown = True
    y = top
    for index in range(first, last + 1 if rows else 0):
        name, under, height = fitted[index]
        chosen = index == selected
        row = pygame.Rect(rect.left + m.pad, y, rect.w - 2 * m.pad, height)
        y = row.bottom + m.pad
        _row_box(p, row, chosen)
        words = row.inflate(-2 * m.pad, -2 * m.pad)
        label_h = len(name.lines) * m.leading(name.size)
        box = pygame.Rect(words.left, words.top, words.w, label_h)
        p.fit_text("", box, name.size, theme.TEXT, bold=chosen, align="left", fitted=name)
        if under is not None:
            box = pygame.Rect(words.left, box.bottom, words.w, words.bottom - box.bottom)
            ink = theme.TEXT if chosen else theme.TEXT_DIM
            p.fit_text("", box, under.size, ink, align="left", fitted=under)
        if hit is not None:
            p.hit(row, hit(index))
    _more_rows(p, above_line, above_line.top - m.pad // 2, first, 0)
    _more_rows(p, rect, bottom, 0, len(rows) - 1 - last if rows else 0)
