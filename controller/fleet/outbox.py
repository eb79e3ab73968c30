"""The outbox: finished games' records, and the table's other messages, until the hub has them.

It lives in the journal's SQLite file (table ``fleet_outbox``), beside the
games it comes from, so it survives every restart the journal survives. A
record is added when its game is finished (and, at start, for any finished
game the outbox does not hold yet) and stays pending until the hub says it
has stored it (a ``record/ack`` message); then it is marked delivered, never
deleted. The broker's PUBACK alone is not enough: a broker that crashes
before it saved its queue would lose a record it had acknowledged, so the
table sends a pending record again until the hub confirms it.
Each record carries a unique id made of the table, the journal's creation
time, the game's number and when it finished, so the hub stores it exactly
once however often it is sent. (A game that staff reopen with an undo on the
results screen and that finishes again is a new version with a new id.)

The table's alerts, events and configuration answers wait here too (their
``leaf`` says which topic they go to): each gets an id of its own, and stays
until the hub confirms it stored it (the same ``record/ack``), so one sent
into a broker that then crashed, or while the hub had not subscribed again,
is sent again. A confirmed message is deleted (only records are kept as
delivered, for the journal's retention); one the hub has not confirmed
within ``MESSAGE_KEPT_FOR``, or beyond the newest ``MAX_PENDING_MESSAGES``,
is dropped: a call for staff from yesterday helps nobody.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS fleet_outbox (
    uid TEXT PRIMARY KEY,
    game INTEGER,              -- the journal's game id
    payload TEXT NOT NULL,     -- the JSON message sent to the record topic
    added TEXT NOT NULL,
    sent TEXT,                 -- when the broker last acknowledged it (PUBACK)
    delivered TEXT,            -- when the hub confirmed it stored it; NULL while pending
    leaf TEXT NOT NULL DEFAULT 'record'  -- the topic it goes to (record, alert, event, ...)
);
CREATE TABLE IF NOT EXISTS fleet_names (
    game INTEGER PRIMARY KEY,  -- the journal's game id
    names TEXT NOT NULL        -- JSON: physical seat -> nickname (member cards)
)
"""

RECORD = "record"
MAX_PENDING_MESSAGES = 500  # alerts, events and answers kept for a hub that is away
MESSAGE_KEPT_FOR = dt.timedelta(days=1)


