"""The staff dashboard: server-rendered pages (FastAPI + Jinja2) with live updates (SSE).

Pages: the floor (every table: game, round, elapsed time, whose turn,
"running long", offline, open alerts), alerts to acknowledge, history with
filters and CSV export, a game's score sheet rendered from its record,
leaderboards (by nickname too), member cards, deck enrollment per table, and
configuration pushes (owners).
Everything but the login page needs a session; every form carries the
session's CSRF token; failed logins are rate-limited.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import datetime as dt
import functools
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from fastapi.templating import Jinja2Templates
from starlette.middleware.sessions import SessionMiddleware

from controller import scoresheet
from controller.games import specs
from controller.games.base import TableError
from controller.members import check_member_uid, check_nickname
from controller.record import replay
from hub import auth
from hub.ingest import Ingest, UnknownTable
from hub.messages import lenient_state
from hub.storage import MemberRefused, Storage

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


TEMPLATES.env.filters["when"] = when
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


def create_app(
    storage: Storage, ingest: Ingest | None, secret: str, limiter: auth.LoginLimiter | None = None
) -> FastAPI:
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
    app.add_middleware(SessionMiddleware, secret_key=secret, same_site="strict", max_age=12 * 3600)
    limiter = limiter or auth.LoginLimiter()

    def user_of(request: Request, role: str = "staff") -> str:
        name = request.session.get("user")
        if not isinstance(name, str):
            raise HTTPException(status_code=303, headers={"Location": "/login"})
        found = storage.user(name)
        if found is None:
            request.session.clear()
            raise HTTPException(status_code=303, headers={"Location": "/login"})
        if role == "owner" and found[0] != "owner":
            raise HTTPException(status_code=403, detail="owners only")
        return name

    def check_csrf(request: Request, token: str) -> None:
        if not auth.tokens_match(token, request.session.get("csrf")):
            raise HTTPException(status_code=403, detail="the form is stale; reload the page")

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        context.update(
            request=request,
            user=request.session.get("user"),
            role=request.session.get("role"),
            csrf=request.session.get("csrf", ""),
            open_alerts=len(storage.alerts(open_only=True)),
        )
        return TEMPLATES.TemplateResponse(request, name, context)

    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request) -> HTMLResponse:
        return page(request, "login.html", error=None)

    @app.post("/login", response_class=HTMLResponse)
    def login(request: Request, name: str = Form(...), password: str = Form(...)) -> Response:
        keys = (f"ip:{request.client.host if request.client else '?'}", f"user:{name}")
        if limiter.blocked(*keys):
            response = page(request, "login.html", error="Too many tries: wait a few minutes.")
            response.status_code = 429
            return response
        found = storage.user(name)
        if found is None or not auth.verify_password(password, found[1]):
            limiter.failed(*keys)
            response = page(request, "login.html", error="Wrong name or password.")
            response.status_code = 401
            return response
        limiter.succeeded(*keys)
        request.session.clear()
        request.session.update(user=name, role=found[0], csrf=auth.new_token())
        return RedirectResponse("/", status_code=303)

    @app.post("/logout")
    def logout(request: Request, csrf: str = Form("")) -> Response:
        check_csrf(request, csrf)
        request.session.clear()
        return RedirectResponse("/login", status_code=303)

    @app.get("/", response_class=HTMLResponse)
    def floor(request: Request) -> HTMLResponse:
        user_of(request)
        return page(request, "floor.html", tables=floor_rows(storage))

    @app.get("/floor.json")
    def floor_json(request: Request) -> list[dict[str, Any]]:
        user_of(request)
        return floor_rows(storage)

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
                        row.started,
                        row.finished,
                        " ".join(map(str, row.totals)),
                        winners,
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
            sheet = scoresheet.render(replay(row.record))
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


def floor_rows(storage: Storage) -> list[dict[str, Any]]:
    """One row per table for the floor view.

    Built defensively: a stored state is read through ``hub.messages.lenient_state``,
    so a field that is not what it should be shows as "?" on that table's card only.
    """
    open_alerts: dict[str, int] = {}
    for alert in storage.alerts(open_only=True):
        open_alerts[alert.table_id] = open_alerts.get(alert.table_id, 0) + 1
    refusals = storage.refusals()
    rows = []
    now = dt.datetime.now(dt.UTC)
    for table in storage.tables():
        state, bad = lenient_state(table.state)
        elapsed = None
        if state.game_started is not None:
            with contextlib.suppress(ValueError):
                elapsed = now - dt.datetime.fromisoformat(state.game_started)
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
