"""The scenes: one per ``Screen``, each drawing the centre and every seat's panel.

Every screen has the same frame: a panel per physical seat, turned to face
that seat (see ``display/layout.py``), and the shared centre. The screen
decides what the centre and each panel's body show; during PLAY the game
scene chosen by ``view.game_id`` does: ``display/<key>_scene.py`` for a game
whose spec key is ``<key>`` (``scene_for``), ``display/generic.py`` for a game
without a scene of its own.

Each panel ends with the simulator's controls for its seat: the on-screen
hand of a human seat (``view.hands``) and the seat's buttons (``view.buttons``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, NamedTuple, Protocol

import pygame

from controller.games import specs
from controller.games.words import Items, Player, Verbatim, Words, as_arg, say, say_plural
from controller.view import (
    ButtonHint,
    GameChoice,
    Message,
    MessageKind,
    Screen,
    SeatView,
    StaffView,
    TableView,
)
from controller.words import Presenter
from display import theme
from display.generic import (
    GenericScene,
    Toward,
    draw_messages,
    draw_score_table,
    draw_status,
    int_list,
    score_table_height,
    seat_colour_of,
    seat_words,
    status_height,
)
from display.layout import Layout, SeatSlot, Turn
from display.theme import Painter
from display.ui import ChooseGame, PressButton, TapCard, UiAction


class GameScene(Protocol):
    """What a game scene provides for the PLAY screen."""

    def turn_prompt(self, game: Mapping[str, Any], player: int) -> Words | None:
        """What ``player`` is expected to do now, or None when it is not their turn."""

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The body of ``player``'s seat panel (upright, in panel coordinates)."""

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        """The shared centre; ``toward`` says where each player's panel is."""


PROBLEM_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PROBLEM]
TAP_TO_START = say("Tap any card or press a button to start")
PRESS_OK_TO_JOIN = say("Press OK at your seat to join")
WHO_STARTS = say("Who starts?")
NOT_PLAYING = say("not playing")
STAFF_COLOUR = (255, 96, 200)  # staff mode: a colour no game uses for a seat
GENERIC = GenericScene()
# The scenes found so far, by game id. A game's scene is found from its spec's
# key: ``display/<key>_scene.py`` with ``SCENE``, so adding a game's scene means
# adding that module; a game without one (a toy game) is drawn by GENERIC
# unless it registers its own with ``register_scene``.
_SCENES: dict[str, GameScene] = {}


def register_scene(game_id: str, scene: GameScene) -> None:
    """Draw ``game_id`` with ``scene`` (a game registered outside ``controller.games``)."""
    _SCENES[game_id] = scene


def scene_for(game_id: str | None) -> GameScene:
    """The scene that draws ``game_id``'s snapshot (the generic one for unknown games)."""
    key = game_id or ""
    if key not in _SCENES:
        _SCENES[key] = _find_scene(key)
    return _SCENES[key]


def _find_scene(game_id: str) -> GameScene:
    spec = specs().get(game_id)
    if spec is None:
        return GENERIC
    name = f"display.{spec.key}_scene"
    try:
        module = import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise  # the scene exists but something it imports is missing: a real bug
        return GENERIC
    scene: GameScene = module.SCENE
    return scene


# --- the whole picture ------------------------------------------------------------


def draw_view(p: Painter, layout: Layout, view: TableView) -> None:
    """Draw ``view`` on ``p``'s canvas, collecting hit boxes in canvas coordinates.

    The whole picture in one go: the static layer, the centre and every panel.
    The renderer does the same in parts, redrawing only the parts that changed.
    """
    draw_background(p, layout)
    draw_centre(p, layout, view)
    for slot in layout.slots:
        if slot.seat_index < len(view.seats):
            draw_panel(p, slot, view, view.seats[slot.seat_index])


def draw_background(p: Painter, layout: Layout) -> None:
    """The static layer under everything: the felt and the centre's box.

    The felt is filled only where the box leaves it uncovered, so no pixel is
    painted twice (at 1080p the centre alone is half a million pixels).
    """
    box = layout.centre.inflate(-p.metrics.pad, -p.metrics.pad)
    _felt_around(p, p.area, box, max(2, p.metrics.pad))  # p.box's corner radius
    p.box(box, theme.CENTRE, None)


def draw_centre(p: Painter, layout: Layout, view: TableView) -> None:
    """The centre's content (on the static layer), clipped to the centre.

    Clipped so that a redraw of the centre alone touches nothing else; the
    panels cover the rest of the canvas, so a full picture looks the same.
    """
    centre = layout.centre.inflate(-2 * p.metrics.pad, -2 * p.metrics.pad)
    inner = centre.inflate(-2 * p.metrics.pad, -2 * p.metrics.pad)
    clip = p.surface.get_clip()
    p.surface.set_clip(layout.centre)
    CENTRES[view.screen](p, inner, layout, view)
    p.surface.set_clip(clip)


def animation_step(view: TableView) -> float | None:
    """Seconds between frames while ``view``'s centre moves by itself, or None when still.

    Only a game scene animates (Oss's running toss timer); it says so with an
    optional ``animation_step(game)``.
    """
    if view.screen is not Screen.PLAY or view.game is None:
        return None
    step = getattr(scene_for(view.game_id), "animation_step", None)
    if step is None:
        return None
    seconds: float | None = step(view.game)
    return seconds


