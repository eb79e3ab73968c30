"""Oh Pshaw: every rule and option through game records, the CLI, random games and the bot."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from controller.games.base import Action, BadOption, Expectation, IllegalAction, MalformedAction
from controller.games.oh_pshaw.actions import Bid, Play, RegisterHand, TurnTrump, Verb
from controller.games.oh_pshaw.bots import OhPshawBot
from controller.games.oh_pshaw.cards import CARD_NAMES, parse_card
from controller.games.oh_pshaw.engine import OhPshaw, deal
from controller.games.oh_pshaw.events import (
    BiddingClosed,
    BidStatus,
    RenegeProven,
    RoundScored,
    TieBreak,
    TrickWon,
)
from controller.games.oh_pshaw.options import default_max_hand
from controller.games.oh_pshaw.snapshot import OhPshawSnapshot
from controller.games.oh_pshaw.state import FREE
from controller.records import scoresheet
from controller.records.record import RecordError, dumps, replay
from tests.conftest import run_cli_here

RECORDS = Path(__file__).parents[2] / "records" / "oh-pshaw"


def header(players: int = 3, dealer: int = 0, **options: Any) -> dict[str, Any]:
    return {
        "format": "table-record/1",
        "game": "oh-pshaw",
        "players": players,
        "options": options,
        "dealer": dealer,
    }


def record(head: dict[str, Any], *lines: dict[str, Any]) -> str:
    return dumps(head, lines)


def report(head: dict[str, Any], *lines: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = replay(record(head, *lines)).report()
    return result


def replayed(text: str) -> OhPshaw:
    """Replay a record and return the Oh Pshaw engine at its end."""
    e = replay(text)
    assert isinstance(e, OhPshaw)
    return e


def refused(head: dict[str, Any], *lines: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replayed(record(head, *lines))
    return caught.value


def engine(players: int = 3, dealer: int = 0, **options: Any) -> OhPshaw:
    return OhPshaw.from_header(header(players, dealer, **options))


def H(seat: int, *cards: str) -> dict[str, Any]:
    return {"seat": seat, "hand": list(cards)}


def T(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "trump": card}


def B(seat: int, bid: int) -> dict[str, Any]:
    return {"seat": seat, "bid": bid}


def P(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "play": card}


# A 3-player, 2-card round dealt by seat 0 (hearts trump) used by many tests.
ROUND2 = (
    H(1, "AS", "3D"),
    H(2, "KS", "4H"),
    H(0, "2S", "QD"),
    T(0, "9H"),
)


# --- golden records -------------------------------------------------------------------

GOLDEN: dict[str, dict[str, Any]] = {
    "basic-3p.jsonl": {
        "finished": True,
        "rounds": [
            {"scores": [0, 0, 10], "bids": [0, 1, 0], "tricks": [1, 0, 0], "trump": "H",
             "hand_size": 1, "dealer": 0, "turned": "5H", "status": "equal", "reneges": []},
            {"scores": [0, 0, 11], "bids": [1, 0, 1], "tricks": [0, 1, 1], "trump": "C",
             "hand_size": 2, "dealer": 1, "turned": "7C", "status": "equal", "reneges": []},
        ],
        "totals": [0, 0, 21],
        "winners": [2],
        "next": None,
    },
    "tie-break.jsonl": {
        "finished": True,
        "rounds": [
            {"scores": [10, 0, 10], "bids": [0, 0, 0], "tricks": [0, 1, 0], "trump": "D",
             "hand_size": 1, "dealer": 0, "turned": "9D", "status": "under", "reneges": []},
            {"scores": [12, 0, 10], "bids": [2, 0, 0], "tricks": [2, 0, 0], "trump": "H",
             "hand_size": 2, "dealer": 1, "turned": "9H", "status": "equal", "reneges": [],
             "tie_break": True, "tied": [0, 2]},
        ],
        "totals": [22, 0, 20],
        "winners": [0],
        "next": None,
    },
    "renege.jsonl": {
        "finished": True,
        "rounds": [
            {"scores": [10, 0, -5], "bids": [0, 1, 1], "tricks": [0, 2, 0], "trump": "C",
             "hand_size": 2, "dealer": 0, "turned": "2C", "status": "equal",
             "reneges": [{"seat": 2, "trick": 1}]},
        ],
        "totals": [10, 0, -5],
        "winners": [0],
        "next": None,
    },
    "early-end.jsonl": {
        "finished": False,
        "rounds": [
            {"scores": [11, 10, 10, 10], "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0],
             "trump": "S", "hand_size": 1, "dealer": 3, "turned": "TS", "status": "equal",
             "reneges": []},
            {"scores": [1, 0, 0, 0], "bids": [0, 1, 0, 0], "tricks": [1, 0, 0, 0], "trump": "H",
             "hand_size": 2, "dealer": 0, "turned": "TH", "status": "under", "reneges": []},
        ],
        "totals": [12, 10, 10, 10],
        "winners": [0],
        "next": {"seat": 0, "expects": "play"},
    },
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_record_replays_to_its_report(name: str) -> None:
    result = replay((RECORDS / name).read_text(encoding="utf-8")).report()
    assert result == GOLDEN[name]


def test_cli_prints_the_spec_json() -> None:
    done = run_cli_here("replay", "--json", str(RECORDS / "basic-3p.jsonl"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert list(out) == ["game", "players", "finished", "rounds", "totals", "winners", "next"]
    assert out["game"] == "oh-pshaw" and out["players"] == 3
    assert {k: out[k] for k in GOLDEN["basic-3p.jsonl"]} == GOLDEN["basic-3p.jsonl"]


def test_cli_prints_a_score_sheet() -> None:
    done = run_cli_here("replay", str(RECORDS / "tie-break.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "Oh Pshaw - 3 players - finished" in done.stdout
    # People count seats from 1 on the sheet; --json keeps the record's seat 0.
    assert "Winner: Seat 1" in done.stdout
    assert "Round 2" in done.stdout and "Total" in done.stdout


def test_cli_refuses_a_bad_record_with_exit_2_and_one_line() -> None:
    text = record(header(), T(0, "5H"), B(2, 0))
    done = run_cli_here("replay", "--json", "-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "line 3: seat 2 cannot bid now: it is seat 1's turn to bid"
    assert "Traceback" not in done.stderr


def test_cli_refuses_a_bad_option() -> None:
    done = run_cli_here("replay", "-", stdin=record(header(colour="red")))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith('line 1: unknown option "colour" for oh-pshaw')
    assert "Traceback" not in done.stderr


# --- dealing, turning and bidding -----------------------------------------------------


def test_the_deal_passes_left_and_the_eldest_bids_first_and_leads() -> None:
    e = engine(4, dealer=2, schedule=[1, 1, 1, 1, 1], rotating_trump=True, max_hand=1)
    dealers = []
    rng = random.Random(3)
    for _ in range(5):
        rnd = e.round
        dealers.append(rnd.dealer)
        assert e.expected is not None
        assert (e.expected.seat, e.expected.expects) == ((rnd.dealer + 1) % 4, "bid")
        for action in deal(e, rng):
            e.apply(action)
        for k in range(4):
            e.apply(Bid((rnd.dealer + 1 + k) % 4, 0 if k else 1))
        assert e.expected is not None
        assert (e.expected.seat, e.expected.expects) == ((rnd.dealer + 1) % 4, "play")
        for k in range(4):
            seat = (rnd.dealer + 1 + k) % 4
            e.apply(e.legal_actions(seat)[0])
    assert dealers[:5] == [2, 3, 0, 1, 2]


def test_the_turned_card_may_come_during_the_bidding_and_is_awaited_after_it() -> None:
    # As in the spec's replay example, bidding opens with the eldest hand at once.
    result = report(header(3, dealer=1))
    assert result["next"] == {"seat": 2, "expects": "bid"}
    assert result["rounds"][0]["trump"] is None
    after = report(header(3, dealer=1), T(1, "QD"))
    assert after["next"] == {"seat": 2, "expects": "bid"}
    assert after["rounds"][0]["trump"] == "D" and after["rounds"][0]["turned"] == "QD"
    late = report(header(3, dealer=1), B(2, 0), T(1, "QD"), B(0, 1))
    assert late["next"] == {"seat": 1, "expects": "bid"}  # the dealer bids last
    assert late["rounds"][0]["trump"] == "D"
    # The bidding closed without the turned card: now the table waits for it.
    waiting = report(header(3, dealer=1, schedule=[1]), B(2, 0), B(0, 1), B(1, 0))
    assert waiting["next"] == {"seat": 1, "expects": "trump"}
    played = report(header(3, dealer=1, schedule=[1]), B(2, 0), B(0, 1), B(1, 0), T(1, "QD"))
    assert played["next"] == {"seat": 2, "expects": "play"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            (B(1, 0), B(2, 0), B(0, 0), T(0, "5H"), P(1, "AS"), T(0, "6H")),
            "line 7: the trump card for this round is already turned (5H)",
        ),
        ((T(1, "5H"),), "line 2: seat 1 cannot turn the trump card: seat 0 deals this round"),
        ((T(0, "5H"), T(0, "6H")), "line 3: the trump card for this round is already turned (5H)"),
        (
            (B(1, 0), B(2, 0), B(0, 0), P(1, "AS")),
            "line 5: seat 1 cannot play AS: seat 0 must turn the trump card first",
        ),
        (
            (T(0, "5H"), B(1, 0), P(1, "AS")),
            "line 4: seat 1 cannot play AS: the bidding is not over (seat 2 bids next)",
        ),
        ((H(1, "AS"), T(0, "AS")), "line 3: AS cannot be the turned card: it is in seat 1's"),
    ],
)
def test_trump_at_the_wrong_time_is_refused(lines: Sequence[dict[str, Any]], message: str) -> None:
    assert str(refused(header(3, schedule=[1]), *lines)).startswith(message)


def test_no_card_is_turned_when_the_whole_deck_is_dealt() -> None:
    result = report(header(4, dealer=0, schedule=[13]))
    assert result["next"] == {"seat": 1, "expects": "bid"}
    err = refused(header(4, dealer=0, schedule=[13]), T(0, "2C"))
    assert str(err) == (
        "line 2: no card is turned this round: the whole deck is dealt and there is no trump"
    )
    e = engine(4, schedule=[13])
    for action in deal(e, random.Random(1)):
        assert not isinstance(action, TurnTrump)
        e.apply(action)
    assert e.snapshot().trump is None


def test_bids_run_from_zero_to_the_hand_size() -> None:
    assert str(refused(header(3, schedule=[2]), T(0, "5H"), B(1, 3))) == (
        "line 3: seat 1 cannot bid 3: this round has 2 tricks, so a bid is 0..2"
    )
    assert "cannot bid -1" in str(refused(header(3, schedule=[2]), T(0, "5H"), B(1, -1)))
    e = engine(3, schedule=[2])
    e.apply(TurnTrump(0, "5H"))
    assert [a.bid for a in e.legal_actions(1) if isinstance(a, Bid)] == [0, 1, 2]
    assert e.legal_actions(2) == []


def test_no_hook_by_default_the_dealer_may_make_the_bids_equal() -> None:
    result = report(header(3, schedule=[2]), T(0, "5H"), B(1, 1), B(2, 0), B(0, 1))
    assert result["rounds"][0]["status"] == "equal"
    assert result["next"] == {"seat": 1, "expects": "play"}


def test_the_hook_forbids_the_dealer_the_bid_that_makes_the_total() -> None:
    head = header(3, schedule=[2], hook=True)
    err = refused(head, T(0, "5H"), B(1, 1), B(2, 0), B(0, 1))
    assert str(err) == (
        "line 5: seat 0 (the dealer) cannot bid 1: with the hook the bids may not add up "
        "to the 2 tricks"
    )
    e = replayed(record(head, T(0, "5H"), B(1, 1), B(2, 0)))
    assert [a.bid for a in e.legal_actions(0) if isinstance(a, Bid)] == [0, 2]
    assert e.snapshot().hook_forbids == 1
    # Only the dealer is hooked: seat 1 may bid anything.
    first = replayed(record(head, T(0, "5H")))
    assert len(first.legal_actions(1)) == 3
    # When the others already bid more than the tricks, nothing is forbidden.
    over = replayed(record(head, T(0, "5H"), B(1, 2), B(2, 2)))
    assert [a.bid for a in over.legal_actions(0) if isinstance(a, Bid)] == [0, 1, 2]


@pytest.mark.parametrize(
    ("bids", "status"), [((1, 1, 1), "over"), ((0, 1, 0), "under"), ((1, 0, 1), "equal")]
)
def test_over_under_equal_is_announced_after_the_bidding(
    bids: tuple[int, int, int], status: str
) -> None:
    e = engine(3, schedule=[2])
    e.apply(TurnTrump(0, "5H"))
    assert e.snapshot().status is None
    events = []
    for seat, bid in zip((1, 2, 0), bids, strict=True):
        events += e.apply(Bid(seat, bid))
    closed = [ev for ev in events if isinstance(ev, BiddingClosed)]
    assert len(closed) == 1 and closed[0].status == status and closed[0].total == sum(bids)
    assert e.snapshot().status == status
    assert e.report()["rounds"][0]["status"] == status


# --- playing --------------------------------------------------------------------------


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    head = header(4, schedule=[3])
    lines = (
        H(1, "5S", "2D", "AC"),
        H(2, "KS", "9D", "3C"),
        H(3, "AS", "2H", "4C"),
        H(0, "QS", "3H", "KC"),
        T(0, "5H"),
        B(1, 0), B(2, 0), B(3, 0), B(0, 0),
        # Trick 1: spades led, no trump: the ace of spades (seat 3) wins.
        P(1, "5S"), P(2, "KS"), P(3, "AS"), P(0, "QS"),
        # Trick 2: seat 3 leads the 2 of trumps; nobody else has a heart but seat 0.
        P(3, "2H"), P(0, "3H"), P(1, "2D"), P(2, "9D"),
        # Trick 3: seat 0 leads clubs; the ace of clubs wins, off-suit cards cannot.
        P(0, "KC"), P(1, "AC"), P(2, "3C"), P(3, "4C"),
    )  # fmt: skip
    e = replayed(record(head, *lines))
    assert e.rounds[0].tricks == [1, 1, 0, 1]
    winners = []
    e2 = OhPshaw.from_header(head)
    for line in lines:
        for event in e2.apply(e2.parse_action(line)):
            if isinstance(event, TrickWon):
                winners.append(event.seat)
    assert winners == [3, 0, 1]


def test_an_off_suit_ace_does_not_beat_a_low_card_of_the_led_suit() -> None:
    assert OhPshaw.trick_winner([(0, 13 + 0), (1, 12)], trump=2) == 0  # 2H led, AS discarded
    assert OhPshaw.trick_winner([(0, 12), (1, 13 * 3)], trump=3) == 1  # 2C trumps AS
    assert OhPshaw.trick_winner([(0, 12), (1, 13 * 3)], trump=None) == 0


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((P(2, "KS"),), "line 9: seat 2 cannot play KS: it is seat 1's turn"),
        ((P(1, "KS"),), "line 9: seat 1 cannot play KS: it is in seat 2's registered hand"),
        ((P(1, "7C"),), "line 9: seat 1 cannot play 7C: it is not in the seat's hand"),
        ((P(1, "9H"),), "line 9: seat 1 cannot play 9H: it is the turned trump card"),
        (
            (P(1, "AS"), P(2, "4H")),
            "line 10: seat 2 cannot play 4H: it must follow spades while it holds KS",
        ),
        (
            (P(1, "AS"), P(2, "KS"), P(0, "2S"), P(1, "AS")),
            "line 12: seat 1 cannot play AS: it has already been played this round",
        ),
        ((P(1, "1S"),), 'line 9: "1S" is not a card'),
        ((P(1, "as"),), 'line 9: "as" is not a card'),
        (({"seat": 1, "play": 7},), "line 9: 7 is not a card"),
    ],
)
def test_refused_plays_with_registered_hands(lines: Sequence[dict[str, Any]], message: str) -> None:
    head = header(3, schedule=[2])
    bids = (B(1, 1), B(2, 0), B(0, 1))
    assert str(refused(head, *ROUND2, *bids, *lines)).startswith(message)


def test_a_card_can_be_written_with_10() -> None:
    assert parse_card("10H") == "TH"
    assert parse_card("TH") == "TH"
    with pytest.raises(MalformedAction):
        parse_card("1H")
    e = replayed(record(header(3, schedule=[1]), T(0, "10D")))
    assert e.snapshot().trump_card == "TD"


def test_without_hands_a_card_may_never_be_played_twice_and_must_be_real() -> None:
    head = header(3, schedule=[2])
    start = (T(0, "9H"), B(1, 0), B(2, 0), B(0, 0))
    err = refused(head, *start, P(1, "AS"), P(2, "AS"))
    assert str(err) == "line 7: seat 2 cannot play AS: it has already been played this round"
    err = refused(head, *start, P(1, "9H"))
    assert "it is the turned trump card" in str(err)
    err = refused(head, *start, P(1, "XS"))
    assert str(err).startswith('line 6: "XS" is not a card')


# --- hands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((H(1, "AS"),), "line 2: seat 1's hand must have 2 cards this round, not 1"),
        ((H(1, "AS", "AS"),), "line 2: AS is in seat 1's hand twice"),
        ((H(1, "AS", "2C"), H(2, "AS", "3C")), "line 3: AS is already in seat 1's registered hand"),
        ((T(0, "AS"), H(1, "AS", "2C")), "line 3: AS is the turned trump card"),
        ((H(1, "AS", "2C"), H(1, "3S", "4C")), "line 3: seat 1 has already registered its hand"),
        (
            (T(0, "9H"), B(1, 0), B(2, 0), B(0, 0), P(1, "AS"), H(1, "AS", "2C")),
            "line 7: seat 1 cannot register a hand now: it has already played this round",
        ),
        (
            (T(0, "9H"), B(1, 0), B(2, 0), B(0, 0), P(1, "AS"), H(2, "AS", "2C")),
            "line 7: AS has already been played this round",
        ),
        (({"seat": 1, "hand": "AS 2C"},), 'line 2: "hand" must be a list of cards'),
        ((H(1, "AS", "ZZ"),), 'line 2: "ZZ" is not a card'),
    ],
)
def test_refused_hand_registrations(lines: Sequence[dict[str, Any]], message: str) -> None:
    assert str(refused(header(3, schedule=[2]), *lines)).startswith(message)


def test_a_hand_may_be_registered_late_before_the_seats_first_play() -> None:
    lines = (T(0, "9H"), B(1, 0), B(2, 0), B(0, 0), P(1, "AS"), H(2, "KS", "4H"))
    e = replayed(record(header(3, schedule=[2]), *lines))
    assert e.registered_hand(2) == ["KS", "4H"]
    assert [a.card for a in e.legal_actions(2) if isinstance(a, Play)] == ["KS"]


def test_registered_hand_and_legal_actions() -> None:
    e = replayed(record(header(3, schedule=[2]), *ROUND2, B(1, 1), B(2, 0), B(0, 1)))
    assert e.registered_hand(1) == ["AS", "3D"]  # deck order: spades, hearts, diamonds, clubs
    assert e.registered_hand(0) == ["2S", "QD"]
    assert [a.card for a in e.legal_actions(1) if isinstance(a, Play)] == ["AS", "3D"]
    e.apply(Play(1, "AS"))
    assert e.registered_hand(1) == ["3D"]
    # Must follow: seat 2 holds KS and 4H, spades were led.
    assert [a.card for a in e.legal_actions(2) if isinstance(a, Play)] == ["KS"]
    assert e.legal_actions(0) == []


def test_legal_actions_without_a_hand_list_every_card_it_could_hold() -> None:
    head = header(3, schedule=[2])
    e = replayed(record(head, H(2, "KS", "4H"), T(0, "9H"), B(1, 0), B(2, 0), B(0, 0)))
    cards = {a.card for a in e.legal_actions(1) if isinstance(a, Play)}
    assert cards == set(CARD_NAMES) - {"KS", "4H", "9H"}
    assert e.registered_hand(1) is None
    # Seat 0 fails to follow spades: spades leave its list (it would be a renege).
    e.apply(Play(1, "AS"))
    e.apply(Play(2, "KS"))
    e.apply(Play(0, "2D"))
    assert e.rounds[0].tricks == [0, 1, 0]
    later = {a.card for a in e.legal_actions(1) if isinstance(a, Play)}
    assert "AS" not in later and "2D" not in later and "3S" in later
    e.apply(Play(1, "3C"))
    e.apply(Play(2, "4H"))
    left = [a.card for a in e.legal_actions(0) if isinstance(a, Play)]
    assert left and not any(card.endswith("S") for card in left)


# --- reneges --------------------------------------------------------------------------


def test_a_renege_is_proven_by_a_later_card_of_the_suit() -> None:
    e = engine(3, schedule=[3], renege_penalty=10, round_winner_bonus=True)
    e.apply(TurnTrump(0, "2C"))
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        e.apply(Bid(seat, bid))
    for seat, card in ((1, "AH"), (2, "3D"), (0, "4H")):  # seat 2 shows out of hearts
        e.apply(Play(seat, card))
    assert e.report()["rounds"][0]["reneges"] == []
    for seat, card in ((1, "KS"), (2, "5D"), (0, "6S")):
        e.apply(Play(seat, card))
    events: list[Any] = []
    for seat, card in ((1, "QS"), (2, "7H")):  # a heart: the renege of trick 1 is proven
        events += e.apply(Play(seat, card))
    assert [ev for ev in events if isinstance(ev, RenegeProven)] == [RenegeProven(2, 1, "H")]
    assert e.report()["rounds"][0]["scores"] == [0, 0, -10]  # running: proven already
    events = e.apply(Play(0, "8S"))
    scored = next(ev for ev in events if isinstance(ev, RoundScored))
    # Seat 1 bid 1, took 3: 0. Seat 0 bid 0, took 0: 10 and the round-winner bonus.
    # Seat 2 bid 0 and took 0, but reneged: 0 - 10, and no bonus for it.
    assert scored.scores == (20, 0, -10)
    assert e.report()["rounds"][0]["reneges"] == [{"seat": 2, "trick": 1}]
    assert e.finished and e.report()["winners"] == [0]


def test_a_renege_with_a_registered_hand_is_refused_instead() -> None:
    err = refused(
        header(3, schedule=[2]), *ROUND2, B(1, 1), B(2, 0), B(0, 1), P(1, "AS"), P(2, "4H")
    )
    assert "must follow spades" in str(err)


def test_each_failure_to_follow_is_listed_and_the_penalty_counts_once() -> None:
    e = engine(3, schedule=[3], renege_penalty=3)
    e.apply(TurnTrump(0, "2C"))
    for seat in (1, 2, 0):
        e.apply(Bid(seat, 0))
    for seat, card in ((1, "AH"), (2, "3D"), (0, "4H")):
        e.apply(Play(seat, card))
    for seat, card in ((1, "KH"), (2, "5D"), (0, "6H")):
        e.apply(Play(seat, card))
    for seat, card in ((1, "QH"), (2, "7H"), (0, "8H")):
        e.apply(Play(seat, card))
    assert e.report()["rounds"][0]["reneges"] == [{"seat": 2, "trick": 1}, {"seat": 2, "trick": 2}]
    assert e.report()["rounds"][0]["scores"] == [10, 0, -3]


# --- scoring --------------------------------------------------------------------------


def one_round(players: int, hands: Sequence[Sequence[str]], bids: Sequence[int],
              **options: Any) -> OhPshaw:  # fmt: skip
    """Play a one-round game where every seat plays its hand's cards in order."""
    size = len(hands[0])
    e = engine(players, schedule=[size], **options)
    for seat, hand in enumerate(hands):
        e.apply(RegisterHand(seat, tuple(hand)))
    if e.expected is not None and e.expected.expects == "trump":
        used = {c for hand in hands for c in hand}
        e.apply(TurnTrump(0, next(c for c in CARD_NAMES if c not in used and c.endswith("C"))))
    for k in range(players):
        e.apply(Bid((1 + k) % players, bids[(1 + k) % players]))
    first = e.round
    while first.scores is None:
        assert e.expected is not None
        e.apply(e.legal_actions(e.expected.seat)[-1])
    return e


