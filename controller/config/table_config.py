"""The table's configuration: a documented TOML file, all-simulated by default.

Nothing needs configuring to try the table: without a file every seat has a
mock reader, mock buttons and a mock LED segment, and the bundled simulated
deck. A bad file is refused with a ``ConfigError`` that names the key and says
how to fix it. ``docs/configuration.md`` documents every key; the example
``controller/samples/table.toml`` shows them all.
"""

from __future__ import annotations

import itertools
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.config.opening_hours import SleepWindow
from controller.config.reading import (
    ConfigError,
    Reader,
    listed_words,
    path_words,
    source_words,
    value_words,
)
from controller.games.base import TableError
from controller.games.words import Verbatim, as_arg, say
from controller.tags.staff_pin import PinError, PinHash
from controller.words.safe_text import one_line, shorten
from hardware.cues import Sound
from hardware.protocols import READER_PROTOCOLS

MOCK = "mock"
BUTTON_NAMES = ("prev", "ok", "next")
MIN_SEATS, MAX_SEATS = 2, 7
ROTATIONS = (0, 90, 180, 270)
# "neopixel" is the old name of "pwm" (GPIO18 through rpi_ws281x); both stay accepted.
LED_BACKENDS = (MOCK, "neopixel", "spi", "pi5", "pwm")

if TYPE_CHECKING:
    from controller.config.cafe import CafeSettings


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
    sleep: SleepWindow | None = None  # closing hours: screen and LEDs dark, any tap wakes
    # Cards travel, won tricks slide, scores count up (display/motion.py); false: still.
    motion: bool = True


@dataclass(frozen=True)
class SoundConfig:
    """The [sound] section: how loud, which sounds, when the table keeps quiet, where each seat is.

    ``quiet`` left out of the file follows ``[display] sleep`` (the read file
    holds the resolved window); ``pan`` places each seat's own sounds between
    the left (-1) and right (1) speaker, None: every sound from the middle.
    """

    volume: float = 0.7  # 0 turns sound off (the mixer is never opened)
    cues: frozenset[Sound] = frozenset(Sound)
    quiet: SleepWindow | None = None
    pan: tuple[float, ...] | None = None  # one value per seat, in seat order


@dataclass(frozen=True)
class JournalConfig:
    """Where the crash-safe journal may live, and how long it keeps finished games."""

    require_durable: bool = False  # refuse to start on tmpfs/overlay (SD-card protection)
    # Days a finished game stays in the journal (once its record file is written, and the
    # café's hub has it when there is one); then it leaves and its space is reused.
    retention: int = 183


@dataclass(frozen=True)
class StaffConfig:
    """The [staff] section: the staff PIN (hashed) and what it guards (docs/table.md)."""

    pin_hash: str | None = None  # None: no PIN, the staff tag alone opens staff powers
    undo_needs_pin: bool = False  # undo of the last action stays PIN-free unless this is set
    tries: int = 3  # wrong PIN entries in a row before the PIN locks
    lockout: float = 300.0  # seconds the PIN stays locked


