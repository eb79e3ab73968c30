"""The table state machine, driven through mock readers and gpiozero MockFactory buttons."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.games.oshaka_trick.engine import Phase
from controller.kiosk.simulation import Simulator
from controller.records.record import replay
from controller.table import IDLE_TIMEOUT
from controller.tags.registry import simulated_uid
from controller.view import MessageKind, Screen
from controller.words import Presenter
from hardware.cues import Cue
from hardware.events import Button
from tests.rigs import TableRig
from tests.words import shown

Rig = TableRig  # the table tests need no shortcut beyond the shared rig's


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


def test_attract_menu_join_play(rig: Rig) -> None:
    assert rig.table.view.screen is Screen.ATTRACT
    engine = rig.start_oshaka()
    assert engine.players == 4
    view = rig.table.view
    assert view.game_id == "oshaka-trick"
    assert view.game is not None and view.game.to_json()["phase"] == "play"
    # The virtual deal registered every hand, as a simulated deck does.
    assert all(engine.registered_hand(s) for s in range(4))


def test_not_enough_players_cannot_start(rig: Rig) -> None:
    rig.press(0, Button.OK)
    rig.press(0, Button.OK)
    rig.press(0, Button.NEXT)
    assert rig.table.screen is Screen.JOIN
    assert "needs 3-4 players; 1 joined" in shown(rig.table.messages[-1].text)


def test_a_tapped_card_is_played(rig: Rig) -> None:
    engine = rig.start_oshaka()
    seat = engine.turn
    card = engine.legal_actions(seat)[0].to_json()["play"]
    rig.tap_uid(seat, simulated_uid("oshaka", card))
    assert engine.round.trick.plays[0][1].__str__() == card
    assert rig.devices.leds.showing((seat + 1) % 4, rig.now) is Cue.YOUR_TURN


def test_unknown_tag_gives_a_message_at_that_seat_and_changes_nothing(rig: Rig) -> None:
    engine = rig.start_oshaka()
    before = engine.snapshot()
    rig.tap_uid(2, "04DEADBEEF0001")
    assert engine.snapshot() == before
    message = rig.table.messages[-1]
    assert message.seat == 2 and message.kind is MessageKind.PROBLEM
    assert "not enrolled" in shown(message.text)
    assert rig.devices.leds.showing(2, rig.now) is Cue.REFUSED


def test_a_member_card_in_play_says_what_it_is_for_and_changes_nothing(rig: Rig) -> None:
    rig.registry.set_hub_members({"04C0FFEE000001": "Mika"})
    engine = rig.start_oshaka()
    before = engine.snapshot()
    rig.tap_uid(2, "04C0FFEE000001")
    assert engine.snapshot() == before
    message = rig.table.messages[-1]
    assert message.seat == 2 and message.kind is MessageKind.REFUSED
    assert shown(message.text) == (
        "Seat 3: that is Mika's member card, which names a seat when players join; "
        "to play, tap a card of this game's deck"
    )
    assert rig.devices.leds.showing(2, rig.now) is Cue.REFUSED


def test_card_of_another_deck_is_refused(rig: Rig) -> None:
    engine = rig.start_oshaka()
    before = engine.snapshot()
    rig.tap_uid(engine.turn, simulated_uid("standard-52", "AS"))
    assert engine.snapshot() == before
    assert "standard-52 deck" in shown(rig.table.messages[-1].text)


def test_illegal_play_is_refused_with_the_reason_and_a_red_led(rig: Rig) -> None:
    engine = rig.start_oshaka()
    wrong_seat = (engine.turn + 1) % 4
    card = str(engine.registered_hand(wrong_seat)[0])  # type: ignore[index]
    before = engine.snapshot()
    rig.tap_uid(wrong_seat, simulated_uid("oshaka", card))
    assert engine.snapshot() == before
    message = rig.table.messages[-1]
    assert message.kind is MessageKind.REFUSED
    assert f"it is Seat {engine.turn + 1}'s turn" in shown(message.text)
    assert rig.devices.leds.showing(wrong_seat, rig.now) is Cue.REFUSED
    # The refusal is a transient: after it expires the seat's steady colour returns.
    rig.devices.leds.tick(rig.now + 10)
    assert rig.devices.leds.showing(wrong_seat, rig.now + 10) is Cue.JOINED


def test_placement_with_buttons(rig: Rig) -> None:
    engine = rig.start_oshaka()
    sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3})
    while engine.phase is not Phase.PLACE:
        assert sim.step(0.0)
        rig.loop.drain()
    winner = engine.round.winner
    assert winner is not None
    card = engine.round.to_place[0]
    hints = {(h.seat, h.button): h.label for h in rig.table.view.buttons}
    assert shown(hints[(winner, Button.PREV)]) == f"Score {card}"
    rig.press(winner, Button.NEXT)  # face down
    assert card in engine.round.areas[winner].face_down


def test_reader_unplugged_is_shown_and_the_game_waits(rig: Rig) -> None:
    engine = rig.start_oshaka()
    reader = rig.devices.mock_reader(1)
    assert reader is not None
    reader.unplug()
    rig.loop.drain()
    assert rig.table.view.seats[1].reader_online is False
    assert "not answering" in shown(rig.table.messages[-1].text)
    assert engine.expected is not None  # nothing was lost or skipped


def test_idle_menu_returns_to_attract(rig: Rig) -> None:
    rig.press(0, Button.OK)
    assert rig.table.screen is Screen.CHOOSE_GAME
    rig.now += IDLE_TIMEOUT + 1
    rig.loop.run_once(timeout=0.01)
    assert rig.screen() is Screen.ATTRACT


def test_view_version_changes_only_with_the_state(rig: Rig) -> None:
    first = rig.table.view
    assert rig.table.view is first  # cached while nothing changes
    rig.press(0, Button.OK)
    assert rig.table.view.version > first.version


def test_full_bot_game_exports_a_record_that_replays_to_the_same_scores(tmp_path: Path) -> None:
    with Rig(bots=4).running() as rig:
        rig.play_to_results(rig.bots("oshaka-trick", seed=3), steps=5000)
        assert len(rig.records) == 1
        replayed = replay(rig.records[0])
        assert rig.table.result == replayed.report()
        assert rig.table.result is not None and rig.table.result["finished"] is True
        rig.press(0, Button.OK)
        assert rig.screen() is Screen.ATTRACT


def test_messages_name_physical_seats_when_the_players_are_not_seats_0_to_n(rig: Rig) -> None:
    # Seats 0, 2 and 3 play: engine player 1 sits at physical seat 2.
    engine = rig.start_oshaka(seats=(0, 2, 3))
    assert rig.table.game is not None and rig.table.game.players == [0, 2, 3]
    waiting_player = engine.turn
    waiting_seat = rig.table.game.players[waiting_player]
    wrong_player = (waiting_player + 1) % 3
    wrong_seat = rig.table.game.players[wrong_player]
    card = str(engine.registered_hand(wrong_player)[0])  # type: ignore[index]
    rig.tap_uid(wrong_seat, simulated_uid("oshaka", card))
    message = rig.table.messages[-1]
    assert message.seat == wrong_seat
    # The engine said "it is <player>'s turn"; the presenter names the physical seat from 1.
    reader = Presenter.for_view(rig.table.view, wrong_seat)
    assert reader(message.text) == (
        f"Seat {wrong_seat + 1} cannot play {reader.card(card)}: "
        f"it is Seat {waiting_seat + 1}'s turn"
    )
