"""The durable game journal: every accepted input is on disk before anyone sees it.

The table (``controller.table.Table``) calls a ``JournalSink`` *before* it
updates messages, LEDs or the display. ``Journal`` is that sink, kept in one
SQLite file (standard library ``sqlite3``, WAL mode, ``synchronous=FULL``, one
transaction per entry), so a crash or a power cut loses at most the input
whose effect nobody has seen yet.

What the file holds (schema version ``SCHEMA_VERSION``):

- ``meta``: the schema version, when the file was created and the table's
  configuration as last opened;
- ``games``: one row per game: the game id, the physical seats in engine
  order, the record header, the virtual deck's seed, a snapshot of the
  table's configuration, start and end (wall clock, steady clock and boot),
  and a status (``playing``, ``finished``, ``abandoned``); a finished game
  also keeps its report, record text and how long it was played (``played``,
  seconds from the steady clock);
- ``entries``: per game, numbered from 1: ``action`` (a player's action),
  ``chance`` (a dealt hand, derived from the seed; a whole deal is written in
  one transaction) or ``correction`` (staff's ``undo`` or ``abandon``), each
  as JSON with its wall-clock time, steady time and boot.

Honest time (``controller.records.clock``): a stamp holds the wall clock, which
a Pi without a real-time clock may have at 1970 until NTP sets it, beside
``CLOCK_BOOTTIME`` and the boot id. When the wall clock has jumped since the
open game's last stamp of this boot, the game's stamps of this boot are
rewritten from the steady clock (``Journal._stamp``); how long a game lasted
comes from steady readings within a boot (``Journal.elapsed``), never from
two wall-clock times.

Nothing of a game in play is ever deleted: an undo is a new ``correction``
entry, and ``Journal.actions`` replays the entries through the corrections to
give the game's actions as they stand. Finished games leave the journal only
after the retention (``[journal] retention``, ``controller.records.retention``)
and only once exported. A file that is not a journal, fails SQLite's
integrity check or has a schema this table does not know is moved aside to a
timestamped name (never deleted) and the table starts a fresh one;
``Journal.notices`` then holds the message for staff. A journal of an older
schema is migrated in place (``_migrate``). Everything else that stops the journal (a full
disk, a read-only disk, missing permissions, a path that cannot be a file,
another kiosk writing it) is ``JournalUnavailable``: the file is left exactly
as it is, the message says how to fix the cause, and the game resumes once it
is fixed.

One writer: ``Journal.open`` takes an exclusive ``fcntl.flock`` on
``<journal>.lock`` beside the file and holds it until ``close``; a second
kiosk on the same journal is refused (``JournalLocked``) with the first one's
process id.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import errno
import fcntl
import itertools
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeAlias

from controller.config.reading import path_problem
from controller.config.table_config import TableConfig
from controller.games import engine_class
from controller.games.base import JSON, Engine, TableError
from controller.records.clock import EARLIEST_TRUE, Stamp, TableClock
from controller.records.journal_check import OPEN_MARK, left_open, page_problems
from controller.records.record import replay_actions, undo_last_player_action

if TYPE_CHECKING:
    pass

logger = logging.getLogger(__name__)

KeepAlive: TypeAlias = Callable[[], None] | None
"""Called every few seconds of a long check at start (the kiosk: systemd's EXTEND_TIMEOUT)."""

JOURNAL_NAME = "journal.sqlite3"
SCHEMA_VERSION = 2  # 2: steady time, boot and clock trust beside every wall-clock stamp
APPLICATION_ID = 0x43414645  # "CAFE": marks the file as this table's journal

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
STATUSES = (PLAYING, FINISHED, ABANDONED)
ACTION, CHANCE, CORRECTION = "action", "chance", "correction"
STAFF_LOG, STAFF_LOG_LIMIT = "staff-log", 200  # meta key of the staff security events
PENDING_CUT = "cut-for-the-deal"  # meta key of a cut in progress (before its game exists)

# Schema 2's columns, added to a schema-1 journal by ``_migrate`` (NULL in its old rows):
# steady readings are CLOCK_BOOTTIME seconds, meaningful with their boot id; finished_synced
# is 1 when the end's wall time came from a synchronised clock; played is the seconds a
# finished game was played, by the steady clock.
_NEW_COLUMNS = {
    "games": (
        "started_steady REAL",
        "started_boot TEXT",
        "finished_steady REAL",
        "finished_boot TEXT",
        "finished_synced INTEGER",
        "played REAL",
    ),
    "entries": ("steady REAL", "boot TEXT"),
}
_GAME_TIME_COLUMNS = ",\n    ".join(_NEW_COLUMNS["games"])
_ENTRY_TIME_COLUMNS = ",\n    ".join(_NEW_COLUMNS["entries"])

_SCHEMA = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,            -- JSON list: physical seat of each engine seat
    header TEXT NOT NULL,             -- JSON: the table-record/1 header
    seed INTEGER NOT NULL,            -- the virtual deck's deals derive from it
    config TEXT NOT NULL,             -- JSON snapshot of the table's configuration
    status TEXT NOT NULL CHECK (status IN ('{PLAYING}', '{FINISHED}', '{ABANDONED}')),
    started TEXT NOT NULL,            -- ISO 8601 wall-clock time with offset
    finished TEXT,                    -- when it finished or was abandoned
    report TEXT,                      -- JSON replay report of a finished game
    record TEXT,                      -- the record text the table wrote at the end
    {_GAME_TIME_COLUMNS}
);
CREATE TABLE entries (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('{ACTION}', '{CHANCE}', '{CORRECTION}')),
    data TEXT NOT NULL,               -- JSON: the action, or the correction's kind and detail
    at TEXT NOT NULL,
    {_ENTRY_TIME_COLUMNS},
    PRIMARY KEY (game, seq)
);
"""
# The game to resume is the latest still playing: without this index, finding it read
# every game's row (0.1 s with five years of play, twice before READY=1). Journals made
# before it get it when the kiosk first opens them (a one-time scan).
_STATUS_INDEX = "CREATE INDEX IF NOT EXISTS games_status ON games (status, id)"
_TABLES = {"meta", "games", "entries"}
_RECORDS_FROM = "records-tracked-from"  # meta: the first game whose record file is tracked
_UNSYNCED_BOOTS = "unsynced-boots"  # meta: JSON list of boots that stamped on a clock not set
_UNSYNCED_BOOTS_KEPT = 16  # only the open game's boots matter; a few restarts' worth


def _record_key(game_id: int) -> str:
    """The meta key that notes where a finished game's record file was saved."""
    return f"record-file:{game_id}"


class JournalError(TableError):
    """The journal cannot be read or written; the message says what to do."""


