"""The replay score sheet of every game reads as a person would write it.

People count seats from 1 and do not read JSON: the sheet shows no field
names of the report, no JSON punctuation and no 0-based seats, while the
``--json`` object keeps the record format's 0-based seats.
"""

from __future__ import annotations

import re

import pytest

from controller.games import spec_of, specs
from controller.games.base import Engine
from controller.games.words import Player
from controller.records import scoresheet
from tests.test_engine_conformance import play_randomly
from tests.words import shown

GAMES = tuple(specs())
SEEDS = range(4)
# Anything of the machine's vocabulary that must not reach a person's sheet.
RAW = re.compile(r"_|\bnull\b|\bNone\b|\btrue\b|\bfalse\b|[\[\]{}\"]")


def report_keys(engine: Engine) -> set[str]:
    """Every field name of the engine's report rounds (what the sheet must say in words)."""
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            keys.update(k for k in value if "_" in k)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(engine.report()["rounds"])
    return keys


def half_played(game_id: str, seed: int) -> Engine:
    """The same kind of game stopped halfway, so the sheet says whose turn it is."""
    played = play_randomly(game_id, seed)
    spec = spec_of(game_id)
    engine = spec.engine.from_header(played.header)
    for action_json, _ in played.pairs[: len(played.pairs) // 2]:
        engine.apply(engine.parse_action(action_json))
    return engine


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_sheet_has_no_raw_fields_and_counts_seats_from_one(
    game_id: str, seed: int
) -> None:
    engine = play_randomly(game_id, seed).engine
    sheet = scoresheet.render(engine)
    raw = RAW.findall(sheet)
    assert not raw, f"{game_id} sheet shows {raw}:\n{sheet}"
    for key in report_keys(engine):
        assert key not in sheet
    lines = sheet.splitlines()
    header = 2 if lines[1].startswith("Variant: ") else 1  # the variant played, when named
    assert lines[header].split() == [
        word for n in range(1, engine.players + 1) for word in ("Seat", str(n))
    ]
    winners = engine.report()["winners"]
    named = [f"Seat {w + 1}" for w in winners]
    together = named[0] if len(named) == 1 else ", ".join(named[:-1]) + f", and {named[-1]}"
    if len(named) == 2:
        together = f"{named[0]} and {named[1]}"
    assert lines[-1] in (f"Winner: {together}", f"Shared victory: {together}")
    # The JSON object keeps the record format's 0-based seats.
    assert scoresheet.report_json(engine)["winners"] == winners


@pytest.mark.parametrize("game_id", GAMES)
def test_an_unfinished_sheet_names_the_seat_to_play_from_one(game_id: str) -> None:
    engine = half_played(game_id, 1)
    expected = engine.expected
    assert expected is not None
    sheet = scoresheet.render(engine)
    assert not RAW.findall(sheet), sheet
    last = sheet.splitlines()[-1]
    assert last == shown(scoresheet.waiting_for(Player(expected.seat), expected.expects))
    assert last.startswith(f"Waiting for Seat {expected.seat + 1} to ")
    assert ":" not in last  # every verb the games expect has its own sentence
