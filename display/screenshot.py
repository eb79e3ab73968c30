"""Save what the renderer drew as a PNG (for docs, bug reports and looking at scenes)."""

from __future__ import annotations

from pathlib import Path

import pygame

from controller.view import TableView
from display.renderer import Renderer


def save_screenshot(surface: pygame.Surface, path: str | Path) -> Path:
    """Write ``surface`` to ``path`` as a PNG (parent folders are created); returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(target))
    return target


def screenshot_view(
    view: TableView,
    path: str | Path,
    size: tuple[int, int] = (800, 480),
    rotation: int = 0,
) -> Path:
    """Render ``view`` with a fresh renderer of ``size`` and save it as a PNG."""
    renderer = Renderer(size, rotation=rotation)
    return save_screenshot(renderer.render(view), path)
