"""``FleetLink``: the table's one connection to the café's broker, on threads of its own.

The table loop calls ``publish_state``, ``event``, ``alert``, ``record_ready``
and ``config_result``; each only puts a note on a queue and returns at once,
so a dead broker or a dropped Wi-Fi costs the players nothing. A worker thread
turns the notes into MQTT messages on a paho-mqtt 2.x client, whose own
network thread connects, reconnects with backoff and calls back here:

- on connect: the retained ``status`` (online; the last will says offline,
  and paho registers it again with every connect), the latest ``state``,
  every pending record of the outbox, and the subscriptions to what the hub
  sends this table; the session is persistent (``clean_session=False``), so
  the broker keeps what the hub sends while the table is away, and paho sends
  again any QoS 1 message the broker had not acknowledged;
- while connected: ``status`` again every ``heartbeat`` seconds, so the hub
  can tell a table that died while the broker was down (its last will died
  with that broker) from one that is alive; each status lists the table's
  open alerts (raised, not yet answered at the table or acknowledged by the
  hub) and the calls last answered at the table. Being retained, it reaches
  the hub even when an ``alert`` or ``event`` message did not (one sent
  after a broker crash, before the hub had subscribed again);
- on PUBACK of a record: the outbox notes the broker has it; on the hub's
  ``record/ack`` it is delivered; a record the hub has not confirmed within
  ``resend_after`` seconds is sent again (the hub stores it once);
- alerts, events and configuration answers go through the outbox as well
  (with a journal): each carries a ``uid`` and is sent again, like a record,
  until the hub's ``record/ack`` names it, so one lost with a broker that
  crashed, or sent before the hub had subscribed again, still arrives (the
  hub stores each uid once). Without a journal they are sent once, QoS 1;
- on a message from the hub (an alert acknowledged, a configuration pushed,
  the member cards enrolled on the dashboard):
  ``on_message`` gets a typed ``HubMessage`` (the app puts it on the table's
  event queue; the table loop acts on it).
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.config.cafe import CafeSettings
from controller.fleet import topics
from controller.fleet.outbox import Outbox

logger = logging.getLogger(__name__)
MAX_OPEN_ALERTS = 32  # a call for staff and a reader per seat, at most


@dataclass(frozen=True)
class AlertAcknowledged:
    """Staff acknowledged the alert ``alert_id`` on the dashboard."""

    alert_id: str


@dataclass(frozen=True)
class ConfigRequested:
    """The hub asks the table to apply ``settings`` (between games) and answer ``request_id``."""

    request_id: str
    settings: dict[str, Any]


@dataclass(frozen=True)
class MembersChanged:
    """The hub's member cards (tag UID -> nickname), all of them (a retained message)."""

    members: dict[str, str]


HubMessage = AlertAcknowledged | ConfigRequested | MembersChanged


@dataclass(frozen=True)
class _Note:
    kind: str  # "state", "publish", "records", "stop", "connected", "closed"
    leaf: str = ""
    payload: dict[str, Any] | None = None


