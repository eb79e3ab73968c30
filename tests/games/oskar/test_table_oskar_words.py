"""Oskar's words at the table: seats named for people, in English, German and Japanese.

Three players sit at physical seats 1, 2 and 3 (0-based; people read them as
Seat 2, 3 and 4) and bots play a whole game through the mock devices. Every
message, button label and results line the game produced is then presented
the way the table presents it (``controller.words.Presenter`` with the engine
player -> physical seat map) in each language: it must name only the seats
that play, counted from 1, and leave no ``{field}`` unfilled.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from controller.games.base import IllegalAction
from controller.games.oskar.engine import Card, Phase, Play
from controller.games.oskar.spec import SPEC, VOCABULARY
from controller.games.oskar.table import OskarAdapter
from controller.games.words import Card as CardArg
from controller.games.words import Text, Words, say
from controller.kiosk.simulation import Simulator
from controller.view import MessageKind, Screen
from controller.words import Presenter
from controller.words.catalogs import translations
from hardware.events import Button
from tests.games.oskar.test_table_oskar import Rig as OskarRig
from tests.words import shown

SEATS = (1, 2, 3)  # physical seats, 0-based: people read Seat 2, 3 and 4
LANGUAGES = ("en", "de", "ja")


class Rig(OskarRig):
    """The Oskar table rig, with the presenter the table uses for this game's words."""

    def presenter(self, language: str) -> Presenter:
        """How the table presents this game's words to a reader of ``language``."""
        game = self.table.game
        assert game is not None
        return Presenter(language, tuple(game.players), game_id="oskar")


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = Rig(seats=4, seed=11)
    with r.devices:
        r.loop.drain()
        r.start_game("oskar", SEATS)
        yield r


@pytest.fixture(scope="module")
def finished() -> Iterator[tuple[Rig, list[Words]]]:
    """One whole game at seats 1, 2 and 3, played once for the tests that read it."""
    r = Rig(seats=4, seed=11)
    with r.devices:
        r.loop.drain()
        r.start_game("oskar", SEATS)
        yield r, play_and_collect(r)


def _wrong_tap(rig: Rig) -> tuple[int, str]:
    """A physical seat that plays and a card it may not play now: it is not its turn."""
    engine, game = rig.engine, rig.table.game
    assert game is not None
    other = (engine.round.turn + 1) % engine.players
    hand = engine.registered_hand(other)
    assert hand
    return game.players[other], str(hand[0])


def play_and_collect(rig: Rig) -> list[Words]:
    """Bots play the whole game; every message and button label shown on the way.

    A wrong tap and a press out of turn are made early on, so refusals and
    input answers are among what is checked.
    """
    seen: list[Words] = []
    ids: set[int] = set()

    def collect() -> None:
        for message in rig.table.messages:
            if id(message) not in ids:
                ids.add(id(message))
                seen.append(message.text)
        seen.extend(hint.label for hint in rig.table.view.buttons)

    sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats=set(SEATS))
    refused = pressed = False
    for _ in range(30000):
        if rig.screen() is Screen.RESULTS:
            break
        if not refused and rig.engine.phase is Phase.PLAY and rig.engine.doubles is None:
            seat, card = _wrong_tap(rig)
            rig.tap(seat, card)
            refused = True
            collect()
            assert rig.table.messages[-1].kind is MessageKind.REFUSED
        game = rig.table.game
        if refused and not pressed and rig.engine.phase is Phase.PLAY and game is not None:
            rig.press(game.players[rig.engine.round.turn], Button.OK)  # OK does not play a card
            pressed = True
            collect()
        assert sim.step(0.0) or rig.screen() is Screen.RESULTS
        rig.loop.drain()
        collect()
    assert rig.screen() is Screen.RESULTS and refused and pressed
    view = rig.table.view
    seen.append(view.result_rule)
    seen.extend(heading for heading, _ in view.result_rows)
    return seen


def seat_names(presenter: Presenter) -> dict[int, str]:
    """How ``presenter`` names each physical seat of a seven-seat table (0-based keys)."""
    return {seat: presenter.seat(seat) for seat in range(7)}


def test_every_word_of_a_game_at_seats_1_2_3_names_only_the_seats_that_play(
    finished: tuple[Rig, list[Words]],
) -> None:
    rig, words = finished
    texts = [w for w in words if isinstance(w, Text)]
    assert len(texts) > 50
    # Everything Oskar says is a message; plain strings here are the table's own lines
    # (its "... begins" announcement, the results button), which the table room converts.
    plain = {w for w in words if isinstance(w, str) and w}
    assert all(w == "done" or w.endswith(" begins") for w in plain), plain
    for language in LANGUAGES:
        presenter = rig.presenter(language)
        names = seat_names(presenter)
        playing = {names[s] for s in SEATS}
        absent = [names[s] for s in range(7) if s not in SEATS]
        seat_word = re.escape(names[0].rsplit(" ", 1)[0]) if " " in names[0] else None
        shown_any: set[str] = set()
        for w in words:
            line = presenter(w)
            assert "{" not in line and "}" not in line, (language, line)
            for name in absent:
                assert not re.search(re.escape(name) + r"(?!\d)", line), (language, line)
            assert "Seat 0" not in line and "seat 0" not in line, (language, line)
            if seat_word is not None:
                # Any "Seat N" in the line is a playing seat, counted from 1.
                for match in re.finditer(seat_word + r" (\d+)", line):
                    assert match.group(0) in playing, (language, line)
            if language == "en":
                assert not re.search(r"\bplayers?\b", line), line
                assert not re.search(r"\bseat \d", line), line  # the record's 0-based form
            shown_any.update(name for name in playing if name in line)
        assert shown_any == playing, (language, shown_any)  # each playing seat is named
    # German and Japanese come from the catalogs: the results line is not English there.
    english = rig.presenter("en")(rig.table.view.result_rule)
    for language in ("de", "ja"):
        assert rig.presenter(language)(rig.table.view.result_rule) != english


