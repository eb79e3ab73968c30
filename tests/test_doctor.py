"""doctor on the simulated table and on deliberately broken ones."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main as cli
from controller.cli.doctor import Machine, Result, report, run, run_checks, sdl_video_drivers
from controller.config.table_config import TableConfig, parse
from controller.records.journal import Journal, default_path
from hardware.errors import StripUnavailable
from hardware.leds import RecordingStrip
from tests.words import shown

ROOT = Path(__file__).resolve().parent.parent
EXT4 = "22 1 179:2 / / rw - ext4 /dev/mmcblk0p2 rw\n"


def machine(tmp_path: Path, **changes: object) -> Machine:
    """A Pi 4 that passes every check, unless ``changes`` break something."""
    dev = tmp_path / "dev"
    (dev / "dri").mkdir(parents=True, exist_ok=True)
    for name in ("dri/card1", "gpiochip0", "spidev0.0"):
        (dev / name).touch()
    fields: dict[str, object] = {
        "video_drivers": lambda: ["x11", "KMSDRM", "offscreen", "dummy"],  # SDL's spelling
        "display_modes": lambda: [(1920, 1080), (1280, 720)],
        "render_drivers": lambda: ["opengl", "opengles2", "software"],
        "test_frame": lambda driver: None,
        "groups": lambda: {"video", "render", "input", "dialout", "gpio", "spi"},
        "is_root": lambda: False,
        "missing_noto": lambda: [],
        "dev": dev,
        "mountinfo": EXT4,
        "pin_factory": lambda: "LGPIOFactory",
        "read_timer_pin": lambda pin: "released",
        "probe_reader": lambda seat, path, protocol: f"online ({protocol} protocol)",
        "open_strip": lambda config: RecordingStrip(config.pixel_count),
        "look": lambda prompt: True,
        "pause": lambda seconds: None,
    }
    fields.update(changes)
    return Machine(**fields)  # type: ignore[arg-type]


def real_table(tmp_path: Path, **sections: dict[str, object]) -> TableConfig:
    """A two-seat table with a real reader, buttons, timer, SPI LEDs and a fullscreen display."""
    reader = tmp_path / "ttyACM0"
    reader.touch()
    data: dict[str, object] = {
        "table": {"records": str(tmp_path / "records")},
        "journal": {"require_durable": True},
        "display": {"fullscreen": True, "width": 1920, "height": 1080},
        "leds": {"backend": "spi"},
        "timer": {"pin": 17},
        "seat": [
            {"reader": str(reader), "buttons": {"prev": 5, "ok": 6, "next": 13}, "pixels": [0, 8]},
            {"reader": "mock", "pixels": [8, 16]},
        ],
    }
    data.update(sections)
    return parse(data)


def failures(results: list[Result]) -> dict[str, Result]:
    return {shown(r.name): r for r in results if not r.ok}


def test_sdl_drivers_are_asked_of_the_loaded_sdl() -> None:
    drivers = sdl_video_drivers()
    # Every SDL build has the dummy driver; the tests run with it.
    assert "dummy" in drivers
    assert all(name and name.isascii() for name in drivers)


def test_simulated_table_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the simulated table's records folder is ./records
    status = cli.main(["doctor"])
    out, err = capsys.readouterr()
    assert status == 0, out
    lines = out.splitlines()
    assert lines[-1] == "all checks passed"
    names = [line.split(":")[0].split(maxsplit=1)[1] for line in lines[:-1]]
    assert names == [
        "display", "renderer", "groups", "devices", "pin factory", "readers", "leds",
        "toss timer", "journal folder", "journal file", "fonts", "free disk",
    ]  # fmt: skip
    assert all(line.startswith("ok    ") for line in lines[:-1])
    assert "fsync" in out and err == ""


def test_a_healthy_pi_passes(tmp_path: Path) -> None:
    results = run_checks(real_table(tmp_path), machine(tmp_path))
    assert failures(results) == {}
    text, passed = report(results)
    assert passed and text.endswith("all checks passed\n")
    assert "KMSDRM, 1920x1080 available" in text
    assert "spi backend sent a test pattern to 16 pixels" in text


def test_the_led_pattern_lights_each_seat_in_turn(tmp_path: Path) -> None:
    strip = RecordingStrip(16)
    run_checks(real_table(tmp_path), machine(tmp_path, open_strip=lambda config: strip))
    lit = [[i for i, colour in enumerate(strip.pixels(f)) if colour != (0, 0, 0)] for f in (0, 1)]
    assert lit == [list(range(0, 8)), list(range(8, 16))]
    assert strip.pixels(-1) == [(0, 0, 0)] * 16


@pytest.mark.parametrize(
    ("changes", "name", "fix"),
    [
        ({"video_drivers": lambda: ["x11", "wayland", "dummy"]}, "display", "pygame-ce"),
        ({"display_modes": lambda: [(1280, 720)]}, "display", "width and height"),
        ({"groups": lambda: {"video", "render", "input"}}, "groups",
         "usermod -aG dialout,gpio,spi"),
        ({"pin_factory": lambda: "MockFactory"}, "pin factory", "GPIOZERO_PIN_FACTORY=lgpio"),
        ({"mountinfo": EXT4 + "40 22 0:30 / / rw - overlay overlay rw\n"}, "journal folder",
         "data partition"),
        ({"look": lambda prompt: False}, "leds", "level shifter"),
    ],
)  # fmt: skip
def test_each_broken_part_fails_with_its_fix(
    tmp_path: Path, changes: dict[str, object], name: str, fix: str
) -> None:
    results = run_checks(real_table(tmp_path), machine(tmp_path, **changes))
    failed = failures(results)
    assert list(failed) == [name]
    line = failed[name].line()
    assert line.startswith(f"FAIL  {name}: ") and fix in line and "\n" not in line


def raises(exc: Exception) -> object:
    def fail(*args: object) -> object:
        raise exc

    return fail


def test_broken_hardware_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "dev" / "dri").mkdir(parents=True)  # a Pi without SPI or KMS switched on
    bad = machine(
        tmp_path,
        probe_reader=raises(OSError("[Errno 16] Device or resource busy")),
        read_timer_pin=raises(RuntimeError("GPIO17 is in use")),
        open_strip=raises(StripUnavailable("the SPI bus cannot be opened")),
    )
    for name in ("dri/card1", "spidev0.0"):
        (tmp_path / "dev" / name).unlink()
    config = real_table(tmp_path)
    failed = failures(run_checks(config, bad))
    assert sorted(failed) == sorted(
        ["display", "devices", "reader of Seat 1", "leds", "toss timer"]
    )
    assert "vc4-kms-v3d" in shown(failed["display"].fix)
    assert "do_spi 0" in shown(failed["devices"].fix)
    assert "busy" in shown(failed["reader of Seat 1"].detail)
    assert "GPIO17" in shown(failed["toss timer"].detail)


def test_unplugged_reader_and_unwritable_journal(tmp_path: Path) -> None:
    config = real_table(tmp_path)
    (tmp_path / "ttyACM0").unlink()
    blocker = tmp_path / "records"
    blocker.write_text("a file where the folder should be")
    failed = failures(run_checks(config, machine(tmp_path)))
    assert "assign-readers" in shown(failed["reader of Seat 1"].fix)
    assert "not writable" in shown(failed["journal folder"].detail)


def test_not_durable_passes_only_when_not_required(tmp_path: Path) -> None:
    tmpfs = EXT4 + f"40 22 0:30 / {tmp_path} rw - tmpfs tmpfs rw\n"
    relaxed = real_table(tmp_path, journal={"require_durable": False})
    results = run_checks(relaxed, machine(tmp_path, mountinfo=tmpfs))
    journal = next(r for r in results if shown(r.name) == "journal folder")
    detail = shown(journal.detail)
    assert journal.ok and "tmpfs" in detail and "not a cafe" in detail


def test_bad_config_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[leds]\nbackend = "dmx"\n')
    assert cli.main(["doctor", "--config", str(config)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "leds.backend" in err


def test_a_failing_check_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(config=None, sdl_drivers=False)
    broken = machine(tmp_path, font_file=lambda: tmp_path / "missing.ttf")
    monkeypatch.chdir(tmp_path)
    assert run(args, broken) == 1
    out = capsys.readouterr().out
    assert "FAIL  fonts:" in out and out.endswith("1 check failed\n")


def test_console_script_path_prints_sdl_drivers() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-m", "controller", "doctor", "--sdl-drivers"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "dummy" in done.stdout.split()
    assert "pygame" not in done.stdout  # no banner: the installer reads this line


def test_led_line_says_whether_a_person_confirmed(tmp_path: Path) -> None:
    asked = run_checks(real_table(tmp_path), machine(tmp_path))
    unasked = run_checks(real_table(tmp_path), machine(tmp_path, look=lambda prompt: None))
    assert "(you saw it)" in next(shown(r.detail) for r in asked if shown(r.name) == "leds")
    assert "not confirmed" in next(shown(r.detail) for r in unasked if shown(r.name) == "leds")


def test_reader_probe_goes_through_the_real_reader_on_a_pty(tmp_path: Path) -> None:
    from hardware.ptys import PtyPair

    with PtyPair() as board:
        config = real_table(tmp_path)
        seats = [{"reader": board.slave_path, "protocol": "line", "pixels": [0, 8]},
                 {"reader": "mock", "pixels": [8, 16]}]  # fmt: skip
        config = parse({"table": {"records": str(tmp_path / "records")}, "seat": seats})
        pty_machine = machine(tmp_path)
        pty_machine.probe_reader = Machine().probe_reader
        results = run_checks(config, pty_machine)
    line = next(r for r in results if shown(r.name) == "reader of Seat 1")
    assert line.ok, line.line()
    assert shown(line.detail) == f"{board.slave_path}: online (line protocol)"


def test_reader_probe_reports_a_port_that_is_not_a_serial_device(tmp_path: Path) -> None:
    not_a_port = tmp_path / "ttyUSB9"
    not_a_port.write_text("")
    seats = [{"reader": str(not_a_port), "pixels": [0, 8]}, {"reader": "mock", "pixels": [8, 16]}]
    config = parse({"table": {"records": str(tmp_path / "records")}, "seat": seats})
    results = run_checks(config, Machine(mountinfo=EXT4, look=lambda prompt: None))
    line = next(r for r in results if shown(r.name) == "reader of Seat 1")
    assert not line.ok and "does not answer" in shown(line.detail) and "dialout" in shown(line.fix)


def test_missing_noto_fonts_fail_the_fonts_check_with_the_packages_to_install(
    tmp_path: Path,
) -> None:
    from controller.cli.doctor import check_fonts

    gone = [Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")]
    result = check_fonts(TableConfig.simulated(4), machine(tmp_path, missing_noto=lambda: gone))
    assert not result.ok and "NotoSansCJK-Regular.ttc is missing" in shown(result.detail)
    assert "fonts-noto-core fonts-noto-cjk" in shown(result.fix)


def test_the_doctor_checks_the_fonts_the_display_draws_with() -> None:
    from controller.cli.doctor import NOTO_FONTS
    from display.theme import FONT_FILES

    assert set(NOTO_FONTS) == {path for paths in FONT_FILES.values() for path in paths}


# --- the renderer: a test frame drawn and read back ----------------------------------


def test_sdls_dummy_driver_draws_the_test_frame_in_software_only() -> None:
    # The real probe on SDL's dummy video driver (tests/conftest.py): it has no OpenGL,
    # so only the software renderer gives back the red and blue it drew.
    from controller.cli.doctor import sdl_render_drivers, sdl_test_frame

    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    assert "software" in sdl_render_drivers()
    assert sdl_test_frame("software") is None
    problem = sdl_test_frame("opengles2")
    assert problem is not None and "OpenGL" in problem
    assert sdl_test_frame("metal") is not None  # a renderer SDL does not have


def test_the_renderer_check_names_the_renderer_that_draws_when_the_configured_one_does_not(
    tmp_path: Path,
) -> None:
    from controller.cli.doctor import check_renderer

    # The real probes, on the dummy driver: the service's GLES2 draws nothing there.
    real = machine(
        tmp_path, render_drivers=Machine().render_drivers, test_frame=Machine().test_frame
    )
    result = check_renderer(real_table(tmp_path), real)
    assert not result.ok
    assert shown(result.detail).startswith("opengles2 draws no picture (")
    assert "software draws the test frame: set SDL_RENDER_DRIVER=software" in shown(result.fix)
    # SDL_RENDER_DRIVER names the one to check.
    real.environ = {"SDL_RENDER_DRIVER": "software"}
    result = check_renderer(real_table(tmp_path), real)
    assert result.ok and shown(result.detail) == "software draws a test frame as drawn"


def test_a_renderer_that_reads_back_black_fails_and_none_working_asks_for_the_libraries(
    tmp_path: Path,
) -> None:
    from controller.cli.doctor import check_renderer

    black = machine(
        tmp_path, test_frame=lambda d: "it drew red and blue, and (0, 0, 0) and (0, 0, 0) came back"
    )
    result = check_renderer(real_table(tmp_path), black)
    assert not result.ok and "(0, 0, 0) and (0, 0, 0) came back" in shown(result.detail)
    assert "sudo deploy/install.sh" in shown(result.fix)
    windowed = TableConfig.simulated(4)  # not full screen: SDL's own choice is checked
    fine = machine(tmp_path, test_frame=lambda d: None if d == "software" else "no GL")
    result = check_renderer(windowed, fine)
    assert result.ok and shown(result.detail).startswith("software draws a test frame")


def test_the_journal_file_gets_the_full_integrity_check(tmp_path: Path) -> None:
    config = real_table(tmp_path)

    def journal_line() -> Result:
        results = run_checks(config, machine(tmp_path))
        return next(r for r in results if shown(r.name) == "journal file")

    assert journal_line().ok and "none yet" in shown(journal_line().detail)
    path = default_path(config)
    Journal.open(path).close()
    found = journal_line()
    assert found.ok and "full integrity check passed, 0 games" in shown(found.detail)
    path.write_bytes(b"not a journal at all" * 300)
    broken = journal_line()
    assert not broken.ok and "docs/journal.md" in shown(broken.fix)
