"""The trick games against their own past: every observable of many games, as digests.

Oshaka Trick and Oh Pshaw are replayed from their records (``tests/records/``,
``controller/samples/``) and played as seeded random games in which about one
step in seven is a junk action (any verb, any seat, any card), so refusals
are exercised as much as legal play. Everything the outside sees is written
down as text: the header, each action's events (their ``repr``) or its refusal
(class, record-line text and the message's key and arguments), and, every few
steps, ``expected``, the snapshot's JSON (and its ``from_json`` round trip),
the report and every seat's legal actions. The test compares a SHA-256 of
that text per case with ``tests/golden/trick_games.json``.

A refactoring of the engines must leave every digest as it is. A change that
means to change what a game shows regenerates the file on purpose, and says
so in its commit:

    .venv/bin/python -m tests.test_trick_games_golden --update
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from controller.games import spec_of
from controller.games.base import JSON, Action, Chance, Engine, TableError
from controller.games.oh_pshaw.engine import OhPshaw

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "trick_games.json"
RECORDS = [
    *sorted(ROOT.glob("tests/records/oh-pshaw/*.jsonl")),
    ROOT / "controller" / "samples" / "oshaka-trick.jsonl",
]
SEEDS = range(8)
OH_PSHAW_OPTIONS: tuple[JSON, ...] = (
    {},
    {"hook": True},
    {"scoring": "mild", "round_winner_bonus": True},
    {"rotating_trump": True, "no_trump_last_round": True, "schedule": "up-down", "max_hand": 4},
    {"schedule": [2, 2, 2], "renege_penalty": 5},
    {"schedule": "contract-whist", "hook": True},
)
OSHAKA_CARDS = [c + str(n) for c in "RBGY" for n in range(1, 14)]
OH_PSHAW_CARDS = [r + s for s in "SHDC" for r in "23456789TJQKA"]


class Log:
    """The text of one case, line by line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, *parts: object) -> None:
        self.lines.append(" ".join(str(p) for p in parts))

    def digest(self) -> str:
        return hashlib.sha256("\n".join(self.lines).encode()).hexdigest()


def observe(log: Log, engine: Engine) -> None:
    """Everything the table, the display and the bots may read of ``engine`` now."""
    log.add("expected", engine.expected)
    snapshot = engine.snapshot()
    log.add("snapshot", json.dumps(snapshot.to_json(), sort_keys=True, default=str))
    log.add("round trip", type(snapshot).from_json(snapshot.to_json()) == snapshot)
    log.add("report", json.dumps(engine.report(), sort_keys=True, default=str))
    for seat in range(engine.players):
        legal = [json.dumps(a.to_json(), sort_keys=True) for a in engine.legal_actions(seat)]
        log.add("legal", seat, legal)


def attempt(log: Log, engine: Engine, action: Action) -> None:
    try:
        events = engine.apply(action)
    except TableError as exc:
        log.add("refused", type(exc).__name__, str(exc), repr(exc.text))
        return
    log.add("events", [repr(e) for e in events])


def junk(game_id: str, engine: Engine, rng: random.Random) -> JSON:
    """A random action line of any verb, seat and card: mostly refused, sometimes legal."""
    seat = rng.randrange(engine.players)
    if game_id == "oshaka-trick":
        verb = rng.choice(["play", "place", "lead", "hand", "play", "play"])
        if verb == "play":
            return {"seat": seat, "play": rng.choice(OSHAKA_CARDS)}
        if verb == "place":
            obj: JSON = {"seat": seat, "place": rng.choice(["score", "penalty"])}
            if rng.random() < 0.5:
                obj["card"] = rng.choice(OSHAKA_CARDS)
            return obj
        if verb == "lead":
            return {"seat": seat, "lead": rng.randrange(engine.players)}
        return {"seat": seat, "hand": rng.sample(OSHAKA_CARDS, 13 if rng.random() < 0.8 else 12)}
    verb = rng.choice(["play", "bid", "trump", "hand", "play", "play", "end"])
    if verb == "play":
        return {"seat": seat, "play": rng.choice(OH_PSHAW_CARDS)}
    if verb == "bid":
        return {"seat": seat, "bid": rng.randrange(0, 16)}
    if verb == "trump":
        return {"seat": seat, "trump": rng.choice(OH_PSHAW_CARDS)}
    if verb == "end":
        return {"seat": seat, "end": "early"}
    assert isinstance(engine, OhPshaw)
    size = engine.round.hand_size
    return {"seat": seat, "hand": rng.sample(OH_PSHAW_CARDS, size if rng.random() < 0.8 else 1)}


