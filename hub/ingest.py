"""The hub's MQTT side: every table's messages into the storage, and the hub's answers out.

One paho-mqtt 2.x client subscribes to ``cafe/table/+/#`` with QoS 1 and a
persistent session (``clean_session=False``), so messages a table sent while
the hub was down are delivered when it comes back. Each message is checked
first (``hub.messages``: a Pydantic model per topic, records replayed); what
fails is refused, counted per table (``Storage.add_refusal``) and shown on the
dashboard, never stored. What passes is stored idempotently
(``hub.storage``); only then does paho acknowledge it, and a message with a
``uid`` (a record, or an alert, event or answer from a table's outbox) is
confirmed to its table on ``record/ack``, so the table stops sending it. A
refused alert, event or answer is confirmed too (it would be refused again);
a refused record is not (a later hub may know its game).
Listeners (the dashboard's live updates) hear of every change.

A table is online while it is heard from: its last will marks it offline at
once, and a watchdog marks it offline when no live message (its status
heartbeat, every ``cafe.heartbeat`` seconds) came for ``offline_after``
seconds (only a table whose status shows it beats: older table software
does not), so a table that died while the broker was down (its will died with
that broker) turns offline too. A retained status (an old one, replayed by
the broker on subscribe) shows a table online but does not count as a sign
of life. When a table comes back, the hub sends again the acknowledgements
of its alerts from the last hour (the table ignores those it has closed)
and its newest unanswered configuration push, so what the broker lost in a
crash still reaches it; after the hub itself reconnects, every table's next
status counts as coming back. A table's status lists its open alerts and
the calls last answered at the table: the hub stores an alert it missed (one
sent after a broker crash, before the hub had subscribed again) and closes a
call answered at the table whose event it missed.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.fleet import topics
from hub import messages
from hub.settings import HubSettings
from hub.storage import Storage, now

logger = logging.getLogger(__name__)

ACKS_AGAIN_FOR = dt.timedelta(hours=1)  # how old an acknowledgement a returning table gets
# What one table may send: a real one sends a state at most every second, a heartbeat every
# 30 s, a record when a game ends. Past these, its messages are dropped unread (counted), so
# a table that floods costs the hub no checks and no writes, and the others are not kept
# waiting behind it. Records cost a replay each: they have a budget of their own.
# The bursts are large enough for what the broker queued for a hub that was away for hours.
MESSAGES_PER_SECOND, MESSAGE_BURST = 20.0, 1000
RECORDS_PER_SECOND, RECORD_BURST = 1.0, 50
FLOOD_NOTE_EVERY = 5.0  # seconds between two notes of a flooding table's dropped messages
Listener = Callable[[str, str, dict[str, Any]], None]  # (table id, what changed, payload)


class Budget:
    """Per table, a token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._tokens: dict[str, tuple[float, float]] = {}  # table -> (tokens, when)

    def take(self, table_id: str) -> bool:
        """Spend one message of ``table_id``'s budget; False when it has none left."""
        moment = self.clock()
        tokens, then = self._tokens.get(table_id, (float(self.burst), moment))
        tokens = min(float(self.burst), tokens + (moment - then) * self.rate)
        if tokens < 1.0:
            self._tokens[table_id] = (tokens, moment)
            return False
        self._tokens[table_id] = (tokens - 1.0, moment)
        return True


