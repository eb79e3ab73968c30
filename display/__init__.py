"""The table's display: pygame scenes that draw a ``TableView``, and the simulator's controls."""

import os

from display.quick_import import import_pygame

# pygame prints a greeting on import; a kiosk's console and logs should not carry it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Before any display module imports pygame: without numpy and pkg_resources (start-up time).
import_pygame()
