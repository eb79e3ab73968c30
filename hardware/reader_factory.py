"""Building a seat's reader from its table.toml settings: the top of the reader layers.

``reader_for(seat, port, protocol, events)`` picks the backend a protocol name
(``hardware.protocols``) stands for and wraps it in a
``hardware.supervisor.SupervisedReader`` (reconnection with backoff);
``reader_from_setting`` is the older, line-only factory. Only this module
imports every backend, so no backend needs to import another.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hardware.errors import HardwareConfigError
from hardware.events import Clock, EventQueue
from hardware.line_protocol import SerialLineReader
from hardware.link_reader import LinkReader
from hardware.mock_reader import MockReader
from hardware.pn532_reader import PN532Reader
from hardware.protocols import ID12LA, LINE, LINK, MOCK_PORT, PN532, RDM6300, READER_PROTOCOLS
from hardware.rfid125 import Rfid125Reader
from hardware.seat_reader import SeatReader
from hardware.supervisor import SupervisedReader

__all__ = ["reader_for", "reader_from_setting"]


def reader_from_setting(
    seat: int, setting: str, events: EventQueue, *, clock: Clock = time.monotonic
) -> SeatReader:
    """Build the reader a table.toml setting names: ``"mock"`` or a serial port path."""
    if setting == MOCK_PORT:
        return MockReader(seat, events, clock=clock)
    return SerialLineReader(seat, setting, events, clock=clock)


def reader_for(
    seat: int,
    port: str,
    protocol: str,
    events: EventQueue,
    *,
    clock: Clock = time.monotonic,
    supervise: bool = True,
) -> SeatReader:
    """Build a seat's reader from its table.toml ``reader`` and ``protocol`` settings.

    ``port == "mock"`` gives a ``MockReader`` whatever the protocol. Otherwise
    the protocol picks the backend: ``"line"`` (``SerialLineReader``),
    ``"link"`` (our reader firmware, ``LinkReader``), ``"rdm6300"`` and
    ``"id12la"`` (125 kHz readers, ``Rfid125Reader``) or ``"pn532"``
    (``PN532Reader``). With ``supervise`` (the default) the reader is wrapped
    in a ``SupervisedReader``: it never fails to open, reports itself offline
    at its seat and reconnects with backoff when the device comes back.
    Raises ``HardwareConfigError`` for an unknown protocol.
    """
    if port == MOCK_PORT:
        return MockReader(seat, events, clock=clock)
    builders: dict[str, Callable[[EventQueue], SeatReader]] = {
        LINE: lambda q: SerialLineReader(seat, port, q, clock=clock),
        LINK: lambda q: LinkReader(seat, port, q, clock=clock),
        RDM6300: lambda q: Rfid125Reader(seat, port, q, kind=RDM6300, clock=clock),
        ID12LA: lambda q: Rfid125Reader(seat, port, q, kind=ID12LA, clock=clock),
        PN532: lambda q: PN532Reader(seat, port, q, clock=clock),
    }
    build = builders.get(protocol)
    if build is None:
        raise HardwareConfigError(
            f'seat {seat}\'s reader protocol "{protocol}" is not one of '
            + ", ".join(f'"{name}"' for name in READER_PROTOCOLS)
        )
    if not supervise:
        return build(events)
    return SupervisedReader(seat, port, events, build, clock=clock)
