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
  table's configuration, wall-clock start and end, and a status
  (``playing``, ``finished``, ``abandoned``); a finished game also keeps its
  report and record text;
- ``entries``: per game, numbered from 1: ``action`` (a player's action),
  ``chance`` (a dealt hand, derived from the seed; a whole deal is written in
  one transaction) or ``correction`` (staff's ``undo`` or ``abandon``), each
  as JSON with its wall-clock time.

Nothing is ever deleted: an undo is a new ``correction`` entry, and
``Journal.actions`` replays the entries through the corrections to give the
game's actions as they stand. A file that is not a journal, fails SQLite's
integrity check or has another schema is moved aside to a timestamped name
(never deleted) and the table starts a fresh one; ``Journal.notices`` then
holds the message for staff.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from controller.config import TableConfig
from controller.games import engine_class
from controller.games.base import JSON, Engine, TableError
from controller.record import replay_actions, undo_last_player_action

if TYPE_CHECKING:
    from controller.table import Table

logger = logging.getLogger(__name__)

JOURNAL_NAME = "journal.sqlite3"
SCHEMA_VERSION = 1
APPLICATION_ID = 0x43414645  # "CAFE": marks the file as this table's journal

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
STATUSES = (PLAYING, FINISHED, ABANDONED)
ACTION, CHANCE, CORRECTION = "action", "chance", "correction"
STAFF_LOG, STAFF_LOG_LIMIT = "staff-log", 200  # meta key of the staff security events

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
    record TEXT                       -- the record text the table wrote at the end
);
CREATE TABLE entries (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('{ACTION}', '{CHANCE}', '{CORRECTION}')),
    data TEXT NOT NULL,               -- JSON: the action, or the correction's kind and detail
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
_TABLES = {"meta", "games", "entries"}


class JournalError(TableError):
    """The journal cannot be read or written; the message says what to do."""


class JournalDamaged(JournalError):
    """The file is not a usable journal (not SQLite, corrupt, or another schema)."""


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


@dataclass(frozen=True)
class Entry:
    """One journal entry of a game, in order."""

    game: int
    seq: int
    kind: str
    data: JSON
    at: str


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
        clock: Callable[[], dt.datetime] = _local_now,
    ) -> None:
        self._db = connection
        self.path = path
        self.config = config
        self.clock = clock
        self.notices: list[str] = []  # messages for staff, e.g. "the journal was moved aside"
        self._current: int | None = self._latest_playing()

    # --- opening ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path,
        config: TableConfig | None = None,
        *,
        clock: Callable[[], dt.datetime] = _local_now,
    ) -> Journal:
        """Open (or create) the journal at ``path`` for the kiosk.

        A damaged file is moved aside and a fresh journal is started; the
        message for staff is in ``notices`` (and in the log).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        notices: list[str] = []
        try:
            connection = _connect(path, create=True)
        except JournalDamaged as exc:
            notices.append(_move_aside(path, str(exc), clock()))
            connection = _connect(path, create=True)
        journal = cls(connection, path, config, clock)
        journal.notices = notices
        journal._set_meta("config", config_snapshot(config))
        return journal

    @classmethod
    def open_existing(cls, path: Path) -> Journal:
        """Open a journal only to read it; JournalError if it is missing or damaged."""
        path = Path(path)
        if not path.exists():
            raise JournalError(
                f"there is no journal at {path}; the kiosk creates it when it starts "
                "(use --journal FILE to name another one)"
            )
        if path.is_dir():
            raise JournalError(f"{path} is a folder, not a journal file")
        return cls(_connect(path, create=False), path)

    def close(self) -> None:
        """Close the file; safe to call twice."""
        self._db.close()

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
            cursor = self._db.execute(
                "INSERT INTO games (game, players, header, seed, config, status, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    _dump(players),
                    _dump(header),
                    seed,
                    config_snapshot(self.config),
                    PLAYING,
                    self._now(),
                ),
            )
            self._inside_write()
            assert cursor.lastrowid is not None
            self._current = cursor.lastrowid

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
                    "UPDATE games SET status = ?, finished = NULL, report = NULL, record = NULL"
                    " WHERE id = ? AND status = ?",
                    (PLAYING, game, FINISHED),
                )
        if kind == "abandon":
            self._current = None

    def game_finished(self, record: str, report: JSON) -> None:
        game = self._require_current("the end of a game")
        with self._write():
            self._db.execute(
                "UPDATE games SET status = ?, finished = ?, report = ?, record = ? WHERE id = ?",
                (FINISHED, self._now(), _dump(report), record, game),
            )
            self._inside_write()
        # Kept as current: staff may still undo on the results screen.

    # --- reading ------------------------------------------------------------------------

    @property
    def current_game(self) -> int | None:
        """The journal id of the game the table is writing to, if any."""
        return self._current

    def games(self, statuses: tuple[str, ...] = STATUSES) -> list[GameRow]:
        """Every game with one of ``statuses``, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = self._query(
            f"SELECT * FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
        )
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
            "SELECT game, seq, kind, data, at FROM entries WHERE game = ? ORDER BY seq", (game_id,)
        )
        out = []
        for row in rows:
            data = _load(row["data"], f"entry {row['seq']} of game {game_id}")
            out.append(Entry(row["game"], row["seq"], row["kind"], data, row["at"]))
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

    def staff_event(self, kind: str, detail: JSON) -> None:
        """Journal a staff security event (a wrong staff PIN, a PIN lock), in or out of a game.

        Kept in ``meta`` (the latest ``STAFF_LOG_LIMIT``), not among a game's
        entries: it is not part of any game and must never change a replay.
        """
        events = self.staff_events()
        events = [*events, {"kind": kind, "at": self._now(), **detail}][-STAFF_LOG_LIMIT:]
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
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(
                f"could not write to the game journal {self.path} ({exc}); "
                "check the disk (full? removed?) and restart the table"
            ) from exc

    def _append(self, game: int, kind: str, data: JSON) -> None:
        self._db.execute(
            "INSERT INTO entries (game, seq, kind, data, at) VALUES"
            " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game = ?), ?, ?, ?)",
            (game, game, kind, _dump(data), self._now()),
        )
        self._inside_write()

    def _set_status(self, game: int, status: str) -> None:
        self._db.execute(
            "UPDATE games SET status = ?, finished = ? WHERE id = ?", (status, self._now(), game)
        )

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
            raise JournalDamaged(f"the journal {self.path} cannot be read ({exc})") from exc

    def _now(self) -> str:
        return self.clock().isoformat(timespec="seconds")


