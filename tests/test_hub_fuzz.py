"""Fuzzing the hub through the real broker: whatever a table sends, no page answers 500
and nothing invalid is stored.

Hypothesis makes messages for every topic a table may publish to: good ones,
good ones with one field replaced by any JSON value, any JSON value, and any
bytes. Each goes through a real Mosquitto, logged in with one table's
password, to the real ingest; after each, every dashboard page must answer
200, and at the end every stored row must pass the hub's own checks again.
The run is bounded: a fixed number of examples, each waited for with a
deadline (no sleeps).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from controller.fleet import topics
from controller.records.record import replay
from hub import auth, messages
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from hub.web import create_app
from tests.broker import Broker
from tests.test_hub_messages import PASSWORD, good_record

GOOD: dict[str, dict[str, Any]] = {
    topics.STATUS: {"online": True, "at": "2026-11-30T18:00:00+00:00"},
    topics.STATE: {
        "version": 3,
        "screen": "play",
        "game": "oh-pshaw",
        "title": "Oh Pshaw",
        "game_started": "2026-11-30T18:00:00+00:00",
        "round": 2,
        "seats": [{"seat": 1, "joined": True, "bot": False, "reader": True}],
        "waiting_for": [1],
        "totals": [3, 4],
        "readers_offline": [],
        "nicknames": {"1": "Mika"},
        "journal": "ok",
        "decks": {"oshaka": [40, 52]},
    },
    topics.EVENT: {"kind": "game-finished", "game": "oh-pshaw", "totals": [1, 2], "winners": [2]},
    topics.ALERT: {"id": "call-1", "kind": "call-staff", "text": "Seat 2 calls", "seat": 1},
    topics.RECORD: good_record(),
    topics.CONFIG_RESULT: {"id": "r1", "ok": False, "message": "no"},
}
PAGES = ("/", "/floor.json", "/history", "/history.csv", "/leaderboards", "/decks", "/alerts")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=20,
)


@st.composite
def payloads(draw: st.DrawFn) -> tuple[str, bytes]:
    leaf = draw(st.sampled_from(sorted(GOOD)))
    kind = draw(st.sampled_from(["good", "one field", "any json", "any bytes"]))
    if kind == "any bytes":
        return leaf, draw(st.binary(max_size=300))
    if kind == "any json":
        return leaf, json.dumps(draw(json_values)).encode()
    message = dict(GOOD[leaf])
    if kind == "one field":
        field = draw(st.sampled_from([*sorted(message), "extra"]))
        message[field] = draw(json_values)
    return leaf, json.dumps(message).encode()


class Fuzz:
    """A hub (ingest, storage, dashboard) and one table's raw client on a real broker."""

    def __init__(self, broker: Broker, storage_url: str) -> None:
        self.storage = Storage(storage_url)
        self.storage.set_user("sam", "staff", auth.hash_password(PASSWORD))
        self.ingest = Ingest(
            HubSettings(broker_port=broker.port, password=broker.password("hub")), self.storage
        )
        self.ingest.start()
        assert self.ingest.connected.wait(10)
        self.web = TestClient(create_app(self.storage, None, "test-secret"))
        login = self.web.post("/login", data={"name": "sam", "password": PASSWORD})
        assert login.status_code == 200
        self.table = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        self.table.username_pw_set("table-1", broker.password("table-1"))
        connected = threading.Event()
        self.table.on_connect = lambda *args: connected.set()
        self.table.connect("127.0.0.1", broker.port)
        self.table.loop_start()
        assert connected.wait(10)
        self.sent = 0

    def send(self, leaf: str, payload: bytes) -> None:
        info = self.table.publish(topics.topic("table-1", leaf), payload, qos=1)
        info.wait_for_publish(10)
        self.sent += 1
        assert self.ingest.wait_handled(self.sent, 10), f"the hub never handled {payload[:80]!r}"

    def close(self) -> None:
        self.table.disconnect()
        self.table.loop_stop()
        self.ingest.close()
        self.storage.close()


@pytest.fixture
def fuzz(broker: Broker, storage_url: str) -> Iterator[Fuzz]:
    """Once on SQLite, once on PostgreSQL (whose columns, unlike SQLite's, have lengths)."""
    running = Fuzz(broker, storage_url)
    try:
        yield running
    finally:
        running.close()


@pytest.mark.slow
def test_no_message_a_table_sends_breaks_a_page_or_stores_garbage(fuzz: Fuzz) -> None:
    @settings(
        max_examples=120,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(payloads())
    def one_message(sent: tuple[str, bytes]) -> None:
        fuzz.send(*sent)
        for path in PAGES:
            response = fuzz.web.get(path)
            assert response.status_code == 200, (path, sent, response.text[:200])

    one_message()
    assert fuzz.ingest.handled == fuzz.sent and fuzz.sent >= 120
    assert fuzz.ingest.refused > 0 and fuzz.ingest.stored > 0  # both paths were taken
    everything_stored_is_valid(fuzz.storage)


def everything_stored_is_valid(storage: Storage) -> None:
    """Every row the hub stored passes the hub's checks again."""
    for table in storage.tables():
        assert isinstance(table.online, bool)
        if table.state is not None:
            messages.TableState.model_validate(table.state, strict=False)
            _, bad = messages.lenient_state(table.state)
            assert not bad, (table.id, bad)
    for game in storage.games(limit=100_000):
        report = replay(game.record).report()
        assert game.totals == report["totals"] and game.winners == report["winners"]
        assert game.uid.startswith(f"{game.table_id}/")
    for alert in storage.alerts():
        messages.Alert.model_validate(
            {"id": alert.id, "kind": alert.kind, "text": alert.text, "seat": alert.seat}
        )