class JournalDamaged(JournalError):
    """The file is not a usable journal (not SQLite, corrupt, or another schema)."""


class JournalUnavailable(JournalError):
    """The journal cannot be used here and now, though it is not damaged.

    A full disk, a read-only disk, missing permissions, a path that cannot be
    a journal file: the file is never moved for these, and the message says
    what to fix; once fixed, the next start resumes the game.
    """


class JournalDiskFull(JournalUnavailable):
    """The disk holding the journal is full: a fault that passes once space is freed."""


class JournalLocked(JournalUnavailable):
    """Another process (named in the message) holds the journal's writer lock."""


@dataclass(frozen=True)
class GameRow:
    """One game as the journal keeps it."""

    id: int
    game: str
    players: list[int]
    header: JSON
    seed: int
    config: JSON
    status: str
    started: str
    finished: str | None
    report: JSON | None
    record: str | None
    played: float | None = None  # seconds, steady clock; None before it finished (or schema 1)
    finished_synced: bool | None = None  # None: not known (finished under schema 1)


@dataclass(frozen=True)
class Entry:
    """One journal entry of a game, in order."""

    game: int
    seq: int
    kind: str
    data: JSON
    at: str
    steady: float | None = None  # None: written under schema 1
    boot: str | None = None


def default_path(config: TableConfig) -> Path:
    """Where the kiosk keeps its journal: ``journal.sqlite3`` in the records folder."""
    return config.records / JOURNAL_NAME


def config_snapshot(config: TableConfig | None) -> str:
    """The configuration as JSON text, to keep with every game."""
    if config is None:
        return "{}"
    return json.dumps(dataclasses.asdict(config), default=str, sort_keys=True)


def _local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def _as_table_clock(clock: Callable[[], dt.datetime] | TableClock | None) -> TableClock:
    """The table's real clocks (None), or a bare wall clock (the tests' frozen one) as its
    own steady clock: it never jumps."""
    if clock is None:
        return TableClock()
    if isinstance(clock, TableClock):
        return clock
    return TableClock(
        wall=clock, steady=lambda: clock().timestamp(), boot=lambda: "wall", synced=lambda: True
    )


