"""``python -m controller doctor``: check a real table, one line per check with the fix.

Run it on the table's Pi with the kiosk stopped (it needs the screen, the
serial ports and the LED strip for itself)::

    sudo systemctl stop cafe-table
    sudo -u cafe-table /opt/cafe-table/venv/bin/cafe-table doctor \
        --config /etc/cafe-table/table.toml

Each check prints ``ok``, or ``FAIL`` followed by what is wrong and what to do.
The exit status is 0 when every check passes, 1 when one fails, 2 when the
configuration itself cannot be read. Everything the checks look at on the
machine (the SDL drivers, the mount table, the user's groups, /dev) goes
through ``Machine``, so the tests can hand in a broken machine.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import grp
import os
import queue
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from controller.config.reading import ConfigError
from controller.config.table_config import MOCK, TableConfig, load
from controller.games.words import Items, Seat, Text, Verbatim, Words, as_arg, say, say_plural
from controller.records.durable import describe
from controller.records.journal import Journal, JournalError, default_path
from controller.words import Presenter
from controller.words import terminal as terminal_words
from hardware.errors import HardwareError, ReaderUnavailable
from hardware.events import Offline
from hardware.port_names import is_plug_order_name, stable_port_name

MIN_FREE_BYTES = 200 * 1024 * 1024
"""Free space the records folder should have: years of games, and room for apt upgrades."""

SLOW_FSYNC = 0.5
"""Seconds one fsync may take before the journal would make taps feel late."""


ENGLISH = Presenter()


@dataclass(frozen=True)
class Result:
    """One check's outcome: a line for the owner, and the fix when it failed.

    The words are messages, written in the run's language by ``line``.
    """

    name: Words
    ok: bool
    detail: Words
    fix: Words = ""

    def line(self, present: Presenter = ENGLISH) -> str:
        """The printed line: a status column, then the check, what was found and the fix."""
        if self.ok:
            status = present(say("ok"))
            text = say("{check}: {detail}", check=as_arg(self.name), detail=as_arg(self.detail))
        else:
            status = present(say("FAIL"))
            text = say(
                "{check}: {detail} -> {fix}",
                check=as_arg(self.name),
                detail=as_arg(self.detail),
                fix=as_arg(self.fix),
            )
        # The status is a column as wide as the language's longer status and two spaces
        # ("ok    " / "FAIL  " in English), so the checks' names line up in any language.
        statuses = (present(say("ok")), present(say("FAIL")))
        width = 2 + max(terminal_words.columns(word) for word in statuses)
        return terminal_words.pad(status, width) + present(text)


# --- what the checks look at -----------------------------------------------------


def _sdl_library_path() -> str | None:
    """The file of the libSDL2 that pygame loaded into this process, if it can be told."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep stdout to our lines
    import pygame  # noqa: F401  (loads the library we are looking for)

    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8")
    except OSError:
        return ctypes.util.find_library("SDL2")
    for line in maps.splitlines():
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        # libSDL2-2.0.so.0 (Debian), libSDL2-2-1667c208.0.so... (wheels); not SDL2_image & co.
        if re.match(r"libSDL2(-2\.0)?([-.]|$)", os.path.basename(path)):
            return path
    return ctypes.util.find_library("SDL2")


def sdl_video_drivers() -> list[str]:
    """The video drivers compiled into the SDL that pygame uses, asked of SDL itself.

    Asking ``SDL_GetNumVideoDrivers``/``SDL_GetVideoDriver`` is the only
    reliable test: opening ``SDL_VIDEODRIVER=kmsdrm`` fails with the same
    "kmsdrm not available" whether the driver is missing or /dev/dri is.
    """
    path = _sdl_library_path()
    if path is None:
        raise OSError("cannot find the SDL2 library that pygame loaded")
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetNumVideoDrivers.restype = ctypes.c_int
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    sdl.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    names = (sdl.SDL_GetVideoDriver(i) for i in range(sdl.SDL_GetNumVideoDrivers()))
    return [name.decode("ascii") for name in names if name]


