"""Commands as the table prints them: written so that a copy works in a new shell.

The ``cafe-table`` console script lives in the environment it was installed
in (the clone's ``.venv/bin``), which a new shell does not have on its PATH
unless that environment is activated. So every message that tells a person
to run a command names the program the way that works from any shell: plain
``cafe-table`` when that very script is on the PATH, else the script by its
full path, else this Python with ``-m controller``.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

SCRIPT = "cafe-table"


def program() -> str:
    """How to start this installation's command line from a new shell."""
    script = Path(sys.executable).parent / SCRIPT
    on_path = shutil.which(SCRIPT)
    if on_path is not None and script.exists() and Path(on_path).resolve() == script.resolve():
        return SCRIPT
    if script.exists():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m controller"


def command(*words: str | Path) -> str:
    """A full command line of this program, each word quoted for the shell as needed."""
    return " ".join([program(), *(shlex.quote(str(word)) for word in words)])
