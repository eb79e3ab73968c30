"""Player cards: member tags with nicknames, from the hub's dashboard to a named seat and back.

The end-to-end test runs the real parts: Mosquitto (tests/broker.py), the hub's
ingest and dashboard, and a kiosk with ``[cafe]`` whose bots play a game in
which a member card named seat 2.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.config.table_config import TableConfig, load
from controller.fleet import topics
from controller.fleet.connection import CafeConnection
from controller.fleet.link import MembersChanged
from controller.fleet.outbox import Outbox, record_payload
from controller.fleet.reporter import table_state
from controller.games.words import Seat, say
from controller.kiosk.app import Kiosk
from controller.records.journal import Journal
from controller.records.record import replay
from controller.table import Table
from controller.tags.members import (
    NICKNAME_MAX,
    MemberUidError,
    NicknameError,
    check_member_uid,
    check_nickname,
)
from controller.tags.registry import RegistryError, TagRegistry, simulated, simulated_uid
from controller.view import MessageKind, Screen
from controller.words import Presenter
from hardware.events import Button, ButtonPressed, TagPresented
from hub import auth
from hub.ingest import Ingest
from hub.settings import HubSettings
from hub.storage import MemberRefused, Storage
from hub.web import create_app
from tests.broker import Broker
from tests.test_cafe_tables import FakeLink, table_toml
from tests.test_fleet import Watch
from tests.words import shown

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "controller" / "samples" / "oshaka-trick.jsonl").read_text(encoding="utf-8")
MIKA = "04C0FFEE000001"
STAFF_UID = "04517AFF0000AA"  # the simulated registry's staff tag
PASSWORD = "correct horse battery"


# --- nicknames and UIDs -------------------------------------------------------------------


def test_nicknames_are_one_to_sixteen_printable_characters() -> None:
    assert check_nickname("Mika") == "Mika"
    assert check_nickname("  Jo Ann  ") == "Jo Ann"  # the spaces around are dropped
    assert check_nickname("ミカ🎲") == "ミカ🎲"
    assert check_nickname("x" * NICKNAME_MAX) == "x" * NICKNAME_MAX
    refusals = {
        "": "at least one character",
        "   ": "at least one character",
        "x" * (NICKNAME_MAX + 1): "at most 16 characters; this one has 17",
        "Mi\nka": "no line breaks",
        "Mi\tka": "no line breaks or tabs",
        "Mi\u2028ka": "no line breaks",
    }
    for text, reason in refusals.items():
        with pytest.raises(NicknameError) as caught:
            check_nickname(text)
        assert reason in shown(caught.value.text), text


def test_member_uids_are_hex_bytes() -> None:
    assert check_member_uid("04:c0:ff:ee:00:00:01") == MIKA
    assert check_member_uid(" 04C0FFEE ") == "04C0FFEE"
    for bad in ("", "hello", "04C0FFE", "04C0", "04" * 11):
        with pytest.raises(MemberUidError):
            check_member_uid(bad)


# --- the tag registry ---------------------------------------------------------------------


def test_the_registry_keeps_member_cards_apart_from_cards_and_staff(tmp_path: Path) -> None:
    registry = simulated(["oshaka"])
    card_uid = simulated_uid("oshaka", "R7")
    assert registry.enroll_member("04 c0 ff ee 00 00 01", " Mika ") == "Mika"
    assert registry.member(MIKA) == "Mika" and registry.has_members()
    with pytest.raises(RegistryError, match="R7 of oshaka"):
        registry.enroll_member(card_uid, "Ola")
    with pytest.raises(RegistryError, match="a staff tag"):
        registry.enroll_member(STAFF_UID, "Boss")
    with pytest.raises(RegistryError, match="member card of Mika"):
        registry.enroll("oshaka", "R7", MIKA)
    with pytest.raises(NicknameError):
        registry.enroll_member("04C0FFEE000002", "")
    path = tmp_path / "tags.json"
    registry.save(path)
    assert json.loads(path.read_text())["members"] == {MIKA: "Mika"}
    again = TagRegistry.load(path)
    assert again.member(MIKA) == "Mika" and again.lookup(MIKA) is None
    assert again.retire_member(MIKA) and not again.has_members()
    assert "members" not in again.to_json()  # a registry without members looks as before


def test_a_registry_file_with_a_bad_member_is_refused_in_one_line() -> None:
    data = {"format": "tag-registry/1", "decks": {}, "staff": [], "members": {MIKA: "a\nb"}}
    with pytest.raises(RegistryError) as caught:
        TagRegistry.from_json(data, "tags.json")
    assert "tags.json: member tag" in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(RegistryError, match='"members" must map'):
        TagRegistry.from_json({**data, "members": ["x"]}, "tags.json")


def test_the_hubs_members_skip_what_the_table_cannot_take() -> None:
    registry = simulated(["oshaka"])
    registry.enroll_member("04C0FFEE000009", "Local")
    problems = registry.set_hub_members(
        {
            MIKA: "Mika",
            simulated_uid("oshaka", "R7"): "Card",  # a card here: the card wins
            "zz": "Zed",
            "04C0FFEE000009": "Hub",  # the table's own enrollment comes first
            "04C0FFEE000003": "x" * 40,
        }
    )
    assert len(problems) == 3
    assert registry.member(MIKA) == "Mika" and registry.member("04C0FFEE000009") == "Local"
    assert registry.lookup(simulated_uid("oshaka", "R7")) is not None
    with pytest.raises(RegistryError, match="member card of Mika"):
        registry.enroll("oshaka", "R8", MIKA)  # the staff desk cannot make it a card
    registry.set_hub_members({})  # the hub retired them all
    assert registry.member(MIKA) is None and registry.members() == {"04C0FFEE000009": "Local"}


# --- a table without a hub: ``cafe-table tags member`` ------------------------------------


def test_staff_enroll_a_member_card_locally_with_the_tags_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from controller.cli.tags import main

    config = tmp_path / "table.toml"
    config.write_text('[tags]\nregistry = "tags.json"\n\n' + "[[seat]]\n" * 2, encoding="utf-8")
    where = ["--config", str(config)]
    assert main(["tags", "member", *where, "04:c0:ff:ee:00:00:01", "Mika"]) == 0
    assert "04C0FFEE000001 is the member card of Mika" in capsys.readouterr().out
    assert TagRegistry.load(tmp_path / "tags.json").member(MIKA) == "Mika"
    assert main(["tags", "show", *where, MIKA]) == 0
    assert capsys.readouterr().out.strip() == "04C0FFEE000001: the member card of Mika"
    assert main(["tags", "list", *where]) == 0
    assert "member cards: 1" in capsys.readouterr().out
    refusals = {
        ("04C0FFEE000002", "x" * 17): "A nickname has at most 16 characters; this one has 17",
        ("04C0FFEE000002",): "give the member's nickname after the UID, or --retire",
        ("zz", "Ola"): "written in hex digits",
        ("04C0FFEE000002", "--retire"): "04C0FFEE000002 is no member card here",
    }
    for args, reason in refusals.items():
        assert main(["tags", "member", *where, *args]) == 2, args
        err = capsys.readouterr().err
        assert reason in err and err.count("\n") == 1 and err.startswith("tags member: "), err
    assert main(["tags", "member", *where, MIKA, "--retire"]) == 0
    assert not TagRegistry.load(tmp_path / "tags.json").has_members()


# --- the join screen ----------------------------------------------------------------------


def join_screen(registry: TagRegistry) -> Table:
    table = Table(TableConfig.simulated(4, bots=0), registry)
    table.handle(ButtonPressed(0, Button.OK, 0.0))  # wake: the menu
    table.handle(ButtonPressed(0, Button.OK, 0.1))  # choose: the join screen, seat 0 joined
    assert table.screen is Screen.JOIN
    return table


def test_a_member_card_at_the_join_screen_names_its_seat() -> None:
    registry = simulated()
    registry.set_hub_members({MIKA: "Mika"})
    table = join_screen(registry)
    table.handle(TagPresented(2, MIKA, 1.0))
    assert 2 in table.joined
    view = table.view
    assert view.nicknames == {2: "Mika"}
    welcome = table.messages[-1]
    assert welcome.seat == 2 and shown(welcome.text) == "Welcome, Mika!"
    # Every message that names seat 3 (physical seat 2) now says the nickname.
    centre = Presenter.for_view(view)
    assert centre(say("{seat} leads", seat=Seat(2))) == "Mika leads"
    assert centre(say("{seat} leads", seat=Seat(1))) == "Seat 2 leads"
    # The same member at another seat moves there; leaving forgets the name.
    table.handle(TagPresented(3, MIKA, 2.0))
    assert table.view.nicknames == {3: "Mika"}
    table.handle(ButtonPressed(3, Button.OK, 3.0))  # OK at a joined seat: it leaves
    assert 3 not in table.joined and table.view.nicknames == {}


def test_an_unknown_tag_at_the_join_screen_is_refused_kindly_as_a_member_card() -> None:
    registry = simulated()
    registry.set_hub_members({MIKA: "Mika"})
    table = join_screen(registry)
    table.handle(TagPresented(1, "04DEADBEEF0001", 1.0))
    message = table.messages[-1]
    assert message.seat == 1 and message.kind is MessageKind.REFUSED
    assert shown(message.text) == (
        "This card is not a member card here: staff can enroll it. You play unnamed"
    )
    assert 1 in table.joined and table.view.nicknames == {}  # it still joined, anonymous
    # A card of a deck joins as it always did, without a word about members.
    before = len(table.messages)
    table.handle(TagPresented(3, simulated_uid("oshaka", "R7"), 2.0))
    assert 3 in table.joined and len(table.messages) == before


def test_a_table_without_member_cards_stays_as_it_was() -> None:
    table = join_screen(simulated())
    before = list(table.messages)
    table.handle(TagPresented(1, "04DEADBEEF0001", 1.0))
    assert 1 in table.joined and table.messages == before and table.view.nicknames == {}


# --- the outbox: nicknames beside the record -------------------------------------------------


def test_a_records_message_carries_the_nicknames_beside_the_record(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    engine = replay(SAMPLE)
    journal.game_started("oshaka-trick", [0, 2, 3, 1], engine.header(), seed=1)
    outbox = Outbox(path, "table-1")
    game = outbox.playing_game()
    assert game is not None
    outbox.set_names(game, {3: "Mika"})
    journal.game_finished(SAMPLE, engine.report())
    journal.game_started("oshaka-trick", [0, 1, 2, 3], engine.header(), seed=2)
    journal.game_finished(SAMPLE, engine.report())
    assert outbox.add_finished_games() == 2
    named, anonymous = [json.loads(m) for _, m in outbox.pending()]
    assert named["nicknames"] == [None, None, "Mika", None]  # record seat 2 sits at seat 3
    assert named["record"] == SAMPLE  # the record text is the contract: untouched
    assert "nicknames" not in anonymous
    assert record_payload({**_row(journal, 1)}, {})["seats"] == [0, 2, 3, 1]
    outbox.close()
    journal.close()


def _row(journal: Journal, game: int) -> dict[str, Any]:
    row = journal.game(game)
    assert row is not None
    return {
        "id": game,
        "game": row.game,
        "header": json.dumps(row.header),
        "players": json.dumps(row.players),
        "started": row.started,
        "finished": row.finished,
        "report": json.dumps(row.report),
        "record": row.record,
    }


def offline_cafe(
    config: TableConfig, journal: Journal, registry: TagRegistry, path: Path
) -> CafeConnection:
    """A table's café connection with its outbox in ``journal``, and no network (FakeLink)."""
    assert config.cafe is not None
    return CafeConnection(
        config.cafe,
        journal.path,
        registry,
        config_path=path,
        link_factory=FakeLink,  # type: ignore[arg-type]
    )


