"""The fallback game scene, and the building blocks game scenes share.

It draws any engine's ``snapshot()`` without knowing its rules or its types:
it reads the view's game in its plain JSON form (``GameView.to_json()``, the
snapshot's keys with the overlay's): whose turn it is and what is expected
(``next``), the round and trick number and the cards of the current trick
when the snapshot has them, each seat's public fields, the totals, and the
messages. Game-specific scenes (``display/scenes/oshaka_trick.py``)
reuse the helpers here: naming players, placing cards toward their seats,
the message list and the score table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import pygame

from controller.games import specs
from controller.games.words import Items, Player, Seat, Text, Verbatim, Words, as_arg, say
from controller.view import AnyGameView, Message, SeatView, TableView
from controller.view.seat_colours import seat_colour
from display import legibility, theme
from display.fitting import ELLIPSIS, Fitted
from display.legibility import Role
from display.motion import TrickPicture, lerp_point
from display.theme import Colour, Painter

# Words for the verbs engines expect; an unknown verb is shown as it is.
TRICK_AREA = theme.blend(theme.CENTRE, theme.TABLE, 0.5)

VERB_PROMPTS: dict[str, Text] = {
    "play": say("play a card"),
    "place": say("place a card"),
    "lead": say("choose the lead"),
    "bid": say("make a bid"),
    "hand": say("register your hand"),
}


@dataclass(frozen=True)
class Toward:
    """Where a player's seat panel is on the canvas, so cards can be laid toward it."""

    point: tuple[int, int]  # the panel's centre on the canvas
    rotation: int  # the panel's clockwise turn: a card turned so faces that seat


# --- names and turns -----------------------------------------------------------------


def seat_colour_of(seat: SeatView) -> theme.Colour:
    """The seat's own colour (its LED segment's), also when the view leaves it unset."""
    return seat.colour if seat.colour != (0, 0, 0) else seat_colour(seat.seat)


def seat_label(seat: SeatView) -> Words:
    """The seat's name without knowing nicknames: a label the table gave as words, or "Seat 3".

    A plain string label (the table's old 0-based "Seat 0") is not shown:
    seats are counted from 1. ``seat_words`` also knows the seat's nickname.
    """
    if isinstance(seat.label, Text):
        return seat.label
    return say("Seat {number}", number=Verbatim(str(seat.seat + 1)))


def seat_words(view: TableView, seat: SeatView) -> Words:
    """The seat's name as the presenter gives it: its member card's nickname, or "Seat 3"."""
    nickname = view.nicknames.get(seat.seat)
    if nickname:
        # TRANSLATORS: a seat's name alone (a nickname): keep it as it is.
        return say("{seat}", seat=Verbatim(nickname))
    return seat_label(seat)


def seat_of_player(view: TableView, player: int) -> SeatView | None:
    """The physical seat that plays as engine seat ``player``."""
    for seat in view.seats:
        if seat.player == player:
            return seat
    return None


def player_name(view: TableView, player: int) -> Words:
    """How the centre names engine seat ``player``: by the label of the seat playing it."""
    seat = seat_of_player(view, player)
    return seat_words(view, seat) if seat is not None else say("{seat}", seat=Player(player))


def expected(game: Mapping[str, Any] | None) -> tuple[int, str] | None:
    """The snapshot's ``next``: (engine seat, verb), or None when nobody is expected."""
    if not game:
        return None
    nxt = game.get("next")
    if isinstance(nxt, Mapping) and isinstance(nxt.get("seat"), int):
        return int(nxt["seat"]), str(nxt.get("expects", ""))
    return None


def verb_prompt(verb: str, game_id: object = None) -> Words:
    """The words for an expected verb: the game's own (its spec's ``verb_prompts``), these
    shared ones, or the verb as the engine spells it."""
    spec = specs().get(game_id) if isinstance(game_id, str) else None
    own: Mapping[str, Words] = spec.vocabulary.verb_prompts if spec else {}
    found = own.get(verb)
    return found if found is not None else VERB_PROMPTS.get(verb, verb.replace("_", " "))


_Game = TypeVar("_Game")
_Parsed = TypeVar("_Parsed")
# The last few games read into another form, by (reader, id of the game); the
# game itself is kept alongside, so its id cannot be reused meanwhile.
_PARSED: dict[tuple[object, int], tuple[object, object]] = {}


def parsed(game: _Game, read: Callable[[_Game], _Parsed]) -> _Parsed:
    """``read(game)``, remembered for the last few games.

    A frame reads the same game for every seat's prompt and panel and for the
    centre (ten times or more, a good share of a frame on a Pi); a view's game
    is never changed in place, so reading it once is enough.
    """
    key = (read, id(game))
    hit = _PARSED.get(key)
    if hit is not None and hit[0] is game:
        return cast(_Parsed, hit[1])
    result = read(game)
    _PARSED[key] = (game, result)
    if len(_PARSED) > 16:
        del _PARSED[next(iter(_PARSED))]
    return result


