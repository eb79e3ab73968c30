"""Oskar's phases: the dice (the opening roll, doubles, rerolls) and the play of a round.

Each phase checks an action completely before it changes anything (``_check_*``,
which word every refusal) and then applies it; ``Oskar.apply`` dispatches to them
through one table. The fast paths these checks may skip are in ``fast.py``.
"""

from __future__ import annotations

import random
from collections import Counter

from controller.games.base import (
    Event,
    GameOver,
    IllegalAction,
    TurnPassed,
    best_seats,
)
from controller.games.oskar import fast
from controller.games.oskar.actions import (
    CARD_PLAYED,
    DICE_CHOICES,
    EXPECT_REROLL,
    HAND_REGISTERED,
    TURNS,
    CardPlayed,
    DiceRolled,
    HandRegistered,
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
    DECK_VALUE,
    WIN_REASONS,
    ZERO,
    ZEROS,
    Card,
    check_card,
    full_deck,
    sort_cards,
    stock_size,
)
from controller.games.oskar.dice import (
    RerollLimit,
    RerollRefused,
    RollRequest,
    check_face,
    dice_action,
    reroll_action,
    reroll_rule,
)
from controller.games.oskar.scoring import (
    RoundResult,
    score_round,
)
from controller.games.oskar.snapshot import (
    GENRES,
    Phase,
    RollView,
    genre_word,
)
from controller.games.oskar.state import (
    OskarState,
    RoundState,
)
from controller.games.words import Card as CardArg
from controller.games.words import Items, Player, Verbatim, Words, as_arg, say