def test_a_resumed_game_gets_its_nicknames_back(tmp_path: Path) -> None:
    path = table_toml(tmp_path, '[cafe]\nbroker = "127.0.0.1"\ntable = "table-1"')
    config = load(path)
    assert config.cafe is not None
    registry = simulated()
    journal = Journal.open(tmp_path / "journal.sqlite3", config)
    cafe = offline_cafe(config, journal, registry, path)
    cafe.inbox.put(MembersChanged({MIKA: "Mika"}))
    table = Table(config, registry, journal=journal)
    cafe.after_turn(table)
    table.handle(ButtonPressed(0, Button.OK, 0.0))
    table.handle(ButtonPressed(0, Button.OK, 0.1))
    table.handle(TagPresented(1, MIKA, 0.2))
    table.handle(ButtonPressed(2, Button.OK, 0.3))
    table.handle(ButtonPressed(0, Button.NEXT, 0.4))
    _settle(table, cafe)
    assert table.screen is Screen.PLAY and table.view.nicknames == {1: "Mika"}
    states = [s[1] for s in cafe.link.sent if s[0] == "state"]  # type: ignore[attr-defined]
    assert states[-1]["nicknames"] == {"2": "Mika"}
    # The kiosk stops mid-game; a new one resumes the journal's game with the names.
    game = journal.current_game
    journal.close()
    again = Journal.open(tmp_path / "journal.sqlite3", config)
    fresh = Table(config, registry, journal=again)
    row = again.unfinished()
    assert row is not None and row.id == game
    fresh.resume(row.game, row.players, row.header, again.actions(row.id), row.seed)
    assert fresh.view.nicknames == {}
    cafe2 = offline_cafe(config, again, registry, path)
    cafe2.after_turn(fresh)
    assert fresh.view.nicknames == {1: "Mika"}
    cafe.outbox.close()  # type: ignore[union-attr]
    cafe2.outbox.close()  # type: ignore[union-attr]
    again.close()


