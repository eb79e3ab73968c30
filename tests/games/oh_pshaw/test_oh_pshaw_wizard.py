"""Oh Pshaw's Wizard variant (issue 32): four Wizards and four Jesters, 60 cards.

Each ruling of ``docs/oh-pshaw.md`` ("The Wizard variant") is replayed from a
hand-written record; a differential test then plays many seeded random Wizard
games and checks every legal play and every trick's winner against a small
model written here from the rulings alone (it imports none of the engine's logic).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from controller.games.base import BadOption, MalformedAction
from controller.games.oh_pshaw.actions import Bid, ChooseTrump, Play, RegisterHand, TurnTrump
from controller.games.oh_pshaw.cards import WIZARD_CARD_INDEX, WizardTrick
from controller.games.oh_pshaw.engine import OhPshaw, deal
from controller.games.oh_pshaw.events import TrickWon
from controller.records.record import RecordError, dumps, replay
from tests.games.oh_pshaw.test_oh_pshaw import B, H, P, T, header


def wizard(**options: Any) -> dict[str, Any]:
    """A 3-player Wizard game dealt first by seat 0 (seat 1 is the eldest and leads)."""
    return header(wizard=True, **options)


def replayed(head: dict[str, Any], *lines: dict[str, Any]) -> OhPshaw:
    e = replay(dumps(head, lines))
    assert isinstance(e, OhPshaw)
    return e


def refused(head: dict[str, Any], *lines: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        replayed(head, *lines)
    return str(caught.value)


def C(seat: int, suit: str) -> dict[str, Any]:
    return {"seat": seat, "trump_suit": suit}


def opening(
    *hands: Sequence[str], bids: tuple[int, int, int] = (0, 0, 0)
) -> tuple[dict[str, Any], ...]:
    """A round's first lines: seats 1, 2 and 0 register ``hands`` in turn, seat 0 turns
    9H (hearts trump) and they bid ``bids`` in the same order."""
    registered = [H(seat, *hand) for seat, hand in zip((1, 2, 0), hands, strict=True)]
    bid = [B(seat, n) for seat, n in zip((1, 2, 0), bids, strict=True)]
    return (*registered, T(0, "9H"), *bid)


def trick_events(head: dict[str, Any], *lines: dict[str, Any]) -> list[TrickWon[str]]:
    """The TrickWon events of a record's lines, applied one by one to a fresh engine."""
    e = OhPshaw.from_header(head)
    won: list[TrickWon[str]] = []
    for line in lines:
        for event in e.apply(e.parse_action(line)):
            if isinstance(event, TrickWon):
                won.append(event)
    return won


# --- the option, the notation and the deck ----------------------------------------


@pytest.mark.parametrize("line", [H(1, "W1"), P(1, "N2"), T(0, "W3")])
def test_without_the_option_wizards_and_jesters_are_not_cards(line: dict[str, Any]) -> None:
    message = refused(header(schedule=[1]), line)
    assert "is not a card" in message and "Wizard" not in message


def test_without_the_option_trump_suit_is_no_verb() -> None:
    assert 'unknown action "trump_suit"' in refused(header(schedule=[1]), C(0, "H"))


def test_with_the_option_a_bad_card_names_the_wizard_notation() -> None:
    message = refused(wizard(schedule=[1]), H(1, "W5"))
    assert '"W5" is not a card' in message and "W1-W4" in message and "N1-N4" in message


def test_the_deck_has_60_cards_and_the_largest_hand_follows_it() -> None:
    for players, most in ((3, 20), (4, 15), (5, 12), (6, 10), (7, 8)):
        e = OhPshaw.from_header(header(players, wizard=True))
        assert e.options.max_hand == most
        assert len(e.unseen_cards()) == 60
    # 3 x 20 = 60 is allowed only with the Wizard cards; 3 x 21 never.
    OhPshaw.from_header(header(3, wizard=True, max_hand=20))
    with pytest.raises(BadOption):
        OhPshaw.from_header(header(3, max_hand=20))
    with pytest.raises(BadOption) as caught:
        OhPshaw.from_header(header(3, wizard=True, max_hand=21))
    assert "60 cards" in str(caught.value)


def test_the_whole_60_card_deck_dealt_turns_no_card() -> None:
    e = OhPshaw.from_header(header(3, wizard=True, schedule=[20]))
    assert not e.round.turns_card and e.round.trump is None


def test_a_default_game_is_unchanged_by_the_option_declaration() -> None:
    e = OhPshaw.from_header(header(4))
    assert e.options.max_hand == 13 and len(e.unseen_cards()) == 52
    assert e.header()["options"] == {}


# --- the tricks -----------------------------------------------------------------------