class Journal:
    """The table's journal file; a ``JournalSink`` for ``Table(journal=...)``.

    Make one with ``Journal.open`` (the kiosk: creates the file, moves a damaged
    one aside) or ``Journal.open_existing`` (commands that only read: never
    creates, moves or repairs anything).
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        config: TableConfig | None = None,
        clock: Callable[[], dt.datetime] | TableClock | None = None,
    ) -> None:
        self._db = connection
        self.path = path
        self.config = config
        self.time = _as_table_clock(clock)
        self.clock = self.time.wall  # the wall clock alone (the PIN lock's time, file names)
        self.notices: list[str] = []  # messages for staff, e.g. "the journal was moved aside"
        self._lock: JournalLock | None = None  # held by a journal opened to write (the kiosk)
        self._current: int | None = self._latest_playing()
        # The open game's latest stamp: the next one tells whether the wall clock jumped.
        self._last_stamp: tuple[int, Stamp] | None = self._load_last_stamp()
        # Boots whose stamps were taken on a clock not synchronised (see _place_earlier_boots).
        self._unsynced_boots: list[str] = self._load_unsynced_boots()
        self._earlier_boots_placed: int | None = None  # the game they were placed for

    # --- opening ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path,
        config: TableConfig | None = None,
        *,
        clock: Callable[[], dt.datetime] | TableClock | None = None,
        keep_alive: KeepAlive = None,
    ) -> Journal:
        """Open (or create) the journal at ``path`` for the kiosk, holding its writer lock.

        After a clean stop SQLite checks the file for a second at most, after an
        unclean one in full, calling ``keep_alive`` every few seconds of it
        (``controller.records.journal_check``); the journal is marked open until ``close``.

        A damaged file is moved aside and a fresh journal is started; the
        message for staff is in ``notices`` (and in the log). Anything else
        that stops it (full or read-only disk, permissions, a bad path, another
        kiosk) raises ``JournalUnavailable`` and leaves the file untouched.
        """
        path = Path(path)
        lock = JournalLock.acquire(path)
        connection: sqlite3.Connection | None = None
        try:
            notices: list[str] = []
            try:
                connection = _connect(path, create=True, quick=True, keep_alive=keep_alive)
            except JournalDamaged as exc:
                notices.append(_move_aside(path, str(exc), _as_table_clock(clock).wall()))
                connection = _connect(path, create=True)
            journal = cls(connection, path, config, clock)
            journal._lock = lock
            journal.notices = notices
            journal._set_meta("config", config_snapshot(config))
            journal._set_meta(OPEN_MARK, "1")  # cleared by close(): else the next check is full
            if journal.meta(_RECORDS_FROM) is None:
                # Record files are tracked from here on; older games had theirs
                # written before the journal kept track.
                rows = journal._query("SELECT COALESCE(MAX(id), 0) + 1 AS n FROM games", ())
                journal._set_meta(_RECORDS_FROM, str(rows[0]["n"]))
        except BaseException:
            if connection is not None:
                connection.close()
            lock.release()
            raise
        return journal

    @classmethod
    def open_existing(cls, path: Path, *, writer: str | None = None) -> Journal:
        """Open a journal to read it; JournalError if it is missing or damaged.

        Never creates, moves or repairs anything. With ``writer`` (who writes,
        e.g. "recover") it also takes the writer lock, as a command that
        writes must: JournalLocked if a kiosk holds it.
        """
        path = Path(path)
        if not path.exists():
            raise JournalError(
                f"there is no journal at {path}; the kiosk creates it when it starts "
                "(use --journal FILE to name another one)"
            )
        if path.is_dir():
            raise JournalError(f"{path} is a folder, not a journal file")
        lock = None if writer is None else JournalLock.acquire(path, writer)
        try:
            journal = cls(_connect(path, create=False), path)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        journal._lock = lock
        return journal

    def close(self) -> None:
        """Close the file and release the writer lock; safe to call twice."""
        if self._kiosk_open():
            try:
                self._set_meta(OPEN_MARK, "0")  # a clean stop: the next start checks quickly
            except JournalError as exc:  # a full disk: the next start checks in full
                logger.info("could not mark the journal closed: %s", exc)
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _kiosk_open(self) -> bool:
        """Whether this process marked the journal open (and has not closed it yet)."""
        try:
            return self._lock is not None and left_open(self._db)
        except sqlite3.Error:  # closed already, or unreadable: nothing to mark
            return False

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def backup(self, target: Path) -> None:
        """Copy the journal, consistently, to ``target`` (safe while the table writes to it)."""
        with sqlite3.connect(target) as copy:
            self._db.backup(copy)
        copy.close()

    def move_aside(self, reason: str) -> str:
        """Move this journal's file aside (kept, never deleted) and carry on with a fresh one.

        For a journal whose unfinished game no longer replays. Returns the
        message for staff, which is also added to ``notices``.
        """
        self._db.close()
        message = _move_aside(self.path, reason, self.clock())
        self._db = _connect(self.path, create=True)
        self._current = None
        self._set_meta("config", config_snapshot(self.config))
        self.notices.append(message)
        return message

    # --- the JournalSink the table writes to -----------------------------------------

    def game_started(self, game_id: str, players: list[int], header: JSON, seed: int) -> None:
        with self._write():
            if self._current is not None and self._current == self._latest_playing():
                # The table started a new game without resuming this one: say so, keep it.
                self._append(
                    self._current,
                    CORRECTION,
                    {"kind": "abandon", "reason": "a new game started before it was resumed"},
                )
                self._set_status(self._current, ABANDONED)
            now = self.time.stamp()
            if not now.synced:
                self._note_unsynced_boot(now.boot)
            cursor = self._db.execute(
                "INSERT INTO games (game, players, header, seed, config, status, started,"
                " started_steady, started_boot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    _dump(players),
                    _dump(header),
                    seed,
                    config_snapshot(self.config),
                    PLAYING,
                    now.text,
                    now.steady,
                    now.boot,
                ),
            )
            # The game the cut was for has begun: no cut is pending any more.
            self._db.execute("DELETE FROM meta WHERE key = ?", (PENDING_CUT,))
            self._inside_write()
            assert cursor.lastrowid is not None
            self._current = cursor.lastrowid
            self._last_stamp = (cursor.lastrowid, now)

    def action_accepted(self, action: JSON, chance: bool) -> None:
        game = self._require_current("an action")
        with self._write():
            self._append(game, CHANCE if chance else ACTION, action)

    def deal_accepted(self, actions: list[JSON]) -> None:
        """A virtual deal (every hand, any turned card) in one transaction.

        A crash cannot leave half a deal: the journal holds all of it or none,
        and without it the table simply deals again (the same cards, as deals
        derive from the game's seed and length).
        """
        game = self._require_current("a deal")
        with self._write():
            for action in actions:
                self._append(game, CHANCE, action)

    def correction(self, kind: str, detail: JSON) -> None:
        game = self._require_current(f"a staff correction ({kind})")
        with self._write():
            self._append(game, CORRECTION, {"kind": kind, **detail})
            if kind == "abandon":
                self._set_status(game, ABANDONED)
            elif kind == "undo":
                # Undo on the results screen reopens a finished game.
                self._db.execute(
                    "UPDATE games SET status = ?, finished = NULL, report = NULL, record = NULL,"
                    " finished_steady = NULL, finished_boot = NULL, finished_synced = NULL,"
                    " played = NULL WHERE id = ? AND status = ?",
                    (PLAYING, game, FINISHED),
                )
                # Its next end writes a new record file.
                self._db.execute("DELETE FROM meta WHERE key = ?", (_record_key(game),))
        if kind == "abandon":
            self._current = None

    def game_finished(self, record: str, report: JSON) -> None:
        game = self._require_current("the end of a game")
        with self._write():
            now = self._stamp(game)
            self._db.execute(
                "UPDATE games SET status = ?, report = ?, record = ? WHERE id = ?",
                (FINISHED, _dump(report), record, game),
            )
            self._finish_stamp(game, now)
            self._inside_write()
        # Kept as current: staff may still undo on the results screen.

    def record_saved(self, game_id: int, path: Path) -> None:
        """Note that a finished game's record file is on the disk (see ``records_missing``)."""
        self._set_meta(_record_key(game_id), str(path))

    # --- reading ------------------------------------------------------------------------

    def records_missing(self) -> list[GameRow]:
        """Finished games whose record file was never noted saved (a crash came between)."""
        start = self.meta(_RECORDS_FROM)
        first = int(start) if start is not None and start.isdigit() else 1
        rows = self._query(
            "SELECT * FROM games WHERE status = ? AND id >= ? AND NOT EXISTS"
            " (SELECT 1 FROM meta WHERE key = 'record-file:' || games.id) ORDER BY id",
            (FINISHED, first),
        )
        return [_game_row(row) for row in rows]

    def elapsed(self, game_id: int, now: Stamp | None = None) -> float | None:
        """How long the game has been played, in seconds, from the steady clock.

        The sum of the steady time between its consecutive stamps (start, every
        entry, the end) of one boot; time across a restart (the table was off or
        starting) is not counted. A game still playing counts up to ``now`` when
        given. None for a game with no steady stamps (journaled under schema 1).
        """
        rows = self._query(
            "SELECT status, played, started_steady, started_boot, finished_steady, "
            "finished_boot FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            return None
        game = rows[0]
        if game["played"] is not None:
            return float(game["played"])
        readings = [(game["started_steady"], game["started_boot"])]
        readings += [
            (row["steady"], row["boot"])
            for row in self._query(
                "SELECT steady, boot FROM entries WHERE game = ? ORDER BY seq", (game_id,)
            )
        ]
        if game["finished_steady"] is not None:
            readings.append((game["finished_steady"], game["finished_boot"]))
        elif now is not None and game["status"] == PLAYING:
            readings.append((now.steady, now.boot))
        known = [(float(steady), str(boot)) for steady, boot in readings if steady is not None]
        if not known:
            return None
        return sum(
            later - earlier
            for (earlier, boot), (later, next_boot) in itertools.pairwise(known)
            if boot == next_boot and later >= earlier
        )

    # --- retention: old games leave, their space is reclaimed (records.retention) ------------

    def expired_games(
        self, retention: dt.timedelta, now: Stamp, *, hub: bool, limit: int
    ) -> list[int]:
        """Up to ``limit`` games, oldest first, that may leave the journal now.

        A game may leave when it is over (finished or abandoned) and no newer than
        a game whose end, on a synchronised clock, lies more than ``retention``
        ago: its age comes from the journal's order and trusted times only, so
        a game stamped 1970 by a clock not yet set never counts as old, nor does
        anything while the clock is not synchronised now. A finished game must
        also have its record file written (and, with ``hub``, the café's hub must
        have confirmed it has the record). The newest game always stays: game
        numbers, and so record file names, keep counting up from it.
        """
        if not now.synced:
            return []
        cutoff = _text(now.wall - retention)
        rows = self._query(
            "SELECT MAX(id) AS cut FROM games WHERE status IN (?, ?)"
            " AND (finished_synced IS NULL OR finished_synced = 1)"
            " AND julianday(finished) < julianday(?) AND julianday(finished) >= julianday(?)",
            (FINISHED, ABANDONED, cutoff, _text(EARLIEST_TRUE)),
        )
        cut = rows[0]["cut"]
        if cut is None:
            return []
        start = self.meta(_RECORDS_FROM)
        tracked_from = int(start) if start is not None and start.isdigit() else 1
        delivered = (
            "EXISTS (SELECT 1 FROM fleet_outbox WHERE fleet_outbox.game = games.id"
            " AND delivered IS NOT NULL)"
            if hub and self._has_table("fleet_outbox")
            else ("0" if hub else "1")
        )
        rows = self._query(
            "SELECT id, status, (SELECT value FROM meta WHERE key = 'record-file:' || games.id)"
            " AS file FROM games WHERE id <= ? AND id < (SELECT MAX(id) FROM games)"
            f" AND (status = ? OR (status = ? AND {delivered})) ORDER BY id LIMIT ?",
            (cut, ABANDONED, FINISHED, max(0, limit)),
        )
        return [
            int(row["id"])
            for row in rows
            if row["status"] == ABANDONED
            or int(row["id"]) < tracked_from  # its file was written before files were tracked
            or (row["file"] is not None and Path(row["file"]).is_file())
        ]

    def forget(self, games: list[int]) -> None:
        """Delete these games, their entries and what the journal noted of them, at once."""
        if not games:
            return
        marks = ", ".join("?" for _ in games)
        ids = tuple(games)
        with self._write():
            self._db.execute(f"DELETE FROM entries WHERE game IN ({marks})", ids)
            self._db.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)
            self._db.execute(
                f"DELETE FROM meta WHERE key IN ({marks})",
                tuple(_record_key(game) for game in games),
            )
            for table in ("fleet_outbox", "fleet_names"):
                if self._has_table(table):
                    self._db.execute(
                        f"DELETE FROM {table} WHERE game IN ({marks})",
                        ids,
                    )

    def reclaim(self, pages: int) -> int:
        """Give up to ``pages`` free pages back to the file system; how many it gave.

        Only a journal created with incremental auto-vacuum (every journal since
        schema 2) can; an older one reuses its free pages for new games instead.
        """
        if self._pragma("auto_vacuum") != 2 or pages <= 0:  # 2: INCREMENTAL
            return 0
        free = self._pragma("freelist_count")
        try:
            self._db.execute(f"PRAGMA incremental_vacuum({int(pages)})").fetchall()
        except sqlite3.Error as exc:
            raise _sqlite_problem(exc, self.path, "could not compact the game journal") from exc
        return free - self._pragma("freelist_count")

    def _pragma(self, name: str) -> int:
        rows = self._query(f"PRAGMA {name}", ())
        return int(rows[0][0]) if rows else 0

    def _has_table(self, name: str) -> bool:
        return bool(
            self._query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
        )

    def playing_elapsed(self) -> float | None:
        """How long the game in play has been played so far (seconds), or None."""
        game = self._latest_playing()
        return None if game is None else self.elapsed(game, self.time.stamp())

    @property
    def current_game(self) -> int | None:
        """The journal id of the game the table is writing to, if any."""
        return self._current

    def games(
        self, statuses: tuple[str, ...] = STATUSES, latest: int | None = None
    ) -> list[GameRow]:
        """Every game with one of ``statuses``, oldest first; with ``latest``, only the
        last that many (a year's journal holds thousands)."""
        marks = ", ".join("?" for _ in statuses)
        if latest is None:
            rows = self._query(
                f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
            )
        else:
            rows = self._query(
                f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id DESC LIMIT ?",
                (*statuses, max(0, latest)),
            )[::-1]
        return [_game_row(row) for row in rows]

    def game(self, game_id: int) -> GameRow | None:
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    def unfinished(self) -> GameRow | None:
        """The game to resume: the latest one still playing, or None."""
        latest = self._latest_playing()
        return None if latest is None else self.game(latest)

    def entries(self, game_id: int) -> list[Entry]:
        rows = self._query(
            "SELECT game, seq, kind, data, at, steady, boot FROM entries WHERE game = ?"
            " ORDER BY seq",
            (game_id,),
        )
        out = []
        for row in rows:
            data = _load(row["data"], f"entry {row['seq']} of game {game_id}")
            out.append(
                Entry(
                    row["game"],
                    row["seq"],
                    row["kind"],
                    data,
                    row["at"],
                    row["steady"],
                    row["boot"],
                )
            )
        return out

    def actions(self, game_id: int) -> list[tuple[JSON, bool]]:
        """The game's actions as they stand, as (action, chance) for ``Table.resume``.

        Entries are replayed in order; an ``undo`` correction takes back what
        ``Table.undo_last`` took back: the trailing dealt (chance) actions and
        the last player action before them.
        """
        pairs: list[tuple[JSON, bool]] = []
        for entry in self.entries(game_id):
            if entry.kind in (ACTION, CHANCE):
                pairs.append((entry.data, entry.kind == CHANCE))
            elif entry.kind == CORRECTION and entry.data.get("kind") == "undo":
                undone = undo_last_player_action(pairs)
                if undone is None:
                    raise JournalDamaged(
                        f"entry {entry.seq} of game {game_id} undoes an action that is not there"
                    )
                if "action" in entry.data and entry.data["action"] != undone:
                    raise JournalDamaged(
                        f"entry {entry.seq} of game {game_id} undoes {entry.data['action']}, "
                        f"but the last action was {undone}"
                    )
        return pairs

    def player_actions(self, game_id: int) -> int:
        """How many player (not chance) actions stand in the game."""
        return sum(1 for _, chance in self.actions(game_id) if not chance)

    def entry_count(self, game_id: int | None = None) -> int:
        """How many entries the journal holds (for one game, or in all)."""
        if game_id is None:
            rows = self._query("SELECT COUNT(*) AS n FROM entries", ())
        else:
            rows = self._query("SELECT COUNT(*) AS n FROM entries WHERE game = ?", (game_id,))
        count: int = rows[0]["n"]
        return count

    def cut_pending(self, state: JSON) -> None:
        """The cut for the deal in progress, as the table would resume it (its screen's
        ``cut_state``), each time it changes; the game it leads to clears it as it starts.

        Kept in ``meta``, not among a game's entries: no game exists yet, and nothing of
        the cut is part of the game but the starter its header names.
        """
        self._set_meta(PENDING_CUT, json.dumps(state))

    def pending_cut(self) -> JSON | None:
        """The cut for the deal a crash interrupted, or None; ``drop_cut`` forgets it."""
        raw = self.meta(PENDING_CUT)
        loaded = None if raw is None else json.loads(raw)
        return loaded if isinstance(loaded, dict) else None

    def drop_cut(self) -> None:
        """Forget a pending cut that cannot be resumed (it holds no game: nothing is lost)."""
        with self._write():
            self._db.execute("DELETE FROM meta WHERE key = ?", (PENDING_CUT,))

    def staff_event(self, kind: str, detail: JSON) -> None:
        """Journal a staff security event (a wrong staff PIN, a PIN lock), in or out of a game.

        Kept in ``meta`` (the latest ``STAFF_LOG_LIMIT``), not among a game's
        entries: it is not part of any game and must never change a replay.
        """
        events = self.staff_events()
        # The steady reading, its boot and the clock's trust let a PIN lock be timed
        # honestly across a restart (controller.tags.pin_lock).
        now = self.time.stamp()
        stamp = {"at": self._now(), "steady": now.steady, "boot": now.boot, "synced": now.synced}
        events = [*events, {"kind": kind, **stamp, **detail}][-STAFF_LOG_LIMIT:]
        self._set_meta(STAFF_LOG, json.dumps(events))

    def staff_events(self) -> list[JSON]:
        """The journaled staff security events, oldest first."""
        raw = self.meta(STAFF_LOG)
        loaded = [] if raw is None else json.loads(raw)
        return [e for e in loaded if isinstance(e, dict)] if isinstance(loaded, list) else []

    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0]["value"])

    # --- inside -------------------------------------------------------------------------

    def _inside_write(self) -> None:
        """Called inside every write transaction before it commits; a seam for crash tests."""

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One transaction: all of it reaches the disk (fsync'd) or none of it does."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                # SQLite has already rolled back after some errors (a full disk).
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _sqlite_problem(exc, self.path, "could not write to the game journal") from exc

    def _append(self, game: int, kind: str, data: JSON) -> None:
        now = self._stamp(game)
        self._db.execute(
            "INSERT INTO entries (game, seq, kind, data, at, steady, boot) VALUES"
            " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game = ?), ?, ?, ?, ?, ?)",
            (game, game, kind, _dump(data), now.text, now.steady, now.boot),
        )
        self._inside_write()

    def _set_status(self, game: int, status: str) -> None:
        now = self._stamp(game)
        self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game))
        self._finish_stamp(game, now)

    def _finish_stamp(self, game: int, now: Stamp) -> None:
        """Stamp the game's end, and keep how long it was played (inside a write)."""
        self._db.execute(
            "UPDATE games SET finished = ?, finished_steady = ?, finished_boot = ?,"
            " finished_synced = ? WHERE id = ?",
            (now.text, now.steady, now.boot, int(now.synced), game),
        )
        self._db.execute("UPDATE games SET played = ? WHERE id = ?", (self.elapsed(game), game))

    def _stamp(self, game: int) -> Stamp:
        """Now, for a write of ``game``; first correcting its stamps if the wall clock jumped.

        Inside a write transaction, so the correction and the new entry reach
        the disk together. Only the stamps of this boot can be corrected: their
        steady readings place them exactly on the clock as it reads now. A clock
        that now reads a time before this software existed (1970: a clock reset,
        not set) and is not synchronised is no better than before: nothing is
        rewritten to it.
        """
        now = self.time.stamp()
        last = self._last_stamp
        if last is not None and last[0] == game:
            jump = now.jump_since(last[1])
            if jump is not None and (now.synced or now.wall >= EARLIEST_TRUE):
                self._restamp(game, now)
                logger.warning(
                    "the wall clock jumped %+.0f s during game %d (%s); its stamps of this boot "
                    "now follow the clock as it reads now",
                    jump,
                    game,
                    "now synchronised" if now.synced else "still not synchronised",
                )
        self._last_stamp = (game, now)
        if not now.synced:
            self._note_unsynced_boot(now.boot)
        elif self._earlier_boots_placed != game:
            self._earlier_boots_placed = game
            self._place_earlier_boots(game, now)
        return now

    def _load_unsynced_boots(self) -> list[str]:
        raw = self.meta(_UNSYNCED_BOOTS)
        try:
            loaded = [] if raw is None else json.loads(raw)
        except ValueError:
            return []
        return [str(boot) for boot in loaded] if isinstance(loaded, list) else []

    def _note_unsynced_boot(self, boot: str) -> None:
        """Remember (inside a write) that ``boot`` stamped on a clock not synchronised."""
        if boot in self._unsynced_boots:
            return
        self._unsynced_boots = [*self._unsynced_boots, boot][-_UNSYNCED_BOOTS_KEPT:]
        self._write_unsynced_boots()

    def _write_unsynced_boots(self) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (_UNSYNCED_BOOTS, _dump(self._unsynced_boots)),
        )

    def _place_earlier_boots(self, game: int, now: Stamp) -> None:
        """Give ``game``'s stamps of earlier boots honest wall times, now that the clock is set.

        Inside a write, on a synchronised clock. A power cut before NTP synced
        leaves stamps whose wall times came from a clock not set (1970, or the
        time saved at the last shutdown), and their boot is over: its steady
        readings cannot be tied to today's clock. What is known is that each
        boot ended before the next began, and how far apart its own stamps
        were. So each such boot's stamps are placed, spacing kept, at the
        latest they can have been: the last one at the start of the boot after
        it. A boot is placed when it is known to have stamped unsynchronised,
        or its times are impossible (before this software existed, or after the
        next boot began); others are believed. Newest first, as each boot's
        start bounds the one before.
        """
        started = self._db.execute(
            "SELECT started, started_steady, started_boot FROM games WHERE id = ?", (game,)
        ).fetchone()
        stamps: list[tuple[int | None, str, float, str]] = []  # seq (None: the start), wall, ...
        if started is not None and started["started_steady"] is not None:
            stamps.append(
                (None, started["started"], started["started_steady"], started["started_boot"])
            )
        stamps += [
            (row["seq"], row["at"], row["steady"], row["boot"])
            for row in self._db.execute(
                "SELECT seq, at, steady, boot FROM entries WHERE game = ? AND steady IS NOT NULL"
                " ORDER BY seq",
                (game,),
            )
        ]
        boots: dict[str, list[tuple[int | None, str, float, str]]] = {}
        for stamp in stamps:
            if stamp[3] != now.boot:
                boots.setdefault(stamp[3], []).append(stamp)
        latest = now.wall_at(0.0)  # this boot's start: every earlier stamp is before it
        placed: list[str] = []
        for boot, block in reversed(boots.items()):
            walls = [_parse_wall(wall) for _, wall, _, _ in block]
            last_steady = block[-1][2]
            impossible = any(
                wall is None or wall < EARLIEST_TRUE or wall > latest for wall in walls
            )
            if boot in self._unsynced_boots or impossible:
                end = Stamp(latest, last_steady, boot, synced=False)
                for seq, _, steady, _ in block:
                    self._rewrite_wall(game, seq, _text(end.wall_at(steady)))
                placed.append(boot)
                latest = end.wall_at(0.0)
            else:
                first = walls[0]
                assert first is not None  # not impossible
                latest = min(latest, first - dt.timedelta(seconds=block[0][2]))
        if placed:
            logger.warning(
                "game %d has stamps from %d earlier boot(s) whose clock was not set; "
                "they now read the latest time they can have been (just before the next boot)",
                game,
                len(placed),
            )
        # This boot's own stamps follow the clock as it reads now (``_restamp``).
        remaining = [b for b in self._unsynced_boots if b not in placed and b != now.boot]
        if remaining != self._unsynced_boots:
            self._unsynced_boots = remaining
            self._write_unsynced_boots()

    def _rewrite_wall(self, game: int, seq: int | None, wall: str) -> None:
        if seq is None:
            self._db.execute("UPDATE games SET started = ? WHERE id = ?", (wall, game))
        else:
            self._db.execute(
                "UPDATE entries SET at = ? WHERE game = ? AND seq = ?", (wall, game, seq)
            )

    def _restamp(self, game: int, now: Stamp) -> None:
        """Rewrite the wall times of ``game``'s stamps of ``now``'s boot from their steady ones."""
        rows = self._db.execute(
            "SELECT seq, steady FROM entries WHERE game = ? AND boot = ? AND steady IS NOT NULL",
            (game, now.boot),
        ).fetchall()
        self._db.executemany(
            "UPDATE entries SET at = ? WHERE game = ? AND seq = ?",
            [(_text(now.wall_at(row["steady"])), game, row["seq"]) for row in rows],
        )
        for column in ("started", "finished"):
            self._db.execute(
                f"UPDATE games SET {column} = ? WHERE id = ? AND {column}_boot = ?"
                f" AND {column}_steady IS NOT NULL",
                (_text(now.wall_at(self._steady_of(game, column))), game, now.boot),
            )

    def _steady_of(self, game: int, column: str) -> float:
        row = self._db.execute(
            f"SELECT {column}_steady FROM games WHERE id = ?",
            (game,),
        ).fetchone()
        return 0.0 if row is None or row[0] is None else float(row[0])

    def _load_last_stamp(self) -> tuple[int, Stamp] | None:
        """The open game's latest stamp with a steady reading, to see a jump since it."""
        game = self._current
        if game is None:
            return None
        rows = self._query(
            "SELECT at, steady, boot FROM entries WHERE game = ? AND steady IS NOT NULL"
            " ORDER BY seq DESC LIMIT 1",
            (game,),
        ) or self._query(
            "SELECT started AS at, started_steady AS steady, started_boot AS boot FROM games"
            " WHERE id = ? AND started_steady IS NOT NULL",
            (game,),
        )
        if not rows:
            return None
        try:
            wall = dt.datetime.fromisoformat(str(rows[0]["at"]))
        except ValueError:
            return None
        return game, Stamp(wall, float(rows[0]["steady"]), str(rows[0]["boot"]), False)

    def _set_meta(self, key: str, value: str) -> None:
        with self._write():
            self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def _require_current(self, what: str) -> int:
        if self._current is None:
            raise JournalError(f"the journal got {what} but no game was started")
        return self._current

    def _latest_playing(self) -> int | None:
        rows = self._query(
            "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (PLAYING,)
        )
        return None if not rows else int(rows[0]["id"])

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _sqlite_problem(exc, self.path, "could not read the game journal") from exc

    def _now(self) -> str:
        return _text(self.clock())


