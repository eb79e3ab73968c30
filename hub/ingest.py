"""The hub's MQTT side: every table's messages into the storage, and the hub's answers out.

One paho-mqtt 2.x client subscribes to ``cafe/table/+/#`` with QoS 1 and a
persistent session (``clean_session=False``), so messages a table sent while
the hub was down are delivered when it comes back. Each message is stored
idempotently (``hub.storage``); only then does paho acknowledge it. Listeners
(the dashboard's live updates) hear of every change.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.fleet import topics
from hub.settings import HubSettings
from hub.storage import Storage, now

logger = logging.getLogger(__name__)

Listener = Callable[[str, str, dict[str, Any]], None]  # (table id, what changed, payload)


class Ingest:
    """Subscribes, stores, and tells listeners; publishes alert acks and config pushes."""

    def __init__(
        self, settings: HubSettings, storage: Storage, client_id: str = "cafe-hub"
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        self.listeners: list[Listener] = []
        self.connected = threading.Event()
        self.stored = 0  # messages stored since start (for the benchmark and tests)

    def start(self) -> None:
        client = self.client
        client.username_pw_set(self.settings.username, self.settings.password)
        client.reconnect_delay_set(min_delay=1, max_delay=self.settings.reconnect_max)
        client.enable_logger(logging.getLogger("hub.paho"))
        client.on_connect = self._on_connect
        client.on_disconnect = lambda *args: self.connected.clear()
        client.on_message = self._on_message
        client.connect_async(self.settings.broker_host, self.settings.broker_port, keepalive=30)
        client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def ack_alert(self, table_id: str, alert_id: str, by: str) -> bool:
        """Staff acknowledged an alert: store it and tell the table (it turns its LEDs off)."""
        changed = self.storage.ack_alert(table_id, alert_id, by)
        self.client.publish(
            topics.topic(table_id, topics.ALERT_ACK), topics.encode({"id": alert_id}), qos=1
        )
        self._tell(table_id, "alert", {"id": alert_id, "acked": True})
        return changed

    def push_config(self, table_id: str, settings: dict[str, Any], by: str) -> str:
        request_id = uuid.uuid4().hex
        self.storage.add_config_request(request_id, table_id, settings, by)
        self.client.publish(
            topics.topic(table_id, topics.CONFIG_SET),
            topics.encode({"id": request_id, "settings": settings}),
            qos=1,
        )
        return request_id

    def push_members(self, table_ids: list[str] | None = None) -> None:
        """Send the member cards to the tables (every known table unless ``table_ids``).

        Retained, so a table that connects later, or while the hub is down, gets
        the latest list from the broker.
        """
        payload = topics.encode({"members": self.storage.active_members(), "at": now()})
        targets = [t.id for t in self.storage.tables()] if table_ids is None else table_ids
        for table_id in targets:
            self.client.publish(topics.topic(table_id, topics.MEMBERS), payload, qos=1, retain=True)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            logger.warning("the broker refused the hub: %s", reason)
            return
        client.subscribe(f"{topics.ROOT}/+/#", qos=1)
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.split(message.topic)
        payload = topics.decode(bytes(message.payload))
        if where is None or payload is None:
            logger.warning("ignoring a message on %s that is not the café's", message.topic)
            return
        table_id, leaf = where
        try:
            self._store(table_id, leaf, payload)
        except Exception:
            logger.exception("could not store a message from %s (%s)", table_id, leaf)

    def _store(self, table_id: str, leaf: str, payload: dict[str, Any]) -> None:
        if leaf == topics.STATUS:
            self.storage.table_status(table_id, bool(payload.get("online")), payload.get("at"))
            if payload.get("online") and self.storage.active_members():
                # A new table, or one set up before the members. (A café without member
                # cards sends nothing; an emptied list went out, retained, when it emptied.)
                self.push_members([table_id])
        elif leaf == topics.STATE:
            self.storage.table_state(table_id, payload)
        elif leaf == topics.RECORD and isinstance(payload.get("uid"), str):
            self.storage.add_record(table_id, payload)
            # Stored (now or before): the table may stop sending it.
            self.client.publish(
                topics.topic(table_id, topics.RECORD_ACK),
                topics.encode({"uid": payload["uid"]}),
                qos=1,
            )
        elif leaf == topics.ALERT and isinstance(payload.get("id"), str):
            self.storage.add_alert(table_id, payload)
        elif leaf == topics.EVENT:
            self.storage.add_event(table_id, payload)
            if payload.get("kind") == "staff-call-answered" and isinstance(
                payload.get("alert"), str
            ):
                # Staff answered at the table with their tag: the alert is done.
                self.storage.ack_alert(table_id, payload["alert"], "staff at the table")
        elif leaf == topics.CONFIG_RESULT:
            self.storage.config_answered(table_id, payload)
        else:
            return
        self.stored += 1
        self._tell(table_id, leaf, payload)

    def _tell(self, table_id: str, leaf: str, payload: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(table_id, leaf, payload)
            except Exception:
                logger.exception("a dashboard listener failed")