class UnknownTable(ValueError):
    """A push to a table id the hub has never heard of (or that is no table id)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(
            f"{table_id[:40]!r} is not a table this hub knows; choose one of the tables listed"
        )


class Ingest:
    """Subscribes, stores, and tells listeners; publishes alert acks and config pushes."""

    def __init__(
        self,
        settings: HubSettings,
        storage: Storage,
        client_id: str = "cafe-hub",
        *,
        budget: Budget | None = None,
        record_budget: Budget | None = None,
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
        self.refused = 0  # messages refused since start
        # Every table message handled (stored, refused or failed), for tests to wait on.
        self.handled = 0
        self.handled_changed = threading.Condition()
        self._heard: dict[str, float] = {}  # table id -> monotonic time of its last live message
        self._back: set[str] = set()  # tables heard online since the hub started
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._online: dict[str, bool] = {}  # what the hub last stored of each table
        # Tables whose status says they send heartbeats (it lists their alerts): only these
        # are marked offline for silence; a table with older software never beats.
        self._beats: set[str] = set()
        self._budget = budget or Budget(MESSAGES_PER_SECOND, MESSAGE_BURST)
        self._record_budget = record_budget or Budget(RECORDS_PER_SECOND, RECORD_BURST)
        self._dropped: dict[str, tuple[int, float]] = {}  # table -> (not yet noted, last note)
        self.dropped = 0  # messages dropped unread for a table over its budget
        # Each stores one checked message; False when it changed nothing the pages show.
        self._stores: dict[str, Callable[[str, Any], bool | None]] = {
            topics.STATUS: self._status,
            topics.STATE: self._state,
            topics.RECORD: self._record,
            topics.ALERT: self._alert,
            topics.EVENT: self._event,
            topics.CONFIG_RESULT: self._config_result,
        }

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
        self._watchdog = threading.Thread(target=self._watch, name="hub-watchdog", daemon=True)
        self._watchdog.start()

    def close(self) -> None:
        self._stop.set()
        if self._watchdog is not None:
            self._watchdog.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    def _watch(self) -> None:
        """Mark offline every table shown online that has not been heard from in time."""
        limit = self.settings.offline_after
        while not self._stop.wait(min(5.0, limit / 4)):
            try:
                self.mark_silent_offline()
            except Exception:
                logger.exception("the offline watchdog failed")

    def mark_silent_offline(self) -> list[str]:
        """Tables shown online but silent for ``offline_after`` seconds, now marked offline."""
        limit = self.settings.offline_after
        marked = []
        for table in self.storage.tables():
            silent_for = time.monotonic() - self._heard.get(table.id, self._started)
            if not table.online or silent_for <= limit or table.id not in self._beats:
                continue
            logger.info("%s has not been heard from for %.0f s: shown offline", table.id, limit)
            self.storage.table_status(table.id, False)
            self._online[table.id] = False
            self._back.discard(table.id)
            self._tell(table.id, topics.STATUS, {"online": False, "silent": True})
            marked.append(table.id)
        return marked

    def ack_alert(self, table_id: str, alert_id: str, by: str) -> bool:
        """Staff acknowledged an alert: store it and tell the table (it turns its LEDs off)."""
        changed = self.storage.ack_alert(table_id, alert_id, by)
        self.client.publish(
            topics.topic(table_id, topics.ALERT_ACK), topics.encode({"id": alert_id}), qos=1
        )
        self._tell(table_id, "alert", {"id": alert_id, "acked": True})
        return changed

    def push_config(self, table_id: str, settings: dict[str, Any], by: str) -> str:
        """Send ``settings`` to a table: retained, so a table that is off gets it on connect.

        The broker keeps one push per table (the newest; an older one still
        unanswered is superseded). The table answers on ``config/result``; then
        the retained push is cleared. A push that a broker crash lost is sent
        again when the table comes back. UnknownTable for a table the hub
        has never heard of.
        """
        if not topics.TABLE_ID.match(table_id) or table_id not in {
            t.id for t in self.storage.tables()
        }:
            raise UnknownTable(table_id)
        request_id = uuid.uuid4().hex
        version = self.storage.add_config_request(request_id, table_id, settings, by)
        self._publish_config(table_id, request_id, version, settings)
        return request_id

    def _publish_config(
        self, table_id: str, request_id: str, version: int, settings: dict[str, Any]
    ) -> None:
        payload = {"id": request_id, "version": version, "settings": settings, "at": now()}
        self.client.publish(
            topics.topic(table_id, topics.CONFIG_SET), topics.encode(payload), qos=1, retain=True
        )

    def _resend_pending_config(self, table_id: str) -> None:
        newest = self.storage.newest_config(table_id)
        if newest is not None and newest["answered"] is None:
            settings = json.loads(newest["settings"])
            self._publish_config(table_id, newest["id"], newest["version"], settings)

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
        # What the hub sent before this connection may have died with a broker: each
        # table's next status brings the acknowledgements and pending pushes again.
        self._back.clear()
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.split(message.topic)
        if where is None:
            logger.warning("ignoring a message on %s that is not the café's", message.topic)
            return
        table_id, leaf = where
        if leaf not in self._stores:
            return  # the hub's own messages to the tables (acks, pushes, members)
        if not self._budget.take(table_id) or (
            leaf == topics.RECORD and not self._record_budget.take(table_id)
        ):
            self._drop(table_id, leaf)
            self._handled()
            return
        try:
            checked = messages.parse(table_id, leaf, bytes(message.payload))
        except messages.Refused as exc:
            self._refuse(table_id, leaf, str(exc))
            if leaf != topics.RECORD:
                # Sent again it would be refused again: the table's outbox may let it go.
                # (A record stays pending: a hub that learns its game takes it later.)
                self._confirm(table_id, messages.uid_of(table_id, bytes(message.payload)))
            self._handled()
            return
        if not message.retain:
            self._heard[table_id] = time.monotonic()  # a live message: the table is alive
        try:
            changed = self._stores[leaf](table_id, checked)
            self.stored += 1
            # Stored (now or before): the table's outbox may stop sending it.
            self._confirm(table_id, getattr(checked, "uid", None))
            if changed is not False:
                self._tell(table_id, leaf, checked.model_dump(mode="json", exclude_unset=True))
        except Exception:
            logger.exception("could not store a message from %s (%s)", table_id, leaf)
        finally:
            self._handled()

    def _confirm(self, table_id: str, uid: str | None) -> None:
        """Tell the table its outbox's message ``uid`` needs no sending again."""
        if uid is not None:
            self.client.publish(
                topics.topic(table_id, topics.RECORD_ACK), topics.encode({"uid": uid}), qos=1
            )

    def _refuse(self, table_id: str, leaf: str, reason: str) -> None:
        self.refused += 1
        # The first refusal of a table is logged in full, later ones now and then: a table
        # that sends garbage in a loop must not fill the hub's log.
        if self.refused < 20 or self.refused % 1000 == 0:
            logger.warning("refused a message from %s: %s", table_id, reason)
        try:
            self.storage.add_refusal(table_id, leaf, reason)
        except Exception:
            logger.exception("could not count a refused message from %s", table_id)
        self._tell(table_id, "refused", {"topic": leaf, "reason": reason})

    def _drop(self, table_id: str, leaf: str) -> None:
        """Count a message dropped unread; note the count now and then, not each time."""
        self.dropped += 1
        count, noted = self._dropped.get(table_id, (0, float("-inf")))
        count += 1
        moment = time.monotonic()
        if moment - noted < FLOOD_NOTE_EVERY:
            self._dropped[table_id] = (count, noted)
            return
        self._dropped[table_id] = (0, moment)
        reason = (
            f"{leaf}: {table_id} sends more than {self._budget.rate:.0f} messages a second "
            f"(or {self._record_budget.rate:.0f} record); {count} dropped unread"
        )
        logger.warning("%s", reason)
        try:
            self.storage.add_refusal(table_id, leaf, reason, count)
        except Exception:
            logger.exception("could not count the dropped messages of %s", table_id)
        self._tell(table_id, "refused", {"topic": leaf, "reason": reason})

    def _handled(self) -> None:
        with self.handled_changed:
            self.handled += 1
            self.handled_changed.notify_all()

    def wait_handled(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` table messages were handled in all; False on time-out."""
        with self.handled_changed:
            return self.handled_changed.wait_for(lambda: self.handled >= count, timeout)

    # --- one method per topic: each gets the message ``hub.messages`` checked -------------

    def _status(self, table_id: str, status: messages.Status) -> bool:
        """Store a status; False for a heartbeat that changed nothing (no page redraws)."""
        changed = self._online.get(table_id) != status.online
        self._online[table_id] = status.online
        if status.alerts is not None:
            self._beats.add(table_id)
        self.storage.table_status(table_id, status.online, status.at)
        self._open_alerts(table_id, status)
        if not status.online:
            self._back.discard(table_id)
        elif table_id not in self._back:
            # Back (or first heard of since the hub started; a retained status too: the
            # acknowledgements wait in the table's persistent session if it is not there).
            self._back.add(table_id)
            self._resend_acks(table_id)
            self._resend_pending_config(table_id)
            if self.storage.active_members():
                # A new table, or one set up before the members. (A café without member
                # cards sends nothing; an emptied list went out, retained, when it emptied.)
                self.push_members([table_id])
        return changed

    def _open_alerts(self, table_id: str, status: messages.Status) -> None:
        """Store the alerts a table lists as open that the hub missed; close those it
        lists as answered at the table (their events may have been lost)."""
        for alert in status.alerts or []:
            if self.storage.add_alert(table_id, alert.model_dump(exclude_unset=True)):
                self._tell(table_id, topics.ALERT, alert.model_dump(mode="json"))
        for alert_id in status.answered or []:
            if self.storage.ack_alert(table_id, alert_id, "staff at the table"):
                self._tell(table_id, topics.ALERT, {"id": alert_id, "acked": True})

    def _resend_acks(self, table_id: str) -> None:
        """The last hour's alert acknowledgements again: one may have died with a broker."""
        since = (dt.datetime.now(dt.UTC) - ACKS_AGAIN_FOR).isoformat(timespec="milliseconds")
        for alert_id in self.storage.acked_since(table_id, since):
            self.client.publish(
                topics.topic(table_id, topics.ALERT_ACK), topics.encode({"id": alert_id}), qos=1
            )

    def _state(self, table_id: str, state: messages.TableState) -> None:
        self.storage.table_state(table_id, state.model_dump(mode="json", exclude_unset=True))

    def _record(self, table_id: str, record: messages.RecordMessage) -> None:
        self.storage.add_record(
            table_id,
            {
                "uid": record.uid,
                "game": record.game,
                "options": record.replayed.options,
                "seats": list(record.seats),
                "started": record.started,
                "finished": record.finished,
                "clock_set": record.clock_set,
                "report": record.replayed.report,
                "record": record.record,
                "nicknames": record.nicknames,
            },
        )

    def _alert(self, table_id: str, alert: messages.Alert) -> None:
        self.storage.add_alert(table_id, alert.model_dump(exclude_unset=True))

    def _event(self, table_id: str, event: messages.Event) -> bool:
        """Store an event; False for one stored before (sent again by the table's outbox)."""
        if not self.storage.add_event(table_id, event.model_dump(mode="json", exclude_unset=True)):
            return False
        if event.kind == "staff-call-answered" and event.alert is not None:
            # Staff answered at the table with their tag: the alert is done.
            self.storage.ack_alert(table_id, event.alert, "staff at the table")
        return True

    def _config_result(self, table_id: str, result: messages.ConfigResult) -> None:
        if self.storage.config_answered(table_id, result.model_dump(exclude_unset=True)):
            # The newest push is answered: the broker need not keep it for the table.
            self.client.publish(topics.topic(table_id, topics.CONFIG_SET), b"", qos=1, retain=True)

    def _tell(self, table_id: str, leaf: str, payload: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(table_id, leaf, payload)
            except Exception:
                logger.exception("a dashboard listener failed")
