"""deploy/check-boot's pure parts: its options, the initramfs it assembles, and how it
judges what the booted machine shows (systemctl's properties, the console, the
screendump, the unit's log). The boot itself is a manual pre-release check
(docs/raspberry-pi.md, "The whole boot"): it needs root, qemu and many minutes.
"""

from __future__ import annotations

import gzip
import importlib.machinery
import importlib.util
import json
import signal
import sqlite3
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "deploy" / "check-boot"


def load_script() -> ModuleType:
    """The script as a module (it has no .py suffix: it is run as a command)."""
    loader = importlib.machinery.SourceFileLoader("check_boot", str(SCRIPT))
    spec = importlib.util.spec_from_loader("check_boot", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_boot"] = module  # dataclasses look their module up by name
    loader.exec_module(module)
    return module


cb: Any = load_script()


def test_defaults_are_bookworm_a_pi4_cpu_and_the_cache_folder() -> None:
    opts = cb.parse_args([])
    assert opts.suite == "bookworm"
    assert opts.cpu == "cortex-a72"
    assert opts.cache == Path("/var/cache/cafe-check-boot")
    assert opts.out == Path("/var/cache/cafe-check-boot/last-run")
    assert not opts.rebuild_base


def test_options_are_read(tmp_path: Path) -> None:
    opts = cb.parse_args(
        ["--suite", "trixie", "--cache", str(tmp_path), "--memory", "3072", "--cpus", "4"]
    )
    assert (opts.suite, opts.memory_mb, opts.cpus) == ("trixie", 3072, 4)
    assert opts.out == tmp_path / "last-run"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "buster"], "invalid choice: 'buster'"),
        (["--memory", "256"], "--memory must be at least 512"),
        (["--cpus", "0"], "--cpus must be between 1 and 8"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--keep-image", "--image", "/tmp"], "not allowed with argument"),
    ],
)
def test_option_mistakes_are_one_line_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cb.parse_args(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_help_runs_without_root() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert "--rebuild-base" in done.stdout


SHOW = """\
ActiveState=active
SubState=running
StatusText=attract screen
MainPID=612
ActiveEnterTimestampMonotonic=187654321
InactiveExitTimestampMonotonic=0
"""


def test_systemctl_show_is_parsed_and_ready_means_active_running() -> None:
    props = cb.parse_show(SHOW)
    assert props["StatusText"] == "attract screen"
    assert cb.is_ready(props)
    assert cb.monotonic_s(props, "ActiveEnterTimestampMonotonic") == pytest.approx(187.654321)
    assert cb.monotonic_s(props, "InactiveExitTimestampMonotonic") is None
    # Type=notify before READY=1: activating/start.
    assert not cb.is_ready(cb.parse_show("ActiveState=activating\nSubState=start\n"))
    assert not cb.is_ready(cb.parse_show("ActiveState=active\nSubState=exited\n"))


MODULES_DEP = """\
kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz
kernel/fs/jbd2/jbd2.ko.xz:
kernel/fs/mbcache.ko.xz:
kernel/lib/crc16.ko.xz:
kernel/drivers/block/virtio_blk.ko.xz:
kernel/crypto/crc32c_generic.ko.xz:
kernel/drivers/gpu/drm/virtio/virtio-gpu.ko.xz: kernel/drivers/gpu/drm/drm.ko.xz
kernel/drivers/gpu/drm/drm.ko.xz:
"""
BUILTIN = "kernel/drivers/virtio/virtio_pci.ko\nkernel/drivers/virtio/virtio.ko\n"


def test_initramfs_modules_come_after_their_dependencies_and_skip_built_ins() -> None:
    order = cb.module_order(MODULES_DEP, BUILTIN, ["virtio_pci", "virtio_blk", "ext4"])
    assert order == [
        "kernel/drivers/block/virtio_blk.ko.xz",
        "kernel/lib/crc16.ko.xz",
        "kernel/fs/mbcache.ko.xz",
        "kernel/fs/jbd2/jbd2.ko.xz",
        "kernel/fs/ext4/ext4.ko.xz",
    ]
    # Dashes and underscores are the same module name, as modprobe has it.
    assert cb.module_order(MODULES_DEP, BUILTIN, ["virtio_gpu"])[-1].endswith("virtio-gpu.ko.xz")


def test_a_module_the_kernel_lacks_is_a_clear_error() -> None:
    with pytest.raises(cb.Prerequisite, match="no module nvme"):
        cb.module_order(MODULES_DEP, BUILTIN, ["nvme"])


def test_init_script_loads_modules_in_order_then_hands_over_to_systemd() -> None:
    script = cb.init_script(["crc16.ko", "ext4.ko"])
    assert script.startswith("#!/bin/busybox sh\n")
    assert script.index("insmod /modules/crc16.ko") < script.index("insmod /modules/ext4.ko")
    assert script.rstrip().endswith("exec switch_root /newroot /sbin/init")


def test_cpio_is_the_kernels_newc_format() -> None:
    archive = cb.cpio_newc([("bin", 0o40755, b""), ("init", 0o100755, b"#!/bin/sh\n")])
    entries = []
    pos = 0
    while True:
        header = archive[pos : pos + 110].decode()
        assert header[:6] == "070701"
        fields = [int(header[6 + 8 * i : 14 + 8 * i], 16) for i in range(13)]
        mode, size, name_size = fields[1], fields[6], fields[11]
        name_at = pos + 110
        name = archive[name_at : name_at + name_size - 1].decode()
        data_at = name_at + name_size + (-(name_at + name_size) % 4)
        entries.append((name, mode, archive[data_at : data_at + size]))
        pos = data_at + size + (-(data_at + size) % 4)
        if name == "TRAILER!!!":
            break
    assert entries == [
        ("bin", 0o40755, b""),
        ("init", 0o100755, b"#!/bin/sh\n"),
        ("TRAILER!!!", 0, b""),
    ]
    assert pos == len(archive)


def ppm(width: int, height: int, rgb: bytes, comment: bool = False) -> bytes:
    note = b"# CREATOR: QEMU\n" if comment else b""
    return b"P6\n" + note + f"{width} {height}\n255\n".encode() + rgb


def test_a_black_screendump_is_blank() -> None:
    picture = cb.parse_ppm(ppm(64, 32, bytes(64 * 32 * 3)))
    assert picture.stats() == (0.0, 1)
    assert "blank" in cb.judge_picture(picture)


def test_a_console_cursor_on_black_is_still_blank() -> None:
    rgb = bytearray(64 * 64 * 3)
    for x in range(8):  # one small white block: a text cursor
        rgb[x * 3 : x * 3 + 3] = b"\xff\xff\xff"
    assert cb.judge_picture(cb.parse_ppm(ppm(64, 64, bytes(rgb), comment=True))) is not None


def test_a_drawn_screen_passes() -> None:
    width, height = 64, 64
    rgb = bytes(
        channel
        for y in range(height)
        for x in range(width)
        for channel in ((x * 4) % 256, (y * 4) % 256, (x + y) % 256)
    )
    picture = cb.parse_ppm(ppm(width, height, rgb))
    share, colours = picture.stats()
    assert share > 0.5
    assert colours >= 16
    assert cb.judge_picture(picture) is None


def test_a_cut_screendump_is_an_error() -> None:
    with pytest.raises(ValueError, match="bytes of pixels"):
        cb.parse_ppm(ppm(4, 4, bytes(10)))
    with pytest.raises(ValueError, match="not a P6"):
        cb.parse_ppm(b"P3\n1 1\n255\n0 0 0\n")


def test_png_holds_the_same_pixels() -> None:
    rgb = bytes(range(2 * 3 * 3))
    png = cb.parse_ppm(ppm(3, 2, rgb)).png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (3, 2)
    idat_at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[idat_at - 4 : idat_at])
    raw = zlib.decompress(png[idat_at + 4 : idat_at + 4 + length])
    assert raw == b"\0" + rgb[:9] + b"\0" + rgb[9:]


