"""The kiosk's start-up imports neither numpy nor pkg_resources, nor game scenes or search bots."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

START = """
import json, sys
from controller.kiosk.app import Kiosk
from controller.config.table_config import TableConfig
from display.window import Window
kiosk = Kiosk.create(TableConfig.simulated())
with kiosk, Window(kiosk.config.display) as window:
    kiosk.loop.drain()
    window.show(kiosk.table.view)
    import pygame
    loaded = sorted(sys.modules)
print(json.dumps({"modules": loaded, "surfarray": repr(pygame.surfarray)}))
"""


def test_the_first_frame_needs_no_numpy_pkg_resources_game_scene_or_search_bot() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", START],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    tops = {name.partition(".")[0] for name in found["modules"]}
    assert "numpy" not in tops
    assert "pkg_resources" not in tops
    assert "setuptools" not in tops
    # Game scenes come in when a game is first drawn, not before the attract screen.
    assert not [name for name in found["modules"] if name.endswith("_scene")]
    # Nor the search bots (some 30 ms here): a game's first bot decision imports its own.
    assert not [name for name in found["modules"] if name.endswith("_search")]
    assert "MissingModule" in found["surfarray"]


def test_numpy_can_still_be_imported_after_the_display() -> None:
    code = "import display, numpy, sys; print(numpy.__name__, 'pkg_resources' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.stdout.split()[0] == "numpy", done.stderr
