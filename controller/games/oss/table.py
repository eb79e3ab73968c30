"""Oss at the table: tribe cards at the seat readers, results with the seat buttons, the toss timer.

Each seat plays its own tribe: engine player ``p`` plays tribe ``p + 1``, the
cards ``T{p+1}-{value}{copy}`` of the ``oss-tribes`` deck (copy ``a``/``b``
does not matter: both cards of a value are alike). A card of another tribe is
refused, except when a duel winner taps the card it keeps.

Seat input by phase (``docs/oss-table.md`` has the full table and the rulings):

| phase | tap a tribe card | PREV | OK | NEXT |
| --- | --- | --- | --- | --- |
| tribe (your turn) | play it below the trick shown | previous trick | - | next trick |
| solo attempt (yours) | - | - | success | failure |
| duel (a duelist) | - | tie | I won | I lost |
| "most jacks" duel | - | count - 1 | confirm the count | count + 1 |
| replay offered | replay, discarding it | other card | replay, discarding the card shown | pass |
| keep (duel winner) | keep that card | keep the first duelist's card | - | keep the second's |
| challenge (still in it) | - | - | I won outright | I am out |

The trick is chosen *before* the tap (PREV/NEXT, then tap): the table turns a
tap straight into an action, so the tap comes last and plays the card.

Hands, draws, the revealed tricks and the challenge card come from the virtual
deck (:meth:`OssAdapter.chance`); the table must run with ``deal = "virtual"``.

The toss timer (``hardware/toss_timer.py``) reports timed tosses;
:meth:`OssAdapter.on_timer` keeps them in an attempt log with per-player
bests and says them as messages; :meth:`OssPresentation.game_view` shows the log
beside the engine's snapshot (the overlay ``TableSide``). A time never decides a result: the
players report it with the buttons.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
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
from controller.games.oss.bots import OssTableBot
from controller.games.oss.cards import CHALLENGE_POINTS, parse_tribe_card, tribe_card
from controller.games.oss.engine import (
    FAILED,
    MAX_COUNT,
    MOST_JACKS_DUELS,
    RULINGS,
    TABLE_RULINGS,
    Attempt,
    AttemptBegins,
    AttemptKind,
    CardWon,
    ChallengeRevealed,
    ChallengeWon,
    Count,
    CountConfirmed,
    Counts,
    DuelCounted,
    DuelFormed,
    DuelResult,
    DuelTied,
    Eliminated,
    Keep,
    Oss,
    OssSnapshot,
    Outcome,
    Pass,
    Phase,
    Replay,
    Replayed,
    Result,
    RoundScored,
    SoloResult,
    TableSide,
    Timed,
    TimerView,
    TossTimed,
    TossView,
    Tribe,
    TricksRevealed,
)
from controller.games.oss.spec import SPEC
from controller.games.words import (
    Arg,
    Card,
    Items,
    Player,
    Seconds,
    Text,
    Verbatim,
    Words,
    say,
    say_plural,
)
from controller.view import GameView, MessageKind
from hardware.cues import Cue, Sound
from hardware.events import Button
from hardware.toss_timer import TimerEvent, TossCancelled, TossStarted, TossStopped

# Which rulings the display's help shows in each phase: ("engine" | "table", index).
_HELP: dict[Phase, tuple[tuple[str, int], ...]] = {
    Phase.TRIBE: (("table", 2), ("table", 1), ("engine", 5)),
    Phase.RESULT: (("table", 4), ("engine", 4), ("engine", 5), ("table", 6)),
    Phase.REPLAY: (("engine", 0), ("engine", 1), ("engine", 2), ("engine", 3)),
    Phase.KEEP: (("engine", 6),),
    Phase.CHALLENGE_RESULT: (("table", 5), ("engine", 7), ("engine", 8)),
    Phase.OVER: (("engine", 11), ("engine", 10)),
}


def help_texts(engine: Oss, counting: bool) -> list[Text]:
    """The rulings that matter now, most useful first (the display shows the first)."""
    picks = _HELP.get(engine.phase, ())
    attempt = engine.current_attempt
    if engine.phase is Phase.RESULT and attempt is not None and attempt.kind is AttemptKind.SOLO:
        picks = (("engine", 1), ("table", 6))
    elif engine.phase is Phase.RESULT and counting:
        picks = (("table", 3), ("engine", 4), ("table", 7))
    return [(TABLE_RULINGS if source == "table" else RULINGS)[index] for source, index in picks]


@dataclass
class OssCursors:
    """Table-side state both the input and the presentation see: choices in progress.

    Nothing here decides anything or must survive an undo or a resume: a cursor
    moved and not yet confirmed is simply chosen again. What counts (results,
    confirmed counts, timed tosses) goes to the engine as actions and is journaled.
    """

    trick_choice: tuple[tuple[int, int], int] | None = None  # (turn key, index)
    discard_choice: dict[int, int] = field(default_factory=dict)  # player -> value shown
    count_cursor: dict[tuple[int, int], int] = field(default_factory=dict)
    running_since: float | None = None  # the toss timer's running toss: time.monotonic()
    running_seat: int | None = None
    cancelled: int = 0  # tosses the timer did not count

    def reset_counts(self) -> None:
        self.count_cursor = {}


class _Role:
    """What every role of the Oss adapter holds: the engine, the context, the shared cursors."""

    def __init__(self, context: AdapterContext, cursors: OssCursors) -> None:
        assert isinstance(context.engine, Oss)
        self.engine: Oss = context.engine
        self.context = context
        self.settings = context.settings
        self.cursors = cursors

    def trick_index(self) -> int | None:
        choice = self.cursors.trick_choice
        if choice is None or choice[0] != _turn_key(self.engine):
            return None
        return choice[1]

    def chosen_trick(self) -> str | None:
        """The trick the seat on turn has chosen so far (tribe phase), for the display."""
        index = self.trick_index()
        tricks = self.engine.solo_tricks
        return tricks[index] if index is not None and tricks else None

    def counted_duel(self) -> bool:
        return self.engine.duel_trick in MOST_JACKS_DUELS

    def counting(self, player: int) -> int | None:
        """Whose count ``player``'s buttons enter now: their own first, then the opponent's."""
        attempt = self.engine.current_attempt
        assert attempt is not None
        other = attempt.seats[1] if player == attempt.seats[0] else attempt.seats[0]
        confirmed = self.engine.confirmed_counts
        if player not in confirmed:
            return player
        if other not in confirmed:
            return other
        return None

    def discard_value(self, player: int) -> int | None:
        hand = sorted(set(self.engine.hand_of(player)))
        if not hand:
            return None
        shown = self.cursors.discard_choice.get(player)
        return shown if shown in hand else hand[0]


def _turn_key(engine: Oss) -> tuple[int, int]:
    return engine.round, len(engine.placements)


def short_button_label(label: Words) -> Text | None:
    """A button's label for a narrow panel (a 6-seat table's), where the long one would
    be cut: "previous" for "previous trick", the trick's name alone for "tap for
    Nampan", the card's value for "replay (discard 3)", "won it" / "out" for a
    challenge's "I won it" / "I am out"."""
    if not isinstance(label, Text):
        return None
    args = label.arguments()
    if label.key == "previous trick":
        # TRANSLATORS: "previous trick" on a narrow panel's button.
        return say("previous")
    if label.key == "next trick":
        # TRANSLATORS: "next trick" on a narrow panel's button.
        return say("next")
    if label.key == "choose a trick":
        # TRANSLATORS: "choose a trick" on a narrow panel's button.
        return say("choose")
    if label.key == "tap for {trick}":
        # TRANSLATORS: "tap for {trick}" on a narrow panel's button: the trick's name alone.
        return say("{trick}", trick=args["trick"])
    if label.key == "tie: again":
        # TRANSLATORS: "tie: again" (a drawn duel starts again) on a narrow panel's button.
        return say("again")
    if label.key == "replay (discard {value})":
        # TRANSLATORS: "replay (discard {value})" on a narrow panel's button.
        return say("discard {value}", value=args["value"])
    if label.key == "I won it":
        # TRANSLATORS: "I won it" (a challenge) on a narrow panel's button: one short word.
        return say("won it")
    if label.key == "I am out":
        # TRANSLATORS: "I am out" (of a challenge) on a narrow panel's button: one short word.
        return say("out")
    return None


