"""The scenes: one per ``Screen``, each drawing the centre and every seat's panel.

Every screen has the same frame: a panel per physical seat, turned to face
that seat (see ``display/layout.py``), and the shared centre. The screen
decides what the centre and each panel's body show; during PLAY the game
scene chosen by ``view.game_id`` does: ``display/scenes/<key>.py`` for a game
whose spec key is ``<key>`` (``scene_for``), ``display/generic.py`` for a game
without a scene of its own.

Each panel ends with the simulator's controls for its seat: the on-screen
hand of a human seat (``view.hands``) and the seat's buttons (``view.buttons``).

This module is the registry and the dispatch: the game scenes, the whole
picture, the seat panel's frame, and ``BODIES`` and ``CENTRES``, which say
which drawer draws each screen. The screens' own drawers are in
``menu_screens``, ``results_screen`` and ``staff_screen`` (PLAY's are here:
they hand over to the game scene); the panel's header, buttons and hand are
in ``panel_parts``; what several screens share is in ``screen_parts``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import NamedTuple, Protocol

import pygame

from controller.games import specs
from controller.games.words import Words
from controller.view import AnyGameView, Message, Screen, SeatView, TableView
from controller.words import Presenter
from display import theme
from display.generic import GenericScene, Toward, draw_messages
from display.layout import STRAIGHT, Layout, SeatSlot, Turn
from display.menu_screens import (
    attract_body,
    attract_centre,
    choose_body,
    choose_centre,
    help_body,
    join_body,
    join_centre,
    options_body,
    options_centre,
    starter_body,
    starter_centre,
)
from display.motion import STILL, Motion
from display.panel_parts import (
    PanelLook,
    button_column_width,
    button_grid,
    draw_button_grid,
    draw_buttons,
    draw_frame,
    draw_hand,
    draw_heading,
    felt_around,
    hand_of,
    narrowest_body,
    panel_look,
    redraw_edge,
)
from display.results_screen import results_body, results_centre
from display.screen_parts import NOT_PLAYING, PROBLEM_COLOUR, centred_lines, game_title
from display.staff_screen import draw_staff_overlay, staff_body, staff_centre
from display.theme import Painter
from display.ui import UiAction


class GameScene(Protocol):
    """What a game scene provides for the PLAY screen.

    ``game`` is the view's ``GameView``: the engine's typed snapshot and the
    table's overlay; a scene narrows it to its game's own types
    (``GameView.narrowed``). Optional too: ``seat_key(game, player)``, what a
    panel's body shows as a value; ``repaint_seat``, which draws again only the part
    of a body that changed between two such keys (``BodyRepainter``); and
    ``animation_step(game)``.
    """

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        """What ``player`` is expected to do now, or None when it is not their turn."""

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The body of ``player``'s seat panel (upright, in panel coordinates)."""

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        """The shared centre; ``toward`` says where each player's panel is."""


GENERIC = GenericScene()
# The scenes found so far, by game id. A game's scene is found from its spec's
# key: ``display/scenes/<key>.py`` with ``SCENE``, so adding a game's scene means
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
    name = f"{__name__}.{spec.key}"
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
    felt_around(p, p.area, box, max(2, p.metrics.pad))  # p.box's corner radius
    p.box(box, theme.CENTRE, None)


def draw_centre(p: Painter, layout: Layout, view: TableView) -> None:
    """The centre's content (on the static layer), clipped to the centre.

    Clipped so that a redraw of the centre alone touches nothing else; the
    panels cover the rest of the canvas, so a full picture looks the same.
    """
    centre = layout.centre.inflate(-2 * p.metrics.pad, -2 * p.metrics.pad)
    inner = centre.inflate(-2 * p.metrics.pad, -2 * p.metrics.pad)
    clip = p.surface.get_clip()
    p.surface.set_clip(p.turn.rect(layout.centre))
    if view.halted is not None:
        # Play is halted (a full disk): that alone, large, where everyone looks; in the
        # body size where the large lines would not all fit (then in pages if need be).
        size = p.metrics.big
        if len(p.wrap(view.halted, size, inner.w, True)) * p.metrics.leading(size) > inner.h:
            size = p.metrics.body
        centred_lines(p, inner, [(view.halted, PROBLEM_COLOUR, size, True)])
    else:
        CENTRES[view.screen](p, inner, layout, view)
    p.surface.set_clip(clip)


