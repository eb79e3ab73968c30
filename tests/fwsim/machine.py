"""A fake ``machine`` module for the scripted board: just what ``firmware/`` uses.

Every call lands in ``world.current`` (see ``world.py``): SPI transactions go
to the emulated MFRC522, ``WDT`` arms the simulated watchdog (it cannot be
stopped, as on the rp2 port), ``Timer`` callbacks fire as simulated time
passes, and a soft reset deletes them, as on the rp2 port.
"""

TYPE_CHECKING = False  # no ``typing`` on MicroPython; mypy takes the branch below as true
if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.fwsim import world
else:
    import world


class Pin:
    IN = 0
    OUT = 1

    def __init__(self, ident: int, mode: int = -1, value: int | None = None) -> None:
        self.ident = ident
        self._value = 0 if value is None else value

    def value(self, value: int | None = None) -> int | None:
        if value is None:
            return self._value
        self._value = value
        return None


class SPI:
    def __init__(
        self,
        ident: int,
        baudrate: int = 1000000,
        sck: Pin | None = None,
        mosi: Pin | None = None,
        miso: Pin | None = None,
    ) -> None:
        self.ident = ident

    def write(self, tx: bytes | bytearray) -> None:
        world.current.spi(tx, None)

    def write_readinto(self, tx: bytes | bytearray, rx: bytearray) -> None:
        world.current.spi(tx, rx)


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        if timeout < 1 or timeout > 8388:
            raise ValueError("timeout out of range")  # the rp2 port's limit
        world.current.watchdog.arm(timeout, world.current.now_us())

    def feed(self) -> None:
        world.current.watchdog.feed(world.current.now_us())


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, ident: int = -1) -> None:
        if ident != -1:
            raise ValueError("the rp2 port has only virtual timers (id -1)")

    def init(
        self,
        mode: int = PERIODIC,
        period: int = -1,
        callback: "Callable[[Timer], None] | None" = None,
    ) -> None:
        world.current.add_timer(self, period, callback)

    def deinit(self) -> None:
        world.current.remove_timer(self)


def unique_id() -> bytes:
    return b"\xe6\x61\x41\x04\x03\x55\xa5\x2b"


def reset() -> None:
    """A hard reset: under run.mjs the board boots again (boot.py, then main.py)."""
    try:
        import hostio  # type: ignore[import-not-found]  # run.mjs's JS module

        hostio.request_reset()
    except ImportError:
        pass
    raise SystemExit("machine.reset()")
