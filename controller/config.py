"""The table's configuration: a documented TOML file, all-simulated by default.

Nothing needs configuring to try the table: without a file every seat has a
mock reader, mock buttons and a mock LED segment, and the bundled simulated
deck. A bad file is refused with a ``ConfigError`` that names the key and says
how to fix it. ``docs/configuration.md`` documents every key; the example
``controller/samples/table.toml`` shows them all.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from controller.games.base import TableError
from hardware.protocols import READER_PROTOCOLS

MOCK = "mock"
BUTTON_NAMES = ("prev", "ok", "next")
MIN_SEATS, MAX_SEATS = 2, 7
ROTATIONS = (0, 90, 180, 270)

T = TypeVar("T")


class ConfigError(TableError, ValueError):
    """The configuration file is unreadable or has a bad key."""


@dataclass(frozen=True)
class SeatConfig:
    """One physical seat: its reader, buttons, LED pixels, and whether a bot sits there."""

    index: int
    reader: str = MOCK  # "mock" or a serial port path (best a /dev/serial/by-path name)
    protocol: str = "line"
    buttons: Mapping[str, int] | None = None  # None: simulated buttons (gpiozero MockFactory)
    pixels: tuple[int, int] = (0, 0)  # [first, end) pixel range of the seat's LED segment
    bot: bool = False


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 1280
    height: int = 720
    rotation: int = 0
    fullscreen: bool = False


@dataclass(frozen=True)
class LedConfig:
    backend: str = MOCK  # "mock" (records frames) or "neopixel"
    data_pin: str = "D18"
    brightness: float = 0.3


@dataclass(frozen=True)
class TimerConfig:
    """The toss timer (Oss): a button, or a contact pad the Jack rests on."""

    pin: int | None = None  # GPIO (BCM) number; None: simulated (gpiozero MockFactory)
    mode: str = "press"  # "press": press starts, next press stops; "pad": lift starts, rest stops
    long_press: float = 1.5  # seconds held that cancel the toss (press mode)
    limit: float | None = None  # seconds allowed per attempt, shown when exceeded


@dataclass(frozen=True)
class BotConfig:
    """The bots that fill empty seats."""

    think: float = 0.3  # seconds a bot may think per decision, at most


@dataclass(frozen=True)
class TableConfig:
    """The whole table. ``TableConfig.simulated()`` is the built-in default."""

    seats: tuple[SeatConfig, ...]
    display: DisplayConfig = field(default_factory=DisplayConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    tags: Path | None = None  # None: the bundled simulated deck
    records: Path = Path("records")
    deal: str = "virtual"  # "virtual": the table deals and shows hands; "physical": real cards
    dice: str = "virtual"  # "virtual": the table rolls; "manual": players enter physical dice
    timer: TimerConfig | None = None  # the toss timer, if the table has one
    bots: BotConfig = field(default_factory=BotConfig)

    @classmethod
    def simulated(cls, seats: int = 4, bots: int | None = None) -> TableConfig:
        """An all-simulated table: seat 0 is a person, the others bots (unless ``bots`` says)."""
        bot_count = seats - 1 if bots is None else bots
        per_seat = 8
        return cls(
            timer=TimerConfig(),
            seats=tuple(
                SeatConfig(
                    index=i,
                    pixels=(i * per_seat, (i + 1) * per_seat),
                    bot=i >= seats - bot_count,
                )
                for i in range(seats)
            ),
        )

    @property
    def pixel_count(self) -> int:
        return max((seat.pixels[1] for seat in self.seats), default=0)


# --- reading a file ---------------------------------------------------------------


def load(path: Path) -> TableConfig:
    """Read and check a table.toml; ConfigError says what is wrong and how to fix it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such file; leave out --config to use the all-simulated table"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the syntax there") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({exc})") from None
    return parse(data, path.name, base=path.parent)