@dataclass(frozen=True)
class LedConfig:
    backend: str = MOCK  # "mock" (records frames), "spi", "pi5" or "pwm" (alias "neopixel")
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
class GameHouseRules:
    """A café's house rules for one game ([games.<game id>]): option defaults, hidden options.

    ``defaults`` replace the rulebook's defaults on the options screen (a preset
    chosen there still wins); ``hidden`` options are not shown and keep the house
    (or rulebook) value.
    """

    defaults: Mapping[str, Any] = field(default_factory=dict)
    hidden: tuple[str, ...] = ()


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
    # The table's language ("en", "de", "ja"): the shared centre's, and every seat's
    # until a seat switches its own panel at the join screen.
    language: str = "en"
    timer: TimerConfig | None = None  # the toss timer, if the table has one
    cafe: CafeSettings | None = None  # the café's broker ([cafe]); None: a table on its own
    staff: StaffConfig = field(default_factory=StaffConfig)
    games: Mapping[str, GameHouseRules] = field(default_factory=dict)  # by game id
    journal: JournalConfig = field(default_factory=JournalConfig)
    bots: BotConfig = field(default_factory=BotConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)

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
    problem = path_words(str(path))
    file = Verbatim(one_line(str(path)))
    if problem is not None:
        raise ConfigError(
            say("{file}: no file can have that name ({problem})", file=file, problem=problem)
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            say(
                "{file}: no such file; leave out --config to use the all-simulated table",
                file=file,
            )
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            say(
                "{file}: not valid TOML ({problem}); fix the syntax there",
                file=file,
                problem=Verbatim(one_line(str(exc))),
            )
        ) from None
    except IsADirectoryError:
        raise ConfigError(
            say("{file}: is a folder; give --config the table.toml file", file=file)
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            say(
                "{file}: is not UTF-8 text (byte {byte} at position {position}); save it as UTF-8",
                file=file,
                byte=Verbatim(f"0x{exc.object[exc.start]:02x}"),
                position=Verbatim(str(exc.start)),
            )
        ) from None
    except OSError as exc:
        raise ConfigError(
            say(
                "{file}: cannot read it ({problem})",
                file=file,
                problem=Verbatim(one_line(str(exc.strerror or exc))),
            )
        ) from None
    except RecursionError:
        raise ConfigError(
            say(
                "{file}: arrays or tables nest too deep to read; table.toml needs no nesting "
                "deeper than [[seat]] buttons",
                file=file,
            )
        ) from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        reason = str(exc).split(";")[0]  # drop Python's advice to raise the limit
        raise ConfigError(
            say(
                "{file}: a value cannot be read ({problem})",
                file=file,
                problem=Verbatim(one_line(shorten(reason, 100))),
            )
        ) from None
    return parse(data, path.name, base=path.parent)


def _language(reader: Reader, table: Mapping[str, Any]) -> str:
    """``[table] language``: one the table has catalogs for, named in its own words."""
    from controller.words.catalogs import LANGUAGE_NAMES, LANGUAGES

    value = table.get("language", "en")
    if value not in LANGUAGES:
        listed = ", ".join(f'"{code}" ({LANGUAGE_NAMES[code]})' for code in LANGUAGES)
        raise reader.fail(
            "table.language",
            say("is {value}, a language this table lacks", value=value_words(value)),
            say("use {choices}", choices=Verbatim(listed)),
        )
    return str(value)


