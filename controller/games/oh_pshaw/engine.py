"""Oh Pshaw: the Oh Hell family's trick game where you must take exactly what you bid.

Rules: ``shared/rules/oh-pshaw.de.txt`` plus the rulings of the game-record spec;
``docs/oh-pshaw.md`` states every ruling below for the table's staff. In short:

* 3-7 players, a 52-card deck, ace high. Round ``i`` (0-based) is dealt by
  ``(dealer + i) % players``; the eldest hand (left of the dealer) bids first,
  the dealer last, and the eldest leads the first trick.
* After the deal the dealer turns the next card (a ``trump`` action); its suit
  is trump. The ``trump`` action comes after the deal and before the first bid,
  so everyone sees it before bidding. No card is turned (and no ``trump``
  action is expected) when the round deals the whole deck (no trump), in the
  last scheduled round with ``no_trump_last_round`` (no trump), or with
  ``rotating_trump`` (trump by round index: H, C, D, S, H, ...). The whole-deck
  rule wins over rotating trump, as the spec says without exception.
* Bids 0..hand size; with ``hook`` the dealer may not make the bids add up to
  the number of tricks. When the bidding closes the engine announces "over",
  "under" or "equal" (``BiddingClosed``, the snapshot and the round report).
* Must follow; the highest trump wins, else the highest card of the led suit.
* ``standard`` scoring: exact bid 10 + bid, else 0. ``mild``: 1 per trick plus
  10 for an exact bid. ``round_winner_bonus``: 10 more to the round's highest
  scorer(s), if that score is above 0; a seat with a proven renege never takes it.
* Hands are optional: a ``hand`` action registers a seat's cards for the
  current round before its first play. With one, a card not in it or a play
  that breaks must-follow is refused. Without one an off-suit play is
  accepted; if the seat later in the round plays a card of a suit it failed to
  follow, each such failure is a proven renege (listed in the round report as
  ``{"seat", "trick"}``, trick = the trick of the failure, from 1). That seat's
  round score is 0 minus ``renege_penalty`` (once per round); the tricks stand.
* Ties: when the scheduled rounds end with the best total shared, extra rounds
  at the game's largest hand (``max_hand``; 7 under ``contract-whist``) are
  played, dealing, trump and play as usual, the deal still passing left, until
  one seat alone has the best total. Only the tied seats score in an extra
  round; the others play along (their round score is 0, a proven renege still
  costs), so the tie is decided among the tied seats, as the rulebook says,
  and ``winners`` is always the seats with the best total.
* A record that stops early: ``finished`` is false and ``winners`` are the
  current leaders; a round in progress shows its running score (standard:
  0 until the round is scored, minus the penalty of a proven renege; mild: the
  tricks taken so far, minus any penalty; the exact-bid bonuses come at the end).
* Staff's early end, ``{"seat": s, "end": "early"}``: the rulebook's "whoever
  leads at that moment wins; the points stand as they are". The game is over,
  ``finished`` is true, ``winners`` the leaders, and the report adds
  ``"ended": "early"``.

Cards are written rank + suit (``AS``, ``TH``, ``2C``; ``10H`` is read as ``TH``).

``deal(engine, rng) -> list[Action]`` turns a seeded ``random.Random`` into the
actions a shuffled physical deck gives at the start of the current round: a
``hand`` registration for every seat (dealt one card at a time from the eldest)
and, when the round turns a card, the dealer's ``trump`` action with the next
card. Tests, the kiosk's simulated deck and the bots use it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, NoReturn, Self

from controller.games.base import (
    JSON,
    Action,
    BadOption,
    Chance,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    MalformedAction,
    Snapshot,
    TrickCard,
    TurnPassed,
    best_seats,
    describe,
    json_expectation,
    json_int,
    json_ints,
    json_opt_int,
    json_trick,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    require_int,
    split_action,
)
from controller.games.words import Card, Player, Text, Verbatim, Words, say, say_plural

# --- cards -----------------------------------------------------------------------
#
# Inside the engine a card is an int: suit * 13 + rank, rank 0 = "2" .. 12 = "A".
# Ints keep the hot paths (validation, trick winners, legal actions) cheap; every
# boundary speaks the spec's text notation.

SUITS = "SHDC"
RANKS = "23456789TJQKA"
# The suits in words, in SUITS order ("trump rotates and is spades"); str() is the English.
SUIT_NAMES: tuple[Text, ...] = (say("spades"), say("hearts"), say("diamonds"), say("clubs"))
DECK_SIZE = 52
ROTATION = "HCDS"  # rotating_trump: trump suit of round index i is ROTATION[i % 4]

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
_CARD_INDEX.update({"10" + s: _CARD_INDEX["T" + s] for s in SUITS})


def card_suit(card: int) -> int:
    """The suit index (into ``SUITS``) of an internal card number."""
    return card // 13


def parse_card(text: object) -> str:
    """The canonical notation of a card (``10H`` -> ``TH``); MalformedAction if not a card."""
    index = _CARD_INDEX.get(text) if isinstance(text, str) else None
    if index is None:
        raise MalformedAction(
            say(
                "{value} is not a card: write a rank 2-9, T (or 10), J, Q, K or A "
                "and a suit S, H, D or C, e.g. QH",
                value=Verbatim(describe(text)),
            )
        )
    return CARD_NAMES[index]


def card_index(name: str) -> int:
    """The internal number of a card in canonical (or ``10``) notation."""
    return _CARD_INDEX[name]


# --- options ---------------------------------------------------------------------

OPTION_DEFAULTS: Mapping[str, object] = {
    "schedule": "ascending",
    "max_hand": None,  # depends on the number of players; see default_max_hand
    "hook": False,
    "scoring": "standard",
    "round_winner_bonus": False,
    "no_trump_last_round": False,
    "rotating_trump": False,
    "renege_penalty": 0,
}
CONTRACT_WHIST: tuple[int, ...] = (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


def default_max_hand(players: int) -> int:
    """15 for 3 players, 13 for 4, else floor(51 / players) (one card left to turn)."""
    return {3: 15, 4: 13}.get(players, 51 // players)


@dataclass(frozen=True)
class Options:
    """The game options of the spec's table, checked and resolved."""

    schedule: tuple[int, ...]
    schedule_name: str | list[int]
    max_hand: int
    max_hand_given: bool
    hook: bool
    scoring: str
    round_winner_bonus: bool
    no_trump_last_round: bool
    rotating_trump: bool
    renege_penalty: int

    @classmethod
    def read(cls, header: Mapping[str, Any], players: int) -> Options:
        """Read ``options`` from a header; BadOption on an unknown key or a bad value."""
        raw = read_options(header, OPTION_DEFAULTS, OhPshaw.game_id)

        def flag(key: str) -> bool:
            value = raw.get(key, False)
            if not isinstance(value, bool):
                raise BadOption(
                    say(
                        'option "{option}" must be true or false, not {value}',
                        option=Verbatim(key),
                        value=Verbatim(describe(value)),
                    )
                )
            return value

        max_given = raw.get("max_hand") is not None
        max_hand = raw.get("max_hand", None)
        if max_hand is None:
            max_hand = default_max_hand(players)
        elif isinstance(max_hand, bool) or not isinstance(max_hand, int) or max_hand < 1:
            raise BadOption(
                say(
                    'option "max_hand" must be a whole number from 1, not {value}',
                    value=Verbatim(describe(max_hand)),
                )
            )
        if players * max_hand > DECK_SIZE:
            raise BadOption(
                say(
                    'option "max_hand" {hand} is too large: {players} players x {hand} '
                    "cards is more than the {deck} cards of the deck (at most {most})",
                    hand=max_hand,
                    players=players,
                    deck=DECK_SIZE,
                    most=DECK_SIZE // players,
                )
            )

        name = raw.get("schedule", "ascending")
        schedule: tuple[int, ...]
        if name == "ascending":
            schedule = tuple(range(1, max_hand + 1))
        elif name == "up-down":
            schedule = (*range(1, max_hand + 1), *range(max_hand - 1, 0, -1))
        elif name == "contract-whist":
            if max_hand < 7:
                raise BadOption(
                    say(
                        'the "contract-whist" schedule needs hands of 7 cards; with {players} '
                        "players the largest hand is {hand}",
                        players=players,
                        hand=max_hand,
                    )
                )
            schedule = CONTRACT_WHIST
        elif isinstance(name, list):
            if not name:
                raise BadOption(say('option "schedule" must list at least one hand size'))
            for size in name:
                if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= max_hand:
                    raise BadOption(
                        say(
                            'every hand size in "schedule" must be a whole number 1..{hand} '
                            "(max_hand), not {value}",
                            hand=max_hand,
                            value=Verbatim(describe(size)),
                        )
                    )
            schedule = tuple(name)
            name = list(name)
        else:
            raise BadOption(
                say(
                    'option "schedule" must be "ascending", "up-down", "contract-whist" or a list '
                    "of hand sizes, not {value}",
                    value=Verbatim(describe(name)),
                )
            )

        scoring = raw.get("scoring", "standard")
        if scoring not in ("standard", "mild"):
            raise BadOption(
                say(
                    'option "scoring" must be "standard" or "mild", not {value}',
                    value=Verbatim(describe(scoring)),
                )
            )
        penalty = raw.get("renege_penalty", 0)
        if isinstance(penalty, bool) or not isinstance(penalty, int) or penalty < 0:
            raise BadOption(
                say(
                    'option "renege_penalty" must be a whole number from 0, not {value}',
                    value=Verbatim(describe(penalty)),
                )
            )
        return cls(
            schedule=schedule,
            schedule_name=name,
            max_hand=max_hand,
            max_hand_given=max_given,
            hook=flag("hook"),
            scoring=str(scoring),
            round_winner_bonus=flag("round_winner_bonus"),
            no_trump_last_round=flag("no_trump_last_round"),
            rotating_trump=flag("rotating_trump"),
            renege_penalty=penalty,
        )

    @property
    def tie_break_hand(self) -> int:
        """The cards of a tie-break round: the game's largest hand ("die maximale Blattgröße").

        ``max_hand``, except under the contract-whist schedule, whose largest hand is 7.
        """
        return max(self.schedule) if self.schedule_name == "contract-whist" else self.max_hand

    def to_json(self) -> JSON:
        """The options as a header writes them (only what differs from the defaults)."""
        out: JSON = {}
        if self.schedule_name != "ascending":
            out["schedule"] = self.schedule_name
        if self.max_hand_given:
            out["max_hand"] = self.max_hand
        for key in ("hook", "round_winner_bonus", "no_trump_last_round", "rotating_trump"):
            if getattr(self, key):
                out[key] = True
        if self.scoring != "standard":
            out["scoring"] = self.scoring
        if self.renege_penalty:
            out["renege_penalty"] = self.renege_penalty
        return out


