"""Oh Pshaw's rulings of issue 32: rotating trump in a whole-deck round, the agreed
tie-break round, and one count for staff's early end (records and replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli.main import main
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.options import OPTIONS
from controller.records.record import dumps, replay
from controller.words import Presenter
from tests.test_table_options import Rig as OptionsRig
from tests.words import shown

RANKS = "23456789TJQKA"


def header(players: int, dealer: int = 0, **options: Any) -> dict[str, Any]:
    return {
        "format": "table-record/1",
        "game": "oh-pshaw",
        "players": players,
        "options": options,
        "dealer": dealer,
    }


def replayed(head: dict[str, Any], lines: list[dict[str, Any]]) -> OhPshaw:
    engine = replay(dumps(head, lines))
    assert isinstance(engine, OhPshaw)
    return engine


def replay_json(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``python -m controller replay --json FILE`` on ``text`` (in this process)."""
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "--json", str(path)]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


# --- item 4: rotating trump applies to a whole-deck round ------------------------------


def whole_deck_round(**options: Any) -> list[dict[str, Any]]:
    """4 players, 13 cards each, dealt by seat 0: seat 1 holds the spades, seat 2 the
    hearts, seat 3 the diamonds, seat 0 the clubs; all bid 0; seat 1 leads spades."""
    suits = {1: "S", 2: "H", 3: "D", 0: "C"}
    lines: list[dict[str, Any]] = [
        {"seat": seat, "hand": [r + suits[seat] for r in RANKS]} for seat in (1, 2, 3, 0)
    ]
    lines += [{"seat": seat, "bid": 0} for seat in (1, 2, 3, 0)]
    lines += [{"seat": 1, "play": "AS"}, {"seat": 2, "play": "2H"}]
    lines += [{"seat": 3, "play": "2D"}, {"seat": 0, "play": "2C"}]
    return lines


def test_rotating_trump_gives_a_whole_deck_round_its_suit() -> None:
    head = header(4, schedule=[13], rotating_trump=True)
    engine = replayed(head, whole_deck_round())
    first = engine.report()["rounds"][0]
    # Round index 0 under the rotation: hearts, and no card turned.
    assert first["trump"] == "H" and first["turned"] is None
    assert first["tricks"] == [0, 0, 1, 0]  # seat 2's 2H trumps seat 1's AS
    assert engine.round.last_winner == 2


def test_without_rotating_trump_a_whole_deck_round_still_has_no_trump() -> None:
    engine = replayed(header(4, schedule=[13]), whole_deck_round())
    first = engine.report()["rounds"][0]
    assert first["trump"] is None and first["turned"] is None
    assert first["tricks"] == [0, 1, 0, 0]  # seat 1's AS is the highest spade
    # The last-round rule still wins over the rotation, whole deck or not.
    last = replayed(
        header(4, schedule=[13], rotating_trump=True, no_trump_last_round=True),
        whole_deck_round(),
    )
    assert last.report()["rounds"][0]["trump"] is None


def test_the_replay_command_reports_the_rotated_trump_of_a_whole_deck_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = dumps(header(4, schedule=[13], rotating_trump=True), whole_deck_round())
    out = replay_json(text, tmp_path, capsys)
    assert out["rounds"][0]["trump"] == "H" and out["rounds"][0]["tricks"] == [0, 0, 1, 0]
    assert out["next"] == {"seat": 2, "expects": "play"}


# --- item 3: the agreed tie-break round --------------------------------------------------

# One 1-card round, 3 players, dealer 0: seats 0 and 1 make their bids of 0, seat 2 takes
# the trick it bid 0 for, so seats 0 and 1 are tied at 10 and an extra round follows.
TIED_AFTER_ONE_ROUND: list[dict[str, Any]] = [
    {"seat": 1, "hand": ["QS"]},
    {"seat": 2, "hand": ["AS"]},
    {"seat": 0, "hand": ["KS"]},
    {"seat": 0, "trump": "9D"},
    {"seat": 1, "bid": 0},
    {"seat": 2, "bid": 0},
    {"seat": 0, "bid": 0},
    {"seat": 1, "play": "QS"},
    {"seat": 2, "play": "AS"},
    {"seat": 0, "play": "KS"},
]