def forget_parsed() -> None:
    """Drop the remembered snapshots (the renderer does, back on the attract screen)."""
    _PARSED.clear()


def game_json(game: AnyGameView | None) -> Mapping[str, Any]:
    """The view's game as plain JSON (empty without one), read once per game."""
    return {} if game is None else parsed(game, _to_json)


def _to_json(game: AnyGameView) -> Mapping[str, Any]:
    return game.to_json()


def int_list(value: object) -> list[int] | None:
    """``value`` as a list of ints when it is one (snapshot fields are plain JSON)."""
    if isinstance(value, list) and all(isinstance(x, int) for x in value):
        return [int(x) for x in value]
    return None


def totals_of(game: Mapping[str, Any]) -> list[int] | None:
    """The running totals a snapshot carries: ``totals``, else ``tokens``, else seats' scores."""
    for key in ("totals", "tokens"):
        found = int_list(game.get(key))
        if found is not None:
            return found
    seats = game.get("seats")
    if isinstance(seats, list) and seats and all(isinstance(s, Mapping) for s in seats):
        scores = [s.get("score", s.get("total")) for s in seats]
        if all(isinstance(x, int) for x in scores):
            return [int(x) for x in scores]
    return None


def trick_of(game: Mapping[str, Any], key: str = "trick") -> list[tuple[int, str]]:
    """The snapshot's trick as (engine seat, card notation) in play order, if it has one."""
    plays = game.get(key)
    found: list[tuple[int, str]] = []
    if isinstance(plays, list):
        for play in plays:
            if isinstance(play, Mapping) and isinstance(play.get("seat"), int):
                found.append((int(play["seat"]), str(play.get("card", "?"))))
    return found


# --- shared drawing ------------------------------------------------------------------


def spot_toward(
    area: pygame.Rect, target: tuple[int, int], margin: tuple[int, int]
) -> tuple[int, int]:
    """A point inside ``area`` on the way from its centre to ``target``.

    ``margin`` is half the size of what will be drawn there, so it stays inside.
    """
    cx, cy = area.center
    vx, vy = target[0] - cx, target[1] - cy
    half_w = max(1.0, area.w / 2 - margin[0])
    half_h = max(1.0, area.h / 2 - margin[1])
    if vx == 0 and vy == 0:
        return area.center
    reach = min(half_w / abs(vx) if vx else math.inf, half_h / abs(vy) if vy else math.inf)
    share = min(reach, 1.0)
    return round(cx + vx * share), round(cy + vy * share)