# --- the file -------------------------------------------------------------------------------


def _connect(path: Path, *, create: bool) -> sqlite3.Connection:
    """Open and check the file; JournalDamaged if it is not a journal of this schema."""
    try:
        # Autocommit mode: ``Journal._write`` issues BEGIN/COMMIT itself.
        db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    except sqlite3.Error as exc:
        raise JournalDamaged(f"SQLite cannot open it ({exc})") from exc
    db.row_factory = sqlite3.Row
    try:
        _check(db, create)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise JournalDamaged(f"it is not a readable SQLite database ({exc})") from exc
    except JournalDamaged:
        db.close()
        raise
    return db


def _check(db: sqlite3.Connection, create: bool) -> None:
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
    if version != SCHEMA_VERSION:
        raise JournalDamaged(
            f"it was written with journal schema {version}; this table reads schema "
            f"{SCHEMA_VERSION}"
        )
    if _TABLES - tables:
        raise JournalDamaged(f"it lacks the tables {', '.join(sorted(_TABLES - tables))}")
    problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        raise JournalDamaged(f"SQLite's integrity check failed ({'; '.join(problems[:3])})")
    _pragmas(db)


def _pragmas(db: sqlite3.Connection) -> None:
    # WAL with synchronous=FULL: every COMMIT is fsync'd before it returns, so
    # an entry the table went on to show is on the disk.
    mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        logger.warning("the journal could not switch to WAL mode (it is in %s mode)", mode)
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")


def _create(db: sqlite3.Connection) -> None:
    _pragmas(db)
    # One transaction, so a crash while creating leaves an empty file, not half a schema.
    db.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('schema', ?), ('created', ?)",
        (str(SCHEMA_VERSION), _local_now().isoformat(timespec="seconds")),
    )
    db.execute("COMMIT")


def _move_aside(path: Path, reason: str, now: dt.datetime) -> str:
    """Rename the file (and its -wal/-shm companions) to a timestamped name; never delete."""
    stamp = now.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}{path.suffix}")
    for suffix in ("", "-wal", "-shm", "-journal"):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            companion.rename(Path(f"{target}{suffix}"))
    message = (
        f"The game journal {path} could not be used: {reason}. It was moved to {target} "
        "(nothing was deleted) and the table started a fresh journal. Keep that file and "
        "tell the maintainer, who may be able to recover games from it."
    )
    logger.error("%s", message)
    return message


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
    )


# --- starting the kiosk ---------------------------------------------------------------------


def resume_if_unfinished(journal: Journal, table: Table) -> GameRow | None:
    """Resume the journal's unfinished game on the table; returns it, or None.

    A game that no longer replays (or whose seats the table no longer has)
    makes the journal move aside: the message for staff is then in
    ``journal.notices`` and the table stays on its attract screen.
    """
    row = journal.unfinished()
    if row is None:
        return None
    try:
        actions = journal.actions(row.id)
        check_replays(row, actions, {seat.index for seat in table.config.seats})
    except (TableError, ValueError, KeyError, TypeError) as exc:
        # ValueError and friends: a hand-edited or half-understood entry. The
        # table is untouched; the file is kept for a person to look at.
        logger.warning("the journal's game %d cannot be resumed", row.id, exc_info=True)
        journal.move_aside(f"its unfinished game #{row.id} ({row.game}) cannot be resumed: {exc}")
        return None
    try:
        table.resume(row.game, row.players, row.header, actions, row.seed)
    except TableError as exc:
        # The engine replayed it above, so this is the table's side failing
        # (e.g. the game is no longer offered); do not loop on it at every start.
        # Table.resume leaves the table as it was (on its attract screen) when it fails.
        logger.warning("the table could not resume game %d", row.id, exc_info=True)
        journal.move_aside(f"its unfinished game #{row.id} ({row.game}) cannot be resumed: {exc}")
        return None
    return row


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