def wizard_trick(*cards: str, lead: int = 0) -> WizardTrick:
    """A Wizard trick of ``cards`` (notation) played in turn from seat ``lead`` of four."""
    out = WizardTrick(lead)
    for i, name in enumerate(cards):
        out.add((lead + i) % 4, WIZARD_CARD_INDEX[name])
    return out


def test_wizards_and_jesters_are_never_off_the_suit_led() -> None:
    # A Jester leads, the spade after it sets the suit, so the heart is off it.
    played = wizard_trick("N1", "2S", "W1", "9H")
    assert played.unfollowed(3) == WIZARD_CARD_INDEX["9H"]
    assert [played.unfollowed(seat) for seat in (0, 1, 2)] == [None, None, None]
    # A Wizard before any suit card: nobody need follow, so no card is off the suit.
    freed = wizard_trick("W2", "2S", "9H")
    assert [freed.unfollowed(seat) for seat in range(4)] == [None] * 4


@pytest.mark.parametrize(
    ("cards", "winner", "because"),
    [
        pytest.param(("KH", "W2", "W1"), 2, ["W2 is the first Wizard played"], id="first-wizard"),
        pytest.param(("N1", "5D", "2H"), 0, ["highest trump"], id="jester-never-wins-trump-counts"),
        pytest.param(("N2", "N1", "N3"), 1, ["all Jesters", "N2"], id="all-jesters-first-wins"),
    ],
)
def test_who_wins_a_one_card_trick(cards: tuple[str, ...], winner: int, because: list[str]) -> None:
    # The first Wizard played wins; a Jester never wins against a suit card, and trump
    # still counts; if all play Jesters, the first Jester wins.
    plays = [P(seat, card) for seat, card in zip((1, 2, 0), cards, strict=True)]
    won = trick_events(wizard(schedule=[1]), *opening(*[[card] for card in cards]), *plays)
    assert [w.seat for w in won] == [winner]
    assert all(part in str(won[0].reason) for part in because), won[0].reason


def test_wizards_and_jesters_may_be_played_without_following_suit() -> None:
    won = trick_events(
        wizard(schedule=[2]),
        *opening(["AS", "3D"], ["KS", "N1"], ["2S", "W3"], bids=(1, 0, 0)),
        # Seat 2 holds KS but may play its Jester; seat 0 holds 2S but may play its Wizard.
        P(1, "AS"), P(2, "N1"), P(0, "W3"),
        P(0, "2S"), P(1, "3D"), P(2, "KS"),
    )  # fmt: skip
    assert [w.seat for w in won] == [0, 2]


def test_a_wizard_led_frees_the_others_from_following() -> None:
    head = wizard(schedule=[2])
    lines = (*opening(["W1", "3S"], ["KS", "2D"], ["2S", "QD"], bids=(1, 0, 0)), P(1, "W1"))
    e = replayed(head, *lines)
    assert {a.card for a in e.legal_actions(2) if isinstance(a, Play)} == {"KS", "2D"}
    won = trick_events(head, *lines, P(2, "2D"), P(0, "QD"))
    assert [w.seat for w in won] == [1]


def test_after_a_jester_lead_the_first_other_card_sets_the_suit() -> None:
    head = wizard(schedule=[2])
    lines = (*opening(["N1", "3S"], ["5D", "KS"], ["2S", "QD"]), P(1, "N1"))
    e = replayed(head, *lines)
    # Nothing to follow yet: seat 2 may play either card.
    assert {a.card for a in e.legal_actions(2) if isinstance(a, Play)} == {"5D", "KS"}
    message = refused(head, *lines, P(2, "5D"), P(0, "2S"))
    assert "must follow diamonds while it holds QD" in message
    won = trick_events(head, *lines, P(2, "5D"), P(0, "QD"))
    assert won[0].seat == 0 and "highest card of the suit led, diamonds" in str(won[0].reason)


def test_a_wizard_or_jester_played_without_a_registered_hand_is_no_renege() -> None:
    # Seat 2 plays a Jester to a spade lead and later a spade: no failure to follow.
    e = replayed(
        wizard(schedule=[2]),
        T(0, "9H"), B(1, 0), B(2, 0), B(0, 0),
        P(1, "AS"), P(2, "N1"), P(0, "2S"),
        P(1, "3D"), P(2, "KS"), P(0, "QD"),
    )  # fmt: skip
    assert e.report()["rounds"][0]["reneges"] == []


# --- the turned card ------------------------------------------------------------------


