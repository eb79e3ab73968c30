"""Oh Pshaw at the table.

Seat input by phase (``docs/oh-pshaw-table.md`` has the whole table):

| phase | tap a card | prev | ok | next |
| --- | --- | --- | --- | --- |
| turned card (physical deal, the dealer) | the turned card | - | - | - |
| bid (your turn) | - | one fewer | bid the number shown | one more |
| play (your turn) | play that card | - | - | - |

Each seat keeps its own bid cursor for the round (``BidCursors``, shared by
the three roles): PREV/NEXT move it through the bids the engine allows now
(``OhPshaw.bid_choices()``: wrapping round, without the one bid the hook
forbids the dealer); the OK button's label says the number it would bid
(``say("bid {bid}")``) for people, and the presentation puts the number in its
overlay (``OhPshawOverlay.bid_cursor``) for the display.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    GameAdapter,
    Gesture,
    Presentation,
    Press,
    SeatInput,
    Simulation,
    Tap,
)
from controller.games.base import JSON, Action, Event, GameOver, IllegalAction
from controller.games.oh_pshaw import scoring
from controller.games.oh_pshaw.actions import Bid, ChooseTrump, Play, TurnTrump
from controller.games.oh_pshaw.bots import OhPshawBot
from controller.games.oh_pshaw.cards import (
    NAME_OF,
    SUIT_NAMES,
    SUITS,
    WIZARD_NAMES,
)
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.events import (
    BiddingClosed,
    BidMade,
    BidOutcome,
    GameEndedEarly,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TieBreak,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
)
from controller.games.oh_pshaw.snapshot import OhPshawOverlay, OhPshawSnapshot
from controller.games.oh_pshaw.spec import SPEC
from controller.games.oh_pshaw.state import Phase
from controller.games.words import (
    Arg,
    Card,
    Items,
    Player,
    Signed,
    Text,
    Words,
    as_arg,
    say,
    say_plural,
)
from controller.view import GameView, MessageKind
from hardware.cues import Cue, Sound
from hardware.events import Button

FEWER, BID, MORE = Button.PREV, Button.OK, Button.NEXT
FEWER_LABEL, MORE_LABEL = say("fewer"), say("more")


def bid_label(bid: int) -> Text:
    """The OK button's label while bidding: the bid it would make (people read it; the
    display reads the overlay's ``bid_cursor``)."""
    return say("bid {bid}", bid=bid)


@dataclass
class BidCursors:
    """Each seat's bid cursor for the round: moved by input, shown by the presentation
    (button label, overlay) and followed by the simulation's gestures.

    It moves through the bids the engine allows now (wrapping round); a cursor
    from an earlier round is stale and starts again at 0.
    """

    engine: OhPshaw
    # player -> (round key, bid shown)
    _cursors: dict[int, tuple[int, int]] = field(default_factory=dict)

    def _round_key(self) -> int:
        return len(self.engine.rounds)

    def at(self, player: int) -> int:
        """The bid ``player``'s OK button would make now (0 at the start of a round)."""
        stored = self._cursors.get(player)
        value = stored[1] if stored is not None and stored[0] == self._round_key() else 0
        choices = self.engine.bid_choices()
        if not choices or value in choices:
            return value
        # Stale or forbidden (the hook): the nearest allowed bid, upwards first.
        higher = [c for c in choices if c >= value]
        return higher[0] if higher else choices[-1]

    def move(self, player: int, step: int) -> None:
        choices = self.engine.bid_choices()
        index = choices.index(self.at(player))
        self._cursors[player] = (self._round_key(), choices[(index + step) % len(choices)])


def bidding_open(engine: OhPshaw) -> bool:
    """Whether the table takes bids now: the engine's bidding phase, and, as the rulebook
    deals, the turned card already on the table (the engine also accepts it later, for
    records that carry it late; the table does not)."""
    return (
        engine.phase is Phase.BID
        and not engine.awaiting_turned_card
        and not engine.awaiting_trump_choice
    )


