"""The Oskar scene: each seat's two genre dice, tokens and points; the trick, genre columns, stock.

It draws only what the snapshot says, read by attribute from an
``OskarSnapshot`` (the engine's typed snapshot), and the dice each seat has
picked to reroll from the table's ``OskarOverlay``: which card wins, what is trendy,
how many points a genre still needs and who rerolls are the engine's
business. The genre symbols
are drawn with pygame primitives (no image files): western a hat, horror a
bat, comedy a mask, action a pistol, scifi a rocket, romance a heart.

Centre: the trick, laid toward the seats that played it; the stock as
face-down cards and who won it; one column per genre filling toward the
trend line at the snapshot's ``trend_threshold`` (the running totals while a
round is played, the scored totals with the stock once it is scored); trendy
genres in gold.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

import pygame

from controller.games.oskar.snapshot import (
    OskarOverlay,
    OskarSnapshot,
    Phase,
    RollView,
    SeatView,
    Verb,
)
from controller.games.oskar.spec import VOCABULARY
from controller.games.words import Items, Text, Words, as_arg, say, say_plural
from controller.view import AnyGameView, GameView, TableView
from display import theme
from display.generic import (
    NARROW_STATUS_LINES,
    TRICK_AREA,
    Toward,
    draw_last_trick,
    draw_messages,
    draw_status,
    draw_title_block,
    draw_trick_picture,
    draw_turn_glow,
    message_lines,
    player_name,
    split_centre,
    wrapped_if_cut,
)
from display.screen_parts import line_or_rows, line_or_rows_height
from display.theme import Colour, Painter

# The share of a narrow centre's height the trick takes (the information under it wraps).
NARROW_TRICK_SHARE = 0.34
# The least height, in lines of text, the genre columns keep under a caption of several
# lines; with less, the short caption and the trend line's points beside it.
NARROW_BARS_LINES = 2
MAX_CAPTION_LINES = 4
# The information column's height, as a share of the short side, under which the centre
# is small (no title; the columns without their caption), wide and narrow.
SMALL_SHARE = 0.5
NARROW_SMALL_SHARE = 0.6

# How each genre looks; which genres there are, in which order, comes from the snapshot.
GENRE_COLOURS: dict[str, Colour] = {
    "western": (176, 112, 52),
    "horror": (128, 72, 176),
    "comedy": (236, 192, 40),
    "action": (228, 88, 44),
    "scifi": (56, 184, 220),
    "romance": (232, 84, 140),
}
# The die faces in players' words ("love story" for the record's ``romance``).
GENRE_WORDS: Mapping[str, Words] = VOCABULARY.genre_words
GENRE_CAPTIONS: Mapping[str, Words] = VOCABULARY.genre_captions


def genre_word(genre: str) -> Words:
    """A die face as players read it; an unknown face as it is."""
    return GENRE_WORDS.get(genre, genre)


DIE_FACE: Colour = (246, 242, 232)
TOKEN: Colour = (255, 200, 40)


# --- the view's game --------------------------------------------------------------------


def game_of(game: AnyGameView | None) -> GameView[OskarSnapshot, OskarOverlay] | None:
    """The view's game with Oskar's own types, or None when there is none (or not Oskar's)."""
    if game is None or not isinstance(game.snapshot, OskarSnapshot):
        return None
    return game.narrowed(OskarSnapshot, OskarOverlay)


def read_snapshot(game: AnyGameView | None) -> OskarSnapshot | None:
    """The view's game as an ``OskarSnapshot``, or None when there is none (or not Oskar's)."""
    shown = game_of(game)
    return None if shown is None else shown.snapshot


def picked_dice(view: TableView, player: int) -> set[int]:
    """The dice engine seat ``player`` has picked to reroll (the table's overlay)."""
    shown = game_of(view.game)
    return set() if shown is None else set(shown.overlay.picked_by(player))


def trendy_genres(snap: OskarSnapshot) -> set[str]:
    return {column.genre for column in snap.columns if column.trendy}


# --- genre symbols -------------------------------------------------------------------


def _pts(
    cx: float, cy: float, s: float, points: Sequence[tuple[float, float]]
) -> list[tuple[int, int]]:
    return [(round(cx + x * s), round(cy + y * s)) for x, y in points]


def _hat(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    dark = theme.blend(ink, (0, 0, 0), 0.35)
    brim = pygame.Rect(0, 0, round(1.7 * s), round(0.42 * s))
    brim.center = (round(cx), round(cy + 0.28 * s))
    pygame.draw.ellipse(surface, ink, brim)
    crown = _pts(
        cx,
        cy,
        s,
        [
            (-0.5, 0.3),
            (-0.42, -0.45),
            (-0.15, -0.3),
            (0, -0.5),
            (0.15, -0.3),
            (0.42, -0.45),
            (0.5, 0.3),
        ],
    )
    pygame.draw.polygon(surface, ink, crown)
    band = pygame.Rect(0, 0, round(1.0 * s), max(2, round(0.12 * s)))
    band.center = (round(cx), round(cy + 0.14 * s))
    pygame.draw.rect(surface, dark, band)


def _bat(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    wing = [
        (0, -0.15),
        (0.35, -0.4),
        (0.85, -0.35),
        (0.75, -0.1),
        (0.6, 0.05),
        (0.45, -0.02),
        (0.32, 0.15),
        (0.18, 0.05),
        (0, 0.3),
    ]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, wing))
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, [(-x, y) for x, y in wing]))
    body = pygame.Rect(0, 0, round(0.36 * s), round(0.6 * s))
    body.center = (round(cx), round(cy))
    pygame.draw.ellipse(surface, ink, body)
    for side in (-1, 1):
        ear = [(0.05 * side, -0.25), (0.16 * side, -0.45), (0.18 * side, -0.2)]
        pygame.draw.polygon(surface, ink, _pts(cx, cy, s, ear))
    eye = max(1, round(0.05 * s))
    for side in (-1, 1):
        pygame.draw.circle(surface, (255, 230, 90), _pts(cx, cy, s, [(0.07 * side, -0.12)])[0], eye)