def parse(data: Mapping[str, Any], source: str = "table.toml", base: Path = Path()) -> TableConfig:
    """Check a parsed TOML document and build the configuration."""
    reader = _Reader(source)
    reader.known(data, "", {"table", "display", "leds", "tags", "timer", "seat", "bots"})
    table = reader.table(data, "table")
    reader.known(table, "table", {"records", "deal", "dice"})
    records = Path(reader.string(table, "table.records", "records"))
    deal = reader.choice(table, "table.deal", ("virtual", "physical"), "virtual")
    dice = reader.choice(table, "table.dice", ("virtual", "manual"), "virtual")

    display_t = reader.table(data, "display")
    reader.known(display_t, "display", {"width", "height", "rotation", "fullscreen"})
    display = DisplayConfig(
        width=reader.integer(display_t, "display.width", 1280, 320, 7680),
        height=reader.integer(display_t, "display.height", 720, 240, 4320),
        rotation=reader.choice(display_t, "display.rotation", ROTATIONS, 0),
        fullscreen=reader.boolean(display_t, "display.fullscreen", False),
    )

    leds_t = reader.table(data, "leds")
    reader.known(leds_t, "leds", {"backend", "data_pin", "brightness"})
    leds = LedConfig(
        backend=reader.choice(leds_t, "leds.backend", (MOCK, "neopixel"), MOCK),
        data_pin=reader.string(leds_t, "leds.data_pin", "D18"),
        brightness=reader.number(leds_t, "leds.brightness", 0.3, 0.0, 1.0),
    )

    timer = _timer(reader, data)

    bots_t = reader.table(data, "bots")
    reader.known(bots_t, "bots", {"think"})
    bots = BotConfig(think=reader.number(bots_t, "bots.think", 0.3, 0.01, 10.0))

    tags_t = reader.table(data, "tags")
    reader.known(tags_t, "tags", {"registry"})
    registry = tags_t.get("registry")
    tags = None if registry is None else base / reader.string(tags_t, "tags.registry", "")

    seats_raw = data.get("seat")
    if seats_raw is None:
        seats = TableConfig.simulated().seats
    else:
        if not isinstance(seats_raw, list) or not all(isinstance(s, dict) for s in seats_raw):
            raise ConfigError(f"{source}: seats are written as [[seat]] tables, one per seat")
        if not MIN_SEATS <= len(seats_raw) <= MAX_SEATS:
            raise ConfigError(
                f"{source}: the table has {len(seats_raw)} [[seat]] entries; "
                f"give {MIN_SEATS} to {MAX_SEATS}"
            )
        seats = tuple(reader.seat(raw, i) for i, raw in enumerate(seats_raw))
    _check_pixels(seats, source)
    config = TableConfig(
        seats=seats,
        display=display,
        leds=leds,
        tags=tags,
        records=base / records,
        deal=deal,
        dice=dice,
        timer=timer,
        bots=bots,
    )
    return check(config, source)


def _timer(reader: _Reader, data: Mapping[str, Any]) -> TimerConfig | None:
    """The [timer] section: absent means the table has no toss timer."""
    if "timer" not in data:
        return None
    timer_t = reader.table(data, "timer")
    reader.known(timer_t, "timer", {"pin", "mode", "long_press", "limit"})
    pin_raw = timer_t.get("pin", MOCK)
    pin = None if pin_raw == MOCK else reader.integer(timer_t, "timer.pin", 0, 0, 27)
    limit_raw = timer_t.get("limit")
    limit = None if limit_raw is None else reader.number(timer_t, "timer.limit", 0, 0.1, 600.0)
    return TimerConfig(
        pin=pin,
        mode=reader.choice(timer_t, "timer.mode", ("press", "pad"), "press"),
        long_press=reader.number(timer_t, "timer.long_press", 1.5, 0.3, 10.0),
        limit=limit,
    )


def _check_pixels(seats: tuple[SeatConfig, ...], source: str) -> None:
    ranges = sorted((s.pixels, s.index) for s in seats if s.pixels[1] > s.pixels[0])
    for first, second in itertools.pairwise(ranges):
        if second[0][0] < first[0][1]:
            raise ConfigError(
                f"{source}: seat[{second[1]}].pixels overlaps seat[{first[1]}].pixels; "
                "give each seat its own pixel range"
            )


