"""The table configuration: defaults, the documented example, and clear refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig, load, parse
from tests.conftest import ROOT, run_cli_here

SAMPLE = ROOT / "controller" / "samples" / "table.toml"


def test_default_is_an_all_simulated_four_seat_table() -> None:
    config = TableConfig.simulated()
    assert len(config.seats) == 4
    assert all(seat.reader == "mock" and seat.buttons is None for seat in config.seats)
    assert [seat.bot for seat in config.seats] == [False, True, True, True]
    assert config.leds.backend == "mock"
    assert config.tags is None


def test_the_documented_example_loads() -> None:
    config = load(SAMPLE)
    assert len(config.seats) == 4
    assert config.seats[0].buttons == {"prev": 5, "ok": 6, "next": 13}
    assert config.seats[3].bot is True
    assert config.display.fullscreen is True
    assert config.tags == SAMPLE.parent / "tags.json"
    assert config.deal == "physical"


def test_the_timer_section() -> None:
    assert parse({}).timer is None  # a file without [timer]: the table has none
    timer = parse({"timer": {"pin": 21, "mode": "pad", "limit": 10}}).timer
    assert timer is not None
    assert (timer.pin, timer.mode, timer.limit) == (21, "pad", 10.0)
    simulated = parse({"timer": {}}).timer
    assert simulated is not None and simulated.pin is None
    assert TableConfig.simulated().timer is not None  # the demo has a simulated timer


def test_an_empty_file_is_the_simulated_table() -> None:
    assert parse({}).seats == TableConfig.simulated().seats


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ({"dispaly": {}}, ["dispaly", "is not a setting"]),
        ({"display": {"rotation": 45}}, ["display.rotation", "0, 90, 180, 270"]),
        ({"display": {"width": "wide"}}, ["display.width", "whole number"]),
        ({"leds": {"brightness": 2}}, ["leds.brightness", "0.0..1.0"]),
        ({"leds": {"backend": "dmx"}}, ["leds.backend", "'mock', 'neopixel'"]),
        ({"seat": [{"reader": "mock"}]}, ["1 [[seat]] entries", "2 to 7"]),
        ({"seat": [{}, {"buttons": {"fire": 4}}]}, ["seat[1].buttons.fire", "prev, ok, next"]),
        ({"seat": [{}, {"pixels": [8]}]}, ["seat[1].pixels", "[first, end]"]),
        ({"seat": [{"pixels": [0, 8]}, {"pixels": [4, 12]}]}, ["seat[1].pixels overlaps"]),
        (
            {"seat": [{"buttons": {"ok": 5}}, {"buttons": {"ok": 5}}]},
            ["GPIO pin 5", "more than one button"],
        ),
        ({"seat": [{}, {"protocol": "morse"}]}, ["seat[1].protocol"]),
        ({"table": {"deal": "maybe"}}, ["table.deal", "'virtual', 'physical'"]),
        ({"table": {"dice": "loaded"}}, ["table.dice", "'virtual', 'manual'"]),
        ({"timer": {"mode": "stopwatch"}}, ["timer.mode", "'press', 'pad'"]),
        ({"timer": {"pin": 40}}, ["timer.pin", "0..27"]),
        (
            {"timer": {"pin": 5}, "seat": [{"buttons": {"ok": 5}}, {}]},
            ["GPIO pin 5", "toss timer"],
        ),
    ],
)
def test_bad_settings_name_the_key_and_the_fix(data: dict[str, object], names: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        parse(data)
    for name in names:
        assert name in str(info.value)


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[display\nwidth = 3", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(bad)
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "missing.toml")


def test_the_kiosk_refuses_a_bad_config_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[display]\nrotation = 45\n", encoding="utf-8")
    result = run_cli_here("kiosk", "--headless", "--config", str(bad))
    assert result.returncode == 2
    assert "display.rotation" in result.stderr
    assert "Traceback" not in result.stderr
