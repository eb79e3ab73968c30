"""A café of 50 tables on one hub: records stored, dashboard latency, hub CPU and memory.

    .venv/bin/python benchmarks/cafe.py [--tables 50] [--seconds 60]

A real Mosquitto (configured by ``hub.broker.setup``) and a real hub process
(``cafe-table hub run``) run on this machine. Each simulated table is a real
``FleetLink`` that publishes a new state every ``--interval`` seconds (a
table at play speed: a tap every few seconds) and finishes a game (a record
through the journal's outbox) every ``--game-every`` states. A real Chromium
keeps the dashboard's floor page open; a MutationObserver in the page notes
when each table's card shows a new state version, and the latency is that
moment less the moment the table handed the state to its link.

Targets (issue 16): dashboard update p99 <= 1 s, no record lost, hub RSS <= 150 MB.
The hub checks every message it gets (``hub.messages``: a Pydantic model per
topic, a record replayed to its claimed totals); the benchmark also times
those checks in this process on the very messages the tables send, and says
what share of a core they would cost at this rate (issue 31).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.config.cafe import CafeSettings
from controller.fleet.link import FleetLink
from controller.fleet.outbox import Outbox
from controller.records.journal import Journal
from controller.records.record import replay
from hub import messages
from hub.broker import setup

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")
OBSERVER = """
window.__seen = [];
const floor = document.getElementById("floor");
new MutationObserver(() => {
  const now = Date.now();
  for (const card of floor.querySelectorAll("[data-table]")) {
    window.__seen.push([card.dataset.table, Number(card.dataset.version), now]);
  }
}).observe(floor, {childList: true, subtree: true});
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class SimulatedTable:
    """One table: a real FleetLink and a journal whose finished games fill the outbox."""

    def __init__(self, index: int, folder: Path, broker_port: int, password: str) -> None:
        self.id = f"table-{index + 1}"
        self.journal = Journal.open(folder / f"{self.id}.sqlite3")
        self.outbox = Outbox(self.journal.path, self.id)
        self.link = FleetLink(
            CafeSettings(
                broker="127.0.0.1",
                port=broker_port,
                table=self.id,
                password=password,
                state_interval=0.2,
                reconnect_max=2,
            ),
            self.outbox,
            lambda message: None,
        )
        self.version = 0
        self.sent: dict[int, float] = {}  # state version -> when it was handed to the link
        self.games = 0

    def step(self, game_every: int) -> None:
        self.version += 1
        self.sent[self.version] = time.time()
        self.link.publish_state(
            {
                "version": self.version,
                "screen": "play",
                "title": "Oh Pshaw",
                "round": self.version // 10 + 1,
                "waiting_for": [self.version % 4 + 1],
                "totals": [self.version, 0, 0, 0],
            }
        )
        if self.version % game_every == 0:
            engine = replay(SAMPLE)
            self.journal.game_started("oshaka-trick", [0, 1, 2, 3], engine.header(), seed=1)
            self.journal.game_finished(SAMPLE, engine.report())
            self.outbox.add_finished_games()
            self.link.record_ready()
            self.games += 1


