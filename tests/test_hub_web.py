"""The staff dashboard's pages, logins, CSRF and rate limit (FastAPI's TestClient)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.records.record import replay
from hub import auth
from hub.storage import Storage
from hub.web import create_app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")
PASSWORD = "correct horse battery"


@pytest.fixture
def storage(storage_url: str) -> Iterator[Storage]:
    store = Storage(storage_url)
    store.set_user("sam", "staff", auth.hash_password(PASSWORD))
    store.set_user("olga", "owner", auth.hash_password(PASSWORD))
    report = replay(SAMPLE).report()
    store.add_record(
        "table-1",
        {
            "uid": "table-1/x/1/t",
            "game": "oshaka-trick",
            "seats": [0, 1, 2, 3],
            "started": "2026-11-30T18:00:00+00:00",
            "finished": "2026-11-30T18:40:00+00:00",
            "report": report,
            "record": SAMPLE,
        },
    )
    store.table_status("table-1", True)
    store.table_state(
        "table-1",
        {
            "screen": "play",
            "title": "Oh Pshaw",
            "round": 4,
            "waiting_for": [2],
            "totals": [31, 12, 40],
        },
    )
    store.add_alert(
        "table-1", {"id": "a1", "kind": "call-staff", "seat": 1, "text": "Seat 2 calls"}
    )
    yield store
    store.close()


def client_for(storage: Storage) -> TestClient:
    return TestClient(create_app(storage, None, "test-secret"))


def login(client: TestClient, name: str = "sam", password: str = PASSWORD) -> int:
    response = client.post(
        "/login", data={"name": name, "password": password}, follow_redirects=False
    )
    status: int = response.status_code
    return status


def csrf_of(client: TestClient, path: str = "/alerts") -> str:
    page: str = client.get(path).text
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_pages_need_a_login(storage: Storage) -> None:
    client = client_for(storage)
    for path in ("/", "/alerts", "/history", "/leaderboards", "/decks", "/floor.json"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/login", path
    assert login(client, password="wrong password") == 401
    assert login(client) == 303
    floor = client.get("/").text
    assert "table-1" in floor and "Oh Pshaw" in floor and "Waiting for seat 2" in floor
    assert "1 alert" in floor


def test_history_sheet_csv_and_leaderboards(storage: Storage) -> None:
    client = client_for(storage)
    login(client)
    history = client.get("/history").text
    assert "Oshaka Trick" in history and "table-1/x/1/t" in history
    sheet = client.get("/games/table-1/x/1/t").text
    assert "Winner" in sheet and "Round 1" in sheet
    csv_text = client.get("/history.csv?game=oshaka-trick").text
    assert csv_text.splitlines()[0].startswith("uid,table,game")
    assert "table-1/x/1/t" in csv_text
    assert client.get("/history.csv?game=oskar").text.count("\n") == 1  # header only
    board = client.get("/leaderboards").text
    report = replay(SAMPLE).report()
    assert str(max(report["totals"])) in board


def test_acknowledging_needs_the_session_csrf_token(storage: Storage) -> None:
    client = client_for(storage)
    login(client)
    forged = client.post("/alerts/table-1/a1/ack", data={"csrf": "guess"}, follow_redirects=False)
    assert forged.status_code == 403
    assert storage.alerts(open_only=True)
    token = csrf_of(client)
    done = client.post("/alerts/table-1/a1/ack", data={"csrf": token}, follow_redirects=False)
    assert done.status_code == 303
    assert not storage.alerts(open_only=True) and storage.alerts()[0].acked_by == "sam"


def test_only_owners_push_configuration(storage: Storage) -> None:
    staff = client_for(storage)
    login(staff)
    assert staff.get("/config").status_code == 403
    owner = client_for(storage)
    login(owner, "olga")
    page = owner.get("/config")
    assert page.status_code == 200 and "Push a configuration" in page.text
    bad = owner.post(
        "/config", data={"table": "table-1", "settings": "[1]", "csrf": csrf_of(owner, "/config")}
    )
    assert bad.status_code == 400 and "JSON object" in bad.text


def test_logins_are_rate_limited(storage: Storage) -> None:
    client = client_for(storage)
    for _ in range(5):
        assert login(client, password="nope nope nope") == 401
    # Even the right password is not checked while the limit holds.
    assert login(client) == 429


@pytest.mark.real_scrypt
def test_passwords_are_salted_scrypt_hashes() -> None:
    first, second = auth.hash_password(PASSWORD), auth.hash_password(PASSWORD)
    assert first != second and first.startswith("scrypt$16384$8$1$")
    assert auth.verify_password(PASSWORD, first) and not auth.verify_password("other", first)
    assert not auth.verify_password(PASSWORD, "garbage")
    assert json.dumps(first)  # stored as text


@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_hub_commands_refuse_mistakes_in_one_line(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    hub_toml = tmp_path / "hub.toml"
    hub_toml.write_text('[storage]\nurl = "sqlite:///hub.sqlite3"\n')
    cases = [
        (("hub", "adduser", "sam", "--config", str(hub_toml)), "--password-file"),
        (("hub", "adduser", "sam", "--config", str(tmp_path / "none.toml")), "no such file"),
        (
            (
                "hub",
                "adduser",
                "sam",
                "--config",
                str(hub_toml),
                "--password-file",
                str(tmp_path / "missing"),
            ),
            "cannot read",
        ),
        (("hub", "run", "--config", str(tmp_path / "none.toml")), "no such file"),
    ]
    for args, words in cases:
        result = run_cli(*args, stdin="")
        assert result.returncode == 2, (args, result.stderr)
        assert words in result.stderr and result.stderr.count("\n") == 1, result.stderr
        assert "Traceback" not in result.stderr
