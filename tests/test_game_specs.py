"""The one registry of games: every game's spec is complete and every room derives from it."""

from __future__ import annotations

import random

import pytest

from controller.adapters import adapter_for
from controller.config.table_config import SeatConfig, TableConfig
from controller.games import engine_class, game_folders, spec_of, specs
from controller.games.base import BadOption, MalformedAction, describe
from controller.games.cards import BadCard, CardFace
from controller.games.spec import OptionKind, Requirement
from controller.games.words import Text
from controller.table import Table, unmet_requirement
from controller.tags.registry import deck_cards, deck_of, decks, simulated
from controller.view import Screen
from controller.words import LANGUAGES, Presenter
from hardware.events import Button, ButtonPressed
from tests.words import shown


def test_the_registry_finds_every_game_folder_in_menu_order() -> None:
    found = specs()
    assert {spec.key for spec in found.values()} >= set(game_folders())
    ranks = [(spec.menu_rank, spec.id) for spec in found.values()]
    assert ranks == sorted(ranks)
    # The shipped games lead the menu in the order the café asked for; a new one comes after.
    assert list(found)[:4] == ["oshaka-trick", "oh-pshaw", "oskar", "oss"]
    for game_id, spec in specs().items():
        assert spec.id == game_id == spec.engine.game_id
        assert spec.title == spec.engine.title
        assert (spec.min_players, spec.max_players) == (
            spec.engine.min_players,
            spec.engine.max_players,
        )
        assert engine_class(game_id) is spec.engine
        assert adapter_for(spec).spec is spec


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(BadOption, match=r"unknown game .chess.; the table knows \"oshaka-trick\""):
        spec_of("chess")


@pytest.mark.parametrize("game_id", list(specs()))
def test_every_card_of_a_deck_parses_to_itself(game_id: str) -> None:
    deck = spec_of(game_id).deck
    assert deck_of(game_id) == deck.id
    assert deck_cards(deck.id) == list(deck.cards)
    for card in deck.distinct():
        assert deck.canonical(card) == card
        assert deck.card_type.notation(deck.card_type.parse(card)) == card
    with pytest.raises(MalformedAction):
        deck.canonical("not a card")


@pytest.mark.parametrize("game_id", list(specs()))
def test_every_card_has_a_face_and_a_name_in_every_language(game_id: str) -> None:
    deck = spec_of(game_id).deck
    faces = {}
    for notation in deck.distinct():
        card = deck.card_type.parse(notation)
        face = deck.card_type.face(card)
        assert isinstance(face, CardFace) and face.text.strip(), (notation, face)
        assert deck.face(notation) == face
        faces[notation] = face
        name = deck.card_type.name(card)
        assert deck.name(notation) == name
        english = Presenter(game_id=game_id).card(notation)
        for language in LANGUAGES:
            written = Presenter(language, game_id=game_id).card(notation)
            assert written.strip(), (language, notation)
            if isinstance(name, Text) and language != "en":
                # A name that is a message ("Red 7") is translated, not left English.
                assert written != english, (language, notation, written)
    # Cards that play differently look different: no two distinct cards share a face,
    # except copies printed alike (Oss's a/b tribe cards), which share their name too.
    names = {Presenter(game_id=game_id).card(notation) for notation in faces}
    assert len(set(faces.values())) == len(names), game_id


@pytest.mark.parametrize("game_id", list(specs()))
@pytest.mark.parametrize("garbage", ["not a card", "", "ZZ9", 1000, None, ["R7"], {"card": "R7"}])
def test_every_deck_refuses_garbage_saying_what_was_given(game_id: str, garbage: object) -> None:
    deck = spec_of(game_id).deck
    with pytest.raises(BadCard) as refused:
        deck.card_type.parse(garbage)
    message = str(refused.value)
    assert describe(garbage) in message, message
    # What a card looks like follows the value given: the message goes on past it.
    assert len(message) > len(describe(garbage)) + 5, message
    # A stranger is shown as written, on a plain face, wherever the table meets one.
    if isinstance(garbage, str) and garbage:
        assert deck.name(garbage) == garbage
        assert deck.face(garbage) == CardFace(garbage)


def test_the_tag_registry_decks_come_from_the_specs() -> None:
    assert set(decks()) == {
        deck.id for spec in specs().values() for deck in (spec.deck, *spec.addon_decks)
    }
    registry = simulated()
    for spec in specs().values():
        for deck in (spec.deck, *spec.addon_decks):
            assert len(registry.cards_of(deck.id)) == len(deck.cards)


@pytest.mark.parametrize("game_id", list(specs()))
def test_every_preset_and_every_default_makes_a_game(game_id: str) -> None:
    spec = spec_of(game_id)
    for players in range(spec.min_players, spec.max_players + 1):
        for options in [{}, *(dict(p.options) for p in spec.presets)]:
            header = spec.new_header(players, options, random.Random(players))
            engine = spec.engine.from_header(header)
            assert engine.players == players
            spec.check_options(options)


def test_option_schemas_check_types_and_limits() -> None:
    spec = spec_of("oh-pshaw")
    spec.check_options({"hook": True, "scoring": "mild", "schedule": [3, 3]})
    with pytest.raises(BadOption, match='"hook" must be true or false'):
        spec.check_options({"hook": "yes"})
    with pytest.raises(BadOption, match='"scoring" must be "standard" or "mild"'):
        spec.check_options({"scoring": "harsh"})
    with pytest.raises(BadOption, match='unknown option "trumps"'):
        spec.check_options({"trumps": 1})
    rounds = spec_of("oss").option("rounds")
    assert rounds.kind is OptionKind.NUMBER
    with pytest.raises(BadOption, match=r'"rounds" must be 1\.\.4, not 5'):
        rounds.check(5)


def test_a_game_that_needs_the_virtual_deal_is_refused_at_a_physical_table() -> None:
    physical = TableConfig(seats=tuple(SeatConfig(index=i) for i in range(3)), deal="physical")
    oss = spec_of("oss")
    assert Requirement.VIRTUAL_DEAL in oss.requirements
    why = unmet_requirement(oss, physical)
    assert why is not None and 'deal = "virtual"' in shown(why)
    assert unmet_requirement(spec_of("oh-pshaw"), physical) is None

    table = Table(physical, simulated(), rng=random.Random(1))
    table.handle(ButtonPressed(0, Button.OK, 0.0))  # wake
    assert table.screen is Screen.CHOOSE_GAME
    oss_line = next(i for i, g in enumerate(table.view.games) if g.game_id == "oss")
    for _ in range(oss_line):
        table.handle(ButtonPressed(0, Button.NEXT, 0.0))
    table.handle(ButtonPressed(0, Button.OK, 0.0))
    assert table.screen is Screen.CHOOSE_GAME  # not offered: it would deadlock
    assert "needs the table's virtual deal" in shown(table.view.messages[-1].text)
    assert adapter_for(specs()["oss"]).spec.id == "oss"  # refused for the table, not unknown
