"""Asking SDL whether it can show a picture now (the kiosk waits for it at boot:
``controller.kiosk.display_wait``)."""

from __future__ import annotations

import pygame

__all__ = ["sdl_display_problem"]


def sdl_display_problem() -> str | None:
    """Why SDL's video driver cannot start now (its own words), or None when it can.

    A started driver is left started: the window opens on it next.
    """
    try:
        pygame.display.init()
    except pygame.error as exc:
        return str(exc) or "SDL could not start its video driver"
    return None