def animation_step(view: TableView) -> float | None:
    """Seconds between frames while ``view``'s centre moves by itself, or None when still.

    Only a game scene animates by itself on the table's clock (Oss's running toss
    timer); it says so with an optional ``animation_step(game)``. What moves on the
    display's clock (cards, counts, Oss's paged tricks) asks through ``Motion``.
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

    What the body shows (``body``), the seat's turn ``prompt`` and its own
    ``messages`` apart from the rest (``frame``): when only they change, the
    renderer repaints the changed part of the body (``repaint_body``), the
    panel's edge and heading (``repaint_turn``) and its message line
    (``repaint_message_line``) alone.
    """

    frame: tuple[object, ...]
    body: object
    prompt: Words | None
    messages: tuple[Message, ...]


@dataclass(frozen=True)
class PaintedPanel:
    """What drawing a panel leaves for the renderer: its hit boxes (canvas coordinates),
    where its message line is (upright, None without one) on what fill, where its
    heading is (upright), and whether its body shows the turn too (the on-screen hand
    is lit on the seat's turn), so that a change of turn must repaint it whole.

    For the repaints of a part: ``message_room``, the room the message line was
    taken from (upright; None when no line could be), and ``game_body``, where the
    game scene drew the seat's body (upright; None when something else filled it: a
    help page, a look back, another screen's body)."""

    hits: list[tuple[pygame.Rect, UiAction]]
    message_line: pygame.Rect | None
    fill: theme.Colour
    heading: pygame.Rect
    turn_in_body: bool
    message_room: pygame.Rect | None = None
    game_body: pygame.Rect | None = None


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
    elif screen is Screen.OPTIONS:
        # The panel shows the line under the cursor: it follows the cursor and the values.
        body = (view.options, view.options_cursor)
    elif screen is Screen.STARTER:
        body = view.prompt
    frame = (
        slot,
        screen,
        seat,
        seat_reader(view, seat),
        tuple(b for b in view.buttons if b.seat == seat.seat),
        hand_of(view, seat),
        view.staff_overlay if view.staff_overlay and view.staff_overlay.seat == seat.seat else None,
        # A look back (a long NEXT) reads the game's latest moments, which the body's
        # key need not cover: it is drawn again whenever the game changes.
        view.game if seat.seat in view.recall else None,
    )
    return PanelKey(
        frame,
        body,
        seat_prompt(view, seat),
        tuple(msg for msg in view.messages if msg.seat == seat.seat),
    )


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
    *,
    motion: Motion = STILL,
    mount: Turn = STRAIGHT,
) -> PaintedPanel:
    """One seat's panel drawn onto ``canvas`` at ``slot.rect``, turned to face its seat,
    its figures counting on ``motion`` (a still picture without it). ``mount`` turns the
    table's picture onto ``canvas`` as the screen is mounted (``panel_painter``).

    The panel is drawn upright through a painter whose turn places it: every
    rectangle and point is turned and every picture blitted already turned, so
    no upright copy of the panel is turned pixel by pixel (on a Pi core that
    was the largest cost of a tap). Drawing is clipped to the slot.
    """
    words = Presenter.for_view(view, seat.seat)
    p = panel_painter(canvas, fonts, metrics, slot, words, motion, mount)
    before = canvas.get_clip()
    canvas.set_clip(placed_slot(p, slot))
    try:
        painted = _draw_upright(p, view, seat)
    finally:
        canvas.set_clip(before)
    return painted


def repaint_message_line(
    p: Painter, slot: SeatSlot, view: TableView, seat: SeatView, painted: PaintedPanel
) -> list[pygame.Rect] | None:
    """Only the message line of a panel ``painted`` before, for the seat's newest message,
    through the panel's painter ``p`` (``panel_painter``); the rectangles it touched where
    they land, or None when the whole panel must be drawn again.

    For a change of the seat's messages (its frame the same): when the line keeps its
    place, the rest of the panel (three quarters of its pixels) is left as it is; when
    there was no line and there is none now (no room, or a message that would be cut),
    nothing shows the change. Not when a line comes or goes: the body takes or gives
    back its room.
    """
    own = _own_messages(view, seat)
    room = painted.message_room
    line = None if room is None else message_line_in(p, room, own)
    if line != painted.message_line:
        return None
    if line is None:
        return []
    with p.clip(line):
        p.fill(painted.fill, line)
        draw_messages(p, line, view, own[-1:], prefix=False)
    return [p.turn.rect(line).clip(placed_slot(p, slot))]


