"""The errors the hardware layer raises, all under one root.

``hardware`` never imports the game rules, so it cannot reuse
``controller.games.base.TableError``; it keeps its own root, ``HardwareError``,
and the table turns these into whatever it shows staff. Each subclass also
inherits the builtin a caller would expect (``OSError`` for a device that is
not there, ``ValueError`` for a bad setting, ``RuntimeError`` for misuse), so
generic handlers still work.

Every message is written for a member of staff standing at the table: it says
which seat and device, what is wrong, and what to try.
"""

from __future__ import annotations

__all__ = [
    "ButtonsUnavailable",
    "DeviceClosed",
    "HardwareConfigError",
    "HardwareError",
    "ReaderUnavailable",
    "StripUnavailable",
]


class HardwareError(Exception):
    """Root of every error raised by the ``hardware`` package."""


class ReaderUnavailable(HardwareError, OSError):
    """A seat's card reader cannot be opened (missing, busy, or not permitted).

    ``kind`` is one of ``hardware.problems.Offline``'s values (a plain str here,
    so this module imports nothing): what the table puts into words.
    """

    def __init__(self, message: str, kind: str = "failed") -> None:
        super().__init__(message)
        self.kind = kind


class ButtonsUnavailable(HardwareError, OSError):
    """A seat's buttons cannot claim their GPIO pins."""


class StripUnavailable(HardwareError, OSError):
    """The NeoPixel strip cannot be driven on this machine."""


class HardwareConfigError(HardwareError, ValueError):
    """A hardware setting is malformed: a bad pin map, pixel range or tag uid."""


class DeviceClosed(HardwareError, RuntimeError):
    """A device was used while closed (e.g. a mock reader scripted before ``open()``)."""