def kmsdrm_modes() -> list[tuple[int, int]]:
    """The screen modes SDL's KMSDRM driver offers (needs /dev/dri and no other DRM master)."""
    import pygame

    previous = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    try:
        pygame.display.init()
        modes: object = pygame.display.list_modes()  # -1 means "any size"
        if not isinstance(modes, list):
            return []
        return [(int(w), int(h)) for w, h in modes]
    finally:
        pygame.display.quit()
        if previous is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = previous


SERVICE_RENDERER = "opengles2"
"""The renderer the service sets (``SDL_RENDER_DRIVER`` in deploy/cafe-table.service)."""

TEST_FRAME = (64, 48)
"""The doctor's test frame: left half red, right half blue."""


def sdl_render_drivers() -> list[str]:
    """SDL's renderers, in the order SDL tries them when ``SDL_RENDER_DRIVER`` is unset."""
    from pygame._sdl2 import video

    return [driver.name for driver in video.get_drivers()]


def sdl_test_frame(driver: str) -> str | None:
    """Draw a two-colour test frame with SDL's renderer ``driver`` in a hidden window and
    read it back: None when what came back is what was drawn, else why not.

    A renderer can start and still draw nothing (desktop OpenGL under Mesa without
    libGL: "unsupported function called", a black screen): only the pixels read back
    tell. The video driver is SDL's own choice (KMSDRM on a Pi without a desktop).
    """
    import pygame
    from pygame._sdl2 import video

    red, blue = (255, 0, 0, 255), (0, 0, 255, 255)
    width, height = TEST_FRAME
    window = None
    try:
        pygame.display.init()
        names = sdl_render_drivers()
        if driver not in names:
            return f"SDL has no {driver!r} renderer (only {', '.join(names)})"
        window = video.Window("cafe-table test frame", size=TEST_FRAME, hidden=True)
        renderer = video.Renderer(window, index=names.index(driver))
        renderer.draw_color = red
        renderer.clear()
        renderer.draw_color = blue
        renderer.fill_rect((width // 2, 0, width - width // 2, height))
        renderer.present()
        frame = renderer.to_surface()
        left = tuple(frame.get_at((width // 4, height // 2)))
        right = tuple(frame.get_at((3 * width // 4, height // 2)))
    # pygame's _sdl2 raises its own error (a RuntimeError), not pygame.error.
    except (pygame.error, RuntimeError) as exc:
        return str(exc) or "SDL gave no reason"
    finally:
        if window is not None:
            window.destroy()
        pygame.display.quit()
    if (left, right) != (red, blue):
        return f"it drew red and blue, and {left[:3]} and {right[:3]} came back"
    return None


def _user_groups() -> set[str]:
    names = set()
    for gid in {os.getgid(), *os.getgroups()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return names


def _pin_factory_name() -> str:
    from gpiozero import Device

    factory = Device.ensure_pin_factory()
    return str(type(factory).__name__)


def _read_timer_pin(pin: int) -> Words:
    from gpiozero import Button

    with Button(pin, pull_up=True) as button:
        if button.is_pressed:
            return say("pressed (or the Jack rests on the pad)")
        return say("released")


READER_WAIT = 3.0
"""Seconds a reader may take to come online (our reader board's link handshake)."""


def _probe_reader(seat: int, path: str, protocol: str) -> Words:
    """Open the seat's reader through the table's own reader code and wait for it to come
    online; its first words if it does, an exception with the reason if not."""
    from hardware.events import InputEvent, ReaderOffline, ReaderOnline, ReaderProblem
    from hardware.reader_factory import reader_for

    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    reader = reader_for(seat, path, protocol, events, supervise=False)
    reader.open()  # ReaderUnavailable (a HardwareError) says why it does not open
    try:
        deadline = time.monotonic() + READER_WAIT
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(event, ReaderOnline):
                return say("online ({protocol} protocol)", protocol=Verbatim(protocol))
            if isinstance(event, ReaderOffline):
                raise ReaderUnavailable(event.reason, event.kind)
            if isinstance(event, ReaderProblem):
                raise OSError(event.message)
        raise ReaderUnavailable(
            f"opened, but no word from it in {READER_WAIT:.0f} s", Offline.SILENT
        )
    finally:
        reader.close()


def _reader_trouble(exc: Exception) -> Text | Verbatim:
    """Why a reader did not come online, in the run's language where the kind is known.

    A ``ReaderUnavailable``'s own text is the hardware's English staff-log line,
    which counts seats from 0: the check's line names the seat already.
    """
    if not isinstance(exc, ReaderUnavailable):
        return Verbatim(str(exc))
    said: dict[str, Text | Verbatim] = {
        Offline.MISSING: say("the port is not there"),
        Offline.BUSY: say("another program holds the port"),
        Offline.DENIED: say("permission denied"),
        Offline.SILENT: say("opened, but the reader says nothing"),
    }
    cause = exc.__cause__  # the system's own error, without the hardware's English around it
    return said.get(exc.kind, Verbatim(str(cause if cause is not None else exc)))


def _font_file() -> Path:
    import pygame

    return Path(pygame.__file__).parent / pygame.font.get_default_font()


# The Noto fonts the display draws every language with (display/theme.py's FONT_FILES;
# the controller does not import the display, and tests/test_doctor.py keeps the two equal).
NOTO_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),
    Path("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
)


def _missing_noto() -> list[Path]:
    return [path for path in NOTO_FONTS if not path.is_file()]


def _look(prompt: str) -> bool | None:
    """Ask the person at the table; None when nobody can answer (no terminal)."""
    if not sys.stdin.isatty():
        return None
    answer = input(f"{prompt} [Y/n] ").strip().lower()
    return answer in ("", "y", "yes", "j", "ja", "はい")  # English, German, Japanese yes


@dataclass
class Machine:
    """The machine as the checks see it; every part can be replaced in tests."""

    video_drivers: Callable[[], list[str]] = sdl_video_drivers
    display_modes: Callable[[], list[tuple[int, int]]] = kmsdrm_modes
    render_drivers: Callable[[], list[str]] = sdl_render_drivers
    test_frame: Callable[[str], str | None] = sdl_test_frame
    groups: Callable[[], set[str]] = _user_groups
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0
    dev: Path = Path("/dev")
    mountinfo: str | None = None  # None: /proc/self/mountinfo
    pin_factory: Callable[[], str] = _pin_factory_name
    read_timer_pin: Callable[[int], Words] = _read_timer_pin
    probe_reader: Callable[[int, str, str], Words] = _probe_reader
    open_strip: Callable[[TableConfig], object] | None = None  # None: the configured backend
    look: Callable[[str], bool | None] = _look
    pause: Callable[[float], None] = time.sleep
    font_file: Callable[[], Path] = _font_file
    missing_noto: Callable[[], list[Path]] = _missing_noto
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    present: Presenter = ENGLISH  # the run's language, for the question ``look`` asks


# --- the checks -----------------------------------------------------------------


def _real_readers(config: TableConfig) -> list[tuple[int, str]]:
    return [(s.index, s.reader) for s in config.seats if s.reader != MOCK]


def _protocol(config: TableConfig, seat: int) -> str:
    return next(s.protocol for s in config.seats if s.index == seat)


def _real_pins(config: TableConfig) -> list[int]:
    pins = [p for s in config.seats for p in (s.buttons or {}).values()]
    if config.timer is not None and config.timer.pin is not None:
        pins.append(config.timer.pin)
    return pins


def check_display(config: TableConfig, machine: Machine) -> Result:
    """KMSDRM in pygame's SDL; on a fullscreen table also a mode of the configured size."""
    name = say("display")
    try:
        drivers = machine.video_drivers()
    except Exception as exc:  # a broken pygame install raises anything from ImportError on
        problem = say("cannot ask SDL for its drivers ({problem})", problem=Verbatim(str(exc)))
        return Result(name, False, problem, _REINSTALL)
    listed = Verbatim(", ".join(drivers))
    # SDL calls it "KMSDRM"; SDL_VIDEODRIVER matches names without regard to case.
    if "kmsdrm" not in (driver.lower() for driver in drivers):
        if not config.display.fullscreen:
            detail = say(
                "windowed; SDL has {drivers} (no KMSDRM: fine on a desktop)", drivers=listed
            )
            return Result(name, True, detail)
        return Result(
            name,
            False,
            say(
                "pygame's SDL has no KMSDRM driver (only {drivers}): no picture without a desktop",
                drivers=listed,
            ),
            say(
                "install pygame-ce in place of pygame: "
                "sudo deploy/install.sh (docs/raspberry-pi.md)"
            ),
        )
    if not config.display.fullscreen:
        return Result(
            name, True, say("windowed; SDL has {drivers} (KMSDRM included)", drivers=listed)
        )
    cards = sorted(machine.dev.glob("dri/card*"))
    if not cards:
        return Result(
            name,
            False,
            say("KMSDRM is there but there is no /dev/dri/card*"),
            say(
                "turn on the KMS driver: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, reboot"
            ),
        )
    try:
        modes = machine.display_modes()
    except Exception as exc:  # pygame.error: busy, no screen plugged in...
        return Result(
            name,
            False,
            say("KMSDRM cannot open the screen ({problem})", problem=Verbatim(str(exc))),
            say(
                "plug the screen in before booting, and stop the kiosk: "
                "sudo systemctl stop cafe-table"
            ),
        )
    width, height = config.display.width, config.display.height
    if config.display.rotation in (90, 270):
        width, height = height, width
    wanted = (width, height)
    if modes and wanted not in modes:
        offered = ", ".join(f"{w}x{h}" for w, h in modes[:6])
        return Result(
            name,
            False,
            say(
                "the screen offers {offered}, not {size}",
                offered=Verbatim(offered),
                size=Verbatim(f"{width}x{height}"),
            ),
            say("set [display] width and height to one of those in table.toml"),
        )
    detail = say_plural(
        "KMSDRM, {size} available ({n} mode)",
        "KMSDRM, {size} available ({n} modes)",
        len(modes),
        size=Verbatim(f"{width}x{height}"),
    )
    return Result(name, True, detail)


_REINSTALL = say("reinstall: sudo deploy/install.sh")


def check_groups(config: TableConfig, machine: Machine) -> Result:
    """The user is in every group the configured devices need."""
    name = say("groups")
    needed: dict[str, Words] = {}
    if config.display.fullscreen:
        screen = say("the screen")
        needed.update(video=screen, render=screen, input=say("touch and keys"))
    if _real_readers(config):
        needed["dialout"] = say("the seat readers")
    if _real_pins(config):
        needed["gpio"] = say("the buttons")
    if config.leds.backend == "spi":
        needed["spi"] = say("the LEDs")
    if config.leds.backend == "pi5":
        needed["gpio"] = say("the LEDs")
    if machine.is_root():
        return Result(name, True, say("running as root (the service runs as cafe-table)"))
    missing = sorted(set(needed) - machine.groups())
    if not missing:
        if not needed:
            return Result(name, True, say("none needed on a simulated table"))
        return Result(name, True, ", ".join(sorted(needed)))  # group names
    why = [
        say("{group} ({purpose})", group=Verbatim(g), purpose=as_arg(needed[g])) for g in missing
    ]
    user = machine.environ.get("USER") or "cafe-table"
    return Result(
        name,
        False,
        say("not in {groups}", groups=Items(tuple(why))),
        say(
            "{command}, then log in again",
            command=Verbatim(f"sudo usermod -aG {','.join(missing)} {user}"),
        ),
    )


def check_devices(config: TableConfig, machine: Machine) -> Result:
    """The device files the configuration uses can be read and written."""
    wanted: list[tuple[Path, str]] = []
    if config.display.fullscreen:
        wanted += [(card, "video") for card in sorted(machine.dev.glob("dri/card*"))]
    if _real_pins(config):
        wanted += [(chip, "gpio") for chip in sorted(machine.dev.glob("gpiochip*"))]
    if config.leds.backend == "spi":
        wanted.append((machine.dev / "spidev0.0", "spi"))
    if config.leds.backend == "pi5":
        wanted.append((machine.dev / "pio0", "gpio"))
    denied = []
    for path, group in wanted:
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            denied.append((path, group))
    missing = [p for p, _ in wanted if not p.exists()]
    name = say("devices")
    if config.leds.backend == "spi" and machine.dev / "spidev0.0" in missing:
        return Result(
            name,
            False,
            say(
                "{file} is missing, so the SPI LEDs cannot work",
                file=Verbatim(str(machine.dev / "spidev0.0")),
            ),
            say("enable SPI: sudo raspi-config nonint do_spi 0, then reboot"),
        )
    if config.leds.backend == "pi5" and machine.dev / "pio0" in missing:
        return Result(
            name,
            False,
            say(
                "{file} is missing, so the Pi 5 LEDs cannot work",
                file=Verbatim(str(machine.dev / "pio0")),
            ),
            say("update the kernel: sudo apt-get full-upgrade, then reboot"),
        )
    if denied:
        listed = Verbatim(", ".join(str(p) for p, _ in denied))
        return Result(
            name,
            False,
            say("no read/write permission on {files}", files=listed),
            say("install the udev rules and groups: sudo deploy/install.sh, then reboot"),
        )
    if not wanted:
        return Result(name, True, say("no device files needed on a simulated table"))
    detail = say_plural(
        "{n} device file readable and writable",
        "{n} device files readable and writable",
        len(wanted),
    )
    return Result(name, True, detail)


def check_pin_factory(config: TableConfig, machine: Machine) -> Result:
    """gpiozero finds a real pin factory (lgpio on a Pi 4 and Pi 5)."""
    check = say("pin factory")
    if not _real_pins(config):
        return Result(check, True, say("buttons and timer simulated (gpiozero MockFactory)"))
    try:
        name = machine.pin_factory()
    except Exception as exc:  # gpiozero raises BadPinFactory, ImportError, OSError...
        return Result(
            check,
            False,
            say("gpiozero cannot reach the GPIO pins ({problem})", problem=Verbatim(str(exc))),
            say("install lgpio (sudo deploy/install.sh) and set GPIOZERO_PIN_FACTORY=lgpio"),
        )
    if name == "MockFactory":
        return Result(
            check,
            False,
            say("gpiozero uses its MockFactory: the buttons would never press"),
            say("unset GPIOZERO_PIN_FACTORY=mock; use GPIOZERO_PIN_FACTORY=lgpio"),
        )
    return Result(check, True, name)  # a class name: never translated


def check_readers(config: TableConfig, machine: Machine) -> list[Result]:
    """Every configured reader's serial port opens (a missing one is reported, not fatal)."""
    readers = _real_readers(config)
    if not readers:
        return [Result(say("readers"), True, say("all seats simulated"))]
    results = []
    for seat, path in readers:
        name = say("reader of {seat}", seat=Seat(seat))
        if not Path(path).exists() and is_plug_order_name(path):
            results.append(_plug_order_result(name, path))  # re-enumerated, most likely
            continue
        if not Path(path).exists():
            results.append(
                Result(
                    name,
                    False,
                    say(
                        "{path} is not there (unplugged, or the name changed)",
                        path=Verbatim(path),
                    ),
                    say("plug it in, or run `cafe-table assign-readers` and fix [[seat]] reader"),
                )
            )
            continue
        try:
            state = machine.probe_reader(seat, path, _protocol(config, seat))
        except Exception as exc:  # ReaderUnavailable, OSError, serial.SerialException...
            results.append(
                Result(
                    name,
                    False,
                    say(
                        "{path} does not answer ({problem})",
                        path=Verbatim(path),
                        problem=_reader_trouble(exc),
                    ),
                    say(
                        "check [[seat]] protocol, the dialout group and the udev rules "
                        "(deploy/install.sh); stop the kiosk, which holds the port"
                    ),
                )
            )
            continue
        detail = say("{path}: {state}", path=Verbatim(path), state=as_arg(state))
        if is_plug_order_name(path):
            # It answers today; after a replug or a reboot the number may be another's.
            results.append(_plug_order_result(name, path))
        else:
            results.append(Result(name, True, detail))
    return results


def _plug_order_result(name: Words, path: str) -> Result:
    """A reader named /dev/ttyACMn or /dev/ttyUSBn: the fix names it by its board."""
    stable = stable_port_name(path)
    fix = (
        say("name it by its board in [[seat]] reader: {name}", name=Verbatim(f'"{stable}"'))
        if stable != path
        else say("run `cafe-table assign-readers` and use the name it prints in [[seat]] reader")
    )
    return Result(
        name,
        False,
        say(
            "{path} is numbered in plug order: after a replug or a reboot it may be another "
            "board, or none",
            path=Verbatim(path),
        ),
        fix,
    )


def check_leds(config: TableConfig, machine: Machine) -> Result:
    """The LED backend opens and shows a short test pattern (each seat green in turn)."""
    backend = config.leds.backend
    name = say("leds")
    if backend == MOCK:
        return Result(name, True, say("mock backend (frames recorded, no strip)"))
    from hardware.led_backends import open_strip
    from hardware.leds import Strip

    try:
        if machine.open_strip is not None:
            strip = machine.open_strip(config)
        else:
            strip = open_strip(backend, max(config.pixel_count, 1), pin=config.leds.data_pin)
    except HardwareError as exc:
        detail = say(
            "{backend} backend: {problem}", backend=Verbatim(backend), problem=Verbatim(str(exc))
        )
        return Result(name, False, detail, say("see docs/hardware.md"))
    if not isinstance(strip, Strip):
        detail = say("{backend} backend gave no strip", backend=Verbatim(backend))
        return Result(name, False, detail, _REINSTALL)
    try:
        level = max(1, round(255 * config.leds.brightness))
        for seat in config.seats:
            strip.fill((0, 0, 0))
            for index in range(*seat.pixels):
                strip[index] = (0, level, 0)
            strip.show()
            machine.pause(0.3)  # slow enough for a person to follow round the table
        strip.fill((0, 0, 0))
        strip.show()
    finally:
        deinit = getattr(strip, "deinit", None)
        if deinit is not None:
            deinit()
    seen = machine.look(machine.present(say("Did each seat's LEDs light green in turn?")))
    if seen is False:
        return Result(
            name,
            False,
            say(
                "{backend} backend sent the pattern but the LEDs did not show it",
                backend=Verbatim(backend),
            ),
            say("check the wiring, level shifter and power (docs/hardware.md)"),
        )
    if seen:
        detail = say_plural(
            "{backend} backend sent a test pattern to {n} pixel (you saw it)",
            "{backend} backend sent a test pattern to {n} pixels (you saw it)",
            strip.n,
            backend=Verbatim(backend),
        )
    else:
        detail = say_plural(
            "{backend} backend sent a test pattern to {n} pixel "
            "(not confirmed: run doctor at a terminal to be asked)",
            "{backend} backend sent a test pattern to {n} pixels "
            "(not confirmed: run doctor at a terminal to be asked)",
            strip.n,
            backend=Verbatim(backend),
        )
    return Result(name, True, detail)


def check_timer(config: TableConfig, machine: Machine) -> Result:
    """The toss timer's input reads (and says whether it is pressed now)."""
    timer = config.timer
    name = say("toss timer")
    if timer is None:
        return Result(name, True, say("none configured"))
    if timer.pin is None:
        return Result(name, True, say("simulated (T key)"))
    pin = Verbatim(f"GPIO{timer.pin}")
    try:
        state = machine.read_timer_pin(timer.pin)
    except Exception as exc:  # gpiozero: pin in use, no factory...
        return Result(
            name,
            False,
            say("{pin} cannot be read ({problem})", pin=pin, problem=Verbatim(str(exc))),
            say("stop the kiosk, check [timer] pin and the gpio group"),
        )
    return Result(name, True, say("{pin} reads {state}", pin=pin, state=as_arg(state)))


def check_journal(config: TableConfig, machine: Machine) -> Result:
    """The records folder is writable, durable and fsyncs in reasonable time."""
    folder = config.records
    name = say("journal folder")
    where = Verbatim(str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-") as probe:
            probe.write(b"x" * 4096)
            probe.flush()
            start = time.perf_counter()
            os.fsync(probe.fileno())
            fsync = time.perf_counter() - start
    except OSError as exc:
        return Result(
            name,
            False,
            say(
                "{folder} is not writable ({problem})",
                folder=where,
                problem=Verbatim(str(exc.strerror or exc)),
            ),
            say(
                "give the service user the folder: {command}",
                command=Verbatim(f"sudo chown cafe-table: {folder}"),
            ),
        )
    try:
        durable, fs_type = describe(folder, machine.mountinfo)
    except OSError:
        durable, fs_type = True, "unknown"
    millis = Verbatim(f"{fsync * 1000:.1f}")
    system = Verbatim(fs_type)
    if not durable:
        fix = say("put [table] records on a data partition (docs/raspberry-pi.md)")
        if config.journal.require_durable:
            detail = say(
                "{folder} is on {system}: a power cut loses the journal",
                folder=where,
                system=system,
            )
            return Result(name, False, detail, fix)
        detail = say(
            "{folder} is on {system}: a power cut loses the journal "
            "(one fsync {ms} ms; fine for a demo, not a cafe)",
            folder=where,
            system=system,
            ms=millis,
        )
        return Result(name, True, detail)
    if fsync > SLOW_FSYNC:
        return Result(
            name,
            False,
            say(
                "{folder} on {system}: one fsync {ms} ms, slow enough to delay taps",
                folder=where,
                system=system,
                ms=millis,
            ),
            say("use a better SD card (A1/A2) or a USB SSD for the data"),
        )
    # "unknown": no mount above the folder is visible (e.g. in a chroot); judged durable.
    if fs_type == "unknown":
        detail = say(
            "{folder} on an unlisted file system, writable, one fsync {ms} ms",
            folder=where,
            ms=millis,
        )
    else:
        detail = say(
            "{folder} on {system}, writable, one fsync {ms} ms",
            folder=where,
            system=system,
            ms=millis,
        )
    return Result(name, True, detail)


def check_journal_file(config: TableConfig, machine: Machine) -> Result:
    """The journal file passes SQLite's full integrity check (a start runs only a quick one)."""
    name = say("journal file")
    path = default_path(config)
    where = Verbatim(str(path))
    if not path.exists():
        return Result(name, True, say("none yet at {file}: the kiosk creates it", file=where))
    try:
        with Journal.open_existing(path) as journal:  # the full integrity_check
            games = len(journal.games())
    except JournalError as exc:
        return Result(
            name,
            False,
            say("{file}: {problem}", file=where, problem=Verbatim(str(exc))),
            say("keep the file and read docs/journal.md, 'A damaged journal'"),
        )
    megabytes = Verbatim(f"{path.stat().st_size / 1e6:.1f}")
    return Result(
        name,
        True,
        say(
            "{file}: SQLite's full integrity check passed, {games} games, {mb} MB",
            file=where,
            games=games,
            mb=megabytes,
        ),
    )


def check_fonts(config: TableConfig, machine: Machine) -> Result:
    """pygame's bundled font (the fallback) and the Noto fonts every language is drawn with."""
    name = say("fonts")
    try:
        path = machine.font_file()
    except Exception as exc:  # a broken pygame install
        detail = say("pygame has no font module ({problem})", problem=Verbatim(str(exc)))
        return Result(name, False, detail, _REINSTALL)
    if not path.is_file():
        return Result(name, False, say("{file} is missing", file=Verbatim(str(path))), _REINSTALL)
    gone = machine.missing_noto()
    if gone:
        return Result(
            name,
            False,
            say(
                "{file} is missing: only English shows, in pygame's font",
                file=Verbatim(str(gone[0])),
            ),
            "sudo apt-get install --no-install-recommends fonts-noto-core fonts-noto-cjk",
        )
    return Result(name, True, f"Noto Sans, Noto Sans CJK, {path.name}")  # font names


def check_disk(config: TableConfig, machine: Machine) -> Result:
    """Enough free space where the records and journal are written."""
    name = say("free disk")
    try:
        usage = shutil.disk_usage(config.records)
    except OSError as exc:
        detail = say("cannot tell ({problem})", problem=Verbatim(str(exc)))
        return Result(name, False, detail, say("check [table] records"))
    free_mb = usage.free // (1024 * 1024)
    if usage.free < MIN_FREE_BYTES:
        return Result(
            name,
            False,
            say("{mb} MB free for {folder}", mb=free_mb, folder=Verbatim(str(config.records))),
            say("free some space: sudo apt-get clean; delete old records you have exported"),
        )
    return Result(name, True, say("{mb} MB free", mb=free_mb))


def check_renderer(config: TableConfig, machine: Machine) -> Result:
    """Which of SDL's renderers draws a picture here: a test frame drawn and read back.

    The renderer checked is ``SDL_RENDER_DRIVER`` if set, else the service's
    (``SERVICE_RENDERER``) on a full-screen table; when that one draws nothing,
    the others are tried so the fix can name one that works.
    """
    name = say("renderer")
    wanted = machine.environ.get("SDL_RENDER_DRIVER") or (
        SERVICE_RENDERER if config.display.fullscreen else None
    )
    try:
        drivers = machine.render_drivers()
    except Exception as exc:  # a broken pygame install raises anything from ImportError on
        problem = say("cannot ask SDL for its renderers ({problem})", problem=Verbatim(str(exc)))
        return Result(name, False, problem, _REINSTALL)
    problem_of_wanted = None if wanted is None else machine.test_frame(wanted)
    if wanted is not None and problem_of_wanted is None:
        return Result(
            name, True, say("{renderer} draws a test frame as drawn", renderer=Verbatim(wanted))
        )
    working = next((d for d in drivers if d != wanted and machine.test_frame(d) is None), None)
    if wanted is None and working is not None:
        return Result(
            name,
            True,
            say(
                "{renderer} draws a test frame as drawn (SDL tries {drivers} in turn)",
                renderer=Verbatim(working),
                drivers=Verbatim(", ".join(drivers)),
            ),
        )
    install = say(
        "install the GLES2 and EGL libraries: sudo deploy/install.sh (docs/raspberry-pi.md)"
    )
    if wanted is None:
        detail = say(
            "no renderer draws a test frame (SDL has {drivers})",
            drivers=Verbatim(", ".join(drivers)),
        )
        return Result(name, False, detail, install)
    detail = say(
        "{renderer} draws no picture ({problem})",
        renderer=Verbatim(wanted),
        problem=Verbatim(problem_of_wanted or ""),
    )
    if working is None:
        return Result(name, False, detail, install)
    return Result(
        name,
        False,
        detail,
        say(
            "{renderer} draws the test frame: set SDL_RENDER_DRIVER={renderer} for the service "
            "(sudo systemctl edit cafe-table)",
            renderer=Verbatim(working),
        ),
    )


def run_checks(config: TableConfig, machine: Machine | None = None) -> list[Result]:
    """Every check, in the order an owner would fix things."""
    machine = machine or Machine()
    results = [
        check_display(config, machine),
        check_renderer(config, machine),
        check_groups(config, machine),
        check_devices(config, machine),
        check_pin_factory(config, machine),
        *check_readers(config, machine),
        check_leds(config, machine),
        check_timer(config, machine),
        check_journal(config, machine),
        check_journal_file(config, machine),
        check_fonts(config, machine),
        check_disk(config, machine),
    ]
    return results


def report(results: Iterable[Result], present: Presenter = ENGLISH) -> tuple[str, bool]:
    """The lines to print (in ``present``'s language) and whether everything passed."""
    results = list(results)
    lines = [r.line(present) for r in results]
    failed = sum(not r.ok for r in results)
    if failed:
        lines.append(present(say_plural("{n} check failed", "{n} checks failed", failed)))
    else:
        lines.append(present(say("all checks passed")))
    return "\n".join(lines) + "\n", not failed


# --- the command line -----------------------------------------------------------


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``doctor`` to the command line."""
    parser = commands.add_parser(
        "doctor",
        help="check a real table: display, groups, GPIO, readers, LEDs, journal",
        description="Check the table's hardware and setup; one line per check, with the fix. "
        "Stop the kiosk first: it needs the screen, ports and LEDs.",
    )
    parser.add_argument("--config", metavar="FILE", help="table.toml (default: all simulated)")
    parser.add_argument(
        "--sdl-drivers",
        action="store_true",
        help="only print the video drivers compiled into pygame's SDL",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, machine: Machine | None = None) -> int:
    """``doctor`` subcommand: 0 all passed, 1 a check failed, 2 the config is unusable."""
    if args.sdl_drivers:
        try:
            print(" ".join((machine or Machine()).video_drivers()))
        except Exception as exc:  # any failure to load pygame/SDL
            problem = say(
                "cannot ask SDL for its video drivers ({problem})", problem=Verbatim(str(exc))
            )
            terminal_words.complain(args, "doctor", problem)
            return 2
        return 0
    try:
        config = load(Path(args.config)) if args.config else TableConfig.simulated()
    except ConfigError as exc:
        terminal_words.complain(args, "doctor", exc.text)
        return 2
    present = terminal_words.presenter(args)
    machine = machine or Machine()
    machine.present = present
    text, passed = report(run_checks(config, machine), present)
    print(text, end="")
    return 0 if passed else 1
