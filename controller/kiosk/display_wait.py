"""Waiting for the display at boot, inside the kiosk, instead of exiting and hoping.

On a Pi (and under qemu's virtio GPU) the DRM driver is a kernel module: at
boot the service can start a few seconds before ``/dev/dri/card*`` appears,
or while the card is there but not yet usable. The kiosk used to exit 2
there, which the unit never restarts: a dark table until someone came. Now,
under systemd, it tells systemd it is up (so neither the start timeout nor
the watchdog fires while it waits), says once in the log what it is waiting
for, asks SDL again every few seconds, and carries on as soon as SDL's video
driver starts. A stop signal ends the wait at once.

The udev rule and the unit's ordering (``deploy/``) make the wait rare; this
makes it harmless.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from controller.kiosk.sd_notify import Notifier
from controller.kiosk.stop_signals import StopSignals

__all__ = ["RETRY_EVERY", "DisplayFailed", "wait_for_display"]

logger = logging.getLogger(__name__)

RETRY_EVERY = 3.0
"""Seconds between two tries while no display is there."""

KMS_HINT = (
    "if this lasts, check that the KMS driver is on (dtoverlay=vc4-kms-v3d in "
    "/boot/firmware/config.txt), that the screen is plugged in, and reboot"
)


class DisplayFailed(Exception):
    """The display is there but SDL would not open a window on it; the message says why."""


def wait_for_display(
    stop: StopSignals,
    notifier: Notifier,
    probe: Callable[[], str | None],
    every: float = RETRY_EVERY,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Wait until ``probe`` finds the display usable; False if a stop signal came first.

    ``probe`` (``display.probe.sdl_display_problem`` in the kiosk) says what is
    wrong, or None. One log line when the wait starts and one when it ends,
    whatever its length.
    """
    problem = probe()
    if problem is None:
        return True
    started = clock()
    logger.warning("no display yet (%s): waiting for it, trying every %g s; %s",
                   problem, every, KMS_HINT)  # fmt: skip
    notifier.ready(f"waiting for the display: {problem}")
    while True:
        notifier.feed(clock())
        if stop.wait(min(every, notifier.interval or every)):
            return False
        if probe() is None:
            logger.warning("the display is there after %.0f s of waiting", clock() - started)
            return True