# --- actions -----------------------------------------------------------------------


class Verb(StrEnum):
    """The record's verbs for Oh Pshaw; also what ``Expectation.expects`` names."""

    PLAY = "play"
    BID = "bid"
    TRUMP = "trump"
    HAND = "hand"
    END = "end"


EARLY = "early"  # the only value of an ``end`` action: the rulebook's early end


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick (canonical notation, e.g. ``TH``)."""

    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: self.card}


@dataclass(frozen=True)
class Bid(Action):
    """A seat bids how many tricks it will take this round."""

    bid: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.BID: self.bid}


@dataclass(frozen=True)
class TurnTrump(Action):
    """The dealer's turned card; its suit is trump for the round."""

    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.TRUMP: self.card}


@dataclass(frozen=True)
class RegisterHand(Action):
    """A seat's hand for the current round, registered before its first play."""

    cards: tuple[str, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.HAND: list(self.cards)}


@dataclass(frozen=True)
class EndEarly(Action):
    """Staff end the game now: the rulebook's early end, the points as they stand.

    "Muss das Spiel früh beendet werden, ist derjenige, der zu diesem Zeitpunkt
    führt, der Gewinner": the current leaders win. Any seat may take it (staff
    ask at a seat); the table records the seat whose turn it was.
    """

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.END: EARLY}


