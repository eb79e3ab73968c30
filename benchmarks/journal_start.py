"""Start-up with a large journal: what the kiosk does before READY=1, and the file check.

    .venv/bin/python benchmarks/journal_start.py [--games 18250] [--runs 3] [--core 0]
                                                 [--folder DIR] [--only-process]

Bots play one game into a fresh journal; its rows are then copied until the
journal holds ``--games`` finished games (18,250 is ten games a day for five
years: about 0.5 GB, as issue 33 measured 26.6 KB a game). Printed, each the
median of ``--runs``: ``Journal.open`` after a clean stop (the bounded quick
check), after an unclean stop (the full integrity check, as every start ran
before), and the kiosk's whole start before READY=1 (``Kiosk.create`` and
``resume``: devices built, the journal opened, missing records written, an
unfinished game looked for), on a clean journal; and the real process: the
kiosk started as the unit starts it (``cafe-table kiosk --config``, a notify
socket, SDL's dummy video driver), pinned to one core with ``taskset -c
--core``, from exec to ``READY=1`` (median, 90th percentile and slowest of
``--runs``), and the process's own CPU time (user + system, from
``/proc/PID/stat``) when it said ``READY=1``: what a quiet core would take. The
bytecode is cached, as in an installed table (a first run, not counted, writes it).
With
``--folder DIR`` the journal is kept there and reused by the next run (growing
it takes minutes). The
journal is grown as a schema-2 journal whose copied games have no steady
stamps, like a café's journal migrated from schema 1; the retention does not
run before READY=1 (it waits for the table to be idle a minute).

Target (issue 33): start-up to READY=1 <= 2 s with five years of play, on x86.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.records.journal import Journal
from controller.records.journal_check import OPEN_MARK


def one_game(path: Path) -> None:
    """A journal with one finished game, played by bots."""
    kiosk = Kiosk.create(
        TableConfig.simulated(4, bots=4), seed=5, auto_game="oshaka-trick",
        records_dir=path.parent / "records", journal_path=path,
    )  # fmt: skip
    with kiosk:
        assert kiosk.run_headless(), "the bots did not finish their game"


def grow(path: Path, games: int) -> None:
    """Copy the finished game until the journal holds ``games`` of them (fast, unsynced)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous = OFF")
    have = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    while have < games:
        batch = min(have, games - have)
        db.execute(
            "INSERT INTO games (id, game, players, header, seed, config, status, started, "
            "finished, report, record) SELECT id + ?, game, players, header, seed, config, "
            "status, started, finished, report, record FROM games WHERE id <= ?",
            (have, batch),
        )
        db.execute(
            "INSERT INTO entries (game, seq, kind, data, at) SELECT game + ?, seq, kind, data, "
            "at FROM entries WHERE game <= ?",
            (have, batch),
        )
        db.commit()
        have += batch
    # The copies count as games from before record files were tracked: no files to write.
    db.execute("UPDATE meta SET value = ? WHERE key = 'records-tracked-from'", (str(have + 1),))
    db.execute("UPDATE meta SET value = '0' WHERE key = ?", (OPEN_MARK,))
    db.commit()
    db.execute("VACUUM")
    db.close()


def mark(path: Path, value: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (value, OPEN_MARK))
    db.close()