def random_game(game_id: str, players: int, options: JSON, seed: int) -> Log:
    """A seeded game with random legal actions, junk actions and (mostly) the table's deal."""
    log = Log()
    rng = random.Random(seed)
    spec = spec_of(game_id)
    engine = spec.engine.from_header(spec.new_header(players, options, rng))
    log.add("header", json.dumps(engine.header(), sort_keys=True))
    chance = Chance(cards=seed % 4 != 3)  # every fourth game: people enter nothing either
    for step in range(2000):
        dealt = engine.chance_actions(rng, chance)
        if dealt:
            for action in dealt:
                log.add("chance", json.dumps(action.to_json(), sort_keys=True))
                attempt(log, engine, action)
            observe(log, engine)
            continue
        expected = engine.expected
        if expected is None:
            break
        if rng.random() < 0.15:
            obj = junk(game_id, engine, rng)
            if obj.get("end") and rng.random() < 0.9:
                continue  # an early end is rare: most games play on
            log.add("junk", json.dumps(obj, sort_keys=True))
            try:
                action = engine.parse_action(obj)
            except TableError as exc:
                log.add("malformed", str(exc), repr(exc.text))
                continue
        else:
            action = rng.choice(engine.legal_actions(expected.seat))
            log.add("action", json.dumps(action.to_json(), sort_keys=True))
        attempt(log, engine, action)
        if step % 3 == 0:
            observe(log, engine)
    observe(log, engine)
    return log


def replayed_record(path: Path) -> Log:
    """A record replayed line by line, every line's outcome and the state after it."""
    log = Log()
    rows: list[dict[str, Any]] = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    engine = spec_of(rows[0]["game"]).engine.from_header(rows[0])
    log.add("header", json.dumps(engine.header(), sort_keys=True))
    for obj in rows[1:]:
        if "note" in obj:
            continue
        try:
            action = engine.parse_action(obj)
        except TableError as exc:
            log.add("malformed", str(exc))
            continue
        attempt(log, engine, action)
        observe(log, engine)
    return log


def cases() -> dict[str, Callable[[], Log]]:
    """Every case by name: the records, then the seeded random games of both games."""
    out: dict[str, Callable[[], Log]] = {
        f"record {path.name}": partial(replayed_record, path) for path in RECORDS
    }
    for seed in SEEDS:
        out[f"oshaka-trick seed {seed}"] = partial(
            random_game, "oshaka-trick", 3 + seed % 2, {}, seed
        )
        options = OH_PSHAW_OPTIONS[seed % len(OH_PSHAW_OPTIONS)]
        out[f"oh-pshaw seed {seed}"] = partial(random_game, "oh-pshaw", 3 + seed % 5, options, seed)
    return out


def digests() -> dict[str, str]:
    return {name: case().digest() for name, case in cases().items()}


@pytest.mark.parametrize("name", sorted(cases()))
def test_a_trick_game_shows_what_it_showed_before(name: str) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert name in golden, f"{name} has no golden digest: run this module with --update"
    assert cases()[name]().digest() == golden[name], (
        f"{name}: the engine's events, refusals, snapshots, reports or legal actions changed; "
        "if that is meant, regenerate tests/golden/trick_games.json with "
        "`.venv/bin/python -m tests.test_trick_games_golden --update`"
    )


def test_the_golden_file_names_exactly_the_cases() -> None:
    assert sorted(json.loads(GOLDEN.read_text(encoding="utf-8"))) == sorted(cases())


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        raise SystemExit("usage: python -m tests.test_trick_games_golden --update")
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(digests(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}")
