"""Write the Mosquitto broker's configuration, password file and ACL for a café.

Each table logs in with its own id as user name and its own password, and the
ACL lets it publish only under ``cafe/table/<its id>/`` (and read only what the
hub sends it there); the hub's user reads and writes everything under
``cafe/``. Passwords are hashed into Mosquitto's password file by its own
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
        "max_queued_messages 10000",
    ]
    if persistence:
        lines += ["persistence true", f"persistence_location {files.folder.resolve()}/"]
    return "\n".join(lines) + "\n"


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
        if not topics.TABLE_ID.match(table_id):
            raise BrokerSetupError(
                f"{table_id!r} is not a table id; use lower-case letters, digits and dashes"
            )
    files = BrokerFiles(folder)
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    folder.chmod(0o770)  # the broker keeps its persistence file here
    share_with_broker(folder)
    files.conf.write_text(conf_text(files, port, listen, persistence, user), encoding="utf-8")
    files.acl.write_text(acl_text(), encoding="utf-8")
    share_with_broker(files.acl)
    for user, path in [(HUB_USER, files.hub_password)] + [
        (t, files.table_password(t)) for t in tables
    ]:
        if path.exists():
            continue  # a table keeps its password when setup runs again
        password = secrets.token_urlsafe(24)
        path.write_text(password + "\n", encoding="utf-8")
        path.chmod(0o600)
        set_password(files, user, password)
    return files
