"""The staff dashboard: server-rendered pages (FastAPI + Jinja2) with live updates (SSE).

Pages: the floor (every table: game, round, elapsed time, whose turn,
"running long", offline, open alerts), alerts to acknowledge, history with
filters and CSV export, a game's score sheet rendered from its record,
leaderboards (by nickname too), member cards, deck enrollment per table, and
configuration pushes (owners).
Everything but the login page needs a session (server-side, ``hub.auth``:
logout ends it at once); every form carries the session's CSRF token; failed
logins are rate-limited per user name and per address.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import datetime as dt
import functools
import io
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from fastapi.templating import Jinja2Templates

from controller.games import specs
from controller.games.base import TableError
from controller.records import scoresheet
from controller.records.record import replay
from controller.tags.members import check_member_uid, check_nickname
from hub import auth
from hub.ingest import Ingest, UnknownTable
from hub.messages import TableState, lenient_state
from hub.storage import MemberRefused, Storage, TableRow, table_time_trusted

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))


def when(stamp: object) -> str:
    """An ISO time as staff read it: ``30 Nov 2026, 18:40`` in the hub's local time."""
    if not isinstance(stamp, str) or not stamp:
        return ""
    try:
        moment = dt.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%-d %b %Y, %H:%M")


CLOCK_NOT_SET = "clock not set"  # as the table's own history says it


def table_when(stamp: str | None, clock_set: bool | None, received: str) -> str:
    """A table's stamp of a game as staff read it, or "clock not set (arrived ...)" when
    it cannot be believed (a Pi before NTP stamps 1970): never a 1970 date."""
    if not stamp:
        return ""
    if table_time_trusted(stamp, clock_set):
        return when(stamp)
    return f"{CLOCK_NOT_SET} (arrived {when(received)})" if received else CLOCK_NOT_SET


TEMPLATES.env.filters["when"] = when
TEMPLATES.env.globals["table_when"] = table_when
SESSION_COOKIE = "cafe_session"
SESSION_LASTS = dt.timedelta(hours=12)  # a login lasts a long evening, then ends
MAX_PASSWORD = 1_024  # characters checked of a password (scrypt of megabytes costs seconds)
MAX_CONFIG_CHARS = 4_000  # a push is a few settings; the broker bounds its packets anyway
RUNNING_LONG = dt.timedelta(minutes=90)  # a game longer than this is flagged on the floor


class Live:
    """Fans the ingest's changes out to every open dashboard page (server-sent events)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[str]] = set()

    def publish(self, table_id: str, leaf: str, payload: dict[str, Any]) -> None:
        """Called on the MQTT thread: hand the change to the event loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        message = json.dumps({"table": table_id, "what": leaf, "at": _now()})
        loop.call_soon_threadsafe(self._fan_out, message)

    def _fan_out(self, message: str) -> None:
        for q in list(self.queues):
            if q.qsize() < 100:  # a stalled page drops updates rather than grow without end
                q.put_nowait(message)


@dataclass(frozen=True)
class Session:
    """A logged-in browser: whose it is, and the CSRF token its forms must post back."""

    key: str  # hub.auth.session_key of the cookie's token
    user: str
    role: str
    csrf: str


