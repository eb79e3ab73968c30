"""pygame's start without numpy: a lookup answers, an import is refused (pygame and pygame-ce)."""

from __future__ import annotations

import subprocess
import sys


def test_inside_a_lookup_answers_and_an_import_is_refused() -> None:
    # In a process of its own: the test process may have imported numpy already.
    code = (
        "import importlib.util, sys\n"
        "from display.quick_import import skipping\n"
        "with skipping():\n"
        "    found = importlib.util.find_spec('numpy') is not None\n"  # pygame-ce asks this
        "    try:\n"
        "        import numpy\n"
        "        refused = False\n"
        "    except ImportError as exc:\n"
        "        refused = 'skipped while pygame starts' in str(exc)\n"
        "print(found, refused, 'numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False"]


def test_pygame_starts_without_numpy_in_a_fresh_process() -> None:
    # What the kiosk does first, in a process of its own: pygame imported, numpy not.
    code = (
        "import sys; from display.quick_import import import_pygame; import_pygame(); "
        "import pygame; pygame.init(); print('numpy' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"
