"""sd_notify over a real AF_UNIX datagram socket, as systemd listens for it."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.kiosk.sd_notify import Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket standing in for systemd's $NOTIFY_SOCKET."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(5)  # a message that never comes fails the test, it does not hang
        yield sock, path


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def pending(sock: socket.socket) -> bool:
    """Whether a datagram is waiting (without waiting for one)."""
    sock.setblocking(False)
    try:
        sock.recv(4096)
    except BlockingIOError:
        return False
    finally:
        sock.settimeout(5)
    return True


def test_ready_status_and_stopping(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("the table is up")
    assert received(sock) == "READY=1\nSTATUS=the table is up"
    assert notifier.stopping()
    assert received(sock) == "STOPPING=1"


def test_watchdog_is_fed_every_half_period(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert notifier.interval == 15.0
    assert notifier.feed(100.0)
    assert received(sock) == "WATCHDOG=1"
    assert not notifier.feed(114.9)  # a loop turning 60 times a second sends one in 15 s
    assert not pending(sock)
    assert notifier.feed(115.0)
    assert received(sock) == "WATCHDOG=1"


def test_watchdog_meant_for_another_process_is_left_alone(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}
    if os.getpid() == 1:
        env["WATCHDOG_PID"] = "2"
    notifier = Notifier(env)
    assert notifier.interval is None
    assert not notifier.feed(0.0)
    assert not pending(sock)


def test_abstract_socket_address() -> None:
    name = f"cafe-table-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(sock) == "READY=1"


def test_outside_systemd_nothing_is_sent() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert not notifier.feed(0.0)


def test_a_vanished_socket_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notifier.ready()
    assert "could not notify systemd" in caplog.text
