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

from controller import terminal_words
from controller.config import MOCK, ConfigError, TableConfig, load
from controller.durable import describe
from controller.games.words import Verbatim, say
from hardware.errors import HardwareError

MIN_FREE_BYTES = 200 * 1024 * 1024
"""Free space the records folder should have: years of games, and room for apt upgrades."""

SLOW_FSYNC = 0.5
"""Seconds one fsync may take before the journal would make taps feel late."""


@dataclass(frozen=True)
class Result:
    """One check's outcome: a line for the owner, and the fix when it failed."""

    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        if self.ok:
            return f"ok    {self.name}: {self.detail}"
        return f"FAIL  {self.name}: {self.detail} -> {self.fix}"


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


def _read_timer_pin(pin: int) -> str:
    from gpiozero import Button

    with Button(pin, pull_up=True) as button:
        return "pressed (or the Jack rests on the pad)" if button.is_pressed else "released"


READER_WAIT = 3.0
"""Seconds a reader may take to come online (our reader board's link handshake)."""


def _probe_reader(seat: int, path: str, protocol: str) -> str:
    """Open the seat's reader through the table's own reader code and wait for it to come
    online; its first words if it does, an exception with the reason if not."""
    from hardware.events import InputEvent, ReaderOffline, ReaderOnline, ReaderProblem
    from hardware.reader_factory import reader_for

    events: queue.Queue[InputEvent] = queue.Queue()
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
                return f"online ({protocol} protocol)"
            if isinstance(event, ReaderOffline):
                raise OSError(event.reason)
            if isinstance(event, ReaderProblem):
                raise OSError(event.message)
        raise OSError(f"opened, but no word from it in {READER_WAIT:.0f} s")
    finally:
        reader.close()


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
    return answer in ("", "y", "yes")


@dataclass
class Machine:
    """The machine as the checks see it; every part can be replaced in tests."""

    video_drivers: Callable[[], list[str]] = sdl_video_drivers
    display_modes: Callable[[], list[tuple[int, int]]] = kmsdrm_modes
    groups: Callable[[], set[str]] = _user_groups
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0
    dev: Path = Path("/dev")
    mountinfo: str | None = None  # None: /proc/self/mountinfo
    pin_factory: Callable[[], str] = _pin_factory_name
    read_timer_pin: Callable[[int], str] = _read_timer_pin
    probe_reader: Callable[[int, str, str], str] = _probe_reader
    open_strip: Callable[[TableConfig], object] | None = None  # None: the configured backend
    look: Callable[[str], bool | None] = _look
    pause: Callable[[float], None] = time.sleep
    font_file: Callable[[], Path] = _font_file
    missing_noto: Callable[[], list[Path]] = _missing_noto
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))


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
    name = "display"
    try:
        drivers = machine.video_drivers()
    except Exception as exc:  # a broken pygame install raises anything from ImportError on
        return Result(name, False, f"cannot ask SDL for its drivers ({exc})", _REINSTALL)
    listed = ", ".join(drivers)
    # SDL calls it "KMSDRM"; SDL_VIDEODRIVER matches names without regard to case.
    if "kmsdrm" not in (driver.lower() for driver in drivers):
        if not config.display.fullscreen:
            return Result(name, True, f"windowed; SDL has {listed} (no KMSDRM: fine on a desktop)")
        return Result(
            name,
            False,
            f"pygame's SDL has no KMSDRM driver (only {listed}): no picture without a desktop",
            "install pygame-ce in place of pygame: sudo deploy/install.sh (docs/raspberry-pi.md)",
        )
    if not config.display.fullscreen:
        return Result(name, True, f"windowed; SDL has {listed} (KMSDRM included)")
    cards = sorted(machine.dev.glob("dri/card*"))
    if not cards:
        return Result(
            name,
            False,
            "KMSDRM is there but there is no /dev/dri/card*",
            "turn on the KMS driver: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, reboot",
        )
    try:
        modes = machine.display_modes()
    except Exception as exc:  # pygame.error: busy, no screen plugged in...
        return Result(
            name,
            False,
            f"KMSDRM cannot open the screen ({exc})",
            "plug the screen in before booting, and stop the kiosk: sudo systemctl stop cafe-table",
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
            f"the screen offers {offered}, not {width}x{height}",
            "set [display] width and height to one of those in table.toml",
        )
    return Result(name, True, f"KMSDRM, {width}x{height} available ({len(modes)} modes)")


_REINSTALL = "reinstall: sudo deploy/install.sh"