def timed(runs: int, before: Callable[[], None], work: Callable[[], None]) -> float:
    """The median seconds of ``work`` over ``runs``, ``before`` run untimed each time."""
    times = []
    for _ in range(runs):
        before()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far, from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ready_times(folder: Path, runs: int, core: int) -> tuple[list[float], list[float]]:
    """Seconds from exec to READY=1 of the real kiosk process, pinned to ``core``, and
    the CPU seconds it had used by then."""
    toml = folder / "table.toml"
    seats = "".join(f"[[seat]]\nbot = true\npixels = [{i * 4}, {i * 4 + 4}]\n\n" for i in range(4))
    toml.write_text(f'[table]\nrecords = "{folder}"\n\n[leds]\nbackend = "mock"\n\n{seats}')
    pin = ["taskset", "-c", str(core)] if shutil.which("taskset") else []
    if not pin:
        print("taskset not found: the process is not pinned")
    times, cpu = [], []
    # As installed (pip compiles the package's bytecode): a first run, not counted, writes
    # the bytecode cache even where the environment says not to (PYTHONDONTWRITEBYTECODE).
    for run in range(-1, runs):
        mark(folder / "journal.sqlite3", "0")
        address = str(folder / f"notify-{run}")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(address)
            sock.settimeout(120)
            env = {**os.environ, "NOTIFY_SOCKET": address, "SDL_VIDEODRIVER": "dummy",
                   "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}  # fmt: skip
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            started = time.perf_counter()
            proc = subprocess.Popen(
                [*pin, sys.executable, "-m", "controller", "kiosk", "--config", str(toml)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                cwd=Path(__file__).resolve().parent.parent,
            )  # fmt: skip
            try:
                while not sock.recv(4096).decode().startswith("READY=1"):
                    pass
                if run >= 0:
                    times.append(time.perf_counter() - started)
                    cpu.append(cpu_seconds(proc.pid))
            finally:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
            os.unlink(address)
    return times, cpu


def p90(values: list[float]) -> float:
    """The 90th percentile (the slowest of fewer than ten)."""
    return statistics.quantiles(values, n=10)[-1] if len(values) >= 10 else max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=18_250, help="finished games in the journal")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--core", type=int, default=0, help="the core the real process runs on")
    parser.add_argument("--folder", type=Path, help="keep the journal here, reuse it next time")
    parser.add_argument(
        "--only-process", action="store_true", help="measure only the real process's start"
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.folder is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory())
        else:
            args.folder.mkdir(parents=True, exist_ok=True)
            folder = str(args.folder)
        path = Path(folder) / "journal.sqlite3"
        made = time.perf_counter()
        if not path.exists():
            one_game(path)
            grow(path, args.games)
        have = sqlite3.connect(path).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        size = path.stat().st_size / 1e6
        print(f"journal: {have} games, {size:.0f} MB, ready in "
              f"{time.perf_counter() - made:.0f} s")  # fmt: skip
        if not args.only_process:
            in_process(path, Path(folder), args.runs)
        ready, cpu = ready_times(Path(folder), args.runs, args.core)
        print(
            f"the kiosk process, exec to READY=1, on core {args.core}: median "
            f"{statistics.median(ready):.2f} s, p90 {p90(ready):.2f} s, slowest "
            f"{max(ready):.2f} s ({args.runs} runs; target <= 2 s); its CPU time at "
            f"READY=1: median {statistics.median(cpu):.2f} s, p90 {p90(cpu):.2f} s, least "
            f"{min(cpu):.2f} s"
        )


def in_process(path: Path, folder: Path, runs: int) -> None:
    """The journal's open (clean and unclean stop) and the kiosk's start, in this process."""
    config = TableConfig.simulated(4, bots=4)

    def open_close() -> None:
        Journal.open(path, config).close()

    clean = timed(runs, lambda: mark(path, "0"), open_close)
    print(f"Journal.open after a clean stop (quick check, bounded): {clean:.2f} s")
    unclean = timed(runs, lambda: mark(path, "1"), open_close)
    print(f"Journal.open after an unclean stop (full integrity check): {unclean:.2f} s")

    def start() -> None:
        kiosk = Kiosk.create(config, seed=1, journal_path=path,
                             records_dir=folder / "records")  # fmt: skip
        with kiosk:
            kiosk.resume()

    whole = timed(runs, lambda: mark(path, "0"), start)
    print(f"kiosk start before READY=1 (create + resume), clean journal: {whole:.2f} s")


if __name__ == "__main__":
    main()
