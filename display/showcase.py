"""The idle table's showcase: every game with its picture and players, and how to play it.

The attract screen's centre shows what the table offers, from the registered
games (``view.games``, built from each ``GameSpec``): a tile per game with a
few of its own cards, its name and how many play it. One game at a time is
picked out and its rulebook's first lines (``GameSpec.rules``, the rules page a
seat opens with a long OK) are shown one by one, a card of its tile lifting
with each line, so a passer-by learns the game in a few steps.

The steps follow ``view.results_page``, which the table turns every
``ATTRACT_PAGE_SECONDS`` on the attract screen (``controller/table/pages.py``):
the centre is drawn again only then, so the idle table stays nearly free.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from controller.games import spec_of
from controller.games.cards import CardFace
from controller.games.spec import GameSpec
from controller.games.words import Verbatim, Words, as_arg, say, say_plural
from controller.view import GameChoice, TableView
from display import theme
from display.screen_parts import messages_below
from display.theme import Painter

STEPS = 3  # rules lines shown per game before the next game's turn
TAP_TO_START = say("Tap any card or press a button to start")
CARD_SHAPE = 0.68  # a card's width over its height
MIN_CARD_LINES = 1.5  # a tile's cards are drawn only this many text lines tall or more
FANNED = 3  # cards on a game's tile
# How many times the lines a narrow centre gives the words over and under the tiles.
NARROW_LINES = 2
OVERLAP = 0.72  # of a card's width, how far the next fanned card sits (its number shows)
# The legibility standard: what a player must read is at least a 24th of the screen's
# short side (``Metrics.small`` is), secondary text at least a 32nd: ``small`` x 0.75.
SECONDARY = 0.75


@dataclass(frozen=True)
class Showcased:
    """Which game is picked out now, and which of its rules lines."""

    game: str  # game id
    step: int  # 0 .. STEPS-1
    line: Words  # the rules line shown


def offered(view: TableView) -> list[GameChoice]:
    """Each game of the menu once (its presets are one game), in the menu's order."""
    seen: dict[str, GameChoice] = {}
    for choice in view.games:
        seen.setdefault(choice.game_id, choice)
    return list(seen.values())