class OhPshawInput(SeatInput):
    """Bids with the seat buttons; the turned card and plays by tapping."""

    def __init__(self, engine: OhPshaw, cursors: BidCursors) -> None:
        self.engine = engine
        self.cursors = cursors

    def on_card(self, player: int, card: str) -> Action:
        # Before the first play the dealer's tap is the turned card. Anyone else's tap
        # is a play, which the engine refuses with the reason (bidding, or who turns).
        engine = self.engine
        if engine.awaiting_turned_card and player == engine.round.dealer:
            return TurnTrump(player, card)
        if engine.awaiting_trump_choice and player == engine.round.dealer:
            # The Wizard variant: the dealer names trump by tapping any card of that suit.
            if card[-1] not in SUITS:
                raise IllegalAction(
                    say("tap a card of the suit you choose as trump, not a Wizard or a Jester")
                )
            return ChooseTrump(player, card[-1])
        return Play(player, card)

    def on_button(self, player: int, button: Button) -> Action | Words | None:
        engine = self.engine
        turn = engine.expected
        if turn is None:
            return None
        if engine.awaiting_turned_card:
            dealer = engine.round.dealer
            if player == dealer:
                return say("tap the turned card (the top card of the stock) on your reader")
            return say("wait: {dealer} taps the turned trump card first", dealer=Player(dealer))
        if engine.awaiting_trump_choice:
            dealer = engine.round.dealer
            if player == dealer:
                return say("you turned a Wizard: tap any card of the suit you choose as trump")
            return say("wait: {dealer} chooses trump first", dealer=Player(dealer))
        if engine.phase is Phase.BID:
            if turn.seat != player:
                return say("wait: {bidder} bids now", bidder=Player(turn.seat))
            if button in (FEWER, MORE):
                self.cursors.move(player, -1 if button == FEWER else 1)
                return None
            return Bid(player, self.cursors.at(player))
        if turn.seat == player:
            return say("tap the card you play on your reader")
        return None

    def retractable(self, player: int) -> Action | None:
        """The rulebook's renege noticed "before the next trick": the card ``player`` played
        without following the suit led, in the trick on the table or, until the next trick's
        first card, in the trick just taken (the same round only). None without such a card,
        and with a registered hand, whose reneges the engine refuses outright."""
        engine = self.engine
        if engine.phase is not Phase.PLAY:
            return None
        rnd = engine.round
        if rnd.hands[player] is not None:
            return None
        trick = rnd.latest_trick()
        card = None if trick is None else trick.unfollowed(player)
        return None if card is None else Play(player, NAME_OF[card])

    def hints(self) -> list[tuple[int, Button, Words]]:
        engine = self.engine
        if not bidding_open(engine):
            return []
        seat = engine.turn
        return [
            (seat, FEWER, FEWER_LABEL),
            (seat, BID, bid_label(self.cursors.at(seat))),
            (seat, MORE, MORE_LABEL),
        ]


class OhPshawPresentation(Presentation):
    """Engine events as messages and LED cues; the snapshot with the bidder's cursor over it."""

    event_sounds: ClassVar[Mapping[type[Event], Sound]] = {
        TrickWon: Sound.TRICK_WON,
        RoundScored: Sound.ROUND_OVER,
        GameOver: Sound.GAME_WON,
    }

    def __init__(self, engine: OhPshaw, cursors: BidCursors) -> None:
        self.engine = engine
        self.cursors = cursors

    def feedback(self, event: Event) -> list[Feedback]:
        handler = _FEEDBACK.get(type(event))
        return handler(event) if handler is not None else []

    def result_rule(self, report: JSON) -> Words:
        opts = self.engine.options
        rounds = report.get("rounds") or []
        if report.get("ended") == "early":
            # One short line (the screen's rule has room for one beside the rounds): the
            # winner line says who leads, this says how the points stood.
            return say(
                "Ended early in round {round}: {stand}",
                round=len(rounds),
                stand=scoring.points_as_they_stand(opts.scoring, rounds[-1] if rounds else None),
            )
        if opts.scoring == "mild":
            rule = say("most points: 1 a trick, plus 10 for taking exactly the tricks bid")
        else:
            rule = say("most points: taking exactly the tricks bid scores 10 + the bid, else 0")
        if opts.round_winner_bonus:
            rule = say("{rule}; 10 more to each round's best", rule=rule)
        if rounds and rounds[-1].get("tie_break"):
            tied = Items(tuple(Player(s) for s in rounds[-1].get("tied", [])))
            return say(
                "{rule}. Tied at the end: an extra round among {tied} decided it",
                rule=rule,
                tied=tied,
            )
        return rule

    def result_counts(self, report: JSON) -> list[tuple[Words, list[int]]]:
        """How many bids each player made: a count, not part of the points."""
        made = [0] * self.engine.players
        for rnd in report.get("rounds") or []:
            if scoring.unfinished(rnd):
                continue  # a round cut short by an early end: no bid was judged
            for seat, (bid, won) in enumerate(zip(rnd["bids"], rnd["tricks"], strict=True)):
                made[seat] += bid == won
        return [(say("Bids made"), made)]

    def game_view(self) -> GameView[OhPshawSnapshot, OhPshawOverlay]:
        engine = self.engine
        cursor = self.cursors.at(engine.turn) if bidding_open(engine) else None
        return GameView(engine.snapshot(), OhPshawOverlay(bid_cursor=cursor))

    def waiting_players(self) -> list[int]:
        engine = self.engine
        if engine.awaiting_turned_card or engine.awaiting_trump_choice:
            return [engine.round.dealer]
        expected = engine.expected
        return [] if expected is None else [expected.seat]