def check_cost(tables: int, interval: float, game_every: int) -> dict[str, float]:
    """Time ``hub.messages.parse`` on a benchmark table's state and on a finished game's record.

    Returns microseconds per state, milliseconds per record, and the share of one core
    the checks take at the benchmark's rate (states and records per second).
    """
    with tempfile.TemporaryDirectory() as tmp:
        table = SimulatedTable(0, Path(tmp), 1, "")
        state = {
            "version": 1234,
            "screen": "play",
            "title": "Oh Pshaw",
            "round": 4,
            "waiting_for": [2],
            "totals": [31, 12, 40, 7],
        }
        engine = replay(SAMPLE)
        table.journal.game_started("oshaka-trick", [0, 1, 2, 3], engine.header(), seed=1)
        table.journal.game_finished(SAMPLE, engine.report())
        table.outbox.add_finished_games()
        [(_, record)] = table.outbox.pending()
        table.outbox.close()
        table.journal.close()
    state_bytes = json.dumps(state).encode()
    runs = 3000
    started = time.perf_counter()
    for _ in range(runs):
        messages.parse("table-1", "state", state_bytes)
    state_us = (time.perf_counter() - started) / runs * 1e6
    records = 30
    started = time.perf_counter()
    for _ in range(records):
        messages.parse("table-1", "record", record)
    record_ms = (time.perf_counter() - started) / records * 1e3
    states_per_s = tables / interval
    records_per_s = states_per_s / game_every
    share = states_per_s * state_us / 1e6 + records_per_s * record_ms / 1e3
    return {"state_us": state_us, "record_ms": record_ms, "core_share": share}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between states")
    parser.add_argument("--game-every", type=int, default=10, help="states per finished game")
    parser.add_argument("--screenshots", type=Path, help="save the dashboard's pages here")
    args = parser.parse_args()
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    chromium = shutil.which("chromium")
    if not Path(mosquitto).exists() or chromium is None:
        raise SystemExit("needs mosquitto and chromium (apt-get install mosquitto chromium)")
    from playwright.sync_api import sync_playwright

    cost = check_cost(args.tables, args.interval, args.game_every)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker_port, web_port = free_port(), free_port()
        ids = [f"table-{i + 1}" for i in range(args.tables)]
        user = "root" if os.geteuid() == 0 else None
        files = setup(folder / "broker", ids, port=broker_port, listen="127.0.0.1", user=user)
        broker = subprocess.Popen([mosquitto, "-c", str(files.conf)], stderr=subprocess.DEVNULL)
        wait_for_port(broker_port)
        hub_dir = folder / "hub"
        hub_dir.mkdir()
        (hub_dir / "hub.toml").write_text(
            f'[broker]\nport = {broker_port}\npassword_file = "{files.hub_password}"\n'
            f'[storage]\nurl = "sqlite:///hub.sqlite3"\n[web]\nhost = "127.0.0.1"\n'
            f"port = {web_port}\n"
        )
        (hub_dir / "pw").write_text("benchmark password")
        cli = [sys.executable, "-m", "controller", "hub"]
        subprocess.run(
            [
                *cli,
                "adduser",
                "bench",
                "--config",
                str(hub_dir / "hub.toml"),
                "--password-file",
                str(hub_dir / "pw"),
            ],
            check=True,
            cwd=ROOT,
        )
        hub = subprocess.Popen([*cli, "run", "--config", str(hub_dir / "hub.toml")], cwd=ROOT)
        wait_for_port(web_port)
        tables = [
            SimulatedTable(i, folder, broker_port, files.table_password(t).read_text().strip())
            for i, t in enumerate(ids)
        ]
        for table in tables:
            table.link.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium,
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{web_port}/login")
                page.fill("input[name=name]", "bench")
                page.fill("input[name=password]", "benchmark password")
                page.click("#login")
                page.wait_for_selector("#live-status")
                page.evaluate(OBSERVER)
                cpu_before, wall_before = proc_cpu_seconds(hub.pid), time.monotonic()
                rss_peak = 0.0
                stop = time.monotonic() + args.seconds
                offsets = [i * args.interval / len(tables) for i in range(len(tables))]
                start = time.monotonic()
                ticks = 0
                while time.monotonic() < stop:
                    for table, offset in zip(tables, offsets, strict=True):
                        due = start + offset + ticks * args.interval
                        pause = due - time.monotonic()
                        if pause > 0:
                            page.wait_for_timeout(pause * 1000)
                        table.step(args.game_every)
                    ticks += 1
                    rss_peak = max(rss_peak, proc_rss_mb(hub.pid))
                cpu = (proc_cpu_seconds(hub.pid) - cpu_before) / (time.monotonic() - wall_before)
                page.wait_for_timeout(3000)  # let the last updates land
                seen = page.evaluate("window.__seen")
                if args.screenshots is not None:
                    args.screenshots.mkdir(parents=True, exist_ok=True)
                    page.set_viewport_size({"width": 1280, "height": 800})
                    page.screenshot(path=str(args.screenshots / "dashboard-floor.png"))
                    page.goto(f"http://127.0.0.1:{web_port}/history")
                    page.screenshot(path=str(args.screenshots / "dashboard-history.png"))
                browser.close()
            sent_records = sum(t.games for t in tables)
            deadline = time.monotonic() + 30
            stored = 0
            while time.monotonic() < deadline:
                stored = count_games(hub_dir / "hub.sqlite3")
                if stored >= sent_records:
                    break
                time.sleep(0.5)
            first_seen: dict[tuple[str, int], float] = {}
            for table_id, version, at in seen:
                first_seen.setdefault((table_id, version), at / 1000)
            latencies = [
                (first_seen[(t.id, v)] - sent) * 1000
                for t in tables
                for v, sent in t.sent.items()
                if (t.id, v) in first_seen
            ]
            shown = len(latencies)
            published = sum(len(t.sent) for t in tables)
            print(
                f"tables {len(tables)}, {args.seconds:.0f} s, a state every {args.interval} s "
                f"per table ({len(tables) / args.interval:.1f} states/s)"
            )
            lost = sent_records - stored
            verdict = "none lost" if lost == 0 else f"LOST {lost}"
            print(f"records: {sent_records} finished, {stored} stored at the hub ({verdict})")
            print(
                f"dashboard updates: {shown} of {published} state versions drawn "
                "(the page skips versions superseded before it draws)"
            )
            if latencies:
                print(
                    f"publish -> page update: median {statistics.median(latencies):.0f} ms, "
                    f"p99 {percentile(latencies, 99):.0f} ms, max {max(latencies):.0f} ms"
                )
            print(f"hub: CPU {cpu * 100:.1f} % of a core, RSS peak {rss_peak:.1f} MB")
            print(
                f"checks (timed in the benchmark's process): {cost['state_us']:.0f} us per state, "
                f"{cost['record_ms']:.1f} ms per record (replayed), "
                f"{cost['core_share'] * 100:.2f} % of a core at this rate"
            )
            print(
                json.dumps(
                    {
                        "records_finished": sent_records,
                        "records_stored": stored,
                        "p50_ms": statistics.median(latencies) if latencies else None,
                        "p99_ms": percentile(latencies, 99) if latencies else None,
                        "hub_cpu_percent": cpu * 100,
                        "hub_rss_mb": rss_peak,
                        "check_state_us": cost["state_us"],
                        "check_record_ms": cost["record_ms"],
                        "check_core_percent": cost["core_share"] * 100,
                    }
                )
            )
        finally:
            for table in tables:
                table.link.close()
            hub.terminate()
            hub.wait(10)
            broker.terminate()
            broker.wait(10)


def count_games(path: Path) -> int:
    import sqlite3

    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


if __name__ == "__main__":
    threading.current_thread().name = "benchmark"
    main()