def showcased(view: TableView) -> Showcased | None:
    """The game and the rules line the showcase shows at ``view.results_page``."""
    games = [g for g in offered(view) if not g.unavailable and spec_of(g.game_id).rules]
    if not games:
        return None
    page = view.results_page
    game = games[(page // STEPS) % len(games)].game_id
    rules = spec_of(game).rules
    step = page % STEPS
    return Showcased(game, step, rules[step % len(rules)])


def players(choice: GameChoice) -> Words:
    """ "3-4 players" (or "2 players" for a game of one number)."""
    if choice.min_players == choice.max_players:
        return say_plural("{n} player", "{n} players", choice.min_players)
    return say("{least}-{most} players", least=choice.min_players, most=choice.max_players)


def fanned_cards(spec: GameSpec) -> tuple[str, ...]:
    """A few cards of the game's own deck, from across it (its colours or suits differ),
    each with a number the others do not show where the deck has one: Oss's deck, in
    tribe order, would otherwise show three 1s."""
    cards = spec.deck.distinct()
    chosen: list[str] = []
    for i in range(FANNED):
        start = (len(cards) * (2 * i + 1)) // (2 * FANNED)
        shown = {spec.deck.face(card).rank for card in chosen}
        # From its place on, the first card of a number not shown yet (its own if none).
        fresh = (
            card
            for card in (*cards[start:], *cards[:start])
            if spec.deck.face(card).rank not in shown and card not in chosen
        )
        chosen.append(next(fresh, cards[start]))
    return tuple(chosen)


@functools.cache
def _faces(game_id: str) -> tuple[CardFace, ...]:
    """The faces of ``fanned_cards``, worked out once: the showcase draws them for hours."""
    spec = spec_of(game_id)
    return tuple(spec.deck.face(card) for card in fanned_cards(spec))


def draw_showcase(p: Painter, rect: pygame.Rect, view: TableView) -> None:
    """The attract screen's centre: how to start, the games' tiles, how to play one of them."""
    m = p.metrics
    # A narrow centre (a portrait canvas) stacks what a wide one sets side by side: the
    # tiles one under another, and the words on more lines rather than cut.
    narrow = m.narrow(rect.w)
    lines = NARROW_LINES if narrow else 1
    # How to start must be read: it may shrink from ``body`` to ``small``, no further.
    start = p.fit(
        TAP_TO_START,
        rect.w,
        lines * m.leading(m.body),
        m.body,
        max_lines=lines,
        least=m.small / m.body,
    )
    head = pygame.Rect(rect.left, rect.top + m.pad, rect.w, len(start.lines) * m.leading(m.body))
    top = p.fit_text(TAP_TO_START, head, m.body, theme.TURN, fitted=start).bottom
    games = offered(view)
    now = showcased(view)
    # The rules line gets two lines of ``small`` under the tiles (three, shrunk to the
    # secondary size, when it needs them; more on a narrow centre); the tiles take the rest.
    rules_lines = 4 * lines if narrow else 3
    rules_h = rules_lines * m.leading(round(m.small * SECONDARY)) + m.pad
    bottom = rect.bottom - rules_h - m.pad
    if games:
        tiles = pygame.Rect(rect.left, top + m.pad, rect.w, bottom - top - m.pad)
        width = tiles.w // len(games)
        height = tiles.h // len(games)
        for i, choice in enumerate(games):
            if narrow:
                tile = pygame.Rect(tiles.left, tiles.top + i * height, tiles.w, height)
                tile = tile.inflate(-2 * m.pad, -m.pad)
            else:
                tile = pygame.Rect(tiles.left + i * width, tiles.top, width, tiles.h)
                tile = tile.inflate(-m.pad, 0)
            chosen = now is not None and now.game == choice.game_id
            _draw_tile(p, tile, choice, now.step if chosen and now else None)
    if view.messages:
        # A line for the table (a reader back online) takes the rules line's place.
        messages_below(p, rect, bottom + m.pad, view)
    elif now is not None:
        line = pygame.Rect(rect.left + m.pad, bottom + m.pad, rect.w - 2 * m.pad, rules_h)
        how = say(
            "How to play {game} ({step}/{steps}): {rule}",
            game=Verbatim(spec_of(now.game).title),
            step=now.step + 1,
            steps=STEPS,
            rule=as_arg(now.line),
        )
        # Secondary text: it may shrink to a 32nd of the short side, no further.
        fitted = p.fit(how, line.w, line.h, m.small, max_lines=rules_lines, least=SECONDARY)
        p.fit_text(how, line, m.small, theme.TEXT, fitted=fitted)


def _mini_card(
    p: Painter, rect: pygame.Rect, face: CardFace, *, lifted: bool, pad: int, size: int
) -> None:
    """A small card of a game's deck with its real face: its colour, its number and its
    suit (Oh Pshaw's ♠ ♥ ♦ ♣ under the number, in red for hearts and diamonds); a
    picture, drawn once and kept.

    Not ``Painter.card``: a card face's own fonts and the suit symbols' font (Noto
    Sans CJK) would cost the idle table megabytes; this draws the number with the
    small bold face (``size``) the screen already has and the suit as shapes
    (``draw_suit``), and leaves out what does not fit (a long rank).
    """

    def draw() -> pygame.Surface:
        surface = pygame.Surface(rect.size, pygame.SRCALPHA)
        whole = surface.get_rect()
        fill, ink = theme.card_paint(face)
        radius = max(2, rect.w // 8)
        pygame.draw.rect(surface, fill, whole, border_radius=radius)
        edge = theme.TURN if lifted else theme.TEXT_DARK
        border = max(1, pad // 2)
        pygame.draw.rect(surface, edge, whole, width=border, border_radius=radius)
        number = p.render_text(face.rank, size, ink, bold=True)
        if number.get_width() > whole.w - pad:
            return surface
        suit = min(round(whole.w * 0.5), whole.h - number.get_height() - 2 * border)
        if face.symbol in SUITS and suit >= MIN_SUIT:
            # The number on top, the suit under it: side by side, "10♠" would not fit.
            gap = (whole.h - number.get_height() - suit) // 3
            top = number.get_rect(midtop=(whole.centerx, gap))
            surface.blit(number, top)
            spot = pygame.Rect(0, 0, suit, suit)
            spot.midtop = (whole.centerx, top.bottom + gap // 2)
            surface.blit(suit_picture(face.symbol, suit, ink), spot)
        else:
            surface.blit(number, number.get_rect(center=whole.center))
        return surface

    p.card_picture(("showcase card", rect.size, face, lifted), rect, draw)


# The suits as shapes, in a box 2 units across centred on (0, 0), y down: each a list
# of discs (x, y, radius) and polygons.
Disc = tuple[float, float, float]
Shape = tuple[tuple[Disc, ...], tuple[tuple[tuple[float, float], ...], ...]]
_STEM = ((0.0, 0.1), (0.32, 0.95), (-0.32, 0.95))
SUITS: dict[str, Shape] = {
    "♦": ((), (((0.0, -1.0), (0.72, 0.0), (0.0, 1.0), (-0.72, 0.0)),)),
    "♥": (
        ((-0.45, -0.35, 0.5), (0.45, -0.35, 0.5)),
        (((-0.93, -0.2), (0.93, -0.2), (0.0, 0.95)),),
    ),
    "♠": (
        ((-0.45, 0.1, 0.47), (0.45, 0.1, 0.47)),
        (((-0.9, 0.0), (0.9, 0.0), (0.0, -1.0)), _STEM),
    ),
    "♣": (((0.0, -0.5, 0.42), (-0.5, 0.12, 0.42), (0.5, 0.12, 0.42)), (_STEM,)),
}
MIN_SUIT = 8  # pixels: a suit smaller than this is left out rather than a blot
SMOOTHING = 4  # drawn this many times larger, then scaled down: smooth edges


@functools.cache
def suit_picture(symbol: str, size: int, ink: theme.Colour) -> pygame.Surface:
    """The suit ``symbol`` (one of ``SUITS``) ``size`` pixels square in ``ink``, drawn
    from shapes (no font), kept: a few small pictures for as long as the table runs."""
    big = size * SMOOTHING
    half = big / 2
    image = pygame.Surface((big, big), pygame.SRCALPHA)

    def at(x: float, y: float) -> tuple[float, float]:
        return half + x * half, half + y * half

    discs, polygons = SUITS[symbol]
    for x, y, radius in discs:
        pygame.draw.circle(image, ink, at(x, y), radius * half)
    for points in polygons:
        pygame.draw.polygon(image, ink, [at(x, y) for x, y in points])
    return pygame.transform.smoothscale(image, (size, size))


def _draw_tile(p: Painter, tile: pygame.Rect, choice: GameChoice, step: int | None) -> None:
    """One game's tile: its cards fanned (one lifted per step when it is picked out),
    its name and its players; a picked-out tile is framed in the turn colour."""
    m = p.metrics
    pad, small = m.pad, m.small  # worked out once: the tiles are drawn at every step
    small_line = m.leading(small)
    text_h = 2 * small_line + pad
    picture = pygame.Rect(tile.left, tile.top, tile.w, max(0, tile.h - text_h))
    if step is not None:
        p.rect(theme.TURN, tile, width=max(2, pad // 2), radius=pad)
    card_h = min(
        picture.h - 2 * pad,
        round((picture.w - 2 * pad) / (CARD_SHAPE * (1 + (FANNED - 1) * OVERLAP))),
    )
    if card_h < MIN_CARD_LINES * small_line:
        # Too short for a card whose number can be read (the demo's strip under the
        # centre takes that room): no slivers of cards, the name and players centred.
        card_h = 0
        picture.h = max(0, (tile.h - text_h) // 2)
    if card_h > 0:
        card_w = round(card_h * CARD_SHAPE)
        lift = round(card_h * 0.15)
        span = card_w + (FANNED - 1) * card_w * OVERLAP
        left = picture.centerx - span / 2
        for i, face in enumerate(_faces(choice.game_id)):
            up = lift if step is not None and i <= step else 0
            where = pygame.Rect(
                round(left + i * card_w * OVERLAP), picture.bottom - card_h - up, card_w, card_h
            )
            _mini_card(p, where, face, lifted=up > 0, pad=pad, size=small)
    colour = theme.TEXT_DIM if choice.unavailable else theme.TEXT
    name = pygame.Rect(tile.left, picture.bottom, tile.w, small_line)
    # The game's name must be read: it keeps the full size (a long name is cut short).
    # A proper name, the same in every language (as a sentence, so it is a word the
    # catalogs give like every other on the screen).
    game = say("{name}", name=Verbatim(spec_of(choice.game_id).title))
    title = p.fit(game, name.w, name.h, small, bold=True, max_lines=1, least=1.0)
    p.fit_text(game, name, small, colour, bold=True, fitted=title)
    count = pygame.Rect(tile.left, name.bottom, tile.w, small_line)
    fitted = p.fit(players(choice), count.w, count.h, small, max_lines=1, least=SECONDARY)
    p.fit_text(players(choice), count, small, theme.TEXT_DIM, fitted=fitted)
