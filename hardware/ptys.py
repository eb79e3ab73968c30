"""A real pseudo-terminal pair that stands in for a reader board on a serial port.

Tests open ``PtyPair().slave_path`` with pyserial exactly as a USB serial port
would be opened, and play the board by writing to the master side; closing
the master is a pulled cable. POSIX only.

Run ``python -m hardware.ptys`` for a fake board by hand: it prints a path to
give a seat's reader in table.toml, then sends each line you type (e.g.
``TAG 04A1B2C3`` or ``GONE``) to whoever has that path open.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import tty
from types import TracebackType
from typing import Self

__all__ = ["PtyFlood", "PtyPair"]


class PtyPair:
    """A pseudo-terminal opened on ``open()``/``with``; ``close()`` is idempotent.

    The slave side is put in raw mode at once, so nothing written to the
    master is echoed or line-edited before the program under test configures
    the port. The slave descriptor is held open until ``close()`` so that
    writes to the master never fail for want of a reader.
    """

    def __init__(self) -> None:
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_path = ""

    def open(self) -> Self:
        """Create the pair (does nothing if already open) and return ``self``."""
        if self._master is None:
            master, slave = os.openpty()
            tty.setraw(slave)
            self._master, self._slave = master, slave
            self.slave_path = os.ttyname(slave)
        return self

    def write(self, data: bytes) -> None:
        """Send bytes from the "board" to whoever opened ``slave_path``."""
        if self._master is None:
            raise RuntimeError("the pseudo-terminal is not open (or was hung up)")
        view = memoryview(data)
        while view:
            view = view[os.write(self._master, view) :]

    def hang_up(self) -> None:
        """Close the master side: the program reading the slave sees the device vanish."""
        master, self._master = self._master, None
        if master is not None:
            os.close(master)

    def close(self) -> None:
        """Close both sides. Idempotent."""
        self.hang_up()
        slave, self._slave = self._slave, None
        if slave is not None:
            os.close(slave)

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class PtyFlood:
    """A board gone wrong: writes ``chunk`` to a pair's master side over and over, as fast
    as the pseudo-terminal takes it, on a thread of its own, until ``stop()``.

    The master is written without blocking, so a reader that stopped reading never
    holds the thread: it waits a millisecond on its stop event and tries again.
    ``sent`` counts the bytes written.
    """

    def __init__(self, pair: PtyPair, chunk: bytes) -> None:
        if pair._master is None:
            raise RuntimeError("the pseudo-terminal is not open")
        self._fd = pair._master
        self._chunk = chunk
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pty-flood", daemon=True)
        self.sent = 0

    def start(self) -> Self:
        os.set_blocking(self._fd, False)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop writing (bounded join) and leave the master blocking again."""
        self._stop.set()
        self._thread.join(2.0)
        with contextlib.suppress(OSError):  # hung up meanwhile
            os.set_blocking(self._fd, True)

    def _run(self) -> None:
        view = memoryview(self._chunk)
        while not self._stop.is_set():
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:
                self._stop.wait(0.001)
                continue
            except OSError:  # hung up
                return
            self.sent += written
            view = view[written:] or memoryview(self._chunk)


def main() -> None:
    """Forward typed lines to a pseudo-terminal, as a hand-driven fake reader board."""
    with PtyPair() as pty:
        print(f"fake reader board at {pty.slave_path}; type lines, Ctrl-D to stop", flush=True)
        for line in sys.stdin:
            pty.write(line.rstrip("\r\n").encode("ascii", "replace") + b"\n")


if __name__ == "__main__":
    main()
