"""The results screen: who won and why, the places, every round, and totals that add up.

Each seat's panel body says its place ("WINNER", "2nd (shared)") and its total
with its unit ("7 tokens"). The centre always shows the game's title, the
winner line in words ("Seat 2 wins with 8 tokens: the most tokens") and the rule
that decided it; under them, pages a seat turns with its buttons (and that turn
by themselves): the places, the scores by round with their total, the rows that
add up to it another way, the counts that explain without adding up (set apart,
under their own heading), and a line per round where the game has one (Oskar's
trends and tokens). The sheet's type never shrinks below the legibility floor
(``table_size``): what does not fit goes on another page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pygame

from controller.games.words import Verbatim, Words, as_arg, say
from controller.view import SeatView, TableView
from controller.view.results import ResultSheet, build_sheet, place_words
from display import theme
from display.generic import game_json, player_name
from display.layout import Layout
from display.screen_parts import centred_lines, game_title
from display.theme import Painter

Row = tuple[Words, Sequence[int | None]]


def table_size(p: Painter) -> int:
    """The results' smallest type: the small type, never under 1/24 of the short side
    (what a player must read to know the result, read from a chair)."""
    return max(p.metrics.small, -(-p.metrics.unit // 24))


def results_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    """A seat's panel on the results screen: its place and its total with the unit."""
    if seat.player is None:
        centred_lines(p, rect, [(say("did not play"), theme.TEXT_DIM, p.metrics.small, False)])
        return
    sheet = sheet_of(view)
    player = seat.player
    if player >= len(sheet.totals):
        centred_lines(
            p, rect, [(say("Total {total}", total=Verbatim("-")), theme.TEXT, p.metrics.big, True)]
        )
        return
    place = place_words(sheet.places[player], sheet.tied(player))
    lines: list[tuple[Words, theme.Colour, int, bool]] = []
    if sheet.places[player] == 1:
        won = say("WINNER (shared)") if sheet.tied(player) else say("WINNER")
        lines.append((won, theme.WINNER, p.metrics.big, True))
    else:
        lines.append((place, theme.TEXT, p.metrics.big, True))
    lines.append((sheet.amounts[player], theme.TEXT, p.metrics.big, True))
    centred_lines(p, rect, lines)


def sheet_of(view: TableView) -> ResultSheet:
    """The view's sheet, or one read from the report (or the last snapshot) alone."""
    if view.result_sheet is not None:
        return view.result_sheet
    report = view.result or game_json(view.game)
    return build_sheet(report, rule=view.result_rule, addends=view.result_rows)


