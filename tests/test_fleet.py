"""A café of tables on a real Mosquitto: records exactly once, retained state, last will, ACL."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.config.cafe import CafeSettings
from controller.fleet import outbox as outbox_module
from controller.fleet import topics
from controller.fleet.link import AlertAcknowledged, ConfigRequested, FleetLink, HubMessage
from controller.fleet.outbox import Outbox
from controller.records.journal import Journal
from controller.records.record import replay
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from tests.broker import Broker

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")


class Watch:
    """Wakes the test whenever the hub stores something; waits for a condition with a deadline."""

    def __init__(self) -> None:
        self.changed = threading.Condition()

    def __call__(self, table: str, leaf: str, payload: dict[str, Any]) -> None:
        with self.changed:
            self.changed.notify_all()

    def until(self, condition: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
        with self.changed:
            if not self.changed.wait_for(condition, timeout):
                raise AssertionError(f"timed out waiting for {what or condition}")


def journal_with_games(path: Path, count: int) -> Journal:
    journal = Journal.open(path)
    engine = replay(SAMPLE)
    header = engine.header()
    for _ in range(count):
        journal.game_started("oshaka-trick", [0, 1, 2, 3], header, seed=1)
        journal.game_finished(SAMPLE, engine.report())
    return journal


def hub_for(
    broker: Broker, tmp_path: Path, client_id: str = "cafe-hub", url: str | None = None
) -> tuple[Ingest, Storage]:
    """A hub (not started) on ``url``'s database, SQLite in ``tmp_path`` unless given."""
    settings = HubSettings(
        broker_port=broker.port, password=broker.password("hub"), reconnect_max=1
    )
    storage = Storage(url or f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    return Ingest(settings, storage, client_id=client_id), storage


def table_link(
    broker: Broker, table: str, outbox: Outbox | None, inbox: list[HubMessage] | None = None
) -> FleetLink:
    settings = CafeSettings(
        broker="127.0.0.1",
        port=broker.port,
        table=table,
        password=broker.password(table),
        state_interval=0.1,
        reconnect_max=1,
    )
    received = inbox if inbox is not None else []
    return FleetLink(settings, outbox, received.append, resend_after=1.0)


def until_outbox(outbox: Outbox, counts: tuple[int, int], timeout: float = 30.0) -> None:
    """Wait for the outbox to reach (pending, delivered): the hub's acks come asynchronously."""
    pause = threading.Event()
    for _ in range(int(timeout / 0.05)):
        if outbox.counts() == counts:
            return
        pause.wait(0.05)
    raise AssertionError(f"the outbox is at {outbox.counts()}, not {counts}")


def sent_count(outbox: Outbox) -> int:
    """How many of the outbox's records and messages a broker has acknowledged (PUBACK)."""
    with outbox._lock:
        row = outbox._db.execute("SELECT COUNT(*) FROM fleet_outbox WHERE sent IS NOT NULL")
        return int(row.fetchone()[0])


@pytest.fixture
def watch() -> Watch:
    return Watch()


def test_outbox_keeps_records_until_delivered(tmp_path: Path) -> None:
    journal = journal_with_games(tmp_path / "journal.sqlite3", 3)
    outbox = Outbox(journal.path, "table-1")
    assert outbox.add_finished_games() == 3
    assert outbox.add_finished_games() == 0  # the same games again: nothing new
    pending = outbox.pending()
    assert len(pending) == 3 and len({uid for uid, _ in pending}) == 3
    message = json.loads(pending[0][1])
    assert message["table"] == "table-1" and message["record"] == SAMPLE
    assert message["report"]["finished"] is True
    outbox.delivered(pending[0][0])
    assert outbox.counts() == (2, 1)
    outbox.close()
    journal.close()
    again = Outbox(tmp_path / "journal.sqlite3", "table-1")  # survives a restart
    assert again.counts() == (2, 1)


def test_outbox_keeps_other_messages_until_confirmed_and_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_module, "MAX_PENDING_MESSAGES", 8)  # 500 in a café
    journal = journal_with_games(tmp_path / "journal.sqlite3", 1)
    outbox = Outbox(journal.path, "table-1")
    outbox.add_finished_games()
    alert = outbox.add_message(topics.ALERT, {"id": "call-1", "kind": "call-staff"})
    event = outbox.add_message(topics.EVENT, {"kind": "staff-call-answered", "alert": "call-1"})
    kept = outbox.unconfirmed()
    # A call for staff does not wait behind the records of a hub that was away all evening.
    assert [leaf for _, leaf, _ in kept] == [topics.ALERT, topics.EVENT, topics.RECORD]
    assert json.loads(kept[0][2]) == {"id": "call-1", "kind": "call-staff", "uid": alert}
    assert alert.startswith("table-1/") and alert != event
    assert outbox.counts() == (1, 0) and outbox.unconfirmed_count() == 3  # counts: records
    outbox.delivered(alert)
    assert [uid for uid, _, _ in outbox.unconfirmed()][:1] == [event]
    assert outbox.unconfirmed_count() == 2
    # A hub away for good: only the newest messages are kept, and none older than a day.
    for n in range(13):
        outbox.add_message(topics.EVENT, {"kind": "reader-back", "seat": n})
    seats = [json.loads(m)["seat"] for _, leaf, m in outbox.unconfirmed(10_000) if leaf != "record"]
    assert seats == list(range(5, 13))  # the newest eight
    with outbox._lock, outbox._db:
        outbox._db.execute("UPDATE fleet_outbox SET added = '2026-01-01T00:00:00'")
    outbox.add_message(topics.EVENT, {"kind": "reader-back", "seat": 0})
    assert [leaf for _, leaf, _ in outbox.unconfirmed(10_000)] == [topics.EVENT, topics.RECORD]
    outbox.close()
    journal.close()


