"""The hub and a table's clock that was not set (issue 33 item 7): a Pi without a
real-time clock stamps 1970 until NTP has set it. The hub keeps such a game, files it
under its own arrival time, and shows "clock not set" where the table's date would be,
on every page and in the CSV; the date filters read only a time the hub can trust.
On SQLite and PostgreSQL, as the other hub tests."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from controller.fleet.outbox import record_payload
from controller.fleet.topics import RECORD
from controller.records.record import replay
from hub import auth, messages
from hub.storage import MIGRATIONS, Storage, engine_url, table_time_trusted
from hub.web import create_app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")
REPORT = replay(SAMPLE).report()
PASSWORD = "correct horse battery"
SET = "2026-11-30T18:40:00+00:00"  # a table whose clock was set
UNSET = "1970-01-01T00:40:00+00:00"  # a Pi before NTP
STALE = "2026-11-02T09:00:00+00:00"  # believable, but the table says its clock was not set


def record(uid: str, finished: str, clock_set: bool | None) -> dict[str, Any]:
    started = finished.replace(":40:", ":00:")
    message: dict[str, Any] = {
        "uid": uid,
        "game": "oshaka-trick",
        "seats": [0, 1, 2, 3],
        "started": started,
        "finished": finished,
        "report": REPORT,
        "record": SAMPLE,
    }
    if clock_set is not None:
        message["clock_set"] = clock_set
    return message


@pytest.fixture
def storage(storage_url: str) -> Iterator[Storage]:
    store = Storage(storage_url)
    store.set_user("sam", "staff", auth.hash_password(PASSWORD))
    store.add_record("table-1", record("table-1/x/1/set", SET, True))
    store.add_record("table-1", record("table-1/x/2/unset", UNSET, False))
    store.add_record("table-1", record("table-1/x/3/older-table", UNSET, None))
    store.add_record("table-1", record("table-1/x/4/stale", STALE, False))
    yield store
    store.close()


def uids(rows: list[Any]) -> set[str]:
    return {row.uid.rsplit("/", 1)[-1] for row in rows}


def test_the_date_filters_read_the_tables_time_only_when_its_clock_was_set(
    storage: Storage,
) -> None:
    # Every record arrived just now: the games stamped on a clock not set are filed
    # under that arrival, the one whose table's clock was set under its own end.
    just_before = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).isoformat()
    assert uids(storage.games(since=just_before)) == {"unset", "older-table", "stale"}
    assert uids(storage.games(since="2026-11-30", until="2026-12-01")) == {"set"}
    assert uids(storage.games(until="2000-01-01")) == set()  # no game in 1970
    assert uids(storage.games(since="2026-11-01", until="2026-11-03")) == set()  # nor "stale"
    assert uids(storage.games()) == {"set", "unset", "older-table", "stale"}


def test_a_time_is_believed_unless_the_table_said_its_clock_was_not_set_or_it_is_1970() -> None:
    assert table_time_trusted(SET, True) and table_time_trusted(SET, None)
    assert not table_time_trusted(SET, False)
    assert not table_time_trusted(UNSET, True) and not table_time_trusted(UNSET, None)
    assert not table_time_trusted(None, True) and not table_time_trusted("not a time", None)


def logged_in(storage: Storage) -> TestClient:
    client = TestClient(create_app(storage, None, "test-secret"))
    client.post("/login", data={"name": "sam", "password": PASSWORD})
    return client


def test_every_page_says_clock_not_set_instead_of_a_1970_date(storage: Storage) -> None:
    client = logged_in(storage)
    history = client.get("/history").text
    assert history.count("clock not set (arrived ") == 3
    assert "30 Nov 2026, " in history  # the game whose table's clock was set: its own time
    assert "1 Jan 1970" not in history and "2 Nov 2026" not in history
    for uid in ("table-1/x/2/unset", "table-1/x/3/older-table", "table-1/x/4/stale"):
        page = client.get(f"/games/{uid}").text
        assert "Started clock not set, finished clock not set (arrived " in page, uid
        assert "1970" not in page and "2 Nov 2026" not in page
    page = client.get("/games/table-1/x/1/set").text
    assert "Started 30 Nov 2026, " in page and "finished 30 Nov 2026, " in page
    board = client.get("/leaderboards").text
    assert board.count("clock not set (arrived ") == 3 and "1 Jan 1970" not in board


def test_the_csv_leaves_a_time_on_a_clock_not_set_empty_and_says_so(storage: Storage) -> None:
    rows = list(csv.DictReader(io.StringIO(logged_in(storage).get("/history.csv").text)))
    by_uid = {row["uid"].rsplit("/", 1)[-1]: row for row in rows}
    assert by_uid["set"]["started"] == SET.replace(":40:", ":00:")
    assert by_uid["set"]["finished"] == SET and by_uid["set"]["clock_set"] == "yes"
    for uid in ("unset", "older-table", "stale"):
        row = by_uid[uid]
        assert (row["started"], row["finished"], row["clock_set"]) == ("", "", "no"), row
        assert row["received"].startswith(str(dt.datetime.now(dt.UTC).year))


def test_the_hub_keeps_a_game_a_table_stamped_in_1970() -> None:
    # It was refused ("is before 2020"): the café lost every game played before NTP.
    message = {
        **record("table-1/1970-01-01T00:00:00+00:00/1/" + UNSET, UNSET, False),
        "table": "table-1",
        "journal_game": 1,
        "options": {},
    }
    parsed = messages.parse("table-1", RECORD, json.dumps(message).encode())
    assert isinstance(parsed, messages.RecordMessage)
    assert parsed.finished == UNSET and parsed.clock_set is False
    future = (dt.datetime.now(dt.UTC) + dt.timedelta(days=30)).isoformat()
    with pytest.raises(messages.Refused, match="future"):
        messages.parse("table-1", RECORD, json.dumps({**message, "finished": future}).encode())


def test_a_table_says_whether_its_clock_was_set_when_the_game_ended() -> None:
    row = {
        "id": 1,
        "game": "oshaka-trick",
        "header": json.dumps({"options": {}}),
        "players": "[0, 1, 2, 3]",
        "started": UNSET,
        "finished": UNSET,
        "report": None,
        "record": SAMPLE,
    }
    assert record_payload({**row, "finished_synced": 0})["clock_set"] is False
    assert record_payload({**row, "finished_synced": 1})["clock_set"] is True
    assert "clock_set" not in record_payload({**row, "finished_synced": None})


def test_games_stored_before_the_migration_are_filed_by_a_time_the_hub_trusts(
    storage_url: str,
) -> None:
    engine = sa.create_engine(engine_url(storage_url))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as db:
        config.attributes["connection"] = db
        command.upgrade(config, "0003")
        for uid, finished in (("t/x/1/old-set", SET), ("t/x/2/old-unset", UNSET)):
            db.execute(
                sa.text(
                    "INSERT INTO games (uid, table_id, game, options, seats, finished, totals, "
                    "winners, report, record, received) VALUES (:uid, 't', 'oshaka-trick', '{}', "
                    "'[0, 1, 2, 3]', :finished, '[]', '[]', '{}', '', '2026-12-01T20:00:00+00:00')"
                ),
                {"uid": uid, "finished": finished},
            )
    engine.dispose()
    storage = Storage(storage_url)
    try:
        assert uids(storage.games(since="2026-12-01")) == {"old-unset"}
        assert uids(storage.games(until="2026-12-01")) == {"old-set"}
    finally:
        storage.close()


@pytest.mark.parametrize(
    ("leaf", "fields"),
    [
        ("alert", {"id": "call-1", "kind": "staff-call", "text": "Seat 2 calls", "seat": 1}),
        ("event", {"kind": "reader-offline", "seat": 2}),
    ],
)
def test_an_alert_or_event_stamped_before_the_clock_was_set_is_kept_at_its_arrival(
    storage: Storage, leaf: str, fields: dict[str, Any]
) -> None:
    # It was refused ("is before 2020"), so a staff call made before NTP never reached
    # the floor. Now the stamp is dropped and the hub's own time files it.
    parsed = messages.parse("table-1", leaf, json.dumps({**fields, "at": UNSET}).encode())
    assert isinstance(parsed, messages.Alert | messages.Event) and parsed.at is None
    before = dt.datetime.now(dt.UTC)
    if leaf == "alert":
        assert storage.add_alert("table-1", parsed.model_dump(exclude_unset=True))
        stored = next(a for a in storage.alerts(open_only=True) if a.id == "call-1").raised
    else:
        assert storage.add_event("table-1", parsed.model_dump(mode="json", exclude_unset=True))
        with storage.engine.connect() as db:
            stored = db.execute(sa.text("SELECT at FROM events ORDER BY n DESC")).scalar_one()
    assert dt.datetime.fromisoformat(str(stored)) >= before.replace(microsecond=0)
    future = (dt.datetime.now(dt.UTC) + dt.timedelta(days=30)).isoformat()
    with pytest.raises(messages.Refused, match="future"):
        messages.parse("table-1", leaf, json.dumps({**fields, "at": future}).encode())