def fit_rounds(rounds: Sequence[Row], room: int, page: int = 0) -> list[Row]:
    """Rounds for at most ``room`` rows, so the totals always add up on screen.

    All of them when they fit. Otherwise a page of rounds (``page`` wraps round)
    between one row summing the rounds before it and one summing those after, so
    every round is shown in turn. With too little room even for that,
    consecutive rounds merge into groups.
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


def round_pages(rounds: int, room: int) -> int:
    """How many pages ``fit_rounds`` turns through for ``rounds`` rounds in ``room`` rows."""
    if rounds <= room or room < 3:
        return 1
    return -(-rounds // (room - 2))


def _rounds(first: int, last: int) -> Words:
    return say("Rounds {first}-{last}", first=first, last=last)


def _summed(group: Sequence[Row], name: Words) -> tuple[Words, list[int | None]]:
    if len(group) == 1:
        return group[0][0], list(group[0][1])
    players = max(len(values) for _, values in group)
    return name, [sum(v[i] or 0 for _, v in group if i < len(v)) for i in range(players)]


# --- the pages under the heading ----------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """One page of the sheet: its heading and either a score table (a column per player,
    ``rows``, the last one bold when ``summed``) or lines of words (``lines``)."""

    heading: Words
    rows: tuple[Row, ...] = ()
    summed: bool = False
    lines: tuple[Words, ...] = ()
    places: tuple[tuple[Words, Words, Words, bool], ...] = ()  # place, seat, amount, won
    # Each name on a line of its own under its place and amount, where a place as wide
    # as "3. Rang (geteilt)" would leave the names no room beside it (a centre turned a
    # quarter): each standing takes two lines.
    stacked: bool = False
    count: Words | None = None  # "page 2/5" beside the heading, where the title left


def sheet_pages(
    p: Painter, sheet: ResultSheet, view: TableView, room: int, width: int
) -> list[Page]:
    """The sheet cut into pages of at most ``room`` rows under a page's heading.

    The places come first, then the rounds with their total (paged so every
    round comes round, the rounds before and after a page summed so the total
    still adds up), the rows that add up another way, the counts (apart, under
    their own heading: they do not add up), and the rounds in words.
    """
    size = table_size(p)
    pages: list[Page] = []
    ranked = sorted(range(len(sheet.totals)), key=lambda player: (sheet.places[player], player))
    standings = [
        (
            place_words(sheet.places[player], sheet.tied(player)),
            player_name(view, player),
            sheet.amounts[player],
            sheet.places[player] == 1,
        )
        for player in ranked
    ]
    stacked = places_stacked(p, standings, width)
    per_page = max(1, room // 2 if stacked else room)
    for first in range(0, len(standings), per_page):
        chunk = tuple(standings[first : first + per_page])
        pages.append(Page(say("Places"), places=chunk, stacked=stacked))
    table_room = max(1, room - 1)  # the player names take the first line of a table
    total: Row = (say("Total"), sheet.totals)
    if sheet.rounds:
        heading = say("Round by round, in {unit}", unit=as_arg(sheet.unit))
        rows = table_room - 1  # the total takes the last row
        if rows >= 3 or len(sheet.rounds) <= rows:
            # A page of rounds between the sums of those before and after: it adds up.
            for page in range(round_pages(len(sheet.rounds), rows)):
                shown = fit_rounds(sheet.rounds, rows, page)
                pages.append(Page(heading, rows=(*shown, total), summed=True))
        else:
            # Too short for the sums around a page (800x480 under a long rule): each
            # round on a page of its own rather than rounds merged out of sight.
            for first in range(0, len(sheet.rounds), max(1, rows)):
                shown = list(sheet.rounds[first : first + max(1, rows)])
                pages.append(Page(heading, rows=(*shown, total), summed=True))
    if sheet.addends:
        heading = say("What the {unit} are made of", unit=as_arg(sheet.unit))
        pages += _table_pages(heading, [*sheet.addends, total], table_room, summed=True)
    if sheet.counts:
        pages += _table_pages(say("Counts (not added up)"), list(sheet.counts), table_room)
    if sheet.notes:
        # A round's lines stay together on a page; a page holds as many rounds as fit.
        lines_of_page: list[str] = []
        for note in sheet.notes:
            lines = p.wrap(note, size, width)
            if lines_of_page and len(lines_of_page) + len(lines) > room:
                pages.append(Page(say("Each round"), lines=tuple(lines_of_page)))
                lines_of_page = []
            lines_of_page += lines
        if lines_of_page:
            pages.append(Page(say("Each round"), lines=tuple(lines_of_page)))
    return pages


def places_stacked(
    p: Painter, standings: Sequence[tuple[Words, Words, Words, bool]], width: int
) -> bool:
    """Whether the places page puts each name under its place (``Page.stacked``): where
    the widest place and amount beside each other leave a name less than a third of
    ``width``."""
    if not standings:
        return False
    size = table_size(p)
    place_w, amount_w = _places_columns(p, standings, size)
    return width - place_w - amount_w - p.metrics.pad < width // 3


def _places_columns(
    p: Painter, standings: Sequence[tuple[Words, Words, Words, bool]], size: int
) -> tuple[int, int]:
    """The widths of the places' place column (with its gap) and amount column."""
    place_w = max(p.measure(p.words(row[0]), size, True) for row in standings) + 2 * p.metrics.pad
    amount_w = max(p.measure(p.words(row[2]), size) for row in standings)
    return place_w, amount_w


