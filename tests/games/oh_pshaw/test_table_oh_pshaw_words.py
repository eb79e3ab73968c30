"""Oh Pshaw's words at the table: a whole game with players at physical seats 1, 2 and 3.

Every message, button label, turn prompt and result line the game produces is
read in English, German and Japanese, as the presenter writes it for the
seating of the game (engine player ``p`` sits at physical seat ``players[p]``):
only the seats that play may be named, counted from 1 (Seat 2, 3 and 4 here),
never "Seat 0"/"Seat 1", never "player", and no ``{field}`` is left unfilled.
A refusal shown in German comes from the German catalog.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from controller.adapters import Press, Tap
from controller.games.words import Text, Words
from controller.view import MessageKind, Screen
from controller.words import LANGUAGES, Presenter, french_card
from display.scenes.oh_pshaw import SCENE, needs_words
from hardware.events import Button
from tests.games.oh_pshaw.test_table_oh_pshaw import Rig as OhPshawRig

SEATS = (1, 2, 3)  # physical seats that play (0-based): Seat 2, Seat 3 and Seat 4


class Rig(OhPshawRig):
    """The Oh Pshaw table rig; gathers every word the game shows."""

    def __init__(self) -> None:
        super().__init__(seats=4)
        self.seen: list[Words] = []  # every message, button label and prompt, in order

    def players(self) -> tuple[int, ...]:
        game = self.table.game
        assert game is not None
        return tuple(game.players)

    def gather(self) -> None:
        """What the table shows now: messages, button labels and each seat's turn prompt."""
        view = self.table.view
        for message in self.table.messages:
            if message.text not in self.seen:
                self.seen.append(message.text)
        self.seen += [hint.label for hint in view.buttons]
        if view.screen is Screen.PLAY and view.game is not None:
            for player in range(len(self.players())):
                prompt = SCENE.turn_prompt(view.game, player)
                if prompt is not None:
                    self.seen.append(prompt)

    def gesture(self, seat: int, gesture: Tap | Press) -> None:
        if isinstance(gesture, Tap):
            self.tap(seat, gesture.card)
        else:
            self.press(seat, gesture.button)
        self.gather()


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


def last_kind(rig: Rig) -> MessageKind:
    """The kind of the table's latest message (a call, so mypy does not keep an old answer)."""
    return rig.table.messages[-1].kind


def play_to_the_end(rig: Rig) -> None:
    """Bots choose for every seat; each choice is made with that seat's taps and presses."""
    game = rig.table.game
    assert game is not None
    bot = game.adapter.simulation.make_bot(random.Random(3))
    players = rig.players()
    for _ in range(2000):
        if rig.screen() is not Screen.PLAY:
            return
        engine = rig.engine
        expected = engine.expected
        assert expected is not None
        action = bot.choose(engine, expected.seat)
        for gesture in game.adapter.simulation.gestures(action):
            rig.gesture(players[action.seat], gesture)
    raise AssertionError("the game did not end")


def seat_pattern(presenter: Presenter) -> re.Pattern[str]:
    """How ``presenter``'s language names a seat ("Seat 3"), with the number as a group."""
    one = presenter.seat(0)
    assert "1" in one
    head, tail = one.split("1", 1)
    return re.compile(re.escape(head) + r"(\d+)" + re.escape(tail))


def check_words(words: list[Words], players: tuple[int, ...]) -> dict[str, list[str]]:
    """``words`` in every language; fails on a seat that does not play, "player" or a "{field}"."""
    playing = {seat + 1 for seat in players}
    out: dict[str, list[str]] = {}
    for language in LANGUAGES:
        presenter = Presenter(language, players, game_id="oh-pshaw")
        pattern = seat_pattern(presenter)
        lines = [presenter(w) for w in words]
        for line in lines:
            assert "{" not in line and "}" not in line, (language, line)
            named = {int(n) for n in pattern.findall(line)}
            assert named <= playing, (language, line)
            # A seat is never named the record's way ("seat 0") on the table.
            assert not re.search(r"\bseat \d", line), (language, line)
            if language == "en":
                assert "player" not in line.lower(), line
        out[language] = lines
    return out