class OssInput(_Role, SeatInput):
    """Seat input: taps and presses as Oss actions (the engine judges them)."""

    def on_card(self, player: int, card: str) -> Action:
        tribe, value = parse_tribe_card(card)
        engine = self.engine
        engine.check_tribe(player, tribe)
        phase = engine.phase
        if phase is Phase.KEEP:
            return Keep(player, value)
        if phase is Phase.REPLAY:
            return Replay(player, value)
        if phase is Phase.TRIBE:
            tricks = engine.solo_tricks
            index = self.trick_index()
            expected = engine.expected
            if expected is not None and expected.seat == player and index is None:
                raise IllegalAction(
                    say("choose the trick first with PREV/NEXT, then tap the card to play below it")
                )
            # Not this seat's turn: any trick will do, the engine says whose turn it is.
            return Tribe(player, value, tricks[index or 0])
        expected = engine.expected
        if expected is None:
            raise IllegalAction(say("no tribe card is played now: the game is over"))
        raise IllegalAction(
            say(
                "no tribe card is played now: the table waits for {player}",
                player=Player(expected.seat),
            )
        )

    def on_button(self, player: int, button: Button) -> Action | Words | None:
        engine = self.engine
        phase = engine.phase
        expected = engine.expected
        if phase is Phase.TRIBE and expected is not None and expected.seat == player:
            return self._choose_trick(button)
        if phase is Phase.RESULT:
            attempt = engine.current_attempt
            assert attempt is not None
            if player not in attempt.seats:
                return None
            if attempt.kind is AttemptKind.SOLO:
                if button == Button.OK:
                    return Result(player, Outcome.WON)
                if button == Button.NEXT:
                    return Result(player, Outcome.LOST)
                return say("report your attempt: OK if you succeeded, NEXT if you failed")
            if self.counted_duel():
                return self._count_button(player, button)
            return Result(player, _OUTCOME_OF_BUTTON[button])
        if phase is Phase.REPLAY and expected is not None and expected.seat == player:
            hand = sorted(set(engine.hand_of(player)))
            shown = self.discard_value(player)
            if button == Button.NEXT:
                return Pass(player)
            if button == Button.OK and shown is not None:
                return Replay(player, shown)
            if button == Button.PREV and hand and shown is not None:
                self.cursors.discard_choice[player] = hand[(hand.index(shown) + 1) % len(hand)]
                return None
            return say("NEXT passes; OK replays, discarding the card shown (PREV shows another)")
        if phase is Phase.KEEP and expected is not None and expected.seat == player:
            attempt = engine.current_attempt
            assert attempt is not None
            if button == Button.PREV:
                return Keep(player, attempt.values[0])
            if button == Button.NEXT:
                return Keep(player, attempt.values[1])
            first, second = (duel_card(attempt, s) for s in attempt.seats)
            return say(
                "keep a duel card: PREV keeps {first}, NEXT keeps {second}",
                first=first,
                second=second,
            )
        if phase is Phase.CHALLENGE_RESULT and player in engine.challenge_remaining:
            if button == Button.NEXT:
                return Result(player, Outcome.LOST)
            if button == Button.OK:
                return Result(player, Outcome.WON)
            return say("challenge: NEXT when you are eliminated, OK if you won it outright")
        return None

    def reports(self, player: int) -> bool:
        # Every button of a reporting seat means something (NEXT: failure, I lost, I am
        # out, pass): none may be the look-back's or the rules page's hold by accident.
        engine = self.engine
        phase = engine.phase
        if phase is Phase.RESULT:
            attempt = engine.current_attempt
            return attempt is not None and player in attempt.seats
        if phase is Phase.CHALLENGE_RESULT:
            return player in engine.challenge_remaining
        expected = engine.expected
        deciding = phase in (Phase.REPLAY, Phase.KEEP)
        return deciding and expected is not None and expected.seat == player

    def _choose_trick(self, button: Button) -> Text | None:
        tricks = self.engine.solo_tricks
        index = self.trick_index()
        if button == Button.OK:
            if index is None:
                return say("choose the trick with PREV/NEXT, then tap your tribe card")
            return say(
                "tap your tribe card to play it below {trick}", trick=Verbatim(tricks[index])
            )
        step = 1 if button == Button.NEXT else -1
        if index is None:
            index = 0 if step == 1 else len(tricks) - 1
        else:
            index = (index + step) % len(tricks)
        self.cursors.trick_choice = (_turn_key(self.engine), index)
        return None

    def _count_button(self, player: int, button: Button) -> Action | Text | None:
        counted = self.counting(player)
        if counted is None:  # pragma: no cover - both counts in means the counts were sent
            return None
        cursors = self.cursors
        key = (player, counted)
        value = cursors.count_cursor.get(key, 0)
        if button == Button.PREV:
            cursors.count_cursor[key] = max(FAILED, value - 1)
            return None
        if button == Button.NEXT:
            cursors.count_cursor[key] = min(MAX_COUNT, value + 1)
            return None
        counts = self.engine.confirmed_counts
        counts[counted] = value
        attempt = self.engine.current_attempt
        assert attempt is not None
        first, second = attempt.seats
        if first in counts and second in counts:
            # Both counts are in: the engine judges them.
            return Counts(player, (counts[first], counts[second]))
        # The first count confirmed: journaled, so a crash or an undo keeps it.
        return Count(player, counted, value)

    def short_label(self, label: Words) -> Words | None:
        return short_button_label(label)

    def hints(self) -> list[tuple[int, Button, Words]]:
        engine = self.engine
        expected = engine.expected
        if expected is None:
            return []
        phase = engine.phase
        seat = expected.seat
        if phase is Phase.TRIBE:
            chosen = self.chosen_trick()
            return [
                (seat, Button.PREV, say("previous trick")),
                (
                    seat,
                    Button.OK,
                    say("tap for {trick}", trick=Verbatim(chosen))
                    if chosen
                    else say("choose a trick"),
                ),
                (seat, Button.NEXT, say("next trick")),
            ]
        if phase is Phase.RESULT:
            attempt = engine.current_attempt
            assert attempt is not None
            if attempt.kind is AttemptKind.SOLO:
                return [(seat, Button.OK, say("success")), (seat, Button.NEXT, say("failure"))]
            if self.counted_duel():
                out: list[tuple[int, Button, Words]] = []
                for duelist in attempt.seats:
                    counted = self.counting(duelist)
                    if counted is None:
                        continue
                    value = self.cursors.count_cursor.get((duelist, counted), 0)
                    count = count_arg(value)
                    label = (
                        say("my count: {count}", count=count)
                        if counted == duelist
                        else say("{player}'s count: {count}", player=Player(counted), count=count)
                    )
                    out += [
                        (duelist, Button.PREV, say("count -1")),
                        (duelist, Button.OK, label),
                        (duelist, Button.NEXT, say("count +1")),
                    ]
                return out
            return [
                hint
                for duelist in attempt.seats
                for hint in (
                    (duelist, Button.PREV, say("tie: again")),
                    (duelist, Button.OK, say("I won")),
                    (duelist, Button.NEXT, say("I lost")),
                )
            ]
        if phase is Phase.REPLAY:
            shown = self.discard_value(seat)
            hints: list[tuple[int, Button, Words]] = [
                (seat, Button.OK, say("replay (discard {value})", value=Verbatim(str(shown)))),
                (seat, Button.NEXT, say("pass")),
            ]
            if len(set(engine.hand_of(seat))) > 1:
                hints.insert(0, (seat, Button.PREV, say("other card")))
            return hints
        if phase is Phase.KEEP:
            attempt = engine.current_attempt
            assert attempt is not None
            return [
                (seat, Button.PREV, say("keep the {value}", value=attempt.values[0])),
                (seat, Button.NEXT, say("keep the {value}", value=attempt.values[1])),
            ]
        if phase is Phase.CHALLENGE_RESULT:
            return [
                hint
                for player in engine.challenge_remaining
                for hint in (
                    (player, Button.OK, say("I won it")),
                    (player, Button.NEXT, say("I am out")),
                )
            ]
        return []

    # --- the toss timer ------------------------------------------------------------------

    def timer_action(self, event: TimerEvent) -> Action | None:
        """The ``timed`` action a stopped toss means, or None (nothing to record).

        The table applies and journals it like any action, so the attempt log and
        the bests live in the engine and survive an undo or a resume. A toss
        timed while no attempt is going on belongs to nobody and is only said.
        """
        if not isinstance(event, TossStopped):
            return None
        cursors = self.cursors
        seat = cursors.running_seat if cursors.running_since is not None else None
        if seat is None:
            seat = self.engine.timed_seat
        cursors.running_since = None
        cursors.running_seat = None
        if seat is None or self.engine.phase is not Phase.RESULT:
            return None
        return Timed(seat, event.millis)

    def on_timer(self, event: TimerEvent) -> list[Feedback]:
        """The running clock and what a toss means for people; times go to ``timer_action``."""
        cursors = self.cursors
        if isinstance(event, TossStarted):
            cursors.running_since = event.at
            cursors.running_seat = self.engine.timed_seat
            return []
        seat = cursors.running_seat if cursors.running_since is not None else None
        cursors.running_since = None
        cursors.running_seat = None
        if isinstance(event, TossCancelled):
            cursors.cancelled += 1
            why = _CANCELLED.get(event.reason, say("Timer: toss not counted (cancelled)"))
            return [Feedback(seat, why)]
        assert isinstance(event, TossStopped)
        # A toss no attempt claims (``timer_action`` gave nothing): said, not logged.
        return [Feedback(None, say("Timer: {time}", time=Seconds(event.duration)))]


