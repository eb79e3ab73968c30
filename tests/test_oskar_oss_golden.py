"""Oskar and Oss replay exactly as they did before their engines were split by concern.

``tests/golden/oskar-oss-before-split.json`` was taken from the code before the
split (commit 57c40ea) and its rule moves: for every Oskar and Oss record under
``tests/records`` the replay command's ``--json`` output, a digest of its score
sheet, of the final snapshot and the record's header; for seeded random games
through nothing but the engine contract, digests of the record, the report, the
final snapshot and every step's events and snapshot; and for a few seeded
Oskar games played by bots through the whole table (with a physical deal, so
the dice are rolled with OK; with manual dice; all virtual), digests of the
record the kiosk wrote and of the table's last snapshot. A change that alters
any of them fails here: records and the replay command are contracts.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main as cli
from controller.config.table_config import TableConfig
from controller.games import spec_of
from controller.games.base import Chance
from controller.games.oskar.snapshot import OskarOverlay, OskarSnapshot
from controller.kiosk.app import Kiosk
from controller.records.record import replay
from controller.view import GameView

ROOT = Path(__file__).resolve().parent.parent
GOLDEN: dict[str, Any] = json.loads(
    (ROOT / "tests" / "golden" / "oskar-oss-before-split.json").read_text(encoding="utf-8")
)


def digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def plain(snapshot: object) -> object:
    """The snapshot's JSON form as the golden file took it.

    Then Oskar's snapshot itself carried the dice seats had picked to reroll
    (always none from the engine); they are the table's overlay now, so its
    empty form is added back. The last moments kept since for the table to show
    again (``LATER_KEYS``: the last trick, roll and attempt) are left out.
    Everything else must be as it was.
    """
    if isinstance(snapshot, OskarSnapshot):
        data = GameView(snapshot, OskarOverlay()).to_json()
    else:
        to_json = getattr(snapshot, "to_json", None)
        if not callable(to_json):
            return snapshot
        data = to_json()
    return as_before(data)


def as_before(data: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot's JSON without the keys added after the golden file was taken."""
    return {key: value for key, value in data.items() if key not in LATER_KEYS}


# Snapshot keys added after the golden file was taken (issue 30: the last moments).
LATER_KEYS = frozenset({"last_trick", "last_trick_winner", "last_rolls", "last_attempts"})


@pytest.mark.parametrize("path", sorted(GOLDEN["records"]))
def test_a_record_replays_as_before(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    gold = GOLDEN["records"][path]
    assert cli.main(["replay", "--json", str(ROOT / path)]) == 0
    assert capsys.readouterr().out == gold["json"]
    assert cli.main(["replay", str(ROOT / path)]) == 0
    assert digest(capsys.readouterr().out) == gold["text"]
    engine = replay((ROOT / path).read_text(encoding="utf-8"))
    assert digest(plain(engine.snapshot())) == gold["snapshot"]
    assert engine.header() == gold["header"]


def play(game: str, seed: int) -> dict[str, str]:
    """A seeded random game through the engine contract, as the golden file's was played."""
    spec = spec_of(game)
    rng = random.Random(seed)
    players = rng.randint(spec.min_players, spec.max_players)
    options = dict(rng.choice(spec.presets).options) if spec.presets else {}
    header = spec.new_header(players, options, rng)
    engine = spec.engine.from_header(header)
    steps = hashlib.sha256()
    actions: list[object] = []
    for _ in range(20_000):
        dealt = engine.chance_actions(rng, Chance())
        if dealt:
            for action in dealt:
                events = engine.apply(action)
                actions.append(action.to_json())
                steps.update(repr([type(e).__name__ for e in events]).encode())
            continue
        if engine.expected is None:
            break
        seats = list(range(engine.players))
        rng.shuffle(seats)
        action = rng.choice([a for s in seats for a in engine.legal_actions(s)])
        events = engine.apply(action)
        actions.append(action.to_json())
        steps.update(repr([type(e).__name__ for e in events]).encode())
        snapshot = json.dumps(plain(engine.snapshot()), sort_keys=True, default=str)
        steps.update(snapshot.encode())
    return {
        "record": digest([header, actions]),
        "report": digest(engine.report()),
        "snapshot": digest(plain(engine.snapshot())),
        "steps": steps.hexdigest(),
    }


@pytest.mark.parametrize("key", sorted(GOLDEN["games"]))
def test_a_seeded_game_plays_as_before(key: str) -> None:
    _, game, seed = key.split(":")
    assert play(game, int(seed)) == GOLDEN["games"][key]


@pytest.mark.parametrize("key", sorted(GOLDEN["kiosk"]))
def test_a_seeded_kiosk_game_records_as_before(key: str, tmp_path: Path) -> None:
    """Bots play Oskar through the whole table (buttons, the virtual roller, the
    cursor), with a physical deal (dice rolled with OK), manual dice and all virtual."""
    game, players, seed, settings = key.split(":", 3)
    config = replace(TableConfig.simulated(int(players), bots=int(players)), **json.loads(settings))
    kiosk = Kiosk.create(
        config, seed=int(seed), auto_game=game, records_dir=tmp_path, journal_path=None
    )
    with kiosk:
        assert kiosk.run_headless()
        session = kiosk.table.game
        assert session is not None
        snapshot = as_before(session.adapter.presentation.game_view().to_json())
    (record,) = tmp_path.glob("**/*.jsonl")
    gold = GOLDEN["kiosk"][key]
    assert digest(record.read_text(encoding="utf-8")) == gold["record"]
    assert digest(snapshot) == gold["snapshot"]