def _settle(table: Table, cafe: CafeConnection) -> None:
    """Answer the options and starter screens with OK at seat 0 until the game plays."""
    for step in range(10):
        cafe.after_turn(table)
        if table.screen is Screen.PLAY:
            cafe.after_turn(table)
            return
        table.handle(ButtonPressed(0, Button.OK, 1.0 + step))
    raise AssertionError(f"the game did not begin: {table.screen}")


def test_a_state_with_a_variants_title_is_plain_json_for_the_hub() -> None:
    # A variant's title is a message (a Text), not a str: the state must still encode.
    registry = simulated()
    table = Table(TableConfig.simulated(4, bots=0), registry)
    table.handle(ButtonPressed(0, Button.OK, 0.0))
    while table.view.games[table.selected].game_id != "oskar":
        table.handle(ButtonPressed(0, Button.NEXT, 0.0))
    table.handle(ButtonPressed(0, Button.OK, 0.0))
    table.handle(TagPresented(1, simulated_uid("oshaka", "R7"), 0.0))
    table.handle(TagPresented(2, simulated_uid("oshaka", "R8"), 0.0))
    table.handle(ButtonPressed(0, Button.NEXT, 0.0))
    for step in range(6):
        if table.screen is Screen.PLAY:
            break
        table.handle(ButtonPressed(0, Button.OK, 1.0 + step))
    assert table.screen is Screen.PLAY
    state = table_state(
        table.view, game_started=None, waiting=[], totals=None, round_number=None, decks={}
    )
    assert isinstance(state["title"], str) and state["title"].startswith("Oskar")
    assert topics.decode(topics.encode(state)) == state