#: Why the toss timer did not count a toss, in players' words.
_CANCELLED: dict[str, Text] = {
    "long press": say("Timer: toss not counted (long press)"),
    "too long": say("Timer: toss not counted (it ran too long)"),
    "too short": say("Timer: toss not counted (too short to be a toss: a loose contact?)"),
}


_OUTCOME_OF_BUTTON: dict[Button, Outcome] = {
    Button.OK: Outcome.WON,
    Button.NEXT: Outcome.LOST,
    Button.PREV: Outcome.TIE,
}


class OssPresentation(_Role, Presentation):
    """Presentation: events as messages and cues, and the snapshot with the table's side."""

    event_sounds: ClassVar[Mapping[type[Event], Sound]] = {
        CardWon: Sound.TRICK_WON,
        ChallengeWon: Sound.TRICK_WON,
        RoundScored: Sound.ROUND_OVER,
        GameOver: Sound.GAME_WON,
    }

    def result_rule(self, report: JSON) -> Words:
        """The rule that decides: the most points, tribe cards won plus 4 per challenge (who
        won, and with how many points, is the results' winner line)."""
        return say("The most points win: tribe cards won plus 4 per challenge card.")

    def result_rows(self, report: JSON) -> list[tuple[Words, list[int]]]:
        """Why the totals are what they are: the points of the tribe cards each player won
        and of the challenges (4 each); the two add up to the player's total, the row below.
        """
        rounds = [r for r in report.get("rounds", []) if isinstance(r, dict)]
        players = len(report.get("totals") or [])
        card_points = [0] * players
        challenges = [0] * players
        for round_ in rounds:
            for seat, values in enumerate(round_.get("won") or []):
                if seat < players:
                    card_points[seat] += sum(values)
            challenge = round_.get("challenge")
            winner = challenge.get("winner") if isinstance(challenge, dict) else None
            if isinstance(winner, int) and 0 <= winner < players:
                challenges[winner] += 1
        # Two rows only, so the rounds keep their room on the results screen.
        return [
            (say("Card points"), card_points),
            (say("Challenge points"), [CHALLENGE_POINTS * n for n in challenges]),
        ]

    def feedback(self, event: Event) -> list[Feedback]:
        if isinstance(event, AttemptBegins | DuelTied | Replayed):
            # A new attempt, or a duel starting again: counts are entered afresh.
            self.cursors.reset_counts()
        handler = _FEEDBACK.get(type(event))
        return handler(self, event) if handler is not None else []

    def animating(self) -> bool:
        return self.cursors.running_since is not None  # the running clock moves on screen

    def waiting_players(self) -> list[int]:
        engine = self.engine
        if engine.phase is Phase.RESULT:
            attempt = engine.current_attempt
            assert attempt is not None
            return list(attempt.seats)
        if engine.phase is Phase.CHALLENGE_RESULT:
            return list(engine.challenge_remaining)
        expected = engine.expected
        return [] if expected is None else [expected.seat]

    def over_limit(self, millis: int) -> bool:
        limit = self.settings.timer_limit
        return limit is not None and millis > limit * 1000

    def timer_view(self) -> TimerView:
        """The toss timer for the display: the running clock, the latest log and the bests."""
        cursors = self.cursors
        engine = self.engine
        log = tuple(
            TossView(t.seat, t.millis, t.round, t.trick, self.over_limit(t.millis))
            for t in engine.tosses[-12:]
        )
        return TimerView(
            limit=self.settings.timer_limit,
            running=cursors.running_since is not None,
            started_at=cursors.running_since,
            seat=cursors.running_seat,
            log=log,
            bests=engine.bests,
            cancelled=cursors.cancelled,
            present=self.settings.has_timer,
        )

    def game_view(self) -> GameView[OssSnapshot, TableSide]:
        """The engine's snapshot with the table's side over it: the timer and the choices
        in progress."""
        engine = self.engine
        side = TableSide(
            timer=self.timer_view(),
            timed_seat=engine.timed_seat,
            chosen_trick=self.chosen_trick(),
            counting_duel=self.counted_duel() and engine.phase is Phase.RESULT,
            counts=engine.confirmed_counts,
            help=tuple(help_texts(engine, self.counted_duel())),
        )
        return GameView(engine.snapshot(), side)


