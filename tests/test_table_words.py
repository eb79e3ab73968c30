"""The table's words: languages per table and per seat, seats counted from 1, seat colours.

Everything the table itself writes (announcements, refusals, button labels,
the options screen, the staff overlay) is a ``Text``; these tests read it the
way a panel does, through ``Presenter.for_view(view, seat)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig, parse
from controller.games import spec_of
from controller.games.base import BadOption
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.words import Words
from controller.kiosk.resume import resume_if_unfinished
from controller.records.journal import Journal
from controller.table import Table
from controller.tags.registry import SIMULATED_STAFF_UID, simulated, simulated_uid
from controller.view import Screen, TableView
from controller.view.seat_colours import seat_colour
from controller.words import Presenter
from controller.words.pseudo import is_pseudo
from hardware.cues import Cue
from hardware.events import Button
from hardware.leds import RecordingStrip
from tests.rigs import TableRig
from tests.words import shown

COLON = "\uff1a"  # Japanese text's full-width colon (written so, as ruff's RUF001 asks)


def on_panel(view: TableView, seat: int | None = None) -> Presenter:
    """The presenter of ``seat``'s panel (None: the shared centre)."""
    return Presenter.for_view(view, seat)


def labels(view: TableView, seat: int) -> dict[str, str]:
    """``seat``'s button labels as its panel shows them."""
    words = on_panel(view, seat)
    return {h.button: words(h.label) for h in view.buttons if h.seat == seat}


def to_join(rig: TableRig, game_id: str, seats: Iterable[int]) -> None:
    """Wake the table, choose ``game_id``, and let ``seats`` join (the first chooses)."""
    first, *others = seats
    rig.press(first, Button.OK)
    while rig.table.view.games[rig.table.selected].game_id != game_id:
        rig.press(first, Button.NEXT)
    rig.press(first, Button.OK)
    for seat in others:
        rig.press(seat, Button.OK)
    assert rig.screen() is Screen.JOIN


# --- languages ------------------------------------------------------------------------


def test_the_table_language_is_read_from_table_toml_and_checked() -> None:
    assert parse({}).language == "en"
    assert parse({"table": {"language": "ja"}}).language == "ja"
    with pytest.raises(ConfigError) as caught:
        parse({"table": {"language": "fr"}})
    message = str(caught.value)
    assert "table.language" in message and "'fr'" in message
    assert '"de" (Deutsch)' in message and '"ja" (日本語)' in message


def test_a_german_table_shows_german_prompts_and_button_labels() -> None:
    rig = TableRig(4, language="de")
    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)  # the menu
        view = rig.table.view
        assert view.language == "de"
        centre = on_panel(view)
        assert centre(view.messages[-1].text) == "Spiel wählen: PREV / NEXT, dann OK"
        assert labels(view, 2) == {
            "prev": "voriges Spiel",
            "ok": "wählen",
            "next": "nächstes Spiel",
        }
        assert centre(view.seats[2].label) == "Platz 3"
        to_join_from_menu(rig, "oskar")
        view = rig.table.view
        assert labels(view, 0)["ok"] == "aussteigen"  # seat 0 chose, so it joined
        assert labels(view, 1) == {"prev": "Menü", "ok": "mitspielen", "next": "Spiel starten"}
        rig.press(0, Button.NEXT)  # one player is too few: refused, in German
        assert on_panel(rig.table.view)(rig.table.messages[-1].text).endswith("1 dabei")


def to_join_from_menu(rig: TableRig, game_id: str) -> None:
    while rig.table.view.games[rig.table.selected].game_id != game_id:
        rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)
    assert rig.screen() is Screen.JOIN


