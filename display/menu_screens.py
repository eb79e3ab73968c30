"""The menu screens: attract, choosing a game, joining, options, who starts, and rules pages.

Each screen's panel body (``<screen>_body``, drawn upright in a seat's panel)
and its centre (``<screen>_centre``); ``display/scenes/__init__.py`` dispatches to them
by ``Screen``. A seat's rules page (``help_body``) takes that seat's panel
body on any screen.
"""

from __future__ import annotations

import pygame

from controller.games.words import Card, Items, Words, as_arg, say, say_plural
from controller.view import MessageKind, SeatView, TableView
from display import theme
from display.generic import seat_colour_of, seat_words, wrapped_if_cut
from display.layout import Layout
from display.screen_parts import (
    NOT_PLAYING,
    PROBLEM_COLOUR,
    centred_lines,
    current_game,
    game_title,
    menu_rows,
    messages_below,
    selected_choice,
)
from display.showcase import TAP_TO_START, draw_showcase, players
from display.theme import Metrics, Painter
from display.ui import ChooseGame

PRESS_OK_TO_JOIN = say("Press OK at your seat to join")
WHO_STARTS = say("Who starts?")


# --- panel bodies -------------------------------------------------------------------


def attract_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    centred_lines(p, rect, [(TAP_TO_START, theme.TEXT, p.metrics.body, True)])


def choose_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    choice = selected_choice(view)
    lines: list[tuple[Words, theme.Colour, int, bool]] = [
        (say("Choosing a game"), theme.TEXT_DIM, p.metrics.small, False)
    ]
    if choice is not None:
        lines.append((choice.title, theme.TEXT, p.metrics.big, True))
        lines.append((players(choice), theme.TEXT_DIM, p.metrics.small, False))
        if choice.unavailable:
            # Why the table or the joined seats cannot play it, before anyone tries.
            lines.append((choice.unavailable, PROBLEM_COLOUR, p.metrics.small, False))
    centred_lines(p, rect, lines)


def join_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.joined:
        centred_lines(
            p,
            rect,
            [
                (say("Joined"), theme.JOINED, p.metrics.big, True),
                (say("waiting for the game to start"), theme.TEXT_DIM, p.metrics.small, False),
            ],
        )
    else:
        centred_lines(p, rect, [(PRESS_OK_TO_JOIN, theme.TEXT, p.metrics.body, True)])