def check_groups(config: TableConfig, machine: Machine) -> Result:
    """The user is in every group the configured devices need."""
    needed: dict[str, str] = {}
    if config.display.fullscreen:
        needed.update(video="the screen", render="the screen", input="touch and keys")
    if _real_readers(config):
        needed["dialout"] = "the seat readers"
    if _real_pins(config):
        needed["gpio"] = "the buttons"
    if config.leds.backend == "spi":
        needed["spi"] = "the LEDs"
    if config.leds.backend == "pi5":
        needed["gpio"] = "the LEDs"
    if machine.is_root():
        return Result("groups", True, "running as root (the service runs as cafe-table)")
    missing = sorted(set(needed) - machine.groups())
    if not missing:
        have = ", ".join(sorted(needed)) or "none needed on a simulated table"
        return Result("groups", True, have)
    why = ", ".join(f"{g} ({needed[g]})" for g in missing)
    user = machine.environ.get("USER") or "cafe-table"
    return Result(
        "groups",
        False,
        f"not in {why}",
        f"sudo usermod -aG {','.join(missing)} {user}, then log in again",
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
    if config.leds.backend == "spi" and machine.dev / "spidev0.0" in missing:
        return Result(
            "devices",
            False,
            f"{machine.dev / 'spidev0.0'} is missing, so the SPI LEDs cannot work",
            "enable SPI: sudo raspi-config nonint do_spi 0, then reboot",
        )
    if config.leds.backend == "pi5" and machine.dev / "pio0" in missing:
        return Result(
            "devices",
            False,
            f"{machine.dev / 'pio0'} is missing, so the Pi 5 LEDs cannot work",
            "update the kernel: sudo apt-get full-upgrade, then reboot",
        )
    if denied:
        listed = ", ".join(str(p) for p, _ in denied)
        return Result(
            "devices",
            False,
            f"no read/write permission on {listed}",
            "install the udev rules and groups: sudo deploy/install.sh, then reboot",
        )
    if not wanted:
        return Result("devices", True, "no device files needed on a simulated table")
    return Result("devices", True, f"{len(wanted)} device files readable and writable")


def check_pin_factory(config: TableConfig, machine: Machine) -> Result:
    """gpiozero finds a real pin factory (lgpio on a Pi 4 and Pi 5)."""
    if not _real_pins(config):
        return Result("pin factory", True, "buttons and timer simulated (gpiozero MockFactory)")
    try:
        name = machine.pin_factory()
    except Exception as exc:  # gpiozero raises BadPinFactory, ImportError, OSError...
        return Result(
            "pin factory",
            False,
            f"gpiozero cannot reach the GPIO pins ({exc})",
            "install lgpio (sudo deploy/install.sh) and set GPIOZERO_PIN_FACTORY=lgpio",
        )
    if name == "MockFactory":
        return Result(
            "pin factory",
            False,
            "gpiozero uses its MockFactory: the buttons would never press",
            "unset GPIOZERO_PIN_FACTORY=mock; use GPIOZERO_PIN_FACTORY=lgpio",
        )
    return Result("pin factory", True, name)


def check_readers(config: TableConfig, machine: Machine) -> list[Result]:
    """Every configured reader's serial port opens (a missing one is reported, not fatal)."""
    readers = _real_readers(config)
    if not readers:
        return [Result("readers", True, "all seats simulated")]
    results = []
    for seat, path in readers:
        name = f"reader seat {seat + 1}"  # people count seats from 1
        if not Path(path).exists():
            results.append(
                Result(
                    name,
                    False,
                    f"{path} is not there (unplugged, or the name changed)",
                    "plug it in, or run `cafe-table assign-readers` and fix [[seat]] reader",
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
                    f"{path} does not answer ({exc})",
                    "check [[seat]] protocol, the dialout group and the udev rules "
                    "(deploy/install.sh); stop the kiosk, which holds the port",
                )
            )
            continue
        results.append(Result(name, True, f"{path}: {state}"))
    return results


def check_leds(config: TableConfig, machine: Machine) -> Result:
    """The LED backend opens and shows a short test pattern (each seat green in turn)."""
    backend = config.leds.backend
    if backend == MOCK:
        return Result("leds", True, "mock backend (frames recorded, no strip)")
    from hardware.led_backends import open_strip
    from hardware.leds import Strip

    try:
        if machine.open_strip is not None:
            strip = machine.open_strip(config)
        else:
            strip = open_strip(backend, max(config.pixel_count, 1), pin=config.leds.data_pin)
    except HardwareError as exc:
        return Result("leds", False, f"{backend} backend: {exc}", "see docs/hardware.md")
    if not isinstance(strip, Strip):
        return Result("leds", False, f"{backend} backend gave no strip", _REINSTALL)
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
    seen = machine.look("Did each seat's LEDs light green in turn?")
    if seen is False:
        return Result(
            "leds",
            False,
            f"{backend} backend sent the pattern but the LEDs did not show it",
            "check the wiring, level shifter and power (docs/hardware.md)",
        )
    confirmed = "you saw it" if seen else "not confirmed: run doctor at a terminal to be asked"
    return Result(
        "leds", True, f"{backend} backend sent a test pattern to {strip.n} pixels ({confirmed})"
    )


def check_timer(config: TableConfig, machine: Machine) -> Result:
    """The toss timer's input reads (and says whether it is pressed now)."""
    timer = config.timer
    if timer is None:
        return Result("toss timer", True, "none configured")
    if timer.pin is None:
        return Result("toss timer", True, "simulated (T key)")
    try:
        state = machine.read_timer_pin(timer.pin)
    except Exception as exc:  # gpiozero: pin in use, no factory...
        return Result(
            "toss timer",
            False,
            f"GPIO{timer.pin} cannot be read ({exc})",
            "stop the kiosk, check [timer] pin and the gpio group",
        )
    return Result("toss timer", True, f"GPIO{timer.pin} reads {state}")


def check_journal(config: TableConfig, machine: Machine) -> Result:
    """The records folder is writable, durable and fsyncs in reasonable time."""
    folder = config.records
    name = "journal folder"
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
            f"{folder} is not writable ({exc.strerror or exc})",
            "give the service user the folder: sudo chown cafe-table: " + str(folder),
        )
    try:
        durable, fs_type = describe(folder, machine.mountinfo)
    except OSError:
        durable, fs_type = True, "unknown"
    timing = f"one fsync {fsync * 1000:.1f} ms"
    if not durable:
        detail = f"{folder} is on {fs_type}: a power cut loses the journal"
        fix = "put [table] records on a data partition (docs/raspberry-pi.md)"
        if config.journal.require_durable:
            return Result(name, False, detail, fix)
        return Result(name, True, f"{detail} ({timing}; fine for a demo, not a cafe)")
    if fsync > SLOW_FSYNC:
        return Result(
            name,
            False,
            f"{folder} on {fs_type}: {timing}, slow enough to delay taps",
            "use a better SD card (A1/A2) or a USB SSD for the data",
        )
    # "unknown": no mount above the folder is visible (e.g. in a chroot); judged durable.
    where = "an unlisted file system" if fs_type == "unknown" else fs_type
    return Result(name, True, f"{folder} on {where}, writable, {timing}")


