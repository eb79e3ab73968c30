"""What the hub keeps, behind one small interface, in SQLite or PostgreSQL.

The web layer and the MQTT ingest call ``Storage`` methods only; the SQL is
SQLAlchemy Core, so ``sqlite:///hub.sqlite3`` (the embedded default) and a
``postgresql://`` URL (psycopg 3) run the same code; the tests run both.
The schema is made and changed by Alembic migrations (``hub/migrations``),
run when the hub opens its database (``migrate``). Every write is idempotent where the
network may repeat it: a record is stored once per unique id however often it
arrives, an alert once per (table, alert id).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from controller.records.clock import trusted_wall
from controller.tags.members import NicknameError, check_nickname

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("online", sa.Boolean, nullable=False, default=False),
    sa.Column("status_at", sa.String(40)),
    sa.Column("state", sa.Text),  # JSON: the table's retained state
    sa.Column("state_at", sa.String(40)),
)
games_t = sa.Table(
    "games",
    metadata,
    sa.Column("uid", sa.String(200), primary_key=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("game", sa.String(40), nullable=False, index=True),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("started", sa.String(40)),
    sa.Column("finished", sa.String(40), index=True),
    sa.Column("totals", sa.Text, nullable=False),
    sa.Column("winners", sa.Text, nullable=False),
    sa.Column("report", sa.Text, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("received", sa.String(40), nullable=False),
    # Whether the table says its clock was set when it stamped the game (None: a table
    # that does not say), and the time the hub trusts for the game (``trusted_time``):
    # what the date filters read.
    sa.Column("clock_set", sa.Boolean),
    sa.Column("played", sa.String(40), index=True),
)
alerts_t = sa.Table(
    "alerts",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("id", sa.String(80), primary_key=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("seat", sa.Integer),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("raised", sa.String(40), nullable=False),
    sa.Column("acked", sa.String(40)),
    sa.Column("acked_by", sa.String(80)),
)
events_t = sa.Table(
    "events",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    # The table's id for the event (its outbox sends it until the hub confirms it): stored once.
    sa.Column("uid", sa.String(200), unique=True, index=True),
)
users_t = sa.Table(
    "users",
    metadata,
    sa.Column("name", sa.String(80), primary_key=True),
    sa.Column("role", sa.String(10), nullable=False),  # "staff" or "owner"
    sa.Column("password", sa.Text, nullable=False),  # scrypt hash (hub.auth)
)
config_t = sa.Table(
    "config_requests",
    metadata,
    sa.Column("id", sa.String(80), primary_key=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("sent", sa.String(40), nullable=False),
    sa.Column("sent_by", sa.String(80), nullable=False),
    sa.Column("ok", sa.Boolean),
    sa.Column("message", sa.Text),
    sa.Column("answered", sa.String(40)),
)
members_t = sa.Table(
    "members",
    metadata,
    sa.Column("uid", sa.String(20), primary_key=True),  # the member card's tag UID (hex)
    sa.Column("nickname", sa.String(64), nullable=False),
    sa.Column("enrolled", sa.String(40), nullable=False),
    sa.Column("changed", sa.String(40), nullable=False),
    sa.Column("changed_by", sa.String(80), nullable=False),
    sa.Column("retired", sa.String(40)),  # a retired card names no seat any more
)
game_names_t = sa.Table(
    "game_names",
    metadata,
    # Who played a stored game under a member card: beside the record, never inside it.
    sa.Column("uid", sa.String(200), primary_key=True),
    sa.Column("player", sa.Integer, primary_key=True),  # the record's seat (engine player)
    sa.Column("nickname", sa.String(64), nullable=False, index=True),
)
sessions_t = sa.Table(
    "sessions",
    metadata,
    # Dashboard logins (``hub.auth``): the cookie's token is never stored, only its HMAC.
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("user", sa.String(80), nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("expires", sa.String(40), nullable=False),
)
refusals_t = sa.Table(
    "refusals",
    metadata,
    # Messages a table sent that the hub refused (``hub.messages``): how many, and the last.
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("first", sa.String(40), nullable=False),
    sa.Column("last", sa.String(40), nullable=False),
    sa.Column("topic", sa.String(40), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
)
meta_t = sa.Table(
    "hub_meta",
    metadata,
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)


@dataclass(frozen=True)
class TableRow:
    id: str
    online: bool
    status_at: str | None
    state: dict[str, Any] | None
    state_at: str | None


@dataclass(frozen=True)
class GameRow:
    uid: str
    table_id: str
    game: str
    options: dict[str, Any]
    seats: list[int]
    started: str | None
    finished: str | None
    totals: list[int]
    winners: list[int]
    report: dict[str, Any]
    record: str
    received: str = ""  # when the record reached the hub, by the hub's clock
    clock_set: bool | None = None  # whether the table says its clock was set; None: unsaid

    @property
    def started_trusted(self) -> bool:
        """Whether the table's start time can be believed (see ``table_time_trusted``)."""
        return table_time_trusted(self.started, self.clock_set)

    @property
    def finished_trusted(self) -> bool:
        """Whether the table's end time can be believed (see ``table_time_trusted``)."""
        return table_time_trusted(self.finished, self.clock_set)

    @property
    def times_trusted(self) -> bool:
        """Whether every time the table stamped the game with can be believed."""
        return self.finished_trusted and (self.started is None or self.started_trusted)


