"""The run's own check that a test over the limit is marked slow (tests/conftest.py)."""

from __future__ import annotations

from typing import Literal

import pytest

from tests.conftest import SLOW_LIMIT, count_unmarked, unmarked_over

Phase = Literal["setup", "call", "teardown"]


def report(test: str, when: Phase, seconds: float, *markers: str) -> pytest.TestReport:
    """A passed phase of ``test`` that took ``seconds``, as xdist hands it to the controller."""
    one: Literal[1] = 1
    keywords = {test.rpartition("::")[2]: one, "tests": one, **dict.fromkeys(markers, one)}
    return pytest.TestReport(
        test, ("tests/test_x.py", 1, test), keywords, "passed", None, when, duration=seconds
    )


def test_a_test_over_the_limit_is_listed_unless_it_is_marked_slow() -> None:
    seconds: dict[str, float] = {}
    long_phases: list[tuple[Phase, float]] = [
        ("setup", 1.0),
        ("call", SLOW_LIMIT - 0.5),
        ("teardown", 0.5),
    ]
    for when, took in long_phases:
        count_unmarked(report("tests/test_x.py::test_long", when, took), seconds)
        count_unmarked(report("tests/test_x.py::test_marked", when, took, "slow"), seconds)
    count_unmarked(report("tests/test_x.py::test_short", "call", 0.2), seconds)
    count_unmarked(report("tests/test_x.py::test_longer", "call", SLOW_LIMIT + 2), seconds)
    # Its phases together count; a test marked slow is not counted at all.
    assert seconds["tests/test_x.py::test_long"] == pytest.approx(SLOW_LIMIT + 1)
    assert "tests/test_x.py::test_marked" not in seconds
    assert unmarked_over(SLOW_LIMIT, seconds) == [
        (SLOW_LIMIT + 2, "tests/test_x.py::test_longer"),
        (pytest.approx(SLOW_LIMIT + 1), "tests/test_x.py::test_long"),
    ]