def test_standard_scoring_is_ten_plus_the_bid_when_exact() -> None:
    # Seat 1 leads AS, AH: takes both. Bids: seat 1 two (12), seat 2 zero (10), seat 0 one (0).
    e = one_round(3, [["2S", "2H"], ["AS", "AH"], ["3S", "3H"]], [1, 2, 0])
    assert e.rounds[0].scores == [0, 12, 10]


def test_mild_scoring_is_a_point_a_trick_plus_ten_when_exact() -> None:
    e = one_round(3, [["2S", "2H"], ["AS", "AH"], ["3S", "3H"]], [1, 1, 0], scoring="mild")
    assert e.rounds[0].scores == [0, 2, 10]


def test_the_round_winner_bonus_goes_to_the_highest_scorers() -> None:
    e = one_round(3, [["2S", "2H"], ["AS", "AH"], ["3S", "3H"]], [0, 2, 0],
                  round_winner_bonus=True)  # fmt: skip
    assert e.rounds[0].scores == [10, 22, 10]
    tied = one_round(3, [["2S", "2H"], ["AS", "AH"], ["3S", "3H"]], [0, 1, 0],
                     round_winner_bonus=True)  # fmt: skip
    assert tied.rounds[0].scores == [20, 0, 20]
    nobody = one_round(3, [["2S", "2H"], ["AS", "AH"], ["3S", "3H"]], [1, 1, 1],
                       round_winner_bonus=True)  # fmt: skip
    assert nobody.rounds[0].scores == [0, 0, 0]