def test_a_seat_switched_to_japanese_reads_its_panel_in_japanese_the_centre_stays_german() -> None:
    rig = TableRig(4, language="de")
    with rig.devices:
        rig.loop.drain()
        to_join(rig, "oskar", (0, 1, 2))
        # A joined seat's PREV offers the next language, named in its own words.
        assert labels(rig.table.view, 1)["prev"] == "Sprache: 日本語"
        assert labels(rig.table.view, 3)["prev"] == "Menü"  # not joined: back to the menu
        rig.press(1, Button.PREV)
        view = rig.table.view
        assert rig.screen() is Screen.JOIN and view.seat_languages == {1: "ja"}
        assert labels(view, 1) == {
            "prev": f"言語{COLON}English",
            "ok": "抜ける",
            "next": "ゲーム開始",
        }
        assert labels(view, 2)["ok"] == "aussteigen"  # the others keep the table's language
        assert on_panel(view, 1)(view.seats[1].label) == "2番席"
        assert on_panel(view)(view.seats[1].label) == "Platz 2"  # the centre: German
        # The game starts: the seat keeps its language for the whole game.
        rig.press(0, Button.NEXT)
        if rig.screen() is Screen.OPTIONS:
            rig.press(0, Button.OK)
        assert rig.screen() is Screen.PLAY
        view = rig.table.view
        assert view.seat_languages == {1: "ja"}
        assert on_panel(view, 1)(view.game_title or "").startswith(f"Oskar{COLON}")
        assert on_panel(view)(view.game_title or "").startswith("Oskar: ")
        # A refusal at the Japanese seat reads Japanese there and German in the centre.
        rig.tap_uid(1, simulated_uid("oshaka", "R1"))  # a card of another deck: refused
        said = rig.table.messages[-1].text
        assert on_panel(view, 1)(said).startswith(f"2番席{COLON}")
        assert on_panel(view)(said).startswith("Platz 2: ")
        # The choice holds until the table rests again: staff abandon the game.
        rig.tap_uid(2, SIMULATED_STAFF_UID)
        rig.press(2, Button.NEXT)
        rig.press(2, Button.OK)
        assert rig.screen() is Screen.ATTRACT
        assert rig.table.view.seat_languages == {}


def test_prev_cycles_every_language_and_back_to_the_table_s() -> None:
    rig = TableRig(3)
    with rig.devices:
        rig.loop.drain()
        to_join(rig, "oskar", (0, 1))
        seen = []
        for _ in range(3):
            rig.press(1, Button.PREV)
            seen.append(rig.table.language_of(1))
        assert seen == ["de", "ja", "en"]
        assert rig.table.view.seat_languages == {}  # back to the table's: nothing kept
        assert rig.screen() is Screen.JOIN


def test_a_resumed_game_shows_the_seats_languages_as_before(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path, TableConfig.simulated(4))
    rig = TableRig(4, journal=journal)
    with rig.devices:
        rig.loop.drain()
        to_join(rig, "oskar", (0, 1, 2))
        rig.press(2, Button.PREV)  # seat 2: Deutsch
        rig.press(2, Button.PREV)  # seat 2: 日本語
        rig.press(0, Button.NEXT)
        if rig.screen() is Screen.OPTIONS:
            rig.press(0, Button.OK)
        assert rig.screen() is Screen.PLAY
        assert rig.table.view.seat_languages == {2: "ja"}
    journal.close()

    # A restart: a fresh table resumes the journal's unfinished game.
    with Journal.open(path, TableConfig.simulated(4)) as again:
        table = Table(TableConfig.simulated(4), simulated(), journal=again)
        assert resume_if_unfinished(again, table) is not None
        assert table.screen is Screen.PLAY
        assert table.view.seat_languages == {2: "ja"}


# --- seats counted from 1 -------------------------------------------------------------------

SEAT_NUMBER = re.compile(r"\b[Ss]eat (\d+)")


