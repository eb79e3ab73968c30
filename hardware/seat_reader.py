"""What every seat card reader is, whatever its backend.

Each seat has one reader. A reader is a ``SeatReader``: it is built with the
seat number, its port and the table's one event queue, claims nothing until
``open()`` (or ``with``), and puts ``ReaderOnline``, ``TagPresented``,
``TagRemoved``, ``ReaderProblem`` and ``ReaderOffline`` events on the queue.
``close()`` is idempotent and joins any thread with a bounded wait.

The backends: ``hardware.mock_reader.MockReader`` (scripted),
``hardware.serial_stream.SerialStreamReader`` and the protocols built on it
(``hardware.line_protocol``, ``hardware.link_reader``, ``hardware.rfid125``),
``hardware.pn532_reader.PN532Reader``; ``hardware.supervisor.SupervisedReader``
wraps any of them; ``hardware.reader_factory.reader_for`` builds them from
table.toml settings.
"""

from __future__ import annotations

from abc import abstractmethod

from hardware.device import Device
from hardware.events import EventQueue

__all__ = ["SeatReader"]


class SeatReader(Device):
    """One seat's card reader: the methods every backend provides.

    Construct with the seat number and the event queue; nothing is claimed
    until ``open()``. ``open()`` and ``close()`` are idempotent; ``close()``
    waits a bounded time for any thread. Use as a context manager.
    """

    def __init__(self, seat: int, port: str, events: EventQueue) -> None:
        self.seat = seat
        self.port = port
        self._events = events

    @abstractmethod
    def open(self) -> None:
        """Start listening; put ``ReaderOnline`` on the queue. Does nothing if already open."""

    @abstractmethod
    def close(self) -> None:
        """Stop listening and release the device; ``ReaderOffline`` follows. Idempotent."""

    @property
    @abstractmethod
    def is_open(self) -> bool:
        """Whether the reader is currently listening."""

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"{type(self).__name__}(seat={self.seat}, port={self.port!r}, {state})"
