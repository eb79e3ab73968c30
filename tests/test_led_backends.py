"""The LED backends, byte-exact against fake transports under the real drivers.

* spi: Adafruit's real ``neopixel_spi`` writes to a fake SPI bus that keeps
  every write; the bytes are checked against the WS2812 bit encoding worked
  out here independently (one SPI byte per data bit at 6.4 MHz).
* pwm and pi5: Adafruit's real ``neopixel`` module, with fake ``board`` and
  ``digitalio`` modules and a fake ``neopixel_write`` (the call Blinka routes
  to rpi_ws281x on a Pi 4 and to the PIO driver on a Pi 5) that keeps the
  frames.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig, parse
from controller.kiosk.devices import build
from hardware.errors import HardwareConfigError, StripUnavailable
from hardware.events import EventQueue
from hardware.led_backends import SPI_FREQUENCY, open_strip
from hardware.leds import RecordingStrip, SeatLeds

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


class FakeSpi:
    """A busio.SPI stand-in: lockable, configurable, and it keeps what is written."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.frequency = 0
        self.locked = False

    def try_lock(self) -> bool:
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, *, baudrate: int = 100000, polarity: int = 0, phase: int = 0) -> None:
        self.frequency = baudrate

    def write(self, buf: bytes, start: int = 0, end: int | None = None) -> None:
        assert self.locked, "written without holding the bus lock"
        self.writes.append(bytes(buf[start:end]))


def ws2812_spi(frame: bytes, frequency: int = SPI_FREQUENCY) -> bytes:
    """The SPI bytes for one frame: each data bit MSB first as 0b11110000 (1) or 0b11000000 (0),
    framed by 80 us of low line before and after."""
    reset = bytes(round(frequency * 80e-6 / 8))
    bits = bytes(0xF0 if byte >> i & 1 else 0xC0 for byte in frame for i in range(7, -1, -1))
    return reset + bits + reset


def test_spi_bit_encoding_meets_ws2812_timing() -> None:
    # At 6.4 MHz one SPI bit lasts 156.25 ns: a 0 is high 2 bits, a 1 high 4 bits.
    bit = 1e9 / SPI_FREQUENCY
    t0h, t1h = bin(0xC0).count("1") * bit, bin(0xF0).count("1") * bit
    assert 220 <= t0h <= 380  # WS2812B: T0H 220..380 ns
    assert 580 <= t1h <= 1000  # WS2812B: T1H 580..1000 ns
    assert 8 * bit == pytest.approx(1250)  # one data bit per 1.25 us: 800 kHz


def test_spi_backend_sends_grb_frames_byte_exact() -> None:
    spi = FakeSpi()
    strip = open_strip("spi", 3, spi=spi)
    assert spi.frequency == SPI_FREQUENCY
    assert not spi.writes, "nothing may be sent before show()"
    strip[0] = (255, 0, 0)
    strip[1] = (0, 1, 0)
    strip[2] = (0x12, 0x34, 0x56)
    strip.show()
    # GRB order, full brightness (SeatLeds applies its own cap).
    assert spi.writes == [ws2812_spi(bytes([0, 255, 0, 1, 0, 0, 0x34, 0x12, 0x56]))]
    assert not spi.locked


def test_spi_backend_under_seat_leds_and_deinit_blanks() -> None:
    spi = FakeSpi()
    strip = open_strip("spi", 4, spi=spi)
    leds = SeatLeds(strip, {0: range(0, 2), 1: range(2, 4)}, brightness=0.5)
    from hardware.leds import Cue

    leds.cue(1, Cue.JOINED, now=0.0)  # white at half power on pixels 2 and 3
    assert spi.writes[-1] == ws2812_spi(bytes([0, 0, 0] * 2 + [128, 128, 128] * 2))
    leds.close()
    strip.deinit()  # type: ignore[attr-defined]
    assert spi.writes[-1] == ws2812_spi(bytes(12))


