"""``[cafe]`` in ``table.toml``: how a table reaches the café's broker.

```toml
[cafe]
broker = "hub.local"       # the broker's host name or address
port = 1883                # 8883 is usual with tls = true
table = "table-3"          # this table's id: lower-case letters, digits and dashes
username = "table-3"       # defaults to the table id (the broker's ACL keys on it)
password_file = "/etc/cafe-table/broker-password"   # or password = "..."
tls = false
ca_file = "/etc/cafe-table/ca.crt"                  # with tls = true, if not a public CA
state_interval = 1.0       # least seconds between two state messages
reconnect_max = 30         # most seconds between two tries to reach the broker
heartbeat = 30.0           # seconds between two "online" status messages (the hub's watchdog)
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.config.reading import ConfigError, Reader
from controller.games.words import Verbatim, say

KEYS = {
    "broker",
    "port",
    "table",
    "username",
    "password",
    "password_file",
    "tls",
    "ca_file",
    "state_interval",
    "keepalive",
    "reconnect_max",
    "heartbeat",
}

# A table id: the part of its MQTT topics (cafe/table/<id>/...) that names it.
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


@dataclass(frozen=True)
class CafeSettings:
    """Where the café's broker is and who this table is there."""

    broker: str
    table: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: Path | None = None
    state_interval: float = 1.0
    keepalive: int = 30
    reconnect_max: int = 30  # the longest wait between two tries to reach the broker
    # Seconds between two "online" status messages while connected: the hub marks a
    # table offline when they stop (a table that died while the broker was down has
    # no last will at the new broker).
    heartbeat: float = 30.0

    @property
    def user(self) -> str:
        return self.username or self.table


def parse_cafe(
    data: Mapping[str, Any], source: str = "table.toml", base: Path = Path()
) -> CafeSettings | None:
    """The ``[cafe]`` section of a parsed table.toml, or None when there is none."""
    if "cafe" not in data:
        return None
    reader = Reader(source)
    cafe = reader.table(data, "cafe")
    reader.known(cafe, "cafe", KEYS)
    if "broker" not in cafe or "table" not in cafe:
        raise ConfigError(
            say(
                '{source}: [cafe] needs broker = "..." and table = "..." (this table\'s id); '
                "leave [cafe] out for a table on its own",
                source=Verbatim(source),
            )
        )
    table = reader.string(cafe, "cafe.table", "")
    if not TABLE_ID.match(table):
        raise ConfigError(
            say(
                "{source}: cafe.table {table} is not a table id; use lower-case letters, "
                'digits and dashes, e.g. "table-3"',
                source=Verbatim(source),
                table=Verbatim(repr(table)),
            )
        )
    tls = reader.boolean(cafe, "cafe.tls", False)
    password = cafe.get("password")
    if password is not None:
        password = reader.string(cafe, "cafe.password", "")
    if "password_file" in cafe:
        path = base / reader.string(cafe, "cafe.password_file", "")
        try:
            password = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(
                say(
                    "{source}: cafe.password_file {file} cannot be read ({problem}); "
                    "check the path and that the table's user may read it",
                    source=Verbatim(source),
                    file=Verbatim(str(path)),
                    problem=Verbatim(str(exc.strerror)),
                )
            ) from None
    ca = cafe.get("ca_file")
    return CafeSettings(
        broker=reader.string(cafe, "cafe.broker", ""),
        table=table,
        port=reader.integer(cafe, "cafe.port", 8883 if tls else 1883, 1, 65535),
        username=reader.string(cafe, "cafe.username", table) if "username" in cafe else None,
        password=password,
        tls=tls,
        ca_file=None if ca is None else base / reader.string(cafe, "cafe.ca_file", ""),
        state_interval=reader.number(cafe, "cafe.state_interval", 1.0, 0.1, 60.0),
        keepalive=reader.integer(cafe, "cafe.keepalive", 30, 5, 600),
        reconnect_max=reader.integer(cafe, "cafe.reconnect_max", 30, 1, 600),
        heartbeat=reader.number(cafe, "cafe.heartbeat", 30.0, 0.2, 600.0),
    )