def test_a_turned_wizard_lets_the_dealer_choose_trump_awaited_after_the_bidding() -> None:
    head = wizard(schedule=[1])
    lines = (H(1, "KD"), H(2, "AH"), H(0, "2D"), T(0, "W4"), B(1, 1), B(2, 0), B(0, 0))
    e = replayed(head, *lines)
    assert e.report()["next"] == {"seat": 0, "expects": "trump_suit"}
    assert e.legal_actions(0) == [ChooseTrump(0, s) for s in "SHDC"]
    assert "must choose trump first" in refused(head, *lines, P(1, "KD"))
    assert "deals this round" in refused(head, *lines, C(1, "D"))
    e = replayed(head, *lines, C(0, "D"), P(1, "KD"), P(2, "AH"), P(0, "2D"))
    rnd = e.report()["rounds"][0]
    assert rnd["trump"] == "D" and rnd["turned"] == "W4" and rnd["tricks"] == [0, 1, 0]


def test_the_dealer_may_choose_trump_during_the_bidding_once_only() -> None:
    head = wizard(schedule=[1])
    lines = (H(1, "KD"), H(2, "AH"), H(0, "2D"), T(0, "W4"), C(0, "H"), B(1, 0))
    e = replayed(head, *lines)
    assert e.round.trump == 1 and e.report()["next"] == {"seat": 2, "expects": "bid"}
    assert "already chosen" in refused(head, *lines, C(0, "S"))
    e = replayed(head, *lines, B(2, 1), B(0, 0), P(1, "KD"), P(2, "AH"), P(0, "2D"))
    assert e.report()["rounds"][0]["tricks"] == [0, 0, 1]  # seat 2's AH trumps


def test_a_wizard_turned_after_the_bidding_is_followed_by_the_choice() -> None:
    head = wizard(schedule=[1])
    lines = (B(1, 0), B(2, 0), B(0, 1))
    e = replayed(head, *lines)
    assert e.report()["next"] == {"seat": 0, "expects": "trump"}
    e = replayed(head, *lines, T(0, "W2"))
    assert e.report()["next"] == {"seat": 0, "expects": "trump_suit"}
    e = replayed(head, *lines, T(0, "W2"), C(0, "S"))
    assert e.report()["next"] == {"seat": 1, "expects": "play"}
    assert e.report()["rounds"][0]["trump"] == "S"


def test_no_choice_of_trump_without_a_turned_wizard() -> None:
    head = wizard(schedule=[1])
    assert "none is turned" in refused(head, T(0, "9H"), C(0, "H"))
    assert "none is turned" in refused(head, C(0, "H"))


def test_a_turned_jester_means_no_trump() -> None:
    e = replayed(
        wizard(schedule=[1]),
        H(1, "KD"), H(2, "AH"), H(0, "2D"), T(0, "N2"),
        B(1, 1), B(2, 0), B(0, 0),
        P(1, "KD"), P(2, "AH"), P(0, "2D"),
    )  # fmt: skip
    rnd = e.report()["rounds"][0]
    # No trump: AH does not beat the KD led.
    assert rnd["trump"] is None and rnd["turned"] == "N2" and rnd["tricks"] == [0, 1, 0]
    assert rnd["scores"] == [10, 11, 10]


# --- the hook and mild scoring ------------------------------------------------------


def test_the_hook_with_wizard_forbids_the_dealer_the_bid_that_adds_up() -> None:
    head = wizard(schedule=[2], hook=True)
    lines = (T(0, "N1"), B(1, 1), B(2, 0))
    e = replayed(head, *lines)
    assert e.bid_choices() == [0, 2]
    assert "the hook" in refused(head, *lines, B(0, 1))


def test_mild_scoring_with_wizard_counts_a_trick_taken_by_a_wizard() -> None:
    e = replayed(
        wizard(schedule=[1], scoring="mild"),
        H(1, "AS"), H(2, "W1"), H(0, "2S"), T(0, "9H"),
        B(1, 1), B(2, 1), B(0, 0),
        P(1, "AS"), P(2, "W1"), P(0, "2S"),
    )  # fmt: skip
    assert e.report()["rounds"][0]["scores"] == [10, 0, 11]


# --- differential test against a model from the rulings ----------------------------------

RANK_ORDER = "23456789TJQKA"


def model_suit_to_follow(trick: Sequence[str]) -> str | None:
    """The suit the next card must follow: the first non-Jester's, none after a Wizard."""
    for card in trick:
        if card[0] == "W":
            return None
        if card[0] != "N":
            return card[-1]
    return None


def model_legal(hand: Sequence[str], trick: Sequence[str]) -> set[str]:
    """The cards of ``hand`` that may be played to ``trick`` under the Wizard rulings."""
    suit = model_suit_to_follow(trick)
    if suit is None or not any(c[0] not in "WN" and c[-1] == suit for c in hand):
        return set(hand)
    return {c for c in hand if c[0] in "WN" or c[-1] == suit}


