"""Whether the wall clock is synchronised: timesyncd's flag, else the kernel's adjtimex state."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

from controller.records import clock
from controller.records.clock import TIME_ERROR, clock_synchronised, kernel_clock_state


def test_timesyncds_flag_means_synchronised(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    flag.touch()
    assert clock_synchronised(flag, state=lambda: TIME_ERROR)


def test_without_the_flag_the_kernel_decides(tmp_path: Path) -> None:
    missing = tmp_path / "synchronized"
    assert not clock_synchronised(missing, state=lambda: TIME_ERROR)
    assert clock_synchronised(missing, state=lambda: 0)  # TIME_OK
    assert clock_synchronised(missing, state=lambda: None)  # cannot ask: a PC with a battery


def test_the_kernel_is_asked_without_changing_anything() -> None:
    state = kernel_clock_state()
    # Linux answers 0..5 (TIME_OK .. TIME_ERROR); reading changes nothing, so twice is the same.
    assert state in range(6)
    assert kernel_clock_state() == state


def test_the_kernel_is_asked_without_starting_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # ctypes.util.find_library("c") runs `ldconfig -p`: a process at the kiosk's start,
    # and at every journal write before it was cached. The C library is the process's own.
    def no_process(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError(f"a process was started: {args}")

    monkeypatch.setattr(subprocess, "Popen", no_process)
    clock._libc.cache_clear()
    try:
        state = kernel_clock_state()
    finally:
        clock._libc.cache_clear()
    assert state is not None and 0 <= state <= TIME_ERROR


def test_the_boot_id_is_read_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal stamps every action with the boot's id: read once, not on every tap."""
    clock.this_boot.cache_clear()
    first = clock.this_boot()
    assert first == clock.boot_id()
    reads: list[Path] = []

    def counted(path: Path = clock.BOOT_ID) -> str:
        reads.append(path)
        return "another boot"

    monkeypatch.setattr(clock, "boot_id", counted)
    assert clock.this_boot() == first
    assert reads == []
    assert clock.TableClock().boot() == first