class OssSimulation(_Role, Simulation):
    """Simulation: bots for empty seats and the gestures a person would make."""

    def gestures(self, action: Action) -> list[Gesture]:
        engine = self.engine
        if isinstance(action, Tribe):
            tricks = engine.solo_tricks
            target = tricks.index(action.trick)
            current = self.trick_index()
            steps = target + 1 if current is None else (target - current) % len(tricks)
            return [*[Press(Button.NEXT)] * steps, Tap(tribe_card(action.seat, action.value))]
        if isinstance(action, Replay):
            return [Tap(tribe_card(action.seat, action.value))]
        if isinstance(action, Pass):
            return [Press(Button.NEXT)]
        if isinstance(action, Keep):
            attempt = engine.current_attempt
            assert attempt is not None
            return [Press(Button.PREV if action.value == attempt.values[0] else Button.NEXT)]
        if isinstance(action, Counts):
            return self._timed_presses(action.seat) + self._counts_gestures(action)
        if isinstance(action, Result):
            timed = self._timed_presses(action.seat)
            if engine.phase is Phase.CHALLENGE_RESULT:
                return [Press(Button.OK if action.result is Outcome.WON else Button.NEXT)]
            attempt = engine.current_attempt
            if attempt is not None and attempt.kind is AttemptKind.DUEL and self.counted_duel():
                return timed + self._count_gestures(action)
            button = {Outcome.WON: Button.OK, Outcome.LOST: Button.NEXT, Outcome.TIE: Button.PREV}
            return [*timed, Press(button[action.result])]
        return []

    def _timed_presses(self, player: int) -> list[Gesture]:
        # A bot times only its own toss (the timer's next time goes to ``timed_seat``),
        # and a toss already timed (a game resumed between the toss and its result) is
        # not timed again: the record would hold it twice.
        engine = self.engine
        timing = self.settings.has_timer and engine.phase is Phase.RESULT
        if timing and engine.timed_seat == player and not engine.toss_timed:
            return [Press("timer"), Press("timer")]
        return []

    def decisions(self, actions: Sequence[Action]) -> int:
        # A timed toss only measures and a confirmed count is half of a ``counts``:
        # neither is a decision of its own.
        return sum(1 for action in actions if not isinstance(action, Timed | Count))

    def bot_may_act(self, player: int, bots: frozenset[int]) -> bool:
        # A duel's result belongs to its people: with a person in the duel, the bot
        # waits for that person's buttons instead of reporting for both.
        attempt = self.engine.current_attempt
        if self.engine.phase is Phase.RESULT and attempt is not None:
            return all(seat in bots for seat in attempt.seats)
        return True

    def _counts_gestures(self, action: Counts) -> list[Gesture]:
        """Enter ``action``'s counts from its seat: its own count first, then the other's.

        A count already confirmed (journaled, so also after a resume) is not entered again.
        """
        attempt = self.engine.current_attempt
        assert attempt is not None
        seats = attempt.seats
        mine = action.counts[seats.index(action.seat)]
        theirs = action.counts[1 - seats.index(action.seat)]
        return self._enter_counts(action.seat, mine, theirs)

    def _count_gestures(self, action: Result) -> list[Gesture]:
        """Counts that give ``action``'s result: own count first, then the opponent's."""
        mine, theirs = {Outcome.WON: (4, 2), Outcome.LOST: (1, 3), Outcome.TIE: (2, 2)}[
            action.result
        ]
        return self._enter_counts(action.seat, mine, theirs)

    def _enter_counts(self, seat: int, mine: int, theirs: int) -> list[Gesture]:
        """The presses entering the counts not yet confirmed, in the order the buttons take them."""
        attempt = self.engine.current_attempt
        assert attempt is not None
        other = attempt.seats[1] if seat == attempt.seats[0] else attempt.seats[0]
        confirmed = self.engine.confirmed_counts
        presses: list[Gesture] = []
        for counted, value in ((seat, mine), (other, theirs)):
            if counted in confirmed:
                continue
            step = Press(Button.NEXT) if value >= 0 else Press(Button.PREV)
            presses += [step] * abs(value) + [Press(Button.OK)]
        return presses

    def make_bot(self, rng: random.Random) -> Bot:
        return OssTableBot(rng, skill=round(0.35 + 0.6 * rng.random(), 2))

    def hand(self, player: int) -> tuple[str, ...]:
        values = self.engine.hand_of(player)
        seen: dict[int, int] = {}
        out = []
        for value in values:
            out.append(tribe_card(player, value, "ab"[min(1, seen.get(value, 0))]))
            seen[value] = seen.get(value, 0) + 1
        return tuple(out)