# --- the hub: storage, dashboard, leaderboards ------------------------------------------------


@pytest.fixture
def storage(storage_url: str) -> Iterator[Storage]:
    """The hub's database with a staff login: once SQLite, once PostgreSQL."""
    store = Storage(storage_url)
    store.set_user("sam", "staff", auth.hash_password(PASSWORD))
    try:
        yield store
    finally:
        store.close()


def logged_in(app_storage: Storage, ingest: Ingest | None = None) -> TestClient:
    client = TestClient(create_app(app_storage, ingest, "test-secret"))
    response = client.post(
        "/login", data={"name": "sam", "password": PASSWORD}, follow_redirects=False
    )
    assert response.status_code == 303
    return client


def csrf_of(client: TestClient) -> str:
    page: str = client.get("/members").text
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_staff_enroll_rename_and_retire_member_cards_on_the_dashboard(storage: Storage) -> None:
    anonymous = TestClient(create_app(storage, None, "test-secret"))
    assert anonymous.get("/members", follow_redirects=False).headers["location"] == "/login"
    client = logged_in(storage)
    assert "No member cards yet" in client.get("/members").text
    forged = client.post("/members", data={"uid": MIKA, "nickname": "Mika", "csrf": "guess"})
    assert forged.status_code == 403 and storage.members() == []
    token = csrf_of(client)

    def enroll(uid: str, nickname: str) -> Any:
        return client.post(
            "/members",
            data={"uid": uid, "nickname": nickname, "csrf": token},
            follow_redirects=False,
        )

    assert enroll("04:c0:ff:ee:00:00:01", "Mika").status_code == 303
    assert storage.active_members() == {MIKA: "Mika"}
    refusals = {
        ("04C0FFEE000002", "x" * 17): "A nickname has at most 16 characters; this one has 17.",
        ("04C0FFEE000002", ""): "A nickname needs at least one character.",
        ("not a uid", "Ola"): "written in hex digits",
        ("04C0FFEE000002", "mika"): "The nickname mika is taken by member card 04C0FFEE000001",
    }
    for (uid, nickname), reason in refusals.items():
        response = enroll(uid, nickname)
        assert response.status_code == 400 and reason in response.text, (uid, nickname)
        assert "Traceback" not in response.text
    assert enroll(MIKA, "Mika K.").status_code == 303  # the same card again: renamed
    assert storage.active_members() == {MIKA: "Mika K."}
    assert "Mika K." in client.get("/members").text
    retire = client.post(f"/members/{MIKA}/retire", data={"csrf": "guess"})
    assert retire.status_code == 403 and storage.active_members()
    retire = client.post(f"/members/{MIKA}/retire", data={"csrf": token}, follow_redirects=False)
    assert retire.status_code == 303 and storage.active_members() == {}
    page = client.get("/members").text
    assert "Retired cards" in page and "Mika K." in page
    assert enroll("04C0FFEE000002", "Mika K.").status_code == 303  # the name is free again


