"""Oss's words at the table (issue 12) and results that explain (issue 13, item 5).

Players sit at physical seats 1, 2 and 3 (shown as Seat 2, 3 and 4), so engine player ``p``
is never the seat numbered ``p`` or ``p + 1``: every message, button label and result line the
game writes must name only seats that play, counted from 1, in English, German and Japanese,
with no field left unfilled. A refusal is a message too, shown in the reader's language.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.adapters import AdapterContext
from controller.games.base import IllegalAction
from controller.games.oss.engine import Oss, Phase, Tribe
from controller.games.oss.table import OssAdapter
from controller.games.words import Text, Verbatim, Words, say
from controller.kiosk.simulation import Simulator
from controller.records.record import replay
from controller.view import Screen, TableView
from controller.words import Presenter
from controller.words.catalogs import pot_path
from hardware.events import Button
from tests.rigs import TableRig
from tests.words import shown

SEATS = (1, 2, 3)  # the physical seats that play; seat 0 stays empty
LANGUAGES = ("en", "de", "ja")
RECORDS = Path(__file__).parents[2] / "records" / "oss"
POT = pot_path("oss")


class Rig(TableRig):
    """Oss's deck; seats 1-3 bots played through their own buttons and readers."""

    deck = "oss-tribes"


def oss_keys() -> set[str]:
    """Every message key of the oss catalog (what this game writes)."""
    from babel.messages.pofile import read_po

    with POT.open("rb") as handle:
        catalog = read_po(handle)
    keys = set()
    for message in catalog:
        if message.id:
            keys.add(str(message.id[0] if isinstance(message.id, tuple | list) else message.id))
    return keys


def seat_pattern(language: str) -> re.Pattern[str]:
    """How ``language`` writes "Seat N", with N captured."""
    template = Presenter(language)(say("Seat {number}", number=Verbatim("\x00")))
    return re.compile(re.escape(template).replace("\x00", r"(\d+)"))


def nested(words: Words) -> Iterator[Text]:
    """``words`` and every Text inside its arguments."""
    if isinstance(words, Text):
        yield words
        for _, value in words.args:
            if isinstance(value, Text):
                yield from nested(value)


def check(words: Words, reader: Presenter, shown_seats: set[int]) -> str:
    """``words`` as ``reader`` shows it, checked: seats that play only, no field left open."""
    text = reader(words)
    assert not re.search(r"\{[a-z_]+\}", text), f"unfilled field in {text!r}"
    assert not re.search(r"[Pp]layer \d", text), f"a player number in {text!r}"
    for number in seat_pattern(reader.language).findall(text):
        assert int(number) in shown_seats, f"{text!r} names seat {number}, which does not play"
    return text


def play_to_the_end(rig: Rig) -> list[TableView]:
    """Play a whole game with bots at seats 1-3 (through their buttons); every view seen."""
    sim = Simulator(rig.table, rig.devices, rig.registry, set(SEATS), rng=random.Random(4))
    views = [rig.table.view]
    for _ in range(30_000):
        if rig.table.screen is Screen.RESULTS:
            views.append(rig.table.view)
            return views
        assert sim.step(0.0), "nobody can act: the table waits for no one"
        rig.loop.drain()
        views.append(rig.table.view)
    raise AssertionError("the game did not end")


def test_every_word_oss_writes_names_only_the_seats_that_play() -> None:
    rig = Rig(4, bots=3)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", SEATS)
        game = rig.table.game
        assert game is not None and game.players == list(SEATS)
        views = play_to_the_end(rig)
    keys = oss_keys()
    shown_seats = {seat + 1 for seat in SEATS}
    seen: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    checked = 0
    for view in views:
        texts: list[tuple[Words, int | None]] = [(m.text, m.seat) for m in view.messages]
        texts += [(b.label, b.seat) for b in view.buttons]
        for button in view.buttons:
            label = Presenter.for_view(view, button.seat)(button.label)
            assert len(label) <= 18, f"button label {label!r} is too long for a seat button"
        for words, seat in texts:
            if not isinstance(words, Text) or words.key not in keys:
                continue  # the table's own words (joins, screens) are the table's to check
            for language in LANGUAGES:
                reader = Presenter.for_view(view, seat).in_language(language)
                seen[language].add(check(words, reader, shown_seats))
            checked += 1
    assert checked > 100, "the game said too little to check"
    # The languages really differ: German and Japanese sentences are their own.
    assert not seen["de"] & seen["en"] - {"Oss"}, seen["de"] & seen["en"]
    assert any(re.search("[\u3040-\u30ff\u4e00-\u9fff]", t) for t in seen["ja"])
    assert any("Platz" in t for t in seen["de"])

    last = views[-1]
    assert last.screen is Screen.RESULTS and last.result is not None
    for language in LANGUAGES:
        reader = Presenter.for_view(last).in_language(language)
        rule = check(last.result_rule, reader, shown_seats)
        assert rule, "the results say who won and why"
        for heading, _values in last.result_rows:
            assert check(heading, reader, shown_seats)
    # The rows explain the totals: card points plus challenge points make each total.
    rows = {shown(heading): list(values) for heading, values in last.result_rows}
    totals = last.result["totals"]
    assert [a + b for a, b in zip(rows["Card points"], rows["Challenge points"], strict=True)] == (
        totals
    )
    winners = last.result["winners"]
    assert last.result_sheet is not None
    english = Presenter.for_view(last)(last.result_sheet.winner)
    for winner in winners:
        assert f"Seat {SEATS[winner] + 1}" in english
    assert f"{totals[winners[0]]} points" in english


