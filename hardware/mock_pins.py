"""gpiozero mock pins that keep a bounded history, for tests and the simulator.

gpiozero's ``MockPin`` appends every state change to ``states`` for ever; the
simulator presses buttons for months, so here ``states`` keeps only the last
``PIN_HISTORY`` changes. ``assert_states`` and ``assert_states_and_times``
work as before on that window. Imported only when a mock factory is made, so
gpiozero's mock module is not loaded on a real table.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Final

from gpiozero.pins.mock import MockFactory, MockPin

__all__ = ["PIN_HISTORY", "BoundedMockPin", "bounded_mock_factory"]

PIN_HISTORY: Final = 64
"""How many of its latest state changes a mock pin keeps in ``states``."""


class BoundedMockPin(MockPin):  # type: ignore[misc]
    """A ``MockPin`` whose ``states`` is a deque of at most ``PIN_HISTORY`` entries."""

    states: Any  # gpiozero's list of PinState, replaced by a deque

    def clear_states(self) -> None:
        """Start a fresh, bounded history holding the pin's current state."""
        super().clear_states()
        self.states = deque(self.states, maxlen=PIN_HISTORY)


def bounded_mock_factory() -> Any:
    """A fresh ``MockFactory`` whose pins are ``BoundedMockPin``."""
    return MockFactory(pin_class=BoundedMockPin)
