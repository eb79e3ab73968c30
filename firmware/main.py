"""The reader board's entry point (MicroPython on a Raspberry Pi Pico): the thin hardware layer.

Everything here touches hardware; the logic lives in ``firmware.board`` and
``firmware.link``, which the host's tests run under CPython. Importing this
module does nothing (the ``machine`` imports are inside ``run()``), so CPython
tools can check it; MicroPython runs ``main.py`` as ``__main__`` at boot.

Wiring (MFRC522 on SPI0; see firmware/README.md):
GP16 MISO, GP17 SDA/CS, GP18 SCK, GP19 MOSI, GP20 RST, 3V3 and GND.
The link to the host is the Pico's USB serial (stdin/stdout).
"""

SPI_ID = 0
PIN_MISO = 16
PIN_CS = 17
PIN_SCK = 18
PIN_MOSI = 19
PIN_RST = 20
WATCHDOG_MS = 2000


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

    from firmware.board import POLL_MS, Board
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

    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = getattr(sys.stdout, "buffer", sys.stdout)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    # A watchdog resets a board whose loop hangs; the host sees a new boot id.
    watchdog = machine.WDT(timeout=WATCHDOG_MS)

    now = 0  # milliseconds since boot, unwrapped from ticks_ms
    last = time.ticks_ms()
    while True:
        while poller.poll(0):
            data = stdin.read(1)
            if data:
                board.receive(data if isinstance(data, bytes) else data.encode())
        for frame in board.step(now):
            stdout.write(frame)
        watchdog.feed()
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        spent = time.ticks_diff(time.ticks_ms(), tick)
        if spent < POLL_MS:
            time.sleep_ms(POLL_MS - spent)


if __name__ == "__main__":
    run()
