"""Serial port names that survive replugging: ``/dev/serial/by-id`` and ``by-path`` links.

``/dev/ttyUSBn`` numbers follow plug order, so a seat's reader is best named
by a udev link: ``by-id`` (a serial number: the same board wherever it is
plugged) or ``by-path`` (the same USB socket whatever is plugged in).
``stable_port_name()`` finds such a name for a device, ``serial_ports()``
lists every port udev named (``python -m controller assign-readers`` uses it)
and ``is_stable_name()`` tells whether a table.toml setting is one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = [
    "SERIAL_LINK_DIRS",
    "is_plug_order_name",
    "is_stable_name",
    "serial_ports",
    "stable_port_name",
]

SERIAL_LINK_DIRS = (Path("/dev/serial/by-id"), Path("/dev/serial/by-path"))
"""Where udev keeps names for serial devices that survive replugging."""


def stable_port_name(device: str, dirs: Iterable[Path] = SERIAL_LINK_DIRS) -> str:
    """A name for ``device`` (e.g. ``/dev/ttyUSB0``) that survives replugging, if udev made one.

    The first ``by-id`` link (a serial number: the same board wherever it is
    plugged), else ``by-path`` (the same USB socket whatever is plugged in),
    else ``device`` itself.
    """
    target = os.path.realpath(device)
    for link in _links(dirs):
        if os.path.realpath(link) == target:
            return str(link)
    return device


def is_stable_name(port: str, dirs: Iterable[Path] = SERIAL_LINK_DIRS) -> bool:
    """Whether ``port`` is a by-id/by-path name (or another symlink a udev rule made)."""
    path = Path(port)
    return any(path.parent == folder for folder in dirs) or path.is_symlink()


_PLUG_ORDER = re.compile(r"/dev/tty(ACM|USB)[0-9]+")


def is_plug_order_name(port: str) -> bool:
    """Whether ``port`` is a kernel name numbered in plug order (``/dev/ttyACM1``,
    ``/dev/ttyUSB0``): after a replug or a reboot it may name another board, or none."""
    return _PLUG_ORDER.fullmatch(port) is not None


def serial_ports(dirs: Iterable[Path] = SERIAL_LINK_DIRS) -> list[str]:
    """Every serial port udev named, one stable name per device (by-id preferred)."""
    seen: dict[str, str] = {}
    for link in _links(dirs):
        seen.setdefault(os.path.realpath(link), str(link))
    return sorted(seen.values())


def _links(dirs: Iterable[Path]) -> Iterator[Path]:
    """Every entry of each folder in ``dirs``, in order, sorted within a folder.

    A folder that is missing or unreadable is skipped: a Pi with no USB serial
    device plugged in has no ``/dev/serial`` at all.
    """
    for folder in dirs:
        try:
            names = sorted(folder.iterdir())
        except OSError:
            continue
        yield from names