def _mask(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    dark = theme.blend(ink, (0, 0, 0), 0.6)
    face = pygame.Rect(0, 0, round(1.2 * s), round(1.3 * s))
    face.center = (round(cx), round(cy))
    pygame.draw.ellipse(surface, ink, face)
    for side in (-1, 1):
        eye = pygame.Rect(0, 0, round(0.3 * s), round(0.2 * s))
        eye.center = (round(cx + 0.24 * s * side), round(cy - 0.2 * s))
        pygame.draw.ellipse(surface, dark, eye)
    mouth = pygame.Rect(0, 0, round(0.7 * s), round(0.55 * s))
    mouth.center = (round(cx), round(cy + 0.1 * s))
    pygame.draw.arc(surface, dark, mouth, math.pi * 1.1, math.pi * 1.9, max(2, round(0.09 * s)))


def _pistol(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    dark = theme.blend(ink, (0, 0, 0), 0.45)
    barrel = [(-0.75, -0.35), (0.75, -0.35), (0.75, -0.08), (-0.75, -0.08)]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, barrel))
    grip = [(-0.7, -0.1), (-0.25, -0.1), (-0.35, 0.6), (-0.78, 0.6)]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, grip))
    guard = pygame.Rect(0, 0, round(0.4 * s), round(0.36 * s))
    guard.center = (round(cx - 0.08 * s), round(cy + 0.02 * s))
    pygame.draw.ellipse(surface, ink, guard, max(1, round(0.08 * s)))
    sight = [(0.6, -0.35), (0.7, -0.48), (0.75, -0.35)]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, sight))
    start, end = _pts(cx, cy, s, [(-0.6, -0.22), (0.65, -0.22)])
    pygame.draw.line(surface, dark, start, end, max(1, round(0.05 * s)))


def _rocket(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    flame = (255, 150, 40)
    pygame.draw.polygon(surface, flame, _pts(cx, cy, s, [(-0.16, 0.45), (0, 0.85), (0.16, 0.45)]))
    body = [(0, -0.8), (0.25, -0.45), (0.25, 0.45), (-0.25, 0.45), (-0.25, -0.45)]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, body))
    for side in (-1, 1):
        fin = [(0.25 * side, 0.05), (0.5 * side, 0.55), (0.25 * side, 0.45)]
        pygame.draw.polygon(surface, theme.blend(ink, (0, 0, 0), 0.35), _pts(cx, cy, s, fin))
    pygame.draw.circle(surface, DIE_FACE, _pts(cx, cy, s, [(0, -0.2)])[0], max(2, round(0.13 * s)))


def _heart(surface: pygame.Surface, cx: float, cy: float, s: float, ink: Colour) -> None:
    r = round(0.34 * s)
    for side in (-1, 1):
        pygame.draw.circle(surface, ink, _pts(cx, cy, s, [(0.3 * side, -0.2)])[0], r)
    tip = [(-0.62, -0.08), (0.62, -0.08), (0, 0.68)]
    pygame.draw.polygon(surface, ink, _pts(cx, cy, s, tip))


SYMBOLS: dict[str, Callable[[pygame.Surface, float, float, float, Colour], None]] = {
    "western": _hat,
    "horror": _bat,
    "comedy": _mask,
    "action": _pistol,
    "scifi": _rocket,
    "romance": _heart,
}


def draw_symbol(surface: pygame.Surface, genre: str, centre: tuple[int, int], size: int) -> None:
    """The genre's symbol, about ``size`` pixels across, centred at ``centre``."""
    painter = SYMBOLS.get(genre)
    if painter is None:
        return
    painter(surface, centre[0], centre[1], size / 2, GENRE_COLOURS.get(genre, theme.TEXT))


def paint_symbol(p: Painter, genre: str, centre: tuple[int, int], size: int) -> None:
    """``draw_symbol`` through the painter: drawn once, kept, and turned as ``p`` is."""
    # The shapes reach a little past ``size``: the picture leaves them room.
    area = pygame.Rect(0, 0, size * 2, size * 2)
    area.center = centre
    p.picture(
        ("oskar-symbol", genre, size),
        area,
        lambda image, where: draw_symbol(image, genre, where.center, size),
    )