# --- the file -------------------------------------------------------------------------------


def _connect(
    path: Path, *, create: bool, quick: bool = False, keep_alive: KeepAlive = None
) -> sqlite3.Connection:
    """Open and check the file.

    JournalDamaged if it is not a journal of this schema; JournalUnavailable
    if the disk or the path stops SQLite (the file is then not touched).
    """
    _check_path(path)
    try:
        # Autocommit mode: ``Journal._write`` issues BEGIN/COMMIT itself.
        db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    except sqlite3.Error as exc:
        raise _sqlite_problem(exc, path, "could not open the game journal") from exc
    db.row_factory = sqlite3.Row
    try:
        _check(db, create, quick=quick, keep_alive=keep_alive)
        if create:  # the kiosk's writer: a journal made before the index gets it now
            db.execute(_STATUS_INDEX)
    except sqlite3.Error as exc:
        db.close()
        raise _sqlite_problem(exc, path, "could not open the game journal") from exc
    except JournalError:
        db.close()
        raise
    return db


# SQLite's primary result codes (https://sqlite.org/rescode.html) that mean the
# file itself is bad. Every other code is the disk or the system saying no, and
# moving a healthy journal aside for those would lose the game in progress.
_SQLITE_ERROR, _SQLITE_CORRUPT, _SQLITE_NOTADB = 1, 11, 26
_DAMAGE_CODES = {_SQLITE_CORRUPT, _SQLITE_NOTADB}
_SQLITE_READONLY, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 13, 14
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR = 5, 6, 10
_UNTOUCHED = "the journal was left as it is, and its game resumes once that is fixed"


