"""Oshaka Trick: trick-taking where the lowest card wins, with placement columns.

Rules: ``shared/rules/oshaka-trick.txt`` plus the rulings of the game-record
spec. In short:

* 3 players use numbers 1-10 of the four colours with one unknown card out;
  4 players use 1-13. Everyone holds 13 cards; a round is 13 tricks, a game
  two rounds.
* Must follow. All one colour: the smallest number wins. Otherwise the
  smallest card of a colour other than the lead colour wins; equal numbers go
  to the later player.
* The winner resolves the won cards smallest first (equal numbers in the
  order played). A card smaller than the top face-up card of its colour is a
  forced Oshaka penalty (minus its number); in round 2 so is a card of a
  fourth colour once the seat shows face-up cards of three colours. Every
  other card takes a ``place`` action: face up to score, or face down for -1.
* A round scores the top card of each face-up column, -1 per face-down card
  and minus the number of each Oshaka penalty. Before round 2 the lowest
  scorer of round 1 (any of them when tied) names the lead.

Hands are optional: a seat may register its hand before its first play of a
round. With a registered hand a play that breaks must-follow is refused;
without one it is accepted, and a later play of the colour it failed to follow
proves the renege, which the round report lists.

The engine is composed of its folder's modules: ``cards`` (the deck, the
notation, the trick rules), ``actions`` and ``events``, ``state`` (the phases
and a round), ``scoring`` and ``snapshot``; the trick itself, the shared events
and the phase tables come from ``controller.games.common``. This module is the
state machine: one handler per phase and kind of action (``_APPLY``), and a
method per phase for ``expected`` and ``legal_actions``. Its names are also
re-exported here, so ``engine`` stays the one import of the table side.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NoReturn, Self

from controller.games.base import (
    JSON,
    Action,
    Chance,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    TurnPassed,
    best_seats,
    new_header,
    read_players,
    read_seat_key,
)
from controller.games.common.dispatch import Routes, by_phase, on, phase_table
from controller.games.common.tricks import TrickWin
from controller.games.options import NoOptions
from controller.games.oshaka_trick import scoring
from controller.games.oshaka_trick.actions import (
    ChooseLead,
    Place,
    Placement,
    Play,
    RegisterHand,
    Verb,
    hand_registrations,
    parse_action,
)
from controller.games.oshaka_trick.cards import (
    COLOUR_NAMES,
    COLOURS,
    HAND_SIZE,
    ROUNDS,
    TRICK_RULES,
    TRICKS_PER_ROUND,
    Card,
    deal,
    full_deck,
    top_number,
)
from controller.games.oshaka_trick.events import (
    CardPlaced,
    CardPlayed,
    HandRegistered,
    LeadChoiceDue,
    OshakaPenalty,
    PlacementDue,
    RenegeProven,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from controller.games.oshaka_trick.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oshaka_trick.snapshot import OshakaSnapshot, SeatSnapshot, build_snapshot
from controller.games.oshaka_trick.state import (
    Phase,
    Placed,
    RoundState,
    SeatArea,
    new_trick,
)
from controller.games.words import Items, Player, Text, Verbatim, Words, say

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "HAND_SIZE",
    "ROUNDS",
    "TRICKS_PER_ROUND",
    "TRICK_RULES",
    "Card",
    "CardPlaced",
    "CardPlayed",
    "ChooseLead",
    "HandRegistered",
    "LeadChoiceDue",
    "OshakaPenalty",
    "OshakaSnapshot",
    "OshakaTrick",
    "Phase",
    "Place",
    "Placement",
    "PlacementDue",
    "Play",
    "RegisterHand",
    "RenegeProven",
    "RoundScored",
    "RoundStarted",
    "RoundState",
    "SeatArea",
    "SeatSnapshot",
    "TrickWon",
    "Verb",
    "deal",
    "full_deck",
    "hand_registrations",
    "top_number",
]

# Why a trick was won, in words, for each way the kernel's ``Trick.winner`` names:
# the winning card and the led colour.
_WIN_REASONS: Mapping[TrickWin, Callable[[Card, str], Text]] = {
    TrickWin.LOWEST_ALL_LED: lambda card, led: say(
        "{card} is the smallest card and every card is {colour}",
        card=card.words,
        colour=card.colour_name,
    ),
    TrickWin.LOWEST_OFF_LEAD: lambda card, led: say(
        "{card} is the smallest card of a colour other than the lead ({colour})",
        card=card.words,
        colour=COLOUR_NAMES[led],
    ),
}


class OshakaTrick(Engine):
    """The Oshaka Trick engine; see the module docstring for the rules it enforces."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    def __init__(self, players: int, lead: int) -> None:
        if players not in (3, 4):
            raise IllegalAction(
                say("Oshaka Trick is for 3 or 4 players, not {players}", players=players)
            )
        self.players = players
        self.first_lead = lead
        self.deck: frozenset[Card] = frozenset(full_deck(players))
        self.phase = Phase.PLAY
        self.round = self._new_round(1, lead)
        self.finished_rounds: list[RoundState] = []
        self.lead_choosers: tuple[int, ...] = ()
        # Hands registered for round 2 while its lead is still being chosen.
        self._next_hands: dict[int, set[Card]] = {}

    # --- construction and notation ------------------------------------------

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, cls.game_id)
        NoOptions.read(header, cls.game_id)  # the game has none: any key is refused
        lead = read_seat_key(header, "lead", players)
        return cls(players, lead)

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        # Deal when a round has begun untouched: decided from the state alone, so
        # a game rebuilt from its record is not dealt twice.
        rnd = self.round
        if not chance.cards or self.phase is not Phase.PLAY or rnd.hands or rnd.seats_started:
            return []
        return hand_registrations(deal(self.players, rng))

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The rulebook's first lead is "whoever most recently helped someone":
        # the table asks (SPEC.starter) and draws one only when nobody answers.
        return new_header(cls, players, options, "lead", rng)

    def header(self) -> JSON:
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": {},
            "lead": self.first_lead,
        }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        return parse_action(obj, self.players)

    # --- the state machine ----------------------------------------------------

    def _new_round(self, number: int, lead: int) -> RoundState:
        return RoundState(
            number=number,
            trick=new_trick(lead),
            areas=[SeatArea() for _ in range(self.players)],
            failed_to_follow={seat: {} for seat in range(self.players)},
        )

    @property
    def turn(self) -> int:
        """The seat to play next in the current trick."""
        trick = self.round.trick
        return (trick.lead_seat + len(trick.plays)) % self.players

    @property
    def expected(self) -> Expectation | None:
        return self._EXPECTED[self.phase](self)

    def _expect_play(self) -> Expectation:
        return Expectation(self.turn, Verb.PLAY)

    def _expect_place(self) -> Expectation:
        assert self.round.winner is not None
        return Expectation(self.round.winner, Verb.PLACE)

    def _expect_lead(self) -> Expectation:
        return Expectation(self.lead_choosers[0], Verb.LEAD)

    def _expect_nothing(self) -> None:
        return None

    def apply(self, action: Action) -> list[Event]:
        # The phase's table names the handler of this kind of action (see _APPLY).
        return self._APPLY[self.phase][type(action)](self, action)

    def _over(self, action: Action) -> NoReturn:
        raise IllegalAction(say("the game is over; nothing more can be played"))

    def _unknown(self, action: Action) -> NoReturn:
        raise IllegalAction(
            say("Oshaka Trick has no action {name}", name=Verbatim(type(action).__name__))
        )

    # --- hand registration ------------------------------------------------------

    def _register_now(self, action: RegisterHand[Card]) -> list[Event]:
        rnd = self.round
        return self._register(action, rnd.hands, rnd.played, rnd.seats_started)

    def _register_next(self, action: RegisterHand[Card]) -> list[Event]:
        # Hands for round 2 may be registered while its lead is being chosen.
        return self._register(action, self._next_hands, set(), set())

    def _register(
        self,
        action: RegisterHand[Card],
        rnd_hands: dict[int, set[Card]],
        played: set[Card],
        started: set[int],
    ) -> list[Event]:
        seat, cards = action.seat, action.cards
        if seat in rnd_hands:
            raise IllegalAction(
                say("{player} has already registered its hand this round", player=Player(seat))
            )
        if seat in started:
            raise IllegalAction(
                say(
                    "{player} cannot register a hand now: it has already played this round",
                    player=Player(seat),
                )
            )
        if len(cards) != HAND_SIZE:
            raise IllegalAction(
                say("a hand has {size} cards, not {count}", size=HAND_SIZE, count=len(cards))
            )
        seen: set[Card] = set()
        for card in cards:
            self._check_in_deck(card)
            if card in seen:
                raise IllegalAction(say("{card} is in the hand twice", card=card.words))
            seen.add(card)
            if card in played:
                raise IllegalAction(
                    say("{card} has already been played this round", card=card.words)
                )
            owner = self._holder(card, rnd_hands)
            if owner is not None:
                raise IllegalAction(
                    say(
                        "{card} is already in {player}'s registered hand",
                        card=card.words,
                        player=Player(owner),
                    )
                )
        rnd_hands[seat] = seen
        return [HandRegistered(seat, len(cards))]

    @staticmethod
    def _holder(card: Card, hands: Mapping[int, set[Card]]) -> int | None:
        for seat, hand in hands.items():
            if card in hand:
                return seat
        return None

    def _check_in_deck(self, card: Card) -> None:
        if card not in self.deck:
            raise IllegalAction(
                say(
                    "{card} is not a card of this deck ({players} players use numbers 1-{top})",
                    card=card.words,
                    players=self.players,
                    top=top_number(self.players),
                )
            )

    # --- playing a card -------------------------------------------------------

    def _play_while_placing(self, action: Play) -> NoReturn:
        rnd = self.round
        assert rnd.winner is not None
        raise IllegalAction(
            say(
                "{player} cannot play {card}: {winner} must first place {due} face up or face down",
                player=Player(action.seat),
                card=action.card.words,
                winner=Player(rnd.winner),
                due=rnd.to_place[0].words,
            )
        )

    def _play_before_lead(self, action: Play) -> NoReturn:
        raise IllegalAction(
            say(
                "{player} cannot play {card}: {chooser} must first choose who leads round 2",
                player=Player(action.seat),
                card=action.card.words,
                chooser=Player(self.lead_choosers[0]),
            )
        )

    def _play(self, action: Play) -> list[Event]:
        seat, card, rnd = action.seat, action.card, self.round
        player, words = Player(seat), card.words
        if seat != self.turn:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it is {turn}'s turn",
                    player=player,
                    card=words,
                    turn=Player(self.turn),
                )
            )
        self._check_in_deck(card)
        if card in rnd.played:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it has already been played this round",
                    player=player,
                    card=words,
                )
            )
        hand = rnd.hands.get(seat)
        trick = rnd.trick
        lead_colour = trick.led
        if hand is not None:
            if card not in hand:
                raise IllegalAction(
                    say(
                        "{player} cannot play {card}: it is not in the seat's hand",
                        player=player,
                        card=words,
                    )
                )
            if (
                lead_colour is not None
                and card.colour != lead_colour
                and not trick.follows(card, hand)
            ):
                raise IllegalAction(
                    say(
                        "{player} cannot play {card}: it must follow {colour} "
                        "while it holds {colour}",
                        player=player,
                        card=words,
                        colour=COLOUR_NAMES[lead_colour],
                    )
                )
        else:
            owner = self._holder(card, rnd.hands)
            if owner is not None:
                raise IllegalAction(
                    say(
                        "{player} cannot play {card}: it is in {owner}'s registered hand",
                        player=player,
                        card=words,
                        owner=Player(owner),
                    )
                )

        # Validated: from here on the state changes.
        events: list[Event] = []
        failures = rnd.failed_to_follow[seat]
        if card.colour in failures:
            for trick_number in failures.pop(card.colour):
                rnd.reneges.append((seat, trick_number))
                events.append(RenegeProven(seat, trick_number, card.colour))
        if hand is None and lead_colour is not None and card.colour != lead_colour:
            failures.setdefault(lead_colour, []).append(rnd.trick_number)
        if hand is not None:
            hand.discard(card)
        rnd.played.add(card)
        rnd.seats_started.add(seat)
        trick.add(seat, card)
        events.insert(0, CardPlayed(seat, card, rnd.trick_number))
        if len(trick.plays) < self.players:
            events.append(TurnPassed(self.turn))
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        rnd = self.round
        trick = rnd.trick
        winner, card, how = trick.winner()
        assert trick.led is not None
        reason = _WIN_REASONS[how](card, trick.led)
        plays = tuple(trick.plays)
        events: list[Event] = [TrickWon(winner, rnd.trick_number, plays, reason)]
        order = {card: index for index, (_, card) in enumerate(plays)}
        # Smallest number first; equal numbers in the order they were played.
        rnd.to_place = sorted(order, key=lambda c: (c.number, order[c]))
        rnd.winner = winner
        rnd.last_trick, rnd.last_winner, rnd.placed = plays, winner, []
        self.phase = Phase.PLACE
        return events + self._resolve_placements()

    # --- placing won cards ------------------------------------------------------

    def forced_reason(self, seat: int, card: Card) -> Text | None:
        """Why ``card`` would be a forced Oshaka penalty for ``seat`` now, or None."""
        return scoring.forced_reason(self.round, seat, card)

    def _resolve_placements(self) -> list[Event]:
        """Place forced penalties until a card needs the winner's choice, or none is left."""
        rnd = self.round
        events: list[Event] = []
        assert rnd.winner is not None
        while rnd.to_place:
            card = rnd.to_place[0]
            reason = scoring.forced_reason(rnd, rnd.winner, card)
            if reason is None:
                events.append(PlacementDue(rnd.winner, card))
                return events
            rnd.to_place.pop(0)
            rnd.areas[rnd.winner].oshaka.append(card)
            rnd.placed.append((card, Placed.OSHAKA))
            events.append(OshakaPenalty(rnd.winner, card, reason))
        return events + self._next_trick()

    def _no_placement(self, action: Place) -> NoReturn:
        raise IllegalAction(say("{player} has no card to place now", player=Player(action.seat)))

    def _place(self, action: Place) -> list[Event]:
        rnd = self.round
        assert rnd.winner is not None
        card = rnd.to_place[0]
        if action.seat != rnd.winner:
            raise IllegalAction(
                say(
                    "{player} cannot place a card: {winner} won the trick and places {card}",
                    player=Player(action.seat),
                    winner=Player(rnd.winner),
                    card=card.words,
                )
            )
        if action.card is not None and action.card != card:
            raise IllegalAction(
                say(
                    "{player} must place {card} next, not {other}",
                    player=Player(rnd.winner),
                    card=card.words,
                    other=action.card.words,
                )
            )
        rnd.to_place.pop(0)
        area = rnd.areas[rnd.winner]
        if action.face_up:
            area.columns.setdefault(card.colour, []).append(card)
        else:
            area.face_down.append(card)
        rnd.placed.append((card, Placed.UP if action.face_up else Placed.DOWN))
        return [CardPlaced(rnd.winner, card, action.face_up), *self._resolve_placements()]

    def _next_trick(self) -> list[Event]:
        rnd = self.round
        assert rnd.winner is not None
        winner, rnd.winner = rnd.winner, None
        if rnd.trick_number < TRICKS_PER_ROUND:
            rnd.trick_number += 1
            rnd.trick = new_trick(winner)
            self.phase = Phase.PLAY
            return [TurnPassed(winner)]
        return self._finish_round()

    # --- rounds ------------------------------------------------------------------

    def _finish_round(self) -> list[Event]:
        rnd = self.round
        self.finished_rounds.append(rnd)
        scores = tuple(area.score() for area in rnd.areas)
        events: list[Event] = [RoundScored(rnd.number, scores, tuple(self.totals()))]
        if rnd.number < ROUNDS:
            low = min(scores)
            self.lead_choosers = tuple(s for s, score in enumerate(scores) if score == low)
            self.phase = Phase.LEAD
            events.append(LeadChoiceDue(self.lead_choosers))
        else:
            self.phase = Phase.OVER
            totals = self.totals()
            events.append(GameOver(tuple(totals), tuple(best_seats(totals))))
        return events

    def _not_choosing_lead(self, action: ChooseLead) -> NoReturn:
        raise IllegalAction(
            say(
                "{player} cannot choose a lead now: the lead is chosen only before round 2",
                player=Player(action.seat),
            )
        )

    def _choose_lead(self, action: ChooseLead) -> list[Event]:
        if action.seat not in self.lead_choosers:
            raise IllegalAction(
                say(
                    "{player} cannot choose the lead: the lowest scorer of round 1 "
                    "({choosers}) chooses",
                    player=Player(action.seat),
                    choosers=Items(tuple(Player(s) for s in self.lead_choosers), either=True),
                )
            )
        self.round = self._new_round(self.round.number + 1, action.lead)
        self.round.hands = self._next_hands
        self._next_hands = {}
        self.lead_choosers = ()
        self.phase = Phase.PLAY
        return [RoundStarted(self.round.number, action.lead), TurnPassed(action.lead)]

    # --- the phase tables ------------------------------------------------------------

    # Phase -> kind of action -> the handler. A kind a phase does not list goes to
    # its refusal (why not now); once the game is over every action is refused.
    _APPLY: ClassVar[dict[Phase, Routes[OshakaTrick]]] = phase_table(
        Phase,
        {
            Phase.PLAY: (on(Play, _play), on(RegisterHand, _register_now)),
            Phase.PLACE: (
                on(Place, _place),
                on(Play, _play_while_placing),
                on(RegisterHand, _register_now),
            ),
            Phase.LEAD: (
                on(ChooseLead, _choose_lead),
                on(Play, _play_before_lead),
                on(RegisterHand, _register_next),
            ),
            Phase.OVER: (),
        },
        shared=(on(Place, _no_placement), on(ChooseLead, _not_choosing_lead)),
        otherwise={Phase.OVER: _over},
        unknown=_unknown,
    )
    _EXPECTED: ClassVar[dict[Phase, Callable[[OshakaTrick], Expectation | None]]] = by_phase(
        Phase,
        {
            Phase.PLAY: _expect_play,
            Phase.PLACE: _expect_place,
            Phase.LEAD: _expect_lead,
            Phase.OVER: _expect_nothing,
        },
    )

    # --- what the table, display and bots read ---------------------------------

    def rounds_in_report(self) -> list[RoundState]:
        rounds = list(self.finished_rounds)
        if self.phase in (Phase.PLAY, Phase.PLACE) and self.round not in rounds:
            rounds.append(self.round)
        return rounds

    def totals(self) -> list[int]:
        return scoring.totals(self.rounds_in_report(), self.players)

    def registered_hand(self, seat: int) -> list[Card] | None:
        """The seat's registered remaining hand, sorted, or None (for the seat's own bot)."""
        hand = self.round.hands.get(seat)
        return None if hand is None else sorted(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        return self._LEGAL[self.phase](self, seat)

    def _legal_plays(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        rnd = self.round
        hand = rnd.hands.get(seat)
        if hand is None:
            taken = set(rnd.played)
            for other in rnd.hands.values():
                taken |= other
            return [Play(seat, c) for c in sorted(self.deck - taken)]
        return [Play(seat, c) for c in sorted(rnd.trick.playable(hand))]

    def _legal_placements(self, seat: int) -> list[Action]:
        rnd = self.round
        if seat != rnd.winner:
            return []
        card = rnd.to_place[0]
        return [Place(seat, True, card), Place(seat, False, card)]

    def _legal_leads(self, seat: int) -> list[Action]:
        if seat not in self.lead_choosers:
            return []
        return [ChooseLead(seat, lead) for lead in range(self.players)]

    def _legal_nothing(self, seat: int) -> list[Action]:
        return []

    _LEGAL: ClassVar[dict[Phase, Callable[[OshakaTrick, int], list[Action]]]] = by_phase(
        Phase,
        {
            Phase.PLAY: _legal_plays,
            Phase.PLACE: _legal_placements,
            Phase.LEAD: _legal_leads,
            Phase.OVER: _legal_nothing,
        },
    )

    def round_json(self, rnd: RoundState) -> JSON:
        return scoring.round_json(rnd)

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        return scoring.sheet_rows(round_report)

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        return scoring.sheet_notes(round_report)

    def report(self) -> JSON:
        totals = self.totals()
        expected = self.expected
        return {
            "finished": self.phase is Phase.OVER,
            "rounds": [scoring.round_json(rnd) for rnd in self.rounds_in_report()],
            "totals": totals,
            "winners": best_seats(totals),
            "next": None if expected is None else expected.to_json(),
        }

    def snapshot(self) -> OshakaSnapshot:
        return build_snapshot(
            self.phase,
            self.round,
            self.finished_rounds,
            self.players,
            self.lead_choosers,
            self.expected,
            self.totals(),
        )
