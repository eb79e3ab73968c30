"""The parts of a seat's panel: its header, the seat's buttons and the on-screen hand.

The header holds the seat's name, its badges (reader offline, bot, joined)
and the turn prompt; the buttons stand in a column on the right; the
simulator's hand of a human seat lies along the seat's edge. The frame that
places them, and the body between them, is ``scenes``'s seat panel.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from controller.games.words import Words, as_arg, say
from controller.view import ButtonHint, Screen, SeatView, TableView
from display import theme
from display.generic import seat_words
from display.screen_parts import PROBLEM_COLOUR
from display.theme import Painter
from display.ui import PressButton, TapCard


def hand_of(view: TableView, seat: SeatView) -> tuple[str, ...] | None:
    """The seat's on-screen hand when a person plays it on screen, else None."""
    if seat.player is None or seat.player not in view.human_seats:
        return None
    if view.screen is not Screen.PLAY:
        return None
    return view.hands.get(seat.player, ())


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
    # The seat's name (nickname or "Seat 3"), never the engine's player number.
    name = seat_words(view, seat)
    x = rect.left + pad
    label = p.text(
        name, (x, rect.centery), m.body, ink, bold=True, anchor="midleft", max_width=rect.w // 2
    )
    x = label.right + pad * 2
    # The turn prompt matters most: it takes the right end; badges fill what is left,
    # in a short form when the long one does not fit.
    right = rect.right - pad
    if prompt is not None:
        room = right - x
        drawn = p.text(
            your_turn(prompt),
            (right, rect.centery),
            m.body,
            theme.TEXT_DARK,
            bold=True,
            anchor="midright",
            max_width=max(10, room - _badges_width(p, seat, view)),
        )
        right = drawn.left - pad * 2
    badges: list[tuple[Words, Words, theme.Colour]] = []
    if not seat.reader_online:
        badges.append((say("READER OFFLINE"), OFFLINE, PROBLEM_COLOUR))
    if seat.is_bot:
        badges.append((BOT_BADGE, BOT_BADGE, theme.BOT))
    if seat.joined and view.screen is Screen.JOIN:
        badges.append((say("JOINED"), say("IN"), theme.JOINED))
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
        p.blit(image, image.get_rect(center=badge.center), still=True)
        x = badge.right + pad


def prompt_fits(
    p: Painter, header: pygame.Rect, seat: SeatView, view: TableView, prompt: Words
) -> bool:
    """Whether the label, the short badges and the turn prompt share one header line."""
    font = p.fonts.get(round(p.metrics.body * 0.85), True)
    need = font.size(p.words(seat_words(view, seat)))[0] + font.size(p.words(your_turn(prompt)))[0]
    return need + _badges_width(p, seat, view) + 4 * p.metrics.pad <= header.w


OFFLINE = say("OFFLINE")
BOT_BADGE = say("BOT")


def _badges_width(p: Painter, seat: SeatView, view: TableView) -> int:
    """Room to keep beside the turn prompt for the short badges."""
    shorts = [OFFLINE] if not seat.reader_online else []
    if seat.is_bot:
        shorts.append(BOT_BADGE)
    font = p.fonts.get(p.metrics.small, True)
    return sum(font.size(p.words(text))[0] + 4 * p.metrics.pad for text in shorts)


def draw_buttons(
    p: Painter, column: pygame.Rect, seat: SeatView, buttons: Sequence[ButtonHint]
) -> None:
    """The seat's buttons in their order, top to bottom, the column resting on the seat's edge."""
    pad = p.metrics.pad
    height = min(p.metrics.hand_card, (column.h - pad * (len(buttons) - 1)) // len(buttons))
    top = column.bottom - len(buttons) * (height + pad) + pad
    # Fitted together, so two labels that differ ("face up"/"face down") stay different.
    inner = p.label_box(pygame.Rect(column.left, top, column.w, height))
    labels = p.distinct_labels(
        [hint.label for hint in buttons], inner.w, inner.h, p.metrics.small, bold=True
    )
    for hint, fitted in zip(buttons, labels, strict=True):
        box = pygame.Rect(column.left, top, column.w, height)
        p.button(box, hint.label, PressButton(seat.seat, hint.button), fitted=fitted)
        top += height + pad


def draw_hand(
    p: Painter, strip: pygame.Rect, seat: SeatView, hand: tuple[str, ...], playable: bool
) -> None:
    """The simulator's on-screen hand: cards to click, lit when it is the seat's turn."""
    m = p.metrics
    card_h = strip.h
    card_w = round(card_h * 0.7)
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