def parse(data: Mapping[str, Any], source: str = "table.toml", base: Path = Path()) -> TableConfig:
    """Check a parsed TOML document and build the configuration."""
    reader = Reader(source)
    reader.known(
        data,
        "",
        {
            "table",
            "display",
            "leds",
            "tags",
            "timer",
            "seat",
            "cafe",
            "staff",
            "games",
            "journal",
            "bots",
            "sound",
        },
    )
    table = reader.table(data, "table")
    reader.known(table, "table", {"records", "deal", "dice", "language"})
    records = Path(reader.path(table, "table.records", "records"))
    deal = reader.choice(table, "table.deal", ("virtual", "physical"), "virtual")
    dice = reader.choice(table, "table.dice", ("virtual", "manual"), "virtual")
    language = _language(reader, table)

    display_t = reader.table(data, "display")
    reader.known(
        display_t, "display", {"width", "height", "rotation", "fullscreen", "sleep", "motion"}
    )
    display = DisplayConfig(
        width=reader.integer(display_t, "display.width", 1280, 320, 7680),
        height=reader.integer(display_t, "display.height", 720, 240, 4320),
        rotation=reader.choice(display_t, "display.rotation", ROTATIONS, 0),
        fullscreen=reader.boolean(display_t, "display.fullscreen", False),
        sleep=_sleep(reader, display_t),
        motion=reader.boolean(display_t, "display.motion", True),
    )
    journal_t = reader.table(data, "journal")
    reader.known(journal_t, "journal", {"require_durable", "retention"})
    journal = JournalConfig(
        require_durable=reader.boolean(journal_t, "journal.require_durable", False),
        retention=reader.integer(journal_t, "journal.retention", 183, 1, 36_500),
    )

    leds_t = reader.table(data, "leds")
    reader.known(leds_t, "leds", {"backend", "data_pin", "brightness"})
    leds = LedConfig(
        backend=reader.choice(leds_t, "leds.backend", LED_BACKENDS, MOCK),
        data_pin=reader.string(leds_t, "leds.data_pin", "D18"),
        brightness=reader.number(leds_t, "leds.brightness", 0.3, 0.0, 1.0),
    )

    timer = _timer(reader, data)
    games = _games(reader, data)

    bots_t = reader.table(data, "bots")
    reader.known(bots_t, "bots", {"think"})
    bots = BotConfig(think=reader.number(bots_t, "bots.think", 0.3, 0.01, 10.0))

    tags_t = reader.table(data, "tags")
    reader.known(tags_t, "tags", {"registry"})
    registry = tags_t.get("registry")
    tags = None if registry is None else base / reader.path(tags_t, "tags.registry", "")
    if tags is not None and tags.is_dir():
        raise reader.fail(
            "tags.registry",
            say("names a folder ({folder})", folder=value_words(str(tags))),
            say('name the registry file, e.g. registry = "tags.json"'),
        )

    seats_raw = data.get("seat")
    if seats_raw is None:
        seats = TableConfig.simulated().seats
    else:
        if not isinstance(seats_raw, list) or not all(isinstance(s, dict) for s in seats_raw):
            raise ConfigError(
                say(
                    "{source}: seats are written as [[seat]] tables, one per seat",
                    source=source_words(source),
                )
            )
        if not MIN_SEATS <= len(seats_raw) <= MAX_SEATS:
            raise ConfigError(
                say(
                    "{source}: the table has {count} [[seat]] entries; give {low} to {high}",
                    source=source_words(source),
                    count=len(seats_raw),
                    low=MIN_SEATS,
                    high=MAX_SEATS,
                )
            )
        seats = tuple(_seat(reader, raw, i) for i, raw in enumerate(seats_raw))
    _check_pixels(seats, source)
    cafe = None
    if "cafe" in data:
        # Imported only for a table of a café: the fleet's reader builds on this module's.
        from controller.config.cafe import parse_cafe

        cafe = parse_cafe(data, source, base)
    config = TableConfig(
        cafe=cafe,
        seats=seats,
        display=display,
        leds=leds,
        tags=tags,
        records=base / records,
        deal=deal,
        dice=dice,
        language=language,
        timer=timer,
        staff=_staff(reader, data, source),
        games=games,
        journal=journal,
        sound=_sound(reader, data, display, len(seats)),
        bots=bots,
    )
    return check(config, source)


def _staff(reader: Reader, data: Mapping[str, Any], source: str) -> StaffConfig:
    """The [staff] section: the PIN is only ever stored hashed."""
    staff_t = reader.table(data, "staff")
    if "pin" in staff_t:
        raise ConfigError(
            say(
                "{source}: [staff] pin would keep the PIN in clear; remove it and run "
                "cafe-table staff set-pin --config FILE, which writes pin_hash",
                source=source_words(source),
            )
        )
    reader.known(staff_t, "staff", {"pin_hash", "undo_needs_pin", "tries", "lockout"})
    raw = staff_t.get("pin_hash")
    pin_hash = None if raw is None else reader.string(staff_t, "staff.pin_hash", "")
    if pin_hash is not None:
        try:
            PinHash.parse(pin_hash)
        except PinError as exc:
            raise ConfigError(
                say(
                    "{source}: [staff] {problem}", source=Verbatim(source), problem=as_arg(exc.text)
                )
            ) from None
    return StaffConfig(
        pin_hash=pin_hash,
        undo_needs_pin=reader.boolean(staff_t, "staff.undo_needs_pin", False),
        tries=reader.integer(staff_t, "staff.tries", 3, 1, 20),
        lockout=reader.number(staff_t, "staff.lockout", 300.0, 10.0, 86400.0),
    )