class OssAdapter(GameAdapter):
    """The table side of a game of Oss: three roles sharing one ``OssCursors``."""

    spec = SPEC

    engine: Oss
    input: OssInput
    presentation: OssPresentation
    simulation: OssSimulation

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        self.cursors = OssCursors()
        self.input = OssInput(context, self.cursors)
        self.presentation = OssPresentation(context, self.cursors)
        self.simulation = OssSimulation(context, self.cursors)


def count_arg(value: int) -> Arg:
    """A count as the buttons show it: "failed" below 0, else the number of jacks."""
    return say("failed") if value == FAILED else value


def duel_card(attempt: Attempt, seat: int) -> Card:
    """The tribe card ``seat`` played into the duel ``attempt`` (shown by tribe and value)."""
    return Card(tribe_card(seat, attempt.card_of(seat).value))


# --- feedback per engine event ------------------------------------------------------------


def _names(names: Sequence[str]) -> Items:
    """Trick names (the rulebook's proper names, never translated) as one list."""
    return Items(tuple(Verbatim(name) for name in names))


def _revealed(a: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, TricksRevealed)
    return [
        Feedback(
            None,
            say(
                "Round {round}: tricks {solo}; duel trick {duel}. "
                "{chief} (chief) plays a tribe card first",
                round=e.round,
                solo=_names(e.solo),
                duel=Verbatim(e.duel),
                chief=Player(a.engine.chief),
            ),
        )
    ]


