"""Oh Pshaw at the table.

Seat input by phase (``docs/oh-pshaw-table.md`` has the whole table):

| phase | tap a card | prev | ok | next |
| --- | --- | --- | --- | --- |
| turned card (physical deal, the dealer) | the turned card | - | - | - |
| bid (your turn) | - | one fewer | bid the number shown | one more |
| play (your turn) | play that card | - | - | - |

Each seat keeps its own bid cursor for the round: PREV/NEXT move it through
the bids the engine allows now (wrapping round, skipping the one bid the
hook forbids the dealer), and the OK button's label says the number it would
bid (``"bid 2"``), which is also how the display shows it.

With a virtual deal the table's shuffled deck (``chance``) registers every
hand and turns the dealer's trump card; with a physical deal the dealer taps
the turned card on their reader and hands are not known (a later play can
prove a renege). The engine accepts the turned card at any time before the
first play (records may carry it late); the table is stricter, as the
rulebook deals: until the dealer has tapped it, the bidding waits (OK explains
why) and only the dealer's light says "your turn".
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    Gesture,
    Press,
    SingleClassAdapter,
    Tap,
)
from controller.bots.oh_pshaw_bot import OhPshawBot
from controller.games.base import Action, Event, GameOver
from controller.games.oh_pshaw import (
    CARD_NAMES,
    FREE,
    SPEC,
    SUIT_NAMES,
    SUITS,
    Bid,
    BiddingClosed,
    BidMade,
    OhPshaw,
    Phase,
    Play,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TieBreak,
    TrickWon,
    TrumpTurned,
    TurnTrump,
    card_index,
)
from controller.view import MessageKind
from hardware.cues import Cue

# A cafe game should end within a coffee: rounds of 1 to 7 cards (7 rounds),
# which every player count (3-7) can deal. The engine's own default runs to
# 13-15 cards, far too long for a walk-up table.
BID_LABEL = "bid {}"  # the OK button's label while bidding; the display reads the number
STATUS_WORDS: Mapping[str, str] = {
    "over": "OVER: more tricks bid than there are, someone must miss",
    "under": "UNDER: fewer tricks bid than there are, someone takes more than they want",
    "equal": "EQUAL: the bids add up to the tricks",
}


class OhPshawAdapter(SingleClassAdapter):
    """Bids with the seat buttons, the turned card and plays by tapping."""

    spec = SPEC

    engine: OhPshaw

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        # player -> (round key, bid shown); a cursor from an earlier round is stale.
        self._cursors: dict[int, tuple[int, int]] = {}

    # --- the bid cursor --------------------------------------------------------------

    def _round_key(self) -> int:
        return len(self.engine.rounds)

    def bid_choices(self) -> list[int]:
        """The bids the seat to bid may make now (the hook may leave one out)."""
        engine = self.engine
        if engine.phase is not Phase.BID:
            return []
        return [a.bid for a in engine.legal_actions(engine.turn) if isinstance(a, Bid)]

    def bid_cursor(self, player: int) -> int:
        """The bid ``player``'s OK button would make now (0 at the start of a round)."""
        stored = self._cursors.get(player)
        value = stored[1] if stored is not None and stored[0] == self._round_key() else 0
        choices = self.bid_choices()
        if not choices or value in choices:
            return value
        # Stale or forbidden (the hook): the nearest allowed bid, upwards first.
        higher = [c for c in choices if c >= value]
        return higher[0] if higher else choices[-1]

    def _move_cursor(self, player: int, step: int) -> None:
        choices = self.bid_choices()
        index = choices.index(self.bid_cursor(player))
        self._cursors[player] = (self._round_key(), choices[(index + step) % len(choices)])

    # --- input -------------------------------------------------------------------------

    def awaiting_turned_card(self) -> bool:
        """Whether the round turns a card and the dealer has not tapped it yet."""
        engine = self.engine
        rnd = engine.round
        return engine.phase in (Phase.BID, Phase.TRUMP) and rnd.turns_card and rnd.turned is None

    def on_card(self, player: int, card: str) -> Action:
        # Before the first play the dealer's tap is the turned card. Anyone else's tap
        # is a play, which the engine refuses with the reason (bidding, or who turns).
        if self.awaiting_turned_card() and player == self.engine.round.dealer:
            return TurnTrump(player, card)
        return Play(player, card)

    def on_button(self, player: int, button: str) -> Action | str | None:
        engine = self.engine
        turn = engine.expected
        if turn is None:
            return None
        if self.awaiting_turned_card():
            dealer = engine.round.dealer
            if player == dealer:
                return "tap the turned card (the top card of the stock) on your reader"
            return f"wait: seat {dealer} taps the turned trump card first"
        if engine.phase is Phase.BID:
            if turn.seat != player:
                return f"wait: seat {turn.seat} bids now"
            if button == "prev":
                self._move_cursor(player, -1)
                return None
            if button == "next":
                self._move_cursor(player, 1)
                return None
            return Bid(player, self.bid_cursor(player))
        if turn.seat == player:
            return "tap the card you play on your reader"
        return None

    def hints(self) -> list[tuple[int, str, str]]:
        engine = self.engine
        if engine.phase is not Phase.BID or self.awaiting_turned_card():
            return []
        seat = engine.turn
        return [
            (seat, "prev", "fewer"),
            (seat, "ok", BID_LABEL.format(self.bid_cursor(seat))),
            (seat, "next", "more"),
        ]

    # --- output ------------------------------------------------------------------------

    def feedback(self, event: Event) -> list[Feedback]:
        handler = _FEEDBACK.get(type(event))
        return handler(self, event) if handler is not None else []

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play | TurnTrump):
            return [Tap(action.card)]
        if isinstance(action, Bid):
            choices = self.bid_choices()
            if action.bid not in choices:
                return [Press("ok")]  # not a legal bid now: OK at least shows why
            here = choices.index(self.bid_cursor(action.seat))
            there = choices.index(action.bid)
            up = (there - here) % len(choices)
            down = (here - there) % len(choices)
            steps = [Press("next")] * up if up <= down else [Press("prev")] * down
            return [*steps, Press("ok")]
        return []

    def make_bot(self, rng: random.Random) -> Bot:
        return _TableBot(self, OhPshawBot(rng), rng)

    def hand(self, player: int) -> tuple[str, ...]:
        registered = self.engine.registered_hand(player)
        return tuple(registered) if registered is not None else ()

    def waiting_players(self) -> list[int]:
        if self.awaiting_turned_card():
            return [self.engine.round.dealer]
        return super().waiting_players()