def every_word(view: TableView, messages: bool = True) -> list[Words]:
    """Everything the table writes on this view; ``messages=False`` leaves out the
    message lines (during and after play they are mostly the game adapter's own)."""
    words: list[Words] = [m.text for m in view.messages] if messages else []
    words += [h.label for h in view.buttons] + [s.label for s in view.seats]
    words += [g.title for g in view.games] + [g.unavailable for g in view.games]
    for label, value, explanation in view.options:
        words += [label, value, explanation]
    if view.prompt is not None:
        words.append(view.prompt)
    if view.game_title is not None:
        words.append(view.game_title)
    for staff in (view.staff, view.staff_overlay):
        if staff is not None:
            words += [staff.title, staff.prompt, staff.hint, *staff.options, *staff.lines]
    return words


def seat_numbers(view: TableView, messages: bool = True) -> set[int]:
    found: set[int] = set()
    for words in every_word(view, messages):
        text = shown(words)
        assert "player 0" not in text and "Seat 0" not in text and "seat 0" not in text, text
        found |= {int(n) for n in SEAT_NUMBER.findall(text)}
    return found


def test_seats_are_counted_from_1_in_the_lobby_menu_options_starter_staff_and_results() -> None:
    # People sit at seats 1, 2 and 3 (0-based inside); seat 0 stays empty.
    rig = TableRig(4)  # its taps name Oshaka cards
    seen: set[int] = set()
    with rig.devices:
        rig.loop.drain()
        rig.press(1, Button.OK)  # the menu
        seen |= seat_numbers(rig.table.view)
        to_join_from_menu_at(rig, 1, "oshaka-trick")
        rig.press(2, Button.OK)
        rig.press(3, Button.OK)
        rig.press(0, Button.NEXT)  # seat 0 has not joined: NEXT still starts (any seat may)
        seen |= seat_numbers(rig.table.view)
        if rig.screen() is Screen.OPTIONS:
            rig.press(1, Button.OK)
        assert rig.screen() is Screen.STARTER
        rig.press(0, Button.OK)  # not joined: refused, naming the seat counted from 1
        assert shown(rig.table.messages[-1].text) == "Seat 1 has not joined this game"
        seen |= seat_numbers(rig.table.view)
        rig.press(3, Button.OK)  # "it's me": physical seat 3 leads
        assert rig.screen() is Screen.PLAY
        assert "Seat 4 leads the first trick" in [shown(m.text) for m in rig.table.messages]
        assert rig.table.view.players == (1, 2, 3)
        seen |= seat_numbers(rig.table.view)
        rig.tap_uid(2, SIMULATED_STAFF_UID)  # staff mode at physical seat 2
        assert shown(rig.table.messages[-1].text).startswith("Staff at Seat 3:")
        seen |= seat_numbers(rig.table.view)
        rig.press(2, Button.NEXT)  # abandon? (the overlay asks to confirm)
        seen |= seat_numbers(rig.table.view)
        rig.press(2, Button.PREV)  # cancelled
        rig.tap_uid(1, simulated_uid("oskar", "Y1"))  # a card of another deck: refused
        assert shown(rig.table.messages[-1].text).startswith("Seat 2: that card belongs")
        seen |= seat_numbers(rig.table.view)
    assert seen and seen <= {1, 2, 3, 4}
    assert {2, 3, 4} <= seen  # the seats that played were named, counted from 1


def to_join_from_menu_at(rig: TableRig, seat: int, game_id: str) -> None:
    while rig.table.view.games[rig.table.selected].game_id != game_id:
        rig.press(seat, Button.NEXT)
    rig.press(seat, Button.OK)
    assert rig.screen() is Screen.JOIN


class CardRig(TableRig):
    """A table whose taps name cards of the standard deck (Oh Pshaw)."""

    deck = "standard-52"