def towards(layout: Layout, view: TableView) -> dict[int, Toward]:
    """Where each playing engine seat's panel is, for cards laid toward their players."""
    found: dict[int, Toward] = {}
    for slot in layout.slots:
        if slot.seat_index < len(view.seats):
            seat = view.seats[slot.seat_index]
            if seat.player is not None:
                found[seat.player] = Toward(slot.rect.center, slot.rotation)
    return found


# --- seat panels -------------------------------------------------------------------


def seat_prompt(view: TableView, seat: SeatView) -> Words | None:
    """What this seat is expected to do now, or None (the turn highlight follows this).

    Not yet presented: the panel's painter writes it in the seat's own words
    (its language, seats and cards named), remembering what it wrote.
    """
    if view.screen is Screen.PLAY and view.game is not None and seat.player is not None:
        return scene_for(view.game_id).turn_prompt(view.game, seat.player)
    return None


def seat_reader(view: TableView, seat: SeatView) -> tuple[object, ...]:
    """Whose words the seat's panel is written in, as a value (language, seating, names)."""
    words = Presenter.for_view(view, seat.seat)
    return (words.language, tuple(words.players), tuple(sorted(words.names.items())))


class PanelKey(NamedTuple):
    """Everything a seat's panel shows, as a value: equal keys draw equal panels.

    ``messages`` (the seat's own messages) apart from the rest, ``frame``:
    when only the messages change, the renderer repaints the message line alone.
    """

    frame: tuple[object, ...]
    messages: tuple[Message, ...]


@dataclass(frozen=True)
class PaintedPanel:
    """What drawing a panel leaves for the renderer: its hit boxes (canvas coordinates),
    and where its message line is (upright, None without one) on what fill."""

    hits: list[tuple[pygame.Rect, UiAction]]
    message_line: pygame.Rect | None
    fill: theme.Colour


def panel_key(slot: SeatSlot, view: TableView, seat: SeatView) -> PanelKey:
    """Everything a seat's panel shows, as a value: an equal key draws an equal panel.

    The renderer draws a panel again only when this key changes. It lists what
    ``draw_panel`` reads: the slot, the seat, the screen, the seat's reader, turn
    prompt, buttons, on-screen hand and messages, and what the screen's body reads
    (for a game: its scene's ``seat_key`` when the scene has one, else the whole
    snapshot).
    """
    screen = view.screen
    body: object = None
    if screen is Screen.CHOOSE_GAME:
        body = (view.games, view.selected_game)
    elif screen is Screen.PLAY and seat.player is not None and view.game is not None:
        scene = scene_for(view.game_id)
        seat_key = getattr(scene, "seat_key", None)
        body = (view.game_id, view.game if seat_key is None else seat_key(view.game, seat.player))
    elif screen is Screen.RESULTS:
        body = (view.result, view.game)
    elif screen is Screen.STAFF:
        body = view.staff
    frame = (
        slot,
        screen,
        seat,
        seat_reader(view, seat),
        seat_prompt(view, seat),
        tuple(b for b in view.buttons if b.seat == seat.seat),
        _hand_of(view, seat),
        view.staff_overlay if view.staff_overlay and view.staff_overlay.seat == seat.seat else None,
        body,
    )
    return PanelKey(frame, tuple(msg for msg in view.messages if msg.seat == seat.seat))


def draw_panel(canvas: Painter, slot: SeatSlot, view: TableView, seat: SeatView) -> None:
    """One seat's panel, facing its seat, drawn onto ``canvas``."""
    painted = paint_panel(canvas.surface, canvas.fonts, canvas.metrics, slot, view, seat)
    for rect, action in painted.hits:
        canvas.hit(rect, action)


def paint_panel(
    canvas: pygame.Surface,
    fonts: theme.Fonts,
    metrics: theme.Metrics,
    slot: SeatSlot,
    view: TableView,
    seat: SeatView,
) -> PaintedPanel:
    """One seat's panel drawn onto ``canvas`` at ``slot.rect``, turned to face its seat.

    The panel is drawn upright through a painter whose turn places it: every
    rectangle and point is turned and every picture blitted already turned, so
    no upright copy of the panel is turned pixel by pixel (on a Pi core that
    was the largest cost of a tap). Drawing is clipped to the slot.
    """
    p = panel_painter(canvas, fonts, metrics, slot, Presenter.for_view(view, seat.seat))
    before = canvas.get_clip()
    canvas.set_clip(slot.rect)
    try:
        line, fill = _draw_upright(p, view, seat)
    finally:
        canvas.set_clip(before)
    return PaintedPanel(p.hits, line, fill)


def repaint_message_line(
    p: Painter, slot: SeatSlot, view: TableView, seat: SeatView, painted: PaintedPanel
) -> pygame.Rect:
    """Only the message line of a panel ``painted`` before, for the seat's newest message,
    through the panel's painter ``p`` (``panel_painter``); the canvas rectangle it touched.

    For a change of the seat's messages alone (its other key parts the same, a
    message shown before and after): the line keeps its place, and the rest of
    the panel (three quarters of its pixels) is left as it is.
    """
    line = painted.message_line
    assert line is not None
    with p.clip(line):
        p.fill(painted.fill, line)
        draw_messages(p, line, view, _own_messages(view, seat)[-1:], prefix=False)
    return p.turn.rect(line).clip(slot.rect)