# Actions are immutable, so the ones legal_actions hands out are made once.
_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, name) for name in CARD_NAMES) for seat in range(7)
)
_BIDS: tuple[tuple[Bid, ...], ...] = tuple(
    tuple(Bid(seat, n) for n in range(DECK_SIZE // 3 + 1)) for seat in range(7)
)

# --- events ------------------------------------------------------------------------


class BidStatus(StrEnum):
    """The announcement when the bidding closes: the bids against the round's tricks."""

    OVER = "over"
    UNDER = "under"
    EQUAL = "equal"

    @property
    def explanation(self) -> Text:
        """What the announcement means for the players, in words."""
        return _STATUS_EXPLANATIONS[self]

    @property
    def word(self) -> Text:
        """The announcement itself, one word for the display ("OVER")."""
        return _STATUS_WORDS[self]


_STATUS_EXPLANATIONS: Mapping[BidStatus, Text] = {
    BidStatus.OVER: say("OVER: more tricks bid than there are, someone must miss"),
    BidStatus.UNDER: say(
        "UNDER: fewer tricks bid than there are, someone takes more than they want"
    ),
    BidStatus.EQUAL: say("EQUAL: the bids add up to the tricks"),
}
# TRANSLATORS: the announcement when the bidding closes: more tricks bid than the round has.
_STATUS_WORDS: Mapping[BidStatus, Text] = {
    BidStatus.OVER: say("OVER"),
    BidStatus.UNDER: say("UNDER"),
    BidStatus.EQUAL: say("EQUAL"),
}


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins: who deals, how many cards, and the trump when no card is turned."""

    round: int
    dealer: int
    hand_size: int
    tie_break: bool
    turns_card: bool
    trump: str | None


@dataclass(frozen=True)
class HandRegistered(Event):
    seat: int
    count: int


@dataclass(frozen=True)
class TrumpTurned(Event):
    seat: int
    card: str
    trump: str


@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    bid: int


@dataclass(frozen=True)
class BiddingClosed(Event):
    """All bids are in: ``status`` says whether they are over, under or equal to the tricks."""

    bids: tuple[int, ...]
    total: int
    tricks: int
    status: BidStatus


@dataclass(frozen=True)
class CardPlayed(Event):
    seat: int
    card: str
    trick: int


@dataclass(frozen=True)
class RenegeProven(Event):
    """``seat`` failed to follow ``suit`` in ``trick`` and has now shown that it held one."""

    seat: int
    trick: int
    suit: str


@dataclass(frozen=True)
class TrickWon(Event):
    seat: int
    trick: int
    cards: tuple[tuple[int, str], ...]


class BidOutcome(StrEnum):
    """How a seat's round went: its bid made exactly, missed, or a proven renege."""

    MADE = "made"
    MISSED = "missed"
    RENEGED = "reneged"


@dataclass(frozen=True)
class RoundScored(Event):
    """A round is scored; per seat: its score, bid, tricks taken and outcome."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    bids: tuple[int | None, ...] = ()
    tricks: tuple[int, ...] = ()
    outcomes: tuple[BidOutcome, ...] = ()


@dataclass(frozen=True)
class GameEndedEarly(Event):
    """Staff ended the game before its schedule ran out; ``GameOver`` follows."""

    round: int  # the round in progress (or just scored) when it ended, from 1


@dataclass(frozen=True)
class TieBreak(Event):
    """The schedule ended with the best total shared: an extra round at max_hand."""

    tied: tuple[int, ...]
    hand_size: int = 0  # the extra round's cards (max_hand)


# --- state -------------------------------------------------------------------------


FREE, PLAYED, TURNED = -1, -2, -3  # RoundState.where values that are not seats


class Phase(StrEnum):
    """What the game waits for: the turned card (after the bidding), a bid, a card, nothing."""

    TRUMP = "trump"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    index: int
    dealer: int
    hand_size: int
    tie_break: bool
    turns_card: bool
    trump: int | None  # suit index, or None (no trump / not turned yet)
    players: int
    turned: int | None = None
    touched: bool = False  # any action of this round accepted (it then shows in reports)
    bids: list[int | None] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    # A seat's registered cards not yet played, sorted, or None; and their count per suit.
    hands: list[list[int] | None] = field(default_factory=list)
    suit_counts: list[list[int]] = field(default_factory=list)
    # Where each card is: FREE (unseen), PLAYED, TURNED or the seat whose registered
    # hand holds it. One lookup answers every "may this card be played" question.
    where: list[int] = field(default_factory=list)
    started: list[bool] = field(default_factory=list)
    # seat -> (suit, trick) failures to follow not yet proven to be reneges
    failures: list[list[tuple[int, int]]] = field(default_factory=list)
    reneges: list[tuple[int, int]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)
    led: int = -1  # suit led in the current trick, -1 before its first card
    trick_number: int = 1
    leader: int = 0
    last_trick: tuple[tuple[int, int], ...] = ()
    last_winner: int | None = None
    scores: list[int] | None = None  # set when the round is scored
    # A tie-break round scores the tied seats only (the others play along);
    # None: every seat scores.
    scoring_seats: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        n = self.players
        self.bids = [None] * n
        self.tricks = [0] * n
        self.hands = [None] * n
        self.suit_counts = [[0, 0, 0, 0] for _ in range(n)]
        self.where = [FREE] * DECK_SIZE
        self.started = [False] * n
        self.failures = [[] for _ in range(n)]
        self.leader = (self.dealer + 1) % n

    @property
    def reneged(self) -> set[int]:
        return {seat for seat, _ in self.reneges}

    def status(self) -> BidStatus | None:
        """The announcement once every bid is in (over, under or equal); else None."""
        if any(b is None for b in self.bids):
            return None
        total = sum(b for b in self.bids if b is not None)
        if total == self.hand_size:
            return BidStatus.EQUAL
        return BidStatus.OVER if total > self.hand_size else BidStatus.UNDER


# --- what everyone sees ------------------------------------------------------------


@dataclass(frozen=True)
class Renege:
    """A proven renege: ``seat`` failed to follow in ``trick`` (from 1) while holding the suit."""

    seat: int
    trick: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "trick": self.trick}


@dataclass(frozen=True)
class OhPshawSnapshot(Snapshot):
    """What everyone at an Oh Pshaw table can see; the display reads its fields.

    Per-seat tuples are indexed by engine seat. ``bid_cursor`` is the table's,
    not the engine's: the bid the bidding seat's OK button would make (the
    engine leaves it None).
    """

    game: str
    title: str
    players: int
    phase: Phase
    round: int
    rounds_scheduled: int
    tie_break: bool
    tied: tuple[int, ...]
    dealer: int
    eldest: int
    hand_size: int
    turns_card: bool
    trump_card: str | None
    trump: str | None  # suit letter
    bids: tuple[int | None, ...]
    bid_total: int
    status: BidStatus | None
    hook_forbids: int | None
    tricks: tuple[int, ...]
    trick_number: int
    leader: int
    led_suit: str | None
    trick: tuple[TrickCard, ...]
    last_trick: tuple[TrickCard, ...]
    last_trick_winner: int | None
    hand_registered: tuple[bool, ...]
    reneges: tuple[Renege, ...]
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    next: Expectation | None
    winners: tuple[int, ...]
    # The round turns a card that is not turned yet (a table dealing as the
    # rulebook does waits for it before the bidding).
    awaiting_turned_card: bool = False
    # Per seat during play: tricks still needed to make the bid (negative: too
    # many taken), None without a bid.
    tricks_needed: tuple[int | None, ...] = ()
    bid_cursor: int | None = None
    ended_early: bool = False  # staff ended the game early: the leaders won
    # The previous round's scores per seat (empty in round 1): the round summary the
    # table shows while the next round is bid.
    last_round: tuple[int, ...] = ()

    def reneged(self, seat: int) -> bool:
        return any(r.seat == seat for r in self.reneges)

    def to_json(self) -> JSON:
        out: JSON = {
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "phase": self.phase.value,
            "round": self.round,
            "rounds_scheduled": self.rounds_scheduled,
            "tie_break": self.tie_break,
            "tied": list(self.tied),
            "dealer": self.dealer,
            "eldest": self.eldest,
            "hand_size": self.hand_size,
            "turns_card": self.turns_card,
            "trump_card": self.trump_card,
            "trump": self.trump,
            "bids": list(self.bids),
            "bid_total": self.bid_total,
            "status": self.status,
            "hook_forbids": self.hook_forbids,
            "tricks": list(self.tricks),
            "trick_number": self.trick_number,
            "leader": self.leader,
            "led_suit": self.led_suit,
            "trick": [t.to_json() for t in self.trick],
            "last_trick": [t.to_json() for t in self.last_trick],
            "last_trick_winner": self.last_trick_winner,
            "hand_registered": list(self.hand_registered),
            "reneges": [r.to_json() for r in self.reneges],
            "round_scores": list(self.round_scores),
            "totals": list(self.totals),
            "leaders": list(self.leaders),
            "next": None if self.next is None else self.next.to_json(),
            "winners": list(self.winners),
            "awaiting_turned_card": self.awaiting_turned_card,
            "tricks_needed": list(self.tricks_needed),
        }
        if self.bid_cursor is not None:
            out["bid_cursor"] = self.bid_cursor
        if self.ended_early:
            out["ended_early"] = True
        if self.last_round:
            out["last_round"] = list(self.last_round)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        totals = json_ints(data.get("totals"))
        players = json_int(data.get("players"), len(totals))
        phase, status = data.get("phase"), data.get("status")
        trump, led = data.get("trump"), data.get("led_suit")
        card = data.get("trump_card")
        reneges = data.get("reneges")
        return cls(
            game=str(data.get("game", OhPshaw.game_id)),
            title=str(data.get("title") or OhPshaw.title),
            players=players,
            phase=Phase(phase) if phase in set(Phase) else Phase.BID,
            round=json_int(data.get("round"), 1),
            rounds_scheduled=json_int(data.get("rounds_scheduled"), 1),
            tie_break=data.get("tie_break") is True,
            tied=json_ints(data.get("tied")),
            dealer=json_int(data.get("dealer")),
            eldest=json_int(data.get("eldest")),
            hand_size=json_int(data.get("hand_size"), 1),
            turns_card=data.get("turns_card") is True,
            trump_card=card if isinstance(card, str) else None,
            trump=trump if isinstance(trump, str) and trump in SUITS else None,
            bids=_per_seat(data.get("bids"), players),
            bid_total=json_int(data.get("bid_total")),
            status=BidStatus(status) if status in set(BidStatus) else None,
            hook_forbids=json_opt_int(data.get("hook_forbids")),
            tricks=tuple(v or 0 for v in _per_seat(data.get("tricks"), players)),
            trick_number=json_int(data.get("trick_number"), 1),
            leader=json_int(data.get("leader")),
            led_suit=led if isinstance(led, str) and led in SUITS else None,
            trick=json_trick(data.get("trick")),
            last_trick=json_trick(data.get("last_trick")),
            last_trick_winner=json_opt_int(data.get("last_trick_winner")),
            hand_registered=tuple(v is True for v in (data.get("hand_registered") or [])),
            reneges=tuple(
                Renege(json_int(r.get("seat")), json_int(r.get("trick")))
                for r in (reneges if isinstance(reneges, list) else [])
                if isinstance(r, Mapping)
            ),
            round_scores=json_ints(data.get("round_scores")),
            totals=totals,
            leaders=json_ints(data.get("leaders")),
            next=json_expectation(data.get("next")),
            winners=json_ints(data.get("winners")),
            awaiting_turned_card=data.get("awaiting_turned_card") is True,
            tricks_needed=_per_seat(data.get("tricks_needed"), players),
            bid_cursor=json_opt_int(data.get("bid_cursor")),
            ended_early=data.get("ended_early") is True,
            last_round=json_ints(data.get("last_round")),
        )


def _per_seat(value: object, players: int) -> tuple[int | None, ...]:
    """A per-seat list of whole numbers or nulls, ``players`` long."""
    items = list(value) if isinstance(value, list | tuple) else []
    items += [None] * (players - len(items))
    return tuple(json_opt_int(v) for v in items[:players])


# Expectations are immutable too: one per phase and seat, made once.
_EXPECT_PLAY = tuple(Expectation(seat, Verb.PLAY) for seat in range(7))
_EXPECT_BID = tuple(Expectation(seat, Verb.BID) for seat in range(7))
_EXPECT_TRUMP = tuple(Expectation(seat, Verb.TRUMP) for seat in range(7))


class OhPshaw(Engine):
    """The Oh Pshaw engine; see the module docstring for the rules it enforces."""

    game_id: ClassVar[str] = "oh-pshaw"
    title: ClassVar[str] = "Oh Pshaw"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7

    def __init__(self, players: int, dealer: int, options: Options) -> None:
        if not self.min_players <= players <= self.max_players:
            raise BadOption(say("Oh Pshaw is for 3 to 7 players, not {players}", players=players))
        self.players = players
        self.first_dealer = dealer
        self.options = options
        self.rounds: list[RoundState] = []
        # The current (or, once the game is over, the last) round; set by _start_round.
        self.round: RoundState
        self.phase = Phase.BID
        self.turn = 0
        self.tied: tuple[int, ...] = ()
        self.ended_early = False  # staff ended the game (an ``end`` action)
        # Running totals of the scored rounds (see totals()), so that a replay costs
        # linear time in its length instead of re-summing every round at each round end.
        self._banked = [0] * players
        self._banked_rounds = 0
        self.opening_events: list[Event] = self._start_round(0)

    # --- construction and notation ----------------------------------------------

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, cls.game_id)
        options = Options.read(header, players)
        dealer = read_seat_key(header, "dealer", players)
        return cls(players, dealer, options)

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        # Deal when a round has begun untouched (no hand, no turned card, no bid
        # yet): decided from the state alone, so a rebuilt game is not dealt twice.
        if not chance.cards or self.finished or self.round.touched:
            return []
        return deal(self, rng)

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The rulebook leaves the first dealer to the players; the table draws one.
        return new_header(cls, players, options, "dealer", rng)

    def header(self) -> JSON:
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": self.options.to_json(),
            "dealer": self.first_dealer,
        }

    _VERBS: ClassVar[dict[str, tuple[str, ...]]] = {
        Verb.PLAY: (),
        Verb.BID: (),
        Verb.TRUMP: (),
        Verb.HAND: (),
        Verb.END: (),
    }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        seat, verb = split_action(obj, self.players, self._VERBS)
        value = obj[verb]
        if verb == Verb.PLAY:
            return Play(seat, parse_card(value))
        if verb == Verb.BID:
            return Bid(seat, require_int(value, '"bid"'))
        if verb == Verb.TRUMP:
            return TurnTrump(seat, parse_card(value))
        if verb == Verb.END:
            if value != EARLY:
                raise MalformedAction(
                    say('"end" must be "early", not {value}', value=Verbatim(describe(value)))
                )
            return EndEarly(seat)
        if not isinstance(value, list):
            raise MalformedAction(
                say('"hand" must be a list of cards, not {value}', value=Verbatim(describe(value)))
            )
        return RegisterHand(seat, tuple(parse_card(text) for text in value))

    # --- the state machine --------------------------------------------------------

    @property
    def expected(self) -> Expectation | None:
        phase = self.phase
        if phase is Phase.PLAY:
            return _EXPECT_PLAY[self.turn]
        if phase is Phase.OVER:
            return None
        return _EXPECT_BID[self.turn] if phase is Phase.BID else _EXPECT_TRUMP[self.turn]

    def _round_trump(self, index: int, hand_size: int) -> tuple[bool, int | None]:
        """Whether round ``index`` turns a card, and its trump suit when none is turned."""
        opts = self.options
        if self.players * hand_size == DECK_SIZE:
            return False, None
        if opts.no_trump_last_round and index == len(opts.schedule) - 1:
            return False, None
        if opts.rotating_trump:
            return False, SUITS.index(ROTATION[index % 4])
        return True, None

    def _start_round(self, index: int) -> list[Event]:
        opts = self.options
        tie_break = index >= len(opts.schedule)
        hand_size = opts.tie_break_hand if tie_break else opts.schedule[index]
        dealer = (self.first_dealer + index) % self.players
        turns_card, trump = self._round_trump(index, hand_size)
        rnd = RoundState(index, dealer, hand_size, tie_break, turns_card, trump, self.players)
        if tie_break:
            rnd.scoring_seats = self.tied
        self.rounds.append(rnd)
        self.round = rnd
        # Bidding opens at once. The dealer's turned card may be recorded at any
        # time before the first card is played; it is only waited for if the
        # bidding closes without it (the spec's replay example shows the next
        # round's first bid as "next" straight after a round ends).
        self.phase, self.turn = Phase.BID, rnd.leader
        return [
            RoundStarted(
                index + 1,
                dealer,
                hand_size,
                tie_break,
                turns_card,
                None if trump is None else SUITS[trump],
            ),
            TurnPassed(self.turn),
        ]

    def apply(self, action: Action) -> list[Event]:
        if self.phase is Phase.OVER:
            raise IllegalAction(say("the game is over; nothing more can be played"))
        # Plays come most often: test for them first.
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, Bid):
            return self._bid(action)
        if isinstance(action, TurnTrump):
            return self._turn_trump(action)
        if isinstance(action, RegisterHand):
            return self._register(action)
        if isinstance(action, EndEarly):
            return self._end_early()
        raise IllegalAction(
            say("Oh Pshaw has no action {action}", action=Verbatim(type(action).__name__))
        )

    @staticmethod
    def _card(name: str) -> int:
        index = _CARD_INDEX.get(name)
        if index is None:
            raise IllegalAction(parse_card_message(name))
        return index

    def early_end(self, seat: int) -> Action | None:
        return EndEarly(seat)

    def _end_early(self) -> list[Event]:
        """The rulebook's early end: the points stand as they are, the leaders win."""
        if all(bid is None for bid in self.rounds[0].bids):  # a deal alone decides nothing
            raise IllegalAction(
                say("nothing has been played yet, so nobody leads; abandon the game instead")
            )
        self.ended_early = True
        self.phase = Phase.OVER
        totals = self.totals()
        shown = self.rounds_in_report()
        over = GameOver(tuple(totals), tuple(best_seats(totals)))
        return [GameEndedEarly(shown[-1].index + 1), over]

    # --- hands --------------------------------------------------------------------

    def _register(self, action: RegisterHand) -> list[Event]:
        seat, rnd = action.seat, self.round
        if rnd.hands[seat] is not None:
            raise _refused(
                seat,
                say("has already registered its hand for this round"),
            )
        if rnd.started[seat]:
            raise _refused(
                seat,
                say("cannot register a hand now: it has already played this round"),
            )
        if len(action.cards) != rnd.hand_size:
            raise IllegalAction(
                say_plural(
                    "{player}'s hand must have {n} card this round, not {given}",
                    "{player}'s hand must have {n} cards this round, not {given}",
                    rnd.hand_size,
                    player=Player(seat),
                    given=len(action.cards),
                )
            )
        cards: set[int] = set()
        where = rnd.where
        for name in action.cards:
            card = self._card(name)
            if card in cards:
                raise IllegalAction(
                    say("{card} is in {player}'s hand twice", card=Card(name), player=Player(seat))
                )
            place = where[card]
            if place == TURNED:
                raise IllegalAction(
                    say("{card} is the turned trump card; it cannot be in a hand", card=Card(name))
                )
            if place == PLAYED:
                raise IllegalAction(
                    say("{card} has already been played this round", card=Card(name))
                )
            if place >= 0:
                raise IllegalAction(
                    say(
                        "{card} is already in {player}'s registered hand",
                        card=Card(name),
                        player=Player(place),
                    )
                )
            cards.add(card)
        counts = rnd.suit_counts[seat]
        for card in cards:
            where[card] = seat
            counts[card // 13] += 1
        rnd.hands[seat] = sorted(cards)
        rnd.touched = True
        return [HandRegistered(seat, len(cards))]

    def registered_hand(self, seat: int) -> list[str] | None:
        """The seat's registered cards not yet played this round, or None (for its own bot)."""
        hand = self.round.hands[seat]
        return None if hand is None else [CARD_NAMES[c] for c in hand]

    # --- trump --------------------------------------------------------------------

    def _no_turn_reason(self, rnd: RoundState) -> Text:
        if self.players * rnd.hand_size == DECK_SIZE:
            return say(
                "no card is turned this round: the whole deck is dealt and there is no trump"
            )
        if rnd.trump is None:
            return say("no card is turned this round: the last round is played without trump")
        return say(
            "no card is turned this round: trump rotates and is {suit}",
            suit=SUIT_NAMES[rnd.trump],
        )

    def _turn_trump(self, action: TurnTrump) -> list[Event]:
        seat, rnd = action.seat, self.round
        if not rnd.turns_card:
            raise IllegalAction(self._no_turn_reason(rnd))
        if rnd.turned is not None:
            raise IllegalAction(
                say(
                    "the trump card for this round is already turned ({card})",
                    card=Card(CARD_NAMES[rnd.turned]),
                )
            )
        if self.phase is Phase.PLAY:
            raise IllegalAction(
                say("the trump card must be turned before the first card is played")
            )
        if seat != rnd.dealer:
            raise _refused(
                seat,
                say(
                    "cannot turn the trump card: {dealer} deals this round",
                    dealer=Player(rnd.dealer),
                ),
            )
        card = self._card(action.card)
        if rnd.where[card] >= 0:
            raise IllegalAction(
                say(
                    "{card} cannot be the turned card: it is in {player}'s registered hand",
                    card=Card(action.card),
                    player=Player(rnd.where[card]),
                )
            )
        rnd.turned = card
        rnd.where[card] = TURNED
        rnd.trump = card_suit(card)
        rnd.touched = True
        events: list[Event] = [TrumpTurned(seat, CARD_NAMES[card], SUITS[rnd.trump])]
        if self.phase is Phase.TRUMP:  # the bidding is over and waited for this card
            self.phase, self.turn = Phase.PLAY, rnd.leader
            events.append(TurnPassed(self.turn))
        return events

    # --- bidding ------------------------------------------------------------------

    def _hook_bid(self, rnd: RoundState) -> int | None:
        """The one bid the hook forbids the dealer now, or None."""
        if not self.options.hook or self.turn != rnd.dealer:
            return None
        return rnd.hand_size - sum(b for b in rnd.bids if b is not None)

    def _bid(self, action: Bid) -> list[Event]:
        seat, bid, rnd = action.seat, action.bid, self.round
        if self.phase is not Phase.BID:
            raise _refused(
                seat,
                say("cannot bid: the bidding for this round is over"),
            )
        if seat != self.turn:
            raise _refused(
                seat,
                say(
                    "cannot bid now: it is {bidder}'s turn to bid",
                    bidder=Player(self.turn),
                ),
            )
        if not 0 <= bid <= rnd.hand_size:
            raise _refused(
                seat,
                say_plural(
                    "cannot bid {bid}: this round has {n} trick, so a bid is 0..{n}",
                    "cannot bid {bid}: this round has {n} tricks, so a bid is 0..{n}",
                    rnd.hand_size,
                    bid=bid,
                ),
            )
        if bid == self._hook_bid(rnd):
            raise _refused(
                seat,
                say_plural(
                    "cannot bid {bid}: with the hook the bids may not add up to the {n} trick",
                    "cannot bid {bid}: with the hook the bids may not add up to the {n} tricks",
                    rnd.hand_size,
                    bid=bid,
                ),
                role="the dealer",
            )
        rnd.bids[seat] = bid
        rnd.touched = True
        events: list[Event] = [BidMade(seat, bid)]
        if seat == rnd.dealer:
            bids = tuple(b for b in rnd.bids if b is not None)
            status = rnd.status()
            assert status is not None
            events.append(BiddingClosed(bids, sum(bids), rnd.hand_size, status))
            if rnd.turns_card and rnd.turned is None:
                self.phase, self.turn = Phase.TRUMP, rnd.dealer
            else:
                self.phase, self.turn = Phase.PLAY, rnd.leader
        else:
            self.turn = (seat + 1) % self.players
        events.append(TurnPassed(self.turn))
        return events

    # --- playing --------------------------------------------------------------------

    def _play(self, action: Play) -> list[Event]:
        seat, rnd = action.seat, self.round
        card = _CARD_INDEX.get(action.card, -1)
        # The common, legal case costs a few lookups; _refuse_play says what is wrong.
        if self.phase is not Phase.PLAY or seat != self.turn or card < 0:
            self._refuse_play(action)
        place = rnd.where[card]
        if place != FREE and place != seat:
            self._refuse_play(action)
        suit = card // 13
        led = rnd.led
        hand = rnd.hands[seat]
        if hand is not None:
            counts = rnd.suit_counts[seat]
            if place != seat or (led >= 0 and suit != led and counts[led]):
                self._refuse_play(action)
            hand.remove(card)
            counts[suit] -= 1

        # Validated: from here on the state changes.
        number = rnd.trick_number
        events: list[Event] = [CardPlayed(seat, action.card, number)]
        failures = rnd.failures[seat]
        if failures:
            kept = []
            for failed_suit, trick_number in failures:
                if failed_suit == suit:
                    rnd.reneges.append((seat, trick_number))
                    events.append(RenegeProven(seat, trick_number, SUITS[suit]))
                else:
                    kept.append((failed_suit, trick_number))
            rnd.failures[seat] = kept
        if hand is None and led >= 0 and suit != led:
            rnd.failures[seat].append((led, number))
        rnd.where[card] = PLAYED
        rnd.started[seat] = True
        rnd.touched = True
        trick = rnd.trick
        trick.append((seat, card))
        if led < 0:
            rnd.led = suit
        if len(trick) < self.players:
            self.turn = turn = (seat + 1) % self.players
            events.append(TurnPassed(turn))
            return events
        events.extend(self._finish_trick(rnd))
        return events

    def _refuse_play(self, action: Play) -> NoReturn:
        """Raise the IllegalAction that says why ``action`` cannot be played now."""
        seat, name, rnd = action.seat, action.card, self.round
        if self.phase is not Phase.PLAY:
            if self.phase is Phase.TRUMP:
                raise _refused(
                    seat,
                    say(
                        "cannot play {card}: {dealer} must turn the trump card first",
                        card=_card_arg(name),
                        dealer=Player(rnd.dealer),
                    ),
                )
            raise _refused(
                seat,
                say(
                    "cannot play {card}: the bidding is not over ({bidder} bids next)",
                    card=_card_arg(name),
                    bidder=Player(self.turn),
                ),
            )
        if seat != self.turn:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it is {other}'s turn",
                    card=_card_arg(name),
                    other=Player(self.turn),
                ),
            )
        card = self._card(name)
        place = rnd.where[card]
        if place == TURNED:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it is the turned trump card, which stays on the table",
                    card=Card(name),
                ),
            )
        if place == PLAYED:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it has already been played this round",
                    card=Card(name),
                ),
            )
        if place >= 0 and place != seat:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it is in {other}'s registered hand",
                    card=Card(name),
                    other=Player(place),
                ),
            )
        hand = rnd.hands[seat]
        if hand is not None and place != seat:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it is not in the seat's hand",
                    card=Card(name),
                ),
            )
        assert hand is not None and rnd.led >= 0
        held = next(c for c in hand if c // 13 == rnd.led)
        raise _refused(
            seat,
            say(
                "cannot play {card}: it must follow {suit} while it holds {held}",
                card=Card(name),
                suit=SUIT_NAMES[rnd.led],
                held=Card(CARD_NAMES[held]),
            ),
        )

    @staticmethod
    def trick_winner(plays: Sequence[tuple[int, int]], trump: int | None) -> int:
        """The seat winning a trick of (seat, card) plays: highest trump, else highest led."""
        best_seat, best = plays[0]
        for seat, card in plays[1:]:
            best_suit = best // 13
            suit = card // 13
            if suit == best_suit:
                if card > best:
                    best_seat, best = seat, card
            elif suit == trump:
                best_seat, best = seat, card
        return best_seat

    def _finish_trick(self, rnd: RoundState) -> list[Event]:
        winner = self.trick_winner(rnd.trick, rnd.trump)
        rnd.tricks[winner] += 1
        plays = tuple(rnd.trick)
        events: list[Event] = [
            TrickWon(winner, rnd.trick_number, tuple((s, CARD_NAMES[c]) for s, c in plays))
        ]
        rnd.last_trick, rnd.last_winner = plays, winner
        rnd.trick = []
        rnd.led = -1
        if rnd.trick_number < rnd.hand_size:
            rnd.trick_number += 1
            rnd.leader = self.turn = winner
            events.append(TurnPassed(winner))
            return events
        events.extend(self._finish_round(rnd))
        return events

    def _score(self, rnd: RoundState, final: bool) -> list[int]:
        """The round's scores: final ones, or the running ones of a round in progress."""
        if rnd.scores is not None:
            return rnd.scores
        opts = self.options
        reneged = rnd.reneged
        scoring = rnd.scoring_seats
        scores: list[int] = []
        for seat in range(self.players):
            won, bid = rnd.tricks[seat], rnd.bids[seat]
            if seat in reneged:
                scores.append(-opts.renege_penalty)
                continue
            if scoring is not None and seat not in scoring:
                # A tie-break round: this seat only plays along (a renege still costs).
                scores.append(0)
                continue
            exact = final and won == bid
            if opts.scoring == "mild":
                scores.append(won + (10 if exact else 0))
            else:
                scores.append(10 + won if exact else 0)
        if final and opts.round_winner_bonus:
            able = [
                s
                for s in range(self.players)
                if s not in reneged and (scoring is None or s in scoring)
            ]
            top = max((scores[s] for s in able), default=0)
            if top > 0:
                for seat in able:
                    if scores[seat] == top:
                        scores[seat] += 10
        return scores

    def _finish_round(self, rnd: RoundState) -> list[Event]:
        rnd.scores = self._score(rnd, final=True)
        totals = self.totals()
        reneged = rnd.reneged
        outcomes = tuple(
            BidOutcome.RENEGED
            if seat in reneged
            else BidOutcome.MADE
            if rnd.tricks[seat] == rnd.bids[seat]
            else BidOutcome.MISSED
            for seat in range(self.players)
        )
        events: list[Event] = [
            RoundScored(
                rnd.index + 1,
                tuple(rnd.scores),
                tuple(totals),
                tuple(rnd.bids),
                tuple(rnd.tricks),
                outcomes,
            )
        ]
        if rnd.index + 1 < len(self.options.schedule):
            events.extend(self._start_round(rnd.index + 1))
            return events
        leaders = best_seats(totals)
        if len(leaders) > 1:
            self.tied = tuple(leaders)
            events.append(TieBreak(self.tied, self.options.tie_break_hand))
            events.extend(self._start_round(rnd.index + 1))
            return events
        self.phase = Phase.OVER
        events.append(GameOver(tuple(totals), tuple(leaders)))
        return events

    # --- what the table, display and bots read --------------------------------------

    def rounds_in_report(self) -> list[RoundState]:
        """Rounds begun: the first always, a later one once an action of it is taken."""
        rounds = self.rounds
        if len(rounds) > 1 and not rounds[-1].touched:
            return rounds[:-1]
        return list(rounds)

    def round_scores(self, rnd: RoundState) -> list[int]:
        """What the round adds to the totals so far (final once it is scored)."""
        return self._score(rnd, final=False)

    def totals(self) -> list[int]:
        # The same sum as over rounds_in_report(): every round but the current one is
        # scored, and scored rounds are added to the running totals once.
        rounds, banked = self.rounds, self._banked
        while self._banked_rounds < len(rounds):
            scores = rounds[self._banked_rounds].scores
            if scores is None:
                break
            for seat, score in enumerate(scores):
                banked[seat] += score
            self._banked_rounds += 1
        totals = list(banked)
        rnd = self.round
        if rnd.scores is None and (rnd.touched or len(rounds) == 1):
            for seat, score in enumerate(self.round_scores(rnd)):
                totals[seat] += score
        return totals

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.OVER or seat != self.turn:
            return []
        rnd = self.round
        if phase is Phase.PLAY:
            plays = _PLAYS[seat]
            hand = rnd.hands[seat]
            led = rnd.led
            if hand is not None:
                if led >= 0 and rnd.suit_counts[seat][led]:
                    return [plays[c] for c in hand if c // 13 == led]
                return [plays[c] for c in hand]
            where = rnd.where
            free = [c for c in range(DECK_SIZE) if where[c] == FREE]
            # A suit the seat failed to follow cannot be in its hand unless it reneged:
            # leave it out, unless nothing else is left.
            void = {s for s, _ in rnd.failures[seat]}
            honest = [c for c in free if c // 13 not in void] if void else free
            return [plays[c] for c in (honest or free)]
        if phase is Phase.BID:
            forbidden = self._hook_bid(rnd)
            bids = _BIDS[seat]
            return [bids[n] for n in range(rnd.hand_size + 1) if n != forbidden]
        where = rnd.where
        return [TurnTrump(seat, CARD_NAMES[c]) for c in range(DECK_SIZE) if where[c] == FREE]

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        bids: list[Words] = ["-" if b is None else str(b) for b in round_report["bids"]]
        tricks: list[Words] = [str(t) for t in round_report["tricks"]]
        return [(say("bid"), bids), (say("tricks won"), tricks)]

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        size = round_report["hand_size"]
        notes: list[Words] = [
            say_plural(
                "{n} card each, dealt by {dealer}",
                "{n} cards each, dealt by {dealer}",
                size,
                dealer=Player(round_report["dealer"]),
            )
        ]
        trump = round_report["trump"]
        suit = None if trump is None else SUIT_NAMES[SUITS.index(trump)]
        turned = round_report["turned"]
        if suit is not None and turned is not None:
            notes.append(say("Trump: {suit} (turned card {card})", suit=suit, card=Card(turned)))
        elif suit is not None:
            notes.append(say("Trump: {suit}", suit=suit))
        status = round_report["status"]
        if status is not None:
            notes.append(
                say_plural(
                    "The bids total {total} for {n} trick: {status}",
                    "The bids total {total} for {n} tricks: {status}",
                    size,
                    total=sum(round_report["bids"]),
                    status=BidStatus(status).word,
                )
            )
        notes += [
            say("{player} reneged in trick {trick}", player=Player(r["seat"]), trick=r["trick"])
            for r in round_report["reneges"]
        ]
        if round_report.get("tie_break"):
            notes.append(say("A tie-break round"))
        return notes

    def round_json(self, rnd: RoundState) -> JSON:
        out: JSON = {
            "scores": self.round_scores(rnd),
            "bids": list(rnd.bids),
            "tricks": list(rnd.tricks),
            "trump": None if rnd.trump is None else SUITS[rnd.trump],
            "hand_size": rnd.hand_size,
            "dealer": rnd.dealer,
            "turned": None if rnd.turned is None else CARD_NAMES[rnd.turned],
            "status": rnd.status(),
            "reneges": [{"seat": s, "trick": t} for s, t in rnd.reneges],
        }
        if rnd.tie_break:
            out["tie_break"] = True
            out["tied"] = list(rnd.scoring_seats or ())
        return out

    def report(self) -> JSON:
        totals = self.totals()
        expected = self.expected
        out: JSON = {
            "finished": self.phase is Phase.OVER,
            "rounds": [self.round_json(rnd) for rnd in self.rounds_in_report()],
            "totals": totals,
            "winners": best_seats(totals),
            "next": None if expected is None else expected.to_json(),
        }
        if self.ended_early:
            out["ended"] = EARLY
        return out

    def unseen_cards(self) -> list[str]:
        """The round's cards in no registered hand, not played and not turned, in deck order."""
        where = self.round.where
        return [CARD_NAMES[c] for c in range(DECK_SIZE) if where[c] == FREE]

    def bid_choices(self) -> list[int]:
        """The bids the seat to bid may make now, in order (the hook may leave one out)."""
        if self.phase is not Phase.BID:
            return []
        return [a.bid for a in self.legal_actions(self.turn) if isinstance(a, Bid)]

    @property
    def awaiting_turned_card(self) -> bool:
        """Whether the round turns a card, none is turned yet, and no card is played."""
        rnd = self.round
        return self.phase in (Phase.BID, Phase.TRUMP) and rnd.turns_card and rnd.turned is None

    def snapshot(self) -> OhPshawSnapshot:
        rnd = self.round
        totals = self.totals()
        led = rnd.led
        playing = self.phase is Phase.PLAY
        return OhPshawSnapshot(
            game=self.game_id,
            title=self.title,
            players=self.players,
            phase=self.phase,
            round=rnd.index + 1,
            rounds_scheduled=len(self.options.schedule),
            tie_break=rnd.tie_break,
            tied=self.tied,
            dealer=rnd.dealer,
            eldest=(rnd.dealer + 1) % self.players,
            hand_size=rnd.hand_size,
            turns_card=rnd.turns_card,
            trump_card=None if rnd.turned is None else CARD_NAMES[rnd.turned],
            trump=None if rnd.trump is None else SUITS[rnd.trump],
            bids=tuple(rnd.bids),
            bid_total=sum(b for b in rnd.bids if b is not None),
            status=rnd.status(),
            hook_forbids=self._hook_bid(rnd) if self.phase is Phase.BID else None,
            tricks=tuple(rnd.tricks),
            trick_number=rnd.trick_number,
            leader=rnd.leader,
            led_suit=None if led < 0 else SUITS[led],
            trick=tuple(TrickCard(s, CARD_NAMES[c]) for s, c in rnd.trick),
            last_trick=tuple(TrickCard(s, CARD_NAMES[c]) for s, c in rnd.last_trick),
            last_trick_winner=rnd.last_winner,
            hand_registered=tuple(h is not None for h in rnd.hands),
            reneges=tuple(Renege(s, t) for s, t in rnd.reneges),
            round_scores=tuple(self.round_scores(rnd)),
            totals=tuple(totals),
            leaders=tuple(best_seats(totals)),
            next=self.expected,
            winners=tuple(best_seats(totals)) if self.phase is Phase.OVER else (),
            awaiting_turned_card=self.awaiting_turned_card,
            tricks_needed=tuple(
                None if bid is None or not playing else bid - won
                for bid, won in zip(rnd.bids, rnd.tricks, strict=True)
            ),
            ended_early=self.ended_early,
            last_round=tuple(self.rounds[rnd.index - 1].scores or ()) if rnd.index else (),
        )


def _refused(seat: int, reason: Text, role: str = "") -> IllegalAction:
    """A refusal of ``seat``'s action: the table names the seat once and shows ``reason``.

    The table says whom a refusal is about ("Seat 3: cannot play 6♣: ..."), so
    the message is the reason alone; ``str()`` keeps the record line the replay
    command prints after ``line N:``, the seat first ("seat 2 cannot play 6C: ...").
    """
    subject = f"seat {seat} ({role})" if role else f"seat {seat}"
    refusal = IllegalAction(f"{subject} {reason}")
    refusal.text = reason
    return refusal


def _card_arg(name: str) -> Card | Verbatim:
    """A card of a refused action as a message argument: a card if it is one, else as written."""
    return Card(name) if name in _CARD_INDEX else Verbatim(name)


def parse_card_message(name: object) -> Words:
    """The words for a string that is not a card (actions built in code, not parsed)."""
    try:
        parse_card(name)
    except MalformedAction as exc:
        return exc.text
    return say("{value} is not a card", value=Verbatim(describe(name)))


# --- chance made concrete ----------------------------------------------------------


def deal_cards(
    players: int, dealer: int, hand_size: int, turns_card: bool, rng: random.Random
) -> tuple[list[list[str]], str | None]:
    """Shuffle a 52-card deck and deal: each seat's hand and the turned card (or None).

    Cards go one at a time clockwise from the eldest hand, as the rulebook deals;
    the turned card is the next one off the stock.
    """
    if players * hand_size + (1 if turns_card else 0) > DECK_SIZE:
        raise ValueError(f"{players} hands of {hand_size} cards do not fit in the deck")
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players * hand_size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    turned = CARD_NAMES[deck[players * hand_size]] if turns_card else None
    return [[CARD_NAMES[c] for c in sorted(hand)] for hand in hands], turned


def deal(engine: OhPshaw, rng: random.Random) -> list[Action]:
    """The actions a shuffled physical deck gives at the start of the engine's current round.

    One ``hand`` registration per seat (the eldest first) and, when the round
    turns a card, the dealer's ``trump`` action. Raises ValueError once the round
    has begun (a hand registered, the card turned or a bid made).
    """
    rnd = engine.round
    if engine.finished:
        raise ValueError("the game is over; there is nothing to deal")
    if rnd.touched:
        raise ValueError("deal() is for the start of a round; this round has already begun")
    hands, turned = deal_cards(engine.players, rnd.dealer, rnd.hand_size, rnd.turns_card, rng)
    actions: list[Action] = []
    for i in range(engine.players):
        seat = (rnd.dealer + 1 + i) % engine.players
        actions.append(RegisterHand(seat, tuple(hands[seat])))
    if turned is not None:
        actions.append(TurnTrump(rnd.dealer, turned))
    return actions


# How the named choices (schedules, scoring) read on the options screen: the
# options' ``choice_words``, so a German table reads "aufsteigend", not "ascending".
