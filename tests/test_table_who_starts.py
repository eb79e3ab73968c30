"""Who starts, as the rulebooks say, driven through the table with simulated taps and presses.

Oh Pshaw cuts for the deal (the lowest card deals, ties cut again); Oss asks who
is the most big-boned; the menu says which games the seats can play.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games.oh_pshaw.cards import cut_rank
from controller.records.journal import Journal
from controller.records.record import replay
from controller.tags.registry import SIMULATED_STAFF_UID, simulated_uid
from controller.view import MessageKind, Screen
from display.screenshot import screenshot_view
from hardware.events import Button, Offline, ReaderOffline
from tests.rigs import TableRig, painted_text
from tests.words import shown


def to_menu_line(rig: TableRig, game_id: str, seat: int = 0) -> None:
    """Wake the table at ``seat`` and move the menu to ``game_id``'s first line."""
    rig.press(seat, Button.OK)
    ids = [g.game_id for g in rig.table.view.games]
    while ids[rig.table.selected] != game_id:
        rig.press(seat, Button.NEXT)


def to_starter(rig: TableRig, game_id: str, seats: tuple[int, ...]) -> None:
    """Choose ``game_id``, let ``seats`` join, start with the menu's preset: who starts?"""
    to_menu_line(rig, game_id, seats[0])
    rig.press(seats[0], Button.OK)
    for seat in seats[1:]:
        rig.press(seat, Button.OK)
    rig.press(seats[0], Button.NEXT)
    if rig.screen() is Screen.OPTIONS:
        rig.press(seats[0], Button.OK)


