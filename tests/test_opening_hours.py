"""Closing hours and the drifting attract screen (pure: times are passed in)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from controller.config.opening_hours import DRIFT_PIXELS, Sleeper, SleepWindow, drift
from controller.config.reading import ConfigError
from controller.config.table_config import parse


def at(hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 11, 30, hour, minute)


def test_parse_and_print() -> None:
    window = SleepWindow.parse("02:00-10:00")
    assert window == SleepWindow(120, 600)
    assert str(window) == "02:00-10:00"
    assert str(SleepWindow.parse(" 23:30 - 7:05 ")) == "23:30-07:05"


@pytest.mark.parametrize("text", ["", "02:00", "2-10", "25:00-10:00", "02:60-03:00", "03:00-03:00"])
def test_bad_windows_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        SleepWindow.parse(text)


def test_contains_with_and_without_midnight() -> None:
    day = SleepWindow.parse("02:00-10:00")
    assert not day.contains(at(1, 59))
    assert day.contains(at(2, 0)) and day.contains(at(9, 59))
    assert not day.contains(at(10, 0))
    night = SleepWindow.parse("23:30-07:00")
    assert night.contains(at(23, 45)) and night.contains(at(0, 0)) and night.contains(at(6, 59))
    assert not night.contains(at(7, 0)) and not night.contains(at(12, 0))


def test_a_tap_wakes_the_table_for_a_while() -> None:
    sleeper = Sleeper(SleepWindow.parse("02:00-10:00"), wake_seconds=600)
    assert not sleeper.asleep(at(12), now=0.0)
    assert sleeper.asleep(at(3), now=0.0)
    sleeper.touch(now=100.0)
    assert not sleeper.asleep(at(3), now=100.0)
    assert not sleeper.asleep(at(3), now=699.0)
    assert sleeper.asleep(at(3), now=700.0)


def test_no_window_never_sleeps() -> None:
    assert not Sleeper(None).asleep(at(3), now=0.0)


def test_drift_stays_small_and_moves_slowly() -> None:
    offsets = [drift(t) for t in range(0, 660, 5)]
    assert all(abs(x) <= DRIFT_PIXELS and abs(y) <= DRIFT_PIXELS for x, y in offsets)
    assert len(set(offsets)) > 20  # it wanders over many places...
    steps = [abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in itertools.pairwise(offsets)]
    assert max(steps) <= 2  # ...a pixel or two at a time, never jumping


def test_config_sleep_key() -> None:
    assert parse({"display": {"sleep": "02:00-10:00"}}).display.sleep == SleepWindow(120, 600)
    assert parse({}).display.sleep is None
    with pytest.raises(ConfigError, match=r"display.sleep is '2am-10am'"):
        parse({"display": {"sleep": "2am-10am"}})