class _Reader:
    """Typed getters that name the key and the fix in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str, fix: str) -> ConfigError:
        return ConfigError(f"{self.source}: {key} {problem}; {fix}")

    def known(self, table: Mapping[str, Any], where: str, keys: set[str]) -> None:
        for key in table:
            if key not in keys:
                name = f"{where}.{key}" if where else key
                raise self.fail(
                    name,
                    "is not a setting the table knows",
                    f"use one of: {', '.join(sorted(keys))}",
                )

    def table(self, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, "must be a table", f"write it as [{key}] with keys below it")
        return value

    def string(self, table: Mapping[str, Any], key: str, default: str) -> str:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a text in quotes, not {value!r}", 'e.g. "mock"')
        return value

    def boolean(self, table: Mapping[str, Any], key: str, default: bool) -> bool:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}", "write true or false")
        return value

    def integer(self, table: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(key, f"must be a whole number {low}..{high}, not {value!r}", "fix it")
        return value

    def number(
        self, table: Mapping[str, Any], key: str, default: float, low: float, high: float
    ) -> float:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise self.fail(key, f"must be a number {low}..{high}, not {value!r}", "fix it")
        return float(value)

    def choice(self, table: Mapping[str, Any], key: str, options: tuple[T, ...], default: T) -> T:
        value = table.get(key.rsplit(".", 1)[-1], default)
        if value not in options:
            listed = ", ".join(repr(o) for o in options)
            raise self.fail(key, f"is {value!r}", f"use one of {listed}")
        result: T = value
        return result

    def seat(self, raw: Mapping[str, Any], index: int) -> SeatConfig:
        where = f"seat[{index}]"
        self.known(raw, where, {"reader", "protocol", "buttons", "pixels", "bot"})
        reader = self.string(raw, f"{where}.reader", MOCK)
        protocol = self.choice(raw, f"{where}.protocol", READER_PROTOCOLS, "line")
        buttons_raw = raw.get("buttons")
        buttons: dict[str, int] | None = None
        if buttons_raw is not None:
            if not isinstance(buttons_raw, dict):
                raise self.fail(
                    f"{where}.buttons",
                    "must be a table",
                    "e.g. buttons = { prev = 5, ok = 6, next = 13 }",
                )
            buttons = {}
            for name in buttons_raw:
                if name not in BUTTON_NAMES:
                    raise self.fail(
                        f"{where}.buttons.{name}",
                        "is not a button name",
                        f"use {', '.join(BUTTON_NAMES)}",
                    )
                buttons[name] = self.integer(buttons_raw, f"{where}.buttons.{name}", 0, 0, 27)
            if len(set(buttons.values())) != len(buttons):
                raise self.fail(
                    f"{where}.buttons", "uses one GPIO pin twice", "give each its own pin"
                )
        pixels_raw = raw.get("pixels", [index * 8, index * 8 + 8])
        if (
            not isinstance(pixels_raw, list)
            or len(pixels_raw) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in pixels_raw)
            or not 0 <= pixels_raw[0] <= pixels_raw[1] <= 1024
        ):
            raise self.fail(
                f"{where}.pixels",
                f"must be [first, end] pixel numbers, not {pixels_raw!r}",
                "e.g. pixels = [0, 8] for the strip's first eight pixels",
            )
        return SeatConfig(
            index=index,
            reader=reader,
            protocol=protocol,
            buttons=buttons,
            pixels=(pixels_raw[0], pixels_raw[1]),
            bot=self.boolean(raw, f"{where}.bot", False),
        )


def all_button_pins(config: TableConfig) -> list[int]:
    """Every GPIO pin the configuration claims, to catch a pin given to two seats."""
    return [pin for seat in config.seats for pin in (seat.buttons or {}).values()]


def check(config: TableConfig, source: str = "table.toml") -> TableConfig:
    """Cross-seat checks that a single seat cannot see."""
    pins = all_button_pins(config)
    if config.timer is not None and config.timer.pin is not None:
        pins.append(config.timer.pin)
    duplicates = sorted({p for p in pins if pins.count(p) > 1})
    if duplicates:
        raise ConfigError(
            f"{source}: GPIO pin {duplicates[0]} is given to more than one button "
            "(seat buttons and the toss timer); give every button its own pin"
        )
    return config
