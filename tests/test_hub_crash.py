"""The café through a broker crash (``kill -9``, no saved database): nobody stays "online" for
ever, the last will holds after the crash, and acknowledgements are not lost.

Each table runs as its own process (a real ``FleetLink``) so it can be killed
too; the hub is the real ``Ingest`` on a real Mosquitto.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from controller.config.cafe import CafeSettings
from controller.fleet import topics
from controller.fleet.link import AlertAcknowledged, ConfigRequested, FleetLink, HubMessage
from controller.fleet.outbox import Outbox
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage, events_t
from tests.broker import Broker
from tests.test_fleet import sent_count
from tests.test_hub_broker import Client

ROOT = Path(__file__).resolve().parent.parent


class Heard:
    """What the hub told its listeners, to wait on with a deadline."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.seen: list[tuple[str, str, dict[str, Any]]] = []

    def __call__(self, table: str, leaf: str, payload: dict[str, Any]) -> None:
        with self.changed:
            self.seen.append((table, leaf, payload))
            self.changed.notify_all()

    def until(self, condition: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
        with self.changed:
            if not self.changed.wait_for(condition, timeout):
                raise AssertionError(f"timed out waiting for {what}")


class Inbox:
    """What the hub sent a table's link (its ``on_message``), and whether anything came."""

    def __init__(self) -> None:
        self.messages: list[HubMessage] = []
        self.arrived = threading.Event()

    def __call__(self, message: HubMessage) -> None:
        self.messages.append(message)
        self.arrived.set()


def heard_before_the_members(broker: Broker, ingest: Ingest) -> list[str]:
    """The topics a new connection of table-1's hears before the members the hub sends it,
    asked again for up to 10 s while that is anything (a retained push the hub is about
    to clear)."""
    members = "cafe/table/table-1/members"
    deadline = time.monotonic() + 10
    while True:
        probe = Client(broker, "table-1", "probe")
        try:
            probe.client.subscribe("cafe/table/table-1/#", qos=1)
            ingest.push_members(["table-1"])
            probe.wait_for(members)
            heard = [t for t, _ in probe.messages]
        finally:
            probe.close()
        before = heard[: heard.index(members)]
        if not before or time.monotonic() > deadline:
            return before
        time.sleep(0.1)


def start_hub(
    broker: Broker, tmp_path: Path, offline_after: float, url: str | None = None
) -> tuple[Ingest, Heard]:
    """The hub on ``url`` (SQLite in ``tmp_path`` unless given), connected to ``broker``."""
    storage = Storage(url or f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    settings = HubSettings(
        broker_port=broker.port,
        password=broker.password("hub"),
        reconnect_max=1,
        offline_after=offline_after,
    )
    ingest = Ingest(settings, storage)
    heard = Heard()
    ingest.listeners.append(heard)
    ingest.start()
    assert ingest.connected.wait(10)
    return ingest, heard


def table_process(broker: Broker, table: str = "table-1") -> subprocess.Popen[bytes]:
    script = f"""
import threading
from controller.fleet.link import FleetLink
from controller.config.cafe import CafeSettings
link = FleetLink(CafeSettings(broker="127.0.0.1", port={broker.port}, table={table!r},
                              password={broker.password(table)!r}, heartbeat=0.3,
                              reconnect_max=1), None, print)
link.start()
threading.Event().wait(120)
"""
    return subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)


def table_link(
    broker: Broker,
    received: Callable[[HubMessage], None],
    heartbeat: float = 30.0,
    outbox: Outbox | None = None,
) -> FleetLink:
    """table-1's link in this process, reconnecting within a second (and, with an
    ``outbox``, sending what the hub has not confirmed again after a second)."""
    settings = CafeSettings(
        broker="127.0.0.1",
        port=broker.port,
        table="table-1",
        password=broker.password("table-1"),
        reconnect_max=1,
        heartbeat=heartbeat,
    )
    return FleetLink(settings, outbox, received, resend_after=1.0)


def online(ingest: Ingest, table: str = "table-1") -> bool | None:
    return next((t.online for t in ingest.storage.tables() if t.id == table), None)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_a_table_that_dies_while_the_broker_is_down_turns_offline(
    broker: Broker, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=2.0)
    try:
        table = table_process(broker)
        processes.append(table)
        heard.until(lambda: online(ingest) is True, what="the table online")
        broker.kill()  # no saved database: the table's will dies with this broker
        table.kill()
        table.wait(10)
        broker.start()
        # Nothing will ever say this table is gone but its silence.
        heard.until(lambda: online(ingest) is False, timeout=30, what="the table offline")
        silent = [p for t, leaf, p in heard.seen if t == "table-1" and p.get("silent")]
        assert silent, "the watchdog, not a will, should have marked it offline"
    finally:
        ingest.close()
        ingest.storage.close()


def test_a_live_table_stays_online_through_the_watchdog(
    broker: Broker, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=1.5)
    try:
        processes.append(table_process(broker))
        heard.until(lambda: online(ingest) is True, what="the table online")
        # Five heartbeats later (0.3 s each; the pages are not told of them: they change
        # nothing shown), and after the watchdog's own rounds.
        assert ingest.wait_handled(ingest.handled + 5, 20), "no heartbeats"
        assert ingest.mark_silent_offline() == []
        assert online(ingest) is True
    finally:
        ingest.close()
        ingest.storage.close()


def test_the_last_will_holds_after_a_broker_crash(
    broker: Broker, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    # The watchdog is slow here (60 s): only the will can mark the table offline in time.
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0)
    try:
        table = table_process(broker)
        processes.append(table)
        heard.until(lambda: online(ingest) is True, what="the table online")
        broker.kill()
        handled = ingest.handled
        broker.start()
        # Its heartbeats at the new broker: it has connected there, with its will.
        assert ingest.wait_handled(handled + 3, 20), "the table never came back"
        table.kill()
        table.wait(10)
        heard.until(lambda: online(ingest) is False, timeout=15, what="the last will")
    finally:
        ingest.close()
        ingest.storage.close()


def test_an_acknowledgement_lost_with_the_broker_reaches_the_table_when_it_returns(
    broker: Broker, tmp_path: Path
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0)
    inbox = Inbox()
    link = table_link(broker, inbox)
    link.start()
    try:
        heard.until(lambda: online(ingest) is True, what="the table online")
        link.alert("call-1", "call-staff", "Seat 1 calls for staff", seat=0)
        heard.until(lambda: bool(ingest.storage.alerts()), what="the alert")
        link.close()  # the table goes away (a clean stop: it says offline)
        heard.until(lambda: online(ingest) is False, what="the table offline")
        ingest.ack_alert("table-1", "call-1", "sam")  # queued at the broker for the table...
        broker.kill()  # ...which dies without saving it
        broker.start()
        assert ingest.connected.wait(10)
        link = FleetLink(link.settings, None, inbox)
        link.start()
        assert inbox.arrived.wait(20), "the acknowledgement never reached the table"
        # At least once: the hub sends the last hour's acknowledgements again whenever it
        # hears the table come back, and a table takes one twice as once.
        assert inbox.messages and all(m == AlertAcknowledged("call-1") for m in inbox.messages)
    finally:
        link.close()
        ingest.close()
        ingest.storage.close()


def test_a_push_to_a_table_that_is_off_survives_a_broker_crash(
    broker: Broker, tmp_path: Path
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0)
    ingest.storage.table_status("table-1", False)  # known to the hub, off tonight
    inbox = Inbox()
    link: FleetLink | None = None
    try:
        request = ingest.push_config("table-1", {"table": {"dice": "manual"}}, "olga")
        assert [r["status"] for r in ingest.storage.config_requests()] == ["pending"]
        broker.kill()  # the retained push dies with the broker
        broker.start()
        link = table_link(broker, inbox)
        link.start()
        assert inbox.arrived.wait(20), "the push never reached the table"
        assert inbox.messages == [ConfigRequested(request, {"table": {"dice": "manual"}})]
        link.config_result(request, True, "applied")
        heard.until(
            lambda: ingest.storage.config_requests()[0]["status"] == "applied",
            what="the answer on the dashboard",
        )
        link.close()
        link = None
        # Answered, the push is no longer kept for the table: a new connection gets
        # the hub's next message, and no push before it. The hub clears the retained
        # push just after it stores the answer, so a connection made in between may
        # still get it: within seconds, one no longer does.
        assert heard_before_the_members(broker, ingest) == []
    finally:
        if link is not None:
            link.close()
        ingest.close()
        ingest.storage.close()


def test_a_table_that_was_off_gets_only_the_newest_push_and_answers_it(
    broker: Broker, tmp_path: Path, storage_url: str
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0, url=storage_url)
    ingest.storage.table_status("table-1", False)  # known to the hub, off tonight
    inbox = Inbox()
    link: FleetLink | None = None
    try:
        older = ingest.push_config("table-1", {"table": {"dice": "manual"}}, "olga")
        newest = ingest.push_config("table-1", {"table": {"dice": "auto"}}, "olga")
        statuses = {r["id"]: r["status"] for r in ingest.storage.config_requests()}
        assert statuses == {older: "superseded", newest: "pending"}
        # Until the broker holds the newest (the hub publishes in the background), a table
        # that connects gets the older first and then the newest: it would apply both.
        probe = Client(broker, "table-1", "probe")
        try:
            probe.client.subscribe(topics.topic("table-1", topics.CONFIG_SET), qos=1)
            with probe.arrived:
                assert probe.arrived.wait_for(
                    lambda: any(newest.encode() in p for _, p in probe.messages), 10
                ), "the broker never held the newest push"
        finally:
            probe.close()
        link = table_link(broker, inbox)
        link.start()
        assert inbox.arrived.wait(20), "the push never reached the table"
        heard.until(lambda: online(ingest) is True, what="the table online")
        # The broker's retained push, and perhaps the hub's again for a table come back:
        # the same request, never the older one.
        pushes = [m for m in inbox.messages if isinstance(m, ConfigRequested)]
        assert len(pushes) == len(inbox.messages)
        assert {(m.request_id, m.settings["table"]["dice"]) for m in pushes} == {(newest, "auto")}
        link.config_result(newest, True, "applied")
        heard.until(
            lambda: (
                {r["id"]: r["status"] for r in ingest.storage.config_requests()}
                == {older: "superseded", newest: "applied"}
            ),
            what="the answer on the dashboard",
        )
    finally:
        if link is not None:
            link.close()
        ingest.close()
        ingest.storage.close()


def test_alerts_and_answers_sent_just_after_a_broker_crash_reach_the_hub(
    broker: Broker, tmp_path: Path
) -> None:
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0)
    link = table_link(broker, lambda message: None, heartbeat=0.3)
    link.start()
    storage = ingest.storage
    try:
        link.alert("call-1", "call-staff", "Seat 1 calls for staff", seat=0)
        heard.until(lambda: bool(storage.alerts(open_only=True)), what="the first call")
        ingest.close()  # the hub restarts, and meanwhile...
        broker.kill()  # ...the broker dies with the hub's session and queue
        broker.start()
        # Sent into a broker where nobody subscribes to them: the messages themselves
        # are lost. A probe (the hub's login, a clean session) watches only the table's
        # status until one shows the table has sent both.
        probe = Client(broker, "hub", "probe")
        status = topics.topic("table-1", topics.STATUS)
        probe.client.subscribe(status, qos=1)
        link.event("staff-call-answered", alert="call-1", seat=0)
        link.alert("call-2", "call-staff", "Seat 3 calls for staff", seat=2)
        with probe.arrived:
            assert probe.arrived.wait_for(
                lambda: any(
                    b'"answered":["call-1"]' in p and b'"call-2"' in p for _, p in probe.messages
                ),
                20,
            ), "the table never reconnected"
        probe.close()
        ingest, heard = start_hub(broker, tmp_path, offline_after=60.0)
        storage = ingest.storage

        def settled() -> bool:
            alerts = {a.id: a for a in storage.alerts()}
            return (
                "call-2" in alerts
                and alerts["call-2"].acked is None
                and alerts["call-1"].acked_by == "staff at the table"
            )

        heard.until(settled, what="the new call open and the answered one closed")
    finally:
        link.close()
        ingest.close()
        storage.close()


