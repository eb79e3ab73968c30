"""The state of a game of Oss and what the table, the display and the bots read of it.

``OssState`` holds every field the phases change and answers who acts next
(``expected``); the phases (``phases.py``) and the views (``views.py``) are its
subclasses, and ``Oss`` (``engine.py``) composes them.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from controller.games.base import (
    BadOption,
    Engine,
    Expectation,
    IllegalAction,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    PHRASES,
    WAITING,
    AttemptKind,
    Phase,
    Verb,
)
from controller.games.oss.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oss.options import OssOptions
from controller.games.oss.snapshot import Ending, ResultView
from controller.games.oss.values import (
    Attempt,
    Placement,
    RoundInfo,
    TimedToss,
    TribeCard,
    Won,
    sorted_values,
    tribe_of,
)
from controller.games.words import Items, Player, Text, Verbatim, say, say_plural


class OssState(Engine):
    """The state of one game of Oss; see ``engine.py`` and ``docs/oss-records.md``."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    def __init__(
        self,
        players: int,
        chief: int,
        options: OssOptions | None = None,
    ) -> None:
        if not self.min_players <= players <= self.max_players:
            raise BadOption(
                say("oss is for 2 to 6 players, not {players}", players=Verbatim(str(players)))
            )
        if not 0 <= chief < players:
            raise BadOption(
                say(
                    '"chief" must be a seat 0..{last}, not {chief}',
                    last=Verbatim(str(players - 1)),
                    chief=Verbatim(str(chief)),
                )
            )
        self.players = players
        self.first_chief = chief
        self.options = options or OssOptions.read({}, self.game_id)
        self.rounds = self.options.rounds
        self.replays_per_round = self.options.replays_per_round
        self.replay_scope = self.options.replay_scope

        self._phase = Phase.HAND
        self._chief = chief
        self._round = 1
        self._hands: list[Counter[int]] = [Counter() for _ in range(players)]
        self._decks: list[Counter[int]] = [Counter(cards.TRIBE_VALUES) for _ in range(players)]
        self._won: list[list[Won]] = [[] for _ in range(players)]
        self._challenges: list[list[tuple[int, str]]] = [[] for _ in range(players)]
        self._out: list[TribeCard] = []
        self._pending: list[int] = self._from_chief()  # seats still to register hand / draw
        self._solo: tuple[str, ...] = ()
        self._duel: str | None = None
        self._used_tricks: set[str] = set()
        self._used_challenges: set[str] = set()
        self._placements: list[Placement] = []
        self._attempts: list[Attempt] = []
        self._outcomes: list[str | None] = []
        self._index = 0
        self._winner: int | None = None  # of the duel being decided
        self._loser: int | None = None  # the seat that may replay
        self._refused_replay: int | None = None  # lost just now and could not replay
        self._refusing: int | None = None  # the same, for the action being applied
        self._replays: list[int] = [0] * players
        self._challenge: str | None = None
        self._remaining: list[int] = []
        self._info: list[RoundInfo] = [RoundInfo(chief, replays=[0] * players)]
        # The toss timer's side, from ``timed`` actions: the attempt log and bests (ms).
        self._tosses: list[TimedToss] = []
        self._bests: dict[int, int] = {}
        self._timed_in_attempt = 0
        # The counts confirmed (``count``) in the duel being counted, by counted seat.
        self._confirmed: dict[int, int] = {}
        # The last action was a timed toss: the decision it times is still to come.
        self._last_timed = False
        # The latest reported results, newest last, for the table to show again.
        self._results: tuple[ResultView, ...] = ()

    def _note_result(self, ending: Ending, trick: str, seats: tuple[int, ...]) -> None:
        """Keep a reported result among the latest (numbered, so that two alike stay two),
        with the tosses the timer measured in the attempt."""
        timed = self._timed_in_attempt
        times = tuple(toss.millis for toss in self._tosses[-timed:]) if timed else ()
        number = self._results[-1].number + 1 if self._results else 1
        result = ResultView(number, ending, trick, seats, times)
        # As many as one action can report (a challenge's last elimination and its win).
        self._results = (*self._results[-self.players :], result)

    @property
    def toss_timed(self) -> bool:
        """Whether the toss of the decision now awaited is timed already (the last action)."""
        return self._last_timed

    def _out_of_order(self, seat: int, verb: Verb) -> Text:
        who = Player(seat)
        if verb is Verb.REPLAY and self._refused_replay == seat:
            if not self._hands[seat]:
                return say(
                    "{player} cannot replay: it has no tribe card left in hand to discard",
                    player=who,
                )
            return say("{player} cannot replay: {why}", player=who, why=self._limit_text(seat))
        if verb is Verb.REPLAY:
            return say(
                "{player} cannot replay now: a replay is only offered after a failure", player=who
            )
        if verb is Verb.PASS:
            return say(
                "{player} cannot pass now: a replay is only offered after a failure", player=who
            )
        if verb is Verb.TIMED:
            return say(
                "{player} cannot record a timed toss now: no attempt is going on", player=who
            )
        return say(
            "{player} cannot {what} now: {why}",
            player=who,
            what=PHRASES[verb],
            why=self._waiting_text(),
        )

    def _limit_text(self, seat: int) -> Text:
        limit = self.replays_per_round
        if self.replay_scope == "table":
            return say_plural(
                "no more than {n} replay per round at the table, and all are used",
                "no more than {n} replays per round at the table, and all are used",
                limit,
            )
        return say_plural(
            "no more than {n} replay per round, and {player} has used them",
            "no more than {n} replays per round, and {player} has used them",
            limit,
            player=Player(seat),
        )

    def _waiting_text(self) -> Text:
        expected = self.expected
        if expected is None:
            return say("the game is over")
        return say(
            "the table waits for {player} to {what}",
            player=Player(expected.seat),
            what=WAITING[self._phase],
        )

    def _turn_check(self, seat: int, expected: int, what: Text) -> None:
        if seat != expected:
            raise IllegalAction(
                say(
                    "{player} cannot {what}: it is {other}'s turn",
                    player=Player(seat),
                    what=what,
                    other=Player(expected),
                )
            )

    @property
    def confirmed_counts(self) -> dict[int, int]:
        """The counts confirmed so far (``count``) in the duel being counted, by counted seat."""
        return dict(self._confirmed)

    def _from_chief(self) -> list[int]:
        return [(self._chief + k) % self.players for k in range(self.players)]

    def _take_from_hand(self, seat: int, value: int) -> None:
        self._hands[seat][value] -= 1
        self._hands[seat] = +self._hands[seat]

    def _round_scores(self, round_number: int) -> list[int]:
        return [
            sum(w.card.value for w in self._won[s] if w.round == round_number)
            + cards.CHALLENGE_POINTS * sum(1 for r, _ in self._challenges[s] if r == round_number)
            for s in range(self.players)
        ]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def round(self) -> int:
        """The round in progress (1-based); the last round once the game is over."""
        return self._round

    @property
    def chief(self) -> int:
        return self._chief

    @property
    def solo_tricks(self) -> tuple[str, ...]:
        """This round's three solo tricks, in family order (empty before the reveal)."""
        return self._solo if self._phase not in (Phase.HAND, Phase.REVEAL) else ()

    @property
    def duel_trick(self) -> str | None:
        return self._duel if self._phase not in (Phase.HAND, Phase.REVEAL) else None

    @property
    def placements(self) -> tuple[Placement, ...]:
        """This round's tribe cards below the tricks, in playing order."""
        return tuple(self._placements) if self.solo_tricks else ()

    @property
    def current_attempt(self) -> Attempt | None:
        if self._phase in (Phase.RESULT, Phase.REPLAY, Phase.KEEP):
            return self._attempts[self._index]
        return None

    @property
    def duel_winner(self) -> int | None:
        """The winner of the duel being settled (while its loser decides on a replay)."""
        return self._winner

    @property
    def challenge_remaining(self) -> tuple[int, ...]:
        return tuple(self._remaining) if self._phase is Phase.CHALLENGE_RESULT else ()

    @staticmethod
    def tribe_of(seat: int) -> int:
        """The tribe a seat plays: seat ``p`` plays tribe ``p + 1`` (cards ``T{p+1}-...``)."""
        return tribe_of(seat)

    def check_tribe(self, seat: int, tribe: int) -> None:
        """Refuse (IllegalAction) a tapped card of ``tribe`` that ``seat`` may not use now.

        A seat plays, replays and discards its own tribe's cards; the duel winner
        keeps either duel card, so while it keeps, the two duelists' tribes are allowed.
        """
        attempt = self.current_attempt
        if self._phase is Phase.KEEP and attempt is not None and seat == self._winner:
            tribes = [self.tribe_of(s) for s in attempt.seats]
            if tribe not in tribes:
                raise IllegalAction(
                    say(
                        "keep a card of the duel: a {tribes} card, not tribe {tribe}",
                        tribes=Items(tuple(Verbatim(f"T{t}") for t in tribes), either=True),
                        tribe=tribe,
                    )
                )
            return
        own = self.tribe_of(seat)
        if tribe != own:
            raise IllegalAction(
                say(
                    "that card belongs to tribe {tribe}; {player} plays tribe {own}",
                    tribe=tribe,
                    player=Player(seat),
                    own=own,
                )
            )

    @property
    def tosses(self) -> tuple[TimedToss, ...]:
        """The attempt log: every ``timed`` toss, in order."""
        return tuple(self._tosses)

    @property
    def bests(self) -> dict[int, int]:
        """Each timed seat's fastest toss, in milliseconds."""
        return dict(self._bests)

    @property
    def timed_seat(self) -> int | None:
        """Whose toss the timer measures next: the attempt's seats in turn, first duelist first."""
        attempt = self.current_attempt
        if attempt is None or self._phase is not Phase.RESULT:
            return None
        return attempt.seats[self._timed_in_attempt % len(attempt.seats)]

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """A seat's private hand (values). Only that seat's own device may show it."""
        return tuple(sorted_values(self._hands[seat]))

    def deck_of(self, seat: int) -> tuple[int, ...]:
        """The values left in a seat's face-down tribe deck (for the chance helpers)."""
        return tuple(sorted_values(self._decks[seat]))

    def replays_left(self, seat: int) -> int:
        used = self._replays[seat] if self.replay_scope == "player" else sum(self._replays)
        return max(0, self.replays_per_round - used)

    def available_tricks(self, family: int) -> tuple[str, ...]:
        """Trick cards of a family still in its deck (not revealed in an earlier round)."""
        return tuple(c.name for c in cards.family(family) if c.name not in self._used_tricks)

    def available_challenges(self) -> tuple[str, ...]:
        return tuple(
            c.name
            for c in cards.challenges_for(self.players)
            if c.name not in self._used_challenges
        )

    def totals(self) -> list[int]:
        return [
            sum(w.card.value for w in self._won[s])
            + cards.CHALLENGE_POINTS * len(self._challenges[s])
            for s in range(self.players)
        ]

    def census(self) -> list[dict[str, list[int]]]:
        """Where every tribe card is, per tribe: hand, deck, table (below a trick), won, out."""
        table = Counter[TribeCard]()
        if self._phase in (Phase.TRIBE, Phase.RESULT, Phase.REPLAY, Phase.KEEP):
            settled = self._index if self._phase is not Phase.TRIBE else 0
            if self._phase is Phase.TRIBE:
                table.update(TribeCard(p.seat, p.value) for p in self._placements)
            else:
                for attempt in self._attempts[settled:]:
                    table.update(attempt.card_of(s) for s in attempt.seats)
        won = Counter(w.card for pile in self._won for w in pile)
        out = Counter(self._out)
        result = []
        for tribe in range(self.players):
            result.append(
                {
                    "hand": sorted_values(self._hands[tribe]),
                    "deck": sorted_values(self._decks[tribe]),
                    "table": sorted(c.value for c in table.elements() if c.tribe == tribe),
                    "won": sorted(c.value for c in won.elements() if c.tribe == tribe),
                    "out": sorted(c.value for c in out.elements() if c.tribe == tribe),
                }
            )
        return result

    @property
    def expected(self) -> Expectation | None:
        phase = self._phase
        if phase is Phase.OVER:
            return None
        if phase in (Phase.HAND, Phase.DRAW):
            return Expectation(self._pending[0], Verb(phase.value))
        if phase in (Phase.REVEAL, Phase.CHALLENGE):
            return Expectation(self._chief, Verb(phase.value))
        if phase is Phase.TRIBE:
            return Expectation(self._next_placer(), Verb.TRIBE)
        if phase is Phase.RESULT:
            return Expectation(self._attempts[self._index].seats[0], Verb.RESULT)
        if phase is Phase.REPLAY:
            assert self._loser is not None
            return Expectation(self._loser, Verb.REPLAY)
        if phase is Phase.KEEP:
            assert self._winner is not None
            return Expectation(self._winner, Verb.KEEP)
        # CHALLENGE_RESULT: anyone still in may report; name the first from the chief.
        return Expectation(self._remaining[0], Verb.RESULT)

    def _next_placer(self) -> int:
        return (self._chief + len(self._placements)) % self.players

    def _attempt_trick(self, attempt: Attempt) -> str:
        """The trick an attempt throws: its solo trick, or the round's duel trick."""
        if attempt.kind is AttemptKind.SOLO or self._duel is None:
            return attempt.trick
        return self._duel
