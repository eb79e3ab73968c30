"""Every message checked at the hub's edge; refusals counted per table; pages that never break.

The cases are the ones a table's password could send (issue 31): records that
do not replay to what they claim, states with fields of the wrong kind,
"false" as a string, a game called ``=HYPERLINK(...)``. Each is refused with a
one-line reason, counted for its table and shown on the floor; and rows an
older hub stored unchecked cost their own cells, never a page.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from controller.fleet import topics
from controller.records.record import replay
from hub import auth, messages
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage, events_t, games_t, tables_t
from hub.web import create_app, csv_cell
from tests.test_hub_config import SentPushes

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")
REPORT = replay(SAMPLE).report()
PASSWORD = "correct horse battery"


def good_record(**change: Any) -> dict[str, Any]:
    record = {
        "uid": "table-1/2026-11-30T17:00:00+01:00/1/2026-11-30T18:40:00+01:00",
        "table": "table-1",
        "game": "oshaka-trick",
        "journal_game": 1,
        "options": {},
        "seats": [0, 1, 2, 3],
        "started": "2026-11-30T18:00:00+01:00",
        "finished": "2026-11-30T18:40:00+01:00",
        "report": REPORT,
        "record": SAMPLE,
    }
    record.update(change)
    return record


def future() -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(days=30)).isoformat()


BAD_RECORDS: dict[str, tuple[dict[str, Any], str]] = {
    "seats not a list": ({"seats": "q"}, "seats"),
    "totals not a list": ({"report": {**REPORT, "totals": "x"}}, "totals"),
    "finished in the future": ({"finished": future()}, "future"),
    "a formula for a game": ({"game": '=HYPERLINK("http://x","y")'}, "game"),
    "an unknown game": ({"game": "chess"}, "not a game this hub knows"),
    "winners out of range": ({"report": {**REPORT, "winners": [9]}}, "winners"),
    "totals that do not replay": ({"report": {**REPORT, "totals": [1, 2, 3, 4]}}, "replays to"),
    "text that does not replay": (
        {"record": SAMPLE.replace('"lead": 0', '"lead": 1')},
        "does not replay",
    ),
    "another table's uid": ({"uid": "table-2/x/1/y"}, "not one of table-1's"),
    "too few seats": ({"seats": [0, 1, 2]}, "seats named"),
    "a game of another kind": ({"game": "oskar"}, "not 'oskar'"),
    "no time zone": ({"finished": "2026-11-30T18:40:00"}, "time zone"),
    "an unfinished report": ({"report": {**REPORT, "finished": False}}, "finished"),
}

BAD_STATES = {
    "game_started without a time zone": {"game_started": "2026-11-30T18:00:00"},
    "nicknames as a list": {"nicknames": ["Mika"]},
    "readers_offline as a number": {"readers_offline": 3},
    "waiting_for as a string": {"waiting_for": "2"},
    "totals as a string": {"totals": "31"},
    "a title of two lines": {"title": "Oh\nPshaw"},
    "a seat past the table": {"waiting_for": [99]},
    "a huge round": {"round": 10**30},
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_a_record_is_refused_unless_it_replays_to_what_it_claims(case: str) -> None:
    change, words = BAD_RECORDS[case]
    with pytest.raises(messages.Refused) as refused:
        messages.parse("table-1", topics.RECORD, json.dumps(good_record(**change)).encode())
    reason = str(refused.value)
    assert reason.startswith("record: ") and words in reason, reason
    assert "\n" not in reason and len(reason) <= 300


def test_a_good_record_is_stored_with_the_replays_own_report() -> None:
    checked = messages.parse("table-1", topics.RECORD, json.dumps(good_record()).encode())
    assert isinstance(checked, messages.RecordMessage)
    assert checked.replayed.report["totals"] == REPORT["totals"]
    assert checked.replayed.report["winners"] == REPORT["winners"]


@pytest.mark.parametrize("case", sorted(BAD_STATES))
def test_a_state_with_a_field_of_the_wrong_kind_is_refused(case: str) -> None:
    with pytest.raises(messages.Refused, match=r"^state: "):
        messages.parse("table-1", topics.STATE, json.dumps(BAD_STATES[case]).encode())


@pytest.mark.parametrize(
    ("leaf", "payload"),
    [
        (topics.STATUS, b'{"online": "false"}'),
        (topics.STATUS, b'{"online": 0}'),
        (topics.STATUS, b"[true]"),
        (topics.STATUS, b"\xff\xfe"),
        (topics.STATUS, b'{"online": true' + b" " * 20_000 + b"}"),
        (topics.ALERT, b'{"id": "", "kind": "call-staff"}'),
        (topics.ALERT, b'{"id": "a1", "seat": "2"}'),
        (topics.EVENT, b'{"kind": "=cmd"}'),
        (topics.CONFIG_RESULT, b'{"id": "r1", "ok": "yes"}'),
        (topics.STATE, b'{"title": "' + b"x" * 20_000 + b'"}'),
        (topics.RECORD, b"[" * 100 + b"]" * 100),
        (topics.RECORD, b'{"uid": "table-1/' + b"x" * 250_000 + b'"}'),
    ],
)
def test_garbage_on_any_topic_is_refused_in_one_line(leaf: str, payload: bytes) -> None:
    with pytest.raises(messages.Refused) as refused:
        messages.parse("table-1", leaf, payload)
    assert str(refused.value).startswith(f"{leaf}: ") and "\n" not in str(refused.value)


def test_a_good_state_keeps_what_the_floor_shows_and_drops_unknown_fields() -> None:
    state = {
        "version": 7,
        "screen": "play",
        "game": "oh-pshaw",
        "title": "Oh Pshaw",
        "game_started": "2026-11-30T18:00:00+01:00",
        "round": 4,
        "seats": [{"seat": 1, "joined": True, "bot": False, "reader": True}],
        "waiting_for": [2],
        "totals": [31, 12, -4],
        "readers_offline": [],
        "nicknames": {"2": "Mika"},
        "journal": "ok",
        "decks": {"oshaka": [40, 52]},
        "something_new": {"a": 1},
    }
    checked = messages.parse("table-1", topics.STATE, json.dumps(state).encode())
    dumped = checked.model_dump(mode="json", exclude_unset=True)
    assert "something_new" not in dumped
    assert dumped == {k: v for k, v in state.items() if k != "something_new"}


# --- through the hub's ingest: refused, counted per table, never stored -------------------


def delivered(ingest: Ingest, table: str, leaf: str, payload: bytes) -> None:
    message = mqtt.MQTTMessage(topic=topics.topic(table, leaf).encode())
    message.payload = payload
    ingest._on_message(ingest.client, None, message)


@pytest.fixture
def storage(storage_url: str) -> Iterator[Storage]:
    store = Storage(storage_url)
    store.set_user("sam", "staff", auth.hash_password(PASSWORD))
    yield store
    store.close()


def test_the_ingest_counts_refusals_per_table_and_stores_only_good_messages(
    storage: Storage,
) -> None:
    ingest = Ingest(HubSettings(), storage)
    heard: list[tuple[str, str]] = []
    ingest.listeners.append(lambda table, leaf, payload: heard.append((table, leaf)))
    for change, _ in BAD_RECORDS.values():
        delivered(ingest, "table-1", topics.RECORD, json.dumps(good_record(**change)).encode())
    for state in BAD_STATES.values():
        delivered(ingest, "table-3", topics.STATE, json.dumps(state).encode())
    delivered(ingest, "table-3", topics.STATUS, b'{"online": "false"}')
    assert storage.game_count() == 0 and not storage.tables()
    refusals = storage.refusals()
    assert refusals["table-1"].count == len(BAD_RECORDS)
    assert refusals["table-3"].count == len(BAD_STATES) + 1
    assert refusals["table-3"].topic == topics.STATUS and "online" in refusals["table-3"].reason
    assert ingest.refused == ingest.handled == len(BAD_RECORDS) + len(BAD_STATES) + 1
    assert set(heard) == {("table-1", "refused"), ("table-3", "refused")}

    delivered(ingest, "table-1", topics.RECORD, json.dumps(good_record()).encode())
    delivered(ingest, "table-1", topics.STATUS, b'{"online": true}')
    assert storage.game_count() == 1 and storage.tables()[0].online
    game = storage.games()[0]
    assert game.totals == REPORT["totals"] and game.winners == REPORT["winners"]

    client = TestClient(create_app(storage, None, "test-secret"))
    client.post("/login", data={"name": "sam", "password": PASSWORD})
    floor = client.get("/floor.json").json()
    assert [(row["id"], row["refused"]) for row in floor] == [("table-1", len(BAD_RECORDS))]
    storage.table_status("table-3", False)
    page = client.get("/").text
    assert f"{len(BAD_STATES) + 1} messages refused; the last: status: online" in page


# --- pages over rows an older hub stored unchecked ---------------------------------------


def test_pages_survive_rows_stored_unchecked(storage: Storage) -> None:
    good = good_record()
    storage.add_record("table-1", {**good, "report": REPORT})
    storage.table_state("table-1", {"screen": "play", "title": "Oh Pshaw", "totals": [1, 2]})
    with storage.engine.begin() as db:
        db.execute(
            games_t.insert().values(
                uid="table-2/bad",
                table_id="table-2",
                game='=HYPERLINK("http://evil","click")',
                options="{",
                seats='"q"',
                started=None,
                finished="9999-12-31T23:59:59",
                totals='"x"',
                winners="[7, 8]",
                report="[]",
                record="garbage",
                received="2026-11-30T18:00:00+00:00",
            )
        )
        db.execute(
            tables_t.insert().values(
                id="table-2",
                online=True,
                state=json.dumps(
                    {
                        "screen": "play",
                        "title": "Oskar",
                        "game_started": "2026-11-30T18:00:00",
                        "nicknames": ["x"],
                        "readers_offline": 3,
                        "waiting_for": "12",
                        "totals": "x",
                    }
                ),
            )
        )
        db.execute(tables_t.insert().values(id="table-3", online=True, state="[1, 2]"))
    client = TestClient(create_app(storage, None, "test-secret"))
    client.post("/login", data={"name": "sam", "password": PASSWORD})
    for path in ("/", "/floor.json", "/history", "/history.csv", "/leaderboards", "/decks"):
        assert client.get(path).status_code == 200, path
    assert client.get("/games/table-2/bad").status_code == 200
    rows = {row["id"]: row for row in client.get("/floor.json").json()}
    assert rows["table-1"]["scores"] == [1, 2] and rows["table-1"]["game"] == "Oh Pshaw"
    bad = rows["table-2"]
    assert bad["game"] == "Oskar"  # the good fields of a bad state still show
    for field in ("scores", "waiting", "readers_offline", "members"):
        assert bad[field] == "?", field
    assert bad["elapsed_min"] is None
    assert rows["table-3"]["screen"] == "?"
    csv_text = client.get("/history.csv").text
    assert "'=HYPERLINK" in csv_text and ",=HYPERLINK" not in csv_text


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-5 10", "'-5 10"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("oshaka-trick", "oshaka-trick"),
        (None, ""),
    ],
)
def test_csv_cells_never_start_a_formula(value: str | None, cell: str) -> None:
    assert csv_cell(value) == cell


def test_the_database_file_is_private(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'private.sqlite3'}")
    store.set_user("sam", "staff", auth.hash_password(PASSWORD))
    for path in tmp_path.glob("private.sqlite3*"):
        assert path.stat().st_mode & 0o777 == 0o600, path
    store.close()


def test_the_hub_confirms_what_a_tables_outbox_kept_stored_or_refused(storage: Storage) -> None:
    ingest = SentPushes(storage)

    def confirmed() -> list[str]:
        return [json.loads(p)["uid"] for t, p, _ in ingest.published if t.endswith("record/ack")]

    event = {"kind": "game-started", "game": "oshaka-trick", "uid": "table-1/m/1"}
    for _ in range(2):  # sent again: stored once, confirmed each time
        delivered(ingest, "table-1", topics.EVENT, json.dumps(event).encode())
    with storage.engine.connect() as db:
        assert db.execute(sa.select(sa.func.count()).select_from(events_t)).scalar() == 1
    assert confirmed() == ["table-1/m/1", "table-1/m/1"]
    # Refused, it would be refused again: confirmed, so the table stops sending it.
    bad_alert = {"id": "call-1", "seat": "x", "uid": "table-1/m/2"}
    delivered(ingest, "table-1", topics.ALERT, json.dumps(bad_alert).encode())
    assert ingest.refused == 1 and confirmed()[-1] == "table-1/m/2"
    # Not table-1's to confirm, and a record waits for a hub that can take it.
    delivered(ingest, "table-1", topics.EVENT, b'{"kind": "x", "uid": "table-2/m/3"}')
    bad = good_record(report={"finished": True, "totals": [1, 2, 3, 4], "winners": [0]})
    delivered(ingest, "table-1", topics.RECORD, json.dumps(bad).encode())
    assert ingest.refused == 3 and len(confirmed()) == 3
