"""The results screen: who won and by which rule, every round, and totals that add up.

Each seat's panel body says whether it won and its total; the centre holds
the whole game's score table, its rounds paged or merged into groups when
they do not all fit (``fit_rounds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from controller.games.words import Items, Player, Verbatim, Words, as_arg, say
from controller.view import SeatView, TableView
from display import theme
from display.generic import (
    draw_score_table,
    draw_status,
    game_json,
    int_list,
    score_table_height,
    status_height,
)
from display.layout import Layout
from display.screen_parts import centred_lines, game_title, messages_below
from display.theme import Painter


def results_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    if seat.player is None:
        centred_lines(p, rect, [(say("did not play"), theme.TEXT_DIM, p.metrics.small, False)])
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
    centred_lines(p, rect, lines)


def _report(view: TableView) -> Mapping[str, Any]:
    """The final report, or what the last snapshot says when the table gave no report."""
    return view.result or game_json(view.game)


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


def results_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    # The whole game on one screen: who won and by which rule, every round (merged
    # into groups when they do not fit), the rows that show why, and totals that add up.
    m = p.metrics
    report = _report(view)
    title = say("Results: {game}", game=as_arg(game_title(view)))
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
    head = p.centred_text(title, rect, rect.top, title_size, theme.TEXT, bold=True)
    y = head.bottom + m.pad
    if said is not None:
        y += draw_status(p, pygame.Rect(rect.left, y, rect.w, rect.h), said, theme.WINNER)
    for piece in rule:
        y = p.centred_text(piece, rect, y, m.small, theme.TEXT_DIM).bottom
    width = min(rect.w, round(m.unit * 0.9))
    table = pygame.Rect(rect.centerx - width // 2, y + m.pad, width, rect.bottom - y - m.pad)
    size = _results_table_size(p, table.h, len(rounds), len(tail))
    line = score_table_height(p, 1, size) // 2
    room = table.h // line - 1 - len(tail)
    columns = [*fit_rounds(rounds, room, view.results_page), *tail]
    used = draw_score_table(p, table, view, columns, winners=winners, size=size)
    if rect.bottom - (table.top + used) >= round(m.small * 2.6):
        messages_below(p, rect, table.top + used + m.pad, view)


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
