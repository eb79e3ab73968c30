"""The tag registry: loading, enrolling, refusing ambiguity, the bundled simulated deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import load_registry
from controller.tags.registry import (
    RegistryError,
    TagRegistry,
    deck_cards,
    decks,
    simulated,
    simulated_uid,
)


def test_a_table_without_a_registry_plays_with_every_registered_deck_simulated() -> None:
    # Made from the registered games at start-up, not read from a checked-in file,
    # so a new game's deck is in the demo with no file regenerated.
    loaded = load_registry(TableConfig.simulated())
    assert loaded.to_json() == simulated().to_json()
    assert len(loaded) == sum(len(deck_cards(d)) for d in decks()) + 1


def test_every_card_of_every_deck_has_a_tag() -> None:
    registry = simulated()
    for deck in decks():
        for card in set(deck_cards(deck)):
            uid = registry.uid_for(deck, card)
            assert uid is not None
            entry = registry.lookup(uid)
            assert entry is not None and (entry.deck, entry.card) == (deck, card)


def test_lookup_ignores_case_and_separators() -> None:
    registry = simulated()
    uid = simulated_uid("oshaka", "R7")
    spaced = ":".join(uid[i : i + 2] for i in range(0, len(uid), 2)).lower()
    entry = registry.lookup(spaced)
    assert entry is not None and entry.card == "R7"
    assert registry.lookup("04000000000000") is None


def test_a_tag_enrolled_to_another_card_is_refused() -> None:
    registry = simulated()
    uid = simulated_uid("oshaka", "R7")
    with pytest.raises(RegistryError, match="already enrolled as R7 of oshaka"):
        registry.enroll("oshaka", "R8", uid)
    assert registry.lookup(uid).card == "R7"  # type: ignore[union-attr]


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    registry = TagRegistry()
    registry.enroll("oshaka", "R1", "04AABBCCDD")
    registry.enroll("staff", "staff", "04FFEEDDCC")
    path = tmp_path / "tags.json"
    registry.save(path)
    again = TagRegistry.load(path)
    assert again.to_json() == registry.to_json()
    assert again.lookup("04FFEEDDCC").is_staff  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "other"}), '"format" must be'),
        (json.dumps({"format": "tag-registry/1", "decks": []}), '"decks" must map'),
        (
            json.dumps({"format": "tag-registry/1", "decks": {"oshaka": {"04AA": 5}}}),
            "must name a card",
        ),
        (
            json.dumps({"format": "tag-registry/1", "decks": {"oshaka": {"zz": "R1"}}}),
            "not a tag UID",
        ),
    ],
)
def test_bad_registry_files_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tags.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RegistryError, match=message):
        TagRegistry.load(path)