CONSOLE_OK = """\
[    3.101] virtio_blk virtio1: [vda] 12582912 512-byte logical blocks
initramfs: /dev/vda mounted, starting systemd
[  OK  ] Started cafe-table.service - Cafe table kiosk.
"""
CONSOLE_PANIC = """\
[    2.933] VFS: Cannot open root device "vda" or unknown-block(0,0): error -6
[    2.934] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)
"""
CONSOLE_NO_DISK = "initramfs: waiting 30 s for /dev/vda failed; a shell follows\n"


def test_console_problems_are_found_and_a_good_boot_has_none() -> None:
    assert cb.console_problems(CONSOLE_OK) == []
    assert cb.console_problems(CONSOLE_PANIC) == ["the kernel panicked"]
    assert cb.console_problems(CONSOLE_NO_DISK) == [
        "initramfs: waiting 30 s for /dev/vda failed; a shell follows"
    ]


def test_watchdog_kill_is_read_from_the_units_log() -> None:
    fired = (
        "cafe-table.service: Watchdog timeout (limit 30s)!\n"
        "cafe-table.service: Killing process 612 (cafe-table) with signal SIGABRT.\n"
    )
    assert cb.watchdog_fired(fired)
    # The unit's result says so too, when the log window began after the timeout line.
    assert cb.watchdog_fired("cafe-table.service: Failed with result 'watchdog'.\n")
    assert not cb.watchdog_fired("cafe-table.service: Main process exited, code=killed\n")
    assert not cb.watchdog_fired("cafe-table.service: Failed with result 'signal'.\n")


