"""Oss: the rules through small records, refusals, seeded random games and the bot."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from controller.games.base import BadOption, Chance, IllegalAction, MalformedAction
from controller.games.oss import cards as oss_cards
from controller.games.oss.bots import OssBot, duel_chance, play_out, simulate_result, solo_chance
from controller.games.oss.engine import (
    RULINGS,
    AttemptKind,
    Challenge,
    Counts,
    DuelResult,
    Hand,
    Oss,
    OssOptions,
    OssSnapshot,
    Outcome,
    Phase,
    PlacementMode,
    Result,
    Reveal,
    Timed,
    Tribe,
    chance_action,
    chance_actions,
)
from controller.records.record import RecordError, dumps, replay
from tests.conftest import run_cli_here
from tests.words import shown

RECORDS = Path(__file__).parents[2] / "records" / "oss"


def read(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


def lines_of(name: str) -> list[str]:
    return read(name).splitlines()


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def replay_oss(record: str) -> Oss:
    """Replay a record that must be an Oss game."""
    engine = replay(record)
    assert isinstance(engine, Oss)
    return engine


def refusal(record: str) -> str:
    with pytest.raises(RecordError) as info:
        replay(record)
    return str(info.value)


def census_ok(engine: Oss) -> None:
    """Every tribe card is in exactly one place: hand, deck, table, won or out."""
    for places in engine.census():
        values = sorted(v for where in places.values() for v in where)
        assert values == list(oss_cards.TRIBE_VALUES), places


def prefix(name: str, upto: int) -> list[str]:
    """The first ``upto`` lines of a record (line numbers are 1-based)."""
    return lines_of(name)[:upto]


HEADER_2P = '{"format": "table-record/1", "game": "oss", "players": 2, "options": {}, "chief": 0}'
HANDS_2P = ['{"seat": 0, "hand": [1, 2, 3, 4, 4]}', '{"seat": 1, "hand": [1, 1, 2, 2, 3]}']
REVEAL_0 = '{"seat": 0, "reveal": {"solo": ["Aslik", "Numa", "Meja"], "duel": "Kat!"}}'


# --- golden records, one rule each --------------------------------------------------

GOLDEN: dict[str, dict[str, Any]] = {
    "solo-basics.jsonl": {"totals": [4, 3], "winners": [0]},
    "duel-and-keep.jsonl": {"totals": [4, 4, 3], "winners": [0, 1]},
    "replays-per-player.jsonl": {"totals": [0, 6], "winners": [1]},
    "replays-table-scope.jsonl": {"totals": [3, 4], "winners": [1]},
    "duel-replay.jsonl": {"totals": [4, 4], "winners": [0, 1]},
    "two-duels.jsonl": {"totals": [4, 4, 3, 4, 0], "winners": [0, 1, 3]},
    "full-game-2p.jsonl": {"totals": [19, 16], "winners": [0]},
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_record_scores(name: str) -> None:
    engine = replay_oss(read(name))
    report = engine.report()
    assert report["finished"] is True
    assert report["next"] is None
    assert report["totals"] == GOLDEN[name]["totals"]
    assert report["winners"] == GOLDEN[name]["winners"]
    assert [sum(col) for col in zip(*(r["scores"] for r in report["rounds"]), strict=True)] == (
        report["totals"]
    )
    census_ok(engine)


def test_every_golden_record_is_listed() -> None:
    assert {p.name for p in RECORDS.glob("*.jsonl")} == set(GOLDEN)


def test_solo_won_card_is_kept_and_failed_card_is_out() -> None:
    engine = replay_oss(read("solo-basics.jsonl"))
    places = engine.census()
    assert places[1]["won"] == [3]
    assert places[0]["out"] == [4]
    assert engine.report()["rounds"][0]["challenge"] == {"card": "TargOss", "winner": 0}
    assert engine.chief == 0  # the challenge winner is the chief


def test_placement_goes_clockwise_from_the_chief() -> None:
    engine = replay_oss(text(prefix("solo-basics.jsonl", 6)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "tribe"}
    engine = replay_oss(text(prefix("solo-basics.jsonl", 8)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 0, "expects": "tribe"}


def test_first_two_cards_duel_and_the_third_is_solo() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 9)))
    attempts = engine.snapshot().attempts
    assert [(a.kind, a.seats, a.trick) for a in attempts] == [
        (AttemptKind.DUEL, (0, 1), "Bagi!"),
        (AttemptKind.SOLO, (2,), "Gurnia"),
    ]
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 0, "expects": "result"}
    # Either duelist may report, and a tie restarts the duel.
    tied = replay_oss(text(prefix("duel-and-keep.jsonl", 11)))
    assert tied.phase is Phase.RESULT
    assert tied.current_attempt is not None and tied.current_attempt.kind == "duel"


def test_duel_winner_keeps_the_chosen_card_and_the_second_duelist_has_no_turn() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 14)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 0, "expects": "keep"}
    assert [a.to_json() for a in engine.legal_actions(0)] == [
        {"seat": 0, "keep": 2},
        {"seat": 0, "keep": 4},
    ]
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 15)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 2, "expects": "result"}
    places = engine.census()
    assert places[1]["won"] == [4]  # seat 1's 4 now in seat 0's pile
    assert places[0]["out"] == [2]
    assert engine.snapshot().seats[0].won == (4,)


def test_keep_must_name_a_duel_card() -> None:
    lines = [*prefix("duel-and-keep.jsonl", 14), '{"seat": 0, "keep": 3}']
    assert refusal(text(lines)) == "line 15: the duel's tribe cards are 2 and 4, not 3"
    lines = [*prefix("duel-and-keep.jsonl", 14), '{"seat": 1, "keep": 4}']
    assert refusal(text(lines)) == "line 15: seat 1 cannot keep a card: it is seat 0's turn"


def test_equal_duel_cards_need_no_keep() -> None:
    engine = replay_oss(text(prefix("full-game-2p.jsonl", 21)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "challenge"}
    assert engine.census()[0]["won"] == [4, 4]
    assert engine.census()[1]["out"] == [4]


def test_two_duels_in_one_round_first_duelist_is_who_placed_first() -> None:
    engine = replay_oss(text(prefix("two-duels.jsonl", 14)))
    attempts = [(a["kind"], a["seats"]) for a in engine.snapshot().to_json()["attempts"]]
    assert attempts == [("duel", [2, 4]), ("duel", [3, 0]), ("solo", [1])]
    final = replay_oss(read("two-duels.jsonl"))
    assert final.census()[3]["won"] == [4]  # seat 0 kept seat 3's 4
    assert final.census()[0]["out"] == [1]


def test_replays_are_limited_per_player_by_default() -> None:
    engine = replay_oss(text(prefix("replays-per-player.jsonl", 12)))
    # Seat 0 failed a third time: no replay offered, its 3 is out, seat 1 is next.
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "result"}
    assert engine.replays_left(0) == 0
    assert engine.replays_left(1) == 2
    assert engine.census()[0]["out"] == [1, 1, 3]
    assert engine.hand_of(0) == (2, 2)


def test_a_third_replay_is_refused() -> None:
    lines = [*prefix("replays-per-player.jsonl", 12), '{"seat": 0, "replay": 2}']
    assert refusal(text(lines)) == (
        "line 13: seat 0 cannot replay: no more than 2 replays per round, and seat 0 has used them"
    )


def test_replays_table_scope_counts_the_whole_table() -> None:
    engine = replay_oss(text(prefix("replays-table-scope.jsonl", 13)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 0, "expects": "challenge"}
    assert engine.replays_left(1) == 0
    lines = [*prefix("replays-table-scope.jsonl", 13), '{"seat": 1, "replay": 3}']
    assert refusal(text(lines)) == (
        "line 14: seat 1 cannot replay: no more than 2 replays per round at the table, "
        "and all are used"
    )


def test_replay_needs_a_card_in_hand_and_only_follows_a_failure() -> None:
    lines = [*prefix("replays-per-player.jsonl", 8), '{"seat": 0, "replay": 4}']
    assert refusal(text(lines)) == "line 9: seat 0 has no tribe card of value 4 in hand to discard"
    lines = [*prefix("replays-per-player.jsonl", 6), '{"seat": 0, "replay": 1}']
    assert refusal(text(lines)) == (
        "line 7: seat 0 cannot replay now: a replay is only offered after a failure"
    )
    won = [*prefix("solo-basics.jsonl", 11), '{"seat": 1, "replay": 1}']
    assert refusal(text(won)) == (
        "line 12: seat 1 cannot replay now: a replay is only offered after a failure"
    )


def test_duel_loser_replays_and_the_duel_restarts() -> None:
    engine = replay_oss(text(prefix("duel-replay.jsonl", 9)))
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 0, "expects": "result"}
    assert engine.duel_winner is None
    engine = replay_oss(read("duel-replay.jsonl"))
    places = engine.census()
    assert places[1]["won"] == [4]
    assert places[0]["out"] == [1, 2]
    assert places[1]["out"] == [1]
    assert engine.report()["rounds"][0]["replays"] == [1, 1]


def test_challenge_eliminations_and_new_chief() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 20)))
    assert engine.challenge_remaining == (0, 1)
    assert [a.to_json() for a in engine.legal_actions(2)] == []
    lines = [*prefix("duel-and-keep.jsonl", 20), '{"seat": 2, "result": "lost"}']
    assert refusal(text(lines)) == "line 21: seat 2 is already eliminated from the challenge"
    lines = [*prefix("duel-and-keep.jsonl", 20), '{"seat": 0, "result": "tie"}']
    assert "a challenge has no tie" in refusal(text(lines))
    final = replay_oss(read("duel-and-keep.jsonl"))
    assert final.chief == 1
    assert final.snapshot().seats[1].challenges == ("BadabOss",)


def test_full_game_chief_draws_and_no_draw_after_the_last_round() -> None:
    engine = replay_oss(text(prefix("full-game-2p.jsonl", 11)))
    assert engine.chief == 1
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "draw"}  # first from the chief
    assert engine.legal_actions(0) != []  # draws come in any order
    engine = replay_oss(text(prefix("full-game-2p.jsonl", 15)))
    assert engine.round == 2
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "reveal"}
    final = replay_oss(read("full-game-2p.jsonl"))
    assert final.census()[0] == {
        "hand": [1, 2, 3],
        "deck": [],
        "table": [],
        "won": [3, 4, 4],
        "out": [1, 2],
    }
    more = [*lines_of("full-game-2p.jsonl"), '{"seat": 0, "draw": 1}']
    assert refusal(text(more)) == ("line 47: the game is already over; nothing more can be played")


def test_hand_and_draw_must_fit_the_tribe() -> None:
    bad = [HEADER_2P, '{"seat": 0, "hand": [4, 4, 4, 1, 1]}']
    assert refusal(text(bad)) == "line 2: a tribe holds only two cards of value 4, not 3"
    twice = [HEADER_2P, HANDS_2P[0], HANDS_2P[0]]
    assert refusal(text(twice)) == "line 3: seat 0 has already registered its hand"
    draw = [*prefix("full-game-2p.jsonl", 11), '{"seat": 0, "draw": 4}']
    assert refusal(text(draw)) == (
        "line 12: seat 0's tribe deck holds no card of value 4 (left in it: 1, 2, 3)"
    )


def test_reveal_rules() -> None:
    base = [HEADER_2P, *HANDS_2P]
    early = [HEADER_2P, HANDS_2P[0], REVEAL_0]
    assert refusal(text(early)) == (
        "line 3: seat 0 cannot reveal the tricks now: "
        "the table waits for seat 1 to register their hand"
    )
    not_chief = [*base, REVEAL_0.replace('"seat": 0', '"seat": 1')]
    assert (
        refusal(text(not_chief)) == "line 4: seat 1 cannot reveal the tricks: it is seat 0's turn"
    )
    same_family = [*base, REVEAL_0.replace('"Numa"', '"Ehfel"')]
    assert "one of each solo family" in refusal(text(same_family))
    solo_as_duel = [*base, REVEAL_0.replace('"Kat!"', '"Polopo"')]
    assert refusal(text(solo_as_duel)) == "line 4: Polopo is a solo trick, not a duel trick"
    reused = [
        *prefix("full-game-2p.jsonl", 14),
        '{"seat": 1, "reveal": {"solo": ["Aslik", "Gurnia", "Glodoc"], "duel": "Kat!"}}',
    ]
    assert refusal(text(reused)) == (
        "line 15: Aslik was played in an earlier round and is out of the game"
    )
    loose = replay_oss(
        text([*base, '{"seat": 0, "reveal": {"solo": ["meja", "ASLIK", "numa"], "duel": "kat"}}'])
    )
    assert loose.solo_tricks == ("Aslik", "Numa", "Meja")
    assert loose.duel_trick == "Kat!"


def test_tribe_card_refusals() -> None:
    base = [HEADER_2P, *HANDS_2P, REVEAL_0]
    wrong_turn = [*base, '{"seat": 1, "tribe": 1, "trick": "Aslik"}']
    assert refusal(text(wrong_turn)) == (
        "line 5: seat 1 cannot play a tribe card: it is seat 0's turn"
    )
    not_in_hand = [
        *base,
        '{"seat": 0, "tribe": 4, "trick": "Aslik"}',
        '{"seat": 1, "tribe": 4, "trick": "Aslik"}',
    ]
    assert refusal(text(not_in_hand)) == "line 6: seat 1 has no tribe card of value 4 in hand"
    duel = [*base, '{"seat": 0, "tribe": 4, "trick": "Kat!"}']
    assert refusal(text(duel)) == (
        "line 5: Kat! is the duel trick: tribe cards go below one of the solo tricks "
        "(Aslik, Numa, Meja)"
    )
    absent = [*base, '{"seat": 0, "tribe": 4, "trick": "Wollo"}']
    assert refusal(text(absent)) == (
        "line 5: Wollo is not on the table; the solo tricks are Aslik, Numa, Meja"
    )


def test_result_refusals() -> None:
    lines = prefix("solo-basics.jsonl", 9)
    assert refusal(text([*lines, '{"seat": 1, "result": "tie"}'])) == (
        "line 10: a solo attempt is won or lost; only a duel can tie"
    )
    assert refusal(text([*lines, '{"seat": 0, "result": "won"}'])) == (
        "line 10: seat 0 cannot report a result: it is seat 1's turn"
    )
    duel = prefix("two-duels.jsonl", 13)
    assert refusal(text([*duel, '{"seat": 1, "result": "won"}'])) == (
        "line 14: seat 1 cannot report a result: the duel is between seat 2 and seat 4"
    )


def test_warnoss_is_removed_with_two_players() -> None:
    lines = [*prefix("full-game-2p.jsonl", 9), '{"seat": 0, "challenge": "WarnOss"}']
    assert refusal(text(lines)) == "line 10: WarnOss is removed from the deck with 2 players"
    engine = replay_oss(text(prefix("full-game-2p.jsonl", 9)))
    assert "WarnOss" not in [a.to_json()["challenge"] for a in engine.legal_actions(0)]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"seat": 0, "result": "success"}', '"result" must be "won", "lost" or "tie"'),
        ('{"seat": 0, "tribe": 3}', 'a "tribe" action needs a "trick"'),
        ('{"seat": 0, "tribe": 3, "trick": "Aslik", "keep": 3}', "exactly one verb"),
        ('{"seat": 0, "pass": false}', '"pass" must be true, not False'),
        ('{"seat": 2, "pass": true}', '"seat" must be a seat 0..1, not 2'),
        ('{"seat": 0, "hand": [1, 2, 3, 4]}', '"hand" must list the 5 tribe card values'),
        ('{"seat": 0, "tribe": 5, "trick": "Aslik"}', "must be a tribe card value 1..4, not 5"),
        ('{"seat": 0, "tribe": 2, "trick": "Tower"}', 'there is no trick called "Tower"'),
        ('{"seat": 0, "reveal": {"solo": ["Aslik", "Numa", "Meja"]}}', '"reveal" must be an'),
        ('{"seat": 0, "challenge": "Jenga"}', 'there is no challenge card called "Jenga"'),
        ('{"seat": 0, "throw": 3}', 'unknown action "throw"'),
    ],
)
def test_malformed_actions(line: str, message: str) -> None:
    got = refusal(text([HEADER_2P, *HANDS_2P, line]))
    assert got.startswith("line 4: ")
    assert message in got


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"replays": 3},
            'unknown option "replays" for oss; its options are: replay_scope, '
            "replays_per_round, rounds",
        ),
        ({"rounds": 5}, 'option "rounds" must be 1..4, not 5'),
        ({"rounds": True}, 'option "rounds" must be a whole number, not True'),
        ({"replay_scope": "seat"}, 'option "replay_scope" must be "player" or "table"'),
        ({"replays_per_round": -1}, 'option "replays_per_round" must be 0..8, not -1'),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    header = {
        "format": "table-record/1",
        "game": "oss",
        "players": 2,
        "options": options,
        "chief": 0,
    }
    got = refusal(json.dumps(header) + "\n")
    assert got.startswith("line 1: ")
    assert message in got
    with pytest.raises(BadOption):
        Oss.from_header(header)


def test_bad_headers() -> None:
    no_chief = '{"format": "table-record/1", "game": "oss", "players": 3, "options": {}}'
    assert 'no "chief"' in refusal(no_chief + "\n")
    seven = '{"format": "table-record/1", "game": "oss", "players": 7, "options": {}, "chief": 0}'
    assert "oss is for 2 to 6 players, not 7" in refusal(seven + "\n")


def test_header_round_trip_keeps_options() -> None:
    header = {
        "format": "table-record/1",
        "game": "oss",
        "players": 3,
        "options": {"rounds": 2, "replay_scope": "table"},
        "chief": 2,
    }
    engine = Oss.from_header(header)
    assert engine.header() == header
    assert Oss.from_header(engine.header()).header() == header


def test_refusal_changes_nothing() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 13)))
    before = (engine.snapshot(), engine.census(), engine.report(), engine.hand_of(1))
    for action in (
        Result(0, Outcome.WON),
        Tribe(1, 1, "Ehfel"),
        Challenge(0, "TargOss"),
        Hand(2, (1, 1, 2, 2, 3)),
        Reveal(0, ("Aslik", "Numa", "Meja"), "Kat!"),
    ):
        with pytest.raises(IllegalAction):
            engine.apply(action)
    with pytest.raises(MalformedAction):
        engine.apply(Result(7, Outcome.WON))
    assert (engine.snapshot(), engine.census(), engine.report(), engine.hand_of(1)) == before


def test_snapshot_shows_tricks_texts_and_counts_but_not_hands() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 8)))
    typed = engine.snapshot()
    assert [t.name for t in typed.tricks] == ["Ehfel", "Gurnia", "Ariac"]
    assert typed.duel is not None and typed.duel.kind is AttemptKind.DUEL
    assert [p.mode for p in typed.tricks[1].placements] == [PlacementMode.DUEL] * 2
    # The JSON form the display receives reads back to the same snapshot.
    assert OssSnapshot.from_json(json.loads(json.dumps(typed.to_json()))) == typed
    snap = typed.to_json()
    gurnia = snap["tricks"][1]
    assert gurnia["setup"].startswith("put the other hand with the fingers apart")
    assert gurnia["do"] == "push under the hand the jacks one by one."
    assert gurnia["placements"] == [
        {"seat": 0, "value": 2, "mode": "duel"},
        {"seat": 1, "value": 4, "mode": "duel"},
    ]
    assert snap["duel"]["name"] == "Bagi!" and snap["duel"]["style"] == "simultaneously"
    assert [s["hand_size"] for s in snap["seats"]] == [4, 4, 5]
    assert [s["replays_left"] for s in snap["seats"]] == [2, 2, 2]
    assert snap["next"] == {"seat": 2, "expects": "tribe"}
    assert "hand" not in json.dumps(snap["seats"]).replace("hand_size", "")
    assert all(shown(r) for r in RULINGS)


def test_a_partial_snapshot_still_reads() -> None:
    # The display may get an odd picture (an old log, a hand-made test view): defaults fill in.
    snap = OssSnapshot.from_json({"phase": "bogus", "seats": [{"seat": 1, "won": [2, "x"]}]})
    assert snap.phase is Phase.HAND
    assert snap.seats[0].won == (2,) and snap.current_attempt is None


def test_cards_data() -> None:
    assert len(oss_cards.TRICKS) == 20
    for number in (1, 2, 3, oss_cards.DUEL):
        assert len(oss_cards.family(number)) == 5
    assert all(card.setup and card.do for card in oss_cards.TRICKS)
    assert [c.name for c in oss_cards.CHALLENGES] == [
        "BadabOss",
        "Kiri KanOss",
        "Los LobOss",
        "TargOss",
        "WarnOss",
    ]
    assert len(oss_cards.challenges_for(2)) == 4
    assert len(oss_cards.challenges_for(3)) == 5
    assert oss_cards.trick_name("bola bola") == "Bola-Bola!"


# --- the command line ------------------------------------------------------------------


def test_cli_replays_a_record_as_json() -> None:
    done = run_cli_here("replay", "--json", str(RECORDS / "full-game-2p.jsonl"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "oss" and out["players"] == 2
    assert out["totals"] == [19, 16] and out["winners"] == [0] and out["next"] is None
    assert [r["scores"] for r in out["rounds"]] == [[4, 5], [8, 0], [7, 3], [0, 8]]
    sheet = run_cli_here("replay", str(RECORDS / "full-game-2p.jsonl"))
    assert sheet.returncode == 0
    assert "Winner: Seat 1" in sheet.stdout  # the sheet counts seats from 1


@pytest.mark.parametrize(
    ("lines", "start"),
    [
        ([HEADER_2P, *HANDS_2P, REVEAL_0, '{"seat": 1, "tribe": 1, "trick": "Aslik"}'], "line 5: "),
        ([HEADER_2P, *HANDS_2P, REVEAL_0, '{"seat": 0, "tribe": 4, "trick": "Kat!"}'], "line 5: "),
        ([HEADER_2P.replace("{}", '{"bonus": 1}')], "line 1: "),
        ([HEADER_2P, *HANDS_2P, '{"seat": 0, "result": "success"}'], "line 4: "),
        ([*lines_of("replays-per-player.jsonl")[:12], '{"seat": 0, "replay": 2}'], "line 13: "),
    ],
)
def test_cli_refusals_exit_2_with_one_line(lines: list[str], start: str) -> None:
    done = run_cli_here("replay", "--json", "-", stdin=text(lines))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(start)
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


# --- seeded random games ------------------------------------------------------------------


def random_game(seed: int) -> tuple[Oss, list[Any]]:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    options: dict[str, Any] = {}
    if rng.random() < 0.3:
        options["replay_scope"] = "table"
    if rng.random() < 0.3:
        options["replays_per_round"] = rng.randint(0, 4)
    if rng.random() < 0.2:
        options["rounds"] = rng.randint(1, 4)
    header = {
        "format": "table-record/1",
        "game": "oss",
        "players": players,
        "options": options,
        "chief": rng.randrange(players),
    }
    engine = Oss.from_header(header)
    bots = [OssBot(random.Random(seed * 31 + s), rng.random()) for s in range(players)]
    skills = [bot.skill for bot in bots]
    actions = []
    while (expected := engine.expected) is not None:
        action = chance_action(engine, rng)
        if action is None:
            if expected.expects == "result":
                action = simulate_result(engine, skills, rng)
            else:
                action = bots[expected.seat].choose(engine, expected.seat)
        if expected.expects != "reveal":  # listing every reveal is slow; checked below
            assert action in engine.legal_actions(action.seat), (seed, action)
        engine.apply(action)
        actions.append(action)
        census_ok(engine)
        assert len(actions) < 2000
    return engine, actions


@pytest.mark.slow  # over 5 s on 2 cores
def test_seeded_random_games() -> None:
    for seed in range(300):
        engine, actions = random_game(seed)
        report = engine.report()
        assert report["finished"] and report["next"] is None
        assert len(report["rounds"]) == engine.rounds
        # score = won tribe card values + 4 per challenge card
        snap = engine.snapshot()
        for seat in snap.seats:
            assert seat.score == sum(seat.won) + 4 * len(seat.challenges)
            assert seat.score == report["totals"][seat.seat]
        assert sum(len(s.challenges) for s in snap.seats) == engine.rounds
        assert [sum(c) for c in zip(*(r["scores"] for r in report["rounds"]), strict=True)] == (
            report["totals"]
        )
        for places in engine.census():
            assert places["table"] == []
        again = replay_oss(dumps(engine.header(), actions))
        assert again.report() == report


def test_greedy_replays_never_leave_a_seat_without_a_card_to_play() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        players = 2 + seed % 5
        engine = Oss(players, 0, OssOptions.chosen("oss", replays_per_round=8))
        while (expected := engine.expected) is not None:
            action = chance_action(engine, rng)
            if action is None:
                legal = engine.legal_actions(expected.seat)
                assert legal, (seed, expected)
                if expected.expects == "result":
                    action = Result(
                        expected.seat, Outcome.LOST if rng.random() < 0.9 else Outcome.WON
                    )
                    if engine.phase is Phase.CHALLENGE_RESULT:
                        action = Result(expected.seat, Outcome.LOST)
                else:
                    action = legal[0]  # replays before pass: every replay is bought
            engine.apply(action)
            census_ok(engine)
        assert engine.report()["finished"]


def test_reveal_is_among_legal_actions() -> None:
    engine = Oss(3, 1)
    rng = random.Random(5)
    while engine.phase is Phase.HAND:
        hand = chance_action(engine, rng)
        assert isinstance(hand, Hand)
        engine.apply(hand)
    action = chance_action(engine, rng)
    assert isinstance(action, Reveal)
    legal = engine.legal_actions(1)
    assert len(legal) == 5**4
    assert action in legal
    assert engine.legal_actions(0) == []


def test_chance_actions_applies_everything_due_now() -> None:
    engine = Oss(3, 1)
    done = chance_actions(engine, random.Random(3))
    # Three hands and the reveal; then the chief must play a tribe card.
    assert [type(a) for a in done] == [Hand, Hand, Hand, Reveal]
    assert [a.seat for a in done] == [1, 2, 0, 1]
    assert engine.expected is not None
    assert engine.expected.to_json() == {"seat": 1, "expects": "tribe"}
    assert chance_action(engine, random.Random(3)) is None


def test_the_engine_deals_without_applying_and_as_chance_action_would() -> None:
    engine = Oss(3, 1)
    before = engine.snapshot()
    dealt = engine.chance_actions(random.Random(3), Chance())
    assert engine.snapshot() == before  # worked out from the state, nothing applied
    stepped = Oss(3, 1)
    rng = random.Random(3)
    one_by_one = []
    while (action := chance_action(stepped, rng)) is not None:
        stepped.apply(action)
        one_by_one.append(action)
    assert dealt == one_by_one
    assert engine.chance_actions(random.Random(3), Chance(cards=False)) == []


# --- counts, the tribe rule and timed tosses -------------------------------------------------

KAT_DUEL = [
    HEADER_2P,
    *HANDS_2P,
    REVEAL_0,
    '{"seat": 0, "tribe": 2, "trick": "Numa"}',
    '{"seat": 1, "tribe": 3, "trick": "Numa"}',
]


def test_counts_are_judged_by_the_engine() -> None:
    engine = replay_oss(text(KAT_DUEL))
    assert Counts(1, (2, 2)) in engine.legal_actions(1)
    events = engine.apply(engine.parse_action({"seat": 1, "counts": [2, 2]}))
    assert [type(e).__name__ for e in events] == ["DuelCounted", "DuelTied"]
    events = engine.apply(engine.parse_action({"seat": 1, "counts": [-1, 0]}))
    # Failed (-1) loses to any count: seat 1 (the second duelist) wins.
    assert DuelResult(1, 0) in events
    assert engine.duel_winner == 1 and engine.phase is Phase.REPLAY


def test_counts_equal_the_result_they_mean() -> None:
    counted = text([*KAT_DUEL, '{"seat": 0, "counts": [4, 1]}', '{"seat": 1, "pass": true}'])
    reported = text([*KAT_DUEL, '{"seat": 0, "result": "won"}', '{"seat": 1, "pass": true}'])
    assert replay_oss(counted).report() == replay_oss(reported).report()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"seat": 0, "counts": [7, 1]}'], "a count must be -1 (failed) to 6 jacks"),
        (['{"seat": 0, "counts": [1]}'], "must list the two duelists' counts"),
        (['{"seat": 0, "timed": -5}'], '"timed" must be a toss time in milliseconds'),
    ],
)
def test_counts_and_times_are_checked(lines: list[str], message: str) -> None:
    assert message in refusal(text([*KAT_DUEL, *lines]))


def test_counts_only_for_a_most_jacks_duel() -> None:
    other = REVEAL_0.replace("Kat!", "Naik!")
    engine = replay_oss(text([*KAT_DUEL[:3], other, *KAT_DUEL[4:]]))
    with pytest.raises(IllegalAction, match="Naik! is not won by the most jacks"):
        engine.apply(Counts(0, (3, 1)))
    assert all(not isinstance(a, Counts) for a in engine.legal_actions(0))


def test_the_engine_decides_which_tribe_a_seat_may_tap() -> None:
    engine = replay_oss(text(KAT_DUEL[:4]))
    engine.check_tribe(0, 1)
    with pytest.raises(IllegalAction, match="seat 0 plays tribe 1"):
        engine.check_tribe(0, 2)
    engine = replay_oss(
        text([*KAT_DUEL, '{"seat": 0, "counts": [4, 1]}', '{"seat": 1, "pass": true}'])
    )
    assert engine.phase is Phase.KEEP
    engine.check_tribe(0, 2)  # the winner keeps the opponent's card
    with pytest.raises(IllegalAction, match="T2 or T3"):
        _keep_phase_three().check_tribe(2, 1)


def _keep_phase_three() -> Oss:
    """A three-seat game where seat 2 won a duel against seat 1 and keeps a card."""
    lines = [
        '{"format": "table-record/1", "game": "oss", "players": 3, "options": {}, "chief": 1}',
        '{"seat": 0, "hand": [1, 2, 3, 4, 4]}',
        '{"seat": 1, "hand": [1, 1, 2, 2, 3]}',
        '{"seat": 2, "hand": [1, 1, 2, 2, 3]}',
        REVEAL_0.replace('"seat": 0', '"seat": 1'),
        '{"seat": 1, "tribe": 2, "trick": "Numa"}',
        '{"seat": 2, "tribe": 3, "trick": "Numa"}',
        '{"seat": 0, "tribe": 4, "trick": "Meja"}',
        '{"seat": 2, "counts": [0, 5]}',
        '{"seat": 1, "pass": true}',
    ]
    engine = replay_oss(text(lines))
    assert engine.phase is Phase.KEEP
    return engine


def test_timed_tosses_are_logged_and_never_expected() -> None:
    engine = replay_oss(text(KAT_DUEL))
    assert engine.timed_seat == 0
    engine.apply(Timed(0, 1500))
    assert engine.timed_seat == 1 and engine.expected is not None
    assert engine.expected.expects == "result"  # a time changes no turn
    with pytest.raises(IllegalAction, match="seat 1 cannot record a timed toss now"):
        replay_oss(text(KAT_DUEL[:4])).apply(Timed(1, 100))
    engine.apply(Timed(1, 1200))
    engine.apply(Timed(0, 1400))
    assert engine.bests == {0: 1400, 1: 1200}
    assert engine.tosses[0].to_json() == {
        "seat": 0,
        "millis": 1500,
        "round": 1,
        "trick": "Kat!",
    }
    assert all(not isinstance(a, Timed) for a in engine.legal_actions(0))


def test_chance_actions_are_deterministic_per_seed() -> None:
    def record(seed: int) -> str:
        engine = Oss(4, 0)
        bots = [OssBot(random.Random(s), 0.6) for s in range(4)]
        return dumps(engine.header(), play_out(engine, bots, random.Random(seed)))

    assert record(11) == record(11)
    assert record(11) != record(12)


# --- the bot ---------------------------------------------------------------------------------


def test_bot_decisions_are_legal_and_sensible() -> None:
    engine = replay_oss(text(prefix("duel-and-keep.jsonl", 14)))
    bot = OssBot(random.Random(0), 0.7)
    keep = bot.choose(engine, 0)
    assert keep.to_json() == {"seat": 0, "keep": 4}  # the higher card
    assert keep in engine.legal_actions(0)
    with pytest.raises(ValueError, match="no decision"):
        bot.choose(Oss(3, 0), 0)
    with pytest.raises(ValueError):
        OssBot(random.Random(0), 1.5)


def test_bot_in_the_last_round_always_replays() -> None:
    lines = [*prefix("full-game-2p.jsonl", 41), '{"seat": 0, "result": "lost"}']
    engine = replay_oss(text(lines))
    assert engine.phase is Phase.REPLAY
    action = OssBot(random.Random(0), 0.1).choose(engine, 0)
    assert action.to_json() == {
        "seat": 0,
        "replay": 1,
    }  # the cheapest card; hands are worthless now


def test_skill_odds() -> None:
    assert solo_chance(0.9, 1) > solo_chance(0.9, 4) > solo_chance(0.2, 4)
    assert 0.0 < solo_chance(0.0, 4) < 0.1
    assert duel_chance(0.9, 0.1) > 0.5 > duel_chance(0.1, 0.9)


def test_skilled_bots_score_more() -> None:
    totals = [0, 0]
    for seed in range(60):
        engine = Oss(2, seed % 2)
        bots = [OssBot(random.Random(seed), 0.95), OssBot(random.Random(seed + 1), 0.15)]
        play_out(engine, bots, random.Random(seed))
        for seat, points in enumerate(engine.totals()):
            totals[seat] += points
    assert totals[0] > totals[1] * 1.5


def test_a_count_line_confirms_one_count_and_changes_no_result() -> None:
    from controller.games.oss.engine import Count, CountConfirmed

    header = {"format": "table-record/1", "game": "oss", "players": 2, "options": {}, "chief": 0}
    start = [
        {"seat": 0, "hand": [1, 2, 3, 4, 4]},
        {"seat": 1, "hand": [1, 1, 2, 3, 3]},
        {"seat": 0, "reveal": {"solo": ["Aslik", "Numa", "Meja"], "duel": "Kat!"}},
        {"seat": 0, "tribe": 4, "trick": "Aslik"},
        {"seat": 1, "tribe": 3, "trick": "Aslik"},
    ]
    counts = {"seat": 1, "counts": [2, 5]}
    plain = replay(dumps(header, [*start, counts]))
    engine = replay(dumps(header, start))
    assert isinstance(engine, Oss)
    line = {"seat": 0, "count": 2, "of": 0}
    action = engine.parse_action(line)
    assert action == Count(0, 0, 2) and action.to_json() == line
    assert engine.apply(action) == [CountConfirmed(0, 0, 2)]
    assert engine.confirmed_counts == {0: 2}
    assert action not in engine.legal_actions(0)  # never expected, as a timed toss
    with_count = replay(dumps(header, [*start, line, counts]))
    assert with_count.report() == plain.report()
    assert with_count.snapshot() == plain.snapshot()
    refusals = [
        ({"seat": 0, "count": 2}, 'needs "of"'),
        ({"seat": 0, "count": 7, "of": 0}, "count"),
    ]
    for bad, words in refusals:
        with pytest.raises(MalformedAction, match=words):
            engine.parse_action(bad)
