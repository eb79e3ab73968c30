"""The LED strip's drivers, chosen by ``[leds] backend`` in table.toml.

Each backend returns a ``Strip`` (``hardware.leds``) that ``SeatLeds`` draws on:

* ``"spi"``: the strip's data on GPIO10 (SPI0 MOSI) through Adafruit's
  ``neopixel_spi``: every data bit becomes one SPI byte at 6.4 MHz, so the
  timing comes from the SPI clock. Needs only the ``spi`` group, no root: the
  default on a Pi 4 (and any Pi but the 5).
* ``"pi5"``: the Pi 5's RP1 PIO block through ``/dev/pio0``
  (``adafruit-blinka-raspberry-pi5-neopixel``, which Blinka's
  ``neopixel_write`` picks on a Pi 5); any GPIO, default GPIO18; no root.
* ``"pwm"`` (old name ``"neopixel"``): GPIO18 through ``rpi_ws281x``'s
  PWM/DMA driver, as the table always did. It needs root and does not work
  on a Pi 5; the service runs as a plain user, so prefer ``"spi"``.
* ``"mock"``: ``RecordingStrip``, which keeps every frame (simulator, tests).

Drivers are imported only when a backend is opened, because off a Pi their
imports fail; every failure becomes ``StripUnavailable`` (or
``HardwareConfigError`` for a bad setting) with the fix in its message.
docs/hardware.md shows the wiring for each backend.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any, Final

from hardware.errors import HardwareConfigError, StripUnavailable
from hardware.leds import RecordingStrip, Strip, open_neopixel

__all__ = ["BACKENDS", "PIO_DEVICE", "SPI_FREQUENCY", "board_model", "open_strip"]

BACKENDS: Final = ("mock", "spi", "pi5", "pwm", "neopixel")
"""The ``[leds] backend`` names; ``"neopixel"`` is the old name of ``"pwm"``."""

SPI_FREQUENCY: Final = 6_400_000
"""SPI clock for 800 kHz pixels: eight SPI bits (one byte) per pixel data bit."""

PIO_DEVICE: Final = Path("/dev/pio0")
"""The Pi 5's PIO device, which the pi5 backend drives the strip through."""

MOCK_FRAMES: Final = 64
"""Frames the simulated table's strip keeps (64 to 127), enough for the tests that look
back at its history. Nothing in the kiosk reads it; the recording strip's default
(512 to 1,023 frames, some 0.15 MB) filled over a simulated kiosk's first forty
games, memory a kiosk driving real LEDs never spends."""

MODEL_FILE: Final = Path("/proc/device-tree/model")

_MOCK_ADVICE = 'or set [leds] backend = "mock" in table.toml'


def board_model(model_file: Path = MODEL_FILE) -> str:
    """The board's model string (e.g. "Raspberry Pi 5 Model B Rev 1.0"), or "" off a Pi."""
    try:
        return model_file.read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return ""


def open_strip(
    backend: str,
    n: int,
    *,
    pin: str = "D18",
    pixel_order: str = "GRB",
    spi: Any = None,
    model: str | None = None,
    pio: Path = PIO_DEVICE,
) -> Strip:
    """Open the strip of ``n`` pixels through ``backend``, built with ``auto_write=False``.

    ``pin`` is the data pin's board name for ``pi5`` and ``pwm`` (``spi``
    always uses GPIO10). ``spi`` injects the SPI bus (default ``board.SPI()``);
    ``model`` and ``pio`` inject the board model and PIO device for the
    Pi 5 checks, so tests need no Pi.
    """
    if backend == "mock":
        return RecordingStrip(n, keep=MOCK_FRAMES)
    if backend == "spi":
        return _open_spi(n, pixel_order, spi)
    if backend == "pi5":
        return _open_pi5(n, pin, pixel_order, board_model() if model is None else model, pio)
    if backend in ("pwm", "neopixel"):
        if "Raspberry Pi 5" in (board_model() if model is None else model):
            raise HardwareConfigError(
                'the PWM LED driver does not work on a Pi 5: set [leds] backend = "pi5"'
            )
        strip: Strip = open_neopixel(n, pin=pin, pixel_order=pixel_order)
        return strip
    raise HardwareConfigError(
        f"the LED backend {backend!r} is unknown: use one of {', '.join(BACKENDS)}"
    )


def _open_spi(n: int, pixel_order: str, spi: Any) -> Strip:
    fix = (
        "enable SPI (sudo raspi-config nonint do_spi 0, then reboot) and put the "
        f"service user in the spi group, {_MOCK_ADVICE}"
    )
    try:
        neopixel_spi = importlib.import_module("neopixel_spi")
    except ImportError as exc:
        raise StripUnavailable(
            f"the SPI LED driver is not installed ({exc}): run deploy/install.sh, {_MOCK_ADVICE}"
        ) from exc
    if spi is None:
        try:
            spi = importlib.import_module("board").SPI()
        # Blinka raises NotImplementedError off a Pi, AttributeError on boards without SPI.
        except (
            ImportError,
            NotImplementedError,
            AttributeError,
            RuntimeError,
            OSError,
            ValueError,
        ) as exc:
            raise StripUnavailable(
                f"the SPI bus for the LEDs cannot be opened ({exc}): {fix}"
            ) from exc
    try:
        strip: Strip = neopixel_spi.NeoPixel_SPI(
            spi,
            n,
            pixel_order=pixel_order,
            brightness=1.0,  # SeatLeds applies its own cap
            auto_write=False,
            frequency=SPI_FREQUENCY,
        )
    except Exception as exc:  # spidev raises OSError, Blinka RuntimeError/ValueError
        raise StripUnavailable(f"the LED strip on SPI cannot be started ({exc}): {fix}") from exc
    return strip


def _open_pi5(n: int, pin: str, pixel_order: str, model: str, pio: Path) -> Strip:
    if "Raspberry Pi 5" not in model and "Raspberry Pi 500" not in model:
        on = model or "this machine (not a Raspberry Pi)"
        raise StripUnavailable(
            f'the "pi5" LED backend needs a Raspberry Pi 5, and this is {on}: '
            f'use backend = "spi" on other Pis, {_MOCK_ADVICE}'
        )
    if not pio.exists():
        raise StripUnavailable(
            f"{pio} is missing, so the Pi 5 cannot drive the LEDs: update the kernel "
            "(sudo apt-get full-upgrade, then reboot)"
        )
    if not os.access(pio, os.R_OK | os.W_OK):
        raise StripUnavailable(
            f"no permission on {pio}: put the service user in the gpio group and install "
            "deploy/99-cafe-table.rules (deploy/install.sh does both)"
        )
    try:
        importlib.import_module("adafruit_raspberry_pi5_neopixel_write")
    except ImportError as exc:
        raise StripUnavailable(
            f"the Pi 5 LED driver is not installed ({exc}): run deploy/install.sh"
        ) from exc
    # Blinka's neopixel_write sends the frames to the PIO driver on a Pi 5.
    strip: Strip = open_neopixel(n, pin=pin, pixel_order=pixel_order)
    return strip