def test_figures_pass_only_when_every_check_passed() -> None:
    figures = cb.Figures()
    assert not figures.passed()  # nothing ran: no proof
    figures.checks["service READY"] = "ok: attract screen"
    assert figures.passed()
    figures.checks["stop <= 2 s"] = "FAILED: 90.1 s, result timeout"
    assert not figures.passed()


def test_initrd_is_gzip_of_cpio(tmp_path: Path) -> None:
    # make_initramfs on a tiny fake root: the kernel copied, the modules decompressed.
    root = tmp_path / "root"
    moddir = root / "lib/modules/6.1.0-99-arm64"
    (moddir / "kernel/fs").mkdir(parents=True)
    import lzma

    (moddir / "kernel/fs/ext4.ko.xz").write_bytes(lzma.compress(b"ELF-ext4"))
    (moddir / "modules.dep").write_text("kernel/fs/ext4.ko.xz:\nkernel/crypto/crc32c_generic.ko:\n")
    (moddir / "kernel/crypto").mkdir()
    (moddir / "kernel/crypto/crc32c_generic.ko").write_bytes(b"ELF-crc")
    (moddir / "modules.builtin").write_text(
        "kernel/drivers/virtio/virtio_pci.ko\nkernel/drivers/block/virtio_blk.ko\n"
    )
    (root / "boot").mkdir()
    (root / "boot/vmlinuz-6.1.0-99-arm64").write_bytes(b"kernel")
    (root / "bin").mkdir()
    (root / "bin/busybox").write_bytes(b"busybox")
    work = tmp_path / "work"
    work.mkdir()
    kernel, initrd = cb.make_initramfs(root, work)
    assert kernel.read_bytes() == b"kernel"
    archive = gzip.decompress(initrd.read_bytes())
    assert b"ELF-ext4" in archive  # decompressed from .ko.xz
    assert b"modules/ext4.ko\0" in archive
    assert b"insmod /modules/crc32c_generic.ko" in archive