def _table_pages(
    heading: Words, rows: Sequence[Row], room: int, summed: bool = False
) -> list[Page]:
    """``rows`` in pages of ``room`` rows; a summed table's total ends its last page."""
    out: list[Page] = []
    for first in range(0, len(rows), room):
        chunk = tuple(rows[first : first + room])
        out.append(Page(heading, rows=chunk, summed=summed and first + room >= len(rows)))
    return out


def results_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    # The whole game on one screen: the title, who won in words, the rule that decided
    # it (never left out), then a page of the sheet, whose number says there are more.
    m = p.metrics
    size = table_size(p)
    line = m.leading(size) + m.pad // 2
    sheet = sheet_of(view)
    title = say("Results: {game}", game=as_arg(game_title(view)))
    rule = p.wrap(sheet.rule, size, rect.w) if sheet.rule else []
    winner_size, winner_lines = winner_fit(p, sheet.winner, rect.w)
    winner_height = len(winner_lines) * m.leading(winner_size)
    rule_height = len(rule) * m.leading(size)
    # The sheet wants its page heading, a table's names and two rows under the rule.
    # A short centre (800x480, the 7-inch screen) gives way: first the title goes
    # (each panel says the game is over, the winner line says who won), then the
    # rule takes the sheet's first page; the rule is never left out.
    wanted = 4 * line
    # The title on two lines where one would cut it (a centre turned a quarter): room
    # for the widest page count beside its first line.
    widest_count = say("page {page}/{pages}", page=9, pages=9)
    title_width = rect.w - p.measure(p.words(widest_count), size) - 2 * m.pad
    title_lines = p.wrap(title, size, title_width, bold=True)
    title_height = len(title_lines) * line + m.pad
    titled = (
        len(title_lines) <= 2
        and rect.h - (title_height + winner_height + rule_height + m.pad) >= wanted
    )
    heading = (title_height if titled else 0) + winner_height
    rule_apart = bool(rule) and rect.h - heading - rule_height - m.pad < wanted
    if not rule_apart:
        heading += rule_height
    room = max(1, (rect.h - heading - m.pad) // line - 1)
    pages = sheet_pages(p, sheet, view, room, rect.w)
    if rule_apart:
        why = [Page(say("Why"), lines=tuple(rule[i : i + room])) for i in range(0, len(rule), room)]
        pages = [*why, *pages]
        rule = []
    at = view.results_page % len(pages) if pages else 0
    page = pages[at] if pages else None
    count = say("page {page}/{pages}", page=at + 1, pages=len(pages))
    count_width = p.measure(p.words(count), size) if len(pages) > 1 else 0
    y = rect.top
    if titled:
        for piece in title_lines:
            _line(p, piece, (rect.left, y), size, theme.TEXT, title_width, bold=True)
            y += line
        y += m.pad
    elif page is not None:
        page = replace(page, count=count if count_width else None)
    if titled and count_width:
        p.text(count, (rect.right, rect.top), size, theme.TEXT_DIM, anchor="topright")
    for piece in winner_lines:
        p.text(piece, (rect.left, y), winner_size, theme.WINNER, bold=True)
        y += m.leading(winner_size)
    for piece in rule:
        p.text(piece, (rect.left, y), size, theme.TEXT_DIM)
        y += m.leading(size)
    if page is not None:
        _draw_page(
            p, pygame.Rect(rect.left, y + m.pad, rect.w, rect.bottom - y - m.pad), view, sheet, page
        )


def winner_fit(p: Painter, winner: Words, width: int) -> tuple[int, list[str]]:
    """The winner line's type and lines: bold body type on two lines at most, else the
    results' own type on as many lines as it takes (never shrunk below it, never cut)."""
    lines = p.wrap(winner, p.metrics.body, width, bold=True)
    if len(lines) <= 2:
        return p.metrics.body, lines
    return table_size(p), p.wrap(winner, table_size(p), width, bold=True)


def _line(
    p: Painter,
    text: Words,
    pos: tuple[int, int],
    size: int,
    colour: theme.Colour,
    width: int,
    *,
    bold: bool = False,
    anchor: str = "topleft",
) -> pygame.Rect:
    """One line at ``size`` exactly, ended with "…" when wider than ``width`` (never shrunk:
    the results keep their type)."""
    shown = p.words(text)
    if p.measure(shown, size, bold) > width:
        shown = p.ellipsis(shown, size, width, bold)
    return p.text(shown, pos, size, colour, bold=bold, anchor=anchor)


def _draw_page(
    p: Painter, rect: pygame.Rect, view: TableView, sheet: ResultSheet, page: Page
) -> None:
    m = p.metrics
    size = table_size(p)
    line = m.leading(size) + m.pad // 2
    count_width = 0
    if page.count is not None:
        count_width = p.measure(p.words(page.count), size) + 2 * m.pad
        p.text(page.count, (rect.right, rect.top), size, theme.TEXT_DIM, anchor="topright")
    _line(p, page.heading, (rect.left, rect.top), size, theme.TURN, rect.w - count_width, bold=True)
    top = rect.top + line
    if page.places and page.stacked:
        # Place and amount on one line, the name under them, set in a little.
        for index, (place, name, amount, won) in enumerate(page.places):
            y = top + 2 * index * line
            colour = theme.WINNER if won else theme.TEXT
            amount_w = p.measure(p.words(amount), size)
            _line(p, place, (rect.left, y), size, colour, rect.w - amount_w - m.pad, bold=True)
            p.text(amount, (rect.right, y), size, colour, anchor="topright")
            _line(p, name, (rect.left + 2 * m.pad, y + line), size, colour, rect.w - 2 * m.pad)
        return
    if page.places:
        place_w, amount_w = _places_columns(p, page.places, size)
        name_w = rect.w - place_w - amount_w - m.pad
        for index, (place, name, amount, won) in enumerate(page.places):
            y = top + index * line
            colour = theme.WINNER if won else theme.TEXT
            _line(p, place, (rect.left, y), size, colour, place_w, bold=True)
            _line(p, name, (rect.left + place_w, y), size, colour, name_w)
            p.text(amount, (rect.right, y), size, colour, anchor="topright")
        return
    if page.lines:
        for index, piece in enumerate(page.lines):
            p.text(piece, (rect.left, top + index * line), size, theme.TEXT)
        return
    _draw_table(p, pygame.Rect(rect.left, top, rect.w, rect.bottom - top), view, sheet, page)


def _draw_table(
    p: Painter, rect: pygame.Rect, view: TableView, sheet: ResultSheet, page: Page
) -> None:
    """A score table at the sheet's type: a column per player (named on top), a row per
    (heading, values); a summed table's last row (the total) in bold."""
    m = p.metrics
    size = table_size(p)
    line = m.leading(size) + m.pad // 2
    players = len(sheet.totals)
    if players == 0:
        return
    winners = {player for player, place in enumerate(sheet.places) if place == 1}
    head_w = min(
        round(rect.w * 0.3), max(p.measure(p.words(h), size) for h, _ in page.rows) + m.pad
    )
    col_w = (rect.w - head_w) // players
    for player in range(players):
        right = rect.left + head_w + (player + 1) * col_w - m.pad
        colour = theme.WINNER if player in winners else theme.TEXT_DIM
        name = player_name(view, player)
        _line(
            p,
            name,
            (right, rect.top),
            size,
            colour,
            col_w - m.pad,
            bold=player in winners,
            anchor="topright",
        )
        for index, (_, values) in enumerate(page.rows):
            # A summed table's last row is its total: bold, and gold for the winners.
            total = page.summed and index == len(page.rows) - 1
            shown = values[player] if player < len(values) else None
            look = theme.WINNER if total and player in winners else theme.TEXT
            where = (right, rect.top + (index + 1) * line)
            p.text(
                "-" if shown is None else str(shown),
                where,
                size,
                look,
                bold=total,
                anchor="topright",
            )
    for index, (heading, _) in enumerate(page.rows):
        y = rect.top + (index + 1) * line
        if page.summed and index == len(page.rows) - 1:
            p.fill(theme.TEXT_DIM, pygame.Rect(rect.left, y - 1, rect.w, 1))  # a sum's rule
        _line(p, heading, (rect.left, y), size, theme.TEXT_DIM, head_w - m.pad)
