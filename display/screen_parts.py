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
from display import theme
from display.generic import draw_messages, game_json
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
    cut = False
    while wrapped and sum(heights) > rect.h:
        wrapped.pop()
        heights.pop()
        cut = True
    if cut and wrapped:
        # Lines were left out: say so on the last one shown, after a whole word.
        text, colour, size, bold = wrapped[-1]
        wrapped[-1] = (p.ellipsis(text, size, rect.w, bold), colour, size, bold)
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
            ink = p.render_text(text, size, colours[index], bold, rect.w).get_bounding_rect()
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
    """A list of (label, detail) rows with one selected, scrolled so it is always in view."""
    m = p.metrics
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
        p.box(
            row,
            theme.SELECTED if chosen else theme.BUTTON,
            theme.TURN if chosen else theme.BUTTON_EDGE,
            max(1, m.pad // 2 + (2 if chosen else 0)),
        )
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
    more: list[Words] = []
    if first > 0:
        more.append(say_plural("{n} more above", "{n} more above", first))
    if first + fits < len(rows):
        below = len(rows) - first - fits
        more.append(say_plural("{n} more below", "{n} more below", below))
    if more:
        p.centred_text(
            " - ".join(p.words(text) for text in more),
            rect,
            bottom + m.pad // 2,
            m.small,
            theme.TEXT_DIM,
        )
