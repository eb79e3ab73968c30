"""Whether the wall clock is synchronised: timesyncd's flag, else the kernel's adjtimex state."""

from __future__ import annotations

from pathlib import Path

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