def panel_painter(
    canvas: pygame.Surface,
    fonts: theme.Fonts,
    metrics: theme.Metrics,
    slot: SeatSlot,
    words: Presenter,
) -> Painter:
    """A painter that draws a seat's panel upright, turned onto its ``slot``, in ``words``."""
    turn = Turn(slot.rotation, slot.local_size, slot.rect.topleft)
    return Painter(canvas, fonts, metrics, words=words, turn=turn)


def _own_messages(view: TableView, seat: SeatView) -> list[Message]:
    return [msg for msg in view.messages if msg.seat == seat.seat]


def _draw_upright(
    p: Painter, view: TableView, seat: SeatView
) -> tuple[pygame.Rect | None, theme.Colour]:
    """One seat's panel drawn upright over all of ``p``'s area (hit boxes go to ``p``);
    where its message line is (None without one) and the panel's fill.

    Upright, from the top (the centre side) down to the seat's edge: the header
    (label, badges, the turn prompt), the body (the screen's or game's part),
    the latest message for this seat, and the simulator's hand; the seat's
    buttons stand in a column on the right.
    """
    width, height = p.area.size
    m = p.metrics
    pad = m.pad
    said = seat_prompt(view, seat)
    prompt = None if said is None else p.words(said)
    playing = view.screen in (Screen.PLAY, Screen.RESULTS) and seat.player is not None
    active = seat.joined or playing or view.screen in (Screen.ATTRACT, Screen.CHOOSE_GAME)
    frame = pygame.Rect(0, 0, width, height).inflate(-pad, -pad)
    fill = theme.PANEL if active else theme.PANEL_EMPTY
    if prompt is not None:
        fill = theme.blend(theme.PANEL, theme.TURN, 0.1)
        edge, edge_w = theme.TURN, max(3, pad)
    elif not seat.reader_online:
        edge, edge_w = PROBLEM_COLOUR, max(2, pad // 2)
    else:
        # The seat's own colour, as its LEDs glow: a player finds their panel by it.
        edge, edge_w = seat_colour_of(seat), max(2, pad // 2)
    _felt_around(p, p.area, frame, max(2, pad))  # p.box's corner radius
    p.box(frame, fill, edge, edge_w)
    inner = frame.inflate(-2 * pad - edge_w, -2 * pad - edge_w)

    header = pygame.Rect(inner.left, inner.top, inner.w, round(m.body * 0.95))
    if prompt is not None and not _prompt_fits(p, header, seat, view, prompt):
        # A narrow panel: the turn prompt gets a bar of its own under the label.
        bar = pygame.Rect(inner.left, header.bottom + pad // 2, inner.w, header.h)
        _draw_header(p, header, view, seat, None)
        p.box(bar, theme.TURN, None)
        p.text(
            _your_turn(prompt),
            bar.center,
            m.body,
            theme.TEXT_DARK,
            bold=True,
            anchor="center",
            max_width=bar.w - 2 * pad,
        )
        header = header.union(bar)
    else:
        _draw_header(p, header, view, seat, prompt)
    below = pygame.Rect(
        inner.left, header.bottom + pad, inner.w, inner.bottom - header.bottom - pad
    )

    buttons = [b for b in view.buttons if b.seat == seat.seat]
    if buttons:
        column_w = round(m.unit * 0.13)
        column = pygame.Rect(below.right - column_w, below.top, column_w, below.h)
        _draw_buttons(p, column, seat, buttons)
        below.w -= column_w + pad

    hand = _hand_of(view, seat)
    if hand is not None:
        strip = pygame.Rect(below.left, below.bottom - m.hand_card, below.w, m.hand_card)
        _draw_hand(p, strip, seat, hand, prompt is not None)
        below.h -= strip.h + pad

    own = _own_messages(view, seat)
    # The seat's latest message, unless it would squeeze the body (it is in the centre too).
    line: pygame.Rect | None = None
    if own and below.h - m.line - pad >= m.unit * 0.12:
        line = pygame.Rect(below.left, below.bottom - m.line, below.w, m.line)
        draw_messages(p, line, view, own[-1:], prefix=False)
        below.h -= line.h + pad

    if below.h > 4:
        # Clip, so a body that does not fit is cut rather than drawn over its neighbours.
        with p.clip(below):
            page = view.help.get(seat.seat)
            if page is not None:
                _help_body(p, below, page, view.results_page)
            else:
                BODIES[view.screen](p, below, view, seat)
    overlay = view.staff_overlay
    if overlay is not None and overlay.seat == seat.seat and below.h > 4:
        _draw_staff_overlay(p, below, overlay)
    return line, fill


def _felt_around(p: Painter, area: pygame.Rect, frame: pygame.Rect, radius: int) -> None:
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


def _draw_staff_overlay(p: Painter, rect: pygame.Rect, staff: StaffView) -> None:
    """Staff mode over the seat's game: a loud STAFF banner and what each button does now.

    Drawn over the hand and the body so nobody mistakes the seat's buttons for
    a player's while staff mode is open.
    """
    m = p.metrics
    p.box(rect, theme.blend(theme.PANEL, STAFF_COLOUR, 0.25), STAFF_COLOUR, max(3, m.pad))
    lines: list[tuple[Words, theme.Colour, int, bool]] = [
        (staff.title, STAFF_COLOUR, m.big, True),
        (staff.prompt, theme.TEXT, m.body, True),
    ]
    lines += [(option, theme.TEXT, m.body, False) for option in staff.options]
    lines += [(line, theme.TEXT, m.big, True) for line in staff.lines]
    if staff.hint:
        lines.append((staff.hint, theme.TEXT_DIM, m.small, False))
    with p.clip(rect):
        _centred_lines(p, rect.inflate(-2 * m.pad, -2 * m.pad), lines)


def _hand_of(view: TableView, seat: SeatView) -> tuple[str, ...] | None:
    """The seat's on-screen hand when a person plays it on screen, else None."""
    if seat.player is None or seat.player not in view.human_seats:
        return None
    if view.screen is not Screen.PLAY:
        return None
    return view.hands.get(seat.player, ())


def _your_turn(prompt: Words) -> Words:
    return say("Your turn: {action}", action=as_arg(prompt))


def _draw_header(
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
            _your_turn(prompt),
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


def _prompt_fits(
    p: Painter, header: pygame.Rect, seat: SeatView, view: TableView, prompt: Words
) -> bool:
    """Whether the label, the short badges and the turn prompt share one header line."""
    font = p.fonts.get(round(p.metrics.body * 0.85), True)
    need = font.size(p.words(seat_words(view, seat)))[0] + font.size(p.words(_your_turn(prompt)))[0]
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


def _draw_buttons(
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


def _draw_hand(
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


# --- panel bodies, by screen -------------------------------------------------------


def _centred_lines(
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


def _attract_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    _centred_lines(p, rect, [(TAP_TO_START, theme.TEXT, p.metrics.body, True)])


def _choose_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    choice = _selected(view)
    lines: list[tuple[Words, theme.Colour, int, bool]] = [
        (say("Choosing a game"), theme.TEXT_DIM, p.metrics.small, False)
    ]
    if choice is not None:
        lines.append((choice.title, theme.TEXT, p.metrics.big, True))
        lines.append((_players_range(choice), theme.TEXT_DIM, p.metrics.small, False))
    _centred_lines(p, rect, lines)


def _join_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.joined:
        _centred_lines(
            p,
            rect,
            [
                (say("Joined"), theme.JOINED, p.metrics.big, True),
                (say("waiting for the game to start"), theme.TEXT_DIM, p.metrics.small, False),
            ],
        )
    else:
        _centred_lines(p, rect, [(PRESS_OK_TO_JOIN, theme.TEXT, p.metrics.body, True)])


def _help_body(
    p: Painter, rect: pygame.Rect, page: tuple[Words, tuple[Words, ...]], turn: int = 0
) -> None:
    # A seat's rules page (a long press of OK), facing that seat; it closes by itself.
    # Lines that do not fit turn over by themselves (``turn`` is the table's page count).
    title, lines = page
    m = p.metrics
    size = max(10, round(m.small * 0.85))
    y = p.text(title, (rect.left, rect.top), m.small, theme.TURN, bold=True, max_width=rect.w)
    # Each rule behind a dash, its wrapped lines indented under its first word.
    indent = p.measure("- ", size)
    pieces = [
        (index == 0, piece)
        for line in lines
        for index, piece in enumerate(p.wrap(line, size, rect.w - indent))
    ]
    room = max(1, (rect.bottom - y.bottom) // m.leading(size))
    pages = -(-len(pieces) // room)
    first = (turn % pages) * room if pages else 0
    top = y.bottom
    for starts, piece in pieces[first : first + room]:
        if starts:
            p.text("-", (rect.left, top), size, theme.TEXT)
        at = (rect.left + indent, top)
        top = p.text(piece, at, size, theme.TEXT, max_width=rect.w - indent).bottom


def _option_line(label: Words, value: Words) -> Words:
    return say("{option}: {value}", option=as_arg(label), value=as_arg(value))


def _options_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    # The line under the cursor, facing each seat, so anyone can follow and change it.
    if not view.options:
        return
    label, value, explanation = view.options[view.options_cursor % len(view.options)]
    _centred_lines(
        p,
        rect,
        [
            (_option_line(label, value), theme.TURN, p.metrics.body, True),
            (explanation, theme.TEXT_DIM, p.metrics.small, False),
        ],
    )


def _starter_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    # The rulebook's question (Oshaka: who most recently helped someone?), facing each seat.
    if not seat.joined:
        _centred_lines(p, rect, [(NOT_PLAYING, theme.TEXT_DIM, p.metrics.small, False)])
        return
    _centred_lines(
        p,
        rect,
        [
            (view.prompt or WHO_STARTS, theme.TEXT, p.metrics.body, True),
            (say("If it is you: tap a card or press OK"), theme.TURN, p.metrics.small, True),
        ],
    )


def _play_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.player is None or view.game is None:
        _centred_lines(p, rect, [(NOT_PLAYING, theme.TEXT_DIM, p.metrics.small, False)])
        return
    scene_for(view.game_id).draw_seat(p, rect, view, seat.player)


def _results_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.player is None:
        _centred_lines(p, rect, [(say("did not play"), theme.TEXT_DIM, p.metrics.small, False)])
        return
    report = _report(view)
    totals = int_list(report.get("totals")) or []
    winners = int_list(report.get("winners")) or []
    total = totals[seat.player] if seat.player < len(totals) else None
    lines: list[tuple[Words, theme.Colour, int, bool]] = []
    if seat.player in winners:
        lines.append((say("WINNER"), theme.WINNER, p.metrics.big, True))
    shown = say("Total {total}", total=Verbatim("-") if total is None else total)
    lines.append((shown, theme.TEXT, p.metrics.big, True))
    _centred_lines(p, rect, lines)


BodyDrawer = Callable[[Painter, pygame.Rect, TableView, SeatView], None]


def _staff_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    at_desk = view.staff is not None and view.staff.seat == seat.seat
    text = say("Staff desk: use your buttons") if at_desk else say("Staff at work: one moment")
    _centred_lines(p, rect, [(text, theme.TEXT_DIM, p.metrics.body, at_desk)])


BODIES: dict[Screen, BodyDrawer] = {
    Screen.STAFF: _staff_body,
    Screen.ATTRACT: _attract_body,
    Screen.CHOOSE_GAME: _choose_body,
    Screen.JOIN: _join_body,
    Screen.STARTER: _starter_body,
    Screen.OPTIONS: _options_body,
    Screen.PLAY: _play_body,
    Screen.RESULTS: _results_body,
}


# --- centres, by screen --------------------------------------------------------------


def _selected(view: TableView) -> GameChoice | None:
    if 0 <= view.selected_game < len(view.games):
        return view.games[view.selected_game]
    return None


def _players_range(choice: GameChoice) -> Words:
    if choice.min_players == choice.max_players:
        return say_plural("{n} player", "{n} players", choice.min_players)
    return say("{least}-{most} players", least=choice.min_players, most=choice.max_players)


def _current_game(view: TableView) -> GameChoice | None:
    for choice in view.games:
        if choice.game_id == view.game_id:
            return choice
    return _selected(view) if view.game_id is None else None


def _game_title(view: TableView) -> Words:
    if view.game_title is not None:  # the game in progress, with the variant it plays
        return view.game_title
    choice = _current_game(view)
    if choice is not None:
        return choice.title
    game = view.game or view.result or {}
    return str(game.get("title") or view.game_id or view.title)


def _messages_below(p: Painter, rect: pygame.Rect, top: int, view: TableView) -> None:
    if view.messages:
        draw_messages(p, pygame.Rect(rect.left, top, rect.w, rect.bottom - top), view)


def _attract_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    notices = [msg.text for msg in view.messages if msg.kind is MessageKind.PROBLEM]
    if notices:
        # A problem on the idle table is for staff and may hold a command to type
        # (e.g. how to enroll the first staff tag): it takes the centre, every word
        # shown, wrapped, under the title.
        title = p.text(
            view.title,
            (rect.centerx, rect.top + m.pad),
            m.big,
            theme.TEXT,
            bold=True,
            anchor="midtop",
            max_width=rect.w,
        )
        below = pygame.Rect(
            rect.left + m.pad, title.bottom, rect.w - 2 * m.pad, rect.bottom - title.bottom
        )
        _centred_lines(p, below, [(text, PROBLEM_COLOUR, m.small, False) for text in notices])
        return
    title = p.text(
        view.title,
        (rect.centerx, rect.top + round(rect.h * 0.28)),
        m.title,
        theme.TEXT,
        bold=True,
        anchor="center",
        max_width=rect.w,
    )
    line = p.text(
        TAP_TO_START,
        (rect.centerx, title.bottom + m.pad * 2),
        m.big,
        theme.TURN,
        anchor="midtop",
        max_width=rect.w,
    )
    y = line.bottom + m.pad * 2
    if view.games:
        titles = Items(tuple(as_arg(choice.title) for choice in view.games))
        names = say("Games: {games}", games=titles)
        y = p.text(
            names, (rect.centerx, y), m.small, theme.TEXT_DIM, anchor="midtop", max_width=rect.w
        ).bottom
    _messages_below(p, rect, y + m.pad * 2, view)


def _menu_rows(
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
    fits = max(1, (room + m.pad) // (row_h + m.pad))
    # Keep the selected row in view: scroll the window of rows around it.
    first = min(max(0, selected - fits // 2), max(0, len(rows) - fits))
    width = min(rect.w, round(m.unit * 0.9))
    for slot, index in enumerate(range(first, min(len(rows), first + fits))):
        label, detail = rows[index]
        row = pygame.Rect(0, top + slot * (row_h + m.pad), width, row_h)
        row.centerx = rect.centerx
        chosen = index == selected
        p.box(
            row,
            theme.SELECTED if chosen else theme.BUTTON,
            theme.TURN if chosen else theme.BUTTON_EDGE,
            max(1, m.pad // 2 + (2 if chosen else 0)),
        )
        size = m.body if row_h >= m.body else m.small
        p.text(
            label,
            (row.left + m.pad * 2, row.centery),
            size,
            theme.TEXT,
            bold=chosen,
            anchor="midleft",
            max_width=round(row.w * (0.62 if detail else 0.9)),
        )
        if detail:
            p.text(
                detail,
                (row.right - m.pad * 2, row.centery),
                m.small,
                theme.TEXT if chosen else theme.TEXT_DIM,
                anchor="midright",
                max_width=round(row.w * 0.34),
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
        p.text(
            " - ".join(p.words(text) for text in more),
            (rect.centerx, bottom + m.pad // 2),
            m.small,
            theme.TEXT_DIM,
            anchor="midtop",
            max_width=rect.w,
        )


def _choose_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    head = p.text(
        say("Choose a game"),
        (rect.centerx, rect.top),
        m.big,
        theme.TEXT,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    )
    # The list gets the room: the seat panels already say how to choose, and the
    # menu's only message repeats it.
    bottom = rect.bottom - m.small - m.pad
    rows = [(choice.title, choice.unavailable or _players_range(choice)) for choice in view.games]
    _menu_rows(p, rect, head.bottom + m.pad, bottom, rows, view.selected_game, ChooseGame)
    if not view.games:
        p.text(say("no games installed"), rect.center, m.body, theme.TEXT_DIM, anchor="center")


def _cells_table(p: Painter, rect: pygame.Rect, rows: Sequence[tuple[str, ...]]) -> None:
    """Rows of cells in columns, the first row (the column names) on top and dimmed; when
    not every row fits, the names and the last rows. Type shrinks to fit the widest row."""
    m = p.metrics
    gap = 2 * m.pad
    names, body = rows[0], rows[1:]
    size = m.small
    while True:
        line = m.leading(size)
        shown = body[-max(0, rect.h // line - 1) :] if rect.h // line > 1 else ()
        widths = [
            max(p.measure(row[i], size, row is names) for row in (names, *shown) if i < len(row))
            for i in range(len(names))
        ]
        if sum(widths) + gap * (len(widths) - 1) <= rect.w or size <= round(m.small * 0.7):
            break
        size -= 1
    y = rect.top
    for index, row in enumerate((names, *shown)):
        x = rect.left
        for cell, width in zip(row, widths, strict=False):
            p.text(
                cell,
                (x, y),
                size,
                theme.TEXT_DIM if index == 0 else theme.TEXT,
                bold=index == 0,
                max_width=max(1, min(width, rect.right - x)),
            )
            x += width + gap
        y += m.leading(size)


def _staff_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    desk = view.staff
    if desk is None:
        return
    head = p.text(
        desk.title,
        (rect.centerx, rect.top),
        m.big,
        theme.TEXT,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    )
    y = head.bottom + m.pad
    if desk.prompt:
        prompt = p.text(
            desk.prompt,
            (rect.centerx, y),
            m.body,
            theme.TURN,
            bold=True,
            anchor="midtop",
            max_width=rect.w,
        )
        y = prompt.bottom + m.pad
    hint_h = m.small + m.pad if desk.hint else 0
    if desk.options:
        rows = [(label, "") for label in desk.options]
        _menu_rows(p, rect, y, rect.bottom - hint_h - m.small, rows, desk.selected)
    elif desk.table:
        area = pygame.Rect(rect.left + m.pad, y, rect.w - 2 * m.pad, rect.bottom - hint_h - y)
        _cells_table(p, area, desk.table)
    else:
        line_h = m.leading(m.small)
        fits = max(0, (rect.bottom - hint_h - y) // line_h)
        for line in desk.lines[-fits:] if fits else ():
            p.text(line, (rect.left + m.pad, y), m.small, theme.TEXT, max_width=rect.w - m.pad * 2)
            y += line_h
    if desk.hint:
        p.text(
            desk.hint,
            (rect.centerx, rect.bottom),
            m.small,
            theme.TEXT_DIM,
            anchor="midbottom",
            max_width=rect.w,
        )


def _centre_title(p: Painter, rect: pygame.Rect, view: TableView) -> pygame.Rect:
    """The game's title at the top of the centre panel; its rectangle."""
    return p.text(
        _game_title(view),
        (rect.centerx, rect.top),
        p.metrics.big,
        theme.TEXT,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    )


def _join_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    choice = _current_game(view)
    head = _centre_title(p, rect, view)
    joined = sum(1 for seat in view.seats if seat.joined)
    count: Words = say_plural("{n} joined", "{n} joined", joined)
    if choice is not None:
        count = say(
            "{joined} · {players}", joined=as_arg(count), players=as_arg(_players_range(choice))
        )
    y = p.text(
        count,
        (rect.centerx, head.bottom + m.pad),
        m.body,
        theme.TEXT_DIM,
        anchor="midtop",
        max_width=rect.w,
    ).bottom
    y = p.text(
        PRESS_OK_TO_JOIN,
        (rect.centerx, y + m.pad),
        m.body,
        theme.TURN,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    ).bottom
    # One chip per seat: joined seats lit.
    seats = view.seats
    if seats:
        chip_w = min(round(m.unit * 0.22), (rect.w - m.pad * (len(seats) - 1)) // len(seats))
        chip_h = round(m.body * 1.2)
        total = len(seats) * chip_w + (len(seats) - 1) * m.pad
        x = rect.centerx - total // 2
        y += m.pad * 2
        for seat in seats:
            chip = pygame.Rect(x, y, chip_w, chip_h)
            # A joined seat's chip glows in the seat's colour, as its LEDs and panel edge do.
            own = seat_colour_of(seat)
            colour = own if seat.joined else theme.PANEL_EMPTY
            p.box(chip, colour, own, max(1, m.pad // 3))
            ink = theme.TEXT_DARK if seat.joined else theme.TEXT_DIM
            name = as_arg(seat_words(view, seat))
            text = say("{seat} (bot)", seat=name) if seat.is_bot else seat_words(view, seat)
            p.text(
                text,
                chip.center,
                m.small,
                ink,
                bold=seat.joined,
                anchor="center",
                max_width=chip.w - 4,
            )
            x += chip_w + m.pad
        y += chip_h
    _messages_below(p, rect, y + m.pad * 2, view)


def _options_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    # Every line of the options screen, the cursor's highlighted with its explanation;
    # the lines shrink to the room there is (Oh Pshaw has ten).
    m = p.metrics
    y = _centre_title(p, rect, view).bottom + m.pad
    lines = view.options
    if not lines:
        return
    room = max(1, rect.bottom - y - round(m.small * 2.4))
    size = max(10, min(m.body, room // (len(lines) + 1)))
    for index, (label, value, _) in enumerate(lines):
        here = index == view.options_cursor
        y = p.text(
            _option_line(label, value),
            (rect.centerx, y),
            size,
            theme.TURN if here else theme.TEXT,
            bold=here,
            anchor="midtop",
            max_width=rect.w,
        ).bottom
    explanation = lines[view.options_cursor % len(lines)][2]
    p.text(
        explanation,
        (rect.centerx, y + m.pad),
        m.small,
        theme.TEXT_DIM,
        anchor="midtop",
        max_width=rect.w,
    )


def _starter_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    head = _centre_title(p, rect, view)
    y = p.text(
        view.prompt or WHO_STARTS,
        (rect.centerx, head.bottom + m.pad),
        m.big,
        theme.TURN,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    ).bottom
    _messages_below(p, rect, y + m.pad * 2, view)


def _play_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    if view.game is None:
        p.text(
            _game_title(view),
            rect.center,
            p.metrics.big,
            theme.TEXT,
            bold=True,
            anchor="center",
            max_width=rect.w,
        )
        return
    scene_for(view.game_id).draw_centre(p, rect, view, towards(layout, view))


def _report(view: TableView) -> Mapping[str, Any]:
    """The final report, or what the last snapshot says when the table gave no report."""
    return view.result or view.game or {}


def fit_rounds(
    rounds: Sequence[tuple[Words, Sequence[int | None]]], room: int, page: int = 0
) -> list[tuple[Words, Sequence[int | None]]]:
    """Rounds for at most ``room`` rows, so the totals always add up on screen.

    All of them when they fit. Otherwise a page of rounds (``page`` wraps round;
    the table turns it every few seconds) between one row summing the rounds
    before it and one summing those after, so every round is shown in turn.
    With too little room even for that, consecutive rounds merge into groups.
    """
    if room <= 0 or not rounds:
        return []
    if len(rounds) <= room:
        return list(rounds)
    if room >= 3:
        per_page = room - 2
        pages = -(-len(rounds) // per_page)
        first = (page % pages) * per_page
        last = min(len(rounds), first + per_page)
        shown = list(rounds[first:last])
        if first > 0:
            shown.insert(0, _summed(rounds[:first], _rounds(1, first)))
        if last < len(rounds):
            shown.append(_summed(rounds[last:], _rounds(last + 1, len(rounds))))
        return shown
    per_row = -(-len(rounds) // room)
    return [
        _summed(rounds[i : i + per_row], _rounds(i + 1, min(len(rounds), i + per_row)))
        for i in range(0, len(rounds), per_row)
    ]


def _rounds(first: int, last: int) -> Words:
    return say("Rounds {first}-{last}", first=first, last=last)


def _summed(
    group: Sequence[tuple[Words, Sequence[int | None]]], name: Words
) -> tuple[Words, list[int | None]]:
    if len(group) == 1:
        return group[0][0], list(group[0][1])
    players = max(len(values) for _, values in group)
    return name, [sum(v[i] or 0 for _, v in group if i < len(v)) for i in range(players)]


def _results_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    # The whole game on one screen: who won and by which rule, every round (merged
    # into groups when they do not fit), the rows that show why, and totals that add up.
    m = p.metrics
    report = _report(view)
    title = say("Results: {game}", game=as_arg(_game_title(view)))
    winners = int_list(report.get("winners")) or []
    said: Words | None = None
    if winners:
        said = (
            say("Winner: {player}", player=Player(winners[0]))
            if len(winners) == 1
            else say("Shared victory: {players}", players=Items(tuple(Player(w) for w in winners)))
        )
    rule = p.wrap(view.result_rule, m.small, rect.w)[:3] if view.result_rule else []
    totals = int_list(report.get("totals")) or []
    rounds: list[tuple[Words, Sequence[int | None]]] = []
    entries = report.get("rounds")
    if isinstance(entries, list):
        for index, entry in enumerate(entries):
            scores = int_list(entry.get("scores")) if isinstance(entry, Mapping) else None
            if scores is not None:
                rounds.append((say("Round {number}", number=index + 1), scores))
    tail: list[tuple[Words, Sequence[int | None]]] = [
        *((heading, values) for heading, values in view.result_rows),
        (say("Total"), totals),
    ]
    title_size, rule = _results_heading(p, rect, title, said, rule, len(rounds), len(tail))
    head = p.text(
        title,
        (rect.centerx, rect.top),
        title_size,
        theme.TEXT,
        bold=True,
        anchor="midtop",
        max_width=rect.w,
    )
    y = head.bottom + m.pad
    if said is not None:
        y += draw_status(p, pygame.Rect(rect.left, y, rect.w, rect.h), said, theme.WINNER)
    for piece in rule:
        y = p.text(
            piece, (rect.centerx, y), m.small, theme.TEXT_DIM, anchor="midtop", max_width=rect.w
        ).bottom
    width = min(rect.w, round(m.unit * 0.9))
    table = pygame.Rect(rect.centerx - width // 2, y + m.pad, width, rect.bottom - y - m.pad)
    size = _results_table_size(p, table.h, len(rounds), len(tail))
    line = score_table_height(p, 1, size) // 2
    room = table.h // line - 1 - len(tail)
    columns = [*fit_rounds(rounds, room, view.results_page), *tail]
    used = draw_score_table(p, table, view, columns, winners=winners, size=size)
    if rect.bottom - (table.top + used) >= round(m.small * 2.6):
        _messages_below(p, rect, table.top + used + m.pad, view)


# Rows of rounds the results table keeps room for: the rounds before a page's
# round, that round, and the rounds after it (``fit_rounds``).
ROUND_ROWS = 3


def _results_table_floor(p: Painter) -> int:
    """The smallest type the results table shrinks to before rounds merge into groups.

    Numbers read from a seat: not below 17 (the 7-inch screen's small type is
    20), else a little under the small type, which keeps a one-line rule above
    the table at 1280x720.
    """
    return max(17, round(p.metrics.small * 0.82))


def _results_table_size(p: Painter, height: int, rounds: int, tail: int) -> int:
    """The results table's type: the largest, down to the floor, at which every round
    fits in ``height``; else at which three rows of rounds do (a page of them: the
    rounds before, one round, the rounds after); else two."""
    floor = _results_table_floor(p)
    for wanted in (rounds, min(rounds, ROUND_ROWS), min(rounds, 2)):
        for size in range(p.metrics.small, floor - 1, -1):
            if score_table_height(p, wanted + tail, size) <= height:
                return size
    return floor


def _results_heading(
    p: Painter,
    rect: pygame.Rect,
    title: Words,
    said: Words | None,
    rule: list[str],
    rounds: int,
    tail: int,
) -> tuple[int, list[str]]:
    """The results title's size and the rule's lines that leave the score table its room.

    The table is what the screen is for: it wants room for ``ROUND_ROWS`` rows
    of rounds under its own rows, in small type (its pages then show every
    round on its own in turn). On a short centre (800x480, the 7-inch screen,
    or seven seats around it) the heading gives way first: the title steps
    down to body size, the table to its floor. Then the rounds are shown in
    two groups rather than the rule left out, since the rule says why the
    winner won (a tie-break among them); only when even that does not fit is
    the rule left out.
    """
    m = p.metrics
    winner = 0 if said is None else status_height(p, rect.w, said)
    rule_height = sum(
        p.render_text(piece, m.small, theme.TEXT_DIM, max_width=rect.w).get_height()
        for piece in rule
    )
    floor = _results_table_floor(p)
    for title_size, table_size, round_rows in (
        (m.big, m.small, ROUND_ROWS),
        (m.body, m.small, ROUND_ROWS),
        (m.body, floor, ROUND_ROWS),
        (m.body, floor, 2),
    ):
        title_height = p.render_text(title, title_size, theme.TEXT, True, rect.w).get_height()
        heading = title_height + m.pad + winner + rule_height
        table = score_table_height(p, min(rounds, round_rows) + tail, table_size) + m.pad
        if heading + table <= rect.h:
            return title_size, rule
    return m.body, []  # the rule left out


CentreDrawer = Callable[[Painter, pygame.Rect, Layout, TableView], None]
CENTRES: dict[Screen, CentreDrawer] = {
    Screen.ATTRACT: _attract_centre,
    Screen.CHOOSE_GAME: _choose_centre,
    Screen.JOIN: _join_centre,
    Screen.STARTER: _starter_centre,
    Screen.OPTIONS: _options_centre,
    Screen.PLAY: _play_centre,
    Screen.RESULTS: _results_centre,
    Screen.STAFF: _staff_centre,
}
