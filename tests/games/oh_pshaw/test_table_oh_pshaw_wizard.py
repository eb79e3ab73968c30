"""Oh Pshaw's Wizard variant at the table: the add-on deck's tags, the dealer's choice of
trump, and whole bot games with a virtual and a physical deal that replay to their reports."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller.adapters import Tap, new_adapter
from controller.games import deck_of_card
from controller.games.base import Action, IllegalAction
from controller.games.cards import CardFace
from controller.games.oh_pshaw.actions import ChooseTrump, RegisterHand, TurnTrump
from controller.games.oh_pshaw.bots import OhPshawBot
from controller.games.oh_pshaw.engine import deal
from controller.games.oh_pshaw.search import OhPshawSearchBot
from controller.games.oh_pshaw.snapshot import OhPshawOverlay, OhPshawSnapshot
from controller.games.oh_pshaw.spec import SPEC
from controller.games.oh_pshaw.table import OhPshawAdapter
from controller.kiosk.simulation import Simulator
from controller.records.record import replay
from controller.tags.enrollment import DeckAudit, Enrollment
from controller.tags.registry import TagRegistry, deck_cards, decks, simulated, simulated_uid
from controller.view import Screen
from display.scenes.oh_pshaw import OhPshawScene, trump_words
from display.theme import card_paint
from hardware.events import Button
from tests.test_table_options import Rig
from tests.words import shown


def test_the_wizard_add_on_deck_is_enrolled_like_any_deck() -> None:
    assert [deck.id for deck in SPEC.addon_decks] == ["wizard-8"]
    assert deck_cards("wizard-8") == ["W1", "W2", "W3", "W4", "N1", "N2", "N3", "N4"]
    assert "wizard-8" in decks()
    registry = simulated()
    assert sorted(card for _, card in registry.cards_of("wizard-8")) == sorted(
        deck_cards("wizard-8")
    )
    deck = decks()["wizard-8"]
    assert deck.canonical("N3") == "N3"
    with pytest.raises(Exception, match="Wizard add-on deck"):
        deck.canonical("AS")


def test_the_wizard_add_on_deck_is_enrolled_and_audited_at_the_staff_desk(tmp_path: Path) -> None:
    registry = TagRegistry()
    enrollment = Enrollment(registry, "wizard-8", path=tmp_path / "tags.json")
    assert shown(enrollment.prompt) == "Tap W1 (1 of 8 in the wizard-8 deck)"
    for n in range(8):
        assert enrollment.tap(f"04{n:012X}").accepted
    assert enrollment.done
    entry = TagRegistry.load(tmp_path / "tags.json").lookup("04000000000007")
    assert entry is not None and (entry.deck, entry.card) == ("wizard-8", "N4")
    audit = DeckAudit(simulated(["wizard-8", "standard-52"]), "wizard-8")
    for card in deck_cards("wizard-8")[1:]:
        assert audit.tap(simulated_uid("wizard-8", card)).kind == "card"
    assert audit.tap(simulated_uid("standard-52", "AS")).kind == "foreign"
    report = audit.report()
    assert not report.complete and "W1" in " ".join(shown(line) for line in report.lines())


def wizard_adapter(players: int = 3) -> OhPshawAdapter:
    adapter = new_adapter("oh-pshaw", players, random.Random(1), {"wizard": True, "max_hand": 3})
    assert isinstance(adapter, OhPshawAdapter)
    return adapter


def test_the_dealer_names_trump_by_tapping_a_card_of_the_suit_after_a_turned_wizard() -> None:
    adapter = wizard_adapter()
    engine = adapter.engine
    dealer = engine.round.dealer
    others = [s for s in range(3) if s != dealer]
    engine.apply(RegisterHand(others[0], ("KD",)))
    engine.apply(RegisterHand(others[1], ("N2",)))
    engine.apply(RegisterHand(dealer, ("3S",)))
    engine.apply(TurnTrump(dealer, "W1"))
    assert engine.awaiting_trump_choice
    assert adapter.presentation.waiting_players() == [dealer]
    wait = adapter.input.on_button(others[0], Button.OK)
    assert wait is not None and not isinstance(wait, Action)
    assert "chooses trump first" in shown(wait)
    assert adapter.input.hints() == []  # no bid buttons until trump is chosen
    with pytest.raises(IllegalAction, match="not a Wizard or a Jester"):
        adapter.input.on_card(dealer, "N1")
    action = adapter.input.on_card(dealer, "KH")
    assert action == ChooseTrump(dealer, "H")
    assert adapter.simulation.gestures(action) == [Tap("AH")]
    # The bot names the suit it holds most of.
    assert OhPshawBot(random.Random(0)).choose_trump(engine, dealer) == ChooseTrump(dealer, "S")
    engine.apply(action)
    assert not engine.awaiting_trump_choice and engine.snapshot().trump == "H"


def test_the_display_asks_the_dealer_alone_to_choose_trump() -> None:
    adapter = wizard_adapter()
    engine = adapter.engine
    dealer = engine.round.dealer
    eldest = (dealer + 1) % 3
    engine.apply(TurnTrump(dealer, "W3"))
    game = adapter.presentation.game_view()
    assert game.to_json()["awaiting_trump_choice"] is True
    snap = game.narrowed(OhPshawSnapshot, OhPshawOverlay).snapshot
    assert snap.awaiting_trump_choice and snap.trump_card == "W3" and snap.trump is None
    assert "the dealer chooses" in shown(trump_words(snap))
    scene = OhPshawScene()
    prompt = scene.turn_prompt(game, dealer)
    assert prompt is not None and "suit you choose as trump" in shown(prompt)
    assert scene.turn_prompt(game, eldest) is None  # the eldest's bid waits
    engine.apply(ChooseTrump(dealer, "C"))
    game = adapter.presentation.game_view()
    assert "awaiting_trump_choice" not in game.to_json()
    assert (
        shown(trump_words(game.narrowed(OhPshawSnapshot, OhPshawOverlay).snapshot))
        == "Trump: clubs (W3 turned)"
    )
    prompt = scene.turn_prompt(game, eldest)
    assert prompt is not None and shown(prompt) == "make your bid"


def test_wizards_and_jesters_have_faces_of_their_own() -> None:
    def face(notation: str) -> CardFace:
        deck = deck_of_card(SPEC.id, notation)
        assert deck is not None
        return deck.face(notation)

    wizard, jester, ace = face("W1"), face("N4"), face("AS")
    assert wizard.text == "W1" and jester.text == "N4"
    fills = {card_paint(f)[0] for f in (wizard, jester, ace)}
    assert len(fills) == 3  # three different fills
    assert ace.text == "A♠"  # the suit cards as before
    assert shown(SPEC.addon_decks[0].name("W2")) == "Wizard 2"
    assert shown(SPEC.addon_decks[0].name("N3")) == "Jester 3"


def _search_bot_wizard_game(seed: int) -> tuple[list[Action], int]:
    """A whole 4-seat Wizard game played by one search bot at every seat (its actions
    checked legal); the actions, and the decisions it searched rather than handed on."""
    engine = wizard_adapter(4).engine
    bot = OhPshawSearchBot(random.Random(seed), samples=4, budget=1e9)
    rng = random.Random(seed + 1)
    actions: list[Action] = []
    searched = 0
    while not engine.finished:
        if not engine.round.touched:
            for action in deal(engine, rng):
                engine.apply(action)
            continue
        expected = engine.expected
        assert expected is not None
        bot.last_samples = 0
        action = bot.choose(engine, expected.seat)
        assert action in engine.legal_actions(expected.seat)
        engine.apply(action)
        actions.append(action)
        searched += bot.last_samples == 4
    return actions, searched


def test_the_search_bot_searches_the_wizard_variant_legally_and_deterministically() -> None:
    actions, searched = _search_bot_wizard_game(4)
    assert len(actions) > 10
    # Every decision with a choice is searched (4 deals each), none handed to the simple bot.
    assert searched > len(actions) // 2
    assert any(a.to_json().get("play", "")[:1] in ("W", "N") for a in actions)
    assert (actions, searched) == _search_bot_wizard_game(4)


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "journal"


@pytest.mark.parametrize("deal_mode", ["virtual", "physical"])
def test_a_wizard_bot_game_at_the_table_replays_to_its_report(
    deal_mode: str, journal: Path
) -> None:
    rig = Rig(journal, 4, bots=4, deal=deal_mode)
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2, 3))
        rig.set_value("Wizard", "on")
        rig.set_value("Largest hand", "6")
        rig.cursor_to("Start the game")
        rig.press(0, Button.OK)
        assert rig.screen() is Screen.PLAY
        sim = Simulator(
            rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3}, rng=random.Random(7)
        )
        rig.play_to_results(sim)
        assert len(rig.records) == 1
        record = rig.records[0]
        assert rig.table.result == replay(record).report()
        lines = [json.loads(line) for line in record.splitlines()]
        assert lines[0]["options"]["wizard"] is True
        played = {line["play"] for line in lines[1:] if "play" in line}
        assert played & {"W1", "W2", "W3", "W4"} and played & {"N1", "N2", "N3", "N4"}