def test_the_results_screen_names_seats_from_1() -> None:
    rig = CardRig(4)
    with rig.devices:
        rig.loop.drain()
        engine = rig.start_game("oh-pshaw", (1, 2, 3))
        assert isinstance(engine, OhPshaw)
        players = (1, 2, 3)
        for _ in range(2000):  # every seat bids 0 and plays its first legal card
            if engine.finished:
                break
            seat = players[engine.turn]
            if engine.phase == "bid":
                rig.press(seat, Button.OK)
            else:
                card = engine.legal_actions(engine.turn)[0]
                rig.tap(seat, card.to_json()["play"])
        assert rig.screen() is Screen.RESULTS
        view = rig.table.view
        assert shown(view.game_title).startswith("Oh Pshaw: ")
        labels = {(h.seat, h.button): shown(h.label) for h in view.buttons}
        assert labels[(0, Button.OK)] == "done" and labels[(0, Button.NEXT)] == "page >"
        assert seat_numbers(view, messages=False) <= {1, 2, 3, 4}
        assert [shown(s.label) for s in view.seats] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
        assert view.players == (1, 2, 3)


# --- the schedule editor --------------------------------------------------------------------


def test_the_options_screen_enters_an_own_list_of_hand_sizes_with_three_buttons() -> None:
    rig = TableRig(4)
    with rig.devices:
        rig.loop.drain()
        to_join(rig, "oh-pshaw", (0, 1, 2, 3))
        rig.press(0, Button.NEXT)
        assert rig.screen() is Screen.OPTIONS

        def line(label: str) -> tuple[int, str, str]:
            for index, (name, value, explanation) in enumerate(rig.table.view.options):
                if shown(name) == label:
                    return index, shown(value), shown(explanation)
            raise AssertionError(label)

        while rig.table.view.options_cursor != line("Hand sizes")[0]:
            rig.press(0, Button.NEXT)
        for _ in range(10):  # the offered schedules, then the editor opens
            rig.press(0, Button.OK)
            if line("Hand sizes")[1].startswith("-, then"):
                break
        assert line("Hand sizes")[1] == "-, then 1?"
        assert "OK adds it" in line("Hand sizes")[2]
        assert labels(rig.table.view, 2) == {
            "prev": "smaller hand",
            "ok": "add a hand of 1",
            "next": "larger hand",
        }
        for _ in range(4):
            rig.press(1, Button.NEXT)  # any seat: 5 cards
        rig.press(1, Button.OK)
        rig.press(1, Button.OK)
        rig.press(1, Button.OK)  # three rounds of five
        rig.press(2, Button.PREV)
        rig.press(2, Button.OK)  # a round of four
        assert line("Hand sizes")[1] == "5, 5, 5, 4, then 4?"
        rig.press(3, Button.PREV)
        rig.press(3, Button.PREV)
        rig.press(3, Button.PREV)
        rig.press(3, Button.PREV)  # below 1: remove the last hand
        assert line("Hand sizes")[1] == "5, 5, 5, 4: remove the last hand"
        rig.press(3, Button.OK)
        rig.press(3, Button.PREV)  # before "remove" comes "done"
        assert labels(rig.table.view, 0)["ok"] == "keep this list"
        rig.press(3, Button.OK)
        assert line("Hand sizes")[1] == "5, 5, 5"
        assert rig.screen() is Screen.OPTIONS
        while rig.table.view.options_cursor != 0:
            rig.press(0, Button.PREV)
        rig.press(0, Button.OK)  # Start the game
        game = rig.table.game
        assert game is not None
        assert game.engine.header()["options"]["schedule"] == [5, 5, 5]


# --- seat colours -----------------------------------------------------------------------------


def test_each_seat_has_its_colour_in_the_view_and_glows_in_it_when_joined() -> None:
    rig = TableRig(4)
    with rig.devices:
        rig.loop.drain()
        assert [s.colour for s in rig.table.view.seats] == [seat_colour(s) for s in range(4)]
        assert len({s.colour for s in rig.table.view.seats}) == 4
        to_join(rig, "oskar", (0, 2))
        leds = rig.devices.leds
        assert leds.showing(2, rig.now) is Cue.JOINED
        strip = rig.devices.strip
        assert isinstance(strip, RecordingStrip)  # the mock strip: its pixels can be read
        brightness = rig.config.leds.brightness
        first = rig.config.seats[2].pixels[0]
        expected = tuple(round(c * brightness) for c in seat_colour(2))
        assert tuple(strip[first]) == expected
        other = rig.config.seats[0].pixels[0]
        assert tuple(strip[other]) == tuple(round(c * brightness) for c in seat_colour(0))
        assert tuple(strip[first]) != tuple(strip[other])


