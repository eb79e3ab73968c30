"""The reader board's entry point (MicroPython on a Raspberry Pi Pico): the thin hardware layer.

Everything here touches hardware; the logic lives in ``firmware.board``,
``firmware.link`` and ``firmware.runner``, which the host's tests run under
CPython and under MicroPython. Importing this module does nothing (the
``machine`` imports are inside ``run()``), so CPython tools can check it;
MicroPython runs ``main.py`` as ``__main__`` at boot.

Wiring (MFRC522 on SPI0; see firmware/README.md):
GP16 MISO, GP17 SDA/CS, GP18 SCK, GP19 MOSI, GP20 RST, 3V3 and GND.
The link to the host is the Pico's USB serial (stdin/stdout).

Ctrl-C (what ``mpremote`` sends to take the board) stops the loop and hands
the watchdog to ``firmware.keeper``, so the board stays at the REPL for as
long as the update takes; ``mpremote reset`` starts the loop again.
"""

from firmware import keeper
from firmware.board import Board
from firmware.runner import Clock, Port, Runner, Watchdog

SPI_ID = 0
PIN_MISO = 16
PIN_CS = 17
PIN_SCK = 18
PIN_MOSI = 19
PIN_RST = 20
WATCHDOG_MS = 2000


class TimeClock(Clock):
    """MicroPython's ``time`` module as a ``Clock``."""

    def __init__(self, time: object) -> None:
        self._time = time

    def ticks_ms(self) -> int:
        return int(self._time.ticks_ms())  # type: ignore[attr-defined]

    def ticks_add(self, ticks: int, delta: int) -> int:
        return int(self._time.ticks_add(ticks, delta))  # type: ignore[attr-defined]

    def ticks_diff(self, end: int, start: int) -> int:
        return int(self._time.ticks_diff(end, start))  # type: ignore[attr-defined]

    def sleep_ms(self, ms: int) -> None:
        self._time.sleep_ms(ms)  # type: ignore[attr-defined]


class StdioPort(Port):
    """The board's USB serial (MicroPython's ``sys.stdin``/``sys.stdout``), without blocking.

    ``select.poll`` says whether the host sent bytes and whether the USB
    stack has room to send (on the rp2 port: the host is not attached, or the
    CDC transmit buffer has space), so a write only ever blocks for what
    does not fit in that room, and the rp2 stack gives up after 500 ms of no
    progress.
    """

    def __init__(self, sys: object, select: object) -> None:
        stdin = sys.stdin  # type: ignore[attr-defined]
        stdout = sys.stdout  # type: ignore[attr-defined]
        self._in = getattr(stdin, "buffer", stdin)
        self._out = getattr(stdout, "buffer", stdout)
        self._rx = select.poll()  # type: ignore[attr-defined]
        self._rx.register(stdin, select.POLLIN)  # type: ignore[attr-defined]
        self._tx = select.poll()  # type: ignore[attr-defined]
        self._tx.register(stdout, select.POLLOUT)  # type: ignore[attr-defined]

    def read(self, limit: int) -> bytes:
        data = b""
        while len(data) < limit and self._rx.poll(0):
            byte = self._in.read(1)
            if not byte:
                break
            data += byte if isinstance(byte, bytes) else byte.encode()
        return data

    def writable(self) -> bool:
        return bool(self._tx.poll(0))

    def write(self, data: memoryview) -> int:
        n = self._out.write(data)
        # Older ports return None for a completed write.
        return len(data) if n is None else int(n)


class WDT(Watchdog):
    """``machine.WDT`` as a ``Watchdog``."""

    def __init__(self, wdt: object) -> None:
        self._wdt = wdt

    def feed(self) -> None:
        self._wdt.feed()  # type: ignore[attr-defined]


def run() -> None:
    """Poll the MFRC522 every ``POLL_MS`` and speak the link protocol over USB serial, forever."""
    import binascii
    import os
    import select

    import machine

    # MicroPython's time and sys differ from CPython's (ticks_ms, sleep_ms, raw
    # stdout); __import__ keeps CPython's type checker from judging them.
    time = __import__("time")
    sys = __import__("sys")

    from firmware.link import Link
    from firmware.mfrc522 import MFRC522

    spi = machine.SPI(
        SPI_ID,
        baudrate=1_000_000,
        sck=machine.Pin(PIN_SCK),
        mosi=machine.Pin(PIN_MOSI),
        miso=machine.Pin(PIN_MISO),
    )
    cs = machine.Pin(PIN_CS, machine.Pin.OUT, value=1)
    rst = machine.Pin(PIN_RST, machine.Pin.OUT, value=1)
    reader = MFRC522(spi, cs, rst)
    board_id = binascii.hexlify(machine.unique_id()).decode().upper()
    boot_id = binascii.hexlify(os.urandom(4)).decode().upper()
    board = Board(reader, Link(board_id, boot_id))
    port = StdioPort(sys, select)
    serve(machine, board, port, TimeClock(time))


def serve(machine: object, board: Board, port: Port, clock: Clock) -> None:
    """Run the loop with a short watchdog until interrupted; then leave the board fed at the REPL.

    Split from ``run()`` so that a scripted board under MicroPython runs this
    very code with a fake ``machine``.
    """
    # From here the loop feeds the watchdog; a hung loop resets the board and the
    # host sees a new boot id.
    keeper.stop()
    watchdog = machine.WDT(timeout=WATCHDOG_MS)  # type: ignore[attr-defined]
    runner = Runner(board, port, WDT(watchdog), clock)
    try:
        runner.run()
    except KeyboardInterrupt:
        # mpremote (or a person at a terminal) wants the REPL: keep the board alive for it.
        keeper.start(machine)
        print("cafe-reader: stopped for maintenance; `mpremote reset` starts it again")


if __name__ == "__main__":
    run()