def create_app(
    storage: Storage,
    ingest: Ingest | None,
    secret: str,
    limiter: auth.LoginLimiter | None = None,
    address_limiter: auth.LoginLimiter | None = None,
) -> FastAPI:
    """The dashboard. ``secret`` keys what the database keeps of session tokens."""
    live = Live()
    if ingest is not None:
        ingest.listeners.append(live.publish)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        live.loop = asyncio.get_running_loop()
        yield
        live.loop = None

    app = FastAPI(
        title="Café tables", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    read_states = StateReader()
    users = limiter or auth.LoginLimiter(auth.USER_ATTEMPTS)
    addresses = address_limiter or auth.LoginLimiter(auth.ADDRESS_ATTEMPTS)

    def session_of(request: Request) -> Session | None:
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 100:
            return None
        key = auth.session_key(secret, token)
        found = storage.session(key)
        return None if found is None else Session(key, *found)

    def user_of(request: Request, role: str = "staff") -> str:
        session = session_of(request)
        if session is None:
            raise HTTPException(status_code=303, headers={"Location": "/login"})
        if role == "owner" and session.role != "owner":
            raise HTTPException(status_code=403, detail="owners only")
        return session.user

    def check_csrf(request: Request, token: str) -> Session:
        session = session_of(request)
        if session is None or not auth.tokens_match(token, session.csrf):
            raise HTTPException(status_code=403, detail="the form is stale; reload the page")
        return session

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        session = session_of(request)
        context.update(
            request=request,
            user=None if session is None else session.user,
            role=None if session is None else session.role,
            csrf="" if session is None else session.csrf,
            open_alerts=len(storage.alerts(open_only=True)),
        )
        return TEMPLATES.TemplateResponse(request, name, context)

    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request) -> HTMLResponse:
        return page(request, "login.html", error=None)

    @app.post("/login", response_class=HTMLResponse)
    def login(request: Request, name: str = Form(""), password: str = Form("")) -> Response:
        address = f"ip:{request.client.host if request.client else '?'}"
        user = f"user:{name[:80]}"
        if users.blocked(user) or addresses.blocked(address):
            response = page(request, "login.html", error="Too many tries: wait a few minutes.")
            response.status_code = 429
            return response
        found = storage.user(name) if 0 < len(name) <= 80 else None
        # An unknown name costs the same scrypt as a known one: the time tells nothing.
        stored = auth.dummy_hash() if found is None else found[1]
        right = auth.verify_password(password[:MAX_PASSWORD], stored) and found is not None
        if not right:
            users.failed(user)
            addresses.failed(address)
            response = page(request, "login.html", error="Wrong name or password.")
            response.status_code = 401
            return response
        users.succeeded(user)
        token = auth.new_token()
        storage.add_session(auth.session_key(secret, token), name, auth.new_token(), SESSION_LASTS)
        redirect = RedirectResponse("/", status_code=303)
        redirect.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=int(SESSION_LASTS.total_seconds()),
            httponly=True,
            samesite="strict",
            # Over TLS (the hub's own, or a reverse proxy that says so) the cookie never
            # goes over plain HTTP.
            secure=request.url.scheme == "https",
        )
        return redirect

    @app.post("/logout")
    def logout(request: Request, csrf: str = Form("")) -> Response:
        session = check_csrf(request, csrf)
        storage.end_session(session.key)  # the cookie is worth nothing from now on
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="strict")
        return response

    @app.get("/", response_class=HTMLResponse)
    def floor(request: Request) -> HTMLResponse:
        user_of(request)
        return page(request, "floor.html", tables=floor_rows(storage, read_states))

    @app.get("/floor.json")
    def floor_json(request: Request) -> list[dict[str, Any]]:
        user_of(request)
        return floor_rows(storage, read_states)

    @app.get("/live")
    async def live_updates(request: Request) -> StreamingResponse:
        user_of(request)
        queue: asyncio.Queue[str] = asyncio.Queue()
        live.queues.add(queue)

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 2000\n\n"
                while not await request.is_disconnected():
                    try:
                        message = await asyncio.wait_for(queue.get(), timeout=15)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    yield f"data: {message}\n\n"
            finally:
                live.queues.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream")

    @app.get("/alerts", response_class=HTMLResponse)
    def alerts(request: Request) -> HTMLResponse:
        user_of(request)
        return page(request, "alerts.html", alerts=storage.alerts())

    @app.post("/alerts/{table_id}/{alert_id}/ack")
    def ack(request: Request, table_id: str, alert_id: str, csrf: str = Form("")) -> Response:
        name = user_of(request)
        check_csrf(request, csrf)
        if ingest is not None:
            ingest.ack_alert(table_id, alert_id, name)
        else:
            storage.ack_alert(table_id, alert_id, name)
        return RedirectResponse("/alerts", status_code=303)

    @app.get("/history", response_class=HTMLResponse)
    def history(
        request: Request, table: str = "", game: str = "", since: str = "", until: str = ""
    ) -> HTMLResponse:
        user_of(request)
        rows = storage.games(
            table_id=table or None, game=game or None, since=since or None, until=until or None
        )
        return page(
            request,
            "history.html",
            games=rows,
            titles=_titles(),
            filters={"table": table, "game": game, "since": since, "until": until},
            tables=[t.id for t in storage.tables()],
        )

    @app.get("/history.csv")
    def history_csv(
        request: Request, table: str = "", game: str = "", since: str = "", until: str = ""
    ) -> Response:
        user_of(request)
        rows = storage.games(
            table_id=table or None,
            game=game or None,
            since=since or None,
            until=until or None,
            limit=100_000,
        )
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                "uid",
                "table",
                "game",
                "options",
                "started",
                "finished",
                "totals",
                "winners (seats from 1)",
                "received",
                "clock_set",
            ]
        )
        for row in rows:
            winners = " ".join(str(_seat(row.seats, w)) for w in row.winners)
            writer.writerow(
                [
                    csv_cell(cell)
                    for cell in (
                        row.uid,
                        row.table_id,
                        row.game,
                        json.dumps(row.options),
                        # A time the table stamped on a clock not set is left empty,
                        # as in the table's own CSV; `received` is the hub's own.
                        row.started if row.started_trusted else "",
                        row.finished if row.finished_trusted else "",
                        " ".join(map(str, row.totals)),
                        winners,
                        row.received,
                        "yes" if row.times_trusted else "no",
                    )
                ]
            )
        return Response(
            out.getvalue(),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="history.csv"'},
        )

    @app.get("/games/{uid:path}", response_class=HTMLResponse)
    def game_sheet(request: Request, uid: str) -> HTMLResponse:
        user_of(request)
        row = storage.game(uid)
        if row is None:
            raise HTTPException(status_code=404, detail="no such game")
        try:
            # Each player named by the seat where they sat, as the table's screens did.
            sheet = scoresheet.render(replay(row.record), seats=row.seats)
        except TableError as exc:
            sheet = f"The record does not replay: {exc}"
        return page(request, "game.html", game=row, sheet=sheet, titles=_titles())

    @app.get("/leaderboards", response_class=HTMLResponse)
    def leaderboards(request: Request) -> HTMLResponse:
        user_of(request)
        boards = {spec.title: storage.leaderboard(game_id) for game_id, spec in specs().items()}
        members = {
            spec.title: storage.leaderboard_by_nickname(game_id)
            for game_id, spec in specs().items()
        }
        return page(
            request,
            "leaderboards.html",
            boards=boards,
            members={title: rows for title, rows in members.items() if rows},
            counts=storage.wins_by_table(),
        )

    # --- member cards: enrolled here, sent to every table (docs/cafe.md "Player cards") ---

    def members_page(
        request: Request, error: str | None = None, form: dict[str, str] | None = None
    ) -> HTMLResponse:
        response = page(
            request,
            "members.html",
            members=storage.members(),
            retired=[m for m in storage.members(include_retired=True) if m.retired],
            error=error,
            form=form or {"uid": "", "nickname": ""},
        )
        if error:
            response.status_code = 400
        return response

    def members_changed() -> None:
        if ingest is not None:
            ingest.push_members()

    @app.get("/members", response_class=HTMLResponse)
    def members(request: Request) -> HTMLResponse:
        user_of(request)
        return members_page(request)

    @app.post("/members", response_class=HTMLResponse)
    def enroll_member(
        request: Request, uid: str = Form(""), nickname: str = Form(""), csrf: str = Form("")
    ) -> Response:
        name = user_of(request)
        check_csrf(request, csrf)
        try:
            card = check_member_uid(uid)
            nick = check_nickname(nickname)
            storage.set_member(card, nick, name)
        except (TableError, MemberRefused) as exc:
            # Each reason is one sentence that starts with a capital (a nickname never does
            # here: it is shown as it was typed).
            return members_page(request, f"{exc}.", form={"uid": uid, "nickname": nickname})
        members_changed()
        return RedirectResponse("/members", status_code=303)

    @app.post("/members/{uid}/retire")
    def retire_member(request: Request, uid: str, csrf: str = Form("")) -> Response:
        name = user_of(request)
        check_csrf(request, csrf)
        if storage.retire_member(uid, name):
            members_changed()
        return RedirectResponse("/members", status_code=303)

    @app.get("/decks", response_class=HTMLResponse)
    def decks(request: Request) -> HTMLResponse:
        user_of(request)
        rows = [(t.id, lenient_state(t.state)[0].decks) for t in storage.tables()]
        return page(request, "decks.html", rows=rows)

    @app.get("/config", response_class=HTMLResponse)
    def config_form(request: Request) -> HTMLResponse:
        user_of(request, "owner")
        return page(
            request,
            "config.html",
            tables=[t.id for t in storage.tables()],
            requests=storage.config_requests(),
            error=None,
        )

    @app.post("/config", response_class=HTMLResponse)
    def config_push(
        request: Request, table: str = Form(""), settings: str = Form(""), csrf: str = Form("")
    ) -> Response:
        name = user_of(request, "owner")
        check_csrf(request, csrf)

        def refused(error: str) -> Response:
            response = page(
                request,
                "config.html",
                tables=[t.id for t in storage.tables()],
                requests=storage.config_requests(),
                error=error,
            )
            response.status_code = 400
            return response

        if len(settings) > MAX_CONFIG_CHARS:
            return refused(f"Settings are at most {MAX_CONFIG_CHARS} characters.")
        try:
            parsed = json.loads(settings)
            if not isinstance(parsed, dict):
                raise ValueError("not an object")
        except (ValueError, RecursionError):
            return refused('Settings must be a JSON object, e.g. {"table": {"language": "de"}}.')
        if ingest is None:
            return refused("The hub runs without its broker connection: nothing can be sent.")
        try:
            ingest.push_config(table, parsed, name)
        except UnknownTable as exc:
            return refused(f"{exc}.")
        return RedirectResponse("/config", status_code=303)

    return app