def test_a_round_in_progress_shows_its_running_score() -> None:
    lines = (*ROUND2, B(1, 1), B(2, 0), B(0, 1), P(1, "AS"), P(2, "KS"), P(0, "2S"))
    assert report(header(3, schedule=[2]), *lines)["rounds"][0]["scores"] == [0, 0, 0]
    mild = report(header(3, schedule=[2], scoring="mild"), *lines)
    assert mild["rounds"][0]["scores"] == [0, 1, 0]
    assert mild["totals"] == [0, 1, 0] and mild["winners"] == [1] and not mild["finished"]


# --- schedules and options ------------------------------------------------------------


@pytest.mark.parametrize(("players", "expected"), [(3, 15), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_max_hand_defaults(players: int, expected: int) -> None:
    assert default_max_hand(players) == expected
    e = engine(players)
    assert e.options.max_hand == expected
    assert e.options.schedule == tuple(range(1, expected + 1))


def test_schedules() -> None:
    assert engine(4, schedule="up-down", max_hand=3).options.schedule == (1, 2, 3, 2, 1)
    assert engine(4, schedule="contract-whist").options.schedule == (
        7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7,
    )  # fmt: skip
    assert engine(5, schedule=[2, 4, 2]).options.schedule == (2, 4, 2)
    assert engine(3, max_hand=17).options.schedule[-1] == 17
    e = engine(5, schedule=[2, 4])
    assert e.round.hand_size == 2 and e.snapshot().rounds_scheduled == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, 'unknown option "colour" for oh-pshaw; its options are: hook, max_hand'),
        ({"max_hand": 14}, 'option "max_hand" 14 is too large: 4 players x 14 cards'),
        ({"max_hand": 0}, 'option "max_hand" must be a whole number from 1'),
        ({"max_hand": True}, 'option "max_hand" must be a whole number from 1'),
        ({"schedule": "downhill"}, 'option "schedule" must be "ascending"'),
        ({"schedule": []}, 'option "schedule" must list at least one hand size'),
        ({"schedule": [2, 14]}, 'every hand size in "schedule" must be a whole number 1..13'),
        ({"schedule": [2], "max_hand": 1}, 'every hand size in "schedule" must be'),
        ({"schedule": [0]}, 'every hand size in "schedule"'),
        ({"scoring": "harsh"}, 'option "scoring" must be "standard" or "mild"'),
        ({"hook": "yes"}, 'option "hook" must be true or false'),
        ({"renege_penalty": -1}, 'option "renege_penalty" must be a whole number from 0'),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOption) as caught:
        engine(4, **options)
    assert str(caught.value).startswith(message)
    err = refused(header(4, **options))
    assert str(err).startswith("line 1: " + message)