def test_events_alerts_and_answers_sent_into_a_crashed_broker_reach_the_hub_once(
    broker: Broker, tmp_path: Path, storage_url: str
) -> None:
    """No heartbeat helps here (30 s): only the outbox brings these messages to the hub."""
    ingest, heard = start_hub(broker, tmp_path, offline_after=60.0, url=storage_url)
    requests: list[ConfigRequested] = []
    pushed = threading.Event()

    def received(message: HubMessage) -> None:
        if isinstance(message, ConfigRequested):
            requests.append(message)
            pushed.set()

    outbox = Outbox(tmp_path / "journal.sqlite3", "table-1")
    link = table_link(broker, received, outbox=outbox)
    link.start()
    storage = ingest.storage
    try:
        heard.until(lambda: online(ingest) is True, what="the table online")
        request = ingest.push_config("table-1", {"table": {"dice": "manual"}}, "olga")
        assert pushed.wait(20), "the push never reached the table"
        ingest.close()  # the hub restarts, and meanwhile...
        storage.close()
        broker.kill()  # ...the broker dies with the hub's session and queue
        broker.start()
        # Sent into a broker where nobody subscribes to them: the broker acknowledges
        # each (the outbox notes it) and forwards it to nobody.
        link.event("game-started", game="oskar")
        link.alert("reader-0-1", "reader-offline", "Seat 1's reader is not answering", seat=0)
        link.event("game-finished", game="oskar", totals=[3, 8], winners=[2])
        link.config_result(request, True, "applied")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and sent_count(outbox) < 4:
            time.sleep(0.05)
        assert sent_count(outbox) == 4, "the table never reconnected"
        assert outbox.unconfirmed_count() == 4
        ingest, heard = start_hub(broker, tmp_path, offline_after=60.0, url=storage_url)
        storage = ingest.storage
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and outbox.unconfirmed_count():
            time.sleep(0.05)
        assert outbox.unconfirmed_count() == 0, "the hub never confirmed them all"
        with storage.engine.connect() as db:
            kinds = [row.kind for row in db.execute(sa.select(events_t).order_by(events_t.c.n))]
        assert kinds == ["game-started", "game-finished"]  # each once, in order
        assert [(a.id, a.kind) for a in storage.alerts()] == [("reader-0-1", "reader-offline")]
        assert [r["status"] for r in storage.config_requests()] == ["applied"]
    finally:
        link.close()
        outbox.close()
        ingest.close()
        storage.close()


def test_only_tables_that_beat_are_marked_offline_for_silence(tmp_path: Path) -> None:
    from tests.test_hub_messages import delivered

    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    ingest = Ingest(HubSettings(offline_after=0.0), storage)  # silent at once
    try:
        delivered(ingest, "table-1", topics.STATUS, b'{"online": true}')  # older software
        delivered(ingest, "table-2", topics.STATUS, b'{"online": true, "alerts": []}')
        assert ingest.mark_silent_offline() == ["table-2"]
        assert {t.id: t.online for t in storage.tables()} == {"table-1": True, "table-2": False}
    finally:
        storage.close()
