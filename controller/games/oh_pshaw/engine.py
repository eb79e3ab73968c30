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
  ``rotating_trump`` (trump by round index: H, C, D, S, H, ...). A whole-deck
  round has no trump under rotation too, as the record spec says.
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

The ``wizard`` option (the rulebook's variant "Wizard") adds four Wizards
``W1``-``W4`` and four Jesters ``N1``-``N4`` (60 cards; ``cards.WizardTrick``
decides tricks): the first Wizard wins, a Jester always loses (Jesters alone:
the first), both may be played at any time, a Wizard lead frees the others,
after a Jester lead the next card sets the suit. A turned Jester means no
trump; a turned Wizard waits for the dealer's ``trump_suit`` action, taken
like the turned card at any time before the first play.

``deal(engine, rng) -> list[Action]`` turns a seeded ``random.Random`` into the
actions a shuffled physical deck gives at the start of the current round: a
``hand`` registration for every seat (dealt one card at a time from the eldest)
and, when the round turns a card, the dealer's ``trump`` action with the next
card. Tests, the kiosk's simulated deck and the bots use it.

The engine is composed of its folder's modules: ``cards`` (the deck, the
notation, the trick rules, the deal), ``options``, ``actions`` and ``events``,
``state`` (the phases and a round), ``scoring`` and ``snapshot``; the trick
itself, the shared events and the phase tables come from
``controller.games.common``. This module is the state machine: one handler per
phase and kind of action (``_APPLY``), and per phase the answer to
``expected`` and ``legal_actions``. Its names are also re-exported here, so
``engine`` stays the one import of the table side.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
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
    TrickCard,
    TurnPassed,
    best_seats,
    new_header,
    read_players,
    read_seat_key,
)
from controller.games.common.dispatch import Routes, by_phase, on, phase_table
from controller.games.common.tricks import TrickWin
from controller.games.oh_pshaw import scoring
from controller.games.oh_pshaw.actions import (
    BIDS,
    EARLY,
    PLAYS,
    Bid,
    ChooseTrump,
    EndEarly,
    Play,
    RegisterHand,
    TurnTrump,
    Verb,
    parse_action,
)
from controller.games.oh_pshaw.cards import (
    CARD_INDEX,
    CARD_NAMES,
    DECK_SIZE,
    JESTER_SUIT,
    NAME_OF,
    RANKS,
    ROTATION,
    SUIT_NAMES,
    SUIT_OF,
    SUITS,
    TRICK_RULES,
    WIZARD_CARD_INDEX,
    WIZARD_SUIT,
    card_arg,
    card_index,
    card_suit,
    deal_cards,
    parse_card,
    parse_card_message,
)
from controller.games.oh_pshaw.events import (
    BiddingClosed,
    BidMade,
    BidOutcome,
    BidStatus,
    CardPlayed,
    GameEndedEarly,
    HandRegistered,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TieBreak,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
)
from controller.games.oh_pshaw.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oh_pshaw.options import (
    CONTRACT_WHIST,
    OPTIONS,
    Chosen,
    Options,
    default_max_hand,
)
from controller.games.oh_pshaw.snapshot import OhPshawSnapshot, Renege
from controller.games.oh_pshaw.state import (
    FREE,
    PLAYED,
    TURNED,
    Phase,
    RoundState,
    trick_of,
)
from controller.games.words import Card, Player, Text, Verbatim, Words, say, say_plural

__all__ = [
    "CARD_NAMES",
    "CONTRACT_WHIST",
    "DECK_SIZE",
    "EARLY",
    "FREE",
    "OPTIONS",
    "PLAYED",
    "RANKS",
    "ROTATION",
    "SUITS",
    "SUIT_NAMES",
    "TRICK_RULES",
    "TURNED",
    "Bid",
    "BidMade",
    "BidOutcome",
    "BidStatus",
    "BiddingClosed",
    "CardPlayed",
    "ChooseTrump",
    "Chosen",
    "EndEarly",
    "GameEndedEarly",
    "HandRegistered",
    "OhPshaw",
    "OhPshawSnapshot",
    "Options",
    "Phase",
    "Play",
    "RegisterHand",
    "Renege",
    "RenegeProven",
    "RoundScored",
    "RoundStarted",
    "RoundState",
    "TieBreak",
    "TrickWon",
    "TrumpChosen",
    "TrumpTurned",
    "TurnTrump",
    "Verb",
    "card_index",
    "card_suit",
    "deal",
    "deal_cards",
    "default_max_hand",
    "parse_card",
    "parse_card_message",
]