class OhPshawSimulation(Simulation):
    """How a person would take an action (taps and presses), bots, and dealt hands."""

    def __init__(self, engine: OhPshaw, cursors: BidCursors) -> None:
        self.engine = engine
        self.cursors = cursors

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play | TurnTrump):
            return [Tap(action.card)]
        if isinstance(action, ChooseTrump):
            return [Tap("A" + action.suit)]  # any card of the suit names it
        if isinstance(action, Bid):
            choices = self.engine.bid_choices()
            if action.bid not in choices:
                return [Press(BID)]  # not a legal bid now: OK at least shows why
            here = choices.index(self.cursors.at(action.seat))
            there = choices.index(action.bid)
            up = (there - here) % len(choices)
            down = (here - there) % len(choices)
            steps = [Press(MORE)] * up if up <= down else [Press(FEWER)] * down
            return [*steps, Press(BID)]
        return []

    def make_bot(self, rng: random.Random) -> Bot:
        return _TableBot(OhPshawBot(rng))

    def hand(self, player: int) -> tuple[str, ...]:
        registered = self.engine.registered_hand(player)
        return tuple(registered) if registered is not None else ()


class _TableBot:
    """The engine's bot, asked for the turned card first when the table waits for it."""

    def __init__(self, bot: OhPshawBot) -> None:
        self.bot = bot

    def choose(self, engine: OhPshaw, seat: int) -> Action:
        if engine.awaiting_turned_card and seat == engine.round.dealer:
            return self.bot.turn_card(engine, seat)
        if engine.awaiting_trump_choice and seat == engine.round.dealer:
            return self.bot.choose_trump(engine, seat)
        return self.bot.choose(engine, seat)


class OhPshawAdapter(GameAdapter):
    """Oh Pshaw at the table: the three roles, sharing the seats' bid cursors."""

    spec = SPEC
    engine: OhPshaw

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        assert isinstance(self.engine, OhPshaw)
        self.cursors = BidCursors(self.engine)
        self.input = OhPshawInput(self.engine, self.cursors)
        self.presentation = OhPshawPresentation(self.engine, self.cursors)
        self.simulation = OhPshawSimulation(self.engine, self.cursors)


# --- feedback per event ----------------------------------------------------------------


def _suit_word(letter: str) -> Text:
    return SUIT_NAMES[SUITS.index(letter)]


