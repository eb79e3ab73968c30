"""Oshaka Trick's words at the table: seats named as people see them, in en, de and ja.

Players sit at physical seats 1, 2 and 3 (shown as Seat 2, 3 and 4), so an engine
player number or a 0-based seat that leaked into a message would name a seat
that does not play. A whole game is played through the table with mock devices;
every message, button label and result line the game produced is presented in
each language and checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from babel.messages.pofile import read_po

from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.state import Phase
from controller.games.words import Arg, Items, Player, Text, Verbatim, Words, say
from controller.kiosk.simulation import Simulator
from controller.tags.registry import simulated_uid
from controller.view import MessageKind, Screen, TableView
from controller.words import Presenter
from controller.words.catalogs import LANGUAGES, po_path, pot_path
from hardware.events import Button
from tests.rigs import TableRig

SEATS = (1, 2, 3)  # physical, 0-based: shown as Seat 2, 3 and 4
SHOWN_SEATS = {2, 3, 4}
# Keys whose German reads as the English does (a name, a seat and its points).
SAME_IN_GERMAN = {"Oshaka", "R{round}", "{player}: {points}"}


def _keys() -> set[str]:
    """Every message key of the game's own catalog (domain oshaka_trick)."""
    with pot_path("oshaka_trick").open("rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


GAME_KEYS = _keys()


def ours(words: Words | None) -> bool:
    """Whether ``words`` is one of the game's own messages (the table's are tested apart)."""
    return isinstance(words, Text) and words.key in GAME_KEYS


class Seen:
    """What the game has shown: (physical seat or None for the centre, words) pairs."""

    def __init__(self) -> None:
        self.shown: list[tuple[int | None, Text]] = []
        self.views: list[TableView] = []

    def collect(self, view: TableView) -> None:
        found: list[tuple[int | None, Text]] = []
        for message in view.messages:
            text = message.text
            if isinstance(text, Text) and text.key == "{seat}: {why}":
                # The table's "Seat 3: ..." in front of an answer: the game's own words inside.
                inner = dict(text.args)["why"]
                assert isinstance(inner, Text)
                text = inner
            if ours(text):
                assert isinstance(text, Text)
                found.append((message.seat, text))
        for hint in view.buttons:
            if ours(hint.label):
                assert isinstance(hint.label, Text)
                found.append((hint.seat, hint.label))
        if ours(view.result_rule):
            assert isinstance(view.result_rule, Text)
            found.append((None, view.result_rule))
        for heading, _ in view.result_rows:
            if ours(heading):
                assert isinstance(heading, Text)
                found.append((None, heading))
        new = [pair for pair in found if pair not in self.shown]
        if new:
            self.shown += new
            self.views.append(view)

    def keys(self) -> set[str]:
        return {text.key for _, text in self.shown}


class Rig(TableRig):
    """A four-seat table where seats 1, 2 and 3 play Oshaka Trick; seat 0 stays empty."""

    def start(self) -> OshakaTrick:
        engine = self.start_game("oshaka-trick", SEATS, starter=SEATS[0])
        assert isinstance(engine, OshakaTrick)
        assert self.table.game is not None and self.table.game.players == list(SEATS)
        return engine


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig(seats=4).running() as r:
        yield r


def seat_pattern(reader: Presenter) -> re.Pattern[str]:
    """How ``reader``'s language names a seat ("Seat 3", "Platz 3", "3番席"), number captured."""
    sample = reader(say("Seat {number}", number=Verbatim("\x00")))
    before, after = sample.split("\x00")
    return re.compile(re.escape(before) + r"(\d+)" + re.escape(after), re.IGNORECASE)


def players_in(value: Arg) -> set[int]:
    """The engine players a message names (its ``Player`` arguments, nested ones too)."""
    if isinstance(value, Player):
        return {value.index}
    if isinstance(value, Items):
        return set().union(*(players_in(v) for v in value.values))
    if isinstance(value, Text):
        return set().union(*(players_in(v) for _, v in value.args))
    return set()


def play_through(rig: Rig, seen: Seen) -> OshakaTrick:
    """A whole game, every seat played by the simulator's bots through the mock devices,
    plus the mistakes a person makes: a tap out of turn, OK when a card is expected."""
    engine = rig.start()
    seen.collect(rig.table.view)
    sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats=set(SEATS))
    mistakes = 0
    for _ in range(5000):
        if rig.screen() is not Screen.PLAY:
            break
        expected = engine.expected
        if mistakes < 3 and expected is not None and engine.phase is Phase.PLAY:
            # The waiting seat presses OK (the table answers how to play), and the next
            # seat taps a card out of turn (refused with the rule's reason).
            waiting = SEATS[expected.seat]
            rig.press(waiting, Button.OK)
            seen.collect(rig.table.view)
            other = (expected.seat + 1) % 3
            hand = engine.registered_hand(other)
            assert hand
            rig.tap_uid(SEATS[other], simulated_uid("oshaka", str(hand[0])))
            seen.collect(rig.table.view)
            mistakes += 1
        assert sim.step(0.0)
        rig.loop.drain()
        seen.collect(rig.table.view)
    assert rig.screen() is Screen.RESULTS, "the game did not finish"
    # The game's last lines ("Game over: ...") stay in the table's log; the results
    # screen shows its own winner line instead, so they are read from the log.
    seen.collect(replace(rig.table.view, messages=tuple(rig.table.messages)))
    return engine