def test_an_outbox_from_before_messages_gets_their_column(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "journal.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as old, old:
        old.execute(
            "CREATE TABLE fleet_outbox (uid TEXT PRIMARY KEY, game INTEGER, payload TEXT NOT NULL,"
            " added TEXT NOT NULL, sent TEXT, delivered TEXT)"
        )
        old.execute(
            "INSERT INTO fleet_outbox VALUES ('table-1/x/1', 1, '{}', '2026-11-30', NULL, NULL)"
        )
    outbox = Outbox(path, "table-1")
    assert outbox.unconfirmed() == [("table-1/x/1", topics.RECORD, b"{}")]
    outbox.close()


@pytest.mark.parametrize(
    "storage_url",
    # On PostgreSQL it took 8-16 s of a quick run's four workers on 2 cores (3.3 s alone),
    # waiting on the broker's and the hub's restarts: with --runslow only. The quick run
    # takes the same path through both restarts on SQLite, and stores on PostgreSQL in
    # the hub's own tests.
    ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)],
    indirect=True,
)
def test_every_record_arrives_once_through_broker_and_hub_restarts(
    broker: Broker, tmp_path: Path, watch: Watch, storage_url: str
) -> None:
    journal = journal_with_games(tmp_path / "journal.sqlite3", 4)
    outbox = Outbox(journal.path, "table-1")
    outbox.add_finished_games()
    ingest, storage = hub_for(broker, tmp_path, url=storage_url)
    ingest.listeners.append(watch)
    ingest.start()
    link = table_link(broker, "table-1", outbox)
    link.start()
    try:
        watch.until(lambda: storage.game_count() == 4, what="the first four records")
        until_outbox(outbox, (0, 4))

        # The broker dies mid-evening; two more games finish meanwhile.
        broker.kill()
        for _ in range(2):
            journal.game_started("oshaka-trick", [0, 1, 2, 3], replay(SAMPLE).header(), seed=2)
            journal.game_finished(SAMPLE, replay(SAMPLE).report())
        outbox.add_finished_games()
        link.record_ready()
        assert outbox.counts() == (2, 4)
        broker.start()
        watch.until(lambda: storage.game_count() == 6, timeout=90, what="records after restart")
        until_outbox(outbox, (0, 6))

        # The hub dies; the table goes on; the broker keeps the hub's messages.
        ingest.close()
        journal.game_started("oshaka-trick", [0, 1, 2, 3], replay(SAMPLE).header(), seed=3)
        journal.game_finished(SAMPLE, replay(SAMPLE).report())
        outbox.add_finished_games()
        link.record_ready()
        # The broker takes it while the hub is away, but only the hub's word ends it.
        sent = threading.Event()
        for _ in range(600):
            if sent_count(outbox) == 7:
                sent.set()
                break
            threading.Event().wait(0.05)
        assert sent.is_set() and outbox.counts() == (1, 6)
        restarted = Ingest(ingest.settings, storage)
        restarted.listeners.append(watch)
        restarted.start()
        watch.until(lambda: storage.game_count() == 7, timeout=30, what="the queued record")
        until_outbox(outbox, (0, 7))
        restarted.close()
    finally:
        link.close()
    uids = [row.uid for row in storage.games()]
    assert len(uids) == len(set(uids)) == 7


def test_a_late_dashboard_gets_the_retained_state(
    broker: Broker, tmp_path: Path, watch: Watch
) -> None:
    link = table_link(broker, "table-2", None)
    link.start()
    link.publish_state({"screen": "play", "title": "Oskar", "round": 3, "version": 1})
    probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="probe")
    probe.username_pw_set("hub", broker.password("hub"))
    seen = threading.Event()
    probe.on_message = lambda c, u, m: seen.set() if m.topic.endswith("/state") else None
    probe.connect("127.0.0.1", broker.port)
    probe.subscribe(topics.topic("table-2", topics.STATE), qos=1)
    probe.loop_start()
    assert seen.wait(10), "the table's state never reached the broker"
    probe.loop_stop()
    probe.disconnect()
    link.close()
    # The hub starts only now, with the table already gone: it still learns its last state.
    ingest, storage = hub_for(broker, tmp_path, client_id="late-hub")
    ingest.listeners.append(watch)
    ingest.start()
    try:
        watch.until(
            lambda: any(t.state and t.state.get("round") == 3 for t in storage.tables()),
            what="the retained state",
        )
        watch.until(lambda: not storage.tables()[0].online, what="the retained offline status")
    finally:
        ingest.close()


