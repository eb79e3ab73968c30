"""What every device of the table is: opened by ``open()``, released by an idempotent ``close()``.

Devices claim nothing in their constructor (a pin, a port), so building the
table's devices cannot fail half-way; ``with device:`` opens and closes one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class Device(ABC):
    """A device that is a context manager over ``open()`` and ``close()``."""

    @abstractmethod
    def open(self) -> None:
        """Claim the hardware and start reporting; does nothing if already open."""

    @abstractmethod
    def close(self) -> None:
        """Release what ``open()`` claimed, and only that; safe to call twice."""

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