class _TableBot:
    """The engine's bot, plus the dealer's turned card the table waits for (physical deal)."""

    def __init__(self, adapter: OhPshawAdapter, bot: OhPshawBot, rng: random.Random) -> None:
        self.adapter = adapter
        self.bot = bot
        self.rng = rng

    def choose(self, engine: OhPshaw, seat: int) -> Action:
        rnd = engine.round
        if self.adapter.awaiting_turned_card() and seat == rnd.dealer:
            # A simulated dealer turns some card nobody is known to hold.
            free = [name for name in CARD_NAMES if rnd.where[card_index(name)] == FREE]
            return TurnTrump(seat, self.rng.choice(free))
        return self.bot.choose(engine, seat)


# --- feedback per event ----------------------------------------------------------------


def _suit_word(letter: str) -> str:
    return SUIT_NAMES[SUITS.index(letter)]


def _round_started(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    cards = "1 card" if e.hand_size == 1 else f"{e.hand_size} cards"
    extra = " (tie-break)" if e.tie_break else ""
    if e.turns_card:
        then = "and turns the trump card"
    elif e.trump is not None:
        then = f"- {_suit_word(e.trump)} are trump"
    else:
        then = "- no trump this round"
    return [Feedback(None, f"Round {e.round}{extra}: seat {e.dealer} deals {cards} {then}")]


def _trump_turned(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, TrumpTurned)
    text = f"Seat {e.seat} turned {e.card}: {_suit_word(e.trump)} are trump"
    return [Feedback(e.seat, text)]


def _bid_made(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, BidMade)
    return [Feedback(e.seat, f"Seat {e.seat} bids {e.bid}")]


def _bidding_closed(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, BiddingClosed)
    text = f"Bids total {e.total} for {e.tricks} tricks - {STATUS_WORDS.get(e.status, e.status)}"
    return [Feedback(None, text)]


def _trick_won(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon)
    card = next((c for s, c in e.cards if s == e.seat), "?")
    text = f"Seat {e.seat} wins trick {e.trick} with {card}"
    return [Feedback(e.seat, text, MessageKind.WON, Cue.TRICK_WON)]


def _renege(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RenegeProven)
    text = (
        f"Renege: seat {e.seat} did not follow {_suit_word(e.suit)} in trick {e.trick} "
        "although it held one; its round scores only the penalty"
    )
    return [Feedback(e.seat, text, MessageKind.PENALTY, Cue.PENALTY)]


def _round_scored(adapter: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    # The engine has already moved on to the next round; the scored one is kept.
    rnd = adapter.engine.rounds[e.round - 1]
    reneged = rnd.reneged
    out: list[Feedback] = []
    for seat, score in enumerate(e.scores):
        bid, won = rnd.bids[seat], rnd.tricks[seat]
        sign = f"+{score}" if score >= 0 else str(score)
        if seat in reneged:
            text = f"Seat {seat} reneged: {sign} this round"
            out.append(Feedback(seat, text, MessageKind.PENALTY, Cue.MISSED_BID))
        elif won == bid:
            text = f"Seat {seat} made its bid of {bid}: {sign}"
            out.append(Feedback(seat, text, MessageKind.WON, Cue.MADE_BID))
        else:
            text = f"Seat {seat} missed: bid {bid}, took {won} ({sign})"
            out.append(Feedback(seat, text, MessageKind.INFO, Cue.MISSED_BID))
    return out


def _tie_break(adapter: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, TieBreak)
    who = " and ".join(f"seat {s}" for s in e.tied)
    cards = adapter.engine.options.max_hand
    return [Feedback(None, f"Tie between {who}: an extra round of {cards} cards decides")]


def _game_over(_: OhPshawAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    who = ", ".join(f"seat {s}" for s in e.winners)
    verb = "wins" if len(e.winners) == 1 else "share the victory"
    # No LED cue here: the last round's made/missed cues stay on show.
    return [Feedback(None, f"Game over: {who} {verb}", MessageKind.WON)]


_FEEDBACK = {
    RoundStarted: _round_started,
    TrumpTurned: _trump_turned,
    BidMade: _bid_made,
    BiddingClosed: _bidding_closed,
    TrickWon: _trick_won,
    RenegeProven: _renege,
    RoundScored: _round_scored,
    TieBreak: _tie_break,
    GameOver: _game_over,
}


ADAPTER = OhPshawAdapter