def test_the_last_will_marks_a_killed_table_offline(
    broker: Broker, tmp_path: Path, watch: Watch
) -> None:
    ingest, storage = hub_for(broker, tmp_path)
    ingest.listeners.append(watch)
    ingest.start()
    script = f"""
import threading
from controller.fleet.link import FleetLink
from controller.config.cafe import CafeSettings
link = FleetLink(CafeSettings(broker="127.0.0.1", port={broker.port}, table="table-1",
                              password={broker.password("table-1")!r}), None, print)
link.start()
threading.Event().wait(60)
"""
    table = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        watch.until(lambda: any(t.online for t in storage.tables()), what="the table online")
        table.kill()
        table.wait(10)
        watch.until(lambda: not storage.tables()[0].online, what="the last will")
    finally:
        if table.poll() is None:
            table.kill()
        ingest.close()


def test_a_table_cannot_publish_as_another(broker: Broker, tmp_path: Path, watch: Watch) -> None:
    ingest, storage = hub_for(broker, tmp_path)
    ingest.listeners.append(watch)
    ingest.start()
    impostor = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="impostor")
    impostor.username_pw_set("table-1", broker.password("table-1"))
    impostor.connect("127.0.0.1", broker.port)
    impostor.loop_start()
    try:
        # Retained, as a table's state is: the hub gets them however late it subscribes.
        forged = topics.encode({"screen": "play", "title": "forged", "version": 9})
        impostor.publish(
            topics.topic("table-2", topics.STATE), forged, qos=1, retain=True
        ).wait_for_publish(5)
        own = topics.encode({"screen": "attract", "version": 1})
        impostor.publish(
            topics.topic("table-1", topics.STATE), own, qos=1, retain=True
        ).wait_for_publish(5)
        # Mosquitto drops the forged message silently; the table's own one arrives.
        watch.until(lambda: [t.id for t in storage.tables()] == ["table-1"], what="own state")
        assert all(t.id != "table-2" for t in storage.tables())
    finally:
        impostor.loop_stop()
        impostor.disconnect()
        ingest.close()


def test_wrong_password_is_refused(broker: Broker) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="guess")
    client.username_pw_set("table-1", "not-the-password")
    refused = threading.Event()
    client.on_connect = lambda c, u, f, reason, p: refused.set() if reason.is_failure else None
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert refused.wait(10)
    finally:
        client.loop_stop()
        client.disconnect()


def test_hub_messages_reach_the_table_as_typed_events(
    broker: Broker, tmp_path: Path, watch: Watch
) -> None:
    ingest, storage = hub_for(broker, tmp_path)
    ingest.listeners.append(watch)
    ingest.start()
    inbox: list[HubMessage] = []
    link = table_link(broker, "table-1", None, inbox)
    link.start()
    try:
        watch.until(lambda: any(t.online for t in storage.tables()), what="table online")
        link.alert("call-1", "call-staff", "Seat 3 calls for staff", seat=2)
        watch.until(lambda: len(storage.alerts(open_only=True)) == 1, what="the alert")
        ingest.ack_alert("table-1", "call-1", "sam")
        request = ingest.push_config("table-1", {"language": "de"}, "owner")
        arrived = threading.Event()
        for _ in range(200):
            if len(inbox) == 2:
                arrived.set()
                break
            threading.Event().wait(0.05)
        assert arrived.is_set(), inbox
        assert inbox[0] == AlertAcknowledged("call-1")
        assert inbox[1] == ConfigRequested(request, {"language": "de"})
        link.config_result(request, False, "language: not a language this table knows")
        watch.until(lambda: storage.config_requests()[0]["answered"] is not None, what="the answer")
        assert storage.alerts()[0].acked_by == "sam"
    finally:
        link.close()
        ingest.close()


@pytest.fixture(autouse=True)
def _no_leaked_threads() -> Iterator[None]:
    yield
    leaked = [t.name for t in threading.enumerate() if t.name == "fleet-link"]
    assert not leaked, leaked


def test_a_record_the_broker_dropped_is_sent_again_until_the_hub_confirms(
    broker: Broker, tmp_path: Path, watch: Watch
) -> None:
    # The table sends while no hub listens (a hub that has not subscribed yet after a
    # broker restart): the broker acknowledges and drops the records. Only the hub's
    # record/ack ends them, so the link must send them again by itself.
    journal = journal_with_games(tmp_path / "journal.sqlite3", 2)
    outbox = Outbox(journal.path, "table-1")
    outbox.add_finished_games()
    link = table_link(broker, "table-1", outbox)
    link.start()
    try:
        pause = threading.Event()
        for _ in range(600):
            if sent_count(outbox) == 2:
                break
            pause.wait(0.05)
        assert sent_count(outbox) == 2 and outbox.counts() == (2, 0)  # dropped, pending
        ingest, storage = hub_for(broker, tmp_path)
        ingest.listeners.append(watch)
        ingest.start()
        try:
            watch.until(lambda: storage.game_count() == 2, what="the records sent again")
            until_outbox(outbox, (0, 2))
        finally:
            ingest.close()
    finally:
        link.close()