def test_contract_whist_needs_seven_card_hands() -> None:
    with pytest.raises(BadOption, match="contract-whist"):
        engine(7, schedule="contract-whist", max_hand=6)
    assert engine(7, schedule="contract-whist").options.schedule[0] == 7


@pytest.mark.parametrize(
    ("head", "message"),
    [
        ({"players": 8, "dealer": 0}, "line 1: oh-pshaw is for 3 to 7 players, not 8"),
        ({"players": 2, "dealer": 0}, "line 1: oh-pshaw is for 3 to 7 players, not 2"),
        ({"players": 3}, 'line 1: the header has no "dealer"'),
        ({"players": 3, "dealer": 3}, 'line 1: "dealer" must be a seat 0..2, not 3'),
        ({"players": 3, "dealer": 0, "options": [1]}, 'line 1: "options" must be an object'),
    ],
)
def test_bad_headers_are_refused(head: dict[str, Any], message: str) -> None:
    text = json.dumps({"format": "table-record/1", "game": "oh-pshaw", **head}) + "\n"
    with pytest.raises(RecordError) as caught:
        replay(text)
    assert str(caught.value).startswith(message)


def test_rotating_trump_needs_no_turned_card() -> None:
    e = engine(3, schedule=[1, 1, 1, 1, 1], rotating_trump=True)
    trumps = []
    rng = random.Random(0)
    while not e.finished:
        assert e.expected is not None and e.expected.expects == "bid"
        for action in deal(e, rng):
            assert isinstance(action, RegisterHand)
            e.apply(action)
        trumps.append(e.snapshot().trump)
        with pytest.raises(IllegalAction, match="trump rotates"):
            e.apply(TurnTrump(e.round.dealer, "2C"))
        rnd = e.round
        while rnd.scores is None:
            assert e.expected is not None
            e.apply(e.legal_actions(e.expected.seat)[0])
    assert trumps[:5] == ["H", "C", "D", "S", "H"]
    assert [r["trump"] for r in e.report()["rounds"][:5]] == ["H", "C", "D", "S", "H"]


