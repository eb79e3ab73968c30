"""A table that floods the hub through the real broker: its messages past its budget are
dropped unread and counted, and the other tables' messages still get through at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.fleet import topics
from hub.ingest import Budget, Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from tests.broker import Broker
from tests.test_hub_broker import Client


def test_a_budget_refills_at_its_rate() -> None:
    now = [0.0]
    budget = Budget(2.0, 3, clock=lambda: now[0])
    assert [budget.take("t") for _ in range(4)] == [True, True, True, False]
    assert budget.take("other")  # every table has its own
    now[0] = 1.0
    assert [budget.take("t") for _ in range(3)] == [True, True, False]


def test_a_flooding_table_costs_the_others_nothing(broker: Broker, tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    rate, burst = 20.0, 50
    ingest = Ingest(
        HubSettings(broker_port=broker.port, password=broker.password("hub")),
        storage,
        budget=Budget(rate, burst),
    )
    ingest.start()
    assert ingest.connected.wait(10)
    flooder = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    flooder.username_pw_set("table-1", broker.password("table-1"))
    connected = threading.Event()
    flooder.on_connect = lambda *args: connected.set()
    flooder.connect("127.0.0.1", broker.port)
    flooder.loop_start()
    other = Client(broker, "table-2", "table-2")
    try:
        assert connected.wait(10)
        started = time.monotonic()
        garbage = topics.encode({"totals": "x"})
        for _ in range(3000):
            flooder.publish(topics.topic("table-1", topics.STATE), garbage, qos=0)
        good = topics.encode({"screen": "play", "title": "Oskar", "version": 1})
        other.publish(topics.topic("table-2", topics.STATE), good)
        stored = threading.Event()
        for _ in range(200):
            if any(t.id == "table-2" and t.state for t in storage.tables()):
                stored.set()
                break
            stored.wait(0.05)
        elapsed = time.monotonic() - started
        assert stored.is_set(), "table-2's state waited behind the flood"
        # Only what table-1's budget allows was read at all; the rest was dropped unread.
        assert ingest.refused <= burst + rate * elapsed + 5, (ingest.refused, elapsed)
        assert ingest.dropped > 0
        # The dashboard counts them too: the checked ones, and the dropped ones noted so far.
        # The ingest thread counts a refusal before it writes it, and the budget lets a
        # few more through each second: read again until the writes have caught up.
        counted = threading.Event()
        for _ in range(100):
            if storage.refusals()["table-1"].count > ingest.refused:
                counted.set()
                break
            counted.wait(0.05)
        assert counted.is_set(), (storage.refusals()["table-1"], ingest.refused)
    finally:
        flooder.loop_stop()
        flooder.disconnect()
        other.close()
        ingest.close()
        storage.close()