def test_leaderboards_rank_members_by_nickname(storage: Storage) -> None:
    report = replay(SAMPLE).report()
    winner = report["winners"][0]
    loser = next(p for p in range(4) if p not in report["winners"])
    names: list[str | None] = [None] * 4
    names[winner], names[loser] = "Mika", "Ola"
    for n in range(2):
        storage.add_record(
            "table-1",
            {
                "uid": f"table-1/x/{n}/t",
                "game": "oshaka-trick",
                "seats": [0, 1, 2, 3],
                "finished": f"2026-11-30T18:4{n}:00+00:00",
                "report": report,
                "record": SAMPLE,
                "nicknames": names if n == 0 else [None, "Zed\nZed", None, None],
            },
        )
    board = storage.leaderboard_by_nickname("oshaka-trick")
    assert [(m["name"], m["wins"], m["games"]) for m in board] == [("Mika", 1, 1), ("Ola", 0, 1)]
    assert board[0]["best"] == report["totals"][winner] and board[1]["best"] is None
    best = storage.leaderboard("oshaka-trick")
    assert {entry["name"] for entry in best} == {"Mika", None}
    page = logged_in(storage).get("/leaderboards").text
    assert "Oshaka Trick: members" in page and "<td>Mika</td><td>1</td><td>1</td>" in page
    assert "Zed" not in page  # a bad name costs the game its name, not its record


