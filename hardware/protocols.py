"""The names of the seat reader protocols and of the mock reader, and nothing else.

Dependency-free on purpose: the controller validates ``table.toml``'s
``seat.protocol`` against these names without importing pyserial or any
reader backend. ``hardware.reader_factory.reader_for`` maps each name to its
backend.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ID12LA",
    "LINE",
    "LINK",
    "MOCK_PORT",
    "PN532",
    "RDM6300",
    "READER_PROTOCOLS",
]

MOCK_PORT: Final = "mock"
"""The ``port`` that mock readers report, and the table.toml setting that selects one."""

LINE: Final = "line"
"""The simple ASCII line protocol (``TAG <uid>`` / ``GONE``), ``hardware.line_protocol``."""

LINK: Final = "link"
"""Our reader firmware's framed, acknowledged link, ``hardware.link_reader``."""

RDM6300: Final = "rdm6300"
"""A 125 kHz RDM6300 reader, ``hardware.rfid125``."""

ID12LA: Final = "id12la"
"""A 125 kHz ID-12LA reader in ASCII mode, ``hardware.rfid125``."""

PN532: Final = "pn532"
"""A PN532 breakout on a serial adapter, ``hardware.pn532_reader``."""

READER_PROTOCOLS: Final = (LINE, LINK, RDM6300, ID12LA, PN532)
"""The protocols ``reader_for`` knows (table.toml's ``seat.protocol``)."""