def bots_stopped_mid_game(tmp_path: Path) -> dict[str, Any]:
    """The guest script run here, on this host's kiosk, as check-boot runs it in the
    guest: its report of the bots' game, stopped mid-play in ``tmp_path``'s journal."""
    journal = tmp_path / "journal.sqlite3"
    bots = [sys.executable, "-m", "controller", "kiosk", "--headless", "--seed", "7"]
    watch = [sys.executable, "-c", cb.MID_GAME_SCRIPT, str(journal), str(cb.MID_GAME_ACTIONS)]
    done = subprocess.run(
        [*watch, "120", "", "env", "SDL_VIDEODRIVER=dummy", *bots, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=SCRIPT.parent.parent,
        check=True,
    )
    stopped: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return stopped


def test_the_bots_are_stopped_mid_game_and_their_game_stays_in_play(tmp_path: Path) -> None:
    stopped = bots_stopped_mid_game(tmp_path)
    journal = tmp_path / "journal.sqlite3"
    assert cb.judge_mid_game(stopped) is None, stopped
    game_id, game, status, actions = stopped["game"]
    assert (game, status) == ("oshaka-trick", "playing")
    assert actions >= cb.MID_GAME_ACTIONS
    with sqlite3.connect(journal) as db:
        rows = db.execute("select id, status from games").fetchall()
    assert rows == [(game_id, "playing")]


def test_bots_that_finished_before_the_watch_saw_a_game_in_play_fail_the_check() -> None:
    stopped = {"game": None, "seen": None, "exit": 0, "after_s": 4.0, "said": ["Final table"]}
    why = cb.judge_mid_game(stopped)
    assert why is not None and "never had a game in play" in why and "Final table" in why


def test_a_game_resumed_after_the_reboot_passes() -> None:
    before = [3, "oshaka-trick", "playing", 14]
    after = [[2, "oss", "finished", 40], [3, "oshaka-trick", "playing", 14]]
    assert cb.judge_resumed(before, after, "playing oshaka-trick") is None


@pytest.mark.parametrize(
    ("after", "status", "expected"),
    [
        ([], "attract screen", "gone from the journal"),
        ([[3, "oshaka-trick", "abandoned", 14]], "attract screen", "'abandoned' after the reboot"),
        ([[3, "oshaka-trick", "playing", 9]], "playing oshaka-trick", "9 actions after"),
        ([[3, "oshaka-trick", "playing", 14]], "attract screen", "not playing the resumed"),
        ([[3, "oshaka-trick", "playing", 14]], None, "not playing the resumed"),
    ],
)
def test_a_game_not_resumed_after_the_reboot_fails(
    after: list[list[Any]], status: str | None, expected: str
) -> None:
    why = cb.judge_resumed([3, "oshaka-trick", "playing", 14], after, status)
    assert why is not None and expected in why


def test_a_start_timeout_is_a_drop_in_over_the_units_own() -> None:
    opts = cb.parse_args(["--start-timeout", "600", "--nice", "0", "--skip", "stop"])
    assert (opts.start_timeout_s, opts.nice, opts.skip) == (600.0, 0, {"stop"})
    assert cb.parse_args([]).start_timeout_s is None and cb.parse_args([]).nice == 10
    text = cb.start_timeout_dropin(600.0)
    assert "[Service]\nTimeoutStartSec=600\n" in text
    assert cb.START_DROPIN.startswith("etc/systemd/system/cafe-table.service.d/")
    assert cb.START_DROPIN.endswith(".conf")


@pytest.mark.slow  # the bots' game, then the kiosk's start: over 5 s on 2 cores
def test_the_installed_table_resumes_the_bots_game_as_check_boot_expects(tmp_path: Path) -> None:
    # check-boot's reboot step on this host, but for the reboot: the bots stopped
    # mid-game, then the kiosk as installed (deploy/table.toml.in) under a notify socket.
    from tests.test_kiosk_stop import kiosk

    before = bots_stopped_mid_game(tmp_path)["game"]
    template = (SCRIPT.parent / "table.toml.in").read_text()
    toml = tmp_path / "table.toml"
    toml.write_text(
        template.replace("@RECORDS@", str(tmp_path))
        .replace("@LEDS@", "mock")
        .replace("require_durable = true", "require_durable = false")  # tmp may be tmpfs
    )
    with kiosk(toml, tmp_path) as running:
        running.status(f"playing {before[1]}")
        code, _, err = running.stop_with(signal.SIGTERM)
    assert code == 0, err
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        after = db.execute(
            "select g.id, g.game, g.status, (select count(*) from entries e where e.game = g.id "
            "and e.kind = 'action') from games g order by g.id"
        ).fetchall()
    assert cb.judge_resumed(before, [list(row) for row in after], f"playing {before[1]}") is None