def _duel_formed(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, DuelFormed)
    return [
        Feedback(
            None,
            say(
                "Duel below {trick}: {first} against {second}, with {duel}",
                trick=Verbatim(e.trick),
                first=Player(e.first),
                second=Player(e.second),
                duel=Verbatim(e.duel),
            ),
        )
    ]


def _begins(a: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, AttemptBegins)
    attempt = a.engine.current_attempt
    if e.kind is AttemptKind.SOLO:
        jacks = attempt.values[0] if attempt is not None else 0
        text = say_plural(
            "{player} attempts {trick} with {n} jack: OK success, NEXT failure",
            "{player} attempts {trick} with {n} jacks: OK success, NEXT failure",
            jacks,
            player=Player(e.seats[0]),
            trick=Verbatim(e.trick),
        )
        return [Feedback(e.seats[0], text)]
    duel = Verbatim(a.engine.duel_trick or "")
    first, second = Player(e.seats[0]), Player(e.seats[1])
    if a.engine.duel_trick in MOST_JACKS_DUELS:
        text = say(
            "Duel {duel}: {first} against {second}: enter the counts",
            duel=duel,
            first=first,
            second=second,
        )
    else:
        text = say(
            "Duel {duel}: {first} against {second}: OK I won, NEXT I lost, PREV tie",
            duel=duel,
            first=first,
            second=second,
        )
    return [Feedback(None, text)]