def tie_break_round_of(**options: Any) -> tuple[int, bool]:
    """The extra round after ``TIED_AFTER_ONE_ROUND``: its hand size, whether it turns a card."""
    engine = replayed(header(3, schedule=[1], **options), TIED_AFTER_ONE_ROUND)
    rnd = engine.round
    assert rnd.tie_break and engine.tied == (0, 1)
    return rnd.hand_size, rnd.turns_card


def test_the_default_tie_break_round_is_still_the_largest_hand() -> None:
    assert tie_break_round_of() == (15, True)  # 3 players: max_hand 15
    assert tie_break_round_of(max_hand=4) == (4, True)
    assert tie_break_round_of(tie_break_round="largest") == (15, True)


def test_the_tie_break_round_may_be_the_largest_hand_played() -> None:
    assert tie_break_round_of(tie_break_round="largest-played") == (1, True)
    four = OhPshaw.from_header(header(4, schedule=[2, 2, 2], tie_break_round="largest-played"))
    assert four.options.tie_break_hand == 2  # not 13 cards without trump


def test_an_agreed_tie_break_round_deals_its_size_with_the_plans_trump() -> None:
    assert tie_break_round_of(tie_break_hand=5) == (5, True)
    # Under rotating trump the extra round continues the rotation (round index 1: clubs).
    engine = replayed(
        header(3, schedule=[1], rotating_trump=True, tie_break_hand=3),
        [line for line in TIED_AFTER_ONE_ROUND if "trump" not in line],
    )
    assert engine.round.hand_size == 3 and engine.snapshot().trump == "C"
    # Contract whist's agreed tie-break, 7 cards with a turned card, with 4 players.
    whist = OhPshaw.from_header(header(4, schedule="contract-whist", tie_break_hand=7))
    assert whist.options.tie_break_hand == 7
    # 4 players x 13 agreed cards deal the whole deck: no card to turn, no trump.
    assert OhPshaw.from_header(header(4, tie_break_hand=13)).options.tie_break_hand == 13


def test_an_agreed_tie_break_round_the_deck_cannot_deal_is_refused_with_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(dumps(header(4, max_hand=7, tie_break_hand=8), []), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith('line 1: option "tie_break_hand" 8 is too large: with 4 players')
    assert "Traceback" not in err
    path.write_text(
        dumps(header(4, tie_break_hand=3, tie_break_round="largest-played"), []),
        encoding="utf-8",
    )
    assert main(["replay", str(path)]) == 2
    assert 'cannot go with "tie_break_round" "largest-played"' in capsys.readouterr().err


def test_the_tie_break_options_are_named_in_the_rulebooks_words() -> None:
    spec = {o.key: o for o in OPTIONS}
    assert shown(spec["tie_break_round"].label) == "Tie-break round"
    assert shown(spec["tie_break_hand"].label) == "Agreed tie-break round"
    assert shown(spec["tie_break_round"].value_words("largest")) == "the largest hand"
    german = Presenter("de", game_id="oh-pshaw")
    assert german(spec["tie_break_round"].label) == "Tie-Break-Runde"
    assert german(spec["tie_break_hand"].label) == "Vereinbarte Tie-Break-Runde"
    assert german(spec["tie_break_round"].value_words("largest")) == "maximale Blattgröße"


def test_the_tie_break_round_is_agreed_on_the_options_screen(tmp_path: Path) -> None:
    rig = OptionsRig(tmp_path / "journal.sqlite3")
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2, 3))
        assert rig.value("Tie-break round") == "the largest hand"
        rig.set_value("Tie-break round", "the largest hand played")
        # An agreed size cannot go with "the largest hand played": the screen skips it.
        rig.cursor_to("Agreed tie-break round")
        rig.press(0, "ok")
        assert rig.value("Agreed tie-break round") == "as the rulebook sets it for the players"
        rig.set_value("Tie-break round", "the largest hand")
        rig.set_value("Agreed tie-break round", "5")
        rig.cursor_to("Start the game")
        rig.press(0, "ok")
        assert rig.engine.header()["options"] == {"max_hand": 7, "tie_break_hand": 5}
        assert rig.engine.options.tie_break_hand == 5
    rig.journal.close()