def help_body(
    p: Painter, rect: pygame.Rect, page: tuple[Words, tuple[Words, ...]], turn: int = 0
) -> None:
    # A seat's rules page (a long press of OK), facing that seat; it closes by itself.
    # Lines that do not fit turn over by themselves (``turn`` is the table's page count).
    title, lines = page
    m = p.metrics
    # A rule is read to play: the legible size, and more pages rather than smaller type.
    size = m.small
    y = p.text(title, (rect.left, rect.top), m.small, theme.TURN, bold=True, max_width=rect.w)
    # Each rule behind a dash, its wrapped lines indented under its first word.
    indent = p.measure("- ", size)
    pieces = [
        (index == 0, piece)
        for line in lines
        for index, piece in enumerate(p.wrap(line, size, rect.w - indent))
    ]
    step = m.leading(size)
    room = max(1, (rect.bottom - y.bottom) // step)
    pages = -(-len(pieces) // room)
    first = (turn % pages) * room if pages else 0
    for row, (starts, piece) in enumerate(pieces[first : first + room]):
        # Rows a leading apart (not a rendered line's height apart, which is taller in
        # Japanese): ``room`` counted them so.
        middle = y.bottom + row * step + step // 2
        if starts:
            p.text("-", (rect.left, middle), size, theme.TEXT, anchor="midleft")
        at = (rect.left + indent, middle)
        p.text(piece, at, size, theme.TEXT, anchor="midleft", max_width=rect.w - indent)


def _option_line(label: Words, value: Words) -> Words:
    return say("{option}: {value}", option=as_arg(label), value=as_arg(value))


def options_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    # The line under the cursor, facing each seat, so anyone can follow and change it.
    if not view.options:
        return
    label, value, explanation = view.options[view.options_cursor % len(view.options)]
    centred_lines(
        p,
        rect,
        [
            (_option_line(label, value), theme.TURN, p.metrics.body, True),
            (explanation, theme.TEXT_DIM, p.metrics.small, False),
        ],
    )


def starter_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    # The rulebook's question (Oshaka: who most recently helped someone?), facing each seat.
    if not seat.joined:
        centred_lines(p, rect, [(NOT_PLAYING, theme.TEXT_DIM, p.metrics.small, False)])
        return
    if view.cuts or view.cutting:
        _cut_body(p, rect, view, seat)
        return
    centred_lines(
        p,
        rect,
        [
            (view.prompt or WHO_STARTS, theme.TEXT, p.metrics.body, True),
            (say("If it is you: tap a card or press OK"), theme.TURN, p.metrics.small, True),
        ],
    )


def _cut_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    # A cut for the deal: what this seat cut, or what to do, or that it is out of a re-cut.
    m = p.metrics
    card = view.cuts.get(seat.seat)
    lines: list[tuple[Words, theme.Colour, int, bool]]
    if card is not None:
        lines = [
            (say("You cut {card}", card=Card(card)), theme.TEXT, m.big, True),
            (say("waiting for the others to cut"), theme.TEXT_DIM, m.small, False),
        ]
    elif seat.seat in view.cutting:
        lines = [
            (say("Tap one card from the deck: lowest deals"), theme.TURN, m.body, True),
            (say("OK: the table cuts for you"), theme.TEXT_DIM, m.small, False),
        ]
    else:
        lines = [(say("out of the cut: the tied seats cut again"), theme.TEXT_DIM, m.small, False)]
    centred_lines(p, rect, lines)


# --- centres -------------------------------------------------------------------------


def attract_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    notices = [msg.text for msg in view.messages if msg.kind is MessageKind.PROBLEM]
    if notices:
        # A problem on the idle table is for staff and may hold a command to type
        # (e.g. how to enroll the first staff tag): it takes the centre, every word
        # shown, wrapped, under the title.
        title = p.centred_text(view.title, rect, rect.top + m.pad, m.big, theme.TEXT, bold=True)
        below = pygame.Rect(
            rect.left + m.pad, title.bottom, rect.w - 2 * m.pad, rect.bottom - title.bottom
        )
        centred_lines(p, below, [(text, PROBLEM_COLOUR, m.small, False) for text in notices])
        return
    draw_showcase(p, rect, view)


def choose_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    head = wrapped_if_cut(p, say("Choose a game"), rect, rect.top, m.big, theme.TEXT, bold=True)
    # The list gets the room: the seat panels already say how to choose, and the
    # menu's only message repeats it.
    bottom = rect.bottom - m.small - m.pad
    rows = [(choice.title, choice.unavailable or players(choice)) for choice in view.games]
    menu_rows(p, rect, head.bottom + m.pad, bottom, rows, view.selected_game, ChooseGame)
    if not view.games:
        p.text(say("no games installed"), rect.center, m.body, theme.TEXT_DIM, anchor="center")


def _centre_title(p: Painter, rect: pygame.Rect, view: TableView) -> pygame.Rect:
    """The game's title at the top of the centre panel; its rectangle."""
    return wrapped_if_cut(p, game_title(view), rect, rect.top, p.metrics.big, theme.TEXT, bold=True)


def join_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    choice = current_game(view)
    head = _centre_title(p, rect, view)
    joined = sum(1 for seat in view.seats if seat.joined)
    count: Words = say_plural("{n} joined", "{n} joined", joined)
    if choice is not None:
        count = say("{joined} · {players}", joined=as_arg(count), players=as_arg(players(choice)))
    y = wrapped_if_cut(p, count, rect, head.bottom + m.pad, m.body, theme.TEXT_DIM).bottom
    y = wrapped_if_cut(p, PRESS_OK_TO_JOIN, rect, y + m.pad, m.body, theme.TURN, bold=True).bottom
    # One chip per seat: joined seats lit.
    seats = view.seats
    if seats:
        # On a narrow centre the chips go on rows of as many as are wide enough to name
        # their seat ("Platz 4 (Bot)"), rather than one row of chips that cut it.
        across = len(seats)
        if m.narrow(rect.w):
            across = max(1, min(across, (rect.w + m.pad) // (round(m.unit * 0.3) + m.pad)))
        chip_w = min(round(m.unit * 0.22), (rect.w - m.pad * (across - 1)) // across)
        if m.narrow(rect.w):
            chip_w = (rect.w - m.pad * (across - 1)) // across
        chip_h = round(m.body * 1.2)
        lines = 1
        if m.narrow(rect.w):
            # Two lines for a long name and its "(bot)", rather than cut.
            lines = 2
            chip_h = max(chip_h, lines * m.leading(m.small) + m.pad)
        y += m.pad * 2
        for index, seat in enumerate(seats):
            row, column = divmod(index, across)
            in_row = min(across, len(seats) - row * across)
            total = in_row * chip_w + (in_row - 1) * m.pad
            x = rect.centerx - total // 2 + column * (chip_w + m.pad)
            chip = pygame.Rect(x, y + row * (chip_h + m.pad), chip_w, chip_h)
            # A joined seat's chip glows in the seat's colour, as its LEDs and panel edge do.
            own = seat_colour_of(seat)
            colour = own if seat.joined else theme.PANEL_EMPTY
            p.box(chip, colour, own, max(1, m.pad // 3))
            ink = theme.TEXT_DARK if seat.joined else theme.TEXT_DIM
            name = as_arg(seat_words(view, seat))
            text = say("{seat} (bot)", seat=name) if seat.is_bot else seat_words(view, seat)
            p.fit_text(text, chip.inflate(-4, -2), m.small, ink, bold=seat.joined, max_lines=lines)
        rows = -(-len(seats) // across)
        y += rows * chip_h + (rows - 1) * m.pad
    messages_below(p, rect, y + m.pad * 2, view)


def options_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    # Every line of the options screen as a menu row (option left, value right), the
    # cursor's highlighted, with its explanation under the list. The rows keep a
    # readable size: when they do not all fit (Oh Pshaw has thirteen), a window of
    # them scrolls with the cursor and "N more above / below" says what is hidden.
    m = p.metrics
    lines = view.options
    y = _centre_title(p, rect, view).bottom + m.pad
    if not lines:
        return
    cursor = view.options_cursor % len(lines)
    # The explanation whole, on as many lines as it takes (up to three, six on a narrow
    # centre): the rows above scroll in what is left rather than it ending in "…".
    explanation = lines[cursor][2]
    wrapped = len(p.wrap(explanation, m.small, rect.w - 2 * m.pad))
    most = 6 if m.narrow(rect.w) else 3  # a narrow centre's lines hold fewer words
    explanation_h = Metrics.leading(m.small) * max(1, min(most, wrapped))
    explanation_top = rect.bottom - explanation_h - m.pad
    bottom = explanation_top - m.small - m.pad  # the "N more" line goes between
    rows = [(label, value) for label, value, _ in lines]
    menu_rows(p, rect, y, max(y + m.small + 4, bottom), rows, cursor)
    box = pygame.Rect(rect.left + m.pad, explanation_top, rect.w - 2 * m.pad, explanation_h)
    p.fit_text(explanation, box, m.small, theme.TEXT_DIM, valign="top")


def starter_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    head = _centre_title(p, rect, view)
    size = m.body if view.cuts or view.cutting else m.big  # a cut's instruction is longer
    y = wrapped_if_cut(
        p, view.prompt or WHO_STARTS, rect, head.bottom + m.pad, size, theme.TURN, bold=True
    ).bottom
    if view.cuts:
        cuts = Items(
            tuple(
                say("{seat}: {card}", seat=as_arg(seat_words(view, seat)), card=Card(c))
                for seat in view.seats
                if (c := view.cuts.get(seat.seat)) is not None
            )
        )
        y = wrapped_if_cut(
            p, say("Cut: {cuts}", cuts=cuts), rect, y + m.pad, m.body, theme.TEXT
        ).bottom
    messages_below(p, rect, y + m.pad * 2, view)
