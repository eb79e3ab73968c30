"""Keeps a running board open for maintenance: feeds the watchdog while the REPL has it.

The rp2 port's watchdog cannot be stopped once armed (MicroPython issue
8600), and ``mpremote`` takes a board by interrupting ``main.py`` with
Ctrl-C and then soft-resetting it into the raw REPL. Without help the board
would reset in the middle of the copy, two seconds after the loop stopped
feeding the watchdog. So:

* ``main.py`` calls ``start()`` when its loop is interrupted: a hardware
  timer feeds the watchdog from then on (with a long timeout), and the board
  sits at the REPL for as long as ``mpremote`` needs it.
* ``boot.py`` calls ``start()`` at every boot and every soft reset (the rp2
  port runs ``boot.py`` on both, and a soft reset deletes every timer), so the
  REPL that ``mpremote`` soft-resets into is fed as well.
* ``main.py`` calls ``stop()`` just before its loop starts feeding the
  watchdog itself, with the short timeout that catches a hung loop.

The REPL is no hang: a board left at the REPL stays there until
``mpremote reset`` (or a power cycle) starts ``main.py`` again.

``machine`` is handed in, so the tests drive this with a fake.
"""

from firmware.link import const

MAINTENANCE_WDT_MS = const(8000)
"""The watchdog's timeout at the REPL: the rp2 maximum is 8388 ms; a soft reset must fit in it."""

FEED_MS = const(1000)
"""How often the timer feeds the watchdog at the REPL."""

_timer = None  # type: object


def start(machine: object, timeout_ms: int = MAINTENANCE_WDT_MS) -> None:
    """(Re)arm the watchdog with ``timeout_ms``; feed it from a periodic timer until ``stop()``."""
    global _timer
    stop()
    wdt = machine.WDT(timeout=timeout_ms)  # type: ignore[attr-defined]
    timer = machine.Timer(-1)  # type: ignore[attr-defined]
    timer.init(period=FEED_MS, mode=timer.PERIODIC, callback=lambda _t: wdt.feed())
    _timer = timer


def stop() -> None:
    """Stop feeding the watchdog from the timer (the caller feeds it from now on)."""
    global _timer
    if _timer is not None:
        _timer.deinit()  # type: ignore[attr-defined]
        _timer = None


def running() -> bool:
    """Whether the timer is feeding the watchdog."""
    return _timer is not None