def test_a_table_built_without_a_language_speaks_english() -> None:
    table = Table(replace(TableConfig.simulated(3)), simulated())
    assert table.view.language == "en" and table.language_of(1) == "en"


# --- nothing untranslated -----------------------------------------------------------------


def test_every_word_the_table_writes_itself_goes_through_the_catalog() -> None:
    # Drawn in the pseudo-locale, each of the table's own words comes out bracketed:
    # a plain string would reach the screen without a key. (The game's own option
    # names, values and messages are its room's: this checks the table's words.)
    rig = TableRig(4, language="qps")
    pseudo = Presenter("qps")
    checked = 0

    def check(words: Iterable[Words]) -> None:
        nonlocal checked
        for each in words:
            if isinstance(each, str) and (not each or not any(c.isalpha() for c in each)):
                continue  # numbers and symbols (the PIN's P / O / N are letters: not here)
            assert is_pseudo(pseudo(each)), f"not through the catalog: {each!r}"
            checked += 1

    def table_words(view: TableView) -> list[Words]:
        words: list[Words] = [m.text for m in view.messages]
        words += [h.label for h in view.buttons] + [s.label for s in view.seats]
        words += [g.unavailable for g in view.games]
        for label, _value, explanation in view.options[:2]:  # "Start the game", "Preset"
            words += [label, explanation]
        if view.staff_overlay is not None:
            o = view.staff_overlay
            words += [o.title, o.prompt, o.hint, *o.options]
        return words

    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)
        check(table_words(rig.table.view))  # the menu
        to_join_from_menu(rig, "oh-pshaw")
        rig.press(1, Button.OK)
        rig.press(2, Button.OK)
        rig.press(1, Button.PREV)  # a joined seat's language label
        check(table_words(rig.table.view))  # the join screen
        rig.press(0, Button.NEXT)
        rig.press(2, Button.NEXT)
        check(table_words(rig.table.view))  # the options screen
        rig.press(2, Button.PREV)
        rig.press(2, Button.OK)  # start
        assert rig.screen() is Screen.PLAY
        rig.tap_uid(3, SIMULATED_STAFF_UID)
        rig.press(3, Button.NEXT)
        view = rig.table.view
        check([m.text for m in view.messages if m.seat == 3])  # staff mode's lines
        check([h.label for h in view.buttons if h.seat == 3])
        check(table_words(replace(view, messages=(), buttons=())))
    assert checked > 30


def test_an_option_refusal_keeps_its_english_line_and_reads_german_from_the_catalog() -> None:
    with pytest.raises(BadOption) as caught:
        spec_of("oh-pshaw").check_options({"max_hand": 99})
    # table.toml's refusal is replay's (``line N:`` errors), for the fewest players.
    assert str(caught.value) == (
        'option "max_hand" 99 is too large: 3 players x 99 cards is more than the 52 cards '
        "of the deck (at most 17)"
    )
    assert Presenter("de")(caught.value.text) == (
        "Option \u201emax_hand\u201c 99 ist zu groß: 3 Spieler x 99 Karten sind mehr als die 52 "
        "Karten des Decks (höchstens 17)"
    )
    with pytest.raises(BadOption) as caught:
        spec_of("oss").check_options({"rounds": 5})
    assert str(caught.value) == 'option "rounds" must be 1..4, not 5'
    assert Presenter("de")(caught.value.text) == "Option \u201erounds\u201c muss 1..4 sein, nicht 5"