def _sqlite_problem(exc: sqlite3.Error, path: Path, doing: str) -> JournalError:
    """Tell damage (moved aside by the kiosk) from a disk or system problem (never moved)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary in _DAMAGE_CODES:
        return JournalDamaged(f"it is not a readable SQLite database ({exc})")
    if primary == _SQLITE_ERROR:
        # A query on a file of another shape ("no such table"): the schema is wrong.
        return JournalDamaged(f"it does not have the journal's tables as expected ({exc})")
    where = _quote_path(path)
    if primary == _SQLITE_FULL or (
        primary in (_SQLITE_IOERR, _SQLITE_CANTOPEN) and _disk_full(path)
    ):
        # A full disk often reaches SQLite as an I/O error (growing the -shm
        # file fails), so the free space is asked for as well.
        return JournalDiskFull(
            f"{doing} {where}: the disk is full; free some space on it (old records, "
            f"logs) and start the table again; {_UNTOUCHED}"
        )
    if primary == _SQLITE_READONLY:
        return JournalUnavailable(
            f"{doing} {where}: it is read-only (a read-only disk or file); make it writable "
            f"(remount the disk read-write, check its permissions) and start again; {_UNTOUCHED}"
        )
    if primary == _SQLITE_CANTOPEN:
        # SQLite does not say why; the operating system does, when asked the same way.
        reason = _os_reason(path)
        if reason is not None:
            return _os_problem(reason, path, doing)
        return JournalUnavailable(
            f"{doing} {where}: SQLite cannot open it or create its -wal and -shm files beside "
            f"it; check that its folder exists and is writable, and start again; {_UNTOUCHED}"
        )
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return JournalUnavailable(
            f"{doing} {where}: another program keeps it locked; stop that program "
            f"(e.g. another kiosk or an SQLite browser) and start again; {_UNTOUCHED}"
        )
    if primary == _SQLITE_IOERR:
        return JournalUnavailable(
            f"{doing} {where}: the disk reported an input/output error ({exc}); check the "
            f"disk (removed? failing?) and start again; {_UNTOUCHED}"
        )
    return JournalUnavailable(f"{doing} {where} ({exc}); check the disk and start again")


def _disk_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has (next to) no space left for SQLite to grow into."""
    try:
        stat = os.statvfs(path.parent)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < 64 * 1024


