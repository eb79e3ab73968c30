"""Oh Pshaw's rulings of issue 32: rotating trump in a whole-deck round, the agreed
tie-break round, and one count for staff's early end (records and replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli.main import main
from controller.games.oh_pshaw.engine import OhPshaw
from controller.records.record import dumps, replay

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
