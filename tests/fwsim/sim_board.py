"""A reader board to reflash: the firmware on a simulated board's filesystem, run as a Pico does.

``run.mjs board`` drives this under MicroPython with the board's USB serial
on a pseudo-terminal, so that a host test can run the real ``mpremote``
against it (``firmware/README.md``'s commands, verbatim):

* ``hard_boot()`` is a power-up or ``machine.reset()``: the firmware modules
  are loaded afresh from the board's filesystem (so a reflash takes effect),
  ``/boot.py`` runs, then the loop of ``firmware/main.py`` (its ``serve()``,
  with the emulated MFRC522 and the pseudo-terminal as USB) until Ctrl-C.
* ``soft_reset()`` is what the rp2 port does on Ctrl-D at the REPL: timers
  go, the watchdog stays, ``/boot.py`` runs again.
* ``tick()`` lets real time pass for the timers and the watchdog while
  MicroPython sits at the REPL; it returns how many times the watchdog would
  have reset the board so far.

Each boot logs a JSON line (``hostio.log``) naming the files on the board
with their CRC-32, so the test can check what ``mpremote`` copied.
"""

import binascii
import json
import os
import sys

import hostio  # type: ignore[import-not-found]  # run.mjs's JS module

TYPE_CHECKING = False  # no ``typing`` on MicroPython; mypy takes the branch below as true
if TYPE_CHECKING:
    from tests.fwsim import chip as chip_module
    from tests.fwsim import machine, world
else:
    import chip as chip_module
    import machine
    import world

boots = 0


def _files() -> dict[str, int]:
    out = {}  # type: dict[str, int]
    for path in ["/boot.py", "/main.py"] + ["/firmware/" + n for n in os.listdir("/firmware")]:
        try:
            with open(path, "rb") as f:
                out[path] = binascii.crc32(f.read()) & 0xFFFFFFFF
        except OSError:
            pass
    return out


def _forget_firmware() -> None:
    for name in list(sys.modules):
        if name == "firmware" or name.startswith("firmware."):
            del sys.modules[name]


def _run_boot_py() -> None:
    try:
        with open("/boot.py") as f:
            source = f.read()
    except OSError:
        return
    exec(source, {"__name__": "__main__"})


def hard_boot() -> None:
    """Power-up: fresh modules, a disarmed watchdog, boot.py, then main.py's loop until Ctrl-C."""
    global boots
    boots += 1
    _forget_firmware()
    clock = world.RealClock(hostio)
    w = world.World(clock)
    world.current = w
    # A card tapped every second, for as long as the board runs.
    script = []  # type: list[tuple[int, str | None]]
    for i in range(600):
        script.append((500 + 1000 * i, "04%012X" % (boots * 1000 + i)))
        script.append((800 + 1000 * i, None))
    w.chip = chip_module.Chip(clock, script)
    hostio.log(json.dumps({"boot": boots, "files": _files()}))
    _run_boot_py()

    if TYPE_CHECKING:
        from tests.fwsim.scenario import FdPort
    else:
        from scenario import FdPort

    from firmware.board import Board
    from firmware.link import Link
    from firmware.main import serve
    from firmware.mfrc522 import MFRC522

    reader = MFRC522(machine.SPI(0), machine.Pin(17), machine.Pin(20))
    board = Board(reader, Link("E66141040355A52B", f"B0070{boots:03X}"))
    serve(machine, board, FdPort(hostio), clock)


def soft_reset() -> None:
    """Ctrl-D at the REPL (rp2 port): timers and modules go, the watchdog stays, boot.py runs."""
    world.current.soft_reset()
    _forget_firmware()
    _run_boot_py()


def tick() -> int:
    """Let the real time that passed count: fire due timers, check the watchdog."""
    w = world.current
    w.run_until(w.now_us())
    return len(w.watchdog.expiries)
