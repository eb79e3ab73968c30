"""The reader firmware's poll period and tap latency, measured under MicroPython.

Runs the scripted board of ``tests/fwsim`` under MicroPython's WebAssembly
port (Node and ``npm ci --prefix .ci`` needed) and prints:

* the poll period with a slow reader (20 ms of every 25 ms), on the
  simulated clock (exact) and on this machine's real clock (MicroPython's own
  loop, sleeps and all; noisy on a busy machine);
* for the real MFRC522 driver against the emulated chip, per uid size: polls,
  the longest poll, SPI register accesses per poll, and the tap latency (card
  on the antenna -> ``P`` frame written to USB) over taps at every phase of
  the poll; then the same with the old 25 ms receive timeout.

The SPI cost per register access (``--spi-us``, default 50) is an estimate
for MicroPython on a 125 MHz RP2040 at 1 MHz SPI, not a measurement on a Pico.

Run:  .venv/bin/python benchmarks/firmware_poll.py [--taps 40] [--spi-us 50]

Exits non-zero if the simulated period is not 25 ms or a tap goes missing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "tests" / "fwsim" / "run.mjs"
MJS = ROOT / ".ci" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def scenario(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one scenario under MicroPython and return its result."""
    cmd = ["node", str(RUN), str(MJS / "micropython.mjs"), str(ROOT / "firmware"), name]
    proc = subprocess.run(
        [*cmd, json.dumps(args)], capture_output=True, text=True, timeout=600, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed under MicroPython:\n{proc.stderr}")
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result: dict[str, Any] = json.loads(line[len("RESULT ") :])
            return result
    raise SystemExit(f"{name} printed no result:\n{proc.stdout}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=40, help="taps per uid size")
    parser.add_argument("--spi-us", type=int, default=50, help="estimated us per SPI access")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of the period runs")
    args = parser.parse_args()
    if shutil.which("node") is None or not (MJS / "micropython.mjs").is_file():
        raise SystemExit("needs Node and MicroPython's WebAssembly port: npm ci --prefix .ci")
    ok = True

    expected = round(args.seconds * 1000 / 25)
    sim = scenario("period", {"read_ms": 20, "seconds": args.seconds})
    real = scenario("period", {"read_ms": 20, "seconds": args.seconds, "real": True})
    print(f"slow reader (20 ms a poll), {args.seconds:g} s, {expected} polls expected at 25 ms:")
    for label, result in (("simulated clock", sim), ("real clock", real)):
        period = args.seconds * 1000 / result["polls"]
        print(
            f"  {label:15}: {result['polls']} polls, {period:.1f} ms apart, "
            f"{result['overruns']} overran, longest {result['longest_step_ms']} ms"
        )
    ok &= abs(sim["polls"] - expected) <= 1

    print(f"MFRC522 driver on the emulated chip, {args.spi_us} us per SPI access (estimate):")
    seconds = 0.1 + args.taps * 0.613 + 0.5
    runs = [(f"{n}-byte uid", {"uid_bytes": n}) for n in (4, 7, 10)]
    runs.append(("7-byte, 25 ms timeout", {"uid_bytes": 7, "reload": 999}))
    for label, extra in runs:
        result = scenario(
            "mfrc522",
            {"taps": args.taps, "hold_ms": 300, "spi_us": args.spi_us, "seconds": seconds, **extra},
        )
        lat = sorted(result["latency_ms"])
        p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
        period = seconds * 1000 / result["polls"]
        print(
            f"  {label:22}: timeout {result['chip_timeout_us']} us, "
            f"{period:.1f} ms a poll, longest {result['longest_step_ms']} ms, "
            f"{result['spi_per_poll']:.0f} SPI/poll; tap latency min {lat[0]}, "
            f"median {statistics.median(lat):g}, p95 {p95}, max {lat[-1]} ms "
            f"({len(result['placed'])}/{len(result['expected'])} taps)"
        )
        ok &= result["placed"] == result["expected"]
    print("as documented" if ok else "NOT AS DOCUMENTED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
