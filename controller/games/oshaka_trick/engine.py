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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self

from controller.games.base import (
    JSON,
    Action,
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
    json_strs,
    json_trick,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.words import Card as CardWords
from controller.games.words import Items, Player, Text, Verbatim, Words, say

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
# The colours' words (a message's "{colour}"); their English is the record's ("red").
COLOUR_NAMES: Mapping[str, Text] = {
    "R": say("red"),
    "B": say("blue"),
    "G": say("green"),
    "Y": say("yellow"),
}
TRICKS_PER_ROUND = 13
ROUNDS = 2
HAND_SIZE = 13


def top_number(players: int) -> int:
    """The highest card number in play: 10 with three players, 13 with four."""
    return 10 if players == 3 else 13


@dataclass(frozen=True, order=True)
class Card:
    """An Oshaka card; its text notation is colour letter + number (``R7``, ``Y13``)."""

    colour: str
    number: int

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read ``R7``-style notation; raises MalformedAction on anything else."""
        if not isinstance(text, str) or len(text) < 2 or text[0] not in COLOURS:
            raise MalformedAction(
                say(
                    "{value} is not a card: write a colour R, B, G or Y and a number, e.g. R7",
                    value=Verbatim(describe(text)),
                )
            )
        digits = text[1:]
        if not digits.isdigit() or digits.startswith("0"):
            raise MalformedAction(
                say(
                    "{value} is not a card: the number must be 1 to 13",
                    value=Verbatim(describe(text)),
                )
            )
        return cls(text[0], int(digits))

    @property
    def colour_name(self) -> Text:
        return COLOUR_NAMES[self.colour]

    @property
    def words(self) -> CardWords:
        """The card as a message argument (the presenter writes "Red 7")."""
        return CardWords(str(self))

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def card_words(notation: str) -> Words:
    """How a card reads at the table: its colour's word and its number ("Red 7")."""
    try:
        card = Card.parse(notation)
    except MalformedAction:
        return notation
    return _CARD_WORDS[card.colour](card.number)


_CARD_WORDS: Mapping[str, Callable[[int], Text]] = {
    "R": lambda n: say("Red {number}", number=n),
    "B": lambda n: say("Blue {number}", number=n),
    "G": lambda n: say("Green {number}", number=n),
    "Y": lambda n: say("Yellow {number}", number=n),
}


def full_deck(players: int) -> list[Card]:
    """Every card of the deck for this many players, in a fixed order."""
    return [Card(c, n) for c in COLOURS for n in range(1, top_number(players) + 1)]


# --- actions -------------------------------------------------------------------


class Verb(StrEnum):
    """The record's verbs for Oshaka Trick; also what ``Expectation.expects`` names."""

    PLAY = "play"
    PLACE = "place"
    LEAD = "lead"
    HAND = "hand"


class Placement(StrEnum):
    """How a ``place`` action puts the card: face up to score, or face down for -1."""

    SCORE = "score"
    PENALTY = "penalty"


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick."""

    card: Card

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: str(self.card)}


@dataclass(frozen=True)
class Place(Action):
    """The trick winner places the card being resolved: face up (score) or face down."""

    face_up: bool
    card: Card | None = None

    def to_json(self) -> JSON:
        placement = Placement.SCORE if self.face_up else Placement.PENALTY
        obj: JSON = {"seat": self.seat, Verb.PLACE: placement}
        if self.card is not None:
            obj["card"] = str(self.card)
        return obj


@dataclass(frozen=True)
class ChooseLead(Action):
    """Before round 2, the lowest scorer of round 1 names the seat that leads."""

    lead: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.LEAD: self.lead}


@dataclass(frozen=True)
class RegisterHand(Action):
    """A seat's hand for the current round, registered before its first play."""

    cards: tuple[Card, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.HAND: [str(c) for c in self.cards]}


# --- events --------------------------------------------------------------------


@dataclass(frozen=True)
class HandRegistered(Event):
    seat: int
    count: int


@dataclass(frozen=True)
class CardPlayed(Event):
    seat: int
    card: Card
    trick: int


@dataclass(frozen=True)
class TrickWon(Event):
    seat: int
    trick: int
    cards: tuple[tuple[int, Card], ...]
    reason: Words


@dataclass(frozen=True)
class CardPlaced(Event):
    seat: int
    card: Card
    face_up: bool


@dataclass(frozen=True)
class OshakaPenalty(Event):
    """A won card the seat could not place: it scores minus its number."""

    seat: int
    card: Card
    reason: Words


@dataclass(frozen=True)
class PlacementDue(Event):
    """The trick winner must now place ``card`` face up or face down."""

    seat: int
    card: Card


@dataclass(frozen=True)
class RenegeProven(Event):
    seat: int
    trick: int
    colour: str


@dataclass(frozen=True)
class RoundScored(Event):
    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class LeadChoiceDue(Event):
    choosers: tuple[int, ...]


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    lead: int


# --- state helpers -------------------------------------------------------------


class Phase(StrEnum):
    """What the game waits for: a card to the trick, a placement, round 2's lead, nothing."""

    PLAY = "play"
    PLACE = "place"
    LEAD = "lead"
    OVER = "over"


@dataclass
class Trick:
    """The cards on the table in the current trick, in the order played."""

    lead_seat: int
    plays: list[tuple[int, Card]] = field(default_factory=list)

    @property
    def lead_colour(self) -> str | None:
        return self.plays[0][1].colour if self.plays else None

    def winner(self) -> tuple[int, Text]:
        """The winning seat and why, by the rules of section 3."""
        lead_colour = self.plays[0][1].colour
        off_lead = [(i, s, c) for i, (s, c) in enumerate(self.plays) if c.colour != lead_colour]
        if not off_lead:
            seat, card = min(self.plays, key=lambda play: play[1].number)
            return seat, say(
                "{card} is the smallest card and every card is {colour}",
                card=card.words,
                colour=card.colour_name,
            )
        # Smallest number among the off-lead colours; a tie goes to the later player,
        # hence the negative play index as the second key.
        _, seat, card = min(off_lead, key=lambda item: (item[2].number, -item[0]))
        return seat, say(
            "{card} is the smallest card of a colour other than the lead ({colour})",
            card=card.words,
            colour=COLOUR_NAMES[lead_colour],
        )


@dataclass
class SeatArea:
    """What a seat has placed in front of it this round."""

    columns: dict[str, list[Card]] = field(default_factory=dict)
    face_down: list[Card] = field(default_factory=list)
    oshaka: list[Card] = field(default_factory=list)

    def score(self) -> int:
        top = sum(column[-1].number for column in self.columns.values() if column)
        return top - len(self.face_down) - sum(card.number for card in self.oshaka)

    def columns_json(self) -> dict[str, list[str]]:
        return {c: [str(x) for x in self.columns[c]] for c in COLOURS if self.columns.get(c)}


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    number: int
    trick: Trick
    trick_number: int = 1
    played: set[Card] = field(default_factory=set)
    hands: dict[int, set[Card]] = field(default_factory=dict)
    seats_started: set[int] = field(default_factory=set)
    areas: list[SeatArea] = field(default_factory=list)
    # seat -> colour -> tricks in which the seat did not follow that colour
    failed_to_follow: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    reneges: list[tuple[int, int]] = field(default_factory=list)
    to_place: list[Card] = field(default_factory=list)
    winner: int | None = None


# --- what everyone sees ----------------------------------------------------------


@dataclass(frozen=True)
class SeatSnapshot(Snapshot):
    """What is public of one seat's area this round."""

    seat: int
    columns: Mapping[str, tuple[str, ...]]  # colour -> face-up cards, oldest first
    face_down: int
    oshaka: tuple[str, ...]
    round_score: int
    total: int
    cards_left: int
    hand_registered: bool

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "columns": {colour: list(cards) for colour, cards in self.columns.items()},
            "face_down": self.face_down,
            "oshaka": list(self.oshaka),
            "round_score": self.round_score,
            "total": self.total,
            "cards_left": self.cards_left,
            "hand_registered": self.hand_registered,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        columns = data.get("columns")
        return cls(
            seat=json_int(data.get("seat")),
            columns={
                colour: json_strs(columns.get(colour))
                for colour in COLOURS
                if isinstance(columns, Mapping) and columns.get(colour)
            },
            face_down=json_int(data.get("face_down")),
            oshaka=json_strs(data.get("oshaka")),
            round_score=json_int(data.get("round_score")),
            total=json_int(data.get("total")),
            cards_left=json_int(data.get("cards_left")),
            hand_registered=data.get("hand_registered") is True,
        )


@dataclass(frozen=True)
class OshakaSnapshot(Snapshot):
    """What everyone at an Oshaka Trick table can see; the display reads its fields.

    ``lead_cursor`` is the table's, not the engine's: the seat the round-2 lead
    chooser's OK button would name (the engine leaves it None).
    """

    game: str
    title: str
    players: int
    phase: Phase
    round: int
    rounds: int
    trick_number: int
    tricks_per_round: int
    lead_seat: int
    lead_colour: str | None
    trick: tuple[TrickCard, ...]
    to_place: tuple[str, ...]  # the won cards still to resolve, the next one first
    trick_winner: int | None
    lead_choosers: tuple[int, ...]
    next: Expectation | None
    seats: tuple[SeatSnapshot, ...]
    round_scores: tuple[tuple[int, ...], ...]  # finished rounds' scores per seat
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    lead_cursor: int | None = None

    def seat(self, player: int) -> SeatSnapshot | None:
        """The area of engine seat ``player``, if the snapshot has it."""
        return next((s for s in self.seats if s.seat == player), None)

    def to_json(self) -> JSON:
        out: JSON = {
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "phase": self.phase.value,
            "round": self.round,
            "rounds": self.rounds,
            "trick_number": self.trick_number,
            "tricks_per_round": self.tricks_per_round,
            "lead_seat": self.lead_seat,
            "lead_colour": self.lead_colour,
            "trick": [t.to_json() for t in self.trick],
            "to_place": list(self.to_place),
            "trick_winner": self.trick_winner,
            "lead_choosers": list(self.lead_choosers),
            "next": None if self.next is None else self.next.to_json(),
            "seats": [seat.to_json() for seat in self.seats],
            "round_scores": [list(scores) for scores in self.round_scores],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }
        if self.lead_cursor is not None:
            out["lead_cursor"] = self.lead_cursor
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        phase = data.get("phase")
        seats = data.get("seats")
        rounds = data.get("round_scores")
        lead_colour = data.get("lead_colour")
        return cls(
            game=str(data.get("game", OshakaTrick.game_id)),
            title=str(data.get("title") or OshakaTrick.title),
            players=json_int(data.get("players"), 4),
            phase=Phase(phase) if phase in set(Phase) else Phase.PLAY,
            round=json_int(data.get("round"), 1),
            rounds=json_int(data.get("rounds"), ROUNDS),
            trick_number=json_int(data.get("trick_number"), 1),
            tricks_per_round=json_int(data.get("tricks_per_round"), TRICKS_PER_ROUND),
            lead_seat=json_int(data.get("lead_seat")),
            lead_colour=lead_colour if lead_colour in COLOURS else None,
            trick=json_trick(data.get("trick")),
            to_place=json_strs(data.get("to_place")),
            trick_winner=json_opt_int(data.get("trick_winner")),
            lead_choosers=json_ints(data.get("lead_choosers")),
            next=json_expectation(data.get("next")),
            seats=tuple(
                SeatSnapshot.from_json(s)
                for s in (seats if isinstance(seats, list) else [])
                if isinstance(s, Mapping)
            ),
            round_scores=tuple(json_ints(r) for r in (rounds if isinstance(rounds, list) else [])),
            totals=json_ints(data.get("totals")),
            winners=json_ints(data.get("winners")),
            lead_cursor=json_opt_int(data.get("lead_cursor")),
        )


class OshakaTrick(Engine):
    """The Oshaka Trick engine; see the module docstring for the rules it enforces."""

    game_id: ClassVar[str] = "oshaka-trick"
    title: ClassVar[str] = "Oshaka Trick"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4

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
        read_options(header, (), cls.game_id)
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

    _VERBS: ClassVar[dict[str, tuple[str, ...]]] = {
        Verb.PLAY: (),
        Verb.PLACE: ("card",),
        Verb.LEAD: (),
        Verb.HAND: (),
    }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        players = self.players
        seat, verb = split_action(obj, players, self._VERBS)
        value = obj[verb]
        if verb == Verb.PLAY:
            return Play(seat, Card.parse(value))
        if verb == Verb.PLACE:
            if value not in (Placement.SCORE, Placement.PENALTY):
                raise MalformedAction(
                    say(
                        '"place" must be "score" (face up) or "penalty" (face down), not {value}',
                        value=Verbatim(describe(value)),
                    )
                )
            card = Card.parse(obj["card"]) if "card" in obj else None
            return Place(seat, value == Placement.SCORE, card)
        if verb == Verb.LEAD:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
                raise MalformedAction(
                    say(
                        '"lead" must be a seat 0..{last}, not {value}',
                        last=Verbatim(str(players - 1)),
                        value=Verbatim(describe(value)),
                    )
                )
            return ChooseLead(seat, value)
        if not isinstance(value, list):
            raise MalformedAction(
                say('"hand" must be a list of cards, not {value}', value=Verbatim(describe(value)))
            )
        return RegisterHand(seat, tuple(Card.parse(text) for text in value))

    # --- the state machine ----------------------------------------------------

    def _new_round(self, number: int, lead: int) -> RoundState:
        return RoundState(
            number=number,
            trick=Trick(lead),
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
        if self.phase is Phase.PLAY:
            return Expectation(self.turn, Verb.PLAY)
        if self.phase is Phase.PLACE:
            assert self.round.winner is not None
            return Expectation(self.round.winner, Verb.PLACE)
        if self.phase is Phase.LEAD:
            return Expectation(self.lead_choosers[0], Verb.LEAD)
        return None

    def apply(self, action: Action) -> list[Event]:
        if self.phase is Phase.OVER:
            raise IllegalAction(say("the game is over; nothing more can be played"))
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, Place):
            return self._place(action)
        if isinstance(action, ChooseLead):
            return self._choose_lead(action)
        if isinstance(action, RegisterHand):
            return self._register(action)
        raise IllegalAction(
            say("Oshaka Trick has no action {name}", name=Verbatim(type(action).__name__))
        )

    # --- hand registration ------------------------------------------------------

    def _register(self, action: RegisterHand) -> list[Event]:
        seat, cards = action.seat, action.cards
        if self.phase is Phase.LEAD:
            # Hands for round 2 may be registered while its lead is being chosen.
            rnd_hands: dict[int, set[Card]] = self._next_hands
            played: set[Card] = set()
            started: set[int] = set()
        else:
            rnd = self.round
            rnd_hands, played, started = rnd.hands, rnd.played, rnd.seats_started
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

    def _play(self, action: Play) -> list[Event]:
        seat, card, rnd = action.seat, action.card, self.round
        player, words = Player(seat), card.words
        if self.phase is Phase.PLACE:
            assert rnd.winner is not None
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: {winner} must first place {due} "
                    "face up or face down",
                    player=player,
                    card=words,
                    winner=Player(rnd.winner),
                    due=rnd.to_place[0].words,
                )
            )
        if self.phase is Phase.LEAD:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: {chooser} must first choose who leads round 2",
                    player=player,
                    card=words,
                    chooser=Player(self.lead_choosers[0]),
                )
            )
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
        lead_colour = rnd.trick.lead_colour
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
                and any(c.colour == lead_colour for c in hand)
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
        rnd.trick.plays.append((seat, card))
        events.insert(0, CardPlayed(seat, card, rnd.trick_number))
        if len(rnd.trick.plays) < self.players:
            events.append(TurnPassed(self.turn))
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        rnd = self.round
        winner, reason = rnd.trick.winner()
        plays = tuple(rnd.trick.plays)
        events: list[Event] = [TrickWon(winner, rnd.trick_number, plays, reason)]
        order = {card: index for index, (_, card) in enumerate(plays)}
        # Smallest number first; equal numbers in the order they were played.
        rnd.to_place = sorted(order, key=lambda c: (c.number, order[c]))
        rnd.winner = winner
        self.phase = Phase.PLACE
        return events + self._resolve_placements()

    def forced_reason(self, seat: int, card: Card) -> Text | None:
        """Why ``card`` would be a forced Oshaka penalty for ``seat`` now, or None."""
        area = self.round.areas[seat]
        column = area.columns.get(card.colour)
        if column and card.number < column[-1].number:
            return say(
                "{card} is smaller than {top}, the top of {player}'s {colour} column",
                card=card.words,
                top=column[-1].words,
                player=Player(seat),
                colour=card.colour_name,
            )
        if self.round.number == 2 and not column and len(area.columns) >= 3:
            return say(
                "{card} would be a fourth colour, and in round 2 a fourth colour cannot score",
                card=card.words,
            )
        return None

    def _resolve_placements(self) -> list[Event]:
        """Place forced penalties until a card needs the winner's choice, or none is left."""
        rnd = self.round
        events: list[Event] = []
        assert rnd.winner is not None
        while rnd.to_place:
            card = rnd.to_place[0]
            reason = self.forced_reason(rnd.winner, card)
            if reason is None:
                events.append(PlacementDue(rnd.winner, card))
                return events
            rnd.to_place.pop(0)
            rnd.areas[rnd.winner].oshaka.append(card)
            events.append(OshakaPenalty(rnd.winner, card, reason))
        return events + self._next_trick()

    def _place(self, action: Place) -> list[Event]:
        rnd = self.round
        if self.phase is not Phase.PLACE:
            raise IllegalAction(
                say("{player} has no card to place now", player=Player(action.seat))
            )
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
        return [CardPlaced(rnd.winner, card, action.face_up), *self._resolve_placements()]

    def _next_trick(self) -> list[Event]:
        rnd = self.round
        assert rnd.winner is not None
        winner, rnd.winner = rnd.winner, None
        if rnd.trick_number < TRICKS_PER_ROUND:
            rnd.trick_number += 1
            rnd.trick = Trick(winner)
            self.phase = Phase.PLAY
            return [TurnPassed(winner)]
        return self._finish_round()

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

    def _choose_lead(self, action: ChooseLead) -> list[Event]:
        if self.phase is not Phase.LEAD:
            raise IllegalAction(
                say(
                    "{player} cannot choose a lead now: the lead is chosen only before round 2",
                    player=Player(action.seat),
                )
            )
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

    # --- what the table, display and bots read ---------------------------------

    def rounds_in_report(self) -> list[RoundState]:
        rounds = list(self.finished_rounds)
        if self.phase in (Phase.PLAY, Phase.PLACE) and self.round not in rounds:
            rounds.append(self.round)
        return rounds

    def totals(self) -> list[int]:
        totals = [0] * self.players
        for rnd in self.rounds_in_report():
            for seat, area in enumerate(rnd.areas):
                totals[seat] += area.score()
        return totals

    def registered_hand(self, seat: int) -> list[Card] | None:
        """The seat's registered remaining hand, sorted, or None (for the seat's own bot)."""
        hand = self.round.hands.get(seat)
        return None if hand is None else sorted(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        expected = self.expected
        if expected is None or (expected.seat != seat and self.phase is not Phase.LEAD):
            return []
        rnd = self.round
        if self.phase is Phase.PLACE:
            card = rnd.to_place[0]
            return [Place(seat, True, card), Place(seat, False, card)]
        if self.phase is Phase.LEAD:
            if seat not in self.lead_choosers:
                return []
            return [ChooseLead(seat, lead) for lead in range(self.players)]
        hand = rnd.hands.get(seat)
        if hand is None:
            taken = set(rnd.played)
            for other in rnd.hands.values():
                taken |= other
            return [Play(seat, c) for c in sorted(self.deck - taken)]
        lead_colour = rnd.trick.lead_colour
        follow = [c for c in hand if c.colour == lead_colour]
        return [Play(seat, c) for c in sorted(follow or hand)]

    def round_json(self, rnd: RoundState) -> JSON:
        return {
            "scores": [area.score() for area in rnd.areas],
            "columns": [area.columns_json() for area in rnd.areas],
            "penalties": [len(area.face_down) for area in rnd.areas],
            "oshaka": [[str(c) for c in area.oshaka] for area in rnd.areas],
            "reneges": [{"seat": s, "trick": t} for s, t in rnd.reneges],
        }

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        # Column tops in the record's short notation ("R7 B3"): a sheet cell has no room
        # for "Red 7, Blue 3 and Green 5", and the notation is printed on the cards.
        columns: list[Words] = [
            " ".join(col[-1] for col in seat.values()) or "-" for seat in round_report["columns"]
        ]
        face_down: list[Words] = [f"-{n}" if n else "-" for n in round_report["penalties"]]
        oshaka: list[Words] = [
            f"-{sum(int(c[1:]) for c in cards)}" if cards else "-"
            for cards in round_report["oshaka"]
        ]
        return [
            (say("column tops"), columns),
            (say("face down"), face_down),
            (say("Oshaka"), oshaka),
        ]

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        return [
            say("{player} reneged in trick {trick}", player=Player(r["seat"]), trick=r["trick"])
            for r in round_report["reneges"]
        ]

    def report(self) -> JSON:
        totals = self.totals()
        expected = self.expected
        return {
            "finished": self.phase is Phase.OVER,
            "rounds": [self.round_json(rnd) for rnd in self.rounds_in_report()],
            "totals": totals,
            "winners": best_seats(totals),
            "next": None if expected is None else expected.to_json(),
        }

    def snapshot(self) -> OshakaSnapshot:
        rnd = self.round
        totals = self.totals()
        plays_made = {seat: 0 for seat in range(self.players)}
        if self.phase is not Phase.LEAD:  # between rounds the last trick is already counted
            for seat, _ in rnd.trick.plays:
                plays_made[seat] += 1
        completed = rnd.trick_number - 1 if self.phase is not Phase.LEAD else TRICKS_PER_ROUND
        seats = tuple(
            SeatSnapshot(
                seat=seat,
                columns={
                    c: tuple(str(x) for x in area.columns[c])
                    for c in COLOURS
                    if area.columns.get(c)
                },
                face_down=len(area.face_down),
                oshaka=tuple(str(c) for c in area.oshaka),
                round_score=area.score(),
                total=totals[seat],
                cards_left=HAND_SIZE - completed - plays_made[seat],
                hand_registered=seat in rnd.hands,
            )
            for seat, area in enumerate(rnd.areas)
        )
        return OshakaSnapshot(
            game=self.game_id,
            title=self.title,
            players=self.players,
            phase=self.phase,
            round=rnd.number,
            rounds=ROUNDS,
            trick_number=rnd.trick_number,
            tricks_per_round=TRICKS_PER_ROUND,
            lead_seat=rnd.trick.lead_seat,
            lead_colour=rnd.trick.lead_colour,
            trick=tuple(TrickCard(s, str(c)) for s, c in rnd.trick.plays),
            to_place=tuple(str(c) for c in rnd.to_place) if self.phase is Phase.PLACE else (),
            trick_winner=rnd.winner,
            lead_choosers=self.lead_choosers,
            next=self.expected,
            seats=seats,
            round_scores=tuple(tuple(a.score() for a in r.areas) for r in self.finished_rounds),
            totals=tuple(totals),
            winners=tuple(best_seats(totals)) if self.phase is Phase.OVER else (),
        )


# --- chance made concrete --------------------------------------------------------


def deal(players: int, rng: random.Random) -> list[list[Card]]:
    """Shuffle and deal 13 cards to each seat (3 players: one card of 40 stays out unseen)."""
    deck = full_deck(players)
    rng.shuffle(deck)
    return [sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)]


def hand_registrations(hands: Sequence[Sequence[Card]]) -> list[Action]:
    """The ``hand`` actions that register dealt hands, seat by seat."""
    return [RegisterHand(seat, tuple(hand)) for seat, hand in enumerate(hands)]
