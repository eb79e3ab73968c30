"""Oss's phases: what each action does in the phase that takes it.

Set-up (hands, draws), the reveal, tribe cards below the tricks, the attempts
(results, counts, timed tosses, replays, the kept duel card) and the challenge.
Every handler checks everything before it changes anything, so a refused
action leaves the state untouched; ``Oss.apply`` picks the handler from one
table by verb, after ``PHASE_VERBS`` says the phase takes that verb.
"""

from __future__ import annotations

from collections import Counter

from controller.games.base import (
    Event,
    GameOver,
    IllegalAction,
    best_seats,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    MOST_JACKS_DUELS,
    PHRASES,
    AttemptBegins,
    AttemptKind,
    CardDrawn,
    CardOut,
    CardWon,
    Challenge,
    ChallengeRevealed,
    ChallengeWon,
    Count,
    CountConfirmed,
    Counts,
    Draw,
    DuelCounted,
    DuelFormed,
    DuelResult,
    DuelTied,
    Eliminated,
    Hand,
    HandRegistered,
    Keep,
    Outcome,
    Pass,
    Phase,
    Replay,
    Replayed,
    Result,
    Reveal,
    RoundScored,
    SoloResult,
    Timed,
    TossTimed,
    Tribe,
    TribePlayed,
    TricksRevealed,
    Verb,
)
from controller.games.oss.rulings import (
    HAND_SIZE,
)
from controller.games.oss.snapshot import Ending
from controller.games.oss.state import (
    OssState,
)
from controller.games.oss.values import (
    Attempt,
    Placement,
    RoundInfo,
    TimedToss,
    TribeCard,
    Won,
    sorted_values,
)
from controller.games.words import Items, Player, Verbatim, say, say_plural