def model_winner(plays: Sequence[tuple[int, str]], trump: str | None) -> int:
    """The seat winning a full trick of (seat, card) plays under the Wizard rulings."""
    for seat, card in plays:
        if card[0] == "W":
            return seat
    suit = model_suit_to_follow([card for _, card in plays])
    if suit is None:
        return plays[0][0]
    suited = [(seat, card) for seat, card in plays if card[0] != "N"]
    trumps = [(seat, card) for seat, card in suited if card[-1] == trump]
    pool = trumps or [(seat, card) for seat, card in suited if card[-1] == suit]
    return max(pool, key=lambda item: RANK_ORDER.index(item[1][0]))[0]


def play_random_game(seed: int, largest: int = 20) -> tuple[int, int]:
    """One seeded random Wizard game checked against the model; (tricks, Wizard tricks).

    ``largest`` caps the game's largest hand (the quick test keeps games short).
    """
    rng = random.Random(seed)
    players = rng.randint(3, 7)
    most = min(largest, 60 // players)
    options: dict[str, Any] = {"wizard": True, "max_hand": rng.randint(1, most)}
    if rng.random() < 0.5:
        options["schedule"] = [rng.randint(1, options["max_hand"]) for _ in range(3)]
    e = OhPshaw.from_header(header(players, rng.randrange(players), **options))
    hands: list[list[str]] = []
    trump: str | None = None
    checked = wizard_tricks = 0
    while not e.finished:
        expected = e.expected
        assert expected is not None
        seat = expected.seat
        if not e.round.touched:
            dealt = deal(e, rng)
            hands = [[] for _ in range(players)]
            trump = None
            for action in dealt:
                if isinstance(action, RegisterHand):
                    hands[action.seat] = list(action.cards)
                elif isinstance(action, TurnTrump):
                    trump = action.card[-1] if action.card[0] not in "WN" else None
                e.apply(action)
            continue
        if expected.expects == "play":
            trick = [played.card for played in e.snapshot().trick]
            allowed = model_legal(hands[seat], trick)
            engine_allowed = {a.card for a in e.legal_actions(seat) if isinstance(a, Play)}
            assert engine_allowed == allowed, (seed, hands[seat], trick)
            card = rng.choice(sorted(allowed))
            hands[seat].remove(card)
            events = e.apply(Play(seat, card))
            for event in events:
                if isinstance(event, TrickWon):
                    assert event.seat == model_winner(event.cards, trump), (seed, event)
                    checked += 1
                    wizard_tricks += any(c[0] == "W" for _, c in event.cards)
            continue
        action = rng.choice(e.legal_actions(seat))
        if isinstance(action, ChooseTrump):
            trump = action.suit
        assert isinstance(action, ChooseTrump | Bid)
        e.apply(action)
    return checked, wizard_tricks


def test_random_wizard_games_agree_with_a_model_of_the_rulings() -> None:
    checked = wizard_tricks = 0
    for seed in range(200):
        tricks, wizards = play_random_game(seed, largest=5)
        checked += tricks
        wizard_tricks += wizards
    # The games must have exercised the rules, not only dealt.
    assert checked > 700 and wizard_tricks > 70


@pytest.mark.slow
def test_random_wizard_games_up_to_the_whole_deck_agree_with_the_model() -> None:
    checked = wizard_tricks = 0
    for seed in range(1000, 1300):
        tricks, wizards = play_random_game(seed)
        checked += tricks
        wizard_tricks += wizards
    assert checked > 3000 and wizard_tricks > 300


def test_the_model_itself_decides_the_rulings_cases() -> None:
    # Hand-checked cases, so the model is not only compared with the engine.
    assert model_winner([(0, "N1"), (1, "5D"), (2, "QD")], "H") == 2
    assert model_winner([(0, "N1"), (1, "N2")], "H") == 0
    assert model_winner([(0, "AS"), (1, "W2"), (2, "W1")], "S") == 1
    assert model_winner([(0, "AS"), (1, "2H")], "H") == 1
    assert model_legal(["KS", "2D", "N1"], ["N2", "5D"]) == {"2D", "N1"}
    assert model_legal(["KS", "2D"], ["W1", "5D"]) == {"KS", "2D"}


def test_parse_action_reads_the_wizard_notation_only_with_the_option() -> None:
    on = OhPshaw.from_header(wizard())
    off = OhPshaw.from_header(header())
    assert on.parse_action({"seat": 1, "play": "W1"}) == Play(1, "W1")
    assert on.parse_action({"seat": 0, "trump_suit": "C"}) == ChooseTrump(0, "C")
    with pytest.raises(MalformedAction):
        on.parse_action({"seat": 0, "trump_suit": "X"})
    with pytest.raises(MalformedAction):
        off.parse_action({"seat": 1, "play": "W1"})