class DicePhase(OskarState):
    """The dice: the opening roll, the doubles offer, the rerolls after a round."""

    def reroll_allowance(self, seat: int) -> frozenset[int]:
        """How many dice ``seat`` may reroll in its next action (empty: it may not)."""
        limit = self.reroll_limit(seat)
        return frozenset() if limit is None else limit.counts

    def reroll_limit(self, seat: int) -> RerollLimit | None:
        """The rule that says how many dice ``seat`` may reroll now, or None if it may not."""
        if self.doubles == seat:
            return RerollLimit.DOUBLES
        if self.phase is Phase.REROLL and self.expected is EXPECT_REROLL[seat]:
            assert self.rule is not None
            return self.rule.limits[seat]
        return None

    def reroll_refusal(self, seat: int, count: int) -> RerollRefused | None:
        """Why the rules refuse ``seat`` a reroll of ``count`` dice now, or None if they allow it.

        The question a table asks while a seat picks its dice, for a seat that
        may reroll now (``reroll_limit`` is not None).
        """
        limit = self.reroll_limit(seat)
        assert limit is not None, "only a seat that may reroll now picks dice"
        return None if count in limit.counts else RerollRefused(seat, count, limit)

    def roll_outcome(self, request: RollRequest, rng: random.Random) -> RollDice | Reroll:
        """The chance outcome of a seat's decision to roll, drawn from ``rng``.

        The opening roll (both dice of a seat that has not rolled) is a ``dice``
        action; any other roll is a ``reroll`` of the picked dice, refused here
        (``RerollRefused`` in its words) as ``apply`` would refuse it, before
        anything is drawn. The draws are those of ``dice_action`` and
        ``reroll_action``, so a seed rolls the same faces as it always did.
        """
        seat, dice = request.seat, tuple(sorted(set(request.dice)))
        if self.phase is Phase.DICE and self.doubles != seat and self.dice[seat] is None:
            if dice != (0, 1):
                raise IllegalAction(
                    say("{player} must roll its dice first (a dice action)", player=Player(seat))
                )
            return dice_action(rng, seat)
        current = self.dice[seat]
        limit = self.reroll_limit(seat)
        if current is None or limit is None:
            # Words the refusal as ``apply`` does: a reroll of those dice, now.
            self._check_reroll(Reroll(seat, dice, current or (GENRES[0], GENRES[0])))
            raise AssertionError("a seat that may not reroll has its reroll refused")
        refused = self.reroll_refusal(seat, len(dice))
        if refused is not None:
            raise IllegalAction(refused.words)
        return reroll_action(rng, seat, current, dice)

    def _check_dice(self, action: RollDice) -> None:
        seat = action.seat
        for face in action.faces:
            check_face(face)
        if self.dice[seat] is not None:
            if self.phase is Phase.DICE:
                raise IllegalAction(
                    say("{player} has already rolled its dice", player=Player(seat))
                )
            raise IllegalAction(
                say(
                    "{player} cannot roll its dice again: the dice are rolled once at the start "
                    "of the game and rerolled after each round",
                    player=Player(seat),
                )
            )

    def _roll(self, action: RollDice) -> list[Event]:
        seat, faces = action.seat, action.faces
        self.dice[seat] = faces
        doubles = faces[0] == faces[1]
        self._note_roll(seat, faces, (0, 1), None)
        if doubles:
            self.doubles = seat
        events: list[Event] = [DiceRolled(seat, faces, doubles)]
        if not self.unrolled():
            self.phase = Phase.PLAY
            events.append(TurnPassed(self.round.turn))
        return events

    def _note_roll(
        self,
        seat: int,
        faces: tuple[str, str],
        rolled: tuple[int, ...],
        before: tuple[str, str] | None,
    ) -> None:
        """Keep this roll among the game's latest, numbered so that two alike stay two."""
        rolls = self.last_rolls
        number = rolls[-1].number + 1 if rolls else 1
        roll = RollView(number, seat, faces, tuple(rolled), before, faces[0] == faces[1])
        # A round's rerolls and a doubles reroll at most: the rolls a display may not yet
        # have drawn when several come at once (the table rolls every virtual die).
        self.last_rolls = (*rolls[-self.players :], roll)

    def _check_reroll(self, action: Reroll) -> None:
        seat = action.seat
        for face in action.faces:
            check_face(face)
        rerolled = action.rerolled
        if rerolled not in DICE_CHOICES and (
            any(index not in (0, 1) for index in rerolled) or len(set(rerolled)) != len(rerolled)
        ):
            raise IllegalAction(
                say(
                    "dice are numbered 0 and 1, not {value}",
                    value=Verbatim(str(list(action.rerolled))),
                )
            )
        current = self.dice[seat]
        player = Player(seat)
        if self.doubles == seat:
            assert current is not None
            if len(action.rerolled) != 1:
                refused = RerollRefused(seat, len(action.rerolled), RerollLimit.DOUBLES)
                raise IllegalAction(refused.words)
        elif self.phase is Phase.REROLL:
            rule = self.rule
            assert rule is not None
            due = rule.order[self.rerolls_done]
            if seat != due:
                done = rule.order[: self.rerolls_done]
                if seat in done:
                    raise IllegalAction(
                        say(
                            "{player} has already rerolled after this round; "
                            "it is {due}'s turn to reroll",
                            player=player,
                            due=Player(due),
                        )
                    )
                raise IllegalAction(
                    say(
                        "{player} cannot reroll yet: it is {due}'s turn",
                        player=player,
                        due=Player(due),
                    )
                )
            limit = rule.limits[seat]
            if len(action.rerolled) not in limit.counts:
                raise IllegalAction(RerollRefused(seat, len(action.rerolled), limit).words)
        elif self.phase is Phase.DICE:
            if current is None:
                raise IllegalAction(
                    say("{player} must roll its dice first (a dice action)", player=player)
                )
            raise IllegalAction(
                say(
                    "{player} cannot reroll now: only a seat that has just rolled doubles "
                    "may reroll one die before the game starts",
                    player=player,
                )
            )
        else:
            raise IllegalAction(
                say(
                    "{player} cannot reroll now: dice are rerolled after the round, "
                    "and it is {turn}'s turn to play",
                    player=player,
                    turn=Player(self.round.turn),
                )
            )
        assert current is not None
        for index in (0, 1):
            if index not in action.rerolled and action.faces[index] != current[index]:
                raise IllegalAction(
                    say(
                        "{player} kept die {die}, so it must still show {kept}, not {shown}",
                        player=player,
                        die=Verbatim(str(index)),
                        kept=as_arg(genre_word(current[index])),
                        shown=as_arg(genre_word(action.faces[index])),
                    )
                )

    def _reroll(self, action: Reroll, is_doubles_reroll: bool) -> list[Event]:
        seat, faces = action.seat, action.faces
        self._note_roll(seat, faces, action.rerolled, self.dice[seat])
        self.dice[seat] = faces
        doubles = faces[0] == faces[1]
        events: list[Event] = [RerollDone(seat, action.rerolled, faces, doubles, is_doubles_reroll)]
        if doubles:
            self.doubles = seat
        if is_doubles_reroll:
            return events
        assert self.rule is not None
        self.rerolls_done += 1
        if self.rerolls_done == len(self.rule.order):
            events += self._next_round()
        return events

    def _next_round(self) -> list[Event]:
        old = self.round
        dealer = (old.dealer + 1) % self.players
        self.round = RoundState(old.number + 1, dealer, (dealer + 1) % self.players, self.players)
        self.rule = None
        self.rerolls_done = 0
        self.phase = Phase.PLAY
        lead = self.round.lead
        return [RoundStarted(self.round.number, dealer, lead), TurnPassed(lead)]