UNKNOWN = "?"  # what the floor shows for a field a table sent that cannot be shown


class StateReader:
    """``hub.messages.lenient_state`` for the floor, once per stored state.

    An open floor page fetches every table's state on every live update (some
    25 a second in a busy café); a state is read again only when its table
    stored a new one (a new ``state_at`` or ``version``).
    """

    def __init__(self) -> None:
        self._read: dict[str, tuple[tuple[object, object], tuple[TableState, set[str]]]] = {}

    def __call__(self, table: TableRow) -> tuple[TableState, set[str]]:
        state: object = table.state  # stored JSON: an older hub may have stored anything
        key = (table.state_at, state.get("version") if isinstance(state, dict) else None)
        found = self._read.get(table.id)
        if found is not None and found[0] == key:
            return found[1]
        read = lenient_state(table.state)
        self._read[table.id] = (key, read)
        return read


def game_elapsed(state: TableState, state_at: str | None, now: dt.datetime) -> dt.timedelta | None:
    """How long the table's game has run: the elapsed time the table reported (its own
    steady clock), plus, while it plays on, the hub's time since that report came.

    Never a table's start time against the hub's clock: a table's wall clock may be far
    off (a Pi without a real-time clock starts in 1970 until NTP has set it).
    """
    if state.game_elapsed is None:
        return None
    elapsed = dt.timedelta(seconds=state.game_elapsed)
    if state.screen == "play" and state_at is not None:
        with contextlib.suppress(ValueError, TypeError):
            since = now - dt.datetime.fromisoformat(state_at)
            elapsed += max(since, dt.timedelta(0))
    return elapsed


