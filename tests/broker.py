"""A real Mosquitto broker for the café tests, on a free loopback port.

Its configuration, password file and ACL are written by ``hub.broker.setup``,
the same code ``cafe-table hub setup`` runs, so the tests check the files a
café would use. ``.ci/run`` installs Mosquitto; a developer machine without it
skips these tests with that reason (CI sets CI=true and fails instead).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hub.broker import BrokerFiles, setup

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def require_mosquitto() -> str:
    if MOSQUITTO is None:
        if os.environ.get("CI"):
            pytest.fail("Mosquitto is not installed; .ci/run must apt-get install mosquitto")
        pytest.skip("Mosquitto is not installed here (apt-get install mosquitto); CI runs these")
    return MOSQUITTO


def free_port() -> int:
    """A free loopback port, from this test worker's own range when tests run in parallel.

    A broker restarted mid-test binds its port again; in a range of its own no
    other worker's broker or server can have taken it meanwhile (the kernel's
    ephemeral ports for outgoing connections start at 32768, above these).
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
            return port
    low = 20000 + (int(worker[2:]) % 8) * 1500
    for candidate in random.Random().sample(range(low, low + 1500), 200):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    raise AssertionError(f"no free port in {low}..{low + 1500} for test worker {worker}")


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


@dataclass
class Broker:
    """A running Mosquitto and the files that configure it."""

    files: BrokerFiles
    port: int
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = require_mosquitto()
        self.process = subprocess.Popen(
            [binary, "-c", str(self.files.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)
        # Something listens: make sure it is this broker, not another that took the port.
        assert self.process.poll() is None, f"mosquitto could not listen on port {self.port}"

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def password(self, user: str) -> str:
        path = self.files.hub_password if user == "hub" else self.files.table_password(user)
        return path.read_text(encoding="utf-8").strip()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    require_mosquitto()
    port = free_port()
    # Run as root, the broker would switch to the mosquitto user, which may not enter
    # pytest's private temporary folder: keep it the test's own user instead.
    user = "root" if os.geteuid() == 0 else None
    files = setup(
        tmp_path / "broker", ["table-1", "table-2"], port=port, listen="127.0.0.1", user=user
    )
    running = Broker(files, port)
    running.start()
    try:
        yield running
    finally:
        running.stop()