def test_every_word_of_a_game_at_seats_1_2_3_names_only_the_seats_that_play(rig: Rig) -> None:
    seen = Seen()
    play_through(rig, seen)
    # The game said all it says in a game: not a vacuous check.
    expected_keys = {
        "{player} wins trick {trick}: {reason}",
        "{player} places {card} face up to score",
        "{player} places {card}: PREV face up, NEXT face down (-1)",
        "Round {round} scored: {scores}",
        "Lowest score: {choosers} picks who leads round 2",
        "Round {round}: {player} leads",
        "Score {card}",
        "Face down {card}",
        "{player} leads",
        "Previous seat",
        "Tap the card you play on your reader",
        "{player} cannot play {card}: it is {turn}'s turn",
        "Most points over both rounds: the top card of each face-up column scores, "
        "each face-down card -1, each Oshaka penalty minus its number",
        "Column tops",
    }
    assert expected_keys <= seen.keys(), expected_keys - seen.keys()
    assert seen.keys() & {"Game over: {player} wins", "Game over: {players} share the victory"}
    view = rig.table.view  # the seating is the same all game long
    checked = 0
    for language in LANGUAGES:
        for seat, text in seen.shown:
            reader = Presenter.for_view(view, seat).in_language(language)
            line = reader(text)
            assert line.strip(), text
            assert "{" not in line and "}" not in line, f"unfilled field in {line!r}"
            numbers = {int(n) for n in seat_pattern(reader).findall(line)}
            assert numbers <= SHOWN_SEATS, f"{line!r} names a seat that does not play"
            # Exactly the seats of the players the message is about, counted from 1.
            assert numbers == {SEATS[p] + 1 for p in players_in(text)}, line
            assert "Seat 0" not in line and "seat 0" not in line
            if language == "en":
                assert "player" not in line.lower(), line
                # Cards are named ("Red 7"), never the record's notation ("R7").
                assert not re.search(r"\b[RBGY]1?\d\b", line), line
            elif text.key not in SAME_IN_GERMAN:
                english = reader.in_language("en")(text)
                assert line != english, f"{language}: {line!r} is not translated"
            checked += 1
    assert checked >= 3 * len(expected_keys)


def test_a_refusal_shown_in_german_is_german_and_names_the_seat_from_1(rig: Rig) -> None:
    engine = rig.start()
    waiting = engine.turn
    wrong = (waiting + 1) % 3
    hand = engine.registered_hand(wrong)
    assert hand
    card = str(hand[0])
    rig.tap_uid(SEATS[wrong], simulated_uid("oshaka", card))
    message = rig.table.messages[-1]
    assert message.kind is MessageKind.REFUSED and message.seat == SEATS[wrong]
    # The replay's English line keeps the record's 0-based players and the card's notation.
    assert str(message.text) == f"seat {wrong} cannot play {card}: it is seat {waiting}'s turn"
    view = rig.table.view
    german = Presenter.for_view(view, SEATS[wrong]).in_language("de")
    colour = {"R": "Rot", "B": "Blau", "G": "Grün", "Y": "Gelb"}[card[0]]
    assert german(message.text) == (
        f"Platz {SEATS[wrong] + 1} kann {colour} {card[1:]} nicht spielen: "
        f"Platz {SEATS[waiting] + 1} ist am Zug"
    )
    english = Presenter.for_view(view, SEATS[wrong]).in_language("en")
    assert english(message.text).startswith(f"Seat {SEATS[wrong] + 1} cannot play ")


def test_the_catalogs_translate_every_key_of_the_game() -> None:
    for language in ("de", "ja"):
        with po_path(language, "oshaka_trick").open("rb") as handle:
            catalog = read_po(handle, locale=language)
        keys = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        assert keys == GAME_KEYS
        for message in catalog:
            if message.id:
                assert message.string and all(message.string), (language, message.id)
                assert not message.fuzzy, (language, message.id)