# A game scene's optional ``repaint_seat(p, rect, view, player, before, after, fill)``:
# only what changed in ``player``'s body between the scene's ``seat_key`` values
# ``before`` and ``after``, drawn again in the body's upright ``rect`` as ``draw_seat``
# draws it there for ``after``. It fills each part it repaints with ``fill`` first (the
# panel's, under the body) and returns those parts (upright), or None when the change
# is not one it repaints alone (the panel is then drawn whole). It adds no hit boxes:
# the panel keeps those it had.
BodyRepainter = Callable[
    [Painter, pygame.Rect, TableView, int, object, object, theme.Colour],
    list[pygame.Rect] | None,
]


def repaint_body(
    p: Painter,
    slot: SeatSlot,
    view: TableView,
    seat: SeatView,
    painted: PaintedPanel,
    before: object,
    after: object,
) -> list[pygame.Rect] | None:
    """Only the part of a panel ``painted`` before that changed in its game body, whose
    ``PanelKey.body`` went from ``before`` to ``after`` (its frame the same), through the
    panel's painter ``p`` (``panel_painter``): the rectangles it touched where they land,
    or None when the whole panel must be drawn again.

    The game scene says which part changed and draws it again (``BodyRepainter``); a
    scene without ``repaint_seat``, or a body its scene did not draw (a help page, a
    look back), is drawn whole.
    """
    rect = painted.game_body
    if rect is None or seat.player is None or not _scene_draws_body(view, seat):
        return None
    repaint: BodyRepainter | None = getattr(scene_for(view.game_id), "repaint_seat", None)
    if repaint is None:
        return None
    # The body's key is (game id, the scene's seat_key): one game's keys to compare.
    if not (isinstance(before, tuple) and isinstance(after, tuple)) or before[0] != after[0]:
        return None
    with p.clip(rect):
        parts = repaint(p, rect, view, seat.player, before[1], after[1], painted.fill)
    if parts is None:
        return None
    slot_rect = placed_slot(p, slot)
    return [p.turn.rect(part.clip(rect)).clip(slot_rect) for part in parts]


def repaint_turn(
    p: Painter, slot: SeatSlot, view: TableView, seat: SeatView, painted: PaintedPanel
) -> list[pygame.Rect] | None:
    """Only the edge and the heading of a panel ``painted`` before, for a change of the
    seat's turn prompt alone, through the panel's painter ``p`` (``panel_painter``); the
    rectangles it touched where they land, or None when the whole panel must be drawn again.

    The turn shows in the frame's edge and the heading only, and the body does not
    move with it (``panel_parts.panel_look``): when the turn passes from seat to seat,
    the next seat's panel keeps its body. Not when the heading changes its height
    (a prompt too long for the header line gets a bar of its own) or the body shows
    the turn too (a lit on-screen hand).
    """
    if painted.turn_in_body:
        return None
    look, prompt = _look_of(p, view, seat)
    if look.heading != painted.heading:
        return None
    redraw_edge(p, look)
    area = look.heading_area
    p.fill(look.fill, area)
    draw_heading(p, look, view, seat, prompt)
    slot_rect = placed_slot(p, slot)
    return [p.turn.rect(rect).clip(slot_rect) for rect in (*look.edge_strips(), area)]


def _look_of(p: Painter, view: TableView, seat: SeatView) -> tuple[PanelLook, str | None]:
    """The panel's look and its turn prompt in the seat's words (None off turn): one
    place for both the whole paint and ``repaint_turn``, whose heading must match."""
    said = seat_prompt(view, seat)
    prompt = None if said is None else p.words(said)
    return panel_look(p, view, seat, prompt), prompt