def floor_rows(
    storage: Storage, read_state: Callable[[TableRow], tuple[TableState, set[str]]] | None = None
) -> list[dict[str, Any]]:
    """One row per table for the floor view.

    Built defensively: a stored state is read through ``hub.messages.lenient_state``,
    so a field that is not what it should be shows as "?" on that table's card only.
    """
    read_state = read_state or (lambda table: lenient_state(table.state))
    open_alerts: dict[str, int] = {}
    for alert in storage.alerts(open_only=True):
        open_alerts[alert.table_id] = open_alerts.get(alert.table_id, 0) + 1
    refusals = storage.refusals()
    rows = []
    now = dt.datetime.now(dt.UTC)
    for table in storage.tables():
        state, bad = read_state(table)
        elapsed = game_elapsed(state, table.state_at, now)
        shown = functools.partial(_shown, bad)
        refused = refusals.get(table.id)
        rows.append(
            {
                "id": table.id,
                "online": table.online,
                "screen": UNKNOWN if "state" in bad else shown("screen", state.screen),
                "game": shown("title", state.title),
                "round": shown("round", state.round),
                "waiting": shown("waiting_for", state.waiting_for),
                "scores": shown("totals", state.totals),
                "readers_offline": shown("readers_offline", state.readers_offline),
                # Seats a member card named: "Mika (seat 2)", as the table counts seats.
                "members": shown(
                    "nicknames",
                    [f"{name} (seat {seat})" for seat, name in state.nicknames.items()],
                ),
                "journal": shown("journal", state.journal),
                "elapsed_min": None if elapsed is None else int(elapsed.total_seconds() // 60),
                "running_long": elapsed is not None and elapsed > RUNNING_LONG,
                "alerts": open_alerts.get(table.id, 0),
                "updated": table.state_at,
                "version": shown("version", state.version),
                # The messages of this table the hub refused: one line, however many.
                "refused": 0 if refused is None else refused.count,
                "problem": None if refused is None else refused.reason,
            }
        )
    return rows


def _shown(bad: set[str], field: str, value: Any) -> Any:
    return UNKNOWN if field in bad else value


def csv_cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: never a formula (=, +, -, @, tab, CR first)."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def _titles() -> dict[str, str]:
    return {game_id: spec.title for game_id, spec in specs().items()}


def _seat(seats: list[int], player: int) -> int:
    return (seats[player] if player < len(seats) else player) + 1


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
