"""Print the Python requirements of the table on a Raspberry Pi, one per line.

The installer feeds this to ``pip install -r``: the project's core
dependencies from ``pyproject.toml`` with ``pygame`` swapped for
``pygame-ce`` (the same ``import pygame``, but its aarch64 wheel's SDL has the
KMSDRM video driver that a Pi without a desktop needs), plus the ``pi`` extra.
Reading pyproject.toml keeps one list of dependencies instead of two that
drift apart. Standard library only: it runs before the virtual environment
has anything in it.

Usage: python3 pi_requirements.py PYPROJECT [--leds BACKEND]
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

# Extra packages per LED backend, beyond the ``pi`` extra. The PWM driver
# (rpi_ws281x) has no wheel and is compiled, so it comes only when asked for.
_LED_EXTRAS = {"pwm": ["rpi_ws281x>=5.0"]}


def _name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1).lower().replace("_", "-") if match else ""


def requirements(pyproject: Path, leds: str = "mock") -> list[str]:
    """The Pi's requirement lines: core deps (pygame -> pygame-ce), the pi extra, LED extras."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    lines: list[str] = []
    for requirement in project["dependencies"]:
        if _name(requirement) == "pygame":
            # pygame and pygame-ce install the same files; never both in one venv.
            requirement = "pygame-ce" + requirement[len("pygame") :]
        lines.append(requirement)
    lines.extend(project.get("optional-dependencies", {}).get("pi", []))
    lines.extend(_LED_EXTRAS.get(leds, []))
    return lines


def main(argv: list[str]) -> int:
    if not argv or len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--leds"):
        print("usage: pi_requirements.py PYPROJECT [--leds BACKEND]", file=sys.stderr)
        return 2
    leds = argv[2] if len(argv) == 3 else "mock"
    print("\n".join(requirements(Path(argv[0]), leds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
