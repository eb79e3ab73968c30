"""A reader given as /dev/ttyACMn or /dev/ttyUSBn is warned about at start and by doctor,
with its /dev/serial/by-id name (issue 33: such a seat stayed offline for ever once the
board re-enumerated under another number)."""

from __future__ import annotations

import logging
import queue
from pathlib import Path

import pytest

from controller.cli.doctor import check_readers
from controller.config.table_config import TableConfig, parse
from controller.kiosk.devices import build
from controller.words import Presenter
from hardware.leds import RecordingStrip
from hardware.port_names import is_plug_order_name, stable_port_name
from tests.test_doctor import machine

shown = Presenter("en")


def test_plug_order_names_are_told_from_stable_ones() -> None:
    assert is_plug_order_name("/dev/ttyACM1") and is_plug_order_name("/dev/ttyUSB12")
    for stable in ("/dev/serial/by-id/usb-Raspberry_Pi_Pico_E6616407E3-if00",
                   "/dev/cafe-table/reader-platform-usb-0_1_2_1_0", "/dev/ttyAMA0",
                   "/dev/ttyACM", "mock"):  # fmt: skip
        assert not is_plug_order_name(stable)


def test_the_stable_name_is_the_by_id_link_to_the_same_device(tmp_path: Path) -> None:
    device = tmp_path / "ttyACM1"
    device.touch()
    by_id, by_path = tmp_path / "by-id", tmp_path / "by-path"
    by_id.mkdir()
    by_path.mkdir()
    (by_path / "platform-usb-0:1.2:1.0").symlink_to(device)
    (by_id / "usb-Raspberry_Pi_Pico_E6616407E3-if00").symlink_to(device)
    assert stable_port_name(str(device), (by_id, by_path)) == str(
        by_id / "usb-Raspberry_Pi_Pico_E6616407E3-if00"
    )


def raw_reader_table() -> TableConfig:
    return parse({"seat": [{"reader": "/dev/ttyACM7", "pixels": [0, 4]},
                           {"reader": "mock", "pixels": [4, 8]}]})  # fmt: skip


def test_the_kiosk_warns_at_start(caplog: pytest.LogCaptureFixture) -> None:
    config = raw_reader_table()
    with caplog.at_level(logging.WARNING):
        build(config, queue.SimpleQueue(), strip=RecordingStrip(8))
    warnings = [r.getMessage() for r in caplog.records if "plug order" in r.getMessage()]
    assert len(warnings) == 1
    assert warnings[0].startswith("seat 0's reader is /dev/ttyACM7")
    assert "assign-readers" in warnings[0]


def test_doctor_fails_it_and_names_the_fix(tmp_path: Path) -> None:
    results = check_readers(raw_reader_table(), machine(tmp_path))
    [result] = results
    assert not result.ok
    assert "numbered in plug order" in shown(result.detail)
    assert "assign-readers" in shown(result.fix)  # no by-id link on this machine
