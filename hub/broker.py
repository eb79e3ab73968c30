"""Write the Mosquitto broker's configuration, password file and ACL for a café.

The broker is the café's security boundary: a table holds one password, and
with it must not be able to disturb another table or the hub. So:

- each table logs in with its own id as user name and its own password, and
  the ACL lets it publish only under ``cafe/table/<its id>/`` (and read only
  what the hub sends it there); the hub's user reads and writes everything
  under ``cafe/``;
- ``use_username_as_clientid``: the broker takes the user name as the client
  id, so a table cannot connect under another table's (or the hub's) client
  id and so close that client's connection, fire its last will or wipe its
  persistent session; the worst it can do is replace its own connection;
- ``max_packet_size``: no message larger than ``MAX_PACKET_BYTES`` (a game's
  record is a few kilobytes); a client that sends one is disconnected and
  nothing of it is delivered;
- per-client queue limits (``max_queued_messages``, ``max_queued_bytes``) and
  an expiry for persistent sessions no client has used for two weeks, so a
  table that floods cannot make the broker grow without end, and
  ``memory_limit`` as a backstop: past it, the client whose message does not
  fit is disconnected instead of the broker (or the hub beside it) being
  killed for memory. Mosquitto 2.0 cannot limit how fast one client
  publishes: a flood while the hub is away fills the hub's one queue, and the
  broker then drops other tables' messages for the hub too; what matters
  comes again from the tables' outboxes until the hub confirms it, and the
  hub itself drops a flooding table's messages unread (``hub.ingest``);
- a table id that is the hub's user name or a reserved word is refused, so
  ``hub setup`` never overwrites the hub's password or hands a table its ACL.

Passwords are hashed into Mosquitto's password file by its own
``mosquitto_passwd`` tool.
"""

from __future__ import annotations

import contextlib
import grp
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from controller.fleet import topics

HUB_USER = "hub"
BROKER_GROUP = "mosquitto"
# Names a table may not take: the hub's own login, and words a café might later want
# for other logins or that read as something other than a table in the ACL and logs.
RESERVED_IDS = frozenset({HUB_USER, "admin", "all", "broker", "cafe", "mosquitto", "root"})
# The largest MQTT packet the broker takes (topic and payload): a record is a few
# kilobytes, a state well under one; the hub's own checks (``hub.messages``) are tighter.
MAX_PACKET_BYTES = 256 * 1024
# Per client: what the broker keeps for a client that is away (the hub, while it
# restarts, gets every table's records and alerts from this queue).
MAX_QUEUED_MESSAGES = 10_000
MAX_QUEUED_BYTES = 64 * 1024 * 1024
SESSION_EXPIRY = "14d"  # a persistent session unused this long is dropped
# The broker's whole heap: the hub's queue (MAX_QUEUED_BYTES), every table's retained
# messages (six topics at most MAX_PACKET_BYTES each) and more fit well below it.
MEMORY_LIMIT_BYTES = 256 * 1024 * 1024


class BrokerSetupError(Exception):
    """The broker files cannot be written; the message says why and what to do."""


@dataclass(frozen=True)
class BrokerFiles:
    folder: Path

    @property
    def conf(self) -> Path:
        return self.folder / "mosquitto.conf"

    @property
    def passwords(self) -> Path:
        return self.folder / "passwd"

    @property
    def acl(self) -> Path:
        return self.folder / "acl"

    def table_password(self, table_id: str) -> Path:
        return self.folder / "tables" / f"{table_id}.password"

    @property
    def hub_password(self) -> Path:
        return self.folder / "hub-password"


def acl_text() -> str:
    lines = [
        "# Written by `cafe-table hub setup`: a table may publish only under its own id.",
        f"user {HUB_USER}",
        f"topic readwrite {topics.ROOT}/#",
        "",
    ]
    lines += [f"pattern write {topics.ROOT}/%u/{leaf}" for leaf in topics.FROM_TABLE]
    lines += [f"pattern read {topics.ROOT}/%u/{leaf}" for leaf in topics.FROM_HUB]
    return "\n".join(lines) + "\n"


def conf_text(
    files: BrokerFiles, port: int, listen: str, persistence: bool = True, user: str | None = None
) -> str:
    lines = [
        "# Written by `cafe-table hub setup`.",
        *([f"user {user}"] if user else []),
        "per_listener_settings false",
        f"listener {port} {listen}",
        "allow_anonymous false",
        f"password_file {files.passwords.resolve()}",
        f"acl_file {files.acl.resolve()}",
        # A client's id is its user name: nobody can take over another client's id.
        "use_username_as_clientid true",
        f"max_packet_size {MAX_PACKET_BYTES}",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        f"persistent_client_expiration {SESSION_EXPIRY}",
        f"memory_limit {MEMORY_LIMIT_BYTES}",
    ]
    if persistence:
        lines += ["persistence true", f"persistence_location {files.folder.resolve()}/"]
    return "\n".join(lines) + "\n"


def check_table_id(table_id: str) -> str:
    """``table_id`` if a table may have it; BrokerSetupError says why not."""
    if not topics.TABLE_ID.match(table_id):
        raise BrokerSetupError(
            f"{table_id!r} is not a table id; use 1 to 32 lower-case letters, digits and "
            'dashes, starting with a letter or digit, e.g. "table-3"'
        )
    if table_id in RESERVED_IDS:
        raise BrokerSetupError(
            f"{table_id!r} cannot be a table id: it is reserved "
            f"({', '.join(sorted(RESERVED_IDS))}); the hub logs in as {HUB_USER!r}"
        )
    return table_id


def set_password(files: BrokerFiles, user: str, password: str) -> None:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise BrokerSetupError(
            "mosquitto_passwd is not installed; install the broker first "
            "(sudo apt-get install mosquitto)"
        )
    create = [] if files.passwords.exists() else ["-c"]
    result = subprocess.run(
        [tool, *create, "-b", str(files.passwords), user, password],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if result.returncode != 0:
        raise BrokerSetupError(f"mosquitto_passwd failed: {result.stderr.strip()}")
    files.passwords.chmod(0o640)
    share_with_broker(files.passwords)


def share_with_broker(path: Path) -> None:
    """Let the broker read ``path``: Mosquitto started as root runs as the mosquitto user."""
    try:
        grp.getgrnam(BROKER_GROUP)
    except KeyError:
        return  # no such group: the broker runs as whoever runs this
    with contextlib.suppress(PermissionError):
        shutil.chown(path, group=BROKER_GROUP)


def setup(
    folder: Path,
    tables: list[str],
    *,
    port: int = 1883,
    listen: str = "0.0.0.0",
    persistence: bool = True,
    user: str | None = None,
) -> BrokerFiles:
    """Write (or extend) the broker files for the hub and ``tables``; keeps existing passwords."""
    for table_id in tables:
        check_table_id(table_id)
    files = BrokerFiles(folder)
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    folder.chmod(0o770)  # the broker keeps its persistence file here
    share_with_broker(folder)
    files.conf.write_text(conf_text(files, port, listen, persistence, user), encoding="utf-8")
    files.acl.write_text(acl_text(), encoding="utf-8")
    share_with_broker(files.acl)
    for user, path in [(HUB_USER, files.hub_password)] + [
        (t, files.table_password(t)) for t in dict.fromkeys(tables)
    ]:
        if path.exists():
            continue  # a table keeps its password when setup runs again
        password = secrets.token_urlsafe(24)
        path.write_text(password + "\n", encoding="utf-8")
        path.chmod(0o600)
        set_password(files, user, password)
    return files
