"""A real browser on the real dashboard: log in, watch a table change live, acknowledge an alert.

The hub runs as ``cafe-table hub run`` against a real Mosquitto; a table's
FleetLink publishes to it; Playwright drives Debian's Chromium (no browser
download). CI installs Chromium; elsewhere the test skips saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config.cafe import CafeSettings
from controller.fleet.link import AlertAcknowledged, FleetLink, HubMessage
from tests.broker import Broker, free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PASSWORD = "a long staff password"


def require_chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed; .ci/run must apt-get install chromium")
        pytest.skip("Chromium is not installed here (apt-get install chromium); CI runs this")
    return CHROMIUM


@pytest.fixture
def hub(broker: Broker, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    folder = tmp_path / "hub"
    folder.mkdir()
    (folder / "hub-password").write_text(broker.password("hub"))
    (folder / "hub.toml").write_text(
        f'[broker]\nport = {broker.port}\npassword_file = "hub-password"\n\n'
        f'[storage]\nurl = "sqlite:///hub.sqlite3"\n\n[web]\nhost = "127.0.0.1"\nport = {port}\n'
    )
    (folder / "pw").write_text(PASSWORD)
    cli = [sys.executable, "-m", "controller", "hub"]
    added = subprocess.run(
        [
            *cli,
            "adduser",
            "sam",
            "--role",
            "staff",
            "--config",
            str(folder / "hub.toml"),
            "--password-file",
            str(folder / "pw"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert added.returncode == 0, added.stderr
    process = subprocess.Popen([*cli, "run", "--config", str(folder / "hub.toml")], cwd=ROOT)
    try:
        wait_for_port(port, timeout=30)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow
def test_staff_watch_a_table_live_and_acknowledge_its_call(broker: Broker, hub: str) -> None:
    chromium = require_chromium()
    from playwright.sync_api import expect, sync_playwright

    inbox: list[HubMessage] = []
    link = FleetLink(
        CafeSettings(
            broker="127.0.0.1",
            port=broker.port,
            table="table-1",
            password=broker.password("table-1"),
            state_interval=0.1,
            reconnect_max=1,
        ),
        None,
        inbox.append,
    )
    link.start()
    link.publish_state(
        {"screen": "play", "title": "Oskar", "round": 1, "waiting_for": [1], "version": 1}
    )
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=chromium,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--no-first-run",
                    "--disable-sync",
                ],
            )
            page = browser.new_page()
            page.goto(f"{hub}/")
            expect(page).to_have_url(f"{hub}/login")
            page.fill("input[name=name]", "sam")
            page.fill("input[name=password]", PASSWORD)
            page.click("#login")
            card = page.locator('[data-table="table-1"]')
            expect(card).to_contain_text("Oskar")
            expect(page.locator("#live-status")).to_have_text("Live updates: on")
            # The table moves on; the open page follows without a reload.
            link.publish_state(
                {"screen": "play", "title": "Oskar", "round": 2, "waiting_for": [3], "version": 2}
            )
            expect(card).to_contain_text("Round 2")
            expect(card).to_contain_text("Waiting for seat 3")
            # A player calls for staff; the floor shows it; staff acknowledge it.
            link.alert("call-7", "call-staff", "Seat 3 calls for staff", seat=2)
            expect(card).to_contain_text("1 alert")
            page.click("text=Alerts")
            row = page.locator('[data-alert="table-1/call-7"]')
            expect(row).to_contain_text("Seat 3 calls for staff")
            row.locator("button.ack").click()
            expect(page.locator('[data-alert="table-1/call-7"]')).to_contain_text("by sam")
            browser.close()
        pause = threading.Event()
        for _ in range(100):
            if AlertAcknowledged("call-7") in inbox:
                break
            pause.wait(0.05)
        assert AlertAcknowledged("call-7") in inbox  # the table heard it: its LEDs go off
    finally:
        link.close()


@pytest.mark.slow
def test_a_bad_table_costs_its_own_card_only_in_a_real_browser(
    broker: Broker, hub: str, tmp_path: Path
) -> None:
    """A state stored unchecked (by an older hub) and a refused message, drawn by the live page."""
    chromium = require_chromium()
    import json

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    from playwright.sync_api import expect, sync_playwright

    from controller.fleet import topics
    from hub.storage import Storage, tables_t

    storage = Storage(f"sqlite:///{tmp_path / 'hub' / 'hub.sqlite3'}")
    with storage.engine.begin() as db:
        bad = {"title": "Oskar", "totals": "x", "waiting_for": "12", "nicknames": ["a"]}
        db.execute(tables_t.insert().values(id="table-2", online=True, state=json.dumps(bad)))
    storage.close()
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    forger.username_pw_set("table-2", broker.password("table-2"))
    forger.connect("127.0.0.1", broker.port)
    forger.loop_start()
    link = FleetLink(
        CafeSettings(
            broker="127.0.0.1",
            port=broker.port,
            table="table-1",
            password=broker.password("table-1"),
            state_interval=0.1,
            reconnect_max=1,
        ),
        None,
        lambda message: None,
    )
    link.start()
    link.publish_state({"screen": "play", "title": "Oh Pshaw", "round": 1, "version": 1})
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{hub}/login")
            page.fill("input[name=name]", "sam")
            page.fill("input[name=password]", PASSWORD)
            page.click("#login")
            expect(page.locator("#live-status")).to_have_text("Live updates: on")
            garbage = topics.encode({"totals": "x"})
            forger.publish(topics.topic("table-2", topics.STATE), garbage, qos=1).wait_for_publish(
                10
            )
            # Each live update redraws every card from /floor.json, in the page's script.
            link.publish_state({"screen": "play", "title": "Oh Pshaw", "round": 2, "version": 2})
            good, bad_card = (
                page.locator('[data-table="table-1"]'),
                page.locator('[data-table="table-2"]'),
            )
            expect(good).to_contain_text("Round 2")
            expect(bad_card).to_contain_text("1 message refused; the last: state: totals")
            expect(bad_card).to_contain_text("Scores: ?")
            expect(bad_card).to_contain_text("Oskar")  # its good fields still show
            assert errors == [], errors
            browser.close()
    finally:
        link.close()
        forger.loop_stop()
        forger.disconnect()