def test_a_game_at_seats_2_3_4_names_only_those_seats_in_every_language(rig: Rig) -> None:
    rig.start_game("oh-pshaw", SEATS)
    players = rig.players()
    assert players == SEATS
    rig.gather()
    engine = rig.engine
    bidder = players[engine.turn]
    other = next(s for s in SEATS if s != bidder)
    rig.press(other, Button.OK)  # not this seat's bid: the answer says whose it is
    assert last_kind(rig) is MessageKind.INFO
    hand = engine.registered_hand(players.index(other)) or []
    rig.tap(other, hand[0])  # a card during the bidding: refused, and why
    assert last_kind(rig) is MessageKind.REFUSED
    rig.gather()
    play_to_the_end(rig)
    assert rig.screen() is Screen.RESULTS
    view = rig.table.view
    rig.seen.append(view.result_rule)
    assert view.result_sheet is not None
    rig.seen += [heading for heading, _ in view.result_sheet.counts]

    lines = check_words(rig.seen, players)
    english = lines["en"]
    # The game said what a game says: the seats' bids, tricks won, results and the end.
    assert any(re.match(r"Seat [234] bids \d", line) for line in english)
    assert any(
        re.match(r"Seat [234] wins trick \d+: \S+ is the highest (trump|card of)", line)
        for line in english
    )
    assert any(re.match(r"Round \d+: Seat [234] deals", line) for line in english)
    assert any(line.startswith("Game over: Seat") for line in english)
    assert any(re.match(r"bid \d$", line) for line in english)  # the OK button's label
    assert "Bids made" in english and "most points" in english[-2]
    # Every one of them in German and Japanese is not the English sentence.
    for language in ("de", "ja"):
        translated = [
            (w, line)
            for w, line, en in zip(rig.seen, lines[language], english, strict=True)
            if isinstance(w, Text) and w.key.startswith(("Round", "{player}", "Game over"))
        ]
        assert translated
        for words, line in translated:
            assert line != Presenter("en", players, game_id="oh-pshaw")(words), (language, line)


def test_a_refusal_at_the_table_reads_in_german_from_the_catalog(rig: Rig) -> None:
    rig.start_game("oh-pshaw", SEATS)
    players = rig.players()
    engine = rig.engine
    for _ in range(3):  # everyone bids: play begins
        rig.press(players[engine.turn], Button.OK)
    leader = engine.turn
    wrong = (leader + 1) % 3
    card = (engine.registered_hand(wrong) or [""])[0]
    rig.tap(players[wrong], card)  # not this seat's turn
    message = rig.table.messages[-1]
    assert message.kind is MessageKind.REFUSED and message.seat == players[wrong]
    german = Presenter("de", players, game_id="oh-pshaw")
    english = Presenter("en", players, game_id="oh-pshaw")
    # The seat is named once (counted from 1), then the catalog's German reason.
    at, turn = german.seat(players[wrong]), german.seat(players[leader])
    assert german(message.text) == (
        f"{at}: kann {french_card(card)} nicht spielen: {turn} ist am Zug"
    )
    assert english(message.text) == (
        f"Seat {players[wrong] + 1}: cannot play {french_card(card)}: "
        f"it is Seat {players[leader] + 1}'s turn"
    )


def test_a_seat_s_tricks_needed_read_with_the_language_s_plurals() -> None:
    german, japanese = Presenter("de"), Presenter("ja")
    assert german(needs_words(1)) == "braucht noch 1 Stich"
    assert german(needs_words(2)) == "braucht noch 2 Stiche"
    assert german(needs_words(-1)) == "1 Stich zu viel"
    assert german(needs_words(0)) == "im Soll"
    assert Presenter()(needs_words(3)) == "needs 3 more tricks"
    assert Presenter()(needs_words(1)) == "needs 1 more trick"
    assert japanese(needs_words(2)) == "あと2トリック"