def _games(reader: Reader, data: Mapping[str, Any]) -> dict[str, GameHouseRules]:
    """The [games.<game id>] sections: house defaults and hidden options, checked per game."""
    from controller.games import specs  # the games' options say what is valid

    known = specs()
    out: dict[str, GameHouseRules] = {}
    for game_id, raw in reader.table(data, "games").items():
        where = f"games.{game_id}"
        if game_id not in known:
            raise reader.fail(
                where,
                say("is not a game the table knows"),
                say("use {choices}", choices=listed_words(list(known))),
            )
        if not isinstance(raw, dict):
            raise reader.fail(
                where,
                say("must be a table"),
                say("write it as {section}", section=Verbatim(f"[{where}]")),
            )
        reader.known(raw, where, {"defaults", "hidden"})
        spec = known[game_id]
        defaults = reader.table(raw, "defaults")
        try:
            spec.check_options(defaults)
        except TableError as exc:
            raise reader.fail(
                f"{where}.defaults",
                say("is refused: {problem}", problem=as_arg(exc.text)),
                say("fix the value"),
            ) from None
        hidden = raw.get("hidden", [])
        keys = [o.key for o in spec.options]
        if not isinstance(hidden, list) or any(h not in keys for h in hidden):
            if keys:
                fix = say(
                    "{game}'s options are: {options}",
                    game=as_arg(spec.title),
                    options=listed_words(keys),
                )
            else:
                fix = say("{game} has no options", game=as_arg(spec.title))
            raise reader.fail(
                f"{where}.hidden",
                say("must list option names, not {value}", value=value_words(hidden)),
                fix,
            )
        out[game_id] = GameHouseRules(dict(defaults), tuple(hidden))
    return out


def _sleep(reader: Reader, display_t: Mapping[str, Any]) -> SleepWindow | None:
    """[display] sleep = "02:00-10:00": the hours the table sleeps (absent: never)."""
    if "sleep" not in display_t:
        return None
    return _window(reader, "display.sleep", reader.string(display_t, "display.sleep", ""))


def _window(reader: Reader, key: str, text: str) -> SleepWindow:
    """A daily window of hours, ``"02:00-10:00"``; a bad one names ``key`` and the fix."""
    try:
        return SleepWindow.parse(text)
    except ValueError as exc:
        raise reader.fail(
            key,
            say("is {value} ({problem})", value=value_words(text), problem=Verbatim(str(exc))),
            say('write e.g. "02:00-10:00"'),
        ) from None


def _sound(
    reader: Reader, data: Mapping[str, Any], display: DisplayConfig, seats: int
) -> SoundConfig:
    """The [sound] section: volume, the cues that play, quiet hours, each seat's pan."""
    sound_t = reader.table(data, "sound")
    reader.known(sound_t, "sound", {"volume", "cues", "quiet", "pan"})
    names = [s.value for s in Sound]
    listed = sound_t.get("cues", names)
    if not isinstance(listed, list) or any(name not in names for name in listed):
        raise reader.fail(
            "sound.cues",
            say("is {value}", value=value_words(listed)),
            say(
                "list the sounds that play, from: {names} (an empty list [] plays none)",
                names=listed_words(names),
            ),
        )
    quiet = display.sleep
    if "quiet" in sound_t:
        text = reader.string(sound_t, "sound.quiet", "never")
        quiet = None if text == "never" else _window(reader, "sound.quiet", text)
    pan = sound_t.get("pan")
    if pan is not None and (
        not isinstance(pan, list)
        or len(pan) != seats
        or any(isinstance(p, bool) or not isinstance(p, int | float) or abs(p) > 1 for p in pan)
    ):
        raise reader.fail(
            "sound.pan",
            say("is {value}", value=value_words(pan)),
            say(
                "give one number per seat ({seats} in all), from -1 (left speaker) "
                "to 1 (right speaker)",
                seats=Verbatim(str(seats)),
            ),
        )
    return SoundConfig(
        volume=reader.number(sound_t, "sound.volume", 0.7, 0.0, 1.0),
        cues=frozenset(Sound(name) for name in listed),
        quiet=quiet,
        pan=None if pan is None else tuple(float(p) for p in pan),
    )


def _timer(reader: Reader, data: Mapping[str, Any]) -> TimerConfig | None:
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


# Linux's limits (NAME_MAX, PATH_MAX): a longer name fails only when used, as a traceback.
def _check_readers(seats: tuple[SeatConfig, ...], source: str) -> None:
    """Two seats cannot share one reader port, however the path is spelled."""
    claimed: dict[str, SeatConfig] = {}
    for seat in seats:
        if seat.reader == MOCK:
            continue
        # realpath: "/dev/../dev/ttyUSB0" and a /dev/serial/by-id link are that port too.
        port = os.path.realpath(seat.reader)
        other = claimed.get(port)
        if other is not None:
            keys = {
                "source": source_words(source),
                "first": Verbatim(f"seat[{seat.index}].reader"),
                "second": Verbatim(f"seat[{other.index}].reader"),
                "port": value_words(port),
            }
            if other.reader == seat.reader:
                raise ConfigError(
                    say(
                        "{source}: {first} and {second} are the same port {port}; "
                        "give each seat its own reader",
                        **keys,
                    )
                )
            raise ConfigError(
                say(
                    "{source}: {first} and {second} are the same port {port} (as {one} and "
                    "{other}); give each seat its own reader",
                    one=value_words(other.reader),
                    other=value_words(seat.reader),
                    **keys,
                )
            )
        claimed[port] = seat