def draw_die(
    p: Painter,
    rect: pygame.Rect,
    genre: str | None,
    *,
    highlight: Colour | None = None,
) -> None:
    """A die showing ``genre`` (None: not rolled yet), outlined in ``highlight`` if given."""

    def face(image: pygame.Surface, die: pygame.Rect) -> None:
        radius = max(3, die.w // 6)
        fill = DIE_FACE if genre else theme.blend(DIE_FACE, theme.PANEL, 0.7)
        pygame.draw.rect(image, fill, die, 0, radius)
        edge = highlight or theme.blend(DIE_FACE, (0, 0, 0), 0.4)
        pygame.draw.rect(image, edge, die, max(2, die.w // (10 if highlight else 24)), radius)
        if genre:
            draw_symbol(image, genre, die.center, round(die.w * 0.72))

    p.picture(("oskar-die", genre, highlight), rect, face)
    if not genre:
        p.text("?", rect.center, round(rect.h * 0.6), theme.TEXT_DIM, bold=True, anchor="center")


def draw_reroll_mark(p: Painter, die: pygame.Rect) -> None:
    """A die picked to reroll: a blue frame and a circular arrow in its corner."""
    r = max(5, die.w // 5)
    margin = r + 6  # the frame and the arrow reach past the die

    def mark(image: pygame.Surface, where: pygame.Rect) -> None:
        inner = where.inflate(-2 * margin, -2 * margin)
        pygame.draw.rect(image, theme.ACCENT, inner.inflate(6, 6), 3, max(3, inner.w // 6))
        centre = (inner.right - r // 2, inner.top + r // 2)
        pygame.draw.circle(image, theme.ACCENT, centre, r)
        arc = pygame.Rect(0, 0, r * 5 // 4, r * 5 // 4)
        arc.center = centre
        width = max(2, r // 4)
        pygame.draw.arc(image, theme.TEXT_DARK, arc, 0.6, 5.6, width)
        # The arrowhead at the arc's open end.
        tip = (arc.right, centre[1] - r // 8)
        pygame.draw.polygon(
            image,
            theme.TEXT_DARK,
            [
                (tip[0] - r // 3, tip[1] - r // 6),
                (tip[0] + r // 3, tip[1] - r // 6),
                (tip[0], tip[1] + r // 3),
            ],
        )

    p.picture(("oskar-reroll",), die.inflate(2 * margin, 2 * margin), mark)


# --- the scene -----------------------------------------------------------------------


class _DiceLayout(NamedTuple):
    """A seat's dice laid out in its body (``OskarScene._dice_layout``): the dice's size,
    their top, their captions' line (0 without), how wide apart a caption sets them, the
    captions, the dice picked to reroll, and the figures' rectangle."""

    die: int
    top: int
    label_h: int
    widest: int
    captions: tuple[Words, ...]
    picked: Collection[int]
    stats: pygame.Rect


class OskarScene:
    """Draws an Oskar snapshot; see the module docstring."""

    def seat_key(self, game: AnyGameView, player: int) -> object:
        """What ``draw_seat`` shows of ``player``: their entry, their picked dice, the
        trendy genres, the goal, and the phase with its rerolls (the seat's note)."""
        shown = game_of(game)
        if shown is None:
            return None
        snap = shown.snapshot
        return (
            snap.seat(player),
            frozenset(trendy_genres(snap)),
            shown.overlay.picked_by(player),
            snap.tokens_to_win,
            snap.phase,
            snap.rerolls,
        )

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        snap = read_snapshot(game)
        if snap is None:
            return None
        phase = snap.phase
        if snap.doubles is not None and phase is not Phase.OVER:
            # One "your turn" at a time: the doubles' seat decides first; the centre
            # says who goes after it ("Seat 4 decides the doubles, then Seat 1 rerolls").
            return say("doubles: reroll one die?") if snap.doubles == player else None
        nxt = snap.next
        if nxt is None or nxt.seat != player:
            seat = snap.seat(player)
            if phase is Phase.DICE and seat is not None and seat.dice is None:
                return PROMPTS[Verb.DICE]
            return None
        return PROMPTS.get(nxt.expects, say("your turn"))

    # --- a seat's area -------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        snap = read_snapshot(view.game)
        entry = None if snap is None else snap.seat(player)
        if snap is None or entry is None:
            return
        m = p.metrics
        pad = m.pad
        dice = self._dice_layout(p, rect, view, player, entry)
        faces, picked, die = entry.dice, dice.picked, dice.die
        trendy = trendy_genres(snap)
        x = rect.left + pad
        boxes = []
        for index in range(2):
            genre = faces[index] if faces else None
            box = pygame.Rect(x + max(0, dice.widest - die) // 2, dice.top, die, die)
            boxes.append(box)
            hot = genre is not None and genre in trendy
            draw_die(p, box, genre, highlight=theme.WINNER if hot else None)
            # A caption too wide for its die's room is left out, not cut ("アクシ…"): the
            # die's symbol says its genre, the blue mark that it is picked to reroll.
            room = max(die, dice.widest) + pad
            caption = dice.captions[index] if genre else ""
            if genre and dice.label_h and p.measure(p.words(caption), m.small, True) <= room:
                p.text(
                    caption,
                    (box.centerx, box.bottom + 1),
                    m.small,
                    theme.ACCENT if index in picked else theme.WINNER if hot else theme.TEXT_DIM,
                    bold=index in picked,
                    anchor="midtop",
                    max_width=room,
                )
            x += max(die, dice.widest) + pad * 2
        for index in sorted(picked):
            draw_reroll_mark(p, boxes[index])
        self._draw_stats(p, dice.stats, snap, entry, player)

    def repaint_seat(
        self,
        p: Painter,
        rect: pygame.Rect,
        view: TableView,
        player: int,
        before: object,
        after: object,
        fill: Colour,
    ) -> list[pygame.Rect] | None:
        """Only the seat's figures beside its dice, when a play changed its hand's count
        alone (``scenes.BodyRepainter``); any other change draws the body whole."""
        if not (isinstance(before, tuple) and isinstance(after, tuple)) or not after:
            return None
        old, new = before[0], after[0]
        if not (isinstance(old, SeatView) and isinstance(new, SeatView)):
            return None
        if before[1:] != after[1:] or replace(old, cards_left=new.cards_left) != new:
            return None
        snap = read_snapshot(view.game)
        if snap is None:
            return None
        stats = self._dice_layout(p, rect, view, player, new).stats
        p.fill(fill, stats)
        self._draw_stats(p, stats, snap, new, player)
        return [stats]

    def _dice_layout(
        self,
        p: Painter,
        rect: pygame.Rect,
        view: TableView,
        player: int,
        entry: SeatView,
    ) -> _DiceLayout:
        """Where a seat's two dice go in its body ``rect``, and its figures beside them."""
        m = p.metrics
        pad = m.pad
        faces = entry.dice
        label_h = m.leading(m.small)
        if rect.h - label_h < m.unit * 0.09:
            label_h = 0  # a short panel: the symbols alone, as large as they fit
        die = max(16, min(round(rect.h - label_h - pad), round(rect.w * 0.2), round(m.unit * 0.16)))
        picked = picked_dice(view, player)
        top = rect.top + max(0, (rect.h - die - label_h) // 4)
        captions = tuple(
            say("REROLL") if index in picked else GENRE_CAPTIONS.get(genre, genre)
            for index, genre in enumerate(faces[:2] if faces else ())
        )
        # Each die as wide apart as its caption needs ("Komödie", "アクション"): a
        # caption is read whole, not cut with "…".
        widest = max((p.measure(p.words(c), m.small, True) for c in captions if label_h), default=0)
        widest = min(widest, max(die, round(rect.w * 0.22)))  # the seat's counts keep the rest
        x = rect.left + pad + 2 * (max(die, widest) + pad * 2)
        stats = pygame.Rect(x + pad, rect.top, rect.right - x - pad, rect.h)
        return _DiceLayout(die, top, label_h, widest, captions, picked, stats)

    def _draw_stats(
        self,
        p: Painter,
        rect: pygame.Rect,
        snap: OskarSnapshot,
        entry: SeatView,
        player: int,
    ) -> None:
        m = p.metrics
        if rect.w < 3 * m.small:
            return  # no room for a legible word beside the dice
        y = rect.top
        tokens = entry.tokens
        goal = snap.tokens_to_win
        # Tokens: a row of gold discs, filled up to the seat's count, toward the goal.
        discs = max(goal, tokens)  # a final round can pass the goal
        r = max(4, min(round(m.body * 0.3), rect.w // (discs * 3)))
        label = p.text(say("Tokens"), (rect.left, y), m.small, theme.TEXT_DIM, max_width=rect.w)
        cx = label.right + m.pad + r
        for index in range(discs):
            centre = (cx + index * (2 * r + max(2, r // 2)), label.centery)
            if centre[0] + r > rect.right:
                break
            if index < tokens:
                p.circle(TOKEN, centre, r)
                p.circle(theme.blend(TOKEN, (0, 0, 0), 0.4), centre, r, 1)
            else:
                p.circle(theme.PANEL_EDGE, centre, r, max(1, r // 4))
        y = label.bottom + m.pad // 2
        points = p.motion.figure(f"points of {player}", entry.points)
        summary = (
            say_plural(
                "{n} token · {points} points", "{n} tokens · {points} points", tokens, points=points
            ),
            [
                say_plural("{n} token", "{n} tokens", tokens),
                say_plural("{n} point", "{n} points", points),
            ],
        )
        detail = (
            say(
                "{tricks} · {cards}",
                tricks=say_plural("{n} trick", "{n} tricks", entry.tricks_won),
                cards=say_plural("{n} card left", "{n} cards left", entry.cards_left),
            ),
            [
                say_plural("{n} trick", "{n} tricks", entry.tricks_won),
                say_plural("{n} card left", "{n} cards left", entry.cards_left),
            ],
        )
        note, colour = self._seat_note(snap, entry, player)
        below = pygame.Rect(rect.left, y, rect.w, rect.bottom - y)
        y = line_or_rows(p, below, *summary, m.body, theme.TEXT, bold=True)
        # A narrow panel (a 6-seat table's) has not the height for every line in rows:
        # the seat's note (what it may reroll) before its counts, which the centre
        # says too; a line is left out whole, never cut.
        note_lines = p.wrap(note, m.small, rect.w, True) if note else []
        note_h = len(note_lines) * m.leading(m.small)
        detail_h = line_or_rows_height(p, rect.w, *detail, m.small)
        room = rect.bottom - y - 1
        if detail_h + note_h <= room:
            y = line_or_rows(
                p, pygame.Rect(rect.left, y + 1, rect.w, room), *detail, m.small, theme.TEXT_DIM
            )
        if note_lines and note_h <= rect.bottom - y - 1:
            for line in note_lines:
                y = p.text(line, (rect.left, y + 1), m.small, colour, bold=True).bottom

    def _seat_note(self, snap: OskarSnapshot, entry: SeatView, player: int) -> tuple[Words, Colour]:
        if entry.stock:
            return say("holds the stock"), theme.WINNER
        rerolls = snap.rerolls
        if snap.phase is Phase.REROLL and rerolls is not None:
            if player in rerolls.order[: rerolls.done]:
                return say("rerolled"), theme.TEXT_DIM
            if player in rerolls.most:
                return say("must reroll both"), theme.TURN
            if player in rerolls.fewest:
                return say("may reroll 0, 1 or 2"), theme.TURN
            return say("may reroll 0 or 1"), theme.TURN
        return "", theme.TEXT

    def draw_recall(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The last trick (its winner named, the winning card lit) and, under it, the last
        roll of the dice on a seat's panel (a long NEXT)."""
        snap = read_snapshot(view.game)
        if snap is None:
            return
        last = [(t.seat, t.card) for t in snap.last_trick]
        roll = snap.last_rolls[-1] if snap.last_rolls else None
        row_h = roll_height(p)
        m = p.metrics
        trick = pygame.Rect(rect)
        if roll is not None and rect.h >= m.leading(m.body) + 20 + row_h + 2 * m.pad:
            # The roll's row under the trick; the trick's cards take the rest.
            trick.h -= row_h + m.pad
            row = pygame.Rect(rect.left, rect.bottom - row_h, rect.w, row_h)
            draw_roll(p, row, view, roll, last=True)
        elif roll is not None:
            # A low panel (a side seat's): the roll beside the trick, as wide as it needs.
            words = p.words(say("Last roll: {roll}", roll=roll_words(view, roll)))
            wanted = 2 * row_h + 3 * m.pad + p.measure(words, m.small, True)
            row_w = min(rect.w // 2, wanted)
            trick.w -= row_w + m.pad
            top = min(rect.top + m.leading(m.body), rect.bottom - row_h)
            draw_roll(p, pygame.Rect(trick.right + m.pad, top, row_w, row_h), view, roll, last=True)
        draw_last_trick(p, trick, view, last, snap.last_trick_winner)

    # --- the centre ------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        snap = read_snapshot(view.game)
        if snap is None:
            return
        m = p.metrics
        pad = m.pad
        phase = snap.phase
        trick_area, info = split_centre(rect, pad)
        if trick_area.h == rect.h:
            # Side by side: the genre columns need more of the width than a trick does.
            trick_area.w = round(rect.w * 0.42)
            info.left = trick_area.right + pad
            info.w = rect.right - info.left
        elif m.narrow(rect.w):
            # One above the other on a narrow centre: its lines wrap to more lines, and the
            # genre columns need their height more than a trick of a few cards does.
            trick_area.h = round(rect.h * NARROW_TRICK_SHARE)
            info.top = trick_area.bottom + pad
            info.h = rect.bottom - info.top
        p.box(trick_area, TRICK_AREA, None)
        # Each roll of the dice stays a moment (``motion.RESULT_SECONDS``) on rows at the
        # trick area's foot, even when the next seat rolls at once: who rolled which
        # dice, doubles in gold. The trick gives them the room rather than lie under them.
        rolls = p.motion.results("oskar-roll", snap.last_rolls)
        row_h = roll_height(p)
        fit = max(0, (trick_area.h // 2) // (row_h + pad // 2))
        rolls = rolls[-fit:] if fit else []
        trick_rect = pygame.Rect(trick_area)
        trick_rect.h -= len(rolls) * (row_h + pad // 2)
        for index, roll in enumerate(rolls):
            top = trick_rect.bottom + index * (row_h + pad // 2)
            row = pygame.Rect(trick_area.left + pad, top, trick_area.w - 2 * pad, row_h)
            p.box(row, theme.PANEL, theme.PANEL_EDGE, 1)
            draw_roll(p, row.inflate(-pad, -pad // 2), view, roll)
        plays = [(t.seat, t.card) for t in snap.trick]
        last = [(t.seat, t.card) for t in snap.last_trick]
        # A completed trick stays, its winner named, until the next card and for at least
        # ``motion.HOLD_SECONDS`` (through the rerolls, and over a new round's first
        # card); then it slides to its winner.
        held = None if last else p.motion.held()
        picture = held if held is not None else p.motion.trick(plays, last, snap.last_trick_winner)
        draw_trick_picture(p, trick_rect, view, picture, toward)
        if phase is not Phase.OVER:
            draw_turn_glow(p, trick_rect, toward, snap.decides)
        playing = phase in (Phase.DICE, Phase.PLAY)
        title = snap.title
        status, colour = self._status(view, snap)
        # A small centre's heading gives the title's lines to the chart; a narrow one (a
        # 6-seat table turned a quarter) needs them sooner: its status and stock take
        # more lines, and its chart's caption would be cut under them.
        small = info.h < m.unit * (NARROW_SMALL_SHARE if m.narrow(info.w) else SMALL_SHARE)
        if not small:
            detail = round_detail(snap, playing, goal=True)
            y = info.top + draw_title_block(p, info, title, p.words(detail))
            y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), p.words(status), colour)
        else:
            y = self._small_heading(p, info, snap, playing, status, colour)
        # The stock and, while zeros are in the trick, what they do.
        row_h = max(16, round(m.unit * (0.055 if small else 0.07)))
        row = pygame.Rect(info.left, y, info.w, row_h)
        y = self._draw_stock(p, row, view, snap) + pad
        room = info.bottom - y - pad
        chart_h = room if small else min(room, round(info.h * 0.55))
        if chart_h >= m.unit * 0.1:
            chart = pygame.Rect(info.left, info.bottom - chart_h, info.w, chart_h)
            self._draw_columns(p, chart, snap, caption=not small)
        else:
            chart_h = 0
        top = y + pad
        messages_h = info.bottom - chart_h - top - pad
        if small:
            # A small centre's messages start at the pad under the stock, and the pad
            # ``draw_messages`` keeps under the last falls on the centre's margin: the
            # newest message gets the lines the room has.
            top = y
            messages_h = info.bottom - chart_h - top + pad
        if messages_h >= m.leading(m.small) and self._newest_shows_whole(
            p, view, info.w, messages_h
        ):
            draw_messages(p, pygame.Rect(info.left, top, info.w, messages_h), view)

    @staticmethod
    def _newest_shows_whole(p: Painter, view: TableView, width: int, height: int) -> bool:
        """Whether the newest message fits whole in a ``width`` x ``height`` box. Where it
        does not (a small centre: "Seat 1 plays a zero: first zero, colours lapse") the
        centre leaves the messages out rather than cut one: what it said stands elsewhere
        (the stock's row names the zeros, the roll's row the dice, the seat's buttons
        what they do, the seat's panel its own message where it has the room)."""
        if not view.messages:
            return True
        lines = message_lines(p, view, view.messages[-1], width)
        return len(lines) * p.metrics.leading(p.metrics.small) + p.metrics.pad <= height

    @staticmethod
    def _small_heading(
        p: Painter,
        info: pygame.Rect,
        snap: OskarSnapshot,
        playing: bool,
        status: Words,
        colour: Colour,
    ) -> int:
        """A small centre's round and status, each whole; returns the y under them.

        One line for both where they fit (the columns need the room; each seat shows
        its own latest message). Where they do not (a 6-seat table's centre), the round
        in as few words as fit on a line of its own ("Round 1") and the status under it
        on up to two lines (up to ``NARROW_STATUS_LINES`` on a narrow centre), whole.
        """
        m = p.metrics
        pad = m.pad
        detail = round_detail(snap, playing, goal=False)
        detail_w = p.measure(p.words(detail), m.small)
        status_w = p.measure(p.words(status), m.small, True)
        if detail_w + 2 * pad + status_w <= info.w:
            line = p.text(detail, info.topleft, m.small, theme.TEXT_DIM)
            p.text(status, (line.right + pad * 2, info.top), m.small, colour, bold=True)
            return line.bottom + pad
        if detail_w > info.w:
            detail = say("Round {round}", round=snap.round)
        line = p.text(detail, info.topleft, m.small, theme.TEXT_DIM, max_width=info.w)
        # A narrow centre (a screen turned a quarter) gives the status the lines it needs
        # ("Seat 4 decides the doubles, then Seat 1 rerolls"): the chart under it gives way.
        most = NARROW_STATUS_LINES if m.narrow(info.w) else 2
        leading = m.leading(m.small)
        fitted = p.fit(status, info.w, most * leading, m.small, bold=True, max_lines=most)
        lines = pygame.Rect(info.left, line.bottom, info.w, len(fitted.lines) * leading)
        drawn = p.fit_text(
            status, lines, m.small, colour, bold=True, align="left", valign="top", fitted=fitted
        )
        return drawn.bottom + pad

    def _draw_stock(
        self, p: Painter, row: pygame.Rect, view: TableView, snap: OskarSnapshot
    ) -> int:
        """The stock on one row: face-down cards and who won it; returns the bottom of what
        it drew (on a narrow centre, what the cards leave no room for goes under them)."""
        m = p.metrics
        pad = m.pad
        count = snap.stock.cards
        winner = snap.stock.won_by
        last = snap.last_round
        if snap.phase in (Phase.REROLL, Phase.OVER) and last is not None:
            winner = last.stock.won_by
        card_h = row.h
        card_w = round(card_h * 0.7)
        label = p.text(
            say("Stock"),
            (row.left, row.centery),
            m.small,
            theme.TEXT_DIM,
            bold=True,
            anchor="midleft",
        )
        x = label.right + pad
        for index in range(count):
            box = pygame.Rect(x + index * (card_w // 2), row.top, card_w, card_h)
            p.box(box, theme.CARD_BACK, theme.blend(theme.CARD_BACK, (255, 255, 255), 0.5), 2)
            inner = box.inflate(-card_w // 3, -card_h // 3)
            p.rect(theme.blend(theme.CARD_BACK, (0, 0, 0), 0.3), inner, 0, 2)
        x += max(0, count - 1) * (card_w // 2) + card_w + pad
        won = winner is not None
        zeros = snap.zeros_in_trick if snap.phase is Phase.PLAY else 0
        text: Words
        if zeros == 1:
            # While zeros lie in the trick, what they do matters most.
            text, colour = say("first zero: colours lapse"), theme.TURN
        elif zeros >= 2:
            text = (
                say("second zero takes the trick")
                if won
                else say("second zero takes the trick and the stock")
            )
            colour = theme.TURN
        elif winner is not None:
            text = say("won by {player}", player=as_arg(player_name(view, winner)))
            colour = theme.WINNER
        else:
            text, colour = say("the 2nd zero of a trick wins it"), theme.TEXT_DIM
            if p.measure(p.words(text), m.small) > row.right - x:
                return row.bottom  # a reminder of the rule, left out rather than cut with "…"
        bold = won or zeros > 0
        if m.narrow(row.w) and p.measure(p.words(text), m.small, bold) > row.right - x:
            below = pygame.Rect(row.left, row.bottom + pad // 2, row.w, 0)
            return wrapped_if_cut(
                p, text, below, below.top, m.small, colour, bold=bold, align="left"
            ).bottom
        p.text(
            text,
            (x, row.centery),
            m.small,
            colour,
            bold=bold,
            anchor="midleft",
            max_width=max(10, row.right - x),
        )
        return row.bottom

    @staticmethod
    def _caption_lines(p: Painter, rect: pygame.Rect, text: Words, columns: int) -> int:
        """The lines the columns' caption may take in ``rect`` on a narrow centre: as many
        as hold it whole while the columns keep ``NARROW_BARS_LINES`` of height, else one."""
        m = p.metrics
        if not m.narrow(rect.w):
            return 1
        leading = m.leading(m.small)
        fitted = p.fit(text, rect.w, MAX_CAPTION_LINES * leading, m.small, bold=True)
        lines = len(fitted.lines)
        tall = p.fonts.get(m.small, True).get_height()
        caption_h = (lines - 1) * leading + tall + 2 * m.pad
        icon = max(12, min(round(rect.w / columns * 0.55), round(rect.h * 0.2)))
        bars = rect.h - icon - m.pad - caption_h - leading
        return lines if not fitted.cut and bars >= NARROW_BARS_LINES * leading else 1

    def _draw_columns(
        self, p: Painter, rect: pygame.Rect, snap: OskarSnapshot, *, caption: bool = True
    ) -> None:
        """One column per genre filling toward the trend line; trendy columns in gold."""
        m = p.metrics
        pad = m.pad
        columns = snap.columns
        if not columns:
            return
        threshold = snap.trend_threshold
        top = rect.top
        axis = p.measure(str(threshold), m.small, True) + pad
        widest = max(p.measure(str(c.points), m.small, True) for c in columns)
        # A narrow centre whose columns are too narrow for their points beside the trend
        # line's: the line's points are left to the caption (which names them, wrapped
        # whole), and the columns get the whole width, where the columns keep the height
        # to be read under the longer caption.
        roomless = m.narrow(rect.w) and widest > (rect.w - axis) / len(columns)
        if caption:
            text = columns_caption(snap)
            lines = self._caption_lines(p, rect, text, len(columns)) if roomless else 1
            if lines == 1:
                roomless = False  # the caption that names the points has no room here
                if p.measure(p.words(text), m.small, True) > rect.w:
                    text = columns_caption(snap, short=True)  # the nearing genre has a column
                lines = self._caption_lines(p, rect, text, len(columns))
            drawn = wrapped_if_cut(
                p,
                text,
                rect,
                top,
                m.small,
                theme.TEXT_DIM,
                bold=True,
                align="left",
                max_lines=lines,
            )
            # Under a caption of several lines the points over a full column keep clear of
            # its last line's descenders ("(gewertet)").
            top = drawn.bottom + (2 * pad if drawn.h > 2 * m.leading(m.small) else pad)
        if roomless and caption:
            axis = 0
        left = rect.left + axis
        step = (rect.right - left) / len(columns)
        icon = max(12, min(round(step * 0.55), round(rect.h * 0.2)))
        base = rect.bottom - icon - pad
        leading = m.leading(m.small)
        # Columns narrower than their points ("128" on a narrow centre) have their points
        # on two rows over the wells, every other column's on the upper row: each number
        # then has two columns' width, and is read whole.
        staggered = widest > step - pad // 2
        figures_top = top
        if staggered:
            top += 2 * leading
        # The scale keeps the trend line at two thirds of the height unless a genre is above it.
        scale_max = max(threshold * 1.5, max(c.points for c in columns) * 1.05)
        height = max(10, base - top - (0 if staggered else leading))
        bar_w = max(6, round(step * 0.56))

        def level(value: float) -> int:
            return round(base - height * min(1.0, value / scale_max))

        line_y = level(threshold)
        for index, column in enumerate(columns):
            genre = column.genre
            cx = round(left + step * (index + 0.5))
            total = column.points
            hot = column.trendy
            well = pygame.Rect(cx - bar_w // 2, base - height, bar_w, height)
            p.rect(theme.blend(theme.CENTRE, (0, 0, 0), 0.25), well, 0, 3)
            if total:
                bar = pygame.Rect(cx - bar_w // 2, level(total), bar_w, base - level(total))
                p.rect(GENRE_COLOURS.get(genre, theme.TEXT), bar, 0, 3)
                if hot:
                    p.rect(theme.WINNER, bar.inflate(4, 4), max(2, pad // 2), 4)
            if staggered:
                figure = (cx, figures_top + (index % 2) * leading)
                anchor, room = "midtop", round(2 * step) - pad
            else:
                figure = (cx, min(level(total), line_y) - 2)
                anchor, room = "midbottom", round(step)
            p.text(
                str(total),
                figure,
                m.small,
                theme.WINNER if hot else theme.TEXT,
                bold=hot,
                anchor=anchor,
                max_width=room,
            )
            badge = pygame.Rect(0, 0, icon + pad, icon + pad)
            badge.midtop = (cx, base + pad // 2)
            if hot:
                p.rect(theme.WINNER, badge, 0, 4)
            paint_symbol(p, genre, badge.center, icon)
        # A horizontal line: a thin box, so it turns with the painter as any box does.
        trend = pygame.Rect(left - pad // 2, line_y - 1, rect.right - left + pad // 2, 2)
        p.rect(theme.TEXT, trend)
        if not axis:
            return
        p.text(
            str(threshold),
            (rect.left, line_y),
            m.small,
            theme.TEXT,
            bold=True,
            anchor="midleft",
        )

    def _status(self, view: TableView, snap: OskarSnapshot) -> tuple[Words, Colour]:
        """The one line that says what the table waits for."""
        phase = snap.phase
        if phase is Phase.OVER:
            if not snap.winners:
                return say("Game over: nobody won"), theme.WINNER
            names = Items(tuple(as_arg(player_name(view, w)) for w in snap.winners))
            return say("Game over: {players} won", players=names), theme.WINNER
        if snap.doubles is not None:
            return _doubles_order(view, snap, snap.doubles), theme.TURN
        if phase is Phase.DICE:
            return say("Rolling the dice"), theme.TURN
        nxt = snap.next
        if nxt is None:
            return "", theme.TEXT
        who = as_arg(player_name(view, nxt.seat))
        if phase is Phase.REROLL:
            return say("{player}: choose dice to reroll", player=who), theme.TURN
        if not snap.trick:
            return say("{player} leads: play a card", player=who), theme.TURN
        return say("{player}: play a card", player=who), theme.TURN


def roll_height(p: Painter) -> int:
    """How tall a roll's row is (``draw_roll``): dice a line and a half of body text high."""
    return round(p.metrics.leading(p.metrics.body) * 1.5)


def roll_words(view: TableView, roll: RollView) -> Text:
    """Who rolled, and which dice: "Seat 2 rerolled one die"."""
    who = as_arg(player_name(view, roll.seat))
    if roll.before is None:
        return say("{player} rolled", player=who)
    if not roll.rolled:
        return say("{player} kept both dice", player=who)
    if len(roll.rolled) == 1:
        return say("{player} rerolled one die", player=who)
    return say("{player} rerolled both dice", player=who)


def draw_roll(
    p: Painter, rect: pygame.Rect, view: TableView, roll: RollView, *, last: bool = False
) -> None:
    """One roll of the dice on a row: its two dice (those rolled outlined), who rolled
    them, and "doubles" in gold when they show doubles. The dice say what they show;
    their genres' words are on the seat's panel. ``last``: it is the game's last roll,
    brought back on a seat's panel."""
    m = p.metrics
    die = max(12, rect.h)
    x = rect.left
    for index, genre in enumerate(roll.faces):
        box = pygame.Rect(x, rect.centery - die // 2, die, die)
        draw_die(p, box, genre, highlight=theme.ACCENT if index in roll.rolled else None)
        x = box.right + m.pad // 2
    x += m.pad
    words = roll_words(view, roll)
    drawn = p.text(
        say("Last roll: {roll}", roll=words) if last else words,
        (x, rect.centery),
        m.small,
        theme.TEXT,
        bold=True,
        anchor="midleft",
        max_width=max(10, rect.right - x),
    )
    if roll.doubles and drawn.right + m.pad < rect.right:
        p.text(
            say("doubles"),
            (drawn.right + m.pad, rect.centery),
            m.small,
            theme.WINNER,
            bold=True,
            anchor="midleft",
            max_width=rect.right - drawn.right - m.pad,
        )


def _doubles_order(view: TableView, snap: OskarSnapshot, doubles: int) -> Text:
    """Who decides now and who goes next while a doubles offer is open: one voice, in
    order ("Seat 4 decides the doubles, then Seat 1 rerolls")."""
    who = as_arg(player_name(view, doubles))
    after = snap.next
    if after is None or after.seat == doubles:
        return say("{player} rolled doubles: reroll one die?", player=who)
    following = as_arg(player_name(view, after.seat))
    if after.expects == Verb.REROLL:
        return say("{player} decides the doubles, then {next} rerolls", player=who, next=following)
    if after.expects == Verb.PLAY:
        return say("{player} decides the doubles, then {next} plays", player=who, next=following)
    return say("{player} decides the doubles, then the others roll", player=who)


def round_detail(snap: OskarSnapshot, playing: bool, *, goal: bool) -> Text:
    """The line under the title: the round, the trick while playing, and the goal."""
    if playing and goal:
        return say(
            "Round {round} · Trick {trick}/{tricks} · first to {goal} tokens",
            round=snap.round,
            trick=snap.trick_number,
            tricks=snap.hand_size,
            goal=snap.tokens_to_win,
        )
    if playing:
        return say(
            "Round {round} · Trick {trick}/{tricks}",
            round=snap.round,
            trick=snap.trick_number,
            tricks=snap.hand_size,
        )
    if goal:
        return say(
            "Round {round} · first to {goal} tokens", round=snap.round, goal=snap.tokens_to_win
        )
    return say("Round {round}", round=snap.round)


def columns_caption(snap: OskarSnapshot, *, short: bool = False) -> Text:
    """The genre chart's caption: scored or running, and (unless ``short``) the genre
    closest to the trend line."""
    if snap.columns_scored:
        return say("Genres this round (scored)")
    close = [c for c in snap.columns if not c.trendy and c.points]
    if close and not short:
        nearest = min(close, key=lambda c: c.needs)
        return say(
            "Genres toward {threshold} this round · {genre} needs {more} more",
            threshold=snap.trend_threshold,
            genre=as_arg(genre_word(nearest.genre)),
            more=nearest.needs,
        )
    return say("Genres toward {threshold} this round", threshold=snap.trend_threshold)


# What a seat is asked to do, by expected verb: the game's vocabulary, not restated here.
PROMPTS: Mapping[str, Words] = VOCABULARY.verb_prompts


SCENE = OskarScene()
