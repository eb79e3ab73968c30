"""The broker as the café's security boundary, tried with one table's password on a real Mosquitto.

With table-1's credentials nobody may disconnect, impersonate or flood table-2
or the hub: the client id is the user name (``use_username_as_clientid``),
the ACL keeps a table to its own topics, and ``max_packet_size`` bounds every
message. ``hub setup`` refuses table ids that are the hub's or reserved.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.fleet import topics
from hub.broker import (
    MAX_PACKET_BYTES,
    RESERVED_IDS,
    BrokerFiles,
    BrokerSetupError,
    conf_text,
    setup,
)
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from tests.broker import Broker
from tests.test_fleet import Watch


class Client:
    """A raw MQTT client, logged in as ``user``: what an attacker with a password has."""

    def __init__(
        self, broker: Broker, user: str, client_id: str, *, clean_session: bool = True
    ) -> None:
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=clean_session,
            protocol=mqtt.MQTTv311,
        )
        self.client.username_pw_set(user, broker.password(user))
        self.connected = threading.Event()
        self.disconnected = threading.Event()
        self.messages: list[tuple[str, bytes]] = []
        self.arrived = threading.Condition()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *args: self.disconnected.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.connected.wait(10), f"{user} could not connect"

    def _on_connect(self, c: Any, u: Any, f: Any, reason: Any, p: Any) -> None:
        if not reason.is_failure:
            self.connected.set()

    def _on_message(self, c: Any, u: Any, message: mqtt.MQTTMessage) -> None:
        with self.arrived:
            self.messages.append((message.topic, bytes(message.payload)))
            self.arrived.notify_all()

    def wait_for(self, topic: str, timeout: float = 10.0) -> None:
        with self.arrived:
            if not self.arrived.wait_for(
                lambda: any(t == topic for t, _ in self.messages), timeout
            ):
                raise AssertionError(f"nothing arrived on {topic}")

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def watch() -> Watch:
    return Watch()


@pytest.fixture
def hub(broker: Broker, tmp_path: Path, watch: Watch) -> Iterator[tuple[Ingest, Storage]]:
    settings = HubSettings(
        broker_port=broker.port, password=broker.password("hub"), reconnect_max=1
    )
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    ingest = Ingest(settings, storage)
    ingest.listeners.append(watch)
    ingest.start()
    assert ingest.connected.wait(10), "the hub could not connect"
    try:
        yield ingest, storage
    finally:
        ingest.close()
        storage.close()


def online(storage: Storage, table: str) -> bool | None:
    return next((t.online for t in storage.tables() if t.id == table), None)


def say_online(client: Client, table: str) -> None:
    client.publish(topics.topic(table, topics.STATUS), topics.encode({"online": True}), retain=True)


def test_the_generated_config_binds_client_ids_and_bounds_messages(tmp_path: Path) -> None:
    text = conf_text(BrokerFiles(tmp_path), 1883, "0.0.0.0")
    lines = text.splitlines()
    assert "use_username_as_clientid true" in lines
    assert "allow_anonymous false" in lines
    assert f"max_packet_size {MAX_PACKET_BYTES}" in lines
    assert any(line.startswith("max_queued_messages ") for line in lines)
    assert any(line.startswith("max_queued_bytes ") for line in lines)
    assert any(line.startswith("persistent_client_expiration ") for line in lines)
    assert any(line.startswith("memory_limit ") for line in lines)


@pytest.mark.parametrize("table_id", [*sorted(RESERVED_IDS), "Table-1", "-x", "a/b", "t" * 33])
def test_setup_refuses_the_hubs_id_reserved_words_and_bad_ids(
    tmp_path: Path, table_id: str
) -> None:
    with pytest.raises(BrokerSetupError) as refused:
        setup(tmp_path / "broker", ["table-1", table_id], port=1883, listen="127.0.0.1")
    assert repr(table_id) in str(refused.value)
    assert not (tmp_path / "broker" / "passwd").exists()  # refused before anything is written


def test_setup_never_overwrites_the_hubs_password(tmp_path: Path) -> None:
    from tests.broker import require_mosquitto
    from tests.conftest import run_cli

    require_mosquitto()
    folder = tmp_path / "broker"
    setup(folder, ["table-1"], port=1883, listen="127.0.0.1")
    hub_password = (folder / "hub-password").read_text()
    passwd = (folder / "passwd").read_text()
    result = run_cli("hub", "setup", "--dir", str(folder), "--table", "hub")
    assert result.returncode == 2
    assert "'hub' cannot be a table id" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert (folder / "hub-password").read_text() == hub_password
    assert (folder / "passwd").read_text() == passwd
    assert not (folder / "tables" / "hub.password").exists()


def test_a_table_cannot_take_another_tables_client_id(
    broker: Broker, hub: tuple[Ingest, Storage], watch: Watch
) -> None:
    _, storage = hub
    victim = Client(broker, "table-2", "cafe-table-table-2", clean_session=False)
    victim.client.will_set(
        topics.topic("table-2", topics.STATUS), topics.encode({"online": False}), 1, True
    )
    victim.close()
    victim = Client(broker, "table-2", "cafe-table-table-2", clean_session=False)
    victim.client.will_set(
        topics.topic("table-2", topics.STATUS), topics.encode({"online": False}), 1, True
    )
    say_online(victim, "table-2")
    watch.until(lambda: online(storage, "table-2") is True, what="table-2 online")
    attacker = Client(broker, "table-1", "cafe-table-table-2")
    try:
        # The attacker's own message, after its connect: once the hub has it, the broker
        # has long handled the connect (and would have fired table-2's will before it).
        say_online(attacker, "table-1")
        watch.until(lambda: online(storage, "table-1") is True, what="the attacker's status")
        assert not victim.disconnected.is_set(), "table-2 was thrown off the broker"
        assert online(storage, "table-2") is True
    finally:
        attacker.close()
        victim.close()


def test_a_table_cannot_kick_the_hub_or_wipe_its_session(
    broker: Broker, hub: tuple[Ingest, Storage], watch: Watch
) -> None:
    ingest, storage = hub
    hub_dropped = threading.Event()
    on_disconnect = ingest.client.on_disconnect

    def dropped(*args: Any) -> None:
        hub_dropped.set()
        if on_disconnect is not None:
            on_disconnect(*args)

    ingest.client.on_disconnect = dropped
    for client_id in ("cafe-hub", "hub"):
        attacker = Client(broker, "table-1", client_id, clean_session=True)
        say_online(attacker, "table-1")
        watch.until(lambda: online(storage, "table-1") is True, what="the attacker's status")
        attacker.close()
        table = Client(broker, "table-1", "x")
        say_online(table, "table-1")
        table.close()
    assert not hub_dropped.is_set(), "a table's login threw the hub off the broker"
    assert ingest.connected.is_set()
    # The hub's persistent session still holds: a record sent now reaches it.
    sender = Client(broker, "table-2", "y")
    try:
        sender.publish(
            topics.topic("table-2", topics.STATUS), topics.encode({"online": True}), retain=True
        )
        watch.until(lambda: online(storage, "table-2") is True, what="table-2 after the attack")
    finally:
        sender.close()


def test_a_table_reads_and_writes_only_its_own_topics(
    broker: Broker, hub: tuple[Ingest, Storage], watch: Watch
) -> None:
    ingest, storage = hub
    snoop = Client(broker, "table-1", "snoop")
    other = Client(broker, "table-2", "other")
    try:
        for pattern in ("cafe/#", "cafe/table/table-2/#", "#", "$SYS/#"):
            snoop.client.subscribe(pattern, qos=1)
        snoop.client.subscribe(topics.topic("table-1", topics.MEMBERS), qos=1)
        # A forged alert for table-2, and a forged acknowledgement to table-2.
        snoop.publish(
            topics.topic("table-2", topics.ALERT),
            topics.encode({"id": "forged", "kind": "call-staff", "text": "x", "seat": 0}),
        )
        snoop.publish(topics.topic("table-2", topics.RECORD_ACK), topics.encode({"uid": "u"}))
        other.client.subscribe(topics.topic("table-2", topics.RECORD_ACK), qos=1)
        other.publish(
            topics.topic("table-2", topics.STATE), topics.encode({"screen": "play", "version": 1})
        )
        # Then the hub writes to table-1 (which it may read): once that has arrived,
        # anything the broker let through from table-2 would have arrived before it.
        ingest.client.publish(
            topics.topic("table-1", topics.MEMBERS), topics.encode({"members": {}}), qos=1
        ).wait_for_publish(10)
        snoop.wait_for(topics.topic("table-1", topics.MEMBERS))
        other.publish(
            topics.topic("table-2", topics.STATUS), topics.encode({"online": True}), retain=True
        )
        watch.until(lambda: online(storage, "table-2") is True, what="table-2's own status")
        assert [t for t, _ in snoop.messages] == [topics.topic("table-1", topics.MEMBERS)]
        assert not [t for t, _ in other.messages], "a forged record/ack reached table-2"
        assert not storage.alerts(), "a forged alert was stored"
    finally:
        snoop.close()
        other.close()


def test_a_message_past_the_size_limit_is_dropped_with_its_sender(
    broker: Broker, hub: tuple[Ingest, Storage], watch: Watch
) -> None:
    _, storage = hub
    flooder = Client(broker, "table-1", "flood")
    try:
        huge = topics.encode({"screen": "play", "title": "x" * MAX_PACKET_BYTES, "version": 9})
        flooder.client.publish(topics.topic("table-1", topics.STATE), huge, qos=1, retain=True)
        assert flooder.disconnected.wait(10), "the broker kept a client that sent too much"
    finally:
        flooder.close()
    table = Client(broker, "table-1", "table-1")
    try:
        small = topics.encode({"screen": "attract", "version": 10})
        table.publish(topics.topic("table-1", topics.STATE), small, retain=True)
        watch.until(
            lambda: any(t.state and t.state.get("version") == 10 for t in storage.tables()),
            what="the small state",
        )
        state = storage.tables()[0].state
        assert state is not None and state.get("title") is None
    finally:
        table.close()