def _os_reason(path: Path) -> OSError | None:
    """Why the system refuses to let the journal (and its companions) be written, if it does."""
    for target in (path, path.parent / f".{path.name}.probe"):
        try:
            fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            return exc
        os.close(fd)
        if target != path:
            target.unlink(missing_ok=True)
    return None


def _os_problem(exc: OSError, path: Path, doing: str) -> JournalUnavailable:
    """One line for an operating-system refusal, with the fix for its cause."""
    where = _quote_path(path)
    folder = _quote_path(path.parent)
    number = exc.errno
    if number == errno.ENOSPC or number == errno.EDQUOT:
        fix = "the disk is full; free some space on it (old records, logs) and start again"
    elif number == errno.EROFS:
        fix = (
            f"the disk holding {folder} is read-only; remount it read-write (or use a "
            "writable disk) and start again"
        )
    elif number in (errno.EACCES, errno.EPERM):
        fix = (
            f"the table may not write in {folder} ({exc.strerror}); give the table's user "
            "write access to it (or name another file with --journal) and start again"
        )
    elif number == errno.ENOENT:
        missing = next((p for p in reversed(path.parents) if not p.exists()), path.parent)
        fix = (
            f"the folder {_quote_path(missing)} does not exist; create it (or mount the disk "
            "that holds it) or name another file with --journal"
        )
    elif number == errno.ENOTDIR:
        fix = (
            "part of that path is a file, not a folder, so no journal can be there; "
            "name another file with --journal"
        )
    elif number == errno.EISDIR:
        fix = "it is a folder, not a journal file; name a file with --journal, e.g. journal.sqlite3"
    else:
        fix = f"{exc.strerror or exc}; check the disk and start again"
    kind = JournalDiskFull if number in (errno.ENOSPC, errno.EDQUOT) else JournalUnavailable
    return kind(f"{doing} {where}: {fix}; {_UNTOUCHED}")


