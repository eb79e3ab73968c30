"""Configuration pushes on the dashboard: pending, applied, refused, superseded, timed out;
and a push to something that is not a known table is refused in words, never a 500."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hub import auth
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import Storage
from hub.web import create_app

PASSWORD = "correct horse battery"


@pytest.fixture
def storage(storage_url: str) -> Iterator[Storage]:
    store = Storage(storage_url)
    store.set_user("olga", "owner", auth.hash_password(PASSWORD))
    store.table_status("table-1", True)
    store.table_status("table-2", False)
    yield store
    store.close()


def test_each_push_has_a_status_and_a_version(storage: Storage) -> None:
    assert storage.add_config_request("r1", "table-1", {"table": {"dice": "manual"}}, "olga") == 1
    assert storage.add_config_request("r2", "table-1", {"table": {"dice": "virtual"}}, "olga") == 2
    assert storage.add_config_request("r3", "table-2", {"display": {"sleep": "x"}}, "olga") == 1
    statuses = {r["id"]: r["status"] for r in storage.config_requests()}
    assert statuses == {"r1": "superseded", "r2": "pending", "r3": "pending"}
    assert storage.config_answered("table-1", {"id": "r2", "ok": True, "message": "applied"})
    assert not storage.config_answered("table-1", {"id": "r1", "ok": True, "message": "late"})
    assert storage.config_answered("table-2", {"id": "r3", "ok": False, "message": "bad sleep"})
    statuses = {r["id"]: r["status"] for r in storage.config_requests()}
    assert statuses == {"r1": "applied", "r2": "applied", "r3": "refused"}
    newest = storage.newest_config("table-1")
    assert newest is not None and newest["id"] == "r2" and newest["version"] == 2


def test_an_unanswered_push_times_out_on_the_dashboard(storage: Storage) -> None:
    storage.add_config_request("r1", "table-2", {"table": {"dice": "manual"}}, "olga")
    assert storage.config_requests()[0]["status"] == "pending"
    assert storage.config_requests(timeout=dt.timedelta(0))[0]["status"] == "timed out"


class SentPushes(Ingest):
    """The real ingest, its broker client never connected: what it would publish is kept."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(HubSettings(), storage)
        self.published: list[tuple[str, bytes, bool]] = []

        def publish(topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> Any:
            self.published.append((topic, payload, retain))

        self.client.publish = publish  # type: ignore[method-assign,assignment]


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("table-2/#", "'table-2/#' is not a table this hub knows"),
        ("table-9", "'table-9' is not a table this hub knows"),
        ("", "not a table this hub knows"),
    ],
)
def test_a_push_to_no_known_table_is_refused_in_words(
    storage: Storage, table: str, words: str
) -> None:
    ingest = SentPushes(storage)
    client = TestClient(create_app(storage, ingest, "test-secret"))
    client.post("/login", data={"name": "olga", "password": PASSWORD})
    page = client.get("/config").text
    marker = 'name="csrf" value="'
    csrf = page[page.index(marker) + len(marker) :].split('"', 1)[0]
    answer = client.post(
        "/config", data={"table": table, "settings": '{"table": {}}', "csrf": csrf}
    )
    assert answer.status_code == 400 and words in html.unescape(answer.text)
    assert not storage.config_requests() and not ingest.published
    pushed = client.post(
        "/config",
        data={"table": "table-2", "settings": '{"table": {"dice": "manual"}}', "csrf": csrf},
        follow_redirects=False,
    )
    assert pushed.status_code == 303
    assert [(t, retain) for t, _, retain in ingest.published] == [
        ("cafe/table/table-2/config/set", True)
    ]
    assert "pending" in client.get("/config").text
