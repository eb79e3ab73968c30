"""The parts of a seat's panel: its frame, header, the seat's buttons and the on-screen hand.

The frame is a rounded box edged in the seat's colour (the turn's, thicker,
when the seat is to act); the header holds the seat's name, its badges
(reader offline, bot, joined) and the turn prompt; the buttons stand in a
column on the right; the simulator's hand of a human seat lies along the
seat's edge. What places them, and the body between them, is ``scenes``'s
seat panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from controller.games.words import Verbatim, Words, as_arg, say
from controller.view import ButtonHint, Screen, SeatView, TableView
from display import theme
from display.fitting import ELLIPSIS, Fitted, letters_cut
from display.generic import seat_colour_of, seat_label, seat_words
from display.screen_parts import PROBLEM_COLOUR
from display.theme import Painter
from display.ui import PressButton, TapCard


@dataclass(frozen=True)
class PanelLook:
    """Where a seat panel's frame and heading go (upright), and how the frame looks."""

    frame: pygame.Rect  # the rounded box, inside the panel's margin of felt
    interior: pygame.Rect  # inside the widest edge (the turn's): all that is drawn in the box
    inner: pygame.Rect  # inside the edge and its padding: the heading and the body
    fill: theme.Colour
    edge: theme.Colour
    edge_width: int
    header: pygame.Rect  # the line of the seat's name, badges and (when it fits) turn prompt
    bar: pygame.Rect | None  # the turn prompt's own bar under the header, when it does not fit
    gap: int  # between the heading and the body

    @property
    def heading(self) -> pygame.Rect:
        """The header and the turn prompt's bar together."""
        return self.header if self.bar is None else self.header.union(self.bar)

    @property
    def body_top(self) -> int:
        """Where the body starts, below the heading."""
        return self.heading.bottom + self.gap

    @property
    def heading_area(self) -> pygame.Rect:
        """All that the heading may draw on: from the edge to the body, side to side."""
        interior = self.interior
        return pygame.Rect(interior.left, interior.top, interior.w, self.body_top - interior.top)

    def edge_strips(self) -> tuple[pygame.Rect, ...]:
        """The four strips between the frame's outside and ``interior``: all the
        frame's edge (whichever its width) and nothing drawn inside the box."""
        frame, inside = self.frame, self.interior
        return (
            pygame.Rect(frame.left, frame.top, frame.w, inside.top - frame.top),
            pygame.Rect(frame.left, inside.bottom, frame.w, frame.bottom - inside.bottom),
            pygame.Rect(frame.left, inside.top, inside.left - frame.left, inside.h),
            pygame.Rect(inside.right, inside.top, frame.right - inside.right, inside.h),
        )