def test_no_trump_last_round() -> None:
    head = header(3, schedule=[1, 1], no_trump_last_round=True)
    lines = (T(0, "5H"), B(1, 0), B(2, 0), B(0, 1), P(1, "2S"), P(2, "3S"), P(0, "4S"))
    result = report(head, *lines)
    assert result["next"] == {"seat": 2, "expects": "bid"}  # round 2: nothing turned
    done = report(head, *lines, B(2, 0), B(0, 0), B(1, 0), P(2, "2H"), P(0, "AS"), P(1, "3H"))
    assert [r["trump"] for r in done["rounds"]] == ["H", None]
    # No trump: the 3 of the led suit beats an off-suit ace.
    assert done["rounds"][1]["tricks"] == [0, 1, 0]
    err = refused(head, *lines, T(1, "5C"))
    assert "the last round is played without trump" in str(err)


def test_the_tie_break_round_waits_for_its_deal_and_crowns_the_extra_rounds_best() -> None:
    lines = (RECORDS / "tie-break.jsonl").read_text(encoding="utf-8").splitlines()
    after_round_1 = "\n".join(lines[:11]) + "\n"
    e = replayed(after_round_1)
    result = e.report()
    assert result["finished"] is False
    assert result["winners"] == [0, 2]
    assert len(result["rounds"]) == 1  # the extra round has not begun
    assert result["next"] == {"seat": 2, "expects": "bid"}
    assert e.snapshot().tie_break is True and e.snapshot().tied == (0, 2)
    assert e.round.hand_size == 2  # max_hand


