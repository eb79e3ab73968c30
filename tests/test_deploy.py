"""The deploy/ folder: the systemd unit verifies, the udev rules and table.toml are sound,
the installer's requirements swap pygame for pygame-ce, and its mistakes are one clear line.

The full install runs in deploy/check-arm64 (a Debian arm64 root under qemu);
these tests need no root file system of their own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from controller.config.table_config import parse

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "cafe-table.service"
EXEC = "/opt/cafe-table/venv/bin/cafe-table"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def systemd_analyze(unit_text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` on the unit, with ExecStart pointed at a stub executable
    (the real one exists only after the installer ran; every other line is verified as is)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (apt-get install systemd)")
    stub = tmp_path / "cafe-table"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    unit = tmp_path / "cafe-table.service"
    unit.write_text(unit_text.replace(EXEC, str(stub)))
    return subprocess.run(
        [tool, "verify", str(unit)], capture_output=True, text=True, timeout=120, check=False
    )


def test_unit_verifies_clean(tmp_path: Path) -> None:
    done = systemd_analyze(UNIT.read_text(), tmp_path)
    assert done.returncode == 0, done.stderr
    # systemd-analyze only warns about unknown keys: any output at all is a fault.
    assert done.stdout + done.stderr == ""


def test_verify_would_catch_a_misspelt_key(tmp_path: Path) -> None:
    done = systemd_analyze(UNIT.read_text().replace("WatchdogSec=", "WatchdgSec="), tmp_path)
    assert "Unknown key 'WatchdgSec'" in done.stderr


def test_unit_is_a_notify_service_with_watchdog_on_tty1_not_root() -> None:
    s = unit_settings()
    assert s["Type"] == ["notify"]
    assert int(s["WatchdogSec"][0]) >= 10
    assert s["Restart"] == ["always"]
    assert s["User"] == ["cafe-table"]
    assert s["StateDirectory"] == ["cafe-table"]
    assert s["TTYPath"] == ["/dev/tty1"]
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Environment"]
    assert "GPIOZERO_PIN_FACTORY=lgpio" in s["Environment"]
    assert any("--blank 0" in pre and "--cursor off" in pre for pre in s["ExecStartPre"])
    assert set(s["SupplementaryGroups"][0].split()) == {
        "video", "render", "input", "dialout", "gpio", "spi",
    }  # fmt: skip
    # Readers may be plugged in late: the unit waits for no device but the display,
    # and only wants that one (it starts without it after the device's timeout).
    waits = [v for key in ("Requires", "BindsTo", "After") for v in s.get(key, [])]
    assert [v for v in waits if "dev-" in v] == ["dev-dri-display.device"]
    assert s["Wants"] == ["dev-dri-display.device"]


def test_unit_stops_in_time_and_restarts_all_but_setup_mistakes() -> None:
    s = unit_settings()
    # The kiosk stops in 2 s at most; systemd waits a little more before SIGKILL.
    assert 2 < int(s["TimeoutStopSec"][0]) <= 10
    assert s["RestartPreventExitStatus"] == ["2"]
    assert s["StartLimitIntervalSec"] == ["0"]  # a long outage never gives up
    assert "SDL_NO_SIGNAL_HANDLERS=1" in s["Environment"]
    assert "SDL_RENDER_DRIVER=opengles2" in s["Environment"]
    assert s["ExecStart"][0].startswith(EXEC + " kiosk --config /etc/cafe-table/table.toml")


RULE = re.compile(r'^[A-Z_]+(\{[^}]+\})?(==|!=|\+=|=|:=)"[^"]*"$')


def test_udev_rules_are_well_formed_and_cover_each_device() -> None:
    text = (DEPLOY / "99-cafe-table.rules").read_text()
    rules = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    for rule in rules:
        for pair in rule.split(", "):
            assert RULE.match(pair), f"not a udev key/value pair: {pair!r} in {rule!r}"
    joined = "\n".join(rules)
    assert 'GROUP="dialout"' in joined and "ID_PATH_TAG" in joined  # readers, by USB port
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in joined
    assert 'SUBSYSTEM=="spidev"' in joined and 'GROUP="spi"' in joined
    assert 'KERNEL=="pio[0-9]*"' in joined
    # The display's connector names the device unit the service waits for.
    assert 'TAG+="systemd", ENV{SYSTEMD_ALIAS}+="/dev/dri/display"' in joined


@pytest.mark.parametrize("leds", ["spi", "pi5", "pwm", "mock"])
def test_default_table_toml_is_a_valid_config(leds: str) -> None:
    template = (DEPLOY / "table.toml.in").read_text()
    text = template.replace("@LEDS@", leds).replace("@RECORDS@", "/var/lib/cafe-table/records")
    assert "@" not in text.replace("# ", "")
    config = parse(tomllib.loads(text))
    assert config.leds.backend == leds
    assert config.journal.require_durable
    assert config.display.fullscreen
    assert config.records == Path("/var/lib/cafe-table/records")


def requirements(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(DEPLOY / "pi_requirements.py"), str(ROOT / "pyproject.toml"), *args],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.splitlines()


def test_pi_requirements_have_pygame_ce_never_pygame() -> None:
    lines = requirements()
    names = [re.split(r"[<>=!;\s\[]", line, maxsplit=1)[0].lower() for line in lines]
    assert "pygame-ce" in names and "pygame" not in names
    core = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert len(lines) == len(core["dependencies"]) + len(core["optional-dependencies"]["pi"])
    assert "rpi_ws281x>=5.0" in requirements("--leds", "pwm")
    assert not any("ws281x" in line for line in lines)


def installer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_installer_help_and_syntax() -> None:
    assert subprocess.run(["bash", "-n", str(DEPLOY / "install.sh")], check=False).returncode == 0
    assert subprocess.run(["bash", "-n", str(DEPLOY / "check-arm64")], check=False).returncode == 0
    done = installer("--help")
    assert done.returncode == 0 and "--leds spi|pi5|pwm|mock" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--frobnicate"], "unknown option --frobnicate"),
        (["--leds", "dmx"], "--leds is 'dmx'; use spi, pi5, pwm or mock"),
        (["--board", "pi5", "--leds", "pwm"], "does not work on a Pi 5; use --leds pi5"),
        (["--data", "relative/dir"], "--data needs an absolute folder"),
    ],
)
def test_installer_mistakes_are_one_line_before_any_change(args: list[str], message: str) -> None:
    done = installer(*args)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert message in last, done.stderr
    assert "Traceback" not in done.stderr and "Installing" not in done.stdout


@pytest.mark.parametrize("script", ["install.sh", "check-arm64"])
def test_source_copies_keep_every_package(script: str, tmp_path: Path) -> None:
    """The installer builds from a tar copy of the checkout (check-arm64 copies it the
    same way): its excludes drop the checkout's own records/ and out/, never a package
    folder of the same name (controller/records/ once went missing that way)."""
    text = (DEPLOY / script).read_text()
    excludes = re.findall(r"--exclude=('[^']*'|\S+)", text)
    assert "./records" in excludes
    args = [f"--exclude={e.strip(chr(39))}" for e in excludes]
    files = subprocess.run(
        ["tar", "-C", str(ROOT), *args, "-cf", "-", "."], capture_output=True, check=True
    ).stdout
    listing = subprocess.run(
        ["tar", "-t"], input=files, capture_output=True, check=True
    ).stdout.decode()
    assert "./controller/records/journal.py" in listing.splitlines()
    assert "./controller/cli/main.py" in listing.splitlines()
    assert not any(line.startswith("./.git/") for line in listing.splitlines())