# What the engine waits for, by phase and seat to act: immutable, so made once.
_EXPECTATIONS: Mapping[Phase, tuple[Expectation | None, ...]] = by_phase(
    Phase,
    {
        Phase.PLAY: tuple(Expectation(seat, Verb.PLAY) for seat in range(7)),
        Phase.BID: tuple(Expectation(seat, Verb.BID) for seat in range(7)),
        Phase.TRUMP: tuple(Expectation(seat, Verb.TRUMP) for seat in range(7)),
        Phase.OVER: (None,) * 7,
    },
)
# The Wizard variant: the dealer who turned a Wizard is waited for to choose trump.
_CHOICES: tuple[Expectation, ...] = tuple(Expectation(seat, Verb.TRUMP_SUIT) for seat in range(7))


def win_reason(card: int, how: TrickWin, led: int | None, trump: int | None) -> Text:
    """Why ``card`` took the trick, in words: the highest trump, or the highest of the suit led.

    The Wizard variant adds the first Wizard played, and a trick of Jesters alone.
    """
    if how is TrickWin.FIRST_WIZARD:
        return say("{card} is the first Wizard played", card=Card(NAME_OF[card]))
    if how is TrickWin.ALL_JESTERS or led is None:
        return say("all Jesters: the first one, {card}, takes the trick", card=Card(NAME_OF[card]))
    if how is TrickWin.HIGHEST_TRUMP or led == trump:
        return say("{card} is the highest trump", card=Card(NAME_OF[card]))
    return say(
        "{card} is the highest card of the suit led, {suit}",
        card=Card(NAME_OF[card]),
        suit=SUIT_NAMES[led],
    )