def draw_trick(
    p: Painter,
    area: pygame.Rect,
    plays: Sequence[tuple[int, str]],
    toward: Mapping[int, Toward],
    *,
    highlight: Mapping[str, Colour] | None = None,
    dimmed: frozenset[str] = frozenset(),
    lead_mark: bool = True,
    arriving: Mapping[str, float] | None = None,
    gone: float = 0.0,
    gone_to: tuple[int, int] | None = None,
) -> dict[str, pygame.Rect]:
    """The cards of a trick, each laid toward the seat that played it and turned to face it.

    Players without a seat on screen get their cards in a row along the bottom.
    Returns where each card went.

    Motion (``display/motion.py``): a card in ``arriving`` is that share of the way
    from its player's panel to its place; with ``gone_to``, every card is ``gone``
    of the way from its place to that point (a won trick sliding to its winner).
    """
    card_h = max(24, min(round(area.h * 0.4), round(area.w * 0.28), round(p.metrics.unit * 0.16)))
    # Wide enough for "10♦" at the legible size.
    card_w = p.legible_card_width([card for _, card in plays], card_h)
    half = (max(card_w, card_h) // 2 + 2, max(card_w, card_h) // 2 + 2)
    placed: dict[str, pygame.Rect] = {}
    loose = 0
    for order, (player, card) in enumerate(plays):
        where = toward.get(player)
        if where is not None:
            centre = spot_toward(area, where.point, half)
            rotation = where.rotation
        else:
            centre = (area.left + half[0] + loose * (card_w + 4), area.bottom - half[1])
            rotation = 0
            loose += 1
        travelled = (arriving or {}).get(card)
        if travelled is not None and where is not None:
            centre = lerp_point(where.point, centre, travelled)
        if gone_to is not None and gone > 0.0:
            centre = lerp_point(centre, gone_to, gone)
        rect = pygame.Rect(0, 0, card_w, card_h)
        rect.center = centre
        outline = (highlight or {}).get(card)
        placed[card] = p.card(
            rect,
            card,
            rotation=rotation,
            emphasis=outline is not None,
            outline=outline,
            dim=card in dimmed,
        )
        if lead_mark and order == 0:
            # A ring marks the lead card: the trick's first play.
            ring = placed[card].inflate(p.metrics.pad * 2, p.metrics.pad * 2)
            p.box(ring, None, theme.ACCENT, max(2, p.metrics.pad // 2))
    return placed


def draw_trick_picture(
    p: Painter,
    area: pygame.Rect,
    view: TableView,
    picture: TrickPicture,
    toward: Mapping[int, Toward],
    *,
    highlight: Mapping[str, Colour] | None = None,
    dimmed: frozenset[str] = frozenset(),
) -> None:
    """The trick area at this moment (``Motion.trick``): the trick won last, its winning
    card lit and its winner named, staying or sliding to the winner; the trick in play,
    its new cards travelling in from their seats. ``highlight`` and ``dimmed`` are for
    the trick in play."""
    winner = picture.winner
    if picture.won and winner is not None:
        won_card = next((c for s, c in picture.won if s == winner), "")
        where = toward.get(winner)
        draw_trick(
            p,
            area,
            picture.won,
            toward,
            highlight={won_card: theme.WINNER},
            dimmed=frozenset(c for _, c in picture.won if c != won_card),
            lead_mark=False,
            arriving=picture.arriving,
            gone=picture.gone,
            gone_to=None if where is None else where.point,
        )
        if not picture.plays:
            # On two lines where one would cut it (a long nickname in a narrow area), three
            # on a narrow centre (a long nickname and "hat den Stich gewonnen").
            pad = p.metrics.pad
            line = p.metrics.leading(p.metrics.small)
            lines = 3 if p.metrics.narrow(area.w) else 2
            p.fit_text(
                say("{player} won the trick", player=as_arg(player_name(view, winner))),
                pygame.Rect(area.left + pad, area.top + pad, area.w - 2 * pad, lines * line),
                p.metrics.small,
                theme.WINNER,
                bold=True,
                align="left",
                valign="top",
                max_lines=lines,
            )
    if picture.plays:
        draw_trick(
            p,
            area,
            picture.plays,
            toward,
            highlight=highlight,
            dimmed=dimmed,
            arriving=picture.arriving,
        )


# What a seat's look back (a long NEXT) says before the round's first trick is won.
NO_TRICK_YET = say("No trick played yet this round")


def draw_last_trick(
    p: Painter,
    rect: pygame.Rect,
    view: TableView,
    plays: Sequence[tuple[int, str]],
    winner: int | None,
    notes: Mapping[str, tuple[Words, Colour]] | None = None,
) -> int:
    """The last trick on a seat's panel (a long NEXT, ``draw_recall``): who won it, its
    cards in the order played with the winning card lit, and under each card its
    ``notes`` entry, if any (where Oshaka's winner placed it). Returns the bottom drawn.

    Every trick game's look back is this one picture; a scene adds what its game has
    besides (Oskar's last roll of the dice).
    """
    m = p.metrics
    if not plays or winner is None:
        return p.text(
            NO_TRICK_YET, (rect.left, rect.top), m.body, theme.TEXT_DIM, max_width=rect.w
        ).bottom
    caption = say("Last trick: {player} won it", player=as_arg(player_name(view, winner)))
    top = p.text(
        caption, (rect.left, rect.top), m.body, theme.WINNER, bold=True, max_width=rect.w
    ).bottom
    label_h = m.leading(m.small) if notes else 0
    card_h = max(20, min(rect.bottom - top - m.pad - label_h, round(m.unit * 0.14)))
    card_w = round(card_h * 0.7)
    if notes:
        # Each card as wide as its note needs, so that "face down" is read whole.
        card_w = max(card_w, *(p.measure(p.words(note), m.small) for note, _ in notes.values()))
    x = rect.left
    bottom = top
    for seat, card in plays:
        if x + card_w > rect.right:
            break
        won = seat == winner
        place = pygame.Rect(x, top + m.pad // 2, card_w, card_h)
        p.card(place, card, emphasis=won, outline=theme.WINNER if won else None, dim=not won)
        bottom = place.bottom
        note = None if notes is None else notes.get(card)
        if note is not None:
            words, colour = note
            bottom = p.text(
                words,
                (place.centerx, place.bottom),
                m.small,
                colour,
                bold=True,
                anchor="midtop",
                max_width=card_w + m.pad,
            ).bottom
        x += card_w + m.pad
    return bottom


def draw_turn_glow(
    p: Painter, area: pygame.Rect, toward: Mapping[int, Toward], turn: int | None
) -> None:
    """A glow at the edge of ``area`` toward the seat whose turn it is; when the turn
    passes, it glides to the next seat (``Motion.glide``)."""
    where = None if turn is None else toward.get(turn)
    if where is None:
        return
    radius = max(6, p.metrics.pad * 2)
    point = p.motion.glide("turn", where.point)
    # On the trick area's very edge, half of it cut off: it marks the edge that faces
    # the seat and leaves the cards beside it mostly uncovered.
    centre = spot_toward(area, point, (0, 0))
    clip = p.surface.get_clip()
    placed = p.turn.rect(area)
    p.surface.set_clip(placed.clip(clip) if clip.w else placed)
    # Rings from the trick area's colour to the turn's: a glow without alpha blending.
    for step in range(3, 0, -1):
        colour = theme.blend(TRICK_AREA, theme.TURN, 1.0 - (step - 1) / 3)
        p.circle(colour, centre, radius * step // 3)
    p.surface.set_clip(clip)


def draw_messages(
    p: Painter,
    rect: pygame.Rect,
    view: TableView,
    messages: Sequence[Message] | None = None,
    *,
    prefix: bool = True,
) -> None:
    """The newest messages that fit in ``rect``, oldest on top, each in its kind's colour.

    With ``prefix`` a message for one seat starts with that seat's label.
    """
    shown = list(view.messages if messages is None else messages)
    size = p.metrics.small
    line = p.metrics.leading(size)
    if rect.h < line:
        return
    bar = message_bar(p)
    blocks: list[tuple[list[str], Colour]] = []
    used = 0
    for message in reversed(shown):
        lines = message_lines(p, view, message, rect.w, prefix=prefix)
        need = len(lines) * line + p.metrics.pad
        if used + need > rect.h:
            if not blocks and lines:
                # One long message in a small space: it shows whole, in pages that turn.
                words = message_words(p, view, message, prefix=prefix)
                _draw_message_pages(p, rect, words, message, bar)
                return
            break
        blocks.append((lines, theme.MESSAGE_COLOURS[message.kind]))
        used += need
    y = rect.top
    for lines, colour in reversed(blocks):
        height = len(lines) * line
        p.rect(colour, pygame.Rect(rect.left, y + 1, bar, height - 2))
        for index, text in enumerate(lines):
            # Centred on its line: a line with a suit symbol (from the CJK font, whose
            # lines are taller) keeps its letters inside the line.
            p.text(
                text,
                (rect.left + 2 * bar, y + index * line + line // 2),
                size,
                colour,
                anchor="midleft",
                max_width=rect.w - 2 * bar,
            )
        y += height + p.metrics.pad


def newest_message_height(p: Painter, view: TableView, width: int) -> int:
    """The height :func:`draw_messages` needs across ``width`` to show the newest of
    ``view``'s messages whole (0 without messages): for a column that gives it the room
    before what it may leave out."""
    if not view.messages:
        return 0
    lines = message_lines(p, view, view.messages[-1], width)
    return len(lines) * p.metrics.leading(p.metrics.small) + p.metrics.pad


def message_bar(p: Painter) -> int:
    """The width of the coloured bar beside a message (``draw_messages``)."""
    return max(3, p.metrics.pad // 2)


def message_lines(
    p: Painter, view: TableView, message: Message, width: int, *, prefix: bool = True
) -> list[str]:
    """The lines ``draw_messages`` wraps ``message`` into across ``width`` (with its seat's
    label before it, with ``prefix``): a scene can ask whether it would be shown whole."""
    text = message_words(p, view, message, prefix=prefix)
    return p.wrap(text, p.metrics.small, width - 3 * message_bar(p))


def message_words(p: Painter, view: TableView, message: Message, *, prefix: bool = True) -> Words:
    """``message`` as ``draw_messages`` words it: with ``prefix``, a message for one seat
    led by that seat's label (unless it starts with it already)."""
    text: Words = message.text
    if prefix and message.seat is not None:
        seat = next((s for s in view.seats if s.seat == message.seat), None)
        label = None if seat is None else p.words(seat_words(view, seat))
        if label is not None and not p.words(text).lower().startswith(label.lower()):
            assert seat is not None
            text = say("{seat}: {message}", seat=Seat(seat.seat), message=as_arg(text))
    return text


# How long each page of a message too long for its space shows (seconds): time to
# read two or three lines from a chair.
MESSAGE_PAGE_SECONDS = 5.0


@dataclass(frozen=True)
class TextPage:
    """The lines of a text that show now (``text_page``): all of them, or one page of
    them with its mark ("1/2"), the lines wrapped short of ``mark_w`` for it."""

    lines: list[str]
    mark: str | None = None
    mark_size: int = 0
    mark_w: int = 0


def text_page(
    p: Painter,
    text: Words,
    size: int,
    width: int,
    per_page: int,
    name: str,
    seconds: float,
    bold: bool = False,
) -> TextPage:
    """``text`` wrapped across ``width``: whole where ``per_page`` lines hold it, else in
    pages of that many lines, the page called ``name`` turning every ``seconds`` on the
    display's clock (``Motion.page``), wrapped short of room for its widest mark: every
    word is read in turn rather than cut with "…" (issue 29)."""
    lines = p.wrap(text, size, width, bold)
    if len(lines) <= per_page:
        return TextPage(lines)
    mark_size = legibility.least_size(p.metrics.unit, Role.SECONDARY)
    pages = 9
    for _ in range(2):  # room for the widest mark ("12/12" where "9/9" made 12 pages)
        mark_w = p.measure(f"{pages}/{pages}", mark_size, True) + p.metrics.pad
        lines = p.wrap(text, size, width - mark_w, bold)
        if -(-len(lines) // per_page) <= pages:
            break
        pages = -(-len(lines) // per_page)
    pages = -(-len(lines) // per_page)
    page = p.motion.page(name, pages, seconds)
    shown = lines[page * per_page : (page + 1) * per_page]
    return TextPage(shown, f"{page + 1}/{pages}", mark_size, mark_w)


def draw_page_mark(p: Painter, page: TextPage, at: tuple[int, int], anchor: str) -> None:
    """``page``'s mark ("1/2": figures, the same in every language) at ``at``, if it has one."""
    if page.mark is not None:
        with p.secondary():
            p.text(page.mark, at, page.mark_size, theme.TEXT_DIM, bold=True, anchor=anchor)


def _draw_message_pages(
    p: Painter, rect: pygame.Rect, text: Words, message: Message, bar: int
) -> None:
    """``text`` (the newest ``message``), too long for ``rect``, as pages of the lines
    that fit (``text_page``), with which page shows ("1/2") at the first line's end."""
    m = p.metrics
    size = m.small
    line = m.leading(size)
    keep = max(1, (rect.h - m.pad) // line)
    key = f"message pages: {p.words(text)}"
    page = text_page(p, text, size, rect.w - 3 * bar, keep, key, MESSAGE_PAGE_SECONDS)
    colour = theme.MESSAGE_COLOURS[message.kind]
    p.rect(colour, pygame.Rect(rect.left, rect.top + 1, bar, len(page.lines) * line - 2))
    for index, words in enumerate(page.lines):
        p.text(
            words,
            (rect.left + 2 * bar, rect.top + index * line + line // 2),
            size,
            colour,
            anchor="midleft",
            max_width=rect.w - 2 * bar - page.mark_w,
        )
    draw_page_mark(p, page, (rect.right, rect.top + line // 2), "midright")


def wrapped_if_cut(
    p: Painter,
    words: Words,
    rect: pygame.Rect,
    top: int,
    size: int,
    colour: Colour = theme.TEXT,
    *,
    bold: bool = False,
    align: str = "center",
    max_lines: int = 3,
) -> pygame.Rect:
    """One line of ``words`` across ``rect`` with its top at ``top`` (centred as
    ``Painter.centred_text`` draws it, or from the left), fitted as ``Painter.text``
    fits it; but a line that would be cut on a narrow centre (``Metrics.narrow``) is
    wrapped onto up to ``max_lines`` lines instead, when they hold it whole. Where the
    words went: a wide centre draws exactly the one line it drew before."""
    m = p.metrics
    if m.narrow(rect.w):
        one = p.fit(words, rect.w, 1 << 16, size, bold=bold, max_lines=1)
        if one.cut:
            box = pygame.Rect(rect.left, top, rect.w, max_lines * m.leading(size))
            fitted = p.fit(words, box.w, box.h, size, bold=bold, max_lines=max_lines)
            if not fitted.cut:  # else the one line, cut as it was (a nickname at its end)
                # Lines a leading apart, the first with its top at ``top`` and the block
                # as tall as ``Painter.text``'s line and the leadings after it, so what
                # follows is placed as after one line.
                tall = p.fonts.get(fitted.size, bold).get_height()
                leading = m.leading(fitted.size)
                box.top += max(0, tall - leading) // 2
                box.h = len(fitted.lines) * leading
                used = p.fit_text(
                    words, box, size, colour, bold=bold, align=align, valign="top", fitted=fitted
                )
                return pygame.Rect(used.left, top, used.w, (len(fitted.lines) - 1) * leading + tall)
    if align == "left":
        return p.text(words, (rect.left, top), size, colour, bold=bold, max_width=rect.w)
    return p.centred_text(words, rect, top, size, colour, bold=bold)


def draw_score_table(
    p: Painter,
    rect: pygame.Rect,
    view: TableView,
    rows: Sequence[tuple[Words, Sequence[int | None]]],
    *,
    turn: int | None = None,
    winners: Sequence[int] = (),
    size: int = 0,
) -> int:
    """A score table: a column per player (named on top), a row per (heading, values).

    Players across, so a table of many players stays a few lines high.
    Returns the height used (0 when there is nothing to show).
    """
    players = max((len(values) for _, values in rows), default=0)
    if players == 0:
        return 0
    size = size or p.metrics.small
    line = p.metrics.leading(size) + p.metrics.pad // 2
    if headings_stacked(p, rect.w, rows, size):
        return _draw_stacked_score_table(p, rect, view, rows, turn, winners, size, players)
    shown = rows[-max(0, rect.h // line - 1) :] if rect.h // line > 1 else []
    # The headings whole ("Face down"), as long as each player's column keeps room for
    # its widest figure: names on top may be cut, the rows' words are read.
    figures = [str(v) for _, values in shown for v in values if v is not None] or ["0"]
    figure_w = max(p.measure(f, size, True) for f in figures) + 2 * p.metrics.pad
    head_w = min(
        max(round(rect.w * 0.22), rect.w - players * figure_w),
        max(p.measure(p.words(h), size) for h, _ in rows) + p.metrics.pad,
    )
    col_w = (rect.w - head_w) // players
    for player in range(players):
        right = rect.left + head_w + (player + 1) * col_w - p.metrics.pad
        _player_heading(p, view, player, (right, rect.top), col_w, size, turn, winners)
        for index, (_, values) in enumerate(shown):
            value = values[player] if player < len(values) else None
            last = index == len(shown) - 1
            p.text(
                "-" if value is None else str(value),
                (right, rect.top + (index + 1) * line),
                size,
                theme.WINNER if player in winners and last else theme.TEXT,
                bold=last,
                anchor="topright",
                max_width=col_w - p.metrics.pad,
            )
    for index, (heading, _) in enumerate(shown):
        p.text(
            heading,
            (rect.left, rect.top + (index + 1) * line),
            size,
            theme.TEXT_DIM,
            max_width=head_w,
        )
    return (len(shown) + 1) * line


# The least of a nickname a column must show to tell seats apart (``cut_labels`` in the
# legibility test allows a nickname cut after three letters).
SHORTEST_NAME = "Wil…"


def headings_stacked(
    p: Painter, width: int, rows: Sequence[tuple[Words, Sequence[int | None]]], size: int = 0
) -> bool:
    """True when a score table ``width`` wide cannot set its headings whole beside the
    players' columns (a portrait canvas's narrow centre): each heading then takes a line
    of its own over its figures (``draw_score_table``), rather than be cut."""
    players = max((len(values) for _, values in rows), default=0)
    if players == 0:
        return False
    size = size or p.metrics.small
    figures = [str(v) for _, values in rows for v in values if v is not None] or ["0"]
    figure_w = max(p.measure(f, size, True) for f in figures) + 2 * p.metrics.pad
    heading_w = max(p.measure(p.words(h), size) for h, _ in rows) + p.metrics.pad
    head_w = max(round(width * 0.22), width - players * figure_w)
    if heading_w > head_w:
        return True
    # Beside the headings, the players' columns too narrow for their widest figure ("14"
    # cut to nothing) or for a few letters of a name, where the table's whole width would
    # give them room.
    beside = (width - min(head_w, heading_w)) // players
    widest = figure_w - p.metrics.pad  # a figure is drawn within its column less a pad
    if beside < widest <= width // players:
        return True
    return not _name_fits(p, beside, size) and _name_fits(p, width // players, size)


def _name_fits(p: Painter, column: int, size: int) -> bool:
    """True when a score table's column ``column`` wide shows a few letters of a name."""
    return p.measure(SHORTEST_NAME, size, True) <= column - p.metrics.pad


def _player_heading(
    p: Painter,
    view: TableView,
    player: int,
    top_right: tuple[int, int],
    column: int,
    size: int,
    turn: int | None,
    winners: Sequence[int],
) -> None:
    """A score table's name over ``player``'s column ``column`` wide: lit for the winner
    or the player whose turn it is. A seat whose label ("Seat 3", "3番席") does not fit,
    or whose nickname would keep fewer than three letters ("Wi…"), is headed by its
    number alone."""
    colour = theme.WINNER if player in winners else theme.TURN if player == turn else theme.TEXT_DIM
    bold = player == turn or player in winners
    name = player_name(view, player)
    seat = seat_of_player(view, player)
    room = column - p.metrics.pad
    if seat is not None and p.measure(p.words(name), size, bold) > room:
        nickname = view.nicknames.get(seat.seat)
        if not nickname or p.measure(nickname[:3] + ELLIPSIS, size, bold) > room:
            name = say("{seat}", seat=Verbatim(str(seat.seat + 1)))
    p.text(
        name,
        top_right,
        size,
        colour,
        bold=bold,
        anchor="topright",
        max_width=column - p.metrics.pad,
    )


def _draw_stacked_score_table(
    p: Painter,
    rect: pygame.Rect,
    view: TableView,
    rows: Sequence[tuple[Words, Sequence[int | None]]],
    turn: int | None,
    winners: Sequence[int],
    size: int,
    players: int,
) -> int:
    """``draw_score_table`` with each heading on a line of its own, its figures on the
    line under it, the players' columns the table's whole width; the height used."""
    m = p.metrics
    line = m.leading(size) + m.pad // 2
    room = (rect.h // line - 1) // 2
    shown = rows[-room:] if room > 0 else []
    col_w = rect.w // players
    for player in range(players):
        right = rect.left + (player + 1) * col_w - m.pad
        _player_heading(p, view, player, (right, rect.top), col_w, size, turn, winners)
    for index, (heading, values) in enumerate(shown):
        top = rect.top + (2 * index + 1) * line
        p.text(heading, (rect.left, top), size, theme.TEXT_DIM, max_width=rect.w)
        last = index == len(shown) - 1
        for player in range(players):
            value = values[player] if player < len(values) else None
            p.text(
                "-" if value is None else str(value),
                (rect.left + (player + 1) * col_w - m.pad, top + line),
                size,
                theme.WINNER if player in winners and last else theme.TEXT,
                bold=last,
                anchor="topright",
                max_width=col_w - m.pad,
            )
    return (2 * len(shown) + 1) * line


def table_room(
    p: Painter, info: pygame.Rect, y: int, wanted: int, view: TableView, *, keep: int = 0
) -> int:
    """The height the score table may take at the foot of ``info`` below ``y``.

    Messages explain what just happened and seat panels show each score too,
    so when space is short the messages keep two lines (or ``keep``, when more) and
    the table gives way.
    """
    wanted = min(info.h // 2, wanted)
    if not view.messages:
        return wanted
    messages = max(2 * p.metrics.leading(p.metrics.small), keep) + 3 * p.metrics.pad
    return wanted if info.bottom - wanted - y >= messages else 0


def draw_foot_score_table(
    p: Painter,
    info: pygame.Rect,
    y: int,
    view: TableView,
    columns: Sequence[tuple[Words, Sequence[int | None]]],
    *,
    turn: int | None = None,
    winners: Sequence[int] = (),
    keep: int = 0,
) -> int:
    """The score table at the foot of ``info`` below ``y``; the height it took.

    Short of room (the messages keep their lines, ``keep`` high when that is more
    than two), it shows the totals alone, the last of ``columns``; with no room at
    all, nothing.
    """
    rows = list(columns)
    # Each heading over its figures on a narrow centre: twice the lines.
    lines = 2 if headings_stacked(p, info.w, rows) else 1
    height = table_room(p, info, y, score_table_height(p, lines * len(rows)), view, keep=keep)
    if not height:
        rows = rows[-1:]
        height = table_room(p, info, y, score_table_height(p, lines), view, keep=keep)
    if height:
        rect = pygame.Rect(info.left, info.bottom - height, info.w, height)
        draw_score_table(p, rect, view, rows, turn=turn, winners=winners)
    return height


def score_table_height(p: Painter, rows: int, size: int = 0) -> int:
    """The height :func:`draw_score_table` needs for ``rows`` rows."""
    return (rows + 1) * (p.metrics.leading(size or p.metrics.small) + p.metrics.pad // 2)


def draw_title_block(p: Painter, rect: pygame.Rect, title: Words, detail: Words) -> int:
    """The game's title and a detail line under it (round, trick); returns the height used."""
    m = p.metrics
    y = rect.top
    y = p.text(title, (rect.left, y), m.big, theme.TEXT, bold=True, max_width=rect.w).bottom
    if detail:
        # Two lines where one would cut it ("Runde 2/2 · Stich 13/13 · Grün ausgespielt"),
        # three where two would in a tall narrow column (``tall_column``).
        box = pygame.Rect(rect.left, y, rect.w, 2 * m.leading(m.small))
        fitted = p.fit(detail, box.w, box.h, m.small, max_lines=2)
        if fitted.cut and tall_column(p, rect):
            box.h = 3 * m.leading(m.small)
            fitted = p.fit(detail, box.w, box.h, m.small, max_lines=3)
        box.h = len(fitted.lines) * m.leading(fitted.size)
        drawn = p.fit_text(
            detail, box, m.small, theme.TEXT_DIM, align="left", valign="top", fitted=fitted
        )
        y = max(drawn.bottom, box.bottom)
    return y - rect.top + m.pad


def split_centre(rect: pygame.Rect, pad: int) -> tuple[pygame.Rect, pygame.Rect]:
    """The centre split into a trick area and an information column (side by side when wide)."""
    if rect.w >= rect.h * 1.25:
        trick_w = round(rect.w * 0.5)
        trick = pygame.Rect(rect.left, rect.top, trick_w, rect.h)
        info = pygame.Rect(rect.left + trick_w + pad, rect.top, rect.w - trick_w - pad, rect.h)
    else:
        trick_h = round(rect.h * 0.45)
        trick = pygame.Rect(rect.left, rect.top, rect.w, trick_h)
        info = pygame.Rect(rect.left, rect.top + trick_h + pad, rect.w, rect.h - trick_h - pad)
    return trick, info


def draw_status(
    p: Painter, rect: pygame.Rect, text: Words, colour: Colour = theme.TURN, *, lines: int = 2
) -> int:
    """A prominent status line (whose turn, what happens now), two lines at most (or
    ``lines``, for a column whose messages give way to it; more in a tall narrow column,
    ``tall_column``); its height."""
    size = p.metrics.body
    # A column whose messages give way to the status (``lines`` over two) lets it take
    # more where even those would cut it, as a tall column does.
    roomy = tall_column(p, rect) or (lines > 2 and p.metrics.narrow(rect.w))
    fitted = _status_fit(p, rect.w, text, lines, tall=roomy)
    box = pygame.Rect(rect.left, rect.top, rect.w, len(fitted.lines) * p.metrics.leading(size))
    p.fit_text(text, box, size, colour, bold=True, align="left", valign="top", fitted=fitted)
    return len(fitted.lines) * p.metrics.leading(fitted.size)


def tall_column(p: Painter, rect: pygame.Rect) -> bool:
    """True for a column ``rect`` narrower than the short side and half as tall again as
    it is wide: the centre's information column on a screen turned a quarter, where a
    status may take ``NARROW_STATUS_LINES`` rather than be cut (a landscape column is
    wider than tall: its status keeps its lines, the results and timer under it theirs)."""
    return p.metrics.narrow(rect.w) and rect.h * 2 >= rect.w * 3


def status_height(p: Painter, width: int, text: Words) -> int:
    """The height :func:`draw_status` takes for ``text`` across ``width``, without drawing."""
    fitted = _status_fit(p, width, text)
    return len(fitted.lines) * p.metrics.leading(fitted.size)


def _status_fit(
    p: Painter, width: int, text: Words, lines: int = 2, *, tall: bool = False
) -> Fitted:
    """How a status line fits ``width``: bold body type, ``lines`` lines at most; in a
    ``tall`` narrow column up to ``NARROW_STATUS_LINES`` where that would cut it."""
    size = p.metrics.body
    fitted = p.fit(text, width, lines * p.metrics.leading(size), size, bold=True, max_lines=lines)
    if fitted.cut and tall and lines < NARROW_STATUS_LINES:
        return _status_fit(p, width, text, NARROW_STATUS_LINES)
    return fitted


# How many lines a status may take in a tall narrow column, where two or three would cut
# it ("Wilhelmina: choose who leads round 2 (showing …)" in a portrait canvas's centre).
NARROW_STATUS_LINES = 5


# --- the fallback scene ------------------------------------------------------------


def _format_value(value: object) -> str | None:
    """A snapshot value short enough for a seat panel, or None to leave it out."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, list) and len(value) <= 8 and all(isinstance(x, int | str) for x in value):
        return " ".join(str(x) for x in value) or "-"
    return None


class GenericScene:
    """Draws any game's snapshot from its common fields; see the module docstring."""

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        plain = game_json(game)
        nxt = expected(plain)
        if nxt is None or nxt[0] != player:
            return None
        return verb_prompt(nxt[1], plain.get("game"))

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        game = game_json(view.game)
        pairs: list[Words] = []
        totals = totals_of(game)
        if totals is not None and player < len(totals):
            total = p.motion.figure(f"total of {player}", totals[player])
            pairs.append(say("total {total}", total=total))
        seats = game.get("seats")
        entry: Mapping[str, Any] | None = None
        if isinstance(seats, list):
            entry = next(
                (s for s in seats if isinstance(s, Mapping) and s.get("seat") == player), None
            )
        if entry is not None:
            for key, value in entry.items():
                text = _format_value(value)
                if key != "seat" and text is not None:
                    # A toy game's own field names: no catalog knows them.
                    pairs.append(f"{key.replace('_', ' ')} {text}")
        shown = "   ".join(p.words(pair) for pair in pairs) if pairs else say("playing")
        p.fit_text(shown, rect, p.metrics.small, theme.TEXT, align="left", valign="top")

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        game = game_json(view.game)
        title: Words = view.game_title or str(game.get("title") or view.game_id or "")
        details: list[Words] = []
        if isinstance(game.get("round"), int):
            details.append(say("Round {number}", number=int(game["round"])))
        if isinstance(game.get("trick_number"), int):
            details.append(say("Trick {number}", number=int(game["trick_number"])))
        if isinstance(game.get("phase"), str):
            details.append(str(game["phase"]))
        trick_area, info = split_centre(rect, p.metrics.pad)
        p.box(trick_area, TRICK_AREA, None)
        plays = trick_of(game)
        if plays:
            draw_trick(p, trick_area, plays, toward)
        else:
            p.text(
                say("no cards on the table"),
                trick_area.center,
                p.metrics.small,
                theme.TEXT_DIM,
                anchor="center",
            )
        detail = " · ".join(p.words(d) for d in details)
        y = info.top + draw_title_block(p, info, title, detail)
        nxt = expected(game)
        winners = int_list(game.get("winners")) or []
        if nxt is not None:
            status = say(
                "{player}: {action}",
                player=Player(nxt[0]),
                action=as_arg(verb_prompt(nxt[1], game.get("game"))),
            )
            y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), status)
        elif winners:
            over = say("Game over: {players}", players=Items(tuple(Player(w) for w in winners)))
            y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), over, theme.WINNER)
        totals = totals_of(game)
        table_h = 0
        if totals:
            table_h = table_room(p, info, y, score_table_height(p, 1), view)
        if table_h:
            assert totals is not None
            table = pygame.Rect(info.left, info.bottom - table_h, info.w, table_h)
            draw_score_table(
                p,
                table,
                view,
                [(say("total"), totals)],
                turn=nxt[0] if nxt else None,
                winners=winners,
            )
        messages = pygame.Rect(
            info.left, y + p.metrics.pad, info.w, info.bottom - table_h - y - 2 * p.metrics.pad
        )
        draw_messages(p, messages, view)