@pytest.fixture
def fake_blinka(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, bytes]]]:
    """Fake ``board``, ``digitalio`` and ``neopixel_write`` under the real ``neopixel`` module."""
    written: list[tuple[Any, bytes]] = []

    class Pin:
        def __init__(self, number: int) -> None:
            self.id = number

    class DigitalInOut:
        def __init__(self, pin: Pin) -> None:
            self.pin = pin
            self.direction: object = None

        def deinit(self) -> None:
            self.pin = None  # type: ignore[assignment]

    board = types.ModuleType("board")
    board.D18 = Pin(18)  # type: ignore[attr-defined]
    board.D13 = Pin(13)  # type: ignore[attr-defined]
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut  # type: ignore[attr-defined]
    digitalio.Direction = types.SimpleNamespace(OUTPUT="output")  # type: ignore[attr-defined]
    writer = types.ModuleType("neopixel_write")
    writer.neopixel_write = lambda gpio, buf: written.append((gpio, bytes(buf)))  # type: ignore[attr-defined]
    pi5 = types.ModuleType("adafruit_raspberry_pi5_neopixel_write")
    for name, module in (
        ("board", board),
        ("digitalio", digitalio),
        ("neopixel_write", writer),
        ("adafruit_raspberry_pi5_neopixel_write", pi5),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    saved = sys.modules.pop("neopixel", None)  # re-imported over the fakes
    yield written
    sys.modules.pop("neopixel", None)
    if saved is not None:
        sys.modules["neopixel"] = saved


def test_pwm_backend_writes_grb_on_gpio18_byte_exact(fake_blinka: list[tuple[Any, bytes]]) -> None:
    strip = open_strip("pwm", 2, model=PI4)
    strip[0] = (10, 20, 30)
    strip[1] = (255, 128, 0)
    strip.show()
    assert len(fake_blinka) == 1
    gpio, data = fake_blinka[0]
    assert gpio.pin.id == 18
    assert data == bytes([20, 10, 30, 128, 255, 0])


def test_old_neopixel_name_is_the_pwm_backend(fake_blinka: list[tuple[Any, bytes]]) -> None:
    strip = open_strip("neopixel", 1, model=PI4)
    strip[0] = (1, 2, 3)
    strip.show()
    assert fake_blinka[-1][1] == bytes([2, 1, 3])


def test_pi5_backend_byte_exact_on_the_configured_pin(
    fake_blinka: list[tuple[Any, bytes]], tmp_path: Path
) -> None:
    pio = tmp_path / "pio0"
    pio.touch()
    strip = open_strip("pi5", 3, pin="D13", model=PI5, pio=pio)
    strip.fill((0, 0, 255))
    strip.show()
    gpio, data = fake_blinka[-1]
    assert gpio.pin.id == 13
    assert data == bytes([0, 0, 255] * 3)


def test_pi5_backend_refuses_other_boards_and_missing_pio(tmp_path: Path) -> None:
    with pytest.raises(StripUnavailable, match=r'needs a Raspberry Pi 5.*use backend = "spi"'):
        open_strip("pi5", 8, model=PI4, pio=tmp_path / "pio0")
    with pytest.raises(StripUnavailable, match=r"pio0 is missing.*full-upgrade"):
        open_strip("pi5", 8, model=PI5, pio=tmp_path / "pio0")


def test_pi5_backend_permission_message_via_access(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Denied through os.access, so the check fails for root (who may open anything) too.
    pio = tmp_path / "pio0"
    pio.touch()
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(StripUnavailable, match=r"no permission on .*pio0.*gpio group"):
        open_strip("pi5", 8, model=PI5, pio=pio)


def test_pwm_backend_is_refused_on_a_pi5() -> None:
    with pytest.raises(HardwareConfigError, match='backend = "pi5"'):
        open_strip("pwm", 8, model=PI5)


def test_spi_without_a_bus_says_how_to_enable_it() -> None:
    # Off a Pi, Blinka's ``board`` cannot load: the message names raspi-config.
    with pytest.raises(StripUnavailable, match="do_spi 0"):
        open_strip("spi", 8)


def test_mock_and_unknown_backends() -> None:
    assert isinstance(open_strip("mock", 5), RecordingStrip)
    with pytest.raises(HardwareConfigError, match="unknown: use one of mock, spi, pi5, pwm"):
        open_strip("ws2811", 5)


def test_config_names_the_backends() -> None:
    for backend in ("mock", "spi", "pi5", "pwm", "neopixel"):
        assert parse({"leds": {"backend": backend}}).leds.backend == backend
    with pytest.raises(ConfigError, match=r"leds.backend is 'dma'.*'spi', 'pi5', 'pwm'"):
        parse({"leds": {"backend": "dma"}})


def test_devices_build_goes_through_the_backend() -> None:
    events: EventQueue = __import__("queue").SimpleQueue()
    devices = build(TableConfig.simulated(), events)
    assert isinstance(devices.strip, RecordingStrip)
    assert devices.strip.n == 32
