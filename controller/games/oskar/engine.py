"""Oskar: trick-taking for film-genre teams thrown together by dice.

Rules: ``shared/rules/oskar.txt`` plus the rulings of the game-record spec.
In short:

* 38 cards: ``Y1``-``Y4``, ``G2``-``G8``, ``B3``-``B11``, ``L4``-``L16`` and
  five red zeros ``R0``; a card is worth its number, 238 points in all. Every
  seat holds ``38 // players`` cards (3 players 12, 4 players 9, 5 players 7,
  6 players 6); the rest (2 or 3 cards) is the face-down stock.
* Every seat shows two dice (``western``, ``horror``, ``comedy``, ``action``,
  ``scifi``, ``romance``). Each seat records one ``dice`` action, in any
  order, before the first card of the game is played.
* Round 1 is dealt by the header's ``dealer``; the seat left of the dealer
  leads. Nobody has to follow suit. Without zeros the best colour wins
  (yellow > green > blue > lilac), the highest number within it. With one
  zero in the trick colours lapse: the highest number wins, equal numbers go
  to the earlier card. The second zero wins the trick outright, and the first
  seat in a round to win a trick that way also wins the stock. Further zeros
  mean nothing. The trick winner leads the next trick. A round ends when
  every seat has played its hand.
* Scoring: a seat's points are the values of the cards it won, plus the
  stock's value (238 less the values of the cards dealt, i.e. played) if it
  won the stock. A seat's points count once in the column of every distinct
  genre its dice show; a genre with 120 points or more is trendy; a seat gets
  one Oskar token for each of its dice that shows a trendy genre.
* The game ends when the round in which a seat reaches ``tokens_to_win``
  (7 or 8) tokens is scored; the most tokens win (ties share the win). The
  dice are not rerolled after that final round.
* Otherwise every seat records one ``reroll``: the seats with the most points
  first (each must reroll both dice), then the seats with the fewest points
  (each may reroll none, one or both), then every other seat (none or one).
  Within each group the order is seat order from the round's start player
  (the seat that led its first trick). When every seat has the same points,
  all of them have "the most" and must reroll both. Then the seat left of the
  dealer deals the next round and the seat left of the new dealer leads.
* Doubles: whenever a ``dice`` or ``reroll`` action leaves a seat's two dice
  showing the same face, that seat may record one more ``reroll`` of exactly
  one die right away (again after that one, if it shows doubles again). If
  the next action is anyone else's, the seat declined. The offer is optional,
  so ``expected`` (the report's ``next``) always names the action the game
  cannot go on without; the pending offer is in ``snapshot().doubles`` and
  in the seat's ``legal_actions``. This project adds an explicit decline:
  ``{"seat": s, "reroll": []}`` without ``dice`` (``KeepDoubles``) from the
  seat with the open offer; ``decides`` names the seat a table waits for
  (the open offer first).

Hands are optional (the spec has no Oskar ``hand`` verb; this project adds
one, as Oshaka Trick and Oh Pshaw have): without registrations a play is
refused only when the card is not an Oskar card or has already been played
this round (five times, for ``R0``); a registered seat may play only cards it
holds, and nobody may play a card a registered hand holds. A registration is
no move in the game (it does not answer a doubles offer). ``chance_actions``
deals a round as hand registrations and rolls the opening dice, stopping
after doubles until that seat decides. Dice faces are whatever the seat shows:
the table's virtual roller uses ``roll`` with an injected ``random.Random``,
while manual entry records the faces a person reports, so any faces are
accepted in ``dice`` and for the rerolled dice of a ``reroll``; a die that is
kept must keep its face.

``next`` while the dice are first rolled names the lowest seat that has not
rolled yet, though any seat that has not rolled may roll. During the reroll
phase it names the next seat in the rulebook's order.

The rules are split by concern in this folder; this module composes them:

| module | holds |
| --- | --- |
| ``cards.py`` | the deck, card notation, ``trick_winner`` and ``WinReason``, the deal |
| ``dice.py`` | faces, rolls, ``RerollLimit`` and the reroll rule, ``RollRequest`` outcomes |
| ``actions.py`` | the actions (record verbs) and the events ``apply`` returns |
| ``state.py`` | ``RoundState`` and ``OskarState``: the state and who acts next |
| ``phases.py`` | ``DicePhase`` and ``PlayPhase``: each action's check, then its effect |
| ``scoring.py`` | a round's genre totals, trendy genres and tokens |
| ``views.py`` | the report, the score sheet and the snapshot |
| ``snapshot.py`` | the snapshot's types, which the display imports |
| ``fast.py`` | the fast paths, kept honest by ``tests/games/oskar/test_oskar_fast_paths.py`` |

``Oskar.apply`` dispatches through one table (``_RULES``): every kind of
action has its check, which words any refusal by the phase the game is in,
and its effect.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from controller.games.base import (
    JSON,
    Action,
    Chance,
    Event,
    IllegalAction,
    MalformedAction,
    describe,
    new_header,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.oskar import fast
from controller.games.oskar.actions import (
    CARD_PLAYED,
    PLAYS,
    ROLLS,
    CardPlayed,
    DiceRolled,
    DoublesDeclined,
    DoublesOpen,
    HandRegistered,
    KeepDoubles,
    Play,
    RegisterHand,
    Reroll,
    RerollDone,
    RerollsDue,
    RollDice,
    RoundScored,
    RoundStarted,
    StockWon,
    TrickWon,
)
from controller.games.oskar.cards import (
    CARD_ORDER,
    COLOUR_NAMES,
    COLOUR_RANGES,
    COLOUR_STRENGTH,
    DECK_ORDER,
    DECK_SIZE,
    DECK_VALUE,
    ZERO,
    ZEROS,
    Card,
    WinReason,
    check_card,
    deal,
    full_deck,
    hand_size,
    sort_cards,
    stock_size,
    trick_winner,
    win_reason,
)
from controller.games.oskar.dice import (
    RerollLimit,
    RerollRefused,
    RerollRule,
    RollRequest,
    all_rerolls,
    check_face,
    check_faces,
    dice_action,
    reroll_action,
    reroll_rule,
    roll,
)
from controller.games.oskar.options import OskarOptions
from controller.games.oskar.phases import (
    DicePhase,
    PlayPhase,
)
from controller.games.oskar.scoring import (
    RoundResult,
    RoundScore,
    score_round,
)
from controller.games.oskar.snapshot import GENRE_CAPTIONS as GENRE_CAPTIONS
from controller.games.oskar.snapshot import GENRE_WORDS as GENRE_WORDS
from controller.games.oskar.snapshot import GENRES as GENRES
from controller.games.oskar.snapshot import TREND_THRESHOLD as TREND_THRESHOLD
from controller.games.oskar.snapshot import OskarSnapshot as OskarSnapshot
from controller.games.oskar.snapshot import Phase as Phase
from controller.games.oskar.snapshot import Verb as Verb
from controller.games.oskar.snapshot import genre_word as genre_word
from controller.games.oskar.state import (
    RoundState,
)
from controller.games.oskar.views import (
    Views,
)
from controller.games.words import Card as CardArg
from controller.games.words import Player, Verbatim, say

__all__ = [
    "CARD_ORDER",
    "CARD_PLAYED",
    "COLOUR_NAMES",
    "COLOUR_RANGES",
    "COLOUR_STRENGTH",
    "DECK_ORDER",
    "DECK_SIZE",
    "DECK_VALUE",
    "FORMAT",
    "GENRES",
    "GENRE_CAPTIONS",
    "GENRE_WORDS",
    "TREND_THRESHOLD",
    "ZERO",
    "ZEROS",
    "Card",
    "CardPlayed",
    "DiceRolled",
    "DoublesDeclined",
    "DoublesOpen",
    "HandRegistered",
    "KeepDoubles",
    "Oskar",
    "OskarOptions",
    "OskarSnapshot",
    "Phase",
    "Play",
    "RegisterHand",
    "Reroll",
    "RerollDone",
    "RerollLimit",
    "RerollRefused",
    "RerollRule",
    "RerollsDue",
    "RollDice",
    "RollRequest",
    "RoundResult",
    "RoundScore",
    "RoundScored",
    "RoundStarted",
    "RoundState",
    "StockWon",
    "TrickWon",
    "Verb",
    "WinReason",
    "check_card",
    "check_face",
    "check_faces",
    "deal",
    "dice_action",
    "full_deck",
    "genre_word",
    "hand_size",
    "reroll_action",
    "reroll_rule",
    "roll",
    "score_round",
    "sort_cards",
    "stock_size",
    "trick_winner",
    "win_reason",
]

FORMAT = "table-record/1"


class Oskar(DicePhase, PlayPhase, Views):
    """The Oskar engine; see the module docstring for the rules and rulings it enforces."""

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, cls.game_id)
        options = OskarOptions.read(header, cls.game_id)
        dealer = read_seat_key(header, "dealer", players)
        return cls(players, dealer, options)

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The rulebook does not say who deals first; the table draws the dealer.
        return new_header(cls, players, options, "dealer", rng)

    def header(self) -> JSON:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "players": self.players,
            "options": {"tokens_to_win": self.tokens_to_win},
            "dealer": self.first_dealer,
        }

    _VERBS: ClassVar[dict[str, tuple[str, ...]]] = {verb: () for verb in Verb}

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        if Verb.REROLL in obj:
            # A reroll carries "dice" too, which is also a verb of its own: check the
            # shape without it, then read it as the reroll's faces.
            rest = {key: value for key, value in obj.items() if key != Verb.DICE}
            seat, _ = split_action(rest, self.players, self._VERBS)
            rerolled = self._read_rerolled(obj[Verb.REROLL])
            if Verb.DICE not in obj:
                if not rerolled:
                    return KeepDoubles(seat)  # "reroll": [] without dice: keeps its doubles
                raise MalformedAction(
                    say('a "reroll" action must also give the "dice" now showing')
                )
            return Reroll(seat, rerolled, check_faces(obj[Verb.DICE]))
        seat, verb = split_action(obj, self.players, self._VERBS)
        if verb == Verb.PLAY:
            return Play(seat, Card.parse(obj[Verb.PLAY]))
        if verb == Verb.HAND:
            value = obj[Verb.HAND]
            if not isinstance(value, list):
                raise MalformedAction(
                    say(
                        '"hand" must be a list of cards, not {value}',
                        value=Verbatim(describe(value)),
                    )
                )
            return RegisterHand(seat, tuple(Card.parse(text) for text in value))
        return RollDice(seat, check_faces(obj[Verb.DICE]))

    @staticmethod
    def _read_rerolled(value: object) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise MalformedAction(
                say(
                    '"reroll" must list the dice rerolled (0, 1), e.g. [1] or [], not {value}',
                    value=Verbatim(describe(value)),
                )
            )
        for index in value:
            if isinstance(index, bool) or not isinstance(index, int) or index not in (0, 1):
                raise MalformedAction(
                    say(
                        '"reroll" names dice 0 and 1 only, not {value}',
                        value=Verbatim(describe(index)),
                    )
                )
        if len(set(value)) != len(value):
            raise MalformedAction(
                say('"reroll" names a die twice: {value}', value=Verbatim(describe(value)))
            )
        return tuple(sorted(value))

    def check_order(self, action: Action) -> None:
        """Refuse, as a table does, any move but the doubles offer's answer while it is open.

        The record's rule lets the next action of anyone else decline an open
        offer silently (``apply`` accepts it); a table instead waits for the
        seat that rolled doubles (``decides``), so that nobody's tap takes its
        choice away. Raises ``DoublesOpen`` naming that seat.
        """
        offer = self.doubles
        if offer is None or self.phase is Phase.OVER:
            return
        answers = isinstance(action, KeepDoubles | Reroll) and action.seat == offer
        if answers or isinstance(action, RegisterHand):
            return  # a registration is no move in the game
        if isinstance(action, Play):
            raise DoublesOpen(
                say(
                    "not {card} yet: {player} rolled doubles and decides first whether to "
                    "reroll one die",
                    card=CardArg(str(action.card)),
                    player=Player(offer),
                ),
                offer,
            )
        raise DoublesOpen(
            say("wait: {player} rolled doubles and decides first", player=Player(offer)), offer
        )

    def apply(self, action: Action) -> list[Event]:
        seat = action.seat
        if type(action) is Play and self.doubles is None and 0 <= seat < self.players:
            # The common case first: a card played with no doubles offer open.
            phase = self.phase
            if phase is Phase.PLAY and fast.plays_held_card(self.round, seat, action.card):
                return self._play(action)  # FAST PATH: checked against _check_play
            if phase is Phase.OVER:
                raise IllegalAction(say("the game is over; nothing more can be played"))
            self._check_play(action)
            return self._play(action)
        if self.phase is Phase.OVER:
            raise IllegalAction(say("the game is over; nothing more can be played"))
        if not 0 <= seat < self.players:
            raise IllegalAction(say("there is no {player} at this table", player=Player(seat)))
        rule = _RULES.get(type(action))
        if rule is None:
            raise IllegalAction(
                say("Oskar has no action {name}", name=Verbatim(type(action).__name__))
            )
        rule.check(self, action)
        # Validated: from here on the state changes.
        if not rule.move:
            return rule.act(self, action, False)
        events: list[Event] = []
        pending, self.doubles = self.doubles, None
        answers_offer = type(action) is Reroll and pending == seat
        if pending is not None and not answers_offer:
            events.append(DoublesDeclined(pending))
        return events + rule.act(self, action, answers_offer)

    def _check_keep(self, action: KeepDoubles) -> None:
        if self.doubles != action.seat:
            raise IllegalAction(
                say(
                    '{player} has no doubles to keep: "reroll": [] without dice answers '
                    "a doubles offer only",
                    player=Player(action.seat),
                )
            )

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        """The virtual deal of a round not yet touched, then the virtual opening dice.

        The deal registers every seat's hand; the opening dice are rolled seat
        by seat and stop after a seat that rolled doubles, so that seat decides
        (reroll one die or ``KeepDoubles``) before the next seat rolls.
        """
        rnd = self.round
        if rnd.trick and self.phase is Phase.PLAY:
            return []  # asked after every card: mid-trick there is nothing to deal or roll
        actions: list[Action] = []
        # Cheap tests first: this is asked after every action of a virtual table.
        untouched = (
            rnd.trick_number == 1
            and not rnd.trick
            and not any(rnd.cards_played)
            and all(h is None for h in rnd.hands)
        )
        if chance.cards and untouched and self.round_in_progress():
            hands, _ = deal(rng, self.players)
            actions += [RegisterHand(seat, tuple(hand)) for seat, hand in enumerate(hands)]
        if chance.dice and self.phase is Phase.DICE and self.doubles is None:
            for seat in self.unrolled():
                action = dice_action(rng, seat)
                actions.append(action)
                if action.faces[0] == action.faces[1]:
                    break
        return actions

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY and self.doubles is None:
            rnd = self.round
            hand = rnd.hands[seat]
            if hand is not None and seat == rnd.turn:
                # Asked before nearly every card: the seat to play, its hand registered
                # and no doubles offer open has exactly the plays of its cards (the
                # hand is kept in card order; repeated zeros are dropped).
                return fast.hand_plays(seat, hand)  # FAST PATH
        actions: list[Action] = []
        if phase is Phase.OVER:
            return actions
        if phase is Phase.DICE and self.dice[seat] is None:
            actions += ROLLS[seat]
        if phase is Phase.PLAY and seat == self.round.turn:
            rnd = self.round
            hand = rnd.hands[seat]
            if hand is not None:
                # The hand is kept in card order: drop repeated zeros, keep the order.
                actions += map(PLAYS[seat].__getitem__, dict.fromkeys(hand))
                if self.doubles is None:
                    return actions  # no reroll is open while cards are played
            else:
                # Without a registered hand any card not accounted for could be in it.
                zeros_free = rnd.zeros_unaccounted() > 0
                played = rnd.played
                held = {c for h in rnd.hands if h is not None for c in h}
                plays = PLAYS[seat]
                actions += [
                    plays[card]
                    for card in DECK_ORDER
                    if (zeros_free if card.is_zero else not played[card] and card not in held)
                ]
        current = self.dice[seat]
        if current is not None:
            for count in sorted(self.reroll_allowance(seat)):
                actions += all_rerolls(seat, current, count)
        if self.doubles == seat:
            actions.append(KeepDoubles(seat))
        return actions


@dataclass(frozen=True)
class _Rule:
    """How ``Oskar.apply`` takes one kind of action: check it whole, then act.

    ``move``: a move in the game, which answers (or, by anyone else, declines)
    an open doubles offer; a hand registration is none. ``act`` is told whether
    the action answers the offer (a reroll of one die by the seat that has it).
    """

    check: Callable[[Oskar, Any], None]
    act: Callable[[Oskar, Any, bool], list[Event]]
    move: bool = True


# One dispatch for every action: its check (which words any refusal, by phase)
# and its effect. The checks decide by the phase the game is in.
_RULES: Mapping[type[Action], _Rule] = {
    RollDice: _Rule(Oskar._check_dice, lambda game, action, _: game._roll(action)),
    Reroll: _Rule(Oskar._check_reroll, Oskar._reroll),
    Play: _Rule(Oskar._check_play, lambda game, action, _: game._play(action)),
    RegisterHand: _Rule(
        Oskar._check_hand, lambda game, action, _: game._register(action), move=False
    ),
    KeepDoubles: _Rule(Oskar._check_keep, lambda game, action, _: []),
}