def test_a_refusal_at_seat_3_reads_in_german_with_the_seats_counted_from_1() -> None:
    rig = Rig(4, bots=3)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", SEATS)
        game = rig.table.game
        assert game is not None
        engine = game.adapter.engine
        assert isinstance(engine, Oss) and engine.phase is Phase.TRIBE
        view = rig.table.view
        chief = engine.chief
        other = (chief + 1) % 3  # the engine player whose turn it is not
        hand = engine.hand_of(other)
        with pytest.raises(IllegalAction) as refused:
            engine.apply(Tribe(other, hand[0], engine.solo_tricks[0]))
        # The record's English line stays as the replay prints it (0-based record seats).
        assert str(refused.value) == (
            f"seat {other} cannot play a tribe card: it is seat {chief}'s turn"
        )
        seat = SEATS[other]
        german = Presenter.for_view(view, seat).in_language("de")(refused.value.text)
        assert german == (
            f"Platz {seat + 1}: eine Stammeskarte legen \N{EN DASH} nicht jetzt, "
            f"Platz {SEATS[chief] + 1} ist am Zug"
        )
        # A tapped card of another tribe is refused by the adapter, in German too.
        with pytest.raises(IllegalAction) as wrong_tribe:
            game.adapter.input.on_card(other, "T6-1a")
        german = Presenter.for_view(view, seat).in_language("de")(wrong_tribe.value.text)
        assert german == (
            f"diese Karte gehört zu Stamm 6; Platz {seat + 1} spielt Stamm {other + 1}"
        )
        japanese = Presenter.for_view(view, seat).in_language("ja")(wrong_tribe.value.text)
        assert f"{seat + 1}番席" in japanese and "部族" in japanese
        # A button's answer is a message at that seat's panel, in its reader's language.
        rig.press(SEATS[chief], Button.OK)
        answer = rig.table.messages[-1]
        assert answer.seat == SEATS[chief]
        reader = Presenter.for_view(rig.table.view, answer.seat).in_language("de")
        # The table names the seat once in front of the game's answer.
        assert reader(answer.text) == (
            f"Platz {SEATS[chief] + 1}: "
            "wähle die Aufgabe mit PREV/NEXT, dann lege deine Stammeskarte auf"
        )


def test_tribe_cards_read_by_value_and_tribe_in_each_language() -> None:
    from controller.games.words import Card

    card = say("{player} discards {card} and tries again", player=Verbatim("A"), card=Card("T3-4b"))
    assert Presenter("en", game_id="oss")(card) == "A discards 4 of tribe 3 and tries again"
    assert Presenter("de", game_id="oss")(card) == "A wirft 4 von Stamm 3 ab und versucht es erneut"
    assert "部族3の4" in Presenter("ja", game_id="oss")(card)


@pytest.mark.parametrize("name", ["full-game-2p.jsonl", "two-duels.jsonl"])
def test_result_rows_explain_each_total(name: str) -> None:
    engine = replay((RECORDS / name).read_text(encoding="utf-8"))
    assert isinstance(engine, Oss)
    adapter = OssAdapter(AdapterContext(engine, 1))
    report = engine.report()
    rows = {shown(h): values for h, values in adapter.presentation.result_rows(report)}
    assert list(rows) == ["Card points", "Challenge points"]
    won = [[v for r in report["rounds"] for v in r["won"][s]] for s in range(engine.players)]
    assert rows["Card points"] == [sum(values) for values in won]
    challenges = [
        sum(1 for r in report["rounds"] if r["challenge"] and r["challenge"]["winner"] == s)
        for s in range(engine.players)
    ]
    assert any(challenges)
    assert rows["Challenge points"] == [4 * n for n in challenges]
    assert [a + b for a, b in zip(rows["Card points"], rows["Challenge points"], strict=True)] == (
        report["totals"]
    )
    rule = shown(adapter.presentation.result_rule(report))
    assert rule == "The most points win: tribe cards won plus 4 per challenge card."
    winner = shown(adapter.presentation.result_sheet(report).winner)
    winners = report["winners"]
    points = report["totals"][winners[0]]
    if len(winners) == 1:
        assert winner == f"Seat {winners[0] + 1} wins with {points} points: the most points"
    else:
        assert winner.endswith(f"share the win: {points} points each")
