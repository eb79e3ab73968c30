"""[journal] require_durable: the mount table decides, injected here as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main as cli
from controller.records import durable
from controller.records.durable import NotDurable, describe, parse_mountinfo, require_durable

# /proc/self/mountinfo of a Pi with raspi-config's overlay file system on, and a
# USB drive mounted for the data (the documented layout).
PI_OVERLAY = """\
22 1 0:21 / / rw,noatime - overlay overlayroot rw,lowerdir=/ro,upperdir=/rw/upper
23 22 0:22 / /proc rw,nosuid - proc proc rw
25 22 179:1 / /boot/firmware rw,relatime - vfat /dev/mmcblk0p1 rw
30 22 0:25 / /run rw,nosuid,nodev - tmpfs tmpfs rw,size=1620k
41 22 8:1 / /mnt/cafe\\040data rw,noatime - ext4 /dev/sda1 rw
"""

PI_PLAIN = """\
22 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw
30 22 0:25 / /run rw,nosuid,nodev - tmpfs tmpfs rw,size=1620k
"""


def test_parse_mountinfo_unescapes_and_keeps_order() -> None:
    mounts = parse_mountinfo(PI_OVERLAY)
    assert [m.mount_point for m in mounts][-1] == "/mnt/cafe data"
    assert mounts[0].fs_type == "overlay"
    assert mounts[-1].source == "/dev/sda1"


def test_overlay_root_is_not_durable_but_the_data_drive_is() -> None:
    assert describe(Path("/var/lib/cafe-table/records"), PI_OVERLAY) == (False, "overlay")
    assert describe(Path("/mnt/cafe data/records"), PI_OVERLAY) == (True, "ext4")
    assert describe(Path("/run/cafe"), PI_PLAIN) == (False, "tmpfs")
    assert describe(Path("/var/lib/cafe-table"), PI_PLAIN) == (True, "ext4")
    # A folder merely named like a mount point is not under it.
    assert describe(Path("/running"), PI_PLAIN) == (True, "ext4")


def test_require_durable_refuses_with_one_line() -> None:
    with pytest.raises(NotDurable) as caught:
        require_durable(Path("/var/lib/cafe-table/records"), PI_OVERLAY)
    message = str(caught.value)
    assert "\n" not in message
    assert "is on overlay" in message and "data partition" in message
    require_durable(Path("/mnt/cafe data/records"), PI_OVERLAY)  # no error


def test_kiosk_refuses_to_start_on_tmpfs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records"
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        f"22 1 0:21 / / rw - ext4 /dev/vda rw\n40 22 0:30 / {tmp_path} rw - tmpfs tmpfs rw\n"
    )
    monkeypatch.setattr(durable, "MOUNTINFO", mountinfo)
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\nrecords = "{records}"\n[journal]\nrequire_durable = true\n')
    status = cli.main(["kiosk", "--headless", "--config", str(config), "--out", str(records)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"kiosk: the journal folder {records} is on tmpfs")
    assert not (records / "journal.sqlite3").exists()


def test_require_durable_is_a_boolean(tmp_path: Path) -> None:
    from controller.config.reading import ConfigError
    from controller.config.table_config import parse

    assert parse({"journal": {"require_durable": True}}).journal.require_durable
    assert not parse({}).journal.require_durable
    with pytest.raises(ConfigError, match=r"journal.require_durable must be true or false"):
        parse({"journal": {"require_durable": "yes"}})
    with pytest.raises(ConfigError, match=r"journal.durable is not a setting"):
        parse({"journal": {"durable": True}})