def table_time_trusted(stamp: str | None, clock_set: bool | None) -> bool:
    """Whether a table's stamp can be believed, judged as the table's own history judges
    it (``controller.records.clock.trusted_wall``): the table did not say its clock was not
    set, and the stamp is not from before the table's software (a Pi without a real-time
    clock starts in 1970 until NTP sets it)."""
    return trusted_wall(stamp, clock_set) is not None


def trusted_time(finished: str | None, clock_set: bool | None, received: str) -> str:
    """The time the hub files a game under: the table's end time when it can be believed,
    else the hub's own time of the record's arrival."""
    return finished if finished and table_time_trusted(finished, clock_set) else received


@dataclass(frozen=True)
class RefusalRow:
    """How many of a table's messages the hub refused, and why it refused the last."""

    table_id: str
    count: int
    first: str
    last: str
    topic: str
    reason: str


@dataclass(frozen=True)
class MemberRow:
    uid: str
    nickname: str
    enrolled: str
    changed: str
    changed_by: str
    retired: str | None


class MemberRefused(ValueError):
    """A member card the dashboard cannot enroll or rename; the message says why."""


@dataclass(frozen=True)
class AlertRow:
    table_id: str
    id: str
    kind: str
    seat: int | None
    text: str
    raised: str
    acked: str | None
    acked_by: str | None


SUPERSEDED = "superseded by a newer push before the table answered"
# A push unanswered this long is shown as timed out (the table may be off, or in a long
# game: it applies settings between games); an answer that comes later still counts.
CONFIG_TIMEOUT = dt.timedelta(minutes=15)


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


