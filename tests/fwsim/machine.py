"""A fake ``machine`` module for the scripted board: just what ``firmware/`` uses.

Every call lands in ``world.current`` (see ``world.py``): SPI transactions go
to the emulated MFRC522, ``WDT`` arms the simulated watchdog (it cannot be
stopped, as on the rp2 port), ``Timer`` callbacks fire as simulated time
passes, and a soft reset deletes them, as on the rp2 port.
"""

import world


class Pin:
    IN = 0
    OUT = 1

    def __init__(self, ident, mode=-1, value=None):
        self.ident = ident
        self._value = 0 if value is None else value

    def value(self, value=None):
        if value is None:
            return self._value
        self._value = value
        return None


class SPI:
    def __init__(self, ident, baudrate=1000000, sck=None, mosi=None, miso=None):
        self.ident = ident

    def write(self, tx):
        world.current.spi(tx, None)

    def write_readinto(self, tx, rx):
        world.current.spi(tx, rx)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if timeout < 1 or timeout > 8388:
            raise ValueError("timeout out of range")  # the rp2 port's limit
        world.current.watchdog.arm(timeout, world.current.now_us())

    def feed(self):
        world.current.watchdog.feed(world.current.now_us())


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, ident=-1):
        if ident != -1:
            raise ValueError("the rp2 port has only virtual timers (id -1)")

    def init(self, mode=PERIODIC, period=-1, callback=None):
        world.current.add_timer(self, period, callback)

    def deinit(self):
        world.current.remove_timer(self)


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x55\xa5\x2b"


def reset():
    """A hard reset: under run.mjs the board boots again (boot.py, then main.py)."""
    try:
        import hostio

        hostio.request_reset()
    except ImportError:
        pass
    raise SystemExit("machine.reset()")