def _check_path(path: Path) -> None:
    """Refuse, in one line, a path that cannot be a journal file (a folder, a file's child)."""
    problem = path_problem(str(path))
    if problem is not None:
        raise JournalUnavailable(
            f"{_quote_path(path)} cannot be a journal file ({problem}); name another file "
            "with --journal"
        )
    if path.is_dir():
        raise JournalUnavailable(
            f"{_quote_path(path)} is a folder, not a journal file; name a file with --journal, "
            f"e.g. {_quote_path(path / JOURNAL_NAME)}"
        )
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise JournalUnavailable(
                    f"the journal {_quote_path(path)} cannot be created: "
                    f"{_quote_path(parent)} is a file, not a folder; name another file "
                    "with --journal"
                )
            break


def _quote_path(path: Path) -> str:
    """A path for a one-line message: as typed, unless it holds characters that would
    break the line (then quoted with escapes)."""
    text = str(path)
    if text.isprintable():
        return text
    return repr(text)


def lock_path(path: Path) -> Path:
    """The writer lock file of the journal at ``path``: ``<journal>.lock`` beside it."""
    return path.with_name(path.name + ".lock")


class JournalLock:
    """The one-writer lock of a journal: an exclusive ``fcntl.flock`` on ``<journal>.lock``.

    The kernel releases it when the holder's file is closed, also when the
    process is killed, so a crash never leaves a stale lock. The lock file
    keeps the holder's process id, for the message a second writer gets; the
    file itself is never deleted (deleting it would let two writers lock two
    different files).
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, journal: Path, holder: str = "a kiosk") -> JournalLock:
        """Take the lock or raise JournalUnavailable (JournalLocked: someone else has it)."""
        _check_path(journal)
        path = lock_path(journal)
        doing = "could not open the game journal"
        try:
            # The journal's own folder is made on a first start, but not a missing
            # parent too: that is more likely a disk that is not mounted, where a
            # fresh journal would hide the real one and its game in progress.
            journal.parent.mkdir(exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise _os_problem(exc, journal, doing) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            other = _read_holder(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise _os_problem(exc, journal, doing) from None
            raise JournalLocked(
                f"the game journal {_quote_path(journal)} is in use by another table program "
                f"({other}); only one may write it: stop that one first, or give this one "
                "another --journal"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {holder}\n".encode(), 0)
        except OSError:
            # Only the message for a second writer needs it; the lock itself holds.
            logger.warning("could not note this process in %s", path)
        return cls(path, fd)

    def release(self) -> None:
        """Let go of the lock; safe to call twice."""
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the flock
            self._fd = None


def _read_holder(fd: int) -> str:
    """Who holds the lock, from the lock file: "pid 1234, a kiosk"."""
    try:
        pid, _, holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip().partition(" ")
    except OSError:
        pid, holder = "", ""
    if not pid.isdigit():
        return "its process id is unknown"
    return f"pid {pid}, {holder if holder.isprintable() and holder else 'a table program'}"


def _check(
    db: sqlite3.Connection, create: bool, *, quick: bool = False, keep_alive: KeepAlive = None
) -> None:
    """The file is a journal of this schema, and SQLite finds its pages sound: a bounded
    quick check with ``quick`` after a clean stop, else the full one (journal_check)."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if not tables and app_id == 0 and version == 0:
        if not create:
            raise JournalDamaged("it is empty: no game was ever journaled in it")
        _create(db)
        return
    if app_id != APPLICATION_ID:
        raise JournalDamaged("it is an SQLite database, but not a game journal of this table")
    if version == 1 and not _TABLES - tables:
        _migrate(db)
        version = SCHEMA_VERSION
    if version != SCHEMA_VERSION:
        raise JournalDamaged(
            f"it was written with journal schema {version}; this table reads schema "
            f"{SCHEMA_VERSION}"
        )
    if _TABLES - tables:
        raise JournalDamaged(f"it lacks the tables {', '.join(sorted(_TABLES - tables))}")
    problems = page_problems(db, quick=quick and not left_open(db), keep_alive=keep_alive)
    if problems:
        raise JournalDamaged(f"SQLite's integrity check failed ({'; '.join(problems[:3])})")
    _pragmas(db)