def test_tie_breaks_repeat_until_one_seat_leads() -> None:
    e = engine(3, schedule=[1], max_hand=1)
    events: list[Any] = []

    def play_round(bids: dict[int, int]) -> None:
        # Seat 1 holds the ace of trumps and takes the trick; seats 0 and 2 hold spades.
        dealer = e.round.dealer
        for seat, card in ((0, "2S"), (1, "AH"), (2, "3S")):
            events.extend(e.apply(RegisterHand(seat, (card,))))
        events.extend(e.apply(TurnTrump(dealer, "KH")))
        for k in range(3):
            seat = (dealer + 1 + k) % 3
            events.extend(e.apply(Bid(seat, bids[seat])))
        for _ in range(3):
            expected = e.expected
            assert expected is not None
            events.extend(e.apply(e.legal_actions(expected.seat)[0]))

    for _ in range(3):
        play_round({0: 0, 1: 0, 2: 0})  # seats 0 and 2 score 10 each: still tied
    assert not e.finished and [r.tie_break for r in e.rounds] == [False, True, True, True]
    assert [ev.tied for ev in events if isinstance(ev, TieBreak)] == [(0, 2)] * 3
    assert e.report()["winners"] == [0, 2]
    play_round({0: 0, 1: 0, 2: 1})  # seat 2 misses its bid: seat 0 alone leads
    assert e.finished
    assert e.report()["totals"] == [40, 0, 30] and e.report()["winners"] == [0]
    assert [r["tie_break"] for r in e.report()["rounds"][1:]] == [True, True, True]


# --- malformed actions and the finished game ------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"play": "AS"}, 'line 2: the action has no "seat"'),
        ({"seat": 5, "play": "AS"}, 'line 2: "seat" must be a seat 0..2, not 5'),
        ({"seat": 0, "pass": True}, 'line 2: unknown action "pass"; this game knows: bid, end'),
        ({"seat": 0, "bid": 1, "play": "AS"}, "line 2: an action takes exactly one verb"),
        ({"seat": 0, "bid": "two"}, 'line 2: "bid" must be a whole number, not "two"'),
        ({"seat": 0, "bid": True}, 'line 2: "bid" must be a whole number, not True'),
        ({"seat": 0, "trump": "5H", "card": "5H"}, 'line 2: "card" does not belong'),
        ({"seat": 0}, "line 2: the action names no verb"),
    ],
)
def test_malformed_actions_are_refused(line: dict[str, Any], message: str) -> None:
    assert str(refused(header(3, schedule=[1]), line)).startswith(message)


def test_nothing_is_accepted_after_the_game_is_over() -> None:
    text = (RECORDS / "renege.jsonl").read_text(encoding="utf-8") + '{"seat": 1, "bid": 0}\n'
    with pytest.raises(RecordError, match=r"^line 13: the game is already over"):
        replay(text)
    e = replayed((RECORDS / "renege.jsonl").read_text(encoding="utf-8"))
    with pytest.raises(IllegalAction, match="the game is over"):
        e.apply(Bid(1, 0))
    assert e.legal_actions(1) == [] and e.expected is None


