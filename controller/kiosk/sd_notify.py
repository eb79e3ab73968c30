"""Telling systemd how the kiosk is doing: sd_notify in a few lines of the standard library.

Under ``Type=notify`` systemd passes ``$NOTIFY_SOCKET``, an AF_UNIX datagram
socket; the kiosk sends ``READY=1`` once its devices are open, ``WATCHDOG=1``
as its loop turns (``WatchdogSec=`` in the unit: a loop that stops turning is
killed and restarted, and the journal resumes the game) and ``STOPPING=1`` on
the way out. Outside systemd there is no socket and every call does nothing,
so the PC simulator runs the same code. The protocol is small and stable
(sd_notify(3)); a library for it would be one more thing to keep current.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

logger = logging.getLogger(__name__)


class Notifier:
    """Sends sd_notify messages to ``$NOTIFY_SOCKET``; does nothing when it is unset.

    ``feed(now)`` sends ``WATCHDOG=1`` at most every half watchdog period
    (``$WATCHDOG_USEC``), so calling it on every loop turn is cheap.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # A leading "@" names a socket in the abstract namespace (a NUL byte first).
        self._address = "\0" + address[1:] if address.startswith("@") else address
        watchdog_usec = env.get("WATCHDOG_USEC", "")
        watchdog_pid = env.get("WATCHDOG_PID", "")
        mine = not watchdog_pid or watchdog_pid == str(os.getpid())
        self.interval: float | None = (
            int(watchdog_usec) / 2e6 if watchdog_usec.isdigit() and mine else None
        )
        self._last_feed: float | None = None
        self._status: str | None = None

    @property
    def enabled(self) -> bool:
        """Whether systemd listens (the kiosk runs under a Type=notify unit)."""
        return bool(self._address)

    def notify(self, message: str) -> bool:
        """Send one message, e.g. ``"READY=1"``; False if not under systemd or it failed."""
        if not self._address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self._address)
                sock.sendall(message.encode("utf-8"))
        except OSError as exc:  # systemd gone (shutdown): the kiosk carries on
            logger.warning("could not notify systemd (%s): %s", message, exc)
            return False
        return True

    def ready(self, status: str = "") -> bool:
        """The kiosk is up: systemd's start job finishes now."""
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def extend_start(self, seconds: float = 30.0) -> None:
        """Start-up needs longer than planned (a long check): systemd waits ``seconds`` more."""
        self.notify(f"EXTEND_TIMEOUT_USEC={int(seconds * 1e6)}")

    def stopping(self) -> bool:
        """The kiosk is shutting down on purpose."""
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        """Say what the kiosk is doing (``systemctl status`` shows it); sent only when it
        changed, so it may be called every turn."""
        if text == self._status:
            return False
        self._status = text
        return self.notify(f"STATUS={text}")

    def feed(self, now: float) -> bool:
        """Pet the watchdog if half its period passed since the last time (monotonic ``now``)."""
        if self.interval is None:
            return False
        if self._last_feed is not None and now - self._last_feed < self.interval:
            return False
        self._last_feed = now
        return self.notify("WATCHDOG=1")