class PlayPhase(OskarState):
    """A round's play: registered hands, cards to tricks, the stock and the round's score."""

    def _check_hand(self, action: RegisterHand) -> None:
        seat, rnd = action.seat, self.round
        player = Player(seat)
        if not self.round_in_progress():
            raise IllegalAction(
                say(
                    "{player} cannot register a hand now: the round is over; hands for the "
                    "next round are registered once the rerolls are done",
                    player=player,
                )
            )
        if rnd.hands[seat] is not None:
            raise IllegalAction(
                say("{player} has already registered its hand for this round", player=player)
            )
        if rnd.cards_played[seat]:
            raise IllegalAction(
                say(
                    "{player} cannot register a hand now: it has already played this round",
                    player=player,
                )
            )
        cards = action.cards
        for card in cards:
            if card not in CARD_ORDER:
                check_card(card)  # a hand-built Card must still be an Oskar card
        if len(cards) != self.hand_size:
            raise IllegalAction(
                say(
                    "{player}'s hand must have {size} cards, not {count}",
                    player=player,
                    size=self.hand_size,
                    count=len(cards),
                )
            )
        distinct = set(cards)
        # Counting compares every card with ==, slow for cards: count only a hand with zeros.
        zeros = cards.count(ZERO) if ZERO in distinct else 0
        distinct.discard(ZERO)
        played = rnd.played
        clear = len(distinct) + zeros == len(cards) and not any(map(played.__getitem__, distinct))
        if clear:
            for other in rnd.hands:
                if other is not None and not distinct.isdisjoint(other):
                    clear = False
                    break
        if clear:
            # No card twice, none played, none in another registered hand (every hand
            # of a virtual deal): only the zeros are left to check. Without zeros there
            # is nothing to check: the zeros played and registered never exceed five.
            if zeros:
                self._check_zeros(player, zeros)
            return
        counts = Counter(cards)
        counts.pop(ZERO, 0)
        # One pass over the registered hands, not one per card: who holds what.
        held = {c for h in rnd.hands if h is not None for c in h if c != ZERO}
        for card, count in counts.items():
            named = CardArg(str(card))
            if count > 1:
                raise IllegalAction(
                    say("{card} is in {player}'s hand twice", card=named, player=player)
                )
            if rnd.played[card]:
                raise IllegalAction(say("{card} has already been played this round", card=named))
            if card in held:
                holder = rnd.holder(card)
                assert holder is not None
                raise IllegalAction(
                    say(
                        "{card} is already in {holder}'s registered hand",
                        card=named,
                        holder=Player(holder),
                    )
                )
        self._check_zeros(player, zeros)

    def _check_zeros(self, player: Player, zeros: int) -> None:
        """Refuse a hand with more zeros than are neither played nor registered elsewhere."""
        free = self.round.zeros_unaccounted()
        if zeros > free:
            raise IllegalAction(
                say(
                    "{player}'s hand has {zeros} zeros, but only {free} of the five are "
                    "not played or in another registered hand",
                    player=player,
                    zeros=zeros,
                    free=free,
                )
            )

    def _register(self, action: RegisterHand) -> list[Event]:
        rnd = self.round
        hand = sort_cards(action.cards)
        rnd.dealt[action.seat] = tuple(hand)
        rnd.hands[action.seat] = hand
        key = (action.seat, len(action.cards))
        registered = HAND_REGISTERED.get(key)
        if registered is None:
            registered = HAND_REGISTERED[key] = HandRegistered(*key)
        return [registered]

    def registered_hand(self, seat: int) -> tuple[Card, ...] | None:
        """The seat's registered cards not yet played this round, or None (for its own bot)."""
        hand = self.round.hands[seat] if self.round_in_progress() else None
        return None if hand is None else tuple(hand)

    def stock_cards(self) -> tuple[Card, ...] | None:
        """The stock of the current round once every hand is registered, else None.

        It lies face down: only tools that may see everything (the simulator,
        a staff audit) ask for it; the snapshot shows its size only.
        """
        rnd = self.round
        if not self.round_in_progress() or any(d is None for d in rnd.dealt):
            return None
        rest = Counter(full_deck())
        for dealt in rnd.dealt:
            assert dealt is not None
            rest -= Counter(dealt)
        return tuple(sorted(rest.elements()))

    def _check_play(self, action: Play) -> None:
        seat, card, rnd = action.seat, action.card, self.round
        check_card(card)  # a hand-built Card must still be an Oskar card
        # The words of a refusal are built only when one is raised (this runs per card).
        if self.phase is Phase.DICE:
            waiting = self.unrolled()
            raise IllegalAction(
                say(
                    "{player} cannot play {card} yet: {waiting} must first roll their dice",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    waiting=Items(tuple(Player(s) for s in waiting)),
                )
            )
        if self.phase is Phase.REROLL:
            assert self.rule is not None
            due = self.rule.order[self.rerolls_done]
            raise IllegalAction(
                say(
                    "{player} cannot play {card} yet: the dice are being rerolled after the "
                    "round and it is {due}'s turn to reroll",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    due=Player(due),
                )
            )
        if seat != rnd.turn:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it is {turn}'s turn",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    turn=Player(rnd.turn),
                )
            )
        if card.is_zero and rnd.played[card] >= ZEROS:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: all five zeros have been played this round",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        if not card.is_zero and rnd.played[card]:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it has already been played this round",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        hand = rnd.hands[seat]
        if hand is not None and card not in hand:
            held: Words = " ".join(str(c) for c in hand) if hand else say("no cards")
            raise IllegalAction(
                say(
                    "{player} does not hold {card}; its hand: {held}",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    held=Verbatim(held) if isinstance(held, str) else held,
                )
            )
        if hand is None and card.is_zero and rnd.zeros_unaccounted() <= 0:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: every zero left is in a registered hand",
                    player=Player(seat),
                    card=CardArg(str(card)),
                )
            )
        holder = None if hand is not None or card.is_zero else rnd.holder(card)
        if holder is not None:
            raise IllegalAction(
                say(
                    "{player} cannot play {card}: it is in {holder}'s registered hand",
                    player=Player(seat),
                    card=CardArg(str(card)),
                    holder=Player(holder),
                )
            )

    def _play(self, action: Play) -> list[Event]:
        seat, card, rnd = action.seat, action.card, self.round
        rnd.played[card] += 1
        rnd.cards_played[seat] += 1
        hand = rnd.hands[seat]
        if hand is not None:
            hand.remove(card)
        trick = rnd.trick
        trick.append((seat, card))
        zero = sum(1 for _, c in trick if c.is_zero) if card.is_zero else 0
        key = (seat, card, rnd.trick_number, zero)
        played = CARD_PLAYED.get(key)
        if played is None:
            played = CARD_PLAYED[key] = CardPlayed(*key)
        if len(trick) < self.players:
            rnd.turn = turn = (seat + 1) % self.players  # the seat played was the turn
            return [played, TURNS[turn]]
        events: list[Event] = [played]
        events += self._finish_trick()
        return events

    def _finish_trick(self) -> list[Event]:
        rnd = self.round
        plays = tuple(rnd.trick)
        # One pass for what ``trick_winner`` and ``win_reason`` would each walk the trick
        # for (once per trick): its points (a card is worth its number) and its zeros.
        points = 0
        zeros: list[int] = []
        for seat, card in plays:
            points += card.number
            if card.is_zero:
                zeros.append(seat)
        winner = fast.winner(plays, zeros)  # FAST PATH: checked against trick_winner
        rnd.points[winner] += points
        rnd.tricks_won[winner] += 1
        reason = WIN_REASONS[min(len(zeros), 2)]
        events: list[Event] = [TrickWon(winner, rnd.trick_number, plays, points, reason)]
        rnd.last_trick, rnd.last_winner = plays, winner
        if rnd.stock_winner is None and len(zeros) >= 2:
            rnd.stock_winner = winner
            events.append(StockWon(winner, stock_size(self.players)))
        rnd.trick = []
        rnd.trick_lead = rnd.turn = winner
        if rnd.trick_number < self.hand_size:
            rnd.trick_number += 1
            events.append(TURNS[winner])
            return events
        return events + self._finish_round()

    def stock_value(self) -> int:
        """The value of the stock: the deck's total less the cards played this round.

        Only exact once the round is over (every dealt card has been played).
        """
        played = sum(card.number * count for card, count in self.round.played.items())
        return DECK_VALUE - played

    def _finish_round(self) -> list[Event]:
        rnd = self.round
        # Every card played lies in a finished trick now, so the cards played are worth
        # the points won: ``stock_value()`` without walking the played counts.
        stock_value = DECK_VALUE - sum(rnd.points)
        points = list(rnd.points)
        if rnd.stock_winner is not None:
            points[rnd.stock_winner] += stock_value
        dice = tuple(self._faces(seat) for seat in range(self.players))
        score = score_round(dice, points)
        for seat, won in enumerate(score.tokens):
            self.tokens[seat] += won
        self.results.append(
            RoundResult(
                rnd.number,
                rnd.dealer,
                rnd.lead,
                dice,
                tuple(points),
                stock_value,
                rnd.stock_winner,
                score,
            )
        )
        events: list[Event] = [
            RoundScored(
                rnd.number,
                tuple(points),
                stock_value,
                rnd.stock_winner,
                score.genre_totals,
                score.trendy,
                score.tokens,
                tuple(self.tokens),
            )
        ]
        if max(self.tokens) >= self.tokens_to_win:
            self.phase = Phase.OVER
            events.append(GameOver(tuple(self.tokens), tuple(best_seats(self.tokens))))
            return events
        self.rule = reroll_rule(points, rnd.lead)
        self.rerolls_done = 0
        self.phase = Phase.REROLL
        events.append(RerollsDue(self.rule.order, self.rule.most, self.rule.fewest))
        return events