class CutRig(TableRig):
    """A table with Oh Pshaw's deck; ``to_cut`` walks to the cut for the deal."""

    deck = "standard-52"

    def to_cut(self, seats: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        """Choose Oh Pshaw, let ``seats`` join and start: the cut for the deal begins."""
        to_starter(self, "oh-pshaw", seats)

    def dealer_seat(self) -> int:
        """The physical seat the game's header names as the first dealer."""
        game = self.table.game
        assert game is not None
        return game.players[int(game.engine.header()["dealer"])]

    def texts(self) -> list[str]:
        return [shown(m.text) for m in self.table.messages]

    def last(self) -> tuple[str, MessageKind, int | None]:
        message = self.table.messages[-1]
        return shown(message.text), message.kind, message.seat


def physical_rig(seats: int = 4, bots: int = 0) -> CutRig:
    return CutRig(seats, bots, deal="physical")


@pytest.fixture
def physical() -> Iterator[CutRig]:
    rig = physical_rig()
    with rig.devices:
        rig.loop.drain()
        yield rig


def test_each_seat_taps_one_card_and_the_lowest_deals(physical: CutRig) -> None:
    physical.to_cut()
    assert physical.screen() is Screen.STARTER
    view = physical.table.view
    assert "each seat taps one card" in shown(view.prompt)
    assert "lowest deals" in shown(view.prompt)
    assert view.cutting == (0, 1, 2, 3)
    assert {(h.seat, h.button, shown(h.label)) for h in view.buttons} == {
        (s, "ok", "cut for me") for s in range(4)
    }
    physical.tap(0, "9H")
    physical.tap(1, "KS")
    physical.tap(2, "4C")  # the lowest
    assert physical.screen() is Screen.STARTER
    assert physical.table.view.cuts == {0: "9H", 1: "KS", 2: "4C"}
    assert physical.table.view.cutting == (3,)
    physical.tap(3, "AD")  # ace high: not the lowest
    assert physical.screen() is Screen.PLAY
    assert physical.dealer_seat() == 2
    texts = physical.texts()
    assert "Cut for the deal: Seat 1 9♥, Seat 2 K♠, Seat 3 4♣, and Seat 4 A♦" in texts
    assert "Seat 3 cut the lowest card (4♣) and deals the first round" in texts
    game = physical.table.game
    assert game is not None
    # The cut's cards are not cards in play: nothing of the cut is an action of the game.
    assert game.recorder.actions == []


def test_a_second_tap_unknown_tags_and_other_decks_are_refused_clearly(physical: CutRig) -> None:
    physical.to_cut()
    physical.tap(1, "7S")
    physical.tap(1, "2S")  # a second card from the same seat
    assert physical.last() == (
        "Seat 2 has cut already (7♠): one card per seat; wait for the others",
        MessageKind.REFUSED,
        1,
    )
    physical.tap(2, "7S")  # the same card again, at another seat
    assert physical.last()[0] == "7♠ was cut already by Seat 2: cut another card from the deck"
    physical.tap_uid(2, "DEADBEEF")
    text, kind, seat = physical.last()
    assert kind is MessageKind.REFUSED and seat == 2
    assert "not enrolled in any deck" in text and "press OK" in text
    physical.tap_uid(2, simulated_uid("oshaka", "R5"))
    assert physical.last()[0] == (
        "that card belongs to the oshaka deck, not this game's: cut with one of its cards"
    )
    physical.tap_uid(2, SIMULATED_STAFF_UID)  # the staff tag cuts nothing
    assert physical.table.view.cuts == {1: "7S"}
    assert physical.screen() is Screen.STARTER


def test_a_seat_that_has_not_joined_cannot_cut() -> None:
    rig = physical_rig(5)
    with rig.devices:
        rig.loop.drain()
        rig.to_cut((0, 1, 2))
        rig.tap(4, "2H")
        assert rig.last() == ("Seat 5 has not joined this game", MessageKind.REFUSED, 4)
        assert rig.table.view.cuts == {}


def test_a_tie_for_the_lowest_card_cuts_again_only_among_the_tied(physical: CutRig) -> None:
    physical.to_cut()
    physical.tap(0, "3H")
    physical.tap(1, "3S")
    physical.tap(2, "8D")
    physical.tap(3, "QC")
    assert physical.screen() is Screen.STARTER
    assert "Seat 1 and Seat 2 tie for the lowest card: they cut again" in physical.texts()
    view = physical.table.view
    assert view.cutting == (0, 1) and view.cuts == {}
    physical.tap(2, "2C")  # seat 3 is out of the re-cut, even with a lower card
    assert physical.last()[0] == (
        "Seat 3 is out of this cut: only the seats tied for the lowest card cut again"
    )
    physical.tap(0, "JH")
    physical.tap(1, "5D")
    assert physical.screen() is Screen.PLAY
    assert physical.dealer_seat() == 1


def test_bots_and_seats_pressing_ok_are_cut_for_by_the_table() -> None:
    rig = physical_rig(4, bots=2)  # seats 2 and 3 are bots
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        assert rig.screen() is Screen.STARTER
        view = rig.table.view
        assert set(view.cuts) == {2, 3}  # the table cut for the bots at once
        assert view.cutting == (0, 1)
        drawn = [t for t in rig.texts() if t.startswith("The table cut ")]
        assert len(drawn) == 2
        rig.press(0, Button.OK)  # a person without a card at hand: the table cuts for them
        assert set(rig.table.view.cuts) >= {0, 2, 3}
        rig.press(0, Button.OK)  # a second OK changes nothing
        assert rig.table.view.cutting == (1,)
        rig.tap(1, "2D")  # the lowest rank: seat 1 deals unless the table drew a 2 too
        cards = {**rig.table.view.cuts}
        if rig.screen() is Screen.PLAY:
            assert rig.dealer_seat() == 1
        else:  # a tie at 2: the tied cut again; let the table settle it
            assert 1 in rig.table.view.cutting or cards == {}
            while rig.screen() is Screen.STARTER:
                rig.press(rig.table.view.cutting[0], Button.OK)
            assert rig.screen() is Screen.PLAY


def test_an_offline_reader_is_cut_for_and_a_timeout_cuts_for_the_rest(physical: CutRig) -> None:
    physical.to_cut()
    physical.events.put(ReaderOffline(3, "/dev/ttyACM3", "cable pulled", 0.0, Offline.MISSING))
    physical.loop.drain()
    assert 3 in physical.table.view.cuts  # the seat without a reader is cut for
    assert any(
        t.startswith("The table cut ") and t.endswith(" for Seat 4") for t in physical.texts()
    )
    physical.tap(0, "AS")
    physical.now += 31.0
    physical.table.tick(physical.now)
    if physical.screen() is Screen.STARTER:  # a tie: cut again, again on a timeout
        physical.now += 31.0
        physical.table.tick(physical.now)
    assert physical.screen() is Screen.PLAY
    assert any(t.startswith("Nobody cut for 30 seconds") for t in physical.texts())


def test_the_virtual_deal_cuts_for_everyone_and_says_so() -> None:
    rig = CutRig(4, deal="virtual")
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        assert rig.screen() is Screen.PLAY  # no waiting: the table cut
        texts = rig.texts()
        assert "The table cut for the deal with its virtual deck: lowest deals" in texts
        cuts = next(t for t in reversed(texts) if t.startswith("Cut for the deal: "))
        dealer = rig.dealer_seat()
        lowest = next(t for t in texts if " cut the lowest card (" in t)
        assert lowest.startswith(f"Seat {dealer + 1} cut the lowest card")
        # The dealer's card in the last round of the cut is that round's only lowest card.
        items = cuts.removeprefix("Cut for the deal: ").replace(", and ", ", ").split(", ")
        ranks = {}
        for item in items:
            seat, card = item.rsplit(" ", 1)
            ranks[int(seat.removeprefix("Seat ")) - 1] = cut_rank(notation(card))
        assert ranks[dealer] == min(ranks.values())
        assert sorted(ranks.values()).count(ranks[dealer]) == 1


SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def notation(shown_card: str) -> str:
    """A card as the English presenter shows it ("10♥") in the record's notation ("TH")."""
    rank = shown_card[:-1]
    return ("T" if rank == "10" else rank) + SUIT_LETTERS[shown_card[-1]]


def test_the_cut_chosen_dealer_is_kept_in_the_record(tmp_path: Path) -> None:
    rig = physical_rig()
    with rig.devices:
        rig.loop.drain()
        rig.to_cut()
        for seat, card in enumerate(("KH", "QH", "JH", "TH")):
            rig.tap(seat, card)
        assert rig.dealer_seat() == 3
        game = rig.table.game
        assert game is not None
        record = game.recorder.dumps()
        header = record.splitlines()[0]
        assert '"dealer": 3' in header
        assert replay(record).header()["dealer"] == 3


def test_the_cut_screen_draws_at_800x480(
    physical: CutRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    physical.to_cut()
    physical.tap(1, "7S")
    written = painted_text(monkeypatch)
    path = screenshot_view(physical.table.view, tmp_path / "cut.png", size=(800, 480))
    assert pygame.image.load(str(path)).get_size() == (800, 480)
    assert "You cut 7♠" in written
    assert "Tap one card from the deck: lowest deals" in written


# --- Oss: the most big-boned -------------------------------------------------------


class OssRig(TableRig):
    deck = "oss-tribes"


def test_oss_asks_who_is_the_most_big_boned_and_that_seat_is_the_first_chief() -> None:
    rig = OssRig(4)
    with rig.devices:
        rig.loop.drain()
        to_starter(rig, "oss", (0, 1, 2, 3))
        assert rig.screen() is Screen.STARTER
        assert shown(rig.table.view.prompt) == "Who is the most big-boned?"
        rig.press(2, Button.OK)
        assert rig.screen() is Screen.PLAY
        game = rig.table.game
        assert game is not None
        assert game.engine.header()["chief"] == 2
        assert "Seat 3 is the first chief" in [shown(m.text) for m in rig.table.messages]


def test_oss_draws_the_first_chief_only_when_nobody_answers() -> None:
    rig = OssRig(3)
    with rig.devices:
        rig.loop.drain()
        engine = rig.start_game("oss", (0, 1, 2))  # nobody answers: the timeout draws
        chief = int(engine.header()["chief"])
        said = [shown(m.text) for m in rig.table.messages]
        assert f"Nobody answered, so the table drew: Seat {chief + 1} is the first chief" in said


# --- the menu: which games the seats can play -------------------------------------------


def test_a_two_seat_table_says_on_the_menu_why_it_offers_no_three_player_game() -> None:
    rig = CutRig(2)
    with rig.devices:
        rig.loop.drain()
        to_menu_line(rig, "oh-pshaw")
        notes = {g.game_id: shown(g.unavailable) for g in rig.table.view.games}
        assert notes["oh-pshaw"] == "not offered: 3-7 players, 2 seats here"
        rig.press(0, Button.OK)  # choosing it is refused at once, saying why
        assert rig.screen() is Screen.CHOOSE_GAME
        assert shown(rig.table.messages[-1].text) == (
            "Oh Pshaw needs at least 3 players, but this table has only 2 seats"
        )


def test_a_two_seat_table_lists_the_games_two_can_play_first() -> None:
    rig = CutRig(2)
    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)  # the menu
        games = rig.table.view.games
        offered = [g.game_id for g in games if not shown(g.unavailable)]
        assert offered == ["oss"]  # the one game of the four that two people play
        assert games[0].game_id == "oss" and rig.table.selected == 0
        assert all(shown(g.unavailable) for g in games[1:])  # the rest still say why not
    four = CutRig(4)
    with four.devices:
        four.loop.drain()
        four.press(0, Button.OK)
        # Every game fits four seats: the registry's order, unchanged.
        ids = [g.game_id for g in four.table.view.games]
        assert ids[0] == "oshaka-trick" and ids[-1] == "oss"


def test_seats_back_on_the_menu_stay_joined_and_see_which_games_they_can_play() -> None:
    rig = CutRig(6)
    with rig.devices:
        rig.loop.drain()
        to_menu_line(rig, "oh-pshaw")
        rig.press(0, Button.OK)
        rig.press(1, Button.OK)  # two joined
        rig.press(5, Button.PREV)  # a seat that has not joined goes back to the menu
        assert rig.screen() is Screen.CHOOSE_GAME
        assert sorted(rig.table.joined) == [0, 1]
        notes = {g.game_id: shown(g.unavailable) for g in rig.table.view.games}
        assert notes["oh-pshaw"] == "not for 2 joined: 3-7 players"
        assert notes["oshaka-trick"] == "not for 2 joined: 3-4 players"
        texts = [shown(m.text) for m in rig.table.messages]
        assert "2 seats stay joined; the menu says which games they can play" in texts
        rig.press(0, Button.OK)  # choose again: the two are still joined
        assert rig.screen() is Screen.JOIN
        assert sorted(rig.table.joined) == [0, 1]


def test_the_menu_notes_are_drawn_at_800x480(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = CutRig(2)
    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)
        written = painted_text(monkeypatch)
        path = screenshot_view(rig.table.view, tmp_path / "menu.png", size=(800, 480))
        assert pygame.image.load(str(path)).get_size() == (800, 480)
        assert any("2 seats here" in text for text in written)


# --- a renege taken back before the next trick ---------------------------------------


def journaled_physical(path: Path) -> tuple[CutRig, Journal]:
    journal = Journal.open(path, TableConfig.simulated(4), clock=lambda: dt.datetime(2026, 12, 1))
    return CutRig(4, deal="physical", journal=journal), journal


def start_round_one(rig: CutRig) -> None:
    """Seat 1 cuts lowest and deals round 1 (one card each): 2♥ turned, everyone bids 0."""
    rig.to_cut()
    for seat, card in enumerate(("5C", "2C", "9D", "KS")):
        rig.tap(seat, card)
    assert rig.dealer_seat() == 1
    rig.tap(1, "2H")  # the turned card
    for seat in (2, 3, 0, 1):
        rig.press(seat, Button.OK)  # bid 0


def hints_of(rig: CutRig) -> set[tuple[int, str, str]]:
    return {(h.seat, h.button, shown(h.label)) for h in rig.table.view.buttons}


def test_a_renege_is_taken_back_by_its_player_before_the_next_trick(tmp_path: Path) -> None:
    rig, journal = journaled_physical(tmp_path / "journal.db")
    with rig.devices:
        rig.loop.drain()
        start_round_one(rig)
        rig.tap(2, "AS")  # the eldest leads spades
        rig.tap(3, "3D")  # not a spade: a renege, if seat 4 holds one
        rig.tap(0, "4S")
        assert (3, "prev", "take back my card") in hints_of(rig)
        assert not any(h[1] == "prev" and h[0] != 3 for h in hints_of(rig))
        rig.press(0, Button.PREV)  # seat 1 followed suit: nothing of its to take back
        game = rig.table.game
        assert game is not None and len(game.recorder.actions) == 8  # the trump, 4 bids, 3 cards
        rig.press(3, Button.PREV)  # seat 4 takes back its 3♦
        game = rig.table.game
        assert game is not None
        said = rig.texts()[-1]
        assert said.startswith("Seat 4 takes back 3♦ (a renege noticed before the next trick)")
        assert [a.to_json() for a in game.recorder.actions][-1] == {"seat": 2, "play": "AS"}
        assert game.engine.expected is not None and game.engine.expected.seat == 3
        rig.tap(3, "6S")  # the legal card: seat 1's 4♠ comes back by itself
        game = rig.table.game
        assert game is not None
        plays = [a.to_json() for a in game.recorder.actions if "play" in a.to_json()]
        assert plays == [
            {"seat": 2, "play": "AS"},
            {"seat": 3, "play": "6S"},
            {"seat": 0, "play": "4S"},
        ]
        rig.tap(1, "5S")  # the dealer's card ends the trick, and the round
        game = rig.table.game
        assert game is not None
        record = game.recorder.dumps()
        current = journal.current_game
        assert current is not None
        # Journaled like staff's undo: one correction per card taken back (3♦, then 4♠).
        undone = [
            e.data["action"]
            for e in journal.entries(current)
            if e.kind == "correction" and e.data.get("kind") == "undo"
        ]
        assert undone == [{"seat": 0, "play": "4S"}, {"seat": 3, "play": "3D"}]
        # The journal replays the undo corrections to the same actions as the record.
        assert [obj for obj, _ in journal.actions(current)] == [
            a.to_json() for a in game.recorder.actions
        ]
        assert "3D" not in record  # the record keeps only the game as played after it
        report = replay(record).report()
        assert report["rounds"][0]["tricks"] == [0, 0, 1, 0]  # the ace of spades took it


def test_a_renege_cannot_be_taken_back_once_the_round_is_over(tmp_path: Path) -> None:
    rig, _ = journaled_physical(tmp_path / "journal.db")
    with rig.devices:
        rig.loop.drain()
        start_round_one(rig)
        for seat, card in ((2, "AS"), (3, "3D"), (0, "4S"), (1, "5S")):
            rig.tap(seat, card)  # the round's only trick is over: the next round began
        game = rig.table.game
        assert game is not None
        count = len(game.recorder.actions)
        assert not any(h[1] == "prev" and "take back" in h[2] for h in hints_of(rig))
        rig.press(3, Button.PREV)
        game = rig.table.game
        assert game is not None and len(game.recorder.actions) == count
