"""Game history from the journal: the list of games, CSV export, and game records.

``summaries`` lists the journal's games (finished ones by default), in the
journal's order (its game numbers, never the clock), with date, game, seats
and scores; ``history_lines`` shows them as text rows (the staff
menu's history screen and the ``history`` command) through a presenter: in
the reader's language, dates the language's way, seats counted from 1.
``write_csv`` exports them as data (English column names and the record
format's 0-based seats, like the JSON records, whatever the language);
a time stamped by a clock not set (a Pi before NTP: 1970, see
``controller.records.clock``) is shown as "clock not set" (after the date of
the latest earlier game whose clock was set) and left empty in the CSV, whose
``clock_set`` column says so;
``export_record`` writes any journaled game, finished or not, as a
``table-record/1`` record (``shared/spec/game-record.md``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import datetime
from typing import TextIO

from controller.games import spec_of
from controller.games.base import JSON, TableError
from controller.games.words import Items, Seat, Text, Verbatim, Words, as_arg, say
from controller.records.clock import trusted_wall
from controller.records.journal import ABANDONED, FINISHED, PLAYING, GameRow, Journal
from controller.records.record import dumps, replay
from controller.words import Presenter
from controller.words.terminal import columns, pad

ENGLISH = Presenter()

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
    "clock_set",
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
    variant_words: Words = ""  # the same, as a message for a person in any language
    finished_synced: bool | None = None  # whether the end's clock was synchronised; None: unknown

    @property
    def date(self) -> str:
        """When the game ended (or began, if it has not), as "YYYY-MM-DD HH:MM"."""
        stamp = self.finished or self.started
        return stamp[:16].replace("T", " ")

    @property
    def when(self) -> datetime | None:
        """When the game ended (or began), or None for a stamp that is not a date."""
        try:
            return datetime.fromisoformat(self.finished or self.started)
        except ValueError:
            return None

    @property
    def started_trusted(self) -> bool:
        """Whether the start's stamp is a believable date (not a clock not set)."""
        return trusted_wall(self.started, None) is not None

    @property
    def finished_trusted(self) -> bool:
        """Whether the end's stamp is a believable date: synchronised and not 1970."""
        return trusted_wall(self.finished, self.finished_synced) is not None

    @property
    def clock_set(self) -> bool:
        """Whether every stamp the game has (its start, its end if over) can be believed."""
        return self.started_trusted and (self.finished is None or self.finished_trusted)


class HistoryError(TableError):
    """A history request that cannot be met (e.g. no such game); the message says why."""


# Games the staff desk's history shows: the latest, as many as a screen holds and more.
# Summarizing all of a year's journal (8,192 games) took 1.9 s here, the loop stopped.
DESK_HISTORY = 30


def summaries(
    journal: Journal, statuses: tuple[str, ...] = (FINISHED,), latest: int | None = None
) -> list[GameSummary]:
    """The journal's games with one of ``statuses``, oldest first; with ``latest``, the
    last that many only."""
    return [summarize(journal, row) for row in journal.games(statuses, latest)]


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
        variant_words = spec.variant_words(options) if isinstance(options, dict) else ""
    except TableError:
        title, variant, variant_words = row.game, "", ""
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
        variant_words=variant_words,
        finished_synced=row.finished_synced,
    )


def export_record(journal: Journal, game_id: int) -> str:
    """The game's ``table-record/1`` text, rebuilt from its journal entries (after corrections)."""
    row = journal.game(game_id)
    if row is None:
        known = [g.id for g in journal.games()]
        hint: Text
        if not known:
            hint = say("the journal is empty")
        elif len(known) == 1:
            hint = say("the journal holds game {game} only", game=known[0])
        elif known == list(range(known[0], known[-1] + 1)):
            hint = say("the journal holds games {first} to {last}", first=known[0], last=known[-1])
        else:
            hint = say(
                "the journal holds games {games}",
                games=Verbatim(str(known)),
            )
        raise HistoryError(
            say("there is no game {game} in the journal; {hint}", game=game_id, hint=hint)
        )
    return dumps(row.header, (obj for obj, _ in journal.actions(game_id)))


def history_lines(games: list[GameSummary], present: Presenter = ENGLISH) -> list[str]:
    """The history as aligned text rows, a heading first: for the terminal.

    The cells of :func:`history_table`, padded to their columns' widths.
    """
    if not games:
        return [present(say("No games yet."))]
    rows = history_table(games, present)
    widths = [max(columns(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(pad(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def history_table(games: list[GameSummary], present: Presenter = ENGLISH) -> list[tuple[str, ...]]:
    """The history as rows of cells, the column names first (the staff desk draws them).

    Written for people in ``present``'s language: dates the language's way,
    seats counted from 1 (the seats column lists them as numbers under its
    heading), winners named as seats.
    """
    heading = (
        "#",
        say("date"),
        say("game"),
        say("seats"),
        say("scores"),
        say("winner"),
        say("status"),
    )
    rows = [tuple(present(word) for word in heading)]  # "#" is a symbol: the same in every language
    latest_set: datetime | None = None  # the latest date so far whose clock was set
    for game in games:
        when = game.when
        if when is None:
            date = game.date  # not a date at all: shown as the journal holds it
        elif game.finished_trusted if game.finished is not None else game.started_trusted:
            date, latest_set = present.date(when, "short"), when
        else:
            date = present(_clock_not_set(present, latest_set))
        rows.append(
            (
                str(game.id),
                date,
                present(_title(game)),
                " ".join(present.number(s + 1) for s in game.seats),
                " ".join(present.number(s) for s in game.scores),
                present.argument(Items(tuple(Seat(s) for s in game.winners)))
                if game.status == FINISHED and game.winners
                else "",
                present(status_words(game.status, game.ended)),
            )
        )
    return rows


def status_words(status: str, ended: str = "") -> Words:
    """A journal status ("finished", "playing", "abandoned") in words, with how it ended."""
    if status == FINISHED and ended == "early":
        return say("finished (early)")
    words = {
        FINISHED: say("finished"),
        PLAYING: say("playing"),
        ABANDONED: say("abandoned"),
    }
    found = words.get(status)
    if found is None:
        return status  # not a status this version writes: shown as the journal holds it
    if ended:
        return say("{status} ({how})", status=found, how=Verbatim(ended))
    return found


def _clock_not_set(present: Presenter, after: datetime | None) -> Words:
    """A date stamped by a clock not set: the journal's order still places the game after
    the games before it, so the latest of those with a true date bounds it."""
    if after is None:
        return say("clock not set")
    return say("clock not set, after {date}", date=Verbatim(present.date(after, "short")))


def _title(game: GameSummary) -> Words:
    if game.variant:
        variant = as_arg(game.variant_words or game.variant)
        return say("{game}: {variant}", game=Verbatim(game.title), variant=variant)
    return game.title  # a game's name, the same in every language


def write_csv(games: list[GameSummary], out: TextIO) -> None:
    """The history as CSV (one row per game; seats, scores and winners space-separated)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in games:
        writer.writerow(
            (
                game.id,
                game.started if game.started_trusted else "",
                game.finished if game.finished is not None and game.finished_trusted else "",
                game.game,
                game.status,
                len(game.seats),
                " ".join(str(s) for s in game.seats),
                " ".join(str(s) for s in game.scores),
                " ".join(str(s) for s in game.winners),
                game.ended,
                game.variant,
                "yes" if game.clock_set else "no",
            )
        )
