"""Every game resumes from the journal exactly: same engine state, hands, seat waiting, record."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.kiosk.app import Kiosk
from controller.records.record import replay
from controller.view import Screen

# Every registered game at a table of 4, or as near as its players allow.
GAMES = [
    (game_id, min(max(4, spec.min_players), spec.max_players)) for game_id, spec in specs().items()
]


def state(kiosk: Kiosk) -> dict[str, object]:
    game = kiosk.table.game
    assert game is not None
    engine = game.adapter.engine
    return {
        "snapshot": engine.snapshot(),
        "report": engine.report(),
        "hands": [game.adapter.simulation.hand(p) for p in range(engine.players)],
        "record": game.recorder.dumps(),
        "players": game.players,
    }


def bot_kiosk(journal: Path, seats: int, game_id: str, seed: int = 3) -> Kiosk:
    config = TableConfig.simulated(seats, bots=seats)
    return Kiosk.create(
        config, seed=seed, auto_game=game_id, records_dir=journal.parent, journal_path=journal
    )


@pytest.mark.parametrize(("game_id", "seats"), GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("steps", [15, 90])
def test_a_game_killed_mid_play_resumes_exactly(
    tmp_path: Path, game_id: str, seats: int, steps: int
) -> None:
    path = tmp_path / "journal.sqlite3"
    first = bot_kiosk(path, seats, game_id)
    with first:
        first.loop.drain()
        for _ in range(steps + 6):  # the menus, then into the game
            if first.table.screen is Screen.RESULTS:
                break
            first.simulator.step(0.0)
            first.loop.drain()
        assert first.table.screen is Screen.PLAY
        before = state(first)
    # The process "dies" here: nothing else is written. A new kiosk on the same journal:
    second = bot_kiosk(path, seats, game_id, seed=99)
    with second:
        assert second.resume()
        assert second.table.screen is Screen.PLAY
        assert state(second) == before
        # ... and the resumed game plays on to a result whose record replays to it.
        assert second.run_headless()
        game = second.table.game
        assert game is not None
        assert replay(game.recorder.dumps()).report() == second.table.result
