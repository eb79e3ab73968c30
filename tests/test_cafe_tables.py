"""Tables of a café: the kiosk with [cafe] against a real broker and hub; calls and pushes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from controller.config.cafe import CafeSettings
from controller.config.table_config import TableConfig, load
from controller.fleet.connection import CafeConnection
from controller.fleet.link import AlertAcknowledged, ConfigRequested
from controller.table import IDLE_TIMEOUT, Table
from controller.tags.registry import simulated
from controller.view import Screen
from hardware.cues import Cue
from hardware.events import Button, ButtonPressed, ButtonReleased, TagPresented
from hardware.leds import RecordingStrip, SeatLeds
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from tests.broker import Broker
from tests.words import shown

ROOT = Path(__file__).resolve().parent.parent
STAFF_UID = "04517AFF0000AA"  # the simulated registry's staff tag


class FakeLink:
    """Stands in for FleetLink where no broker is needed: records what would be sent."""

    def __init__(self, settings: CafeSettings, outbox: object, on_message: Any) -> None:
        self.on_message = on_message
        self.sent: list[tuple[str, Any]] = []
        self.connected = False

    def start(self) -> None: ...

    def close(self) -> None: ...

    def record_ready(self) -> None:
        self.sent.append(("records", None))

    def publish_state(self, state: dict[str, Any]) -> None:
        self.sent.append(("state", state))

    def event(self, kind: str, **data: Any) -> None:
        self.sent.append(("event", {"kind": kind, **data}))

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None:
        self.sent.append(("alert", {"id": alert_id, "kind": kind, "seat": seat}))

    def config_result(self, request_id: str, ok: bool, message: str) -> None:
        self.sent.append(("config", {"id": request_id, "ok": ok, "message": message}))


def table_toml(tmp_path: Path, cafe: str) -> Path:
    seats = "".join(f"[[seat]]\nbot = true\npixels = [{8 * i}, {8 * i + 8}]\n\n" for i in range(4))
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\ndeal = "virtual"\n\n{cafe}\n\n{seats}', encoding="utf-8")
    return path


def cafe_table(tmp_path: Path) -> tuple[Table, CafeConnection, FakeLink, SeatLeds]:
    path = table_toml(tmp_path, '[cafe]\nbroker = "127.0.0.1"\ntable = "table-1"')
    config = load(path)
    assert config.cafe is not None
    registry = simulated()
    connection = CafeConnection(
        config.cafe,
        None,
        registry,
        config_path=path,
        link_factory=FakeLink,  # type: ignore[arg-type]
    )
    leds = SeatLeds(RecordingStrip(32), {i: range(8 * i, 8 * i + 8) for i in range(4)})
    table = Table(config, registry, leds=leds, on_staff_call=connection.staff_call)
    link = connection.link
    assert isinstance(link, FakeLink)
    return table, connection, link, leds


def test_holding_ok_calls_staff_until_the_hub_answers(tmp_path: Path) -> None:
    table, connection, link, leds = cafe_table(tmp_path)
    table.handle(ButtonPressed(2, Button.OK, 10.0))
    table.handle(ButtonReleased(2, Button.OK, 10.4))  # a short press: no call
    assert not [s for s in link.sent if s[0] == "alert"]
    table.handle(ButtonPressed(2, Button.OK, 20.0))
    table.handle(ButtonReleased(2, Button.OK, 23.5))
    alerts = [s[1] for s in link.sent if s[0] == "alert"]
    assert len(alerts) == 1 and alerts[0]["seat"] == 2 and alerts[0]["kind"] == "call-staff"
    assert leds.showing(2, 0.0) is Cue.CALL_STAFF
    connection.after_turn(table)
    state = [s[1] for s in link.sent if s[0] == "state"][-1]
    assert state["screen"] == table.screen.value
    connection.inbox.put(AlertAcknowledged(alerts[0]["id"]))
    connection.after_turn(table)
    assert leds.showing(2, 0.0) is not Cue.CALL_STAFF
    assert "Staff answered the call of Seat 3" in shown(table.messages[-1].text)  # seat 2


def test_staff_answering_at_the_table_closes_the_call(tmp_path: Path) -> None:
    table, _, link, leds = cafe_table(tmp_path)
    table.handle(ButtonPressed(1, Button.OK, 0.0))
    table.handle(ButtonReleased(1, Button.OK, 3.0))
    call = next(s[1]["id"] for s in link.sent if s[0] == "alert")
    table.handle(TagPresented(1, STAFF_UID, 4.0))
    answered = [s[1] for s in link.sent if s[0] == "event"]
    assert answered == [{"kind": "staff-call-answered", "alert": call, "seat": 1}]
    assert leds.showing(1, 5.0) is not Cue.CALL_STAFF


def test_a_pushed_configuration_is_checked_and_applied_between_games(tmp_path: Path) -> None:
    table, connection, link, _ = cafe_table(tmp_path)
    connection.inbox.put(ConfigRequested("r1", {"table": {"dice": "sideways"}}))
    connection.inbox.put(ConfigRequested("r2", {"seat": {"reader": "/dev/ttyUSB9"}}))
    connection.after_turn(table)
    refused = [s[1] for s in link.sent if s[0] == "config"]
    assert [r["ok"] for r in refused] == [False, False]
    assert (
        "table.dice" in refused[0]["message"]
        and "cannot be set from the hub" in refused[1]["message"]
    )
    assert table.config.dice == "virtual"
    table.handle(ButtonPressed(0, Button.OK, 1.0))  # wake: the menu, not between games
    assert table.screen is Screen.CHOOSE_GAME
    connection.inbox.put(ConfigRequested("r3", {"table": {"dice": "manual"}}))
    connection.after_turn(table)
    assert table.config.dice == "virtual"  # waits for the attract screen
    table.tick(table.clock() + IDLE_TIMEOUT + 1)  # the menu left idle: back to attract
    assert table.view.screen is Screen.ATTRACT
    connection.after_turn(table)
    assert table.config.dice == "manual"
    assert [s[1] for s in link.sent if s[0] == "config"][-1] == {
        "id": "r3",
        "ok": True,
        "message": "applied",
    }


def test_a_table_without_cafe_runs_no_network_code(tmp_path: Path) -> None:
    path = table_toml(tmp_path, "")
    script = (
        "import sys; from pathlib import Path; from controller.kiosk.app import Kiosk;"
        "from controller.config.table_config import load;"
        f"k = Kiosk.create(load(Path({str(path)!r})), seed=1, auto_game='oshaka-trick');"
        "k.__enter__(); k.run_headless(); k.__exit__();"
        "print(sorted(m for m in sys.modules if m.startswith(('paho', 'controller.fleet', 'hub'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert TableConfig.simulated().cafe is None


@pytest.mark.slow
def test_two_kiosks_play_against_one_hub(broker: Broker, tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    ingest = Ingest(
        HubSettings(broker_port=broker.port, password=broker.password("hub"), reconnect_max=1),
        storage,
    )
    stored = threading.Event()
    ingest.listeners.append(lambda t, leaf, p: stored.set() if leaf == "record" else None)
    ingest.start()
    try:
        runs = []
        for table_id, game in (("table-1", "oh-pshaw"), ("table-2", "oskar")):
            folder = tmp_path / table_id
            folder.mkdir()
            (folder / "pw").write_text(broker.password(table_id))
            config = table_toml(
                folder,
                f'[cafe]\nbroker = "127.0.0.1"\nport = {broker.port}\ntable = "{table_id}"\n'
                'password_file = "pw"\nreconnect_max = 1',
            )
            runs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "controller",
                        "kiosk",
                        "--headless",
                        "--config",
                        str(config),
                        "--game",
                        game,
                        "--seed",
                        "3",
                        "--out",
                        str(folder / "out"),
                    ],
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        for run in runs:
            _, err = run.communicate(timeout=300)
            assert run.returncode == 0, err
        pause = threading.Event()
        for _ in range(200):
            if storage.game_count() == 2:
                break
            pause.wait(0.05)
        games = storage.games()
        assert sorted(g.table_id for g in games) == ["table-1", "table-2"]
        assert {g.game for g in games} == {"oh-pshaw", "oskar"}
        for row in games:
            assert row.report["finished"] is True and json.loads(row.record.splitlines()[0])
        tables = {t.id: t for t in storage.tables()}
        assert set(tables) == {"table-1", "table-2"}
        assert all(not t.online for t in tables.values())  # each said goodbye
        assert all(t.state is not None and t.state["screen"] == "results" for t in tables.values())
    finally:
        ingest.close()