class Outbox:
    """Pending records, shared by the table loop (adds) and the fleet thread (sends)."""

    def __init__(self, path: Path, table_id: str) -> None:
        self.path = path
        self.table_id = table_id
        # One connection guarded by a lock: the table loop adds, the fleet thread marks.
        self._db = sqlite3.connect(path, timeout=10.0, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(fleet_outbox)")}
            if "leaf" not in columns:  # an outbox from before it kept other messages
                self._db.execute(
                    "ALTER TABLE fleet_outbox ADD COLUMN leaf TEXT NOT NULL DEFAULT 'record'"
                )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def uid_for(self, game: int, finished: str) -> str:
        """The record's id across the café: table, journal, game number, end time."""
        created = self._meta("created") or "unknown"
        return f"{self.table_id}/{created}/{game}/{finished}"

    def add(self, game: int, payload: dict[str, Any]) -> str:
        """Queue a finished game's record; adding the same game again changes nothing."""
        uid = self.uid_for(game, str(payload.get("finished")))
        message = {**payload, "uid": uid, "table": self.table_id}
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO fleet_outbox (uid, game, payload, added) VALUES (?,?,?,?)",
                (uid, game, json.dumps(message, ensure_ascii=False), _now()),
            )
        return uid

    def add_message(self, leaf: str, payload: dict[str, Any]) -> str:
        """Keep an alert, event or answer for topic ``leaf`` until the hub has it; its uid."""
        uid = f"{self.table_id}/m/{uuid.uuid4().hex}"
        added = _now()
        message = {**payload, "uid": uid}
        too_old = (dt.datetime.now(dt.UTC) - MESSAGE_KEPT_FOR).isoformat(timespec="milliseconds")
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO fleet_outbox (uid, payload, added, leaf) VALUES (?,?,?,?)",
                (uid, json.dumps(message, ensure_ascii=False), added, leaf),
            )
            # Bounded, whatever happens to the hub: the oldest go first.
            self._db.execute(
                "DELETE FROM fleet_outbox WHERE leaf != ? AND (added < ? OR uid NOT IN "
                "(SELECT uid FROM fleet_outbox WHERE leaf != ? ORDER BY added DESC, rowid DESC "
                "LIMIT ?))",
                (RECORD, too_old, RECORD, MAX_PENDING_MESSAGES),
            )
        return uid

    # --- nicknames: who played a game under a member card (controller.tags.members) ---------

    def playing_game(self) -> int | None:
        """The journal id of the game being played, if any."""
        with self._lock:
            try:
                row = self._db.execute(
                    "SELECT MAX(id) FROM games WHERE status = 'playing'"
                ).fetchone()
            except sqlite3.OperationalError:  # a journal with no game yet
                return None
        return None if row is None or row[0] is None else int(row[0])

    def set_names(self, game: int, names: dict[int, str]) -> None:
        """Keep the nicknames of journal game ``game``'s seats (physical seat -> nickname)."""
        text = json.dumps({str(seat): name for seat, name in sorted(names.items())})
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO fleet_names (game, names) VALUES (?, ?)", (game, text)
            )

    def names_of(self, game: int) -> dict[int, str]:
        """The nicknames kept for journal game ``game`` (physical seat -> nickname)."""
        with self._lock:
            row = self._db.execute(
                "SELECT names FROM fleet_names WHERE game = ?", (game,)
            ).fetchone()
        if row is None:
            return {}
        return {int(seat): str(name) for seat, name in json.loads(row[0]).items()}

    def add_finished_games(self) -> int:
        """Queue every finished game of the journal the outbox does not hold yet; how many."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, header, players, started, finished, finished_synced, report, "
                "record FROM games "
                "WHERE status = 'finished' AND record IS NOT NULL ORDER BY id"
            ).fetchall()
        added = 0
        for row in rows:
            uid = self.uid_for(row["id"], str(row["finished"]))
            with self._lock:
                known = self._db.execute(
                    "SELECT 1 FROM fleet_outbox WHERE uid = ?", (uid,)
                ).fetchone()
            if known is None:
                self.add(row["id"], record_payload(row, self.names_of(row["id"])))
                added += 1
        return added

    def pending(self, limit: int = 50) -> list[tuple[str, bytes]]:
        """(uid, message) of records not yet acknowledged, oldest first."""
        return [(uid, message) for uid, leaf, message in self.unconfirmed(limit) if leaf == RECORD]

    def unconfirmed(self, limit: int = 50) -> list[tuple[str, str, bytes]]:
        """(uid, topic leaf, message) of everything the hub has not confirmed: the small,
        urgent messages (a call for staff) before the records, each kind oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT uid, leaf, payload FROM fleet_outbox WHERE delivered IS NULL "
                "ORDER BY leaf = ?, added, rowid LIMIT ?",
                (RECORD, limit),
            ).fetchall()
        return [(row["uid"], row["leaf"], row["payload"].encode()) for row in rows]

    def sent(self, uid: str) -> None:
        """The broker acknowledged the record (it still waits for the hub's word)."""
        with self._lock, self._db:
            self._db.execute("UPDATE fleet_outbox SET sent = ? WHERE uid = ?", (_now(), uid))

    def delivered(self, uid: str) -> None:
        """The hub stored the record (kept, marked delivered) or message (deleted): it is done."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE fleet_outbox SET delivered = ? WHERE uid = ? AND delivered IS NULL",
                (_now(), uid),
            )
            self._db.execute("DELETE FROM fleet_outbox WHERE uid = ? AND leaf != ?", (uid, RECORD))

    def counts(self) -> tuple[int, int]:
        """Records: (pending, delivered)."""
        with self._lock:
            row = self._db.execute(
                "SELECT SUM(delivered IS NULL), SUM(delivered IS NOT NULL) FROM fleet_outbox "
                "WHERE leaf = ?",
                (RECORD,),
            ).fetchone()
        return int(row[0] or 0), int(row[1] or 0)

    def unconfirmed_count(self) -> int:
        """Records and other messages the hub has not confirmed yet."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM fleet_outbox WHERE delivered IS NULL"
            ).fetchone()
        return int(row[0])

    def _meta(self, key: str) -> str | None:
        with self._lock:
            try:
                row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            except sqlite3.OperationalError:
                return None
        return None if row is None else str(row[0])


def record_payload(
    row: sqlite3.Row | dict[str, Any], names: dict[int, str] | None = None
) -> dict[str, Any]:
    """The record message for one finished game row of the journal.

    ``names`` (physical seat -> nickname) become ``nicknames``, one per record
    seat, beside the record: the record text itself is the table-record/1
    contract and never carries them. An anonymous game has no ``nicknames``.
    """
    header = json.loads(row["header"])
    seats = json.loads(row["players"])
    message = {
        "game": row["game"],
        "journal_game": row["id"],
        "options": header.get("options", {}),
        "seats": seats,
        "started": _started_before(row["started"], row["finished"]),
        "finished": row["finished"],
        "report": json.loads(row["report"]) if row["report"] else None,
        "record": row["record"],
    }
    # Whether the table's clock was synchronised when the game ended (the hub files a
    # game stamped on a clock not set under its arrival); unknown for old journal rows.
    # (keys(): ``in`` on a sqlite3.Row looks at its values)
    synced = row["finished_synced"] if "finished_synced" in row.keys() else None  # noqa: SIM118
    if synced is not None:
        message["clock_set"] = bool(synced)
    if names:
        message["nicknames"] = [names.get(seat) for seat in seats]
    return message


def _started_before(started: str | None, finished: str | None) -> str | None:
    """The start time, unless the table's clock put it after the end (a clock set back
    across a restart): then no start, rather than a record the hub must refuse."""
    try:
        if (
            started
            and finished
            and dt.datetime.fromisoformat(started) > dt.datetime.fromisoformat(finished)
        ):
            return None
    except ValueError:
        return None
    return started


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