def _check_pixels(seats: tuple[SeatConfig, ...], source: str) -> None:
    ranges = sorted((s.pixels, s.index) for s in seats if s.pixels[1] > s.pixels[0])
    for first, second in itertools.pairwise(ranges):
        if second[0][0] < first[0][1]:
            raise ConfigError(
                say(
                    "{source}: {second} overlaps {first}; give each seat its own pixel range",
                    source=source_words(source),
                    second=Verbatim(f"seat[{second[1]}].pixels"),
                    first=Verbatim(f"seat[{first[1]}].pixels"),
                )
            )


def _seat(reader_: Reader, raw: Mapping[str, Any], index: int) -> SeatConfig:
    """One ``[[seat]]`` table, checked."""
    where = f"seat[{index}]"
    reader_.known(raw, where, {"reader", "protocol", "buttons", "pixels", "bot"})
    reader = reader_.path(raw, f"{where}.reader", MOCK)
    protocol = reader_.choice(raw, f"{where}.protocol", READER_PROTOCOLS, "line")
    buttons_raw = raw.get("buttons")
    buttons: dict[str, int] | None = None
    if buttons_raw is not None:
        if not isinstance(buttons_raw, dict):
            raise reader_.fail(
                f"{where}.buttons",
                say("must be a table"),
                say(
                    "e.g. {example}",
                    example=Verbatim("buttons = { prev = 5, ok = 6, next = 13 }"),
                ),
            )
        buttons = {}
        for name in buttons_raw:
            if name not in BUTTON_NAMES:
                raise reader_.fail(
                    f"{where}.buttons.{name}",
                    say("is not a button name"),
                    say("use {choices}", choices=listed_words(list(BUTTON_NAMES))),
                )
            buttons[name] = reader_.integer(buttons_raw, f"{where}.buttons.{name}", 0, 0, 27)
        if len(set(buttons.values())) != len(buttons):
            raise reader_.fail(
                f"{where}.buttons", say("uses one GPIO pin twice"), say("give each its own pin")
            )
    pixels_raw = raw.get("pixels", [index * 8, index * 8 + 8])
    if (
        not isinstance(pixels_raw, list)
        or len(pixels_raw) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in pixels_raw)
        or not 0 <= pixels_raw[0] <= pixels_raw[1] <= 1024
    ):
        raise reader_.fail(
            f"{where}.pixels",
            say("must be [first, end] pixel numbers, not {value}", value=value_words(pixels_raw)),
            say("e.g. pixels = [0, 8] for the strip's first eight pixels"),
        )
    return SeatConfig(
        index=index,
        reader=reader,
        protocol=protocol,
        buttons=buttons,
        pixels=(pixels_raw[0], pixels_raw[1]),
        bot=reader_.boolean(raw, f"{where}.bot", False),
    )


def all_button_pins(config: TableConfig) -> list[int]:
    """Every GPIO pin the configuration claims, to catch a pin given to two seats."""
    return [pin for seat in config.seats for pin in (seat.buttons or {}).values()]


def check(config: TableConfig, source: str = "table.toml") -> TableConfig:
    """Cross-seat checks that a single seat cannot see."""
    _check_readers(config.seats, source)
    pins = all_button_pins(config)
    if config.timer is not None and config.timer.pin is not None:
        pins.append(config.timer.pin)
    duplicates = sorted({p for p in pins if pins.count(p) > 1})
    if duplicates:
        raise ConfigError(
            say(
                "{source}: GPIO pin {pin} is given to more than one button "
                "(seat buttons and the toss timer); give every button its own pin",
                source=source_words(source),
                pin=Verbatim(str(duplicates[0])),
            )
        )
    return config