def _round_started(e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    args: dict[str, Arg] = {"round": e.round, "dealer": Player(e.dealer)}
    if e.turns_card:
        if e.tie_break:
            text = say_plural(
                "Round {round} (tie-break): {dealer} deals {n} card and turns the trump card",
                "Round {round} (tie-break): {dealer} deals {n} cards and turns the trump card",
                e.hand_size,
                **args,
            )
        else:
            text = say_plural(
                "Round {round}: {dealer} deals {n} card and turns the trump card",
                "Round {round}: {dealer} deals {n} cards and turns the trump card",
                e.hand_size,
                **args,
            )
    elif e.trump is not None:
        args["suit"] = _suit_word(e.trump)
        if e.tie_break:
            text = say_plural(
                "Round {round} (tie-break): {dealer} deals {n} card - {suit} are trump",
                "Round {round} (tie-break): {dealer} deals {n} cards - {suit} are trump",
                e.hand_size,
                **args,
            )
        else:
            text = say_plural(
                "Round {round}: {dealer} deals {n} card - {suit} are trump",
                "Round {round}: {dealer} deals {n} cards - {suit} are trump",
                e.hand_size,
                **args,
            )
    elif e.tie_break:
        text = say_plural(
            "Round {round} (tie-break): {dealer} deals {n} card - no trump this round",
            "Round {round} (tie-break): {dealer} deals {n} cards - no trump this round",
            e.hand_size,
            **args,
        )
    else:
        text = say_plural(
            "Round {round}: {dealer} deals {n} card - no trump this round",
            "Round {round}: {dealer} deals {n} cards - no trump this round",
            e.hand_size,
            **args,
        )
    return [Feedback(None, text)]


def _trump_turned(e: Event) -> list[Feedback]:
    assert isinstance(e, TrumpTurned)
    if e.trump is None and e.card in WIZARD_NAMES:
        text = say(
            "{player} turned a Wizard ({card}): the dealer chooses trump",
            player=Player(e.seat),
            card=Card(e.card),
        )
        return [Feedback(e.seat, text)]
    if e.trump is None:
        text = say(
            "{player} turned a Jester ({card}): no trump this round",
            player=Player(e.seat),
            card=Card(e.card),
        )
        return [Feedback(e.seat, text)]
    text = say(
        "{player} turned {card}: {suit} are trump",
        player=Player(e.seat),
        card=Card(e.card),
        suit=_suit_word(e.trump),
    )
    return [Feedback(e.seat, text)]


def _trump_chosen(e: Event) -> list[Feedback]:
    assert isinstance(e, TrumpChosen)
    text = say("{player} chose {suit} as trump", player=Player(e.seat), suit=_suit_word(e.trump))
    return [Feedback(e.seat, text)]


def _bid_made(e: Event) -> list[Feedback]:
    assert isinstance(e, BidMade)
    return [Feedback(e.seat, say("{player} bids {bid}", player=Player(e.seat), bid=e.bid))]


def _bidding_closed(e: Event) -> list[Feedback]:
    assert isinstance(e, BiddingClosed)
    text = say_plural(
        "Bids total {total} for {n} trick - {status}",
        "Bids total {total} for {n} tricks - {status}",
        e.tricks,
        total=e.total,
        status=e.status.explanation,
    )
    return [Feedback(None, text)]


def _trick_won(e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon) and e.reason is not None  # Oh Pshaw always says why
    text = say(
        "{player} wins trick {trick}: {reason}",
        player=Player(e.seat),
        trick=e.trick,
        reason=as_arg(e.reason),
    )
    return [Feedback(e.seat, text, MessageKind.WON, Cue.TRICK_WON)]


def _renege(e: Event) -> list[Feedback]:
    assert isinstance(e, RenegeProven)
    text = say(
        "Renege: {player} did not follow {suit} in trick {trick} although it held one; "
        "its round scores only the penalty",
        player=Player(e.seat),
        suit=_suit_word(e.suit),
        trick=e.trick,
    )
    return [Feedback(e.seat, text, MessageKind.PENALTY, Cue.PENALTY)]


def _round_scored(e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    out: list[Feedback] = []
    for seat, (score, outcome) in enumerate(zip(e.scores, e.outcomes, strict=True)):
        bid, won = e.bids[seat], e.tricks[seat]
        player, points = Player(seat), Signed(score)
        if outcome is BidOutcome.RENEGED:
            text = say("{player} reneged: {points} this round", player=player, points=points)
            out.append(Feedback(seat, text, MessageKind.PENALTY, Cue.MISSED_BID))
        elif outcome is BidOutcome.MADE:
            text = say(
                "{player} bid {bid} and made it: {points}",
                player=player,
                bid=bid or 0,
                points=points,
            )
            out.append(Feedback(seat, text, MessageKind.WON, Cue.MADE_BID))
        else:
            text = say(
                "{player} missed: bid {bid}, took {won} ({points})",
                player=player,
                bid=bid or 0,
                won=won,
                points=points,
            )
            out.append(Feedback(seat, text, MessageKind.INFO, Cue.MISSED_BID))
    return out


def _tie_break(e: Event) -> list[Feedback]:
    assert isinstance(e, TieBreak)
    text = say_plural(
        "Tie between {tied}: an extra round of {n} card decides",
        "Tie between {tied}: an extra round of {n} cards decides",
        e.hand_size,
        tied=Items(tuple(Player(s) for s in e.tied)),
    )
    return [Feedback(None, text)]


def _ended_early(e: Event) -> list[Feedback]:
    assert isinstance(e, GameEndedEarly)
    text = say(
        "Staff ended the game in round {round}: the points stand and the leaders win",
        round=e.round,
    )
    return [Feedback(None, text)]


def _game_over(e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    who = Items(tuple(Player(s) for s in e.winners))
    if len(e.winners) == 1:
        text = say("Game over: {winners} wins", winners=who)
    else:
        text = say("Game over: {winners} share the victory", winners=who)
    # No LED cue here: the last round's made/missed cues stay on show.
    return [Feedback(None, text, MessageKind.WON)]


_FEEDBACK: dict[type[Event], Callable[[Event], list[Feedback]]] = {
    RoundStarted: _round_started,
    TrumpTurned: _trump_turned,
    TrumpChosen: _trump_chosen,
    BidMade: _bid_made,
    BiddingClosed: _bidding_closed,
    TrickWon: _trick_won,
    RenegeProven: _renege,
    RoundScored: _round_scored,
    TieBreak: _tie_break,
    GameEndedEarly: _ended_early,
    GameOver: _game_over,
}


ADAPTER = OhPshawAdapter