def _solo(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, SoloResult)
    if e.won:
        return [
            Feedback(
                e.seat,
                say(
                    "{player} succeeds {trick}: wins {card}",
                    player=Player(e.seat),
                    trick=Verbatim(e.trick),
                    card=Card(tribe_card(e.seat, e.value)),
                ),
                MessageKind.WON,
                Cue.TRICK_WON,
            )
        ]
    text = say("{player} fails {trick}", player=Player(e.seat), trick=Verbatim(e.trick))
    return [Feedback(e.seat, text, MessageKind.PENALTY, Cue.PENALTY)]


def _tied(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, DuelTied)
    text = say(
        "Tie between {first} and {second}: the duel starts again",
        first=Player(e.first),
        second=Player(e.second),
    )
    return [Feedback(None, text)]


def _duel_result(a: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, DuelResult)
    out = [
        Feedback(
            e.winner,
            say("{player} wins the duel", player=Player(e.winner)),
            MessageKind.WON,
            Cue.TRICK_WON,
        ),
        Feedback(e.loser, None, cue=Cue.PENALTY),
    ]
    if a.engine.phase is Phase.KEEP:
        attempt = a.engine.current_attempt
        assert attempt is not None
        first, second = (duel_card(attempt, s) for s in attempt.seats)
        out.append(
            Feedback(
                e.winner,
                say(
                    "{player} keeps a card: PREV {first}, NEXT {second}",
                    player=Player(e.winner),
                    first=first,
                    second=second,
                ),
            )
        )
    elif a.engine.phase is Phase.REPLAY:
        out.append(_replay_offer(a, e.loser))
    return out


def _replay_offer(a: OssPresentation, seat: int) -> Feedback:
    return Feedback(
        seat,
        say_plural(
            "{player} may replay ({n} left): tap a tribe card to discard, or OK; NEXT passes",
            "{player} may replay ({n} left): tap a tribe card to discard, or OK; NEXT passes",
            a.engine.replays_left(seat),
            player=Player(seat),
        ),
    )