class Storage:
    """The hub's database. Safe to call from the MQTT thread and the web workers at once."""

    def __init__(self, url: str) -> None:
        self.url = url = engine_url(url)
        _create_private(url)
        connect_args = {"check_same_thread": False} if url.startswith("sqlite") else {}
        self.engine: Engine = sa.create_engine(url, connect_args=connect_args, pool_pre_ping=True)
        if url.startswith("sqlite"):
            # SQLite allows one writer: serialize ours rather than meet "database is locked".
            self._write_lock: threading.Lock | None = threading.Lock()
            with self.engine.connect() as db:
                db.exec_driver_sql("PRAGMA journal_mode=WAL")
        else:
            self._write_lock = None
        migrate(self.engine)
        self._private_files()

    def _private_files(self) -> None:
        """An SQLite file holds the dashboard's password hashes: only the hub may read it."""
        if not self.url.startswith("sqlite:///") or self.engine.url.database in (None, ":memory:"):
            return
        path = Path(str(self.engine.url.database))
        for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                part.chmod(0o600)

    def close(self) -> None:
        self.engine.dispose()

    @contextlib.contextmanager
    def _begin(self) -> Iterator[Connection]:
        """A write transaction (serialized on SQLite, which has one writer)."""
        lock = self._write_lock or contextlib.nullcontext()
        with lock, self.engine.begin() as db:
            yield db

    # --- from the tables -------------------------------------------------------------

    def table_status(self, table_id: str, online: bool, at: str | None = None) -> None:
        with self._begin() as db:
            self._ensure_table(db, table_id)
            db.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id)
                .values(online=online, status_at=at or now())
            )

    def table_state(self, table_id: str, state: dict[str, Any]) -> None:
        with self._begin() as db:
            self._ensure_table(db, table_id)
            db.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id)
                .values(state=json.dumps(state), state_at=now())
            )

    def add_record(self, table_id: str, message: dict[str, Any]) -> bool:
        """Store a finished game's record; False when its uid is already stored."""
        uid = str(message["uid"])
        report = message.get("report") or {}
        received = now()
        said = message.get("clock_set")
        clock_set = said if isinstance(said, bool) else None
        finished = message.get("finished")
        row = {
            "uid": uid,
            "table_id": table_id,
            "game": str(message.get("game", "?")),
            "options": json.dumps(message.get("options", {})),
            "seats": json.dumps(message.get("seats", [])),
            "started": message.get("started"),
            "finished": finished,
            "totals": json.dumps(report.get("totals", [])),
            "winners": json.dumps(report.get("winners", [])),
            "report": json.dumps(report),
            "record": str(message.get("record", "")),
            "received": received,
            "clock_set": clock_set,
            "played": trusted_time(
                finished if isinstance(finished, str) else None, clock_set, received
            ),
        }
        names = _nicknames(message.get("nicknames"))
        with self._begin() as db:
            self._ensure_table(db, table_id)
            exists = db.execute(sa.select(games_t.c.uid).where(games_t.c.uid == uid)).first()
            if exists is not None:
                return False
            db.execute(games_t.insert().values(**row))
            for player, nickname in names.items():
                db.execute(game_names_t.insert().values(uid=uid, player=player, nickname=nickname))
        return True

    def add_alert(self, table_id: str, message: dict[str, Any]) -> bool:
        alert_id = str(message["id"])
        with self._begin() as db:
            self._ensure_table(db, table_id)
            found = db.execute(
                sa.select(alerts_t.c.id).where(
                    alerts_t.c.table_id == table_id, alerts_t.c.id == alert_id
                )
            ).first()
            if found is not None:
                return False
            seat = message.get("seat")
            db.execute(
                alerts_t.insert().values(
                    table_id=table_id,
                    id=alert_id,
                    kind=str(message.get("kind", "alert")),
                    seat=seat if isinstance(seat, int) else None,
                    text=str(message.get("text", "")),
                    raised=str(message.get("at") or now()),
                )
            )
        return True

    def add_event(self, table_id: str, message: dict[str, Any]) -> bool:
        """Store an event; False when its ``uid`` is stored already (an event without one,
        from older table software, is always stored)."""
        uid = message.get("uid")
        with self._begin() as db:
            self._ensure_table(db, table_id)
            if uid is not None:
                found = db.execute(sa.select(events_t.c.n).where(events_t.c.uid == uid)).first()
                if found is not None:
                    return False
            db.execute(
                events_t.insert().values(
                    table_id=table_id,
                    kind=str(message.get("kind", "event")),
                    at=str(message.get("at") or now()),
                    data=json.dumps(message),
                    uid=None if uid is None else str(uid),
                )
            )
        return True

    def config_answered(self, table_id: str, message: dict[str, Any]) -> bool:
        """Keep a table's answer to a push; True when it answers the table's newest push."""
        request_id = str(message.get("id"))
        with self._begin() as db:
            db.execute(
                config_t.update()
                .where(config_t.c.id == request_id, config_t.c.table_id == table_id)
                .values(
                    ok=bool(message.get("ok")),
                    message=str(message.get("message", "")),
                    answered=now(),
                )
            )
        newest = self.newest_config(table_id)
        return newest is not None and newest["id"] == request_id

    def add_refusal(self, table_id: str, topic: str, reason: str, count: int = 1) -> None:
        """Count ``count`` messages of ``table_id`` the hub refused, and keep why (for the
        dashboard)."""
        stamp = now()
        with self._begin() as db:
            found = db.execute(
                sa.select(refusals_t.c.count).where(refusals_t.c.table_id == table_id)
            ).first()
            if found is None:
                db.execute(
                    refusals_t.insert().values(
                        table_id=table_id,
                        count=count,
                        first=stamp,
                        last=stamp,
                        topic=topic[:40],
                        reason=reason,
                    )
                )
            else:
                db.execute(
                    refusals_t.update()
                    .where(refusals_t.c.table_id == table_id)
                    .values(count=found[0] + count, last=stamp, topic=topic[:40], reason=reason)
                )

    def refusals(self) -> dict[str, RefusalRow]:
        """Per table: the messages the hub refused."""
        with self.engine.connect() as db:
            rows = db.execute(sa.select(refusals_t)).mappings().all()
        return {r["table_id"]: RefusalRow(**dict(r)) for r in rows}

    @staticmethod
    def _ensure_table(db: Connection, table_id: str) -> None:
        if db.execute(sa.select(tables_t.c.id).where(tables_t.c.id == table_id)).first() is None:
            db.execute(tables_t.insert().values(id=table_id, online=False))

    # --- for the dashboard -------------------------------------------------------------

    def tables(self) -> list[TableRow]:
        with self.engine.connect() as db:
            rows = db.execute(sa.select(tables_t)).mappings().all()
        rows = sorted(rows, key=lambda r: _natural(r["id"]))  # table-2 before table-10
        return [
            TableRow(
                r["id"],
                bool(r["online"]),
                r["status_at"],
                json.loads(r["state"]) if r["state"] else None,
                r["state_at"],
            )
            for r in rows
        ]

    def games(
        self,
        *,
        table_id: str | None = None,
        game: str | None = None,
        since: str | None = None,
        until: str | None = None,
        limit: int = 200,
    ) -> list[GameRow]:
        # Newest first by arrival at the hub (its own clock), never by the table's
        # `finished`: a Pi before NTP stamps 1970 and its game would sink to the bottom.
        # The dates filter on `played`: the table's end time only when it can be believed,
        # else the arrival (``trusted_time``).
        query = sa.select(games_t).order_by(games_t.c.received.desc()).limit(limit)
        if table_id:
            query = query.where(games_t.c.table_id == table_id)
        if game:
            query = query.where(games_t.c.game == game)
        if since:
            query = query.where(games_t.c.played >= since)
        if until:
            query = query.where(games_t.c.played < until)
        with self.engine.connect() as db:
            rows = db.execute(query).mappings().all()
        # Records that arrive in the same millisecond (a table's backlog after an outage)
        # keep the table's own order: its game numbers.
        rows = sorted(rows, key=lambda r: (r["received"], _table_sequence(r["uid"])), reverse=True)
        return [_game(r) for r in rows]

    def game(self, uid: str) -> GameRow | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(games_t).where(games_t.c.uid == uid)).mappings().first()
        return None if row is None else _game(row)

    def game_count(self) -> int:
        with self.engine.connect() as db:
            return int(db.execute(sa.select(sa.func.count()).select_from(games_t)).scalar_one())

    def alerts(self, *, open_only: bool = False) -> list[AlertRow]:
        query = sa.select(alerts_t).order_by(alerts_t.c.raised.desc())
        if open_only:
            query = query.where(alerts_t.c.acked.is_(None))
        with self.engine.connect() as db:
            rows = db.execute(query).mappings().all()
        return [AlertRow(**dict(r)) for r in rows]

    def ack_alert(self, table_id: str, alert_id: str, by: str) -> bool:
        with self._begin() as db:
            result = db.execute(
                alerts_t.update()
                .where(
                    alerts_t.c.table_id == table_id,
                    alerts_t.c.id == alert_id,
                    alerts_t.c.acked.is_(None),
                )
                .values(acked=now(), acked_by=by)
            )
        return bool(result.rowcount)

    def acked_since(self, table_id: str, since: str, limit: int = 50) -> list[str]:
        """Ids of ``table_id``'s alerts acknowledged since ``since`` (ISO time), newest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(alerts_t.c.id)
                .where(alerts_t.c.table_id == table_id, alerts_t.c.acked >= since)
                .order_by(alerts_t.c.acked.desc())
                .limit(limit)
            ).all()
        return [str(r[0]) for r in rows]

    def names(
        self, *, game: str | None = None, uid: str | None = None
    ) -> dict[str, dict[int, str]]:
        """Stored games' member nicknames: game uid -> {record seat: nickname}.

        ``game`` keeps the games of one kind (a join, not a list of ids: a busy
        café's year of games would pass a database's limit of parameters).
        """
        query = sa.select(game_names_t)
        if game is not None:
            query = query.join(games_t, games_t.c.uid == game_names_t.c.uid).where(
                games_t.c.game == game
            )
        if uid is not None:
            query = query.where(game_names_t.c.uid == uid)
        found: dict[str, dict[int, str]] = {}
        with self.engine.connect() as db:
            for r in db.execute(query).mappings():
                found.setdefault(r["uid"], {})[int(r["player"])] = r["nickname"]
        return found

    def leaderboard(self, game: str, limit: int = 10) -> list[dict[str, Any]]:
        """The best winning totals of ``game``: who won where and when, best first.

        ``name`` is the winner's nickname when a member card named the seat, else None.
        """
        rows = self.games(game=game, limit=10_000)
        names = self.names(game=game)
        best: list[dict[str, Any]] = []
        for row in rows:
            for seat in row.winners:
                if 0 <= seat < len(row.totals):
                    physical = row.seats[seat] if seat < len(row.seats) else seat
                    best.append(
                        {
                            "table": row.table_id,
                            "seat": physical + 1,
                            "name": names.get(row.uid, {}).get(seat),
                            "total": row.totals[seat],
                            "finished": row.finished,
                            "clock_set": row.clock_set,
                            "received": row.received,
                            "uid": row.uid,
                        }
                    )
        # Equal totals: the earlier game first, by the time the hub trusts for each.
        best.sort(
            key=lambda e: (-e["total"], trusted_time(e["finished"], e["clock_set"], e["received"]))
        )
        return best[:limit]

    def leaderboard_by_nickname(self, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """Members ranked for ``game``: wins, games played and best winning total, most wins first.

        Only seats a member card named count; anonymous games stay out.
        """
        rows = self.games(game=game, limit=100_000)
        names = self.names(game=game)
        board: dict[str, dict[str, Any]] = {}
        for row in rows:
            for player, nickname in names.get(row.uid, {}).items():
                entry = board.setdefault(
                    nickname, {"name": nickname, "games": 0, "wins": 0, "best": None}
                )
                entry["games"] += 1
                if player in row.winners:
                    entry["wins"] += 1
                    if 0 <= player < len(row.totals):
                        # As the board of best winning totals above: the highest total won with.
                        total = row.totals[player]
                        best = entry["best"]
                        entry["best"] = total if best is None else max(best, total)
        ranked = sorted(
            board.values(), key=lambda e: (-e["wins"], -e["games"], e["name"].casefold())
        )
        return ranked[:limit]

    def wins_by_table(self) -> dict[str, int]:
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_t.c.table_id, sa.func.count()).group_by(games_t.c.table_id)
            ).all()
        return {str(r[0]): int(r[1]) for r in rows}

    # --- member cards --------------------------------------------------------------------

    def members(self, *, include_retired: bool = False) -> list[MemberRow]:
        query = sa.select(members_t).order_by(members_t.c.nickname)
        if not include_retired:
            query = query.where(members_t.c.retired.is_(None))
        with self.engine.connect() as db:
            rows = db.execute(query).mappings().all()
        return [MemberRow(**dict(r)) for r in rows]

    def active_members(self) -> dict[str, str]:
        """What the tables are sent: member card UID -> nickname."""
        return {m.uid: m.nickname for m in self.members()}

    def set_member(self, uid: str, nickname: str, by: str) -> bool:
        """Enroll a member card, rename it, or bring a retired one back; True if new.

        ``uid`` and ``nickname`` are already checked (``hub.web``); a nickname
        another active card carries is refused (MemberRefused): the leaderboards
        would mix two people.
        """
        with self._begin() as db:
            clash = db.execute(
                sa.select(members_t.c.uid).where(
                    sa.func.lower(members_t.c.nickname) == nickname.lower(),
                    members_t.c.retired.is_(None),
                    members_t.c.uid != uid,
                )
            ).first()
            if clash is not None:
                raise MemberRefused(
                    f"The nickname {nickname} is taken by member card {clash[0]}: "
                    "choose another, or retire that card first"
                )
            found = db.execute(sa.select(members_t.c.uid).where(members_t.c.uid == uid)).first()
            stamp = now()
            if found is None:
                db.execute(
                    members_t.insert().values(
                        uid=uid, nickname=nickname, enrolled=stamp, changed=stamp, changed_by=by
                    )
                )
                return True
            db.execute(
                members_t.update()
                .where(members_t.c.uid == uid)
                .values(nickname=nickname, changed=stamp, changed_by=by, retired=None)
            )
        return False

    def retire_member(self, uid: str, by: str) -> bool:
        """Retire a member card: it names no seat any more (its games keep their names)."""
        stamp = now()
        with self._begin() as db:
            result = db.execute(
                members_t.update()
                .where(members_t.c.uid == uid, members_t.c.retired.is_(None))
                .values(retired=stamp, changed=stamp, changed_by=by)
            )
        return bool(result.rowcount)

    # --- users and configuration pushes ---------------------------------------------------

    def set_user(self, name: str, role: str, password_hash: str) -> None:
        """Add a user, or change one's role and password: that ends all their sessions."""
        with self._begin() as db:
            db.execute(users_t.delete().where(users_t.c.name == name))
            db.execute(users_t.insert().values(name=name, role=role, password=password_hash))
            db.execute(sessions_t.delete().where(sessions_t.c.user == name))

    def add_session(self, key: str, user: str, csrf: str, lasts: dt.timedelta) -> None:
        """Keep a new login session (``key``: ``hub.auth.session_key`` of its token)."""
        moment = dt.datetime.now(dt.UTC)
        with self._begin() as db:
            # Expired sessions go as new ones come: the table never grows without end.
            db.execute(sessions_t.delete().where(sessions_t.c.expires < now()))
            db.execute(
                sessions_t.insert().values(
                    key=key,
                    user=user,
                    csrf=csrf,
                    created=moment.isoformat(timespec="milliseconds"),
                    expires=(moment + lasts).isoformat(timespec="milliseconds"),
                )
            )

    def session(self, key: str) -> tuple[str, str, str] | None:
        """(user, role, CSRF token) of a live session, or None (unknown, ended, expired)."""
        query = (
            sa.select(sessions_t.c.user, users_t.c.role, sessions_t.c.csrf)
            .join(users_t, users_t.c.name == sessions_t.c.user)
            .where(sessions_t.c.key == key, sessions_t.c.expires > now())
        )
        with self.engine.connect() as db:
            row = db.execute(query).first()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def end_session(self, key: str) -> None:
        with self._begin() as db:
            db.execute(sessions_t.delete().where(sessions_t.c.key == key))

    def user(self, name: str) -> tuple[str, str] | None:
        """(role, password hash) of a user."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(users_t).where(users_t.c.name == name)).mappings().first()
        return None if row is None else (row["role"], row["password"])

    def add_config_request(
        self, request_id: str, table_id: str, settings: dict[str, Any], by: str
    ) -> int:
        """Keep a push to ``table_id``; its version (1, 2, ... per table).

        A push of the same table still waiting for its answer is superseded: the
        table gets only the newest (``hub.ingest``: one retained push per table).
        """
        stamp = now()
        with self._begin() as db:
            db.execute(
                config_t.update()
                .where(config_t.c.table_id == table_id, config_t.c.answered.is_(None))
                .values(ok=None, message=SUPERSEDED, answered=stamp)
            )
            db.execute(
                config_t.insert().values(
                    id=request_id,
                    table_id=table_id,
                    settings=json.dumps(settings),
                    sent=stamp,
                    sent_by=by,
                )
            )
            version = db.execute(
                sa.select(sa.func.count())
                .select_from(config_t)
                .where(config_t.c.table_id == table_id)
            ).scalar_one()
        return int(version)

    def newest_config(self, table_id: str) -> dict[str, Any] | None:
        """The newest push to ``table_id`` with its version, answered or not."""
        with self.engine.connect() as db:
            rows = (
                db.execute(
                    sa.select(config_t)
                    .where(config_t.c.table_id == table_id)
                    .order_by(config_t.c.sent.desc(), config_t.c.id)
                )
                .mappings()
                .all()
            )
        if not rows:
            return None
        return {**dict(rows[0]), "version": len(rows)}

    def config_requests(
        self, limit: int = 50, timeout: dt.timedelta = CONFIG_TIMEOUT
    ) -> list[dict[str, Any]]:
        """The newest pushes, each with its ``status``: pending, applied, refused,
        superseded or timed out (no answer within ``timeout``; it still counts if it comes).
        """
        with self.engine.connect() as db:
            rows = (
                db.execute(sa.select(config_t).order_by(config_t.c.sent.desc()).limit(limit))
                .mappings()
                .all()
            )
        late = (dt.datetime.now(dt.UTC) - timeout).isoformat(timespec="milliseconds")
        found = []
        for r in rows:
            row = dict(r)
            if row["answered"] is None:
                row["status"] = "timed out" if row["sent"] < late else "pending"
            elif row["ok"] is None:
                row["status"] = "superseded"
            else:
                row["status"] = "applied" if row["ok"] else "refused"
            found.append(row)
        return found

    def meta(self, key: str) -> str | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(meta_t.c.value).where(meta_t.c.key == key)).first()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._begin() as db:
            db.execute(meta_t.delete().where(meta_t.c.key == key))
            db.execute(meta_t.insert().values(key=key, value=value))


MIGRATIONS = Path(__file__).parent / "migrations"
BEFORE_MIGRATIONS = "0001"  # the schema of a hub from before Alembic (create_all)


def engine_url(url: str) -> str:
    """``url`` for SQLAlchemy: a plain ``postgresql://`` URL goes through psycopg 3."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url.removeprefix(plain)
    return url


