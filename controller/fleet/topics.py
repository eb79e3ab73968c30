"""The café's MQTT topics and message shapes, shared by the tables and the hub.

Every topic is under ``cafe/table/<table id>/``; a table may publish only
under its own id (the broker's ACL enforces it) and subscribes to what the hub
sends it.

| topic | from | QoS | retained | payload |
| --- | --- | --- | --- | --- |
| ``status`` | table (last will too) | 1 | yes | ``{"online": bool, "at": ISO time, ...}`` |
| ``state`` | table | 0 | yes | the table's state (``controller.fleet.state``) |
| ``event`` | table | 1 | no | ``{"kind": ..., "at": ..., ...}`` |
| ``alert`` | table | 1 | no | ``{"id": ..., "kind": ..., "seat": ..., "text": ...}`` |
| ``record`` | table | 1 | no | ``{"uid": ..., "game": ..., "record": text, "report": {...}}`` |
| ``alert/ack`` | hub | 1 | no | ``{"id": ...}`` |
| ``record/ack`` | hub | 1 | no | ``{"uid": ...}``: the hub has stored this record or message |
| ``config/set`` | hub | 1 | until answered | ``{"id": ..., "version": n, "settings": {...}}`` |
| ``config/result`` | table | 1 | no | ``{"id": ..., "ok": bool, "message": ...}`` |
| ``members`` | hub | 1 | yes | ``{"members": {tag UID: nickname}}``: every member card |

A ``record`` carries ``"nicknames"`` beside the record text when member cards
named seats: one entry per record seat (``seats`` order), a nickname or null.
An ``event``, ``alert`` or ``config/result`` from a table with a journal carries a
``uid`` too: it waits in the table's outbox until ``record/ack`` names it
(``controller.fleet.outbox``). A ``status`` is also the table's heartbeat
(every ``cafe.heartbeat`` seconds) and lists its open alerts (``"alerts"``)
and the calls last answered at the table (``"answered"``: alert ids). The hub
checks every payload (``hub.messages``).
"""

from __future__ import annotations

import json
from typing import Any

# Re-exported: the topic scheme names a table by its id, checked where [cafe] is read.
from controller.config.cafe import TABLE_ID as TABLE_ID

ROOT = "cafe/table"

STATUS, STATE, EVENT, ALERT, RECORD = "status", "state", "event", "alert", "record"
ALERT_ACK, CONFIG_SET, CONFIG_RESULT = "alert/ack", "config/set", "config/result"
RECORD_ACK, MEMBERS = "record/ack", "members"
FROM_TABLE = (STATUS, STATE, EVENT, ALERT, RECORD, CONFIG_RESULT)
FROM_HUB = (ALERT_ACK, CONFIG_SET, RECORD_ACK, MEMBERS)


def topic(table_id: str, leaf: str) -> str:
    """The topic ``leaf`` (e.g. ``state``) of table ``table_id``."""
    return f"{ROOT}/{table_id}/{leaf}"


def split(name: str) -> tuple[str, str] | None:
    """(table id, leaf) of a café topic, or None for anything else."""
    parts = name.split("/", 3)
    if len(parts) < 4 or f"{parts[0]}/{parts[1]}" != ROOT or not TABLE_ID.match(parts[2]):
        return None
    return parts[2], parts[3]


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def decode(data: bytes) -> dict[str, Any] | None:
    """A message's JSON object, or None when it is not one (never raises)."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
