"""A seat reader board without hardware: the firmware's own code on a pseudo-terminal.

``SimulatedBoard`` runs the firmware's ``Board`` and ``Link`` (``firmware/``)
in a thread on the master side of a pseudo-terminal, so the host's
``hardware.link_reader.LinkReader`` talks to it exactly as to a board on a USB
serial port: the tests, the benchmark and a bench session without hardware
use it as a reader board that can be unplugged. ``ScriptedTags`` and
``tap_script`` script what its card reader sees. POSIX only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import time
import tty
from collections.abc import Iterable, Iterator
from pathlib import Path

from firmware.board import Board, Reader
from hardware.events import Clock

__all__ = ["ScriptedTags", "SimulatedBoard", "tap_script"]


class ScriptedTags(Reader):
    """A ``firmware.board.Reader`` that returns a script of reads, one per poll, then ``None``."""

    def __init__(self, reads: Iterable[str | None]) -> None:
        self._reads: Iterator[str | None] = iter(reads)
        self.polls = 0

    def read_uid(self) -> str | None:
        self.polls += 1
        return next(self._reads, None)


def tap_script(uids: Iterable[str], *, hold: int = 3, gap: int = 4) -> Iterator[str | None]:
    """Reads for tapping each uid: ``hold`` polls that see it, then ``gap`` that see nothing."""
    for uid in uids:
        yield from [uid] * hold
        yield from [None] * gap


class SimulatedBoard:
    """The firmware's own ``Board`` in a thread, on the master side of a pseudo-terminal.

    ``plug()`` creates a new pseudo-terminal (and points ``link_path``, a
    stand-in for a ``/dev/serial/by-id`` name, at its slave side);
    ``unplug()`` hangs it up, so the host sees the device vanish, while the
    board keeps running and queueing taps, as a board with its own power
    does. The board polls every ``poll_interval`` seconds of real time
    (``0`` for as fast as it can). ``written`` maps each event seq to the
    ``clock()`` time its frame was first written (for latency measurements).
    """

    def __init__(
        self,
        board: Board,
        link_path: Path,
        *,
        poll_interval: float = 0.001,
        clock: Clock = time.monotonic,
    ) -> None:
        self.board = board
        self.link_path = link_path
        self._poll_interval = poll_interval
        self._clock = clock
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.written: dict[int, float] = {}
        self.plugs = 0

    def plug(self) -> None:
        """Connect a new pseudo-terminal and point ``link_path`` at it."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)  # a full buffer drops frames, as USB CDC does
            self._master, self._slave = master, slave
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(os.ttyname(slave))
            tmp.replace(self.link_path)
            self.plugs += 1

    def unplug(self) -> None:
        """Pull the cable: the stable name disappears and the host's reads fail."""
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()
            master, slave = self._master, self._slave
            self._master = self._slave = None
            for fd in (master, slave):
                if fd is not None:
                    os.close(fd)

    def start(self) -> None:
        """Start the board's loop (plug it in first, or later)."""
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the loop (bounded join) and unplug. Idempotent."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self.unplug()

    def __enter__(self) -> SimulatedBoard:
        self.plug()
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        start = self._clock()
        next_step = start
        while not self._stop.is_set():
            now = self._clock()
            wait = max(0.0, next_step - now)
            master = self._master
            if master is None:
                self._stop.wait(wait or 0.001)
            else:
                self._receive(master, wait)
            now = self._clock()
            if now >= next_step:
                next_step = now + self._poll_interval
                frames = self.board.step(int((now - start) * 1000))
                self._send(frames)

    def _receive(self, master: int, wait: float) -> None:
        try:
            ready, _, _ = select.select([master], [], [], wait)
            if ready:
                data = os.read(master, 4096)
                if data:
                    self.board.receive(data)
        except OSError:
            pass  # unplugged under us (EBADF, EIO): the next loop sees it

    def _send(self, frames: list[bytes]) -> None:
        with self._lock:
            master = self._master
            if master is None:
                return  # nobody listening: frames are lost, the link resends them
            for frame in frames:
                if frame[1:2] in (b"P", b"G"):
                    seq = int(frame.split(b" ", 2)[1])
                    self.written.setdefault(seq, self._clock())
                try:
                    os.write(master, frame)
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EIO, errno.EBADF):
                        raise
                    return