class FleetLink:
    """Publishes a table's status, state, events, alerts and records; see the module docstring."""

    def __init__(
        self,
        settings: CafeSettings,
        outbox: Outbox | None,
        on_message: Callable[[HubMessage], None],
        *,
        client: mqtt.Client | None = None,
        clock: Callable[[], float] = time.monotonic,
        resend_after: float = 60.0,
    ) -> None:
        self.resend_after = resend_after
        self.settings = settings
        self.outbox = outbox
        self.on_message = on_message
        self.clock = clock
        self.client = client or mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"cafe-table-{settings.table}",  # the broker uses the user name
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        self._notes: queue.Queue[_Note] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._connected = threading.Event()
        self._in_flight: dict[int, str] = {}  # MQTT message id -> record uid
        self._awaiting: dict[str, float] = {}  # record uid -> when it was last sent
        # Acknowledgements that came back before publish() returned their message id.
        self._early_acks: collections.deque[int] = collections.deque(maxlen=512)
        self._flight_lock = threading.Lock()
        self._latest_state: dict[str, Any] | None = None
        self._state_sent_at = float("-inf")
        self._state_dirty = False
        self._status_sent_at = float("-inf")
        # Alerts raised and not yet closed (alert id -> its message), for the status.
        self._open_alerts: dict[str, dict[str, Any]] = {}
        self._answered: collections.deque[str] = collections.deque(maxlen=MAX_OPEN_ALERTS)
        self.sent_counts: dict[str, int] = {}  # leaf -> messages handed to the client

    # --- lifecycle ---------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (never blocks) and start the worker."""
        if self._thread is not None:
            return
        client, settings = self.client, self.settings
        client.will_set(
            self._topic(topics.STATUS), topics.encode({"online": False}), qos=1, retain=True
        )
        client.username_pw_set(settings.user, settings.password)
        if settings.tls:
            client.tls_set(ca_certs=None if settings.ca_file is None else str(settings.ca_file))
        client.reconnect_delay_set(min_delay=1, max_delay=settings.reconnect_max)
        client.enable_logger(logging.getLogger("controller.fleet.paho"))
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.connect_async(settings.broker, settings.port, keepalive=settings.keepalive)
        client.loop_start()
        self._thread = threading.Thread(target=self._work, name="fleet-link", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Say offline (when connected), disconnect, and stop both threads; idempotent."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._notes.put(_Note("stop"))
        thread.join(timeout)
        if self._connected.is_set():
            info = self.client.publish(
                self._topic(topics.STATUS),
                topics.encode({"online": False, "at": _now()}),
                qos=1,
                retain=True,
            )
            # Not connected after all: the last will says offline instead.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=2.0)
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # --- the table loop's side: never blocks ---------------------------------------

    def publish_state(self, state: dict[str, Any]) -> None:
        """The table's state changed; the newest is sent, at most once per state_interval."""
        self._notes.put(_Note("state", payload=state))

    def event(self, kind: str, **data: Any) -> None:
        self._notes.put(_Note("publish", topics.EVENT, {"kind": kind, "at": _now(), **data}))

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None:
        payload = {"id": alert_id, "kind": kind, "text": text, "seat": seat, "at": _now()}
        self._notes.put(_Note("publish", topics.ALERT, payload))

    def config_result(self, request_id: str, ok: bool, message: str) -> None:
        payload = {"id": request_id, "ok": ok, "message": message, "at": _now()}
        self._notes.put(_Note("publish", topics.CONFIG_RESULT, payload))

    def record_ready(self) -> None:
        """A record was added to the outbox: send what is pending."""
        self._notes.put(_Note("records"))

    # --- the worker thread -----------------------------------------------------------

    def _work(self) -> None:
        while True:
            # Wake for a record the hub has not confirmed (to send it again) and for a
            # state held back by the rate limit; otherwise sleep until a note comes.
            timeout = self.resend_after if self._awaiting else None
            if self._connected.is_set():
                due = self._status_sent_at + self.settings.heartbeat
                timeout = min(timeout or float("inf"), max(0.0, due - self.clock()))
            if self._state_dirty:
                due = self._state_sent_at + self.settings.state_interval
                timeout = min(timeout or float("inf"), max(0.0, due - self.clock()))
            try:
                note = self._notes.get(timeout=timeout)
            except queue.Empty:
                note = None
            if note is not None and note.kind == "stop":
                if self._state_dirty and self._latest_state is not None:
                    # The last word: the state the table stops in, whatever the interval.
                    self._send(topics.STATE, self._latest_state, qos=1, retain=True)
                return
            try:
                self._handle(note)
            except Exception:  # the link must outlive any one bad message
                logger.exception("the fleet link failed to send a message")

    def _handle(self, note: _Note | None) -> None:
        if note is None:
            self._send_unconfirmed()  # a quiet spell: anything the hub has not confirmed goes again
        elif note.kind == "state":
            self._latest_state, self._state_dirty = note.payload, True
        elif note.kind == "publish" and note.payload is not None:
            self._track_alerts(note.leaf, note.payload)
            if self.outbox is None:
                self._send(note.leaf, note.payload, qos=1)
            else:  # kept until the hub confirms it: see the module docstring
                self.outbox.add_message(note.leaf, note.payload)
                self._send_unconfirmed()
        elif note.kind == "closed" and note.payload is not None:
            self._open_alerts.pop(str(note.payload.get("id")), None)
        elif note.kind == "records":
            self._send_unconfirmed()
        elif note.kind == "connected":
            self._send_status()
            self._state_dirty = self._latest_state is not None
            self._send_unconfirmed(resend=True)
        if (
            self._connected.is_set()
            and self.clock() - self._status_sent_at >= self.settings.heartbeat
        ):
            # The heartbeat: QoS 0, so a hub that is away does not find hundreds of them
            # queued for it when it comes back (the retained one is always the latest).
            self._send_status(qos=0)
        if (
            self._state_dirty
            and self._latest_state is not None
            and self.clock() - self._state_sent_at >= self.settings.state_interval
        ):
            self._send(topics.STATE, self._latest_state, qos=0, retain=True)
            self._state_sent_at, self._state_dirty = self.clock(), False

    def _track_alerts(self, leaf: str, payload: dict[str, Any]) -> None:
        if leaf == topics.ALERT:
            self._open_alerts[str(payload.get("id"))] = payload
            while len(self._open_alerts) > MAX_OPEN_ALERTS:  # the oldest goes first
                self._open_alerts.pop(next(iter(self._open_alerts)))
        elif leaf == topics.EVENT and payload.get("kind") == "staff-call-answered":
            self._open_alerts.pop(str(payload.get("alert")), None)
            self._answered.append(str(payload.get("alert")))

    def _send_status(self, qos: int = 1) -> None:
        status = {
            "online": True,
            "at": _now(),
            "alerts": list(self._open_alerts.values()),
            "answered": list(self._answered),
        }
        self._send(topics.STATUS, status, qos=qos, retain=True)
        # Up to a fifth early, at random: tables that started (or reconnected) together
        # do not all beat at once.
        self._status_sent_at = self.clock() - random.uniform(0, 0.2) * self.settings.heartbeat

    def _send(self, leaf: str, payload: dict[str, Any], qos: int, retain: bool = False) -> None:
        if leaf == topics.STATE and not self._connected.is_set():
            self._state_dirty = True  # sent on connect
            return
        self.client.publish(self._topic(leaf), topics.encode(payload), qos=qos, retain=retain)
        self.sent_counts[leaf] = self.sent_counts.get(leaf, 0) + 1

    def _send_unconfirmed(self, resend: bool = False) -> None:
        if self.outbox is None or not self._connected.is_set():
            return  # sent on connect
        now = self.clock()
        with self._flight_lock:
            if resend:
                self._in_flight.clear()  # a new connection: whatever was in flight goes again
                self._awaiting.clear()
            waiting = {uid for uid, at in self._awaiting.items() if now - at < self.resend_after}
        for uid, leaf, message in self.outbox.unconfirmed():
            if uid in waiting:
                continue
            info = self.client.publish(self._topic(leaf), message, qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return  # the connection dropped: everything pending goes again on connect
            self.sent_counts[leaf] = self.sent_counts.get(leaf, 0) + 1
            with self._flight_lock:
                self._awaiting[uid] = now
                acked = info.mid in self._early_acks
                if acked:
                    self._early_acks.remove(info.mid)
                else:
                    self._in_flight[info.mid] = uid
            if acked:
                self.outbox.sent(uid)

    # --- paho's network thread ------------------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            logger.warning("the café broker refused the table: %s", reason)
            return
        self._connected.set()
        for leaf in topics.FROM_HUB:
            client.subscribe(self._topic(leaf), qos=1)
        self._notes.put(_Note("connected"))

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self._connected.clear()

    def _on_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any
    ) -> None:
        with self._flight_lock:
            uid = self._in_flight.pop(mid, None)
            if uid is None:
                self._early_acks.append(mid)
        if uid is not None and self.outbox is not None:
            self.outbox.sent(uid)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.split(message.topic)
        payload = topics.decode(bytes(message.payload))
        if where is None or where[0] != self.settings.table or payload is None:
            return
        if where[1] == topics.RECORD_ACK and isinstance(payload.get("uid"), str):
            uid = payload["uid"]
            if self.outbox is not None:
                self.outbox.delivered(uid)
            with self._flight_lock:
                self._awaiting.pop(uid, None)
            return
        if where[1] == topics.MEMBERS:
            members = payload.get("members")
            if isinstance(members, dict):
                self.on_message(MembersChanged({str(k): str(v) for k, v in members.items()}))
            return
        request = payload.get("id")
        if not isinstance(request, str):
            return
        if where[1] == topics.ALERT_ACK:
            self._notes.put(_Note("closed", payload={"id": request}))
            self.on_message(AlertAcknowledged(request))
        elif where[1] == topics.CONFIG_SET and isinstance(payload.get("settings"), dict):
            self.on_message(ConfigRequested(request, payload["settings"]))

    def _topic(self, leaf: str) -> str:
        return topics.topic(self.settings.table, leaf)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