def panel_look(p: Painter, view: TableView, seat: SeatView, prompt: str | None) -> PanelLook:
    """The frame and heading of ``seat``'s panel over all of ``p``'s area, with the
    turn ``prompt`` (already in the seat's words) or None when the seat is not to act."""
    width, height = p.area.size
    m = p.metrics
    pad = m.pad
    playing = view.screen in (Screen.PLAY, Screen.RESULTS) and seat.player is not None
    active = seat.joined or playing or view.screen in (Screen.ATTRACT, Screen.CHOOSE_GAME)
    frame = pygame.Rect(0, 0, width, height).inflate(-pad, -pad)
    fill = theme.PANEL if active else theme.PANEL_EMPTY
    turn_edge = max(3, pad)
    if prompt is not None:
        edge, edge_width = theme.TURN, turn_edge
    elif not seat.reader_online:
        edge, edge_width = PROBLEM_COLOUR, max(2, pad // 2)
    else:
        # The seat's own colour, as its LEDs glow: a player finds their panel by it.
        edge, edge_width = seat_colour_of(seat), max(2, pad // 2)
    # Inside the turn's edge whoever's turn it is: the heading and the body stay where
    # they are when the turn comes and goes, so that change repaints the edge and the
    # heading only (``scenes.repaint_turn``), not the whole panel.
    interior = frame.inflate(-2 * turn_edge, -2 * turn_edge)
    inner = frame.inflate(-2 * pad - turn_edge, -2 * pad - turn_edge)
    header = pygame.Rect(inner.left, inner.top, inner.w, round(m.body * 0.95))
    bar = None
    if prompt is not None and not prompt_fits(p, header, seat, view, prompt):
        # A narrow panel: the turn prompt gets a bar of its own under the label.
        bar = pygame.Rect(inner.left, header.bottom + pad // 2, inner.w, header.h)
    return PanelLook(frame, interior, inner, fill, edge, edge_width, header, bar, pad)


def draw_frame(p: Painter, look: PanelLook) -> None:
    """The panel's margin of felt and its rounded box, filled and edged."""
    felt_around(p, p.area, look.frame, max(2, p.metrics.pad))  # p.box's corner radius
    p.box(look.frame, look.fill, look.edge, look.edge_width)


def redraw_edge(p: Painter, look: PanelLook) -> None:
    """The frame's edge drawn again over whichever edge is there (the turn's is wider).

    The band any edge may cover (``edge_strips``) goes back to the fill first, as
    an outline of the turn's width: the same pixels as the filled box there, for
    half the cost of filling the box clipped to each of the four strips.
    """
    band = look.interior.left - look.frame.left
    p.box(look.frame, None, look.fill, band)
    p.box(look.frame, None, look.edge, look.edge_width)


def draw_heading(
    p: Painter, look: PanelLook, view: TableView, seat: SeatView, prompt: str | None
) -> None:
    """The header, and the turn prompt in it or in its own bar, on the panel's fill.

    Clipped to ``look.heading_area``: a glyph taller than the header line then
    never reaches the edge or the body, so the heading can be repainted alone.
    """
    with p.clip(look.heading_area):
        if look.bar is None:
            draw_header(p, look.header, view, seat, prompt)
            return
        assert prompt is not None  # a bar is only made for a prompt
        draw_header(p, look.header, view, seat, None)
        p.box(look.bar, theme.TURN, None)
        room = look.bar.w - 2 * p.metrics.pad
        p.text(
            turn_words(p, prompt, room),
            look.bar.center,
            p.metrics.body,
            theme.TEXT_DARK,
            bold=True,
            anchor="center",
            max_width=room,
        )


def felt_around(p: Painter, area: pygame.Rect, frame: pygame.Rect, radius: int) -> None:
    """The felt where a rounded ``frame`` leaves ``area`` uncovered.

    Only the margin around the frame and its corners' squares: filling the whole
    area first and then the frame over it would paint every pixel twice.
    """
    left, top, right, bottom = frame.left, frame.top, frame.right, frame.bottom
    for rect in (
        (area.left, area.top, area.w, top - area.top),
        (area.left, bottom, area.w, area.bottom - bottom),
        (area.left, top, left - area.left, frame.h),
        (right, top, area.right - right, frame.h),
        (left, top, radius, radius),
        (right - radius, top, radius, radius),
        (left, bottom - radius, radius, radius),
        (right - radius, bottom - radius, radius, radius),
    ):
        p.fill(theme.TABLE, pygame.Rect(rect))


def hand_of(view: TableView, seat: SeatView) -> tuple[str, ...] | None:
    """The seat's on-screen hand when a person plays it on screen, else None."""
    if seat.player is None or seat.player not in view.human_seats:
        return None
    if view.screen is not Screen.PLAY:
        return None
    return view.hands.get(seat.player, ())


def turn_words(p: Painter, prompt: Words, width: int) -> Words:
    """The turn prompt for ``width``: "Your turn: play a card", or the bare prompt where
    that would be cut (the turn's colour behind it already says whose turn it is)."""
    full = your_turn(prompt)
    if p.measure(p.words(full), p.metrics.body, True) <= width:
        return full
    return prompt


def your_turn(prompt: Words) -> Words:
    return say("Your turn: {action}", action=as_arg(prompt))


def draw_header(
    p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView, prompt: Words | None
) -> None:
    m = p.metrics
    pad = m.pad
    if prompt is not None:
        p.box(rect, theme.TURN, None)
    ink = theme.TEXT_DARK if prompt is not None else theme.TEXT
    # The seat's name (nickname or "Seat 3"), never the engine's player number. Beside
    # a turn prompt it has half the line; otherwise all the badges leave (a narrow panel
    # of a 7-seat table then shows the name whole, or "3 · Wilhelmi…", not "3 ·…").
    room = rect.w // 2 if prompt is not None else rect.w - 3 * pad - _badges_width(p, seat, view)
    x = rect.left + pad
    label = draw_seat_name(p, view, seat, (x, rect.centery), ink, max(rect.w // 2, room))
    x = label.right + pad * 2
    # The turn prompt matters most: it takes the right end; badges fill what is left,
    # in a short form when the long one does not fit.
    right = rect.right - pad
    if prompt is not None:
        room = max(10, right - x - _badges_width(p, seat, view))
        drawn = p.text(
            turn_words(p, prompt, room),
            (right, rect.centery),
            m.body,
            theme.TEXT_DARK,
            bold=True,
            anchor="midright",
            max_width=room,
        )
        right = drawn.left - pad * 2
    badges: list[tuple[Words, Words, theme.Colour]] = []
    if not seat.reader_online:
        badges.append((say("READER OFFLINE"), OFFLINE, PROBLEM_COLOUR))
    if seat.is_bot:
        badges.append((BOT_BADGE, BOT_BADGE, theme.BOT))
    if seat.joined and view.screen is Screen.JOIN:
        badges.append((say("JOINED"), JOINED_SHORT, theme.JOINED))
    for long, short, colour in badges:
        for text in (long, short):
            image = p.render_text(text, m.small, theme.TEXT_DARK, True)
            badge = image.get_rect().inflate(pad * 2, pad)
            badge.midleft = (x, rect.centery)
            if badge.right <= right:
                break
        else:
            continue
        p.box(badge, colour, theme.TEXT_DARK if prompt is not None else None)
        p.place_text(image, image.get_rect(center=badge.center), p.words(text), m.small)
        x = badge.right + pad


def draw_seat_name(
    p: Painter,
    view: TableView,
    seat: SeatView,
    midleft: tuple[int, int],
    ink: theme.Colour,
    width: int,
) -> pygame.Rect:
    """The seat's name in bold at ``midleft``, no wider than ``width``; where it went.

    A nickname too long for ``width`` is cut between its letters behind the seat's
    number ("3 · Wilhel…"): cut at a word it would keep only "3 ·…", which names no
    one. The number keeps two seats with alike names apart. Where not even a few of
    the name's letters would show, the seat's own label ("Seat 3") stands instead.
    """
    m = p.metrics
    name = seat_words(view, seat)
    nickname = view.nicknames.get(seat.seat)
    fitted = p.fit(name, width, 1 << 16, m.body, bold=True, max_lines=1)
    if nickname and fitted.cut:
        # TRANSLATORS: a seat's number and its member's nickname (then cut short).
        numbered = p.words(
            say(
                "{number} · {nickname}",
                number=Verbatim(str(seat.seat + 1)),
                nickname=Verbatim(nickname),
            )
        )
        size = p.fit(numbered, width, 1 << 16, m.body, bold=True, max_lines=1).size
        shown = letters_cut(numbered, width, size, lambda text, at: p.measure(text, at, True))
        kept = shown.removesuffix(ELLIPSIS)
        if any(kept.endswith(nickname[:k]) for k in range(NAME_LETTERS_KEPT, len(nickname))):
            image = p.render_text(shown, size, ink, True)
            placed = image.get_rect(midleft=midleft)
            p.place_text(image, placed, shown, size, cut=True)
            return placed
        name = seat_label(seat)
    return p.text(name, midleft, m.body, ink, bold=True, anchor="midleft", max_width=width)


# The fewest of a nickname's letters a cut name shows ("Wil…"): fewer name no one.
NAME_LETTERS_KEPT = 3


def prompt_fits(
    p: Painter, header: pygame.Rect, seat: SeatView, view: TableView, prompt: Words
) -> bool:
    """Whether the label, the short badges and the turn prompt share one header line."""
    font = p.fonts.get(round(p.metrics.body * 0.85), True)
    # Where "Your turn: …" does not fit, the header says the bare prompt (``turn_words``):
    # its turn colour says whose turn it is. So the bare prompt fitting is enough; a bar
    # of its own would take the height a panel's cards and columns need.
    prompt_w = min(font.size(p.words(text))[0] for text in (your_turn(prompt), prompt))
    # The name is not shrunk as the prompt may be: ``draw_header`` gives it its body
    # size, up to half the line.
    name_w = min(p.measure(p.words(seat_words(view, seat)), p.metrics.body, True), header.w // 2)
    need = name_w + prompt_w
    return need + _badges_width(p, seat, view) + 4 * p.metrics.pad <= header.w


OFFLINE = say("OFFLINE")
BOT_BADGE = say("BOT")
JOINED_SHORT = say("IN")


def _badges_width(p: Painter, seat: SeatView, view: TableView) -> int:
    """Room to keep beside the seat's name or the turn prompt for the short badges."""
    shorts = [OFFLINE] if not seat.reader_online else []
    if seat.is_bot:
        shorts.append(BOT_BADGE)
    if seat.joined and view.screen is Screen.JOIN:
        shorts.append(JOINED_SHORT)
    font = p.fonts.get(p.metrics.small, True)
    return sum(font.size(p.words(text))[0] + 4 * p.metrics.pad for text in shorts)


# The seat buttons' column, as a share of the short side: wide enough for two lines
# of a label such as "previous game" or "zurücknehmen" at the legible size (1/24 of
# the short side), where 0.13 shrank them to a few pixels at 800x480.
BUTTON_COLUMN_SHARE = 0.2


def _button_height(p: Painter, column_h: int, count: int) -> int:
    """How tall each of ``count`` buttons stacked in a column ``column_h`` high is."""
    return min(p.metrics.hand_card, (column_h - p.metrics.pad * (count - 1)) // count)


def _fitted_labels(
    p: Painter, buttons: Sequence[ButtonHint], width: int, height: int
) -> list[Fitted]:
    """The buttons' labels fitted to ``width`` x ``height`` buttons: the labels whole where
    they fit, else their short forms where they have them ("previous", "next" for
    "previous game", "next game": all of them, so the column reads alike)."""
    # Fitted together, so two labels that differ ("face up"/"face down") stay different.
    inner = p.label_box(pygame.Rect(0, 0, width, height))
    labels = [hint.label for hint in buttons]
    fitted = p.distinct_labels(labels, inner.w, inner.h, p.metrics.small, bold=True)
    cut = [fit.cut for fit in fitted]
    if not any(hint.short is not None for hint, c in zip(buttons, cut, strict=True) if c):
        return fitted
    shorter = [hint.label if hint.short is None else hint.short for hint in buttons]
    return p.distinct_labels(shorter, inner.w, inner.h, p.metrics.small, bold=True)


def button_column_width(p: Painter, buttons: Sequence[ButtonHint], column_h: int, most: int) -> int:
    """How wide the seat's column of ``buttons`` (``column_h`` high) is: 0.2 of the short
    side, where each label takes two legible lines; a button too low for two lines (a
    panel of a few buttons on a small screen) makes the column as wide as its longest
    label on one line instead ("previous game", "zurücknehmen", up to ``most``), so no
    label is cut with "…"."""
    base = round(p.metrics.unit * BUTTON_COLUMN_SHARE)
    if not buttons:
        return base
    height = _button_height(p, column_h, len(buttons))
    if not any(fitted.cut for fitted in _fitted_labels(p, buttons, base, height)):
        return base
    border = base - p.label_box(pygame.Rect(0, 0, base, height)).w
    widest = max(p.measure(p.present(hint.label), p.metrics.small, True) for hint in buttons)
    return max(base, min(widest + border + 2, most))


def draw_buttons(
    p: Painter, column: pygame.Rect, seat: SeatView, buttons: Sequence[ButtonHint]
) -> None:
    """The seat's buttons in their order, top to bottom, the column resting on the seat's edge."""
    pad = p.metrics.pad
    height = _button_height(p, column.h, len(buttons))
    top = column.bottom - len(buttons) * (height + pad) + pad
    labels = _fitted_labels(p, buttons, column.w, height)
    for hint, fitted in zip(buttons, labels, strict=True):
        box = pygame.Rect(column.left, top, column.w, height)
        p.button(box, hint.label, PressButton(seat.seat, hint.button), fitted=fitted)
        top += height + pad


# A body narrower than this share of the short side beside the button column holds
# no word at the legible size ("Geb…", "Star…" on a 7-seat table turned a quarter, whose
# panels are 160 px along their edge at 800x480): the buttons go in rows below it.
NARROWEST_BODY_SHARE = 0.18


def narrowest_body(p: Painter) -> int:
    """The narrowest a panel's body may be and still hold a word at the legible size."""
    return round(p.metrics.unit * NARROWEST_BODY_SHARE)


def button_grid(
    p: Painter, buttons: Sequence[ButtonHint], below: pygame.Rect, column_w: int
) -> ButtonRows | None:
    """How the seat's ``buttons`` go in rows along the foot of ``below`` (the seat's
    edge), or None to keep them in a column ``column_w`` wide on the right: only where
    the column would leave the body too narrow for a word, every label (or its short
    form) fits its button whole, and the body keeps two lines above them. Two buttons
    share a row where both labels fit half of it; of three (PREV, OK, NEXT), the first
    and the last share the top row, as they lie left and right of OK at the seat."""
    m = p.metrics
    if not buttons or below.w - column_w - m.pad >= narrowest_body(p):
        return None
    half = (below.w - m.pad) // 2
    cell_h = m.leading(m.small) + 2 * max(2, m.leading(m.small) // 10) + m.pad // 2

    def fit(indices: Sequence[int], width: int) -> bool:
        chosen = [buttons[i] for i in indices]
        return not any(f.cut for f in _fitted_labels(p, chosen, width, cell_h))

    order = [[0, 2], [1]] if len(buttons) == 3 else None
    rows: list[list[int]] = []
    if order is not None and fit(order[0], half) and fit(order[1], below.w):
        rows = order
    else:
        index = 0
        while index < len(buttons):
            pair = [index, index + 1]
            if index + 1 < len(buttons) and fit(pair, half):
                rows.append(pair)
                index += 2
            elif fit([index], below.w):
                rows.append([index])
                index += 1
            else:
                return None
    grid_h = len(rows) * cell_h + (len(rows) - 1) * m.pad
    if below.h - grid_h - m.pad < 2 * m.line:
        return None
    return ButtonRows(pygame.Rect(below.left, below.bottom - grid_h, below.w, grid_h), rows)


@dataclass(frozen=True)
class ButtonRows:
    """Where a narrow panel's buttons go (``button_grid``): their area at the panel's
    foot and, row by row from the top, the indices of the buttons in each row."""

    area: pygame.Rect
    rows: list[list[int]]


def draw_button_grid(
    p: Painter, grid: ButtonRows, seat: SeatView, buttons: Sequence[ButtonHint]
) -> None:
    """The seat's buttons in the rows ``button_grid`` chose, across its area."""
    pad = p.metrics.pad
    area = grid.area
    cell_h = (area.h - pad * (len(grid.rows) - 1)) // len(grid.rows)
    for row, indices in enumerate(grid.rows):
        cell_w = (area.w - pad * (len(indices) - 1)) // len(indices)
        chosen = [buttons[i] for i in indices]
        labels = _fitted_labels(p, chosen, cell_w, cell_h)
        for place, (hint, fitted) in enumerate(zip(chosen, labels, strict=True)):
            box = pygame.Rect(
                area.left + place * (cell_w + pad), area.top + row * (cell_h + pad), cell_w, cell_h
            )
            p.button(box, hint.label, PressButton(seat.seat, hint.button), fitted=fitted)


def draw_hand(
    p: Painter, strip: pygame.Rect, seat: SeatView, hand: tuple[str, ...], playable: bool
) -> None:
    """The simulator's on-screen hand: cards to click, lit when it is the seat's turn."""
    m = p.metrics
    card_h = strip.h
    # Wide enough for the ranks at the legible size ("10♦" needs more than a card's 0.7).
    card_w = p.legible_card_width(hand, card_h)
    step = card_w + max(1, m.pad // 2)
    if len(hand) > 1 and len(hand) * step > strip.w:
        step = max(6, (strip.w - card_w) // (len(hand) - 1))
    if not hand:
        p.text(say("(no cards in hand)"), strip.midleft, m.small, theme.TEXT_DIM, anchor="midleft")
    x = strip.left
    for index, card in enumerate(hand):
        box = pygame.Rect(x, strip.top, card_w, card_h)
        p.card(box, card, dim=not playable, outline=theme.TURN if playable else None)
        # Overlapping cards: only the visible strip belongs to a card, except the last.
        last = index == len(hand) - 1
        p.hit(
            pygame.Rect(x, strip.top, card_w if last else min(step, card_w), card_h),
            TapCard(seat.seat, card),
        )
        x += step
