"""Floods through the real broker: a table past its budget is dropped unread at the hub, a flood
while the hub is away costs other tables nothing for good, and the broker's memory limit holds."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.config.cafe import CafeSettings
from controller.fleet import topics
from controller.fleet.link import FleetLink
from controller.fleet.outbox import Outbox
from hub import broker as broker_setup
from hub.ingest import Budget, Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from tests.broker import Broker, free_port, require_mosquitto
from tests.test_fleet import sent_count
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


def broker_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **limits: int) -> Broker:
    """A running broker whose ``hub setup`` config has smaller limits (``hub.broker``'s
    constants by name), so a test reaches them with a small flood. Stopped by the caller."""
    for name, value in limits.items():
        monkeypatch.setattr(broker_setup, name, value)
    require_mosquitto()
    port = free_port()
    files = broker_setup.setup(
        tmp_path / "broker",
        ["table-1", "table-2"],
        port=port,
        listen="127.0.0.1",
        user="root" if os.geteuid() == 0 else None,
    )
    broker = Broker(files, port)
    broker.start()
    return broker


def test_past_its_memory_limit_the_broker_drops_the_flooder_not_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = broker_with(tmp_path, monkeypatch, MEMORY_LIMIT_BYTES=8 * 1024 * 1024)
    hub = Client(broker, "hub", "hub", clean_session=False)
    flooder: Client | None = None
    try:
        hub.client.subscribe(topics.topic("+", topics.EVENT), qos=1)
        hub.close()  # away, with a persistent session: the broker queues for it
        flooder = Client(broker, "table-1", "table-1")
        big = topics.encode({"kind": "x" * 100_000})
        for _ in range(300):  # 30 MB, under the hub's queue limits but over the memory's
            if flooder.disconnected.is_set():
                break
            flooder.client.publish(topics.topic("table-1", topics.EVENT), big, qos=1)
            time.sleep(0.002)
        assert flooder.disconnected.wait(10), "the broker kept a client past its memory"
        assert broker.process is not None and broker.process.poll() is None
        table = Client(broker, "table-2", "table-2")  # the broker still serves the others
        table.close()
    finally:
        if flooder is not None:
            flooder.close()
        broker.stop()


def test_a_flood_while_the_hub_is_away_costs_the_others_nothing_for_good(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The broker keeps one queue for the hub: table-1 fills it while the hub is away, and the
    broker then drops table-2's alert for the hub. The broker bounds what it keeps of the
    flood; the alert comes again from table-2's outbox when table-2 next connects."""
    broker = broker_with(tmp_path, monkeypatch, MAX_QUEUED_MESSAGES=50)  # 10 000 in a café
    port = broker.port
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    settings = HubSettings(broker_port=port, password=broker.password("hub"))
    ingest = Ingest(settings, storage)
    outbox = Outbox(tmp_path / "journal.sqlite3", "table-2")
    table_settings = CafeSettings(
        broker="127.0.0.1",
        port=port,
        table="table-2",
        password=broker.password("table-2"),
        reconnect_max=1,
    )
    # No resend on a timer here: what reaches the hub is what the broker kept, until the
    # table connects again.
    link = FleetLink(table_settings, outbox, lambda message: None, resend_after=3600.0)
    flooder: Client | None = None
    try:
        ingest.start()  # subscribes, with a persistent session...
        assert ingest.connected.wait(10)
        ingest.close()  # ...and goes away: the broker queues for it
        link.start()
        flooder = Client(broker, "table-1", "table-1")
        event = topics.encode({"kind": "reader-back", "seat": 1})
        for _ in range(500):
            flooder.client.publish(topics.topic("table-1", topics.EVENT), event, qos=1)
        flooder.publish(topics.topic("table-1", topics.EVENT), event)  # the last acknowledged
        link.alert("call-1", "call-staff", "Seat 1 calls for staff", seat=0)
        for _ in range(200):  # the broker took it (and, the hub's queue full, dropped it)
            if sent_count(outbox) == 1:
                break
            time.sleep(0.05)
        assert sent_count(outbox) == 1, "table-2 never sent its alert"
        ingest = Ingest(settings, storage)
        ingest.start()
        # The broker kept 50 messages for the hub (table-2's status first, then the flood's
        # first 49), and gives table-2's retained status again on subscribe.
        assert ingest.wait_handled(51, 20), ingest.handled
        time.sleep(0.5)  # anything more the broker kept would come now
        assert ingest.handled == 51, ingest.handled
        assert storage.alerts() == [] and outbox.unconfirmed_count() == 1
        link.close()
        link = FleetLink(table_settings, outbox, lambda message: None, resend_after=3600.0)
        link.start()  # table-2 connects again: its outbox sends what the hub has not confirmed
        for _ in range(400):
            if outbox.unconfirmed_count() == 0:
                break
            time.sleep(0.05)
        assert outbox.unconfirmed_count() == 0, "table-2's alert never reached the hub"
        assert [(a.table_id, a.id) for a in storage.alerts()] == [("table-2", "call-1")]
    finally:
        if flooder is not None:
            flooder.close()
        link.close()
        outbox.close()
        ingest.close()
        storage.close()
        broker.stop()