def test_a_refused_action_changes_nothing() -> None:
    e = replayed(record(header(3, schedule=[2]), *ROUND2, B(1, 1), B(2, 0), B(0, 1), P(1, "AS")))
    before = (e.report(), e.snapshot(), e.registered_hand(2))
    for bad in (Play(2, "4H"), Play(0, "2S"), Play(2, "AS"), Bid(2, 1), TurnTrump(0, "2C")):
        with pytest.raises(IllegalAction):
            e.apply(bad)
    assert (e.report(), e.snapshot(), e.registered_hand(2)) == before


# --- snapshot, header, deal -----------------------------------------------------------


def test_the_snapshot_is_public_plain_data() -> None:
    e = replayed(record(header(3, schedule=[2]), *ROUND2, B(1, 1), B(2, 0), B(0, 1), P(1, "AS")))
    typed = e.snapshot()
    assert OhPshawSnapshot.from_json(typed.to_json()) == typed  # the JSON form reads back
    assert typed.status is BidStatus.EQUAL and typed.next == Expectation(2, Verb.PLAY)
    snap = typed.to_json()
    text = json.dumps(snap)
    for hidden in ("3D", "KS", "4H", "2S", "QD"):
        assert hidden not in text
    assert snap["dealer"] == 0 and snap["round"] == 1 and snap["hand_size"] == 2
    assert snap["trump_card"] == "9H" and snap["trump"] == "H"
    assert snap["bids"] == [1, 1, 0] and snap["status"] == "equal"
    assert snap["trick"] == [{"seat": 1, "card": "AS"}] and snap["led_suit"] == "S"
    assert snap["next"] == {"seat": 2, "expects": "play"}
    assert snap["hand_registered"] == [True, True, True]
    assert snap["totals"] == [0, 0, 0]


def test_the_header_round_trips() -> None:
    cases: list[dict[str, Any]] = [
        {},
        {"schedule": [3, 1], "hook": True, "scoring": "mild", "max_hand": 4},
        {"schedule": "up-down", "rotating_trump": True, "renege_penalty": 5},
    ]
    for options in cases:
        e = engine(5, 2, **options)
        again = OhPshaw.from_header(e.header())
        assert again.header() == e.header()
        assert again.options == e.options
        assert e.header()["options"] == options


def test_deal_gives_the_actions_of_a_shuffled_deck() -> None:
    e = engine(5, dealer=4, schedule=[10])
    actions = deal(e, random.Random(42))
    assert actions == deal(engine(5, dealer=4, schedule=[10]), random.Random(42))
    hands = [a for a in actions if isinstance(a, RegisterHand)]
    assert [h.seat for h in hands] == [0, 1, 2, 3, 4]
    assert all(len(h.cards) == 10 for h in hands)
    turned = [a for a in actions if isinstance(a, TurnTrump)]
    assert len(turned) == 1 and turned[0].seat == 4
    cards = [c for h in hands for c in h.cards] + [turned[0].card]
    assert len(set(cards)) == 51
    for action in actions:
        e.apply(action)
    with pytest.raises(ValueError, match="already begun"):
        deal(e, random.Random(1))