def panel_painter(
    canvas: pygame.Surface,
    fonts: theme.Fonts,
    metrics: theme.Metrics,
    slot: SeatSlot,
    words: Presenter,
    motion: Motion = STILL,
    mount: Turn = STRAIGHT,
) -> Painter:
    """A painter that draws a seat's panel upright, turned onto its ``slot``, in ``words``.

    ``mount`` is how the table's picture lands on ``canvas`` (the screen's mounting
    turn): folded into the panel's own turn, so a turned screen is drawn turned
    directly rather than drawn upright and turned whole afterwards.
    """
    turn = Turn(slot.rotation, slot.local_size, slot.rect.topleft).then(mount)
    return Painter(canvas, fonts, metrics, words=words, turn=turn, motion=motion)


def placed_slot(p: Painter, slot: SeatSlot) -> pygame.Rect:
    """Where ``slot`` lands on the surface of its panel's painter ``p`` (``panel_painter``)."""
    return p.turn.rect(pygame.Rect((0, 0), slot.local_size))


def _own_messages(view: TableView, seat: SeatView) -> list[Message]:
    return [msg for msg in view.messages if msg.seat == seat.seat]


def _draw_upright(p: Painter, view: TableView, seat: SeatView) -> PaintedPanel:
    """One seat's panel drawn upright over all of ``p``'s area (hit boxes go to ``p``).

    Upright, from the top (the centre side) down to the seat's edge: the header
    (label, badges, the turn prompt), the body (the screen's or game's part),
    the latest message for this seat, and the simulator's hand; the seat's
    buttons stand in a column on the right.
    """
    look, prompt = _look_of(p, view, seat)
    draw_frame(p, look)
    # Nothing inside the box draws on its edge, so a change of turn can repaint the
    # edge alone (``repaint_turn``).
    with p.clip(look.interior):
        return _draw_inside(p, look, view, seat, prompt)


def _draw_inside(
    p: Painter, look: PanelLook, view: TableView, seat: SeatView, prompt: str | None
) -> PaintedPanel:
    """Everything inside the panel's box (``_draw_upright``): heading, body, controls."""
    m = p.metrics
    pad = m.pad
    draw_heading(p, look, view, seat, prompt)
    inner = look.inner
    below = pygame.Rect(inner.left, look.body_top, inner.w, inner.bottom - look.body_top)

    buttons = [b for b in view.buttons if b.seat == seat.seat]
    if buttons:
        # At most 0.4 of the panel: its body keeps the rest.
        column_w = button_column_width(p, buttons, below.h, round(below.w * 0.4))
        grid = button_grid(p, buttons, below, column_w)
        if grid is not None:  # a narrow panel: the buttons in rows at its foot
            draw_button_grid(p, grid, seat, buttons)
            below.h -= grid.area.h + pad
        else:
            column = pygame.Rect(below.right - column_w, below.top, column_w, below.h)
            draw_buttons(p, column, seat, buttons)
            below.w -= column_w + pad

    overlay = view.staff_overlay
    if overlay is not None and overlay.seat == seat.seat and below.h > 4:
        # Staff mode takes the body and the hand's place: nothing of the game shows
        # under it, and its question has the room to say what it would do.
        draw_staff_overlay(p, below, overlay)
        return PaintedPanel(p.hits, None, look.fill, look.heading, False)

    hand = hand_of(view, seat)
    if hand == ():
        hand = None  # an empty hand leaves its strip to the body (the body counts the cards)
    if hand is not None:
        strip = pygame.Rect(below.left, below.bottom - m.hand_card, below.w, m.hand_card)
        draw_hand(p, strip, seat, hand, prompt is not None)
        below.h -= strip.h + pad

    own = _own_messages(view, seat)
    # The seat's latest message, unless it would squeeze the body (it is in the centre too).
    room = below.copy()
    line = message_line_in(p, room, own)
    if line is not None:
        # Clipped as its repaint is (``repaint_message_line``): a message bar taller
        # than the line would leave pixels that repaint never clears.
        with p.clip(line):
            draw_messages(p, line, view, own[-1:], prefix=False)
        below.h -= line.h + pad

    game_body: pygame.Rect | None = None
    if below.h > 4:
        # Clip, so a body that does not fit is cut rather than drawn over its neighbours.
        with p.clip(below):
            page = view.help.get(seat.seat)
            recall = _recall_drawer(view, seat)
            if page is not None:
                help_body(p, below, page, view.results_page)
            elif recall is not None and seat.player is not None:
                recall(p, below, view, seat.player)
            elif not (view.screen in CENTRE_SAYS_IT and below.w < narrowest_body(p)):
                BODIES[view.screen](p, below, view, seat)
                if _scene_draws_body(view, seat):
                    game_body = below
    return PaintedPanel(p.hits, line, look.fill, look.heading, hand is not None, room, game_body)


