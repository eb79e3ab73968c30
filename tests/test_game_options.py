"""Options declared once: the generic parser, the typed values engines receive, one declaration."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from controller.games import specs
from controller.games.base import BadOption
from controller.games.oh_pshaw.options import Chosen, Options
from controller.games.options import OptionKind, OptionSpec, read_declared
from controller.games.oskar.options import OskarOptions
from controller.games.oss.options import OssOptions
from controller.games.words import say


def header_of(game: str, players: int, options: Any) -> dict[str, Any]:
    """A record header whose starting seat, whatever the game names it, is seat 0."""
    return {
        "format": "table-record/1",
        "game": game,
        "players": players,
        "options": options,
        "dealer": 0,
        "lead": 0,
        "chief": 0,
    }


@pytest.mark.parametrize("game_id", list(specs()))
def test_the_engine_reads_the_options_its_spec_declares(game_id: str) -> None:
    spec = specs()[game_id]
    header = header_of(game_id, spec.min_players, {"no_such_option": 1})
    with pytest.raises(BadOption) as caught:
        spec.engine.from_header(header)
    listed = ", ".join(sorted(o.key for o in spec.options)) or "none"
    assert str(caught.value).endswith(f"its options are: {listed}")
    # Every declared default is accepted, and a header of defaults writes nothing else back.
    defaults = {o.key: o.default for o in spec.options}
    engine = spec.engine.from_header(header_of(game_id, spec.min_players, defaults))
    written = engine.header()["options"]
    assert all(written[key] == defaults[key] for key in written)


def test_the_parser_fills_defaults_and_types_the_values() -> None:
    assert OssOptions.read({}, "oss") == OssOptions(
        rounds=4, replays_per_round=2, replay_scope="player"
    )
    chosen = OssOptions.chosen("oss", rounds=2, replay_scope="table")
    assert (chosen.rounds, chosen.replay_scope, chosen.replays_per_round) == (2, "table", 2)
    assert chosen.changed() == {"rounds": 2, "replay_scope": "table"}
    with pytest.raises(FrozenInstanceError):
        chosen.rounds = 3  # type: ignore[misc]
    # A schedule's list arrives as a tuple and is written back as a list.
    listed = Chosen.read({"options": {"schedule": [2, 3]}}, "oh-pshaw")
    assert listed.schedule == (2, 3)
    assert listed.max_hand is None
    assert listed.changed() == {"schedule": [2, 3]}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([1], '"options" must be an object, not [1]'),
        ({"tokens": 7}, 'unknown option "tokens" for oskar; its options are: tokens_to_win'),
        ({"tokens_to_win": 9}, 'option "tokens_to_win" must be 7 or 8, not 9'),
        ({"tokens_to_win": "7"}, 'option "tokens_to_win" must be 7 or 8, not "7"'),
    ],
)
def test_the_parser_refuses_what_the_declaration_does_not_allow(options: Any, message: str) -> None:
    with pytest.raises(BadOption) as caught:
        OskarOptions.read({"options": options}, "oskar")
    assert str(caught.value) == message


def test_each_kind_of_number_says_what_is_allowed() -> None:
    def refusal(option: OptionSpec, value: object) -> str:
        with pytest.raises(BadOption) as caught:
            read_declared({"options": {option.key: value}}, (option,), "toy")
        return str(caught.value)

    ranged = OptionSpec("n", say("N"), OptionKind.NUMBER, 1, low=1, high=4)
    assert refusal(ranged, 5) == 'option "n" must be 1..4, not 5'
    assert refusal(ranged, 2.5) == 'option "n" must be a whole number, not 2.5'
    from_low = OptionSpec("n", say("N"), OptionKind.NUMBER, 0, low=0)
    assert refusal(from_low, -1) == 'option "n" must be a whole number from 0, not -1'
    assert read_declared({"options": {"n": 10**6}}, (from_low,), "toy") == {"n": 10**6}
    capped = OptionSpec("n", say("N"), OptionKind.NUMBER, 0, high=3)
    assert refusal(capped, 4) == 'option "n" must be at most 3, not 4'
    assert refusal(capped, True) == 'option "n" must be a whole number, not True'


def test_oh_pshaw_resolves_what_depends_on_the_players() -> None:
    assert Options.read({}, 3).max_hand == 15
    assert Options.read({}, 5).schedule == tuple(range(1, 11))
    with pytest.raises(BadOption, match=r"14 is too large: 4 players x 14 cards"):
        Options.read({"options": {"max_hand": 14}}, 4)
    assert Options.read({"options": {"max_hand": 14}}, 3).max_hand == 14


def test_table_toml_refuses_only_what_no_table_could_play() -> None:
    spec = specs()["oh-pshaw"]
    spec.check_options({"max_hand": 17})  # three players can
    with pytest.raises(BadOption, match="too large: 3 players x 18 cards"):
        spec.check_options({"max_hand": 18})
    spec.new_header(3, {"renege_penalty": 500}, random.Random(0))  # the record sets no most