def _replayed(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, Replayed)
    text = say(
        "{player} discards {card} and tries again",
        player=Player(e.seat),
        card=Card(tribe_card(e.seat, e.discarded)),
    )
    return [Feedback(e.seat, text)]


def _card_won(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, CardWon)
    return []  # said by the solo / duel result


def _challenge(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, ChallengeRevealed)
    text = say(
        "Challenge: {card}! Everyone plays: NEXT when you are out, OK if you win outright",
        card=Verbatim(e.card),
    )
    return [Feedback(None, text)]


def _eliminated(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, Eliminated)
    text = say("{player} is out of the challenge", player=Player(e.seat))
    return [Feedback(e.seat, text, cue=Cue.PENALTY)]


def _challenge_won(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, ChallengeWon)
    return [
        Feedback(
            e.seat,
            say(
                "{player} wins {card} ({points} points) and is the new chief",
                player=Player(e.seat),
                card=Verbatim(e.card),
                points=CHALLENGE_POINTS,
            ),
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    ]


def _round_scored(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    scores = Items(
        tuple(say("{player}: {points}", player=Player(s), points=v) for s, v in enumerate(e.scores))
    )
    text = say("Round {round} scored: {scores}", round=e.round, scores=scores)
    return [Feedback(None, text, MessageKind.WON)]


def _game_over(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    if len(e.winners) == 1:
        text = say("Game over: {player} is Big Chief", player=Player(e.winners[0]))
    else:
        text = say(
            "Game over: {players} share the victory",
            players=Items(tuple(Player(s) for s in e.winners)),
        )
    return [Feedback(s, None, cue=Cue.TRICK_WON) for s in e.winners] + [
        Feedback(None, text, MessageKind.WON)
    ]


def _after_result(a: OssPresentation, e: Event) -> list[Feedback]:
    # A failed solo that may be replayed: SoloResult comes before the phase changes,
    # so the offer is made from the handler of the result itself.
    out = _solo(a, e)
    assert isinstance(e, SoloResult)
    if not e.won and a.engine.phase is Phase.REPLAY:
        out.append(_replay_offer(a, e.seat))
    return out


def _counted(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, DuelCounted)
    (first, second), (a, b) = e.seats, e.counts
    text = say(
        "Counts: {first} {a}, {second} {b}",
        first=Player(first),
        a=count_arg(a),
        second=Player(second),
        b=count_arg(b),
    )
    return [Feedback(None, text)]


def _confirmed(_: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, CountConfirmed)
    if e.of == e.seat:
        text = say("your count: {count}; now the other duelist's count", count=count_arg(e.count))
    else:
        text = say(
            "{player}'s count: {count}; now your own",
            player=Player(e.of),
            count=count_arg(e.count),
        )
    return [Feedback(e.seat, text)]


def _timed(p: OssPresentation, e: Event) -> list[Feedback]:
    assert isinstance(e, TossTimed)
    who, time = Player(e.seat), Seconds(e.millis / 1000)
    limit = p.settings.timer_limit
    if limit is not None and p.over_limit(e.millis):
        text = say(
            "{player}: {time}, over the limit of {limit}",
            player=who,
            time=time,
            limit=Seconds(limit),
        )
        return [Feedback(e.seat, text, MessageKind.PENALTY)]
    if e.best_before is None:
        return [Feedback(e.seat, say("{player}: {time}", player=who, time=time))]
    if e.millis < e.best_before:
        text = say("{player}: {time}, a personal best", player=who, time=time)
        return [Feedback(e.seat, text, MessageKind.WON)]
    best = Seconds(e.best_before / 1000)
    text = say("{player}: {time} (best {best})", player=who, time=time, best=best)
    return [Feedback(e.seat, text)]


_FEEDBACK: dict[type[Event], Callable[[OssPresentation, Event], list[Feedback]]] = {
    TricksRevealed: _revealed,
    DuelFormed: _duel_formed,
    AttemptBegins: _begins,
    SoloResult: _after_result,
    DuelTied: _tied,
    DuelResult: _duel_result,
    Replayed: _replayed,
    CardWon: _card_won,
    ChallengeRevealed: _challenge,
    Eliminated: _eliminated,
    ChallengeWon: _challenge_won,
    RoundScored: _round_scored,
    GameOver: _game_over,
    DuelCounted: _counted,
    CountConfirmed: _confirmed,
    TossTimed: _timed,
}


ADAPTER = OssAdapter