class OhPshaw(Engine):
    """The Oh Pshaw engine; see the module docstring for the rules it enforces."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    def __init__(self, players: int, dealer: int, options: Options) -> None:
        if not self.min_players <= players <= self.max_players:
            raise BadOption(say("Oh Pshaw is for 3 to 7 players, not {players}", players=players))
        self.players = players
        self.first_dealer = dealer
        self.options = options
        # The notation this game reads: the Wizard variant's 60 cards, or the 52.
        self._index = WIZARD_CARD_INDEX if options.wizard else CARD_INDEX
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
        # The rulebook cuts for the lowest card: the table does (the spec's starter) and
        # names the dealer over this draw, which a header made without a cut keeps.
        return new_header(cls, players, options, "dealer", rng)

    def header(self) -> JSON:
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": self.options.to_json(),
            "dealer": self.first_dealer,
        }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        return parse_action(obj, self.players, self.options.wizard)

    # --- the state machine --------------------------------------------------------

    @property
    def expected(self) -> Expectation | None:
        if self.phase is Phase.TRUMP and self.round.choosing:
            return _CHOICES[self.turn]
        return _EXPECTATIONS[self.phase][self.turn]

    def _round_trump(self, index: int, hand_size: int) -> tuple[bool, int | None]:
        """Whether round ``index`` turns a card, and its trump suit when none is turned."""
        opts = self.options
        if self.players * hand_size == opts.deck_size:
            # The record spec: "A round in which the whole deck is dealt has no turned
            # card and no trump", under rotating trump too (docs/oh-pshaw.md).
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
        rnd = RoundState(
            index, dealer, hand_size, tie_break, turns_card, trump, self.players, wizard=opts.wizard
        )
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
        # The phase's table names the handler of this kind of action (see _APPLY).
        return self._APPLY[self.phase][type(action)](self, action)

    def _over(self, action: Action) -> NoReturn:
        raise IllegalAction(say("the game is over; nothing more can be played"))

    def _unknown(self, action: Action) -> NoReturn:
        raise IllegalAction(
            say("Oh Pshaw has no action {action}", action=Verbatim(type(action).__name__))
        )

    def _card(self, name: str) -> int:
        index = self._index.get(name)
        if index is None:
            raise IllegalAction(parse_card_message(name, self.options.wizard))
        return index

    def early_end(self, seat: int) -> Action | None:
        return EndEarly(seat)

    def _end_early(self, action: EndEarly) -> list[Event]:
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

    def _register(self, action: RegisterHand[str]) -> list[Event]:
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
        for card in cards:
            where[card] = seat
        rnd.hands[seat] = sorted(cards)
        rnd.touched = True
        return [HandRegistered(seat, len(cards))]

    def registered_hand(self, seat: int) -> list[str] | None:
        """The seat's registered cards not yet played this round, or None (for its own bot)."""
        hand = self.round.hands[seat]
        return None if hand is None else [NAME_OF[c] for c in hand]

    # --- trump --------------------------------------------------------------------

    def _no_turn_reason(self, rnd: RoundState) -> Text:
        if self.players * rnd.hand_size == rnd.deck_size:
            return say(
                "no card is turned this round: the whole deck is dealt and there is no trump"
            )
        if rnd.trump is None:
            return say("no card is turned this round: the last round is played without trump")
        return say(
            "no card is turned this round: trump rotates and is {suit}",
            suit=SUIT_NAMES[rnd.trump],
        )

    def _check_card_to_turn(self, rnd: RoundState) -> None:
        """Refuse a turned card where the round turns none, or has turned its card."""
        if not rnd.turns_card:
            raise IllegalAction(self._no_turn_reason(rnd))
        if rnd.turned is not None:
            raise IllegalAction(
                say(
                    "the trump card for this round is already turned ({card})",
                    card=Card(NAME_OF[rnd.turned]),
                )
            )

    def _trump_after_play_began(self, action: TurnTrump) -> NoReturn:
        self._check_card_to_turn(self.round)
        raise IllegalAction(say("the trump card must be turned before the first card is played"))

    def _turn_trump(self, action: TurnTrump) -> list[Event]:
        """The dealer's turned card, during the bidding or once the bidding waits for it."""
        seat, rnd = action.seat, self.round
        self._check_card_to_turn(rnd)
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
        rnd.touched = True
        suit = card_suit(card)
        if suit == WIZARD_SUIT:  # the dealer chooses trump (a trump_suit action)
            rnd.choosing = True
            return [TrumpTurned(seat, NAME_OF[card], None)]
        if suit == JESTER_SUIT:  # a Jester turned: no trump this round
            return [TrumpTurned(seat, NAME_OF[card], None)]
        rnd.trump = suit
        return [TrumpTurned(seat, NAME_OF[card], SUITS[suit])]

    def _turn_awaited_trump(self, action: TurnTrump) -> list[Event]:
        """The turned card the closed bidding waits for: then the eldest hand leads."""
        events = self._turn_trump(action)
        if not self.round.choosing:  # else the dealer, still to act, chooses trump next
            self.phase, self.turn = Phase.PLAY, self.round.leader
        events.append(TurnPassed(self.turn))
        return events

    def _check_choice(self, action: ChooseTrump) -> None:
        """Refuse a choice of trump unless the dealer has turned a Wizard and not yet chosen."""
        rnd = self.round
        if not rnd.choosing:
            if rnd.turned is not None and card_suit(rnd.turned) == WIZARD_SUIT:
                raise IllegalAction(
                    say(
                        "trump is already chosen this round ({suit})",
                        suit=SUIT_NAMES[rnd.trump if rnd.trump is not None else 0],
                    )
                )
            raise IllegalAction(
                say("the dealer chooses trump only after turning a Wizard, and none is turned")
            )
        if action.seat != rnd.dealer:
            raise _refused(
                action.seat,
                say("cannot choose trump: {dealer} deals this round", dealer=Player(rnd.dealer)),
            )

    def _choose_trump(self, action: ChooseTrump) -> list[Event]:
        """The dealer's choice of trump after a turned Wizard, during the bidding."""
        self._check_choice(action)
        rnd = self.round
        rnd.choosing = False
        rnd.trump = SUITS.index(action.suit)
        return [TrumpChosen(action.seat, action.suit)]

    def _choose_awaited_trump(self, action: ChooseTrump) -> list[Event]:
        """The choice of trump the closed bidding waits for: then the eldest hand leads."""
        events = self._choose_trump(action)
        self.phase, self.turn = Phase.PLAY, self.round.leader
        events.append(TurnPassed(self.turn))
        return events

    def _choice_after_play_began(self, action: ChooseTrump) -> NoReturn:
        self._check_choice(action)
        raise IllegalAction(say("trump must be chosen before the first card is played"))

    # --- bidding ------------------------------------------------------------------

    def _hook_bid(self, rnd: RoundState) -> int | None:
        """The one bid the hook forbids the dealer now, or None."""
        if not self.options.hook or self.turn != rnd.dealer:
            return None
        return rnd.hand_size - sum(b for b in rnd.bids if b is not None)

    def _bidding_over(self, action: Bid) -> NoReturn:
        raise _refused(action.seat, say("cannot bid: the bidding for this round is over"))

    def _bid(self, action: Bid) -> list[Event]:
        seat, bid, rnd = action.seat, action.bid, self.round
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
            if (rnd.turns_card and rnd.turned is None) or rnd.choosing:
                self.phase, self.turn = Phase.TRUMP, rnd.dealer
            else:
                self.phase, self.turn = Phase.PLAY, rnd.leader
        else:
            self.turn = (seat + 1) % self.players
        events.append(TurnPassed(self.turn))
        return events

    # --- playing --------------------------------------------------------------------

    def _play_while_bidding(self, action: Play) -> NoReturn:
        raise _refused(
            action.seat,
            say(
                "cannot play {card}: the bidding is not over ({bidder} bids next)",
                card=card_arg(action.card),
                bidder=Player(self.turn),
            ),
        )

    def _play_before_trump(self, action: Play) -> NoReturn:
        args = {"card": card_arg(action.card), "dealer": Player(self.round.dealer)}
        if self.round.choosing:
            reason = say(
                "cannot play {card}: {dealer} turned a Wizard and must choose trump first", **args
            )
        else:
            reason = say("cannot play {card}: {dealer} must turn the trump card first", **args)
        raise _refused(action.seat, reason)

    def _play(self, action: Play) -> list[Event]:
        seat, rnd = action.seat, self.round
        card = self._index.get(action.card, -1)
        # The common, legal case costs a few lookups; _refuse_play says what is wrong.
        if seat != self.turn or card < 0:
            self._refuse_play(action)
        place = rnd.where[card]
        if place != FREE and place != seat:
            self._refuse_play(action)
        trick = rnd.trick
        suit = SUIT_OF[card]
        led = trick.led
        hand = rnd.hands[seat]
        if hand is not None:
            # Following the led suit needs no look at the hand; only an off-suit card does.
            off_suit = led is not None and suit != led
            if place != seat or (off_suit and not trick.follows(card, hand)):
                self._refuse_play(action)
            hand.remove(card)

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
        # (A Wizard or a Jester never fails to follow: it may always be played.)
        if hand is None and led is not None and suit != led and suit < WIZARD_SUIT:
            rnd.failures[seat].append((led, number))
        rnd.where[card] = PLAYED
        rnd.started[seat] = True
        rnd.touched = True
        trick.add(seat, card)
        if len(trick.plays) < self.players:
            self.turn = turn = (seat + 1) % self.players
            events.append(TurnPassed(turn))
            return events
        events.extend(self._finish_trick(rnd))
        return events

    def _refuse_play(self, action: Play) -> NoReturn:
        """Raise the IllegalAction that says why ``action`` cannot be played now."""
        seat, name, rnd = action.seat, action.card, self.round
        if seat != self.turn:
            raise _refused(
                seat,
                say(
                    "cannot play {card}: it is {other}'s turn",
                    card=card_arg(name),
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
        led = rnd.trick.led
        assert hand is not None and led is not None
        held = next(c for c in hand if SUIT_OF[c] == led)
        raise _refused(
            seat,
            say(
                "cannot play {card}: it must follow {suit} while it holds {held}",
                card=Card(name),
                suit=SUIT_NAMES[led],
                held=Card(NAME_OF[held]),
            ),
        )

    @staticmethod
    def trick_winner(plays: Sequence[tuple[int, int]], trump: int | None) -> int:
        """The seat winning a trick of (seat, card) plays: highest trump, else highest led."""
        return trick_of(plays, any(c >= DECK_SIZE for _, c in plays)).winner(trump)[0]

    def _finish_trick(self, rnd: RoundState) -> list[Event]:
        trick = rnd.trick
        winner, card, how = trick.winner(rnd.trump)
        rnd.tricks[winner] += 1
        plays = tuple(trick.plays)
        events: list[Event] = [
            TrickWon(
                winner,
                rnd.trick_number,
                tuple((s, NAME_OF[c]) for s, c in plays),
                win_reason(card, how, trick.led, rnd.trump),
            )
        ]
        rnd.last_trick, rnd.last_winner = plays, winner
        if rnd.trick_number < rnd.hand_size:
            rnd.trick_number += 1
            rnd.trick = rnd.new_trick(winner)
            self.turn = winner
            events.append(TurnPassed(winner))
            return events
        rnd.trick = rnd.new_trick(trick.lead_seat)  # the last trick leaves the table
        events.extend(self._finish_round(rnd))
        return events

    # --- rounds ---------------------------------------------------------------------

    def _finish_round(self, rnd: RoundState) -> list[Event]:
        rnd.scores = scoring.score(rnd, self.options, final=True)
        totals = self.totals()
        events: list[Event] = [
            RoundScored(
                rnd.index + 1,
                tuple(rnd.scores),
                tuple(totals),
                tuple(rnd.bids),
                tuple(rnd.tricks),
                scoring.outcomes(rnd),
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

    # --- the phase tables -------------------------------------------------------------

    # Phase -> kind of action -> the handler. A hand may be registered and staff may
    # end the game in any phase but the last; once the game is over all is refused.
    _APPLY: ClassVar[dict[Phase, Routes[OhPshaw]]] = phase_table(
        Phase,
        {
            Phase.BID: (
                on(Bid, _bid),
                on(TurnTrump, _turn_trump),
                on(ChooseTrump, _choose_trump),
                on(Play, _play_while_bidding),
            ),
            Phase.TRUMP: (
                on(TurnTrump, _turn_awaited_trump),
                on(ChooseTrump, _choose_awaited_trump),
                on(Bid, _bidding_over),
                on(Play, _play_before_trump),
            ),
            Phase.PLAY: (
                on(Play, _play),
                on(Bid, _bidding_over),
                on(TurnTrump, _trump_after_play_began),
                on(ChooseTrump, _choice_after_play_began),
            ),
            Phase.OVER: (),
        },
        shared=(on(RegisterHand, _register), on(EndEarly, _end_early)),
        otherwise={Phase.OVER: _over},
        unknown=_unknown,
    )

    # --- what the table, display and bots read --------------------------------------

    def rounds_in_report(self) -> list[RoundState]:
        """Rounds begun: the first always, a later one once an action of it is taken."""
        rounds = self.rounds
        if len(rounds) > 1 and not rounds[-1].touched:
            return rounds[:-1]
        return list(rounds)

    def round_scores(self, rnd: RoundState) -> list[int]:
        """What the round adds to the totals so far (final once it is scored)."""
        return scoring.score(rnd, self.options, final=False)

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
        if seat != self.turn:
            return []
        return self._LEGAL[self.phase](self, seat)

    def _legal_plays(self, seat: int) -> list[Action]:
        rnd = self.round
        plays = PLAYS[seat]
        hand = rnd.hands[seat]
        if hand is not None:
            return [plays[c] for c in rnd.trick.playable(hand)]
        where = rnd.where
        free = [c for c in range(rnd.deck_size) if where[c] == FREE]
        # A suit the seat failed to follow cannot be in its hand unless it reneged:
        # leave it out, unless nothing else is left.
        void = {s for s, _ in rnd.failures[seat]}
        honest = [c for c in free if SUIT_OF[c] not in void] if void else free
        return [plays[c] for c in (honest or free)]

    def _legal_bids(self, seat: int) -> list[Action]:
        forbidden = self._hook_bid(self.round)
        bids = BIDS[seat]
        return [bids[n] for n in range(self.round.hand_size + 1) if n != forbidden]

    def _legal_trumps(self, seat: int) -> list[Action]:
        rnd = self.round
        if rnd.choosing:
            return [ChooseTrump(seat, suit) for suit in SUITS]
        where = rnd.where
        return [TurnTrump(seat, NAME_OF[c]) for c in range(rnd.deck_size) if where[c] == FREE]

    def _legal_nothing(self, seat: int) -> list[Action]:
        return []

    _LEGAL: ClassVar[dict[Phase, Callable[[OhPshaw, int], list[Action]]]] = by_phase(
        Phase,
        {
            Phase.PLAY: _legal_plays,
            Phase.BID: _legal_bids,
            Phase.TRUMP: _legal_trumps,
            Phase.OVER: _legal_nothing,
        },
    )

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        return scoring.sheet_rows(round_report)

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        notes = scoring.sheet_notes(round_report)
        if self.ended_early and scoring.unfinished(round_report):
            # Only the last round can be unfinished: the sheet says how it counted.
            stand = scoring.points_as_they_stand(self.options.scoring, round_report)
            notes.append(say("Cut short by the early end: {stand}", stand=stand))
        return notes

    def round_json(self, rnd: RoundState) -> JSON:
        return scoring.round_json(rnd, self.options)

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
        return [NAME_OF[c] for c in range(self.round.deck_size) if where[c] == FREE]

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

    @property
    def awaiting_trump_choice(self) -> bool:
        """The Wizard variant: whether the dealer turned a Wizard and has yet to choose trump."""
        return self.phase in (Phase.BID, Phase.TRUMP) and self.round.choosing

    def snapshot(self) -> OhPshawSnapshot:
        rnd = self.round
        totals = self.totals()
        led = rnd.trick.led
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
            trump_card=None if rnd.turned is None else NAME_OF[rnd.turned],
            trump=None if rnd.trump is None else SUITS[rnd.trump],
            bids=tuple(rnd.bids),
            bid_total=sum(b for b in rnd.bids if b is not None),
            status=rnd.status(),
            hook_forbids=self._hook_bid(rnd) if self.phase is Phase.BID else None,
            tricks=tuple(rnd.tricks),
            trick_number=rnd.trick_number,
            leader=rnd.leader,
            led_suit=None if led is None else SUITS[led],
            trick=tuple(TrickCard(s, NAME_OF[c]) for s, c in rnd.trick.plays),
            last_trick=tuple(TrickCard(s, NAME_OF[c]) for s, c in rnd.last_trick),
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
            awaiting_trump_choice=self.awaiting_trump_choice,
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


# --- chance made concrete ----------------------------------------------------------


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
    hands, turned = deal_cards(
        engine.players, rnd.dealer, rnd.hand_size, rnd.turns_card, rng, rnd.deck_size
    )
    actions: list[Action] = []
    for i in range(engine.players):
        seat = (rnd.dealer + 1 + i) % engine.players
        actions.append(RegisterHand(seat, tuple(hands[seat])))
    if turned is not None:
        actions.append(TurnTrump(rnd.dealer, turned))
    return actions