def migrate(engine: Engine) -> None:
    """Bring the database's schema to this hub's version (Alembic ``upgrade head``).

    A database from before migrations (it has the hub's tables but no
    ``alembic_version``) is stamped as revision 0001 first; an empty one is
    built from scratch.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as db:
        config.attributes["connection"] = db
        existing = set(sa.inspect(db).get_table_names())
        if "alembic_version" not in existing and "games" in existing:
            command.stamp(config, BEFORE_MIGRATIONS)
        command.upgrade(config, "head")


def _create_private(url: str) -> None:
    """Create a new SQLite file readable by its owner only, before SQLite creates it."""
    database = sa.engine.make_url(url).database if url.startswith("sqlite:///") else None
    if database in (None, "", ":memory:"):
        return
    path = Path(str(database))
    if not path.exists() and path.parent.is_dir():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part
    )


def _nicknames(value: object) -> dict[int, str]:
    """A record message's ``nicknames`` (one per record seat, None for anonymous), checked."""
    if not isinstance(value, list):
        return {}
    names: dict[int, str] = {}
    for player, name in enumerate(value):
        if isinstance(name, str):
            try:
                names[player] = check_nickname(name)
            except NicknameError:
                continue  # a table's bad name costs the game its name, not its record
    return names


def _game(r: Any) -> GameRow:
    """A stored game as the pages use it.

    Records are checked before they are stored (``hub.messages``); a row an
    older hub stored unchecked reads with what is wrong in it left empty, so
    one bad row costs its own cells, never the page.
    """
    options, report = _loads(r["options"]), _loads(r["report"])
    return GameRow(
        uid=str(r["uid"]),
        table_id=str(r["table_id"]),
        game=str(r["game"]),
        options=options if isinstance(options, dict) else {},
        seats=_ints(r["seats"]),
        started=r["started"] if isinstance(r["started"], str) else None,
        finished=r["finished"] if isinstance(r["finished"], str) else None,
        totals=_ints(r["totals"]),
        winners=_ints(r["winners"]),
        report=report if isinstance(report, dict) else {},
        record=str(r["record"]),
        received=str(r["received"]),
        clock_set=r["clock_set"] if isinstance(r["clock_set"], bool) else None,
    )


def _table_sequence(uid: object) -> int:
    """The table's game number in a record uid (``table/journal/game/finished``), or -1."""
    parts = str(uid).split("/")
    return int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else -1


def _loads(text: object) -> object:
    try:
        return json.loads(str(text))
    except (ValueError, RecursionError):
        return None


def _ints(text: object) -> list[int]:
    """A stored JSON list of whole numbers, or [] when it is anything else."""
    value = _loads(text)
    if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return value
    return []
