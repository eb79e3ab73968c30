"""Sparing the panel: a dark screen while the cafe is closed, a drifting attract screen.

The kiosk (controller/kiosk/app.py) decides when, with ``controller.config.opening_hours``;
these two helpers only draw. They work on the window's own surface, so the
scenes stay unaware of them.
"""

from __future__ import annotations

import pygame

from controller.view import TableView
from display.window import Window

__all__ = ["blank", "hide_pointer", "show_offset"]


def hide_pointer() -> None:
    """Hide the mouse pointer (a full-screen table is played with cards and buttons)."""
    pygame.mouse.set_visible(False)


def blank() -> None:
    """Fill the screen with black and show it (the LEDs are dimmed by the caller)."""
    surface = pygame.display.get_surface()
    if surface is not None:
        surface.fill((0, 0, 0))
        pygame.display.flip()


def show_offset(window: Window, view: TableView, offset: tuple[int, int], moved: bool) -> bool:
    """Show ``view`` shifted by ``offset`` pixels; redraws when the view changed or ``moved``.

    The strip the shift uncovers is black, like the attract screen's edge.
    Returns whether a frame was shown.
    """
    drawn = window.renderer.draw(view)
    surface = pygame.display.get_surface()
    if surface is None or not (drawn or moved):
        return False
    surface.fill((0, 0, 0))
    surface.blit(window.renderer.surface, offset)
    pygame.display.flip()
    return True