def check_fonts(config: TableConfig, machine: Machine) -> Result:
    """pygame's bundled font (the fallback) and the Noto fonts every language is drawn with."""
    try:
        path = machine.font_file()
    except Exception as exc:  # a broken pygame install
        return Result("fonts", False, f"pygame has no font module ({exc})", _REINSTALL)
    if not path.is_file():
        return Result("fonts", False, f"{path} is missing", _REINSTALL)
    gone = machine.missing_noto()
    if gone:
        return Result(
            "fonts",
            False,
            f"{gone[0]} is missing: only English shows, in pygame's font",
            "sudo apt-get install --no-install-recommends fonts-noto-core fonts-noto-cjk",
        )
    return Result("fonts", True, f"Noto Sans, Noto Sans CJK, {path.name}")


def check_disk(config: TableConfig, machine: Machine) -> Result:
    """Enough free space where the records and journal are written."""
    try:
        usage = shutil.disk_usage(config.records)
    except OSError as exc:
        return Result("free disk", False, f"cannot tell ({exc})", "check [table] records")
    free_mb = usage.free // (1024 * 1024)
    if usage.free < MIN_FREE_BYTES:
        return Result(
            "free disk",
            False,
            f"{free_mb} MB free for {config.records}",
            "free some space: sudo apt-get clean; delete old records you have exported",
        )
    return Result("free disk", True, f"{free_mb} MB free")


def run_checks(config: TableConfig, machine: Machine | None = None) -> list[Result]:
    """Every check, in the order an owner would fix things."""
    machine = machine or Machine()
    results = [
        check_display(config, machine),
        check_groups(config, machine),
        check_devices(config, machine),
        check_pin_factory(config, machine),
        *check_readers(config, machine),
        check_leds(config, machine),
        check_timer(config, machine),
        check_journal(config, machine),
        check_fonts(config, machine),
        check_disk(config, machine),
    ]
    return results


def report(results: Iterable[Result]) -> tuple[str, bool]:
    """The lines to print and whether everything passed."""
    results = list(results)
    lines = [r.line() for r in results]
    failed = sum(not r.ok for r in results)
    lines.append("all checks passed" if not failed else f"{failed} check(s) failed")
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
    text, passed = report(run_checks(config, machine))
    print(text, end="")
    return 0 if passed else 1