# --- 1,000 seeded random games --------------------------------------------------------


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    top = min(3, 52 // players)
    options: dict[str, Any] = {
        "schedule": [rng.randint(1, top) for _ in range(rng.randint(1, 3))],
        "max_hand": top,
    }
    for key in ("hook", "round_winner_bonus", "no_trump_last_round", "rotating_trump"):
        if rng.random() < 0.3:
            options[key] = True
    if rng.random() < 0.5:
        options["scoring"] = "mild"
    if rng.random() < 0.3:
        options["renege_penalty"] = rng.choice([5, 10])
    return options


def unseen(e: OhPshaw) -> list[int]:
    """Cards no one has played, turned or registered this round."""
    return [c for c, place in enumerate(e.round.where) if place == FREE]


def play_random_game(seed: int) -> tuple[OhPshaw, list[Action], list[list[str]]]:
    """A random game: hands registered for some seats (dealt), random legal actions."""
    rng = random.Random(seed)
    players = rng.randint(3, 7)
    e = engine(players, rng.randrange(players), **random_options(rng, players))
    actions: list[Action] = []
    played_per_round: list[list[str]] = []
    bots = [OhPshawBot(random.Random(seed * 10 + s)) for s in range(players)] if seed % 4 else None
    register = rng.random()
    for _ in range(2000):
        if e.finished:
            break
        if not e.round.touched:
            played_per_round.append([])
            for action in deal(e, rng):
                # Register some seats' hands, not all; the turned card always comes.
                if isinstance(action, TurnTrump) or rng.random() < register:
                    e.apply(action)
                    actions.append(action)
        expected = e.expected
        assert expected is not None
        legal = e.legal_actions(expected.seat)
        assert legal, f"seed {seed}: no legal action for {expected}"
        unregistered = e.registered_hand(expected.seat) is None
        if expected.expects == "play" and unregistered and rng.random() < 0.1:
            # A seat without a registered hand may play any unseen card, even one of a
            # suit it failed to follow: the engine accepts it and proves the renege.
            action = Play(expected.seat, rng.choice([CARD_NAMES[c] for c in unseen(e)]))
        elif bots is not None and expected.expects != "trump":
            action = bots[expected.seat].choose(e, expected.seat)
            assert action in legal
        else:
            action = rng.choice(legal)
        e.apply(action)
        actions.append(action)
        if isinstance(action, Play):
            played_per_round[-1].append(action.card)
    assert e.finished, f"seed {seed}: the game did not end"
    return e, actions, played_per_round


@pytest.mark.slow  # 9 s on 2 busy cores
def test_a_thousand_random_games_keep_the_invariants() -> None:
    for seed in range(1000):
        e, actions, played = play_random_game(seed)
        result = e.report()
        assert result["finished"] and result["next"] is None
        assert len(result["rounds"]) == len(played)
        totals = [0] * e.players
        for rnd, cards in zip(result["rounds"], played, strict=True):
            assert sum(rnd["tricks"]) == rnd["hand_size"]
            assert len(cards) == rnd["hand_size"] * e.players
            assert len(set(cards)) == len(cards)
            assert rnd["turned"] not in cards
            if rnd["status"] is not None:
                assert all(b is not None and 0 <= b <= rnd["hand_size"] for b in rnd["bids"])
            for renege in rnd["reneges"]:
                assert rnd["scores"][renege["seat"]] == -e.options.renege_penalty
                assert 1 <= renege["trick"] <= rnd["hand_size"]
            for seat, score in enumerate(rnd["scores"]):
                totals[seat] += score
        assert totals == result["totals"]
        assert result["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
        assert len(result["winners"]) == 1
        text = dumps(e.header(), actions)
        again = replay(text)
        assert again.report() == result
        assert scoresheet.report_json(again)["totals"] == totals


def test_hook_games_never_let_the_bids_equal_the_tricks() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        e = engine(4, seed % 4, schedule=[1, 2, 3], hook=True)
        while not e.finished:
            if not e.round.touched:
                for action in deal(e, rng):
                    e.apply(action)
            expected = e.expected
            assert expected is not None
            e.apply(rng.choice(e.legal_actions(expected.seat)))
        assert all(r["status"] != "equal" for r in e.report()["rounds"])


# --- the bot --------------------------------------------------------------------------


def bot_game(seed: int, bots: bool) -> tuple[int, int]:
    """(exact bids, seat-rounds) of a 4-player game on [5, 5, 5, 5] with bots or random play."""
    rng = random.Random(seed)
    e = engine(4, seed % 4, schedule=[5, 5, 5, 5], max_hand=5)
    players = [OhPshawBot(random.Random(seed * 7 + s)) for s in range(4)]
    while not e.finished:
        if not e.round.touched:
            for action in deal(e, rng):
                e.apply(action)
        expected = e.expected
        assert expected is not None
        if bots:
            action = players[expected.seat].choose(e, expected.seat)
            assert action in e.legal_actions(expected.seat)
        else:
            action = rng.choice(e.legal_actions(expected.seat))
        e.apply(action)
    exact = sum(r.bids[s] == r.tricks[s] for r in e.rounds for s in range(4))
    return exact, 4 * len(e.rounds)


def test_the_bot_makes_its_bid_far_more_often_than_random_play() -> None:
    bot = [bot_game(seed, True) for seed in range(40)]
    rand = [bot_game(seed, False) for seed in range(40)]
    bot_rate = sum(a for a, _ in bot) / sum(b for _, b in bot)
    rand_rate = sum(a for a, _ in rand) / sum(b for _, b in rand)
    assert bot_rate > rand_rate + 0.2, (bot_rate, rand_rate)


def test_the_bot_is_deterministic_for_a_given_rng() -> None:
    assert bot_game(5, True) == bot_game(5, True)

    def actions(seed: int) -> list[Action]:
        rng = random.Random(1)
        e = engine(5, 0, schedule=[4, 6])
        bot = OhPshawBot(random.Random(seed))
        out: list[Action] = []
        while not e.finished:
            if not e.round.touched:
                for action in deal(e, rng):
                    e.apply(action)
            expected = e.expected
            assert expected is not None
            action = bot.choose(e, expected.seat)
            out.append(action)
            e.apply(action)
        return out

    assert actions(3) == actions(3)


def test_the_bot_bids_from_its_winners() -> None:
    strong = OhPshawBot.estimate(["AH", "KH", "QH", "AS", "AD"], trump=1, players=4)
    weak = OhPshawBot.estimate(["2S", "3S", "4D", "5C", "7D"], trump=1, players=4)
    assert strong >= 4 and weak < 0.5
    e = replayed(record(header(4, schedule=[5]), H(1, "AH", "KH", "QH", "AS", "AD"), T(0, "2H")))
    choice = OhPshawBot(random.Random(0)).choose(e, 1)
    assert isinstance(choice, Bid) and choice.bid >= 4


def test_the_bot_ducks_when_it_has_enough_and_wins_when_it_needs() -> None:
    head = header(3, schedule=[2])
    lines = (H(1, "3S", "2D"), H(2, "KS", "QS"), H(0, "AS", "9S"), T(0, "5H"))
    bot = OhPshawBot(random.Random(0))
    # Seat 2 needs a trick and seat 0 plays after it: it plays its highest winner.
    need = replayed(record(head, *lines, B(1, 0), B(2, 1), B(0, 0), P(1, "3S")))
    assert bot.choose(need, 2) == Play(2, "KS")
    # Seat 2 wants none; both its cards beat the 3: the lower one, hoping to be overtaken.
    duck = replayed(record(head, *lines, B(1, 0), B(2, 0), B(0, 0), P(1, "3S")))
    assert bot.choose(duck, 2) == Play(2, "QS")
    # Seat 0 plays last and wants none: it ducks under the king with the 9.
    last = replayed(record(head, *lines, B(1, 0), B(2, 0), B(0, 0), P(1, "3S"), P(2, "KS")))
    assert bot.choose(last, 0) == Play(0, "9S")
    # Seat 0 plays last and needs a trick: the cheapest winner, the ace.
    win = replayed(record(head, *lines, B(1, 0), B(2, 0), B(0, 1), P(1, "3S"), P(2, "KS")))
    assert bot.choose(win, 0) == Play(0, "AS")
    lead = replayed(record(head, *lines, B(1, 1), B(2, 0), B(0, 0)))
    assert bot.choose(lead, 1) == Play(1, "3S")  # no ace: its strongest card
    zero = replayed(record(head, *lines, B(1, 0), B(2, 0), B(0, 0)))
    assert bot.choose(zero, 1) == Play(1, "2D")
