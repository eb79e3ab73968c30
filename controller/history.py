"""Game history from the journal: the list of games, CSV export, and game records.

``summaries`` lists the journal's games (finished ones by default) with date,
game, seats and scores; ``history_lines`` shows them as text rows (the staff
menu's history screen and the ``history`` command); ``write_csv`` exports
them; ``export_record`` writes any journaled game, finished or not, as a
``table-record/1`` record (``shared/spec/game-record.md``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from typing import TextIO

from controller.games import spec_of
from controller.games.base import JSON, TableError
from controller.journal import FINISHED, GameRow, Journal
from controller.record import dumps, replay

CSV_COLUMNS = (
    "id",
    "started",
    "finished",
    "game",
    "status",
    "players",
    "seats",
    "scores",
    "winners",
    "ended",
    "variant",
)


@dataclass(frozen=True)
class GameSummary:
    """One line of the history: seats are physical seats; scores and winners follow them."""

    id: int
    game: str
    title: str
    status: str
    started: str
    finished: str | None
    seats: tuple[int, ...]
    scores: tuple[int, ...]  # per seat in ``seats`` order; points, or Oskar tokens
    winners: tuple[int, ...]  # physical seats
    ended: str = ""  # how a finished game ended when not by its rules' last round ("early")
    variant: str = ""  # the variant its options play, e.g. "first to 8 tokens"

    @property
    def date(self) -> str:
        """When the game ended (or began, if it has not), as "YYYY-MM-DD HH:MM"."""
        stamp = self.finished or self.started
        return stamp[:16].replace("T", " ")


class HistoryError(TableError):
    """A history request that cannot be met (e.g. no such game); the message says why."""


def summaries(journal: Journal, statuses: tuple[str, ...] = (FINISHED,)) -> list[GameSummary]:
    """The journal's games with one of ``statuses``, oldest first."""
    return [summarize(journal, row) for row in journal.games(statuses)]


def summarize(journal: Journal, row: GameRow) -> GameSummary:
    """A game's history line; an unfinished game shows its score so far."""
    report: JSON | None = row.report
    if report is None:
        try:
            report = replay(export_record(journal, row.id)).report()
        except TableError:
            report = None  # shown without scores; ``recover`` explains such a game
    totals = [] if report is None else [int(t) for t in report.get("totals", [])]
    winners = [] if report is None else [int(w) for w in report.get("winners", [])]
    try:
        spec = spec_of(row.game)
        title = spec.title
        options = row.header.get("options")
        variant = spec.variant(options) if isinstance(options, dict) else ""
    except TableError:
        title, variant = row.game, ""
    return GameSummary(
        id=row.id,
        game=row.game,
        title=title,
        status=row.status,
        started=row.started,
        finished=row.finished,
        seats=tuple(row.players),
        scores=tuple(totals),
        winners=tuple(row.players[w] for w in winners if 0 <= w < len(row.players)),
        ended="" if report is None else str(report.get("ended", "")),
        variant=variant,
    )


def export_record(journal: Journal, game_id: int) -> str:
    """The game's ``table-record/1`` text, rebuilt from its journal entries (after corrections)."""
    row = journal.game(game_id)
    if row is None:
        known = [g.id for g in journal.games()]
        if not known:
            hint = "the journal is empty"
        elif len(known) == 1:
            hint = f"the journal holds game {known[0]} only"
        else:
            hint = f"the journal holds games {_ranges(known)}"
        raise HistoryError(f"there is no game {game_id} in the journal; {hint}")
    return dumps(row.header, (obj for obj, _ in journal.actions(game_id)))


def history_lines(games: list[GameSummary]) -> list[str]:
    """The history as aligned text rows, a heading first: for the display and the terminal."""
    if not games:
        return ["No games yet."]
    rows = [("#", "date", "game", "seats", "scores", "winner", "status")]
    for game in games:
        rows.append(
            (
                str(game.id),
                game.date,
                f"{game.title}: {game.variant}" if game.variant else game.title,
                " ".join(str(s) for s in game.seats),
                " ".join(str(s) for s in game.scores),
                ", ".join(f"seat {s}" for s in game.winners) if game.status == FINISHED else "",
                f"{game.status} ({game.ended})" if game.ended else game.status,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def write_csv(games: list[GameSummary], out: TextIO) -> None:
    """The history as CSV (one row per game; seats, scores and winners space-separated)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in games:
        writer.writerow(
            (
                game.id,
                game.started,
                game.finished or "",
                game.game,
                game.status,
                len(game.seats),
                " ".join(str(s) for s in game.seats),
                " ".join(str(s) for s in game.scores),
                " ".join(str(s) for s in game.winners),
                game.ended,
                game.variant,
            )
        )


def _ranges(ids: list[int]) -> str:
    return f"{ids[0]} to {ids[-1]}" if ids == list(range(ids[0], ids[-1] + 1)) else str(ids)
