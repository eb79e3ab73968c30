"""``hub.toml``: where the broker is, where the hub keeps its data, where it serves.

```toml
[broker]
host = "127.0.0.1"
port = 1883
username = "hub"
password_file = "hub-password"     # written by `cafe-table hub setup`
offline_after = 90                 # seconds without a word from a table: shown offline

[storage]
url = "sqlite:///hub.sqlite3"      # or postgresql://user:pass@host/cafe (with psycopg)

[web]
host = "0.0.0.0"
port = 8080
secret_file = "hub-secret"         # keys the stored session tokens; made on first start
# certfile = "hub.crt"             # serve the dashboard over TLS itself (with keyfile);
# keyfile = "hub.key"              # or put it behind a reverse proxy (docs/cafe.md)
```

Relative paths are relative to the file.
"""

from __future__ import annotations

import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class HubConfigError(Exception):
    """hub.toml is wrong; the message says what and how to fix it."""


@dataclass(frozen=True)
class HubSettings:
    broker_host: str = "127.0.0.1"
    broker_port: int = 1883
    username: str = "hub"
    password: str | None = None
    storage_url: str = "sqlite:///hub.sqlite3"
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    secret: str = ""
    certfile: Path | None = None  # the dashboard's own TLS certificate and key, if any
    keyfile: Path | None = None
    reconnect_max: int = 10  # the longest wait between two tries to reach the broker
    # A table not heard from for this long is shown offline: three of its status
    # heartbeats (``cafe.heartbeat``, 30 s) missed.
    offline_after: float = 90.0


def load(path: Path) -> HubSettings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HubConfigError(f"{path}: no such file; `cafe-table hub setup` writes one") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise HubConfigError(f"{path}: not valid TOML ({exc})") from None
    return parse(data, path.parent, path.name)


def parse(data: dict[str, Any], base: Path, source: str = "hub.toml") -> HubSettings:
    known = {
        "broker": {"host", "port", "username", "password", "password_file", "offline_after"},
        "storage": {"url"},
        "web": {"host", "port", "secret_file", "certfile", "keyfile"},
    }
    for section, value in data.items():
        if section not in known or not isinstance(value, dict):
            raise HubConfigError(
                f"{source}: [{section}] is not a section the hub knows; "
                f"use {', '.join(sorted(known))}"
            )
        for key in value:
            if key not in known[section]:
                raise HubConfigError(
                    f"{source}: {section}.{key} is not a setting the hub knows; "
                    f"use one of {', '.join(sorted(known[section]))}"
                )
    broker, storage, web = data.get("broker", {}), data.get("storage", {}), data.get("web", {})
    password = broker.get("password")
    if "password_file" in broker:
        password = _read(base / str(broker["password_file"]), source, "broker.password_file")
    url = str(storage.get("url", "sqlite:///hub.sqlite3"))
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        url = f"sqlite:///{(base / url.removeprefix('sqlite:///')).resolve()}"
    secret_path = base / str(web.get("secret_file", "hub-secret"))
    if not secret_path.exists():
        secret_path.write_text(secrets.token_urlsafe(48), encoding="utf-8")
        secret_path.chmod(0o600)
    for key, value in (
        ("broker.port", broker.get("port", 1883)),
        ("web.port", web.get("port", 8080)),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
            raise HubConfigError(f"{source}: {key} must be a port number 1..65535, not {value!r}")
    offline_after = broker.get("offline_after", 90)
    if isinstance(offline_after, bool) or not isinstance(offline_after, int | float):
        raise HubConfigError(f"{source}: broker.offline_after must be a number of seconds")
    if not 1 <= offline_after <= 3600:
        raise HubConfigError(
            f"{source}: broker.offline_after must be 1 to 3600 seconds, not {offline_after}"
        )
    tls = [web.get(key) for key in ("certfile", "keyfile")]
    if (tls[0] is None) != (tls[1] is None):
        raise HubConfigError(f"{source}: web.certfile and web.keyfile go together; give both")
    certfile, keyfile = (None if v is None else (base / str(v)).resolve() for v in tls)
    for key, tls_path in (("web.certfile", certfile), ("web.keyfile", keyfile)):
        if tls_path is not None and not tls_path.is_file():
            raise HubConfigError(f"{source}: {key} {tls_path} is not a file")
    return HubSettings(
        broker_host=str(broker.get("host", "127.0.0.1")),
        broker_port=int(broker.get("port", 1883)),
        username=str(broker.get("username", "hub")),
        password=password,
        storage_url=url,
        web_host=str(web.get("host", "127.0.0.1")),
        web_port=int(web.get("port", 8080)),
        secret=_read(secret_path, source, "web.secret_file"),
        offline_after=float(offline_after),
        certfile=certfile,
        keyfile=keyfile,
    )


def _read(path: Path, source: str, key: str) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise HubConfigError(f"{source}: {key} {path} cannot be read ({exc.strerror})") from None