class Phases(OssState):
    """Every verb's handler: checks, then the change and its events."""

    def _hand(self, action: Hand) -> list[Event]:
        seat = action.seat
        if seat not in self._pending:
            raise IllegalAction(
                say("{player} has already registered its hand", player=Player(seat))
            )
        counts = Counter(action.values)
        over = [v for v, n in counts.items() if n > self._decks[seat][v]]
        if over:
            raise IllegalAction(
                say(
                    "a tribe holds only two cards of value {value}, not {count}",
                    value=over[0],
                    count=counts[over[0]],
                )
            )
        self._decks[seat] -= counts
        self._hands[seat] += counts
        self._pending.remove(seat)
        if not self._pending:
            self._phase = Phase.REVEAL
        return [HandRegistered(seat, HAND_SIZE)]

    def _draw(self, action: Draw) -> list[Event]:
        seat = action.seat
        if seat not in self._pending:
            raise IllegalAction(say("{player} has already drawn this round", player=Player(seat)))
        if self._decks[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player}'s tribe deck holds no card of value {value} (left in it: {left})",
                    player=Player(seat),
                    value=action.value,
                    left=Verbatim(", ".join(map(str, sorted_values(self._decks[seat])))),
                )
            )
        self._decks[seat][action.value] -= 1
        self._decks[seat] = +self._decks[seat]
        self._hands[seat][action.value] += 1
        self._pending.remove(seat)
        if not self._pending:
            self._start_round()
        return [CardDrawn(seat)]

    def _start_round(self) -> None:
        # Every seat holds a card to play: it played one card a round and drew one
        # after each round but the last, and three draws are exactly its deck.
        self._round += 1
        self._phase = Phase.REVEAL
        self._replays = [0] * self.players
        self._info.append(RoundInfo(self._chief, replays=[0] * self.players))

    def _reveal(self, action: Reveal) -> list[Event]:
        self._turn_check(action.seat, self._chief, PHRASES[Verb.REVEAL])
        families = [cards.TRICKS_BY_NAME[name].family for name in action.solo]
        if sorted(families) != [1, 2, 3]:
            raise IllegalAction(
                say(
                    "the solo tricks must be one of each solo family (1, 2 and 3), "
                    "not families {families}",
                    families=Verbatim(", ".join(map(str, families))),
                )
            )
        if cards.TRICKS_BY_NAME[action.duel].family != cards.DUEL:
            raise IllegalAction(
                say("{trick} is a solo trick, not a duel trick", trick=Verbatim(action.duel))
            )
        for name in (*action.solo, action.duel):
            if name in self._used_tricks:
                raise IllegalAction(
                    say(
                        "{trick} was played in an earlier round and is out of the game",
                        trick=Verbatim(name),
                    )
                )
        solo = tuple(sorted(action.solo, key=lambda n: cards.TRICKS_BY_NAME[n].family))
        self._solo = solo
        self._duel = action.duel
        self._used_tricks.update((*solo, action.duel))
        self._placements = []
        self._phase = Phase.TRIBE
        info = self._info[-1]
        info.solo, info.duel = solo, action.duel
        return [TricksRevealed(self._round, solo, action.duel)]

    def _tribe(self, action: Tribe) -> list[Event]:
        seat = action.seat
        self._turn_check(seat, self._next_placer(), PHRASES[Verb.TRIBE])
        solo = Verbatim(", ".join(self._solo))
        if action.trick == self._duel:
            raise IllegalAction(
                say(
                    "{trick} is the duel trick: tribe cards go below one of the solo "
                    "tricks ({solo})",
                    trick=Verbatim(action.trick),
                    solo=solo,
                )
            )
        if action.trick not in self._solo:
            raise IllegalAction(
                say(
                    "{trick} is not on the table; the solo tricks are {solo}",
                    trick=Verbatim(action.trick),
                    solo=solo,
                )
            )
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player} has no tribe card of value {value} in hand",
                    player=Player(seat),
                    value=action.value,
                )
            )
        self._take_from_hand(seat, action.value)
        self._placements.append(Placement(seat, action.value, action.trick))
        events: list[Event] = [TribePlayed(seat, action.value, action.trick)]
        if len(self._placements) == self.players:
            events += self._form_attempts()
        return events

    def _form_attempts(self) -> list[Event]:
        events: list[Event] = []
        duel_of: dict[int, Attempt] = {}
        for trick in self._solo:
            below = [p for p in self._placements if p.trick == trick]
            if len(below) >= 2:
                first, second = below[0], below[1]
                duel = Attempt(
                    AttemptKind.DUEL, trick, (first.seat, second.seat), (first.value, second.value)
                )
                duel_of[first.seat] = duel
                duel_of[second.seat] = duel
                assert self._duel is not None
                events.append(DuelFormed(trick, self._duel, first.seat, second.seat))
        attempts: list[Attempt] = []
        for seat in self._from_chief():
            if seat in duel_of:
                if duel_of[seat].seats[0] == seat:
                    attempts.append(duel_of[seat])
                continue
            placed = next(p for p in self._placements if p.seat == seat)
            attempts.append(Attempt(AttemptKind.SOLO, placed.trick, (seat,), (placed.value,)))
        self._attempts = attempts
        self._outcomes = [None] * len(attempts)
        self._index = 0
        self._phase = Phase.RESULT
        events.append(self._begins())
        return events

    def _begins(self) -> AttemptBegins:
        # A new attempt (or a duel starting again): the timer's turns start afresh.
        self._timed_in_attempt = 0
        self._confirmed = {}
        attempt = self._attempts[self._index]
        return AttemptBegins(attempt.kind, attempt.trick, attempt.seats)

    def _result(self, action: Result) -> list[Event]:
        if self._phase is Phase.CHALLENGE_RESULT:
            return self._challenge_result(action)
        attempt = self._attempts[self._index]
        seat = action.seat
        if attempt.kind is AttemptKind.SOLO:
            self._turn_check(seat, attempt.seats[0], PHRASES[Verb.RESULT])
            if action.result is Outcome.TIE:
                raise IllegalAction(say("a solo attempt is won or lost; only a duel can tie"))
            card = attempt.card_of(seat)
            won = action.result is Outcome.WON
            trick = self._attempt_trick(attempt)
            self._note_result(Ending.SUCCEEDED if won else Ending.FAILED, trick, (seat,))
            if won:
                self._won[seat].append(Won(card, self._round))
                self._outcomes[self._index] = "won"
                return [
                    SoloResult(seat, attempt.trick, card.value, True),
                    CardWon(seat, card.tribe, card.value),
                    *self._next_attempt(),
                ]
            events: list[Event] = [SoloResult(seat, attempt.trick, card.value, False)]
            return events + self._after_loss(seat, None)
        if seat not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} cannot report a result: the duel is between {first} and {second}",
                    player=Player(seat),
                    first=Player(first),
                    second=Player(second),
                )
            )
        return self._duel_outcome(seat, action.result)

    def _duel_outcome(self, seat: int, outcome: Outcome) -> list[Event]:
        """The duel in progress ends as ``outcome`` for ``seat`` (one of its duelists)."""
        attempt = self._attempts[self._index]
        other = attempt.seats[1] if seat == attempt.seats[0] else attempt.seats[0]
        self._confirmed = {}  # the duel is decided, or starts again: counts afresh
        trick = self._attempt_trick(attempt)
        if outcome is Outcome.TIE:
            self._note_result(Ending.TIED, trick, attempt.seats)
            self._timed_in_attempt = 0  # the duel starts again
            first, second = attempt.seats
            return [DuelTied(first, second)]
        winner, loser = (seat, other) if outcome is Outcome.WON else (other, seat)
        self._note_result(Ending.DUEL_WON, trick, (winner, loser))
        return [DuelResult(winner, loser), *self._after_loss(loser, winner)]

    def _count(self, action: Count) -> list[Event]:
        attempt = self._counted_duel(action.seat)
        if action.of not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} is not in the duel: it is between {first} and {second}",
                    player=Player(action.of),
                    first=Player(first),
                    second=Player(second),
                )
            )
        self._confirmed[action.of] = action.count
        return [CountConfirmed(action.seat, action.of, action.count)]

    def _counts(self, action: Counts) -> list[Event]:
        attempt = self._counted_duel(action.seat)
        first_count, second_count = action.counts
        first, second = attempt.seats
        # The most jacks wins; equal counts (failed included) are a tie.
        if first_count == second_count:
            outcome = Outcome.TIE
        else:
            outcome = Outcome.WON if first_count > second_count else Outcome.LOST
        counted = DuelCounted((first, second), action.counts)
        return [counted, *self._duel_outcome(first, outcome)]

    def _counted_duel(self, seat: int) -> Attempt:
        """The attempt now, refused unless it is a "most jacks" duel of ``seat``'s."""
        attempt = self._attempts[self._index]
        if attempt.kind is not AttemptKind.DUEL:
            raise IllegalAction(
                say(
                    'counts decide a duel; {player} attempts {trick} alone: report "won" or "lost"',
                    player=Player(attempt.seats[0]),
                    trick=Verbatim(attempt.trick),
                )
            )
        if self._duel not in MOST_JACKS_DUELS:
            raise IllegalAction(
                say(
                    "{trick} is not won by the most jacks: the duelists report "
                    '"won", "lost" or "tie"',
                    trick=Verbatim(str(self._duel)),
                )
            )
        if seat not in attempt.seats:
            first, second = attempt.seats
            raise IllegalAction(
                say(
                    "{player} cannot enter the counts: the duel is between {first} and {second}",
                    player=Player(seat),
                    first=Player(first),
                    second=Player(second),
                )
            )
        return attempt

    def _timed(self, action: Timed) -> list[Event]:
        attempt = self._attempts[self._index]
        seat = action.seat
        if seat not in attempt.seats:
            raise IllegalAction(
                say(
                    "{player} cannot record a timed toss: {who} attempts {trick} now",
                    player=Player(seat),
                    who=Items(tuple(Player(s) for s in attempt.seats)),
                    trick=Verbatim(self._attempt_trick(attempt)),
                )
            )
        best = self._bests.get(seat)
        entry = TimedToss(seat, action.millis, self._round, self._attempt_trick(attempt))
        self._tosses.append(entry)
        if best is None or action.millis < best:
            self._bests[seat] = action.millis
        self._timed_in_attempt += 1
        return [TossTimed(seat, action.millis, best)]

    def _after_loss(self, loser: int, winner: int | None) -> list[Event]:
        """A seat failed (solo) or lost a duel: offer a replay, or settle the attempt."""
        self._winner = winner
        if self.replays_left(loser) > 0 and self._hands[loser]:
            self._loser = loser
            self._phase = Phase.REPLAY
            return []
        self._refusing = loser  # kept by apply() once the action is through
        return self._settle()

    def _settle(self) -> list[Event]:
        """The attempt in progress is over: the failed solo card is out, or the duel is kept."""
        attempt = self._attempts[self._index]
        self._loser = None
        if attempt.kind is AttemptKind.SOLO:
            card = attempt.card_of(attempt.seats[0])
            self._out.append(card)
            self._outcomes[self._index] = "lost"
            return [CardOut(card.tribe, card.value, "failed"), *self._next_attempt()]
        winner = self._winner
        assert winner is not None
        self._outcomes[self._index] = f"won by seat {winner}"
        if attempt.values[0] == attempt.values[1]:
            return self._keep_card(winner, attempt.card_of(winner))
        self._phase = Phase.KEEP
        return []

    def _keep_card(self, winner: int, kept: TribeCard) -> list[Event]:
        attempt = self._attempts[self._index]
        other = next(s for s in attempt.seats if attempt.card_of(s) != kept)
        lost = attempt.card_of(other)
        self._won[winner].append(Won(kept, self._round))
        self._out.append(lost)
        self._winner = None
        return [
            CardWon(winner, kept.tribe, kept.value),
            CardOut(lost.tribe, lost.value, "duel"),
            *self._next_attempt(),
        ]

    def _next_attempt(self) -> list[Event]:
        self._index += 1
        if self._index < len(self._attempts):
            self._phase = Phase.RESULT
            return [self._begins()]
        self._phase = Phase.CHALLENGE
        return []

    def _replay(self, action: Replay) -> list[Event]:
        seat = action.seat
        assert self._loser is not None
        self._turn_check(seat, self._loser, PHRASES[Verb.REPLAY])
        if self._hands[seat][action.value] == 0:
            raise IllegalAction(
                say(
                    "{player} has no tribe card of value {value} in hand to discard",
                    player=Player(seat),
                    value=action.value,
                )
            )
        self._take_from_hand(seat, action.value)
        self._out.append(TribeCard(seat, action.value))
        self._replays[seat] += 1
        self._info[-1].replays[seat] += 1
        self._loser = None
        self._winner = None
        self._phase = Phase.RESULT
        return [
            CardOut(seat, action.value, "replay"),
            Replayed(seat, action.value, self.replays_left(seat)),
            self._begins(),
        ]

    def _pass(self, action: Pass) -> list[Event]:
        assert self._loser is not None
        self._turn_check(action.seat, self._loser, PHRASES[Verb.PASS])
        return self._settle()

    def _keep(self, action: Keep) -> list[Event]:
        winner = self._winner
        assert winner is not None
        self._turn_check(action.seat, winner, PHRASES[Verb.KEEP])
        attempt = self._attempts[self._index]
        if action.value not in attempt.values:
            raise IllegalAction(
                say(
                    "the duel's tribe cards are {values}, not {value}",
                    values=Items(tuple(attempt.values)),
                    value=action.value,
                )
            )
        first = attempt.card_of(attempt.seats[0])
        kept = first if first.value == action.value else attempt.card_of(attempt.seats[1])
        return self._keep_card(winner, kept)

    def _reveal_challenge(self, action: Challenge) -> list[Event]:
        self._turn_check(action.seat, self._chief, PHRASES[Verb.CHALLENGE])
        card = cards.CHALLENGES_BY_NAME[action.card]
        if self.players < card.min_players:
            raise IllegalAction(
                say_plural(
                    "{card} is removed from the deck with {n} player",
                    "{card} is removed from the deck with {n} players",
                    self.players,
                    card=Verbatim(card.name),
                )
            )
        if card.name in self._used_challenges:
            raise IllegalAction(
                say("{card} was attempted in an earlier round", card=Verbatim(card.name))
            )
        self._used_challenges.add(card.name)
        self._challenge = card.name
        self._remaining = self._from_chief()
        self._phase = Phase.CHALLENGE_RESULT
        self._info[-1].challenge = card.name
        return [ChallengeRevealed(card.name)]

    def _challenge_result(self, action: Result) -> list[Event]:
        seat = action.seat
        if seat not in self._remaining:
            raise IllegalAction(
                say("{player} is already eliminated from the challenge", player=Player(seat))
            )
        if action.result is Outcome.TIE:
            raise IllegalAction(
                say(
                    'a challenge has no tie: report "lost" for each seat eliminated, '
                    'or "won" for the winner'
                )
            )
        events: list[Event] = []
        assert self._challenge is not None
        if action.result is Outcome.WON:
            winner = seat
        else:
            self._note_result(Ending.OUT, self._challenge, (seat,))
            events.append(Eliminated(seat))
            remaining = [s for s in self._remaining if s != seat]
            if len(remaining) > 1:
                self._remaining = remaining
                return events
            winner = remaining[0]
        return events + self._challenge_won(winner)

    def _challenge_won(self, winner: int) -> list[Event]:
        assert self._challenge is not None
        card = self._challenge
        self._note_result(Ending.CHALLENGE_WON, card, (winner,))
        self._challenges[winner].append((self._round, card))
        self._remaining = [winner]
        self._chief = winner
        self._info[-1].challenge_winner = winner
        events: list[Event] = [
            ChallengeWon(winner, card),
            RoundScored(self._round, tuple(self._round_scores(self._round))),
        ]
        if self._round >= self.rounds:
            self._phase = Phase.OVER
            totals = self.totals()
            events.append(GameOver(tuple(totals), tuple(best_seats(totals))))
            return events
        self._pending = [s for s in self._from_chief() if self._decks[s]]
        if self._pending:
            self._phase = Phase.DRAW
        else:
            self._start_round()
        return events
