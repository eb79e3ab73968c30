"""The mock GPIO pins' clock, faked: shared by the tests of the buttons, the toss timer and
the debouncer (a pytest plugin, ``tests/conftest.py``).

gpiozero's ``MockFactory`` pins stamp their edges with ``gpiozero.pins.mock.monotonic``;
the ``clock`` fixture puts a ``FakeClock`` there, so a test sets the instant of each edge.
"""

from __future__ import annotations

import pytest


class FakeClock:
    """The mock pins' and the timer's clock; ``now`` is set by the test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The mock pins' clock, faked (a module with a ``clock`` of its own overrides it)."""
    fake = FakeClock()
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", fake)
    return fake
