"""One conformance test for every engine: the contract of ``controller/games/base.py``.

Each game is played to its end by seeded random play through nothing but the
contract: chance from ``chance_actions``, players from ``legal_actions``. Along
the way and at the end it checks what every engine promises:

- legal actions are never empty while the game waits for someone;
- a refused action leaves the state exactly as it was;
- replaying the game's record gives the same report and snapshot as live play;
- the snapshot and the record round-trip through their text forms;
- the rounds' scores add up to the totals;
- undoing the last player action equals replaying the prefix without it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from controller.games import spec_of, specs
from controller.games.base import Action, Chance, Engine, Snapshot, TableError
from controller.records.record import ActionPair, dumps, parse, replay, undo_last_player_action

# Every game: each supplies its chance (deals, dice) through the engine contract.
GAMES = tuple(specs())
# Seed n plays a game's n-th player count with its n-th preset (round and round), so
# these few seeds cover every count and every preset of every game; the slow run plays
# more seeds, each as random as the first.
SEEDS = range(6)
MORE_SEEDS = range(6, 24)
MAX_STEPS = 20_000


@dataclass
class Played:
    """A game played to its end, with every action and whether chance supplied it."""

    engine: Engine
    header: dict[str, object]
    pairs: list[ActionPair]
    refusals: int


def state_of(engine: Engine) -> str:
    """Everything observable about an engine, as one comparable text."""
    expected = engine.expected
    return json.dumps(
        {
            "snapshot": _plain(engine.snapshot()),
            "report": engine.report(),
            "expected": None if expected is None else expected.to_json(),
        },
        sort_keys=True,
        default=str,
    )


def _plain(snapshot: object) -> object:
    to_json = getattr(snapshot, "to_json", None)
    return to_json() if callable(to_json) else snapshot


def play_randomly(game_id: str, seed: int) -> Played:
    spec = spec_of(game_id)
    rng = random.Random(seed)
    counts = range(spec.min_players, spec.max_players + 1)
    players = counts[seed % len(counts)]
    options = dict(spec.presets[seed % len(spec.presets)].options) if spec.presets else {}
    header = spec.new_header(players, options, rng)
    engine = spec.engine.from_header(header)
    pairs: list[ActionPair] = []
    refusals = 0
    for _ in range(MAX_STEPS):
        dealt = engine.chance_actions(rng, Chance())
        if dealt:
            for action in dealt:
                engine.apply(action)
                pairs.append((action.to_json(), True))
            continue
        expected = engine.expected
        if expected is None:
            return Played(engine, header, pairs, refusals)
        legal = engine.legal_actions(expected.seat)
        assert legal, f"{game_id}: nothing legal for seat {expected.seat} ({expected.expects})"
        refusals += try_refused(engine, rng)
        action = rng.choice(legal)
        engine.apply(action)
        pairs.append((action.to_json(), False))
    raise AssertionError(f"{game_id} did not end within {MAX_STEPS} actions")


def try_refused(engine: Engine, rng: random.Random) -> int:
    """Offer another seat's legal action; if the engine refuses it, nothing may change."""
    expected = engine.expected
    assert expected is not None
    # Only seats with nothing legal now are thieves: several seats may act at once
    # (Oss duelists and challengers; an Oskar seat deciding on its doubles or not yet rolled).
    others = [
        s for s in range(engine.players) if s != expected.seat and not engine.legal_actions(s)
    ]
    if not others:
        return 0
    seat = rng.choice(others)
    candidates = engine.legal_actions(expected.seat)
    stolen = rng.choice(candidates).to_json() | {"seat": seat}
    before = state_of(engine)
    try:
        engine.apply(engine.parse_action(stolen))
    except TableError:
        assert state_of(engine) == before, f"a refused {stolen} changed the game"
        return 1
    raise AssertionError(f"seat {seat} was allowed {stolen} while {expected} was expected")


def test_the_seeds_cover_every_player_count_and_preset() -> None:
    for game_id in GAMES:
        spec = spec_of(game_id)
        counts = range(spec.min_players, spec.max_players + 1)
        assert len(SEEDS) >= max(len(counts), len(spec.presets)), game_id


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_keeps_the_engine_contract(game_id: str, seed: int) -> None:
    check_random_play(game_id, seed)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", MORE_SEEDS)
def test_more_random_play_keeps_the_engine_contract(game_id: str, seed: int) -> None:
    check_random_play(game_id, seed)


def check_random_play(game_id: str, seed: int) -> None:
    """One seeded random game of ``game_id``, every promise of the contract checked."""
    played = play_randomly(game_id, seed)
    engine = played.engine
    assert engine.finished and engine.expected is None
    assert played.refusals > 0  # the refusal check really ran

    report = engine.report()
    assert report["finished"] is True and report["next"] is None
    # The rounds' scores add up to the totals.
    for seat in range(engine.players):
        assert sum(r["scores"][seat] for r in report["rounds"]) == report["totals"][seat]
    best = max(report["totals"])
    assert report["winners"] == [s for s, t in enumerate(report["totals"]) if t == best]

    # The record round-trips, and replaying it equals live play.
    text = dumps(played.header, [obj for obj, _ in played.pairs])
    record = parse(text)
    assert dumps(record.header, [line.obj for line in record.lines]) == text
    replayed = replay(text)
    assert state_of(replayed) == state_of(engine)

    # The snapshot round-trips through JSON.
    snapshot = _plain(engine.snapshot())
    assert json.loads(json.dumps(snapshot)) == snapshot
    typed = engine.snapshot()
    if isinstance(typed, Snapshot):  # a typed snapshot reads back from its JSON form
        assert type(typed).from_json(json.loads(json.dumps(snapshot))) == typed


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_undo_equals_replaying_the_prefix(game_id: str, seed: int) -> None:
    played = play_randomly(game_id, seed)
    rng = random.Random(seed)
    for _ in range(5):
        cut = rng.randrange(1, len(played.pairs) + 1)
        pairs = list(played.pairs[:cut])
        undone = undo_last_player_action(pairs)
        prefix = played.pairs[:cut]
        # What remains is the prefix up to (not including) the last player action.
        last_player = max((i for i, (_, chance) in enumerate(prefix) if not chance), default=None)
        if last_player is None:
            assert undone is None and pairs == []
            continue
        assert undone == prefix[last_player][0]
        assert pairs == prefix[:last_player]
        undone_game = replay(dumps(played.header, [obj for obj, _ in pairs]))
        fresh = spec_of(game_id).engine.from_header(played.header)
        for obj, _ in prefix[:last_player]:
            fresh.apply(fresh.parse_action(obj))
        assert state_of(undone_game) == state_of(fresh)


def test_an_action_is_a_value_that_round_trips() -> None:
    played = play_randomly("oshaka-trick", 3)
    engine = spec_of("oshaka-trick").engine.from_header(played.header)
    for obj, _ in played.pairs[:60]:
        action: Action = engine.parse_action(obj)
        assert action.to_json() == obj
        engine.apply(action)