def test_a_nickname_taken_by_another_active_card_is_refused(storage: Storage) -> None:
    assert storage.set_member(MIKA, "Mika", "sam")
    with pytest.raises(MemberRefused, match="is taken by member card"):
        storage.set_member("04C0FFEE000002", "MIKA", "sam")
    assert not storage.set_member(MIKA, "MIKA", "sam")  # its own name, in capitals: a rename


# --- the whole path on the real parts ----------------------------------------------------------


@pytest.mark.slow
def test_a_member_enrolled_on_the_hub_names_a_seat_and_tops_the_leaderboard(
    broker: Broker, tmp_path: Path
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    storage.set_user("sam", "staff", auth.hash_password(PASSWORD))
    ingest = Ingest(
        HubSettings(broker_port=broker.port, password=broker.password("hub"), reconnect_max=1),
        storage,
    )
    changes = Watch()
    ingest.listeners.append(changes)
    ingest.start()
    assert ingest.connected.wait(10)
    try:
        storage.table_status("table-1", False)  # the hub knows the table from its setup
        client = logged_in(storage, ingest)
        enrolled = client.post(
            "/members",
            data={"uid": MIKA, "nickname": "Mika", "csrf": csrf_of(client)},
            follow_redirects=False,
        )
        assert enrolled.status_code == 303
        (tmp_path / "pw").write_text(broker.password("table-1"))
        path = table_toml(
            tmp_path,
            f'[cafe]\nbroker = "127.0.0.1"\nport = {broker.port}\ntable = "table-1"\n'
            'password_file = "pw"\nreconnect_max = 1\nstate_interval = 0.1',
        )
        kiosk = Kiosk.create(
            load(path),
            seed=5,
            auto_game="oshaka-trick",
            records_dir=tmp_path / "out",
            journal_path=tmp_path / "out" / "journal.sqlite3",
            config_path=path,
        )
        with kiosk:
            # The retained member list reaches the table (the loop acts on it between turns).
            arrived = threading.Event()
            for _ in range(400):
                kiosk.after_turn()
                if kiosk.registry.member(MIKA) == "Mika":
                    arrived.set()
                    break
                arrived.wait(0.025)
            assert arrived.is_set(), "the hub's member list did not reach the table"
            table = kiosk.table
            table.handle(ButtonPressed(0, Button.OK, 0.0))  # wake: the menu
            while table.view.games[table.selected].game_id != "oshaka-trick":
                table.handle(ButtonPressed(0, Button.NEXT, 0.0))
            table.handle(ButtonPressed(0, Button.OK, 0.0))  # choose: the join screen
            table.handle(TagPresented(1, MIKA, 0.0))  # Mika taps her card at seat 2
            table.handle(TagPresented(3, "04DEADBEEF0001", 0.0))  # a card nobody enrolled
            said = [(m.seat, shown(m.text)) for m in table.messages]
            assert (1, "Welcome, Mika!") in said
            assert (
                3,
                "This card is not a member card here: staff can enroll it. You play unnamed",
            ) in said
            assert table.view.nicknames == {1: "Mika"}
            assert Presenter.for_view(table.view)(say("{seat} wins", seat=Seat(1))) == "Mika wins"
            assert kiosk.run_headless(), "the bots did not finish the game"
            changes.until(lambda: storage.game_count() == 1, what="the record at the hub")
        (row,) = storage.games()
        player = row.seats.index(1)
        assert storage.names(uid=row.uid) == {row.uid: {player: "Mika"}}
        assert "Mika" not in row.record  # the record format is untouched
        assert json.loads(row.record.splitlines()[0])["format"] == "table-record/1"
        board = storage.leaderboard_by_nickname("oshaka-trick")
        assert [(m["name"], m["games"]) for m in board] == [("Mika", 1)]
        page = client.get("/leaderboards").text
        assert "Oshaka Trick: members" in page and "<td>Mika</td>" in page
        state = next(t.state for t in storage.tables() if t.id == "table-1")
        assert state is not None and state["nicknames"] == {"2": "Mika"}
        assert "Playing: Mika (seat 2)" in client.get("/").text
    finally:
        ingest.close()
        storage.close()