def message_line_in(p: Painter, room: pygame.Rect, own: Sequence[Message]) -> pygame.Rect | None:
    """Where the seat's newest of ``own`` messages goes at the foot of the upright
    ``room`` left under the body, or None: no message, one that would be cut (one cut
    with "…" is no message; the centre says it too), or a body it would squeeze."""
    if not own:
        return None
    m = p.metrics
    # A line of small text and a little more: a message with a suit symbol is drawn in
    # the CJK font, whose lines are taller, and must not lose its letters' feet.
    line_h = m.line + m.pad // 2
    if p.measure(p.words(own[-1].text), m.small) > room.w - 3 * max(3, m.pad):
        return None
    if room.h - line_h - m.pad < m.unit * 0.12:
        return None
    return pygame.Rect(room.left, room.bottom - line_h, room.w, line_h)


def _scene_draws_body(view: TableView, seat: SeatView) -> bool:
    """Whether the PLAY screen's body of ``seat`` is its game scene's ``draw_seat``."""
    return view.screen is Screen.PLAY and seat.player is not None and view.game is not None


# The screens whose seat panels repeat what the centre says (how to join, the option
# line chosen): a panel too narrow for a word of it shows its buttons alone rather than
# the words cut to a few letters ("Drü…", "star…" on a 7-seat table turned a quarter).
CENTRE_SAYS_IT = frozenset({Screen.JOIN, Screen.OPTIONS})


def _recall_drawer(
    view: TableView, seat: SeatView
) -> Callable[[Painter, pygame.Rect, TableView, int], None] | None:
    """The scene's ``draw_recall`` while ``seat`` looks back at the last trick (a long
    NEXT), or None: not looking, not playing, or a scene with nothing to bring back."""
    if seat.seat not in view.recall or view.screen is not Screen.PLAY or view.game is None:
        return None
    drawer: Callable[[Painter, pygame.Rect, TableView, int], None] | None = getattr(
        scene_for(view.game_id), "draw_recall", None
    )
    return drawer


# --- panel bodies, by screen -------------------------------------------------------


def _play_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.player is None or view.game is None:
        centred_lines(p, rect, [(NOT_PLAYING, theme.TEXT_DIM, p.metrics.small, False)])
        return
    scene_for(view.game_id).draw_seat(p, rect, view, seat.player)


BodyDrawer = Callable[[Painter, pygame.Rect, TableView, SeatView], None]
BODIES: dict[Screen, BodyDrawer] = {
    Screen.STAFF: staff_body,
    Screen.ATTRACT: attract_body,
    Screen.CHOOSE_GAME: choose_body,
    Screen.JOIN: join_body,
    Screen.STARTER: starter_body,
    Screen.OPTIONS: options_body,
    Screen.PLAY: _play_body,
    Screen.RESULTS: results_body,
}


# --- centres, by screen --------------------------------------------------------------


def _play_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    if view.game is None:
        p.text(
            game_title(view),
            rect.center,
            p.metrics.big,
            theme.TEXT,
            bold=True,
            anchor="center",
            max_width=rect.w,
        )
        return
    scene_for(view.game_id).draw_centre(p, rect, view, towards(layout, view))


CentreDrawer = Callable[[Painter, pygame.Rect, Layout, TableView], None]
CENTRES: dict[Screen, CentreDrawer] = {
    Screen.ATTRACT: attract_centre,
    Screen.CHOOSE_GAME: choose_centre,
    Screen.JOIN: join_centre,
    Screen.STARTER: starter_centre,
    Screen.OPTIONS: options_centre,
    Screen.PLAY: _play_centre,
    Screen.RESULTS: results_centre,
    Screen.STAFF: staff_centre,
}
