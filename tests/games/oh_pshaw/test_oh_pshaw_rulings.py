"""Oh Pshaw's end-of-game rulings (issue 13): the tie-break among the tied seats only,
the contract-whist tie-break at 7 cards with a turned card, and staff's early end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.games.base import IllegalAction
from controller.games.oh_pshaw.actions import Bid, EndEarly
from controller.games.oh_pshaw.engine import OhPshaw, deal
from controller.games.oh_pshaw.events import GameEndedEarly
from controller.games.oh_pshaw.options import Options
from controller.games.oh_pshaw.snapshot import OhPshawSnapshot
from controller.games.oh_pshaw.state import Phase
from controller.records import scoresheet
from controller.records.record import RecordError, replay

RECORDS = Path(__file__).parents[2] / "records" / "oh-pshaw"
ROOT = Path(__file__).resolve().parents[3]


def text(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def test_the_tie_break_is_decided_among_the_tied_seats_only() -> None:
    result = replay(text("tie-break-tied-only.jsonl")).report()
    assert result["finished"] is True
    # Seat 2 made its bid in the first extra round, but it was not tied: it plays
    # along and scores nothing, so it cannot be named winner.
    assert [r["scores"] for r in result["rounds"]] == [[10, 10, 0], [0, 0, 0], [11, 0, 0]]
    assert [r.get("tied") for r in result["rounds"]] == [None, [0, 1], [0, 1]]
    assert result["rounds"][1]["bids"] == [1, 1, 1] and result["rounds"][1]["tricks"] == [0, 0, 1]
    assert result["totals"] == [21, 10, 0]
    assert result["winners"] == [0]


def test_the_old_tie_break_record_now_scores_only_the_tied_seats() -> None:
    result = replay(text("tie-break.jsonl")).report()
    assert result["rounds"][1]["scores"] == [12, 0, 10]  # seat 1's made bid of 0 plays along
    assert result["winners"] == [0]


def test_the_round_winner_bonus_of_a_tie_break_goes_to_a_tied_seat() -> None:
    head = json.loads(text("tie-break-tied-only.jsonl").splitlines()[0])
    head["options"]["round_winner_bonus"] = True
    lines = text("tie-break-tied-only.jsonl").splitlines()[1:]
    result = replay("\n".join([json.dumps(head), *lines]) + "\n").report()
    # Round 1: 10, 10, 0 and the bonus to both top scorers; the first extra round
    # has no scoring tied seat above 0, so no bonus (seat 2's 11 does not count).
    assert [r["scores"] for r in result["rounds"]] == [[20, 20, 0], [0, 0, 0], [21, 0, 0]]


def _contract_whist_game(seed: int) -> OhPshaw:
    """A 4-player contract-whist game dealt and bid at random, to the end of its schedule."""
    rng = random.Random(seed)
    engine = OhPshaw.from_header(
        {"format": "table-record/1", "game": "oh-pshaw", "players": 4,
         "options": {"schedule": "contract-whist"}, "dealer": 0}
    )  # fmt: skip
    while not engine.finished and not engine.round.tie_break:
        if not engine.round.touched:
            for action in deal(engine, rng):
                engine.apply(action)
            continue
        expected = engine.expected
        assert expected is not None
        engine.apply(rng.choice(engine.legal_actions(expected.seat)))
    return engine


def test_the_contract_whist_tie_break_deals_seven_cards_and_turns_a_card() -> None:
    assert Options.read({"options": {"schedule": "contract-whist"}}, 4).tie_break_hand == 7
    assert Options.read({"options": {}}, 4).tie_break_hand == 13
    # Find a seeded game whose 13 rounds end in a tie (the search is deterministic).
    for seed in range(400):
        engine = _contract_whist_game(seed)
        if engine.round.tie_break:
            break
    else:
        pytest.fail("no contract-whist game of the first 400 seeds ended in a tie")
    rnd = engine.round
    assert rnd.index == 13 and rnd.hand_size == 7
    assert rnd.turns_card and engine.awaiting_turned_card  # 4 x 7 cards: a card is turned
    for action in deal(engine, random.Random(seed)):
        engine.apply(action)
    assert engine.snapshot().trump is not None


def test_end_now_finishes_with_the_leaders_as_winners() -> None:
    engine = replay(text("end-now.jsonl"))
    result = engine.report()
    assert result["finished"] is True and result["ended"] == "early"
    assert result["totals"] == [10, 11, 10] and result["winners"] == [1]
    assert result["next"] is None
    # Round 2 had begun (a bid was made): it shows with its running scores.
    assert len(result["rounds"]) == 2 and result["rounds"][1]["scores"] == [0, 0, 0]
    snap = engine.snapshot()
    assert isinstance(snap, OhPshawSnapshot)
    assert snap.ended_early and snap.winners == (1,) and snap.phase is Phase.OVER
    assert OhPshawSnapshot.from_json(snap.to_json()).ended_early


def test_the_end_action_round_trips_and_is_checked() -> None:
    engine = OhPshaw.from_header(
        {"format": "table-record/1", "game": "oh-pshaw", "players": 3, "options": {}, "dealer": 0}
    )
    assert engine.parse_action({"seat": 2, "end": "early"}) == EndEarly(2)
    assert EndEarly(2).to_json() == {"seat": 2, "end": "early"}
    with pytest.raises(IllegalAction, match="nothing has been played yet"):
        engine.apply(EndEarly(0))
    engine.apply(Bid(1, 0))
    events = engine.apply(EndEarly(2))
    assert isinstance(events[0], GameEndedEarly) and events[0].round == 1
    assert engine.finished and engine.report()["winners"] == [0, 1, 2]  # a shared victory


def test_a_record_with_a_bad_end_or_play_after_the_end_is_refused() -> None:
    lines = text("end-now.jsonl").splitlines()
    bad = "\n".join([*lines[:-1], '{"seat": 0, "end": "now"}']) + "\n"
    with pytest.raises(RecordError, match=r'^line 16: "end" must be "early", not "now"'):
        replay(bad)
    after = "\n".join([*lines, '{"seat": 0, "bid": 0}']) + "\n"
    with pytest.raises(RecordError, match=r"^line 17: the game is already over"):
        replay(after)


def test_a_record_that_just_stops_is_still_unfinished() -> None:
    result = replay(text("early-end.jsonl")).report()
    assert result["finished"] is False and "ended" not in result


def test_replay_json_and_score_sheet_say_how_the_game_ended() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller", "replay", "--json", str(RECORDS / "end-now.jsonl")],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    assert out["finished"] is True and out["ended"] == "early" and out["winners"] == [1]
    sheet = scoresheet.render(replay(text("end-now.jsonl")))
    assert "finished" in sheet.splitlines()[0]
    assert "Ended early by staff" in sheet and "Winner: Seat 2" in sheet  # seat 1, from 1