def test_a_refusal_at_the_table_reads_in_german_from_the_catalog(rig: Rig) -> None:
    engine = rig.engine
    sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats=set(SEATS))
    for _ in range(200):  # the opening dice (and any doubles) go by
        if engine.phase is Phase.PLAY and engine.doubles is None:
            break
        assert sim.step(0.0)
        rig.loop.drain()
    game = rig.table.game
    assert game is not None
    turn = engine.round.turn
    other = (turn + 1) % engine.players
    card = engine.registered_hand(other)
    assert card
    rig.tap(game.players[other], str(card[0]))  # not its turn
    message = rig.table.messages[-1]
    assert message.kind is MessageKind.REFUSED and message.seat == game.players[other]
    german = rig.presenter("de")(message.text)
    key = "{player} cannot play {card}: it is {turn}'s turn"
    translated = translations("de").gettext(key)
    # Rooms share a sentence's translation (Oshaka says the same), so read it from the catalog.
    assert translated != key and "{turn}" in translated and "nicht spielen" in translated
    de = rig.presenter("de")
    expected = (
        translated.replace("{player}", de.player(other))
        .replace("{card}", de.card(str(card[0])))
        .replace("{turn}", de.player(turn))
    )
    # The table says whose refusal it is ("Platz 2: ..."), then the engine's sentence.
    assert german.startswith(de.seat(game.players[other])) and german.endswith(expected)
    assert "nicht spielen" in german and "cannot" not in german
    # The seats it names are the physical ones, counted from 1.
    assert de.player(other) == de.seat(game.players[other])
    # The English is the same message in the reader's words; the record line keeps seats 0-based.
    english = rig.presenter("en")(message.text)
    assert f"Seat {game.players[other] + 1} cannot play" in english
    with pytest.raises(IllegalAction) as refused:
        engine.apply(Play(other, Card.parse(str(card[0]))))
    assert str(refused.value) == f"seat {other} cannot play {card[0]}: it is seat {turn}'s turn"


def test_oskar_cards_and_genres_read_by_name_in_each_language() -> None:
    presenter = {language: Presenter(language, game_id="oskar") for language in LANGUAGES}
    assert presenter["en"](say("{card}", card=CardArg("L16"))) == "Lilac 16"
    assert presenter["de"](say("{card}", card=CardArg("Y4"))) == "Gelb 4"
    assert presenter["ja"](say("{card}", card=CardArg("R0"))).startswith("赤")
    words = VOCABULARY.genre_words
    assert presenter["en"](words["romance"]) == "love story"
    assert presenter["de"](words["scifi"]) == "Science-Fiction"
    assert presenter["ja"](words["western"]) == "西部劇"
    # The preset labels a menu shows are messages too.
    assert [presenter["de"](p.label) for p in SPEC.presets] == [
        "Ende bei 7 Marken",
        "Ende bei 8 Marken",
    ]


def test_results_rows_explain_the_tokens_per_seat(finished: tuple[Rig, list[Words]]) -> None:
    rig, _ = finished
    view = rig.table.view
    report = rig.table.result
    assert report is not None
    sheet = view.result_sheet
    assert sheet is not None and view.result_rows == ()  # the rounds' tokens add up
    rows = {shown(heading): list(values) for heading, values in sheet.counts}
    assert set(rows) == {"Film points", "Stocks won"}
    engine = rig.engine
    results = engine.results
    assert rows["Film points"] == [sum(r.points[p] for r in results) for p in range(3)]
    assert rows["Stocks won"] == [sum(1 for r in results if r.stock_winner == p) for p in range(3)]
    # Every round's tokens add up to the totals the screen shows.
    assert [sum(r["scores"][p] for r in report["rounds"]) for p in range(3)] == report["totals"]
    winner = rig.presenter("en")(sheet.winner)
    winners = report["winners"]
    best = max(report["totals"])
    if len(winners) == 1:
        assert winner == f"Seat {SEATS[winners[0]] + 1} wins with {best} tokens: the most tokens"
    else:
        assert winner.endswith(f"share the win: {best} tokens each")


def test_result_rule_says_the_rulebooks_end_and_the_winner_line_a_shared_victory() -> None:
    adapter = _adapter()
    report = {"winners": [0, 2], "totals": [7, 3, 7], "rounds": []}
    rule = Presenter("en", (1, 2, 3))(adapter.presentation.result_rule(report))
    # The rulebook: the most tokens win; the goal token ends the game, it does not win it.
    assert rule.startswith("The most Oskar tokens win; a seat's 7th token ends the game")
    sheet = adapter.presentation.result_sheet(report)
    english = Presenter("en", (1, 2, 3))(sheet.winner)
    assert english == "Seat 2 and Seat 4 share the win: 7 tokens each"
    assert Presenter("de", (1, 2, 3))(sheet.winner).endswith("teilen sich den Sieg: je 7 Marken")
    assert sheet.places == (1, 3, 1)


def _adapter() -> OskarAdapter:
    from controller.adapters import new_adapter

    adapter = new_adapter("oskar", 3, random.Random(1))
    assert isinstance(adapter, OskarAdapter)
    return adapter