# SQLite's page cache for the journal, in KiB (a negative cache_size counts KiB). An
# append needs the right edge of two B-trees and the games row, a handful of 4 KiB
# pages: 64 KiB holds them, and a larger cache only filled with pages of games long
# over (256 KiB was 0.2-0.3 MB of the RSS growth over an evening, tap -> LED the same).
CACHE_KIB = 64
WAL_LIMIT_BYTES = 4 * 1024 * 1024


def _pragmas(db: sqlite3.Connection) -> None:
    # WAL with synchronous=FULL: every COMMIT is fsync'd before it returns, so
    # an entry the table went on to show is on the disk.
    mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        logger.warning("the journal could not switch to WAL mode (it is in %s mode)", mode)
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    # The journal is written at its end and read whole only on resume: SQLite's default
    # 2 MB page cache would only fill, night after night, with pages never read again.
    db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    # After a checkpoint the -wal file is cut back to this size: the retention's deletes
    # (many pages at once) must not leave it large for good.
    db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")


def _migrate(db: sqlite3.Connection) -> None:
    """Schema 1 -> 2 in one transaction: the time columns, NULL in the games of before.

    ``ALTER TABLE ... ADD COLUMN`` changes only the schema, not a row, so even
    five years of games migrate in milliseconds; their stamps stay as they were.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        for table, columns in _NEW_COLUMNS.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for column in columns:
                if column.split()[0] not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('schema', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(SCHEMA_VERSION),),
        )
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('migrated-from', '1')")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    logger.info("journal: migrated from schema 1 to %d", SCHEMA_VERSION)


def _create(db: sqlite3.Connection) -> None:
    # Before any table: pages freed by the retention go back to the system at idle
    # (``PRAGMA incremental_vacuum``) rather than only being reused.
    db.execute("PRAGMA auto_vacuum = INCREMENTAL")
    _pragmas(db)
    # One transaction, so a crash while creating leaves an empty file, not half a schema.
    db.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute(_STATUS_INDEX)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('schema', ?), ('created', ?)",
        (str(SCHEMA_VERSION), _local_now().isoformat(timespec="seconds")),
    )
    db.execute("COMMIT")


def _move_aside(path: Path, reason: str, now: dt.datetime) -> str:
    """Rename the file (and its -wal/-shm companions) to a timestamped name; never delete.

    The message says a file moved only if one did; JournalUnavailable if the
    rename is refused (e.g. a read-only disk): the file then stays where it is.
    """
    stamp = now.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
    moved = []
    for suffix in ("", "-wal", "-shm", "-journal"):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            try:
                companion.rename(Path(f"{target}{suffix}"))
            except OSError as exc:
                raise JournalUnavailable(
                    f"the game journal {_quote_path(path)} cannot be used ({reason}) and could "
                    f"not be moved aside ({exc.strerror or exc}); make its folder writable and "
                    "start again, or name another file with --journal"
                ) from None
            moved.append(suffix)
    if "" in moved:
        message = (
            f"The game journal {_quote_path(path)} could not be used: {reason}. It was moved to "
            f"{_quote_path(target)} (nothing was deleted) and the table started a fresh "
            "journal. Keep that file and tell the maintainer, who may be able to recover "
            "games from it."
        )
    else:
        message = (
            f"The game journal {_quote_path(path)} could not be used: {reason}. "
            "The table started a fresh journal."
        )
    logger.error("%s", message)
    return message


def _text(when: dt.datetime) -> str:
    """A wall-clock time as the journal writes it."""
    return when.isoformat(timespec="seconds")


def _parse_wall(text: str) -> dt.datetime | None:
    """A journaled wall time, or None if it cannot be read."""
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.astimezone()


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


def _load(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise JournalDamaged(f"{where} is not valid JSON ({exc})") from exc


def _game_row(row: sqlite3.Row) -> GameRow:
    where = f"game {row['id']}"
    report = row["report"]
    return GameRow(
        id=int(row["id"]),
        game=str(row["game"]),
        players=[int(p) for p in _load(row["players"], where)],
        header=_load(row["header"], where),
        seed=int(row["seed"]),
        config=_load(row["config"], where),
        status=str(row["status"]),
        started=str(row["started"]),
        finished=row["finished"],
        report=None if report is None else _load(report, where),
        record=row["record"],
        played=row["played"],
        finished_synced=None if row["finished_synced"] is None else bool(row["finished_synced"]),
    )


# --- what a resume needs -------------------------------------------------------------------


def seat_languages(journal: Journal, game_id: int) -> dict[int, str]:
    """The seats' own panel languages the table journaled when the game began (if any)."""
    found: dict[int, str] = {}
    for entry in journal.entries(game_id):
        if entry.kind == CORRECTION and entry.data.get("kind") == "languages":
            seats = entry.data.get("seats")
            if isinstance(seats, dict):
                found = {int(seat): str(lang) for seat, lang in seats.items() if seat.isdigit()}
    return found


def pending_replays(journal: Journal, game_id: int) -> list[JSON]:
    """The other seats' cards a player's take-back left waiting to be put back, as the
    table last journaled them (``controller.table.play.journal_replays``).

    The latest ``replays`` correction holds the list; each later action that is its
    first card was that card put back; a later ``undo`` is staff's, which rebuilds
    the game without any waiting (the take-back's own undos come before the list).
    """
    pending: list[JSON] = []
    for entry in journal.entries(game_id):
        if entry.kind == CORRECTION and entry.data.get("kind") == "replays":
            actions = entry.data.get("actions")
            pending = (
                [a for a in actions if isinstance(a, dict)] if isinstance(actions, list) else []
            )
        elif entry.kind == CORRECTION and entry.data.get("kind") == "undo":
            pending = []
        elif entry.kind == ACTION and pending and entry.data == pending[0]:
            pending.pop(0)
    return pending


def check_replays(row: GameRow, actions: list[tuple[JSON, bool]], seats: set[int]) -> Engine:
    """Replay a journaled game on a scratch engine; TableError says why it cannot be resumed."""
    missing = [seat for seat in row.players if seat not in seats]
    if missing:
        raise TableError(
            f"it was played at seats {row.players}, and this table has no seat "
            f"{', '.join(str(s) for s in missing)}"
        )
    if row.header.get("game") != row.game:
        raise TableError(f"its header is for {row.header.get('game')!r}, not {row.game!r}")
    engine = engine_class(row.game).from_header(row.header)
    if engine.players != len(row.players):
        raise TableError(f"its header has {engine.players} players but {len(row.players)} seats")
    return replay_actions(engine, (obj for obj, _ in actions))
