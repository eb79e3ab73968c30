"""The staff desk: enrollment, deck audit and history, driven through mock readers and buttons."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.tags.registry import SIMULATED_STAFF_UID, TagRegistry, simulated_uid
from controller.view import Screen
from display.renderer import Renderer
from display.screenshot import screenshot_view
from hardware.events import Button
from tests.rigs import TableRig as Rig
from tests.words import shown, shown_all


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


def open_desk(rig: Rig, seat: int = 2) -> None:
    rig.tap_uid(seat, SIMULATED_STAFF_UID)
    assert rig.table.screen is Screen.STAFF


def choose(rig: Rig, label: str, seat: int = 2) -> None:
    staff = rig.table.view.staff
    assert staff is not None
    target = shown_all(staff.options).index(label)
    while rig.table.view.staff.selected != target:  # type: ignore[union-attr]
        rig.press(seat, Button.NEXT)
    rig.press(seat, Button.OK)


def test_a_staff_tag_on_the_attract_screen_opens_the_desk(rig: Rig) -> None:
    open_desk(rig)
    staff = rig.table.view.staff
    assert staff is not None and staff.seat == 2
    assert "Enroll the Oshaka Trick deck" in shown_all(staff.options)
    assert "Audit the Oskar deck" in shown_all(staff.options)
    # Only the staff seat's buttons work the desk.
    rig.press(0, Button.NEXT)
    assert rig.table.view.staff.selected == 0  # type: ignore[union-attr]
    rig.press(2, Button.NEXT)
    assert rig.table.view.staff.selected == 1  # type: ignore[union-attr]
    choose(rig, "Close the staff menu")
    assert rig.table.screen is Screen.ATTRACT


def test_an_ordinary_card_on_the_attract_screen_still_opens_the_game_menu(rig: Rig) -> None:
    rig.tap_uid(1, simulated_uid("oshaka", "R1"))
    assert rig.table.screen is Screen.CHOOSE_GAME


def test_audit_reports_missing_unknown_and_duplicated_cards(rig: Rig) -> None:
    # A second tag enrolled as R2: the box holds two R2 cards.
    rig.registry.enroll("oshaka", "R2", "04BB000000000002")
    open_desk(rig)
    choose(rig, "Audit the Oshaka Trick deck")
    for card in ("R1", "R2", "R1"):  # tapping the same card twice is not a duplicate
        rig.tap_uid(0, simulated_uid("oshaka", card))
    rig.tap_uid(0, "04BB000000000002")
    rig.tap_uid(1, "04ABCDEF012345")  # a tag no deck knows
    rig.tap_uid(3, simulated_uid("oskar", "Y1"))  # a card of another deck
    rig.press(2, Button.OK)
    report = "\n".join(shown_all(rig.table.view.staff.lines))  # type: ignore[union-attr]
    assert "missing" in report.lower() and "R3" in report
    assert "04ABCDEF012345" in report
    assert "Too many: R2" in report
    assert "R1" not in report.split("Too many")[1]
    rig.press(2, Button.PREV)
    assert rig.table.view.staff.options  # type: ignore[union-attr]


def test_enrolling_a_new_deck_names_each_card_refuses_reuse_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    fresh = TagRegistry()
    fresh.enroll("staff", "staff", SIMULATED_STAFF_UID)
    fresh.save(path)
    rig = Rig(registry=fresh, tags=path)
    with rig.devices:
        rig.loop.drain()
        open_desk(rig)
        choose(rig, "Enroll the Oshaka Trick deck")
        assert shown(rig.table.view.staff.prompt).startswith("Tap R1 (1 of 52")  # type: ignore[union-attr]
        rig.tap_uid(0, "04AA000000000001")
        assert shown(rig.table.view.staff.prompt).startswith("Tap R2 (2 of 52")  # type: ignore[union-attr]
        rig.tap_uid(1, "04AA000000000001")  # the same tag again: refused, R2 still asked for
        staff = rig.table.view.staff
        assert staff is not None and "just enrolled as R1" in shown_all(staff.lines)[-1]
        assert shown(staff.prompt).startswith("Tap R2")
        rig.press(2, Button.NEXT)  # R2 is missing from the box: skip it for now
        assert shown(rig.table.view.staff.prompt).startswith("Tap R3")  # type: ignore[union-attr]
        rig.tap_uid(0, "04AA000000000003")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["decks"]["oshaka"] == {"04AA000000000001": "R1", "04AA000000000003": "R3"}
        # The staff tag closes the desk.
        rig.tap_uid(2, SIMULATED_STAFF_UID)
        assert rig.table.screen is Screen.ATTRACT


def test_enrolling_without_a_registry_file_says_nothing_is_saved(rig: Rig) -> None:
    open_desk(rig)
    choose(rig, "Enroll the Oshaka Trick deck")
    staff = rig.table.view.staff
    assert staff is not None
    assert "nothing is saved" in shown_all(staff.lines)[0]
    # Practice starts from an empty copy of the deck, so enrolling can be tried;
    # the table's own registry keeps the complete simulated deck.
    assert shown(staff.prompt).startswith("Tap ") and "(1 of 52 " in shown(staff.prompt)
    rig.tap_uid(0, simulated_uid("oshaka", shown(staff.prompt).split()[1]))
    staff = rig.table.view.staff
    assert staff is not None and shown_all(staff.lines)[-1].endswith(
        "enrolled; now tap " + shown(staff.prompt).split()[1]
    )
    assert len(rig.table.registry.cards_of("oshaka")) == 52


def test_history_lists_finished_games() -> None:
    rows: list[tuple[str, ...]] = [("#", "date"), ("7", "2026-11-29 20:15")]
    rig = Rig(history=lambda: rows)
    with rig.devices:
        rig.loop.drain()
        open_desk(rig)
        choose(rig, "Game history")
        staff = rig.table.view.staff
        assert staff is not None and staff.table == tuple(rows) and not staff.lines


def test_an_empty_history_says_so() -> None:
    rig = Rig(history=lambda: [("#", "date")])  # the column names, no game
    with rig.devices:
        rig.loop.drain()
        open_desk(rig)
        choose(rig, "Game history")
        staff = rig.table.view.staff
        assert staff is not None and not staff.table
        assert shown_all(staff.lines) == ("No finished games yet",)


def test_the_staff_screens_draw(rig: Rig, tmp_path: Path) -> None:
    open_desk(rig)
    menu = rig.table.view
    choose(rig, "Audit the Oshaka Trick deck")
    rig.tap_uid(0, simulated_uid("oshaka", "R1"))
    audit = rig.table.view
    for name, view in (("menu", menu), ("audit", audit)):
        for size in ((800, 480), (1920, 1080)):
            path = screenshot_view(view, tmp_path / f"staff-{name}-{size[0]}.png", size)
            image = pygame.image.load(str(path))
            colours = {
                tuple(image.get_at((x, y)))
                for x in range(0, size[0], 23)
                for y in range(0, size[1], 19)
            }
            assert len(colours) > 8


def test_the_history_of_a_long_journal_shows_the_latest_games_under_their_column_names(
    tmp_path: Path,
) -> None:
    import sqlite3

    from controller.config.table_config import TableConfig
    from controller.kiosk.app import Kiosk
    from controller.records.history import DESK_HISTORY

    journal = tmp_path / "journal.sqlite3"
    config = TableConfig.simulated(4, bots=4)
    first = Kiosk.create(
        config, seed=3, auto_game="oss", journal_path=journal, records_dir=tmp_path
    )
    with first:
        assert first.run_headless()
    # A year of games: the one played, copied (the rows are what the history reads).
    columns = "game, players, header, seed, config, status, started, finished, report, record"
    with sqlite3.connect(journal) as db:
        for _ in range(6):  # 64 games
            db.execute(f"INSERT INTO games ({columns}) SELECT {columns} FROM games")
    db.close()
    kiosk = Kiosk.create(config, seed=4, journal_path=journal)
    with kiosk:
        kiosk.loop.drain()
        kiosk.simulator.tap_staff(1)
        kiosk.loop.drain()
        staff = kiosk.table.view.staff
        assert staff is not None
        target = shown_all(staff.options).index("Game history")
        while kiosk.table.view.staff.selected != target:  # type: ignore[union-attr]
            kiosk.simulator.press(1, Button.NEXT)
            kiosk.loop.drain()
        kiosk.simulator.press(1, Button.OK)
        kiosk.loop.drain()
        staff = kiosk.table.view.staff
        assert staff is not None and shown(staff.title) == "Game history"
        assert staff.table[0][:3] == ("#", "date", "game")
        ids = [int(row[0]) for row in staff.table[1:]]
        assert ids == list(range(64 - DESK_HISTORY + 1, 65))  # the latest, oldest first
        for size in ((800, 480), (1920, 1080)):
            Renderer(size).render(kiosk.table.view)
