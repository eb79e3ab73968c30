"""The table's display: pygame scenes that draw a ``TableView``, and the simulator's controls."""

import os

# pygame prints a greeting on import; a kiosk's console and logs should not carry it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
