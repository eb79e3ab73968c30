"""Oskar at the table: dice per seat, cards tapped on the readers, rerolls with the buttons.

Seat input by phase (``docs/oskar-table.md`` has the full table):

| phase | tap a card | PREV | OK | NEXT |
| --- | --- | --- | --- | --- |
| opening dice (virtual roller) | - | - | roll (only if the table deals physically) | - |
| play (your turn) | play that card | - | - | - |
| reroll (your turn) | - | toggle die 0 | reroll the chosen dice | toggle die 1 |
| doubles offer (your dice match) | - | pick die 0 | reroll it / none picked: keep | pick die 1 |

Manual dice entry (``[table] dice = "manual"``, for tables that roll physical dice):
a seat enters each face it rolled: PREV/NEXT cycle the face of the die being
entered, OK confirms it. After the dice a reroll is chosen first and then
the new faces are entered the same way.

Rules live in the engine
------------------------
The engine deals (``hand`` registrations) and rolls the opening dice through
``chance_actions``, and draws the dice a seat decides to roll with its buttons
(``Oskar.roll_outcome`` for a ``RollRequest``); it refuses a card the seat does
not hold and decides whom the table waits for (``Oskar.decides``, and
``Oskar.check_order``: nothing but the answer while a doubles offer is open).
Its events say why (``TrickWon.reason``, ``CardPlayed.zero``), which reroll
rule binds a seat (``reroll_limit``, ``reroll_refusal``) and the trend
threshold (``RoundScored.threshold``); this module only words them. Keeping
doubles is an action of the record (``KeepDoubles``), so it survives undo and
resume. This module only maps taps and presses to actions
and events to messages; its one piece of state is the ``Cursor`` (dice
picked with PREV/NEXT, manual entries in progress), which is what a person
is pointing at, not part of the game.

The three roles (``OskarInput``, ``OskarPresentation``, ``OskarSimulation``)
share the engine (read-only) and the cursor; ``OskarAdapter`` makes them.
"""

from __future__ import annotations

import enum
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
from controller.games.base import (
    JSON,
    Action,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    TurnPassed,
)
from controller.games.interned import Interned
from controller.games.oskar.bots import OskarBot
from controller.games.oskar.engine import (
    GENRES,
    Card,
    CardPlayed,
    DiceRolled,
    DoublesDeclined,
    DoublesOpen,
    HandRegistered,
    KeepDoubles,
    Oskar,
    Phase,
    Play,
    Reroll,
    RerollDone,
    RerollLimit,
    RerollRefused,
    RerollsDue,
    RollDice,
    RollRequest,
    RoundScored,
    RoundStarted,
    StockWon,
    TrickWon,
    Verb,
    WinReason,
    genre_word,
    stock_size,
)
from controller.games.oskar.snapshot import OskarOverlay, OskarSnapshot
from controller.games.oskar.spec import SPEC
from controller.games.words import (
    Arg,
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

DIE_BUTTONS: tuple[Button, Button] = (Button.PREV, Button.NEXT)  # PREV is die 0, NEXT is die 1
OK = Button.OK


class EntryKind(enum.StrEnum):
    """What a manual dice entry is for."""

    DICE = "dice"  # the opening roll
    REROLL = "reroll"  # the reroll after a round
    DOUBLES = "doubles"  # the extra reroll of one die after doubles


@dataclass
class Entry:
    """A seat's manual dice entry in progress: which dice, which one now, the faces so far."""

    kind: EntryKind
    dice: tuple[int, ...]  # the dice whose faces are entered, in order
    step: int  # index into ``dice`` of the die being entered
    faces: list[str] = field(default_factory=list)  # both faces, the entered ones updated


@dataclass
class Cursor:
    """What each seat is pointing at with its buttons; shared by the three roles.

    Nothing here is game state: a rebuilt game starts with an empty cursor and
    loses only a half-made choice.
    """

    selection: dict[int, set[int]] = field(default_factory=dict)  # dice picked, per seat
    entry: dict[int, Entry] = field(default_factory=dict)  # manual entries, per seat

    def selected(self, engine: Oskar, player: int) -> set[int]:
        """The seat's picked dice for its reroll (both, at first, when it must reroll both)."""
        if player not in self.selection:
            must_both = engine.reroll_limit(player) is RerollLimit.MOST
            self.selection[player] = {0, 1} if must_both else set()
        return self.selection[player]

    def picked(self, engine: Oskar, player: int) -> set[int]:
        """The dice the seat has picked now, without making a default choice."""
        limit = engine.reroll_limit(player)  # the engine says whose reroll is open
        if limit is RerollLimit.DOUBLES:
            return set(self.selection.get(player, set()))
        if limit is not None:
            return set(self.selected(engine, player))
        return set()

    def clear(self, seat: int) -> None:
        self.selection.pop(seat, None)
        self.entry.pop(seat, None)


class _Role:
    """What every role holds: the engine, the table's settings and the shared cursor."""

    def __init__(self, context: AdapterContext, cursor: Cursor) -> None:
        assert isinstance(context.engine, Oskar)
        self.engine: Oskar = context.engine
        self.context = context
        self.cursor = cursor

    @property
    def manual_dice(self) -> bool:
        """People roll physical dice and enter the faces ([table] dice = "manual")."""
        return not self.context.settings.chance.dice

    @property
    def button_roll(self) -> bool:
        """The opening dice are rolled virtually when a seat presses OK.

        With a virtual deal the table asks the engine for chance after every
        action and it rolls the opening dice; with a physical deal it does not
        ask, so each seat rolls with OK.
        """
        chance = self.context.settings.chance
        return chance.dice and not chance.cards

    def faces(self, player: int) -> tuple[str, str]:
        faces = self.engine.dice[player]
        assert faces is not None, "a seat rerolls only dice it has rolled"
        return faces


class OskarInput(_Role, SeatInput):
    """Taps and presses as Oskar actions; the engine judges them."""

    def on_card(self, player: int, card: str) -> Action:
        play = Play(player, Card.parse(card))
        try:
            self.engine.check_order(play)  # the seat with an open doubles offer decides first
        except DoublesOpen as refused:
            if refused.seat != player:
                raise
            # Its own tap: say which buttons answer the offer.
            raise IllegalAction(
                say(
                    "you rolled doubles: first PREV/NEXT picks a die and OK rerolls it, "
                    "or OK alone keeps them"
                )
            ) from None
        return play

    def on_button(self, player: int, button: Button) -> Action | Words | None:
        engine = self.engine
        if engine.phase is Phase.OVER:
            return None
        if engine.doubles == player:
            return self._doubles_button(player, button)
        try:
            engine.check_order(KeepDoubles(player))  # anyone else's move waits for the offer
        except DoublesOpen as refused:
            return refused.text
        expected = engine.expected
        if engine.phase is Phase.DICE and player in engine.unrolled():
            if self.manual_dice:
                fresh = Entry(EntryKind.DICE, (0, 1), 0, _start())
                return self._entry_button(player, button, fresh)
            if button == OK:
                return self._roll(player, (0, 1))
            return say("press OK to roll your dice")
        if engine.reroll_limit(player) is not None:  # its reroll after the round is due
            return self._reroll_button(player, button)
        if expected == Expectation(player, Verb.PLAY):
            return say("tap the card you play on your reader")
        return None

    def _reroll_button(self, player: int, button: Button) -> Action | Words | None:
        cursor = self.cursor
        entry = cursor.entry.get(player)
        if entry is not None:
            return self._entry_button(player, button, entry)
        chosen = cursor.selected(self.engine, player)
        if button in DIE_BUTTONS:
            chosen ^= {DIE_BUTTONS.index(button)}
            return None
        refused = self.engine.reroll_refusal(player, len(chosen))
        if refused is not None:
            return _explain(refused)
        which = tuple(sorted(chosen))
        cursor.selection.pop(player, None)
        if self.manual_dice and which:
            start = list(self.faces(player))
            return self._entry_button(player, None, Entry(EntryKind.REROLL, which, 0, start))
        return self._roll(player, which)

    def _doubles_button(self, player: int, button: Button) -> Action | Words | None:
        cursor = self.cursor
        entry = cursor.entry.get(player)
        if entry is not None and entry.kind is EntryKind.DOUBLES:
            return self._entry_button(player, button, entry)
        chosen = cursor.selection.setdefault(player, set())
        if button in DIE_BUTTONS:
            die = DIE_BUTTONS.index(button)
            # One die only: picking a die unpicks the other; picking it again unpicks it.
            cursor.selection[player] = set() if chosen == {die} else {die}
            return None
        cursor.selection.pop(player, None)
        if not chosen:
            return KeepDoubles(player)
        which = tuple(sorted(chosen))
        if self.manual_dice:
            faces = list(self.faces(player))
            return self._entry_button(player, None, Entry(EntryKind.DOUBLES, which, 0, faces))
        return self._roll(player, which)

    def _roll(self, player: int, which: tuple[int, ...]) -> Action | Words:
        """The seat decided to roll ``which`` dice: the engine draws the outcome (chance)."""
        try:
            return self.engine.roll_outcome(RollRequest(player, which), self.context.chance_rng())
        except IllegalAction as refused:
            return refused.text

    def _entry_button(self, player: int, button: str | None, fresh: Entry) -> Action | Words | None:
        """Manual entry: PREV/NEXT cycle the face of the die being entered, OK confirms it."""
        entry = self.cursor.entry.setdefault(player, fresh)
        die = entry.dice[entry.step]
        if button in DIE_BUTTONS:
            step = -1 if button == Button.PREV else 1
            face = entry.faces[die]
            entry.faces[die] = GENRES[(GENRES.index(face) + step) % len(GENRES)]
            return None
        if button != OK:
            return say(
                "die {number}: PREV/NEXT choose the face it shows, OK confirms it",
                number=die + 1,
            )
        entry.step += 1
        if entry.step < len(entry.dice):
            return None
        del self.cursor.entry[player]
        faces = (entry.faces[0], entry.faces[1])
        if entry.kind is EntryKind.DICE:
            return RollDice(player, faces)
        return Reroll(player, entry.dice, faces)

    # --- what the buttons say -----------------------------------------------------------

    def hints(self) -> list[tuple[int, Button, Words]]:
        engine = self.engine
        if engine.phase is Phase.OVER:
            return []
        if engine.doubles is not None:
            # The seat with the open offer decides before anyone else does anything.
            return self._doubles_hints(engine.doubles)
        expected = engine.expected
        out: list[tuple[int, Button, Words]] = []
        if engine.phase is Phase.DICE:
            for seat in engine.unrolled():
                if self.manual_dice:
                    out += self._entry_hints(seat, self.cursor.entry.get(seat))
                elif self.button_roll:
                    out.append((seat, OK, LABEL_ROLL))
            return out
        if engine.phase is Phase.REROLL and expected is not None:
            seat = expected.seat
            entry = self.cursor.entry.get(seat)
            if entry is not None:
                return self._entry_hints(seat, entry)
            chosen = self.cursor.selected(engine, seat)
            for die, button in enumerate(DIE_BUTTONS):
                out.append((seat, button, die_label(die, die in chosen)))
            out.append((seat, OK, _roll_label(len(chosen))))
        return out

    def short_label(self, label: Words) -> Words | None:
        return short_die_label(label)

    def _doubles_hints(self, seat: int) -> list[tuple[int, Button, Words]]:
        entry = self.cursor.entry.get(seat)
        if entry is not None and entry.kind is EntryKind.DOUBLES:
            return self._entry_hints(seat, entry)
        chosen = self.cursor.selection.get(seat, set())
        out: list[tuple[int, Button, Words]] = [
            (seat, button, die_label(die, die in chosen)) for die, button in enumerate(DIE_BUTTONS)
        ]
        out.append((seat, OK, _roll_label(1 if chosen else 0)))
        return out

    def _entry_hints(self, seat: int, entry: Entry | None) -> list[tuple[int, Button, Words]]:
        die, face = (0, GENRES[0]) if entry is None else (entry.dice[entry.step], "")
        if entry is not None:
            face = entry.faces[die]
        return [
            (seat, Button.PREV, say("< face")),
            (seat, OK, say("die {number}: {face}", number=die + 1, face=as_arg(genre_word(face)))),
            (seat, Button.NEXT, say("face >")),
        ]


class OskarPresentation(_Role, Presentation):
    """Engine events as messages and LED cues; the snapshot with the picked dice over it."""

    event_sounds: ClassVar[Mapping[type[Event], Sound]] = {
        TrickWon: Sound.TRICK_WON,
        RoundScored: Sound.ROUND_OVER,
        GameOver: Sound.GAME_WON,
    }

    def result_rule(self, report: JSON) -> Words:
        """The rulebook's end: the game ends at a seat's goal token, the most tokens win.

        Reaching the goal ends the game but does not win it (a seat may end it
        with 7 and lose to one with 8), which is what the results must explain.
        """
        return say(
            "The most Oskar tokens win; a seat's {goal}th token ends the game but does not "
            "win it. A token for each die showing a trendy genre ({threshold}+ points).",
            goal=self.engine.tokens_to_win,
            threshold=self.engine.trend_threshold,
        )

    def result_amount(self, total: int) -> Words:
        return say_plural("{n} token", "{n} tokens", total)

    def result_unit(self) -> Words:
        return say("Oskar tokens")

    def result_best(self) -> Words:
        return say("the most tokens")

    def result_counts(self, report: JSON) -> list[tuple[Words, list[int]]]:
        """Why the tokens fell as they did: each seat's film points and stocks won.

        Film points (card points, the stock's included) are what make a genre
        trendy; they are counts, not part of the tokens the rounds add up to.
        """
        players = self.engine.players
        points, stocks = [0] * players, [0] * players
        for rnd in report.get("rounds") or []:
            for seat, value in enumerate(rnd.get("points") or []):
                points[seat] += int(value)
            stock = rnd.get("stock")
            if isinstance(stock, dict) and isinstance(stock.get("won_by"), int):
                stocks[stock["won_by"]] += 1
        return [(say("Film points"), points), (say("Stocks won"), stocks)]

    def result_notes(self, report: JSON) -> list[Words]:
        """Each round's trends and tokens: "Round 2: trendy: horror, western; tokens:
        Seat 1 +2, Seat 3 +1" (a round nothing was trendy in says so)."""
        notes: list[Words] = []
        for number, rnd in enumerate(report.get("rounds") or [], start=1):
            trendy = [str(g) for g in rnd.get("trendy") or []]
            tokens = [(seat, int(n)) for seat, n in enumerate(rnd.get("scores") or []) if n]
            if not trendy or not tokens:
                notes.append(say("Round {number}: no genre trendy, no tokens", number=number))
                continue
            genres = Items(tuple(as_arg(genre_word(g)) for g in trendy))
            gained = Items(
                tuple(
                    say("{player} {tokens}", player=Player(seat), tokens=Signed(n))
                    for seat, n in tokens
                )
            )
            notes.append(
                say(
                    "Round {number}: trendy: {genres}; tokens: {gained}",
                    number=number,
                    genres=genres,
                    gained=gained,
                )
            )
        return notes

    def feedback(self, event: Event) -> list[Feedback]:
        # Runs for every event (about 560 in a game): one dict lookup by exact type
        # decides, and the most common events (a turn passing) have no handler.
        kind = type(event)
        if kind is TurnPassed:
            return []  # every other event is a turn passing: the LEDs follow it, no words
        if kind is CardPlayed and not event.card.is_zero:  # type: ignore[attr-defined]
            return []  # a colour card says nothing (the display shows it); a zero is worded
        handler = _FEEDBACK.get(kind)
        if kind in _CHOICE_MADE or (
            handler is None
            and kind not in _SILENT
            and isinstance(event, DiceRolled | RerollDone | DoublesDeclined)
        ):
            # The seat's choice is made: a new offer starts with nothing picked.
            self.cursor.clear(event.seat)  # type: ignore[attr-defined]
        return handler(self.engine, event) if handler is not None else []

    def game_view(self) -> GameView[OskarSnapshot, OskarOverlay]:
        engine = self.engine
        picked = tuple(
            tuple(sorted(self.cursor.picked(engine, seat))) for seat in range(engine.players)
        )
        return GameView(engine.snapshot(), OskarOverlay(picked))

    def waiting_players(self) -> list[int]:
        engine = self.engine
        if engine.phase is Phase.DICE and engine.doubles is None:
            # Every seat that has not rolled may roll now, in any order.
            return engine.unrolled() if self.manual_dice or self.button_roll else []
        decides = engine.decides
        return [] if decides is None else [decides]


class OskarSimulation(_Role, Simulation):
    """Bots for empty seats and the presses a person would make for an action."""

    def make_bot(self, rng: random.Random) -> Bot:
        return OskarBot(rng)

    def hand(self, player: int) -> tuple[str, ...]:
        cards = self.engine.registered_hand(player)
        return () if cards is None else tuple(str(c) for c in cards)

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play):
            return [Tap(str(action.card))]
        seat = action.seat
        engine = self.engine
        cursor = self.cursor
        if isinstance(action, KeepDoubles):
            chosen = cursor.selection.get(seat, set())
            return [*[Press(DIE_BUTTONS[d]) for d in sorted(chosen)], Press(OK)]
        if isinstance(action, RollDice):
            if not self.manual_dice:
                return [Press(OK)]
            return _face_presses(_start(), action.faces, (0, 1))
        if isinstance(action, Reroll):
            which = set(action.rerolled)
            out: list[Gesture] = []
            if engine.doubles == seat:
                chosen = cursor.selection.get(seat, set())
                if chosen != which:
                    die = min(which) if which else min(chosen)
                    out.append(Press(DIE_BUTTONS[die]))
            else:
                chosen = cursor.selected(engine, seat)
                out += [Press(DIE_BUTTONS[d]) for d in (0, 1) if (d in chosen) != (d in which)]
            out.append(Press(OK))
            if self.manual_dice and action.rerolled:
                out += _face_presses(list(self.faces(seat)), action.faces, action.rerolled)
            return out
        return []


class OskarAdapter(GameAdapter):
    """The table side of an Oskar game: its three roles around one shared cursor."""

    spec = SPEC

    engine: Oskar
    input: OskarInput
    presentation: OskarPresentation
    simulation: OskarSimulation

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        self.cursor = Cursor()
        self.input = OskarInput(context, self.cursor)
        self.presentation = OskarPresentation(context, self.cursor)
        self.simulation = OskarSimulation(context, self.cursor)


# --- helpers ---------------------------------------------------------------------------


def _start() -> list[str]:
    """The faces a manual entry starts from."""
    return [GENRES[0], GENRES[0]]


def _face_presses(start: Sequence[str], faces: Sequence[str], dice: Sequence[int]) -> list[Gesture]:
    """PREV/NEXT presses cycling each die in ``dice`` from ``start`` to ``faces``, each then OK."""
    out: list[Gesture] = []
    for die in dice:
        steps = (GENRES.index(faces[die]) - GENRES.index(start[die])) % len(GENRES)
        if steps <= len(GENRES) // 2:
            out += [Press(Button.NEXT)] * steps
        else:
            out += [Press(Button.PREV)] * (len(GENRES) - steps)
        out.append(Press(Button.OK))
    return out


LABEL_ROLL = say("roll dice")


def die_label(die: int, picked: bool) -> Text:
    """A die button's label, naming the die it acts on (PREV the first, NEXT the second,
    as the panel shows them left to right): "REROLL die 1" once picked, else "keep die 1"."""
    if picked:
        return say("REROLL die {number}", number=die + 1)
    return say("keep die {number}", number=die + 1)


def short_die_label(label: Words) -> Text | None:
    """A die button's label for a narrow panel (a 6-seat table's), where the die's
    place in the column and its number say which: "keep 1", "REROLL 1", "keep"."""
    if not isinstance(label, Text):
        return None
    number = label.arguments().get("number", 0)
    if label.key == "keep die {number}":
        # TRANSLATORS: "keep die {number}" on a narrow panel's button.
        return say("keep {number}", number=number)
    if label.key == "REROLL die {number}":
        # TRANSLATORS: "REROLL die {number}" on a narrow panel's button.
        return say("REROLL {number}", number=number)
    if label.key == "keep both":
        # TRANSLATORS: "keep both" (dice: roll none) on a narrow panel's button.
        return say("keep")
    return None


def _roll_label(count: int) -> Text:
    """The OK label while dice are picked: keep both, or roll that many."""
    if count == 0:
        return say("keep both")
    return say_plural("roll {n} die", "roll {n} dice", count)


def _explain(refused: RerollRefused) -> Text:
    """A refused pick of dice, with the buttons that mend it; the engine says which rule."""
    chosen = refused.count
    if refused.limit is RerollLimit.MOST:
        return say_plural(
            "you have the most points and must reroll both dice, not {n} die: "
            "PREV and NEXT choose them, then OK",
            "you have the most points and must reroll both dice, not {n} dice: "
            "PREV and NEXT choose them, then OK",
            chosen,
        )
    if refused.limit is RerollLimit.REST:
        return say("you may reroll at most one die: unpick one with PREV or NEXT, then OK")
    return say_plural("you cannot reroll {n} die now", "you cannot reroll {n} dice now", chosen)


def _pair(faces: Sequence[str]) -> Text:
    found = _PAIRS.get((faces[0], faces[1]))
    if found is not None:
        return found
    return _pair_words(faces[0], faces[1])  # faces as a record spelled them ("Horror")


def _pair_words(first: str, second: str) -> Text:
    return say(
        "{first} + {second}",
        first=as_arg(genre_word(first)),
        second=as_arg(genre_word(second)),
    )


# Each pair of the six faces in words, made once: messages are frozen values, and a
# pair is named after every roll.
_PAIRS: dict[tuple[str, str], Text] = {(a, b): _pair_words(a, b) for a in GENRES for b in GENRES}


def _dice_rolled(engine: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, DiceRolled)
    out = [
        Feedback(e.seat, say("{player} rolls {dice}", player=Player(e.seat), dice=_pair(e.faces)))
    ]
    if e.doubles:
        out.append(_doubles_prompt(e.seat, e.faces))
    return out


def _doubles_prompt(seat: int, faces: Sequence[str]) -> Feedback:
    return Feedback(
        seat,
        say(
            "{player} rolled doubles ({face}): PREV/NEXT picks a die and OK rerolls it; "
            "OK with no die picked keeps them",
            player=Player(seat),
            face=as_arg(genre_word(faces[0])),
        ),
    )


def _rerolled(engine: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, RerollDone)
    player, now = _PLAYERS[e.seat], _pair(e.faces)
    text: Text
    if not e.rerolled:
        text = say("{player} keeps both dice: {dice}", player=player, dice=now)
    elif len(e.rerolled) == 2:
        text = say("{player} rerolls both dice: now {dice}", player=player, dice=now)
    elif e.doubles_reroll:
        text = say(
            "{player} rerolls die {number} (doubles reroll): now {dice}",
            player=player,
            number=e.rerolled[0] + 1,
            dice=now,
        )
    else:
        text = say(
            "{player} rerolls die {number}: now {dice}",
            player=player,
            number=e.rerolled[0] + 1,
            dice=now,
        )
    out = [Feedback(e.seat, text)]
    if e.doubles:
        out.append(_doubles_prompt(e.seat, e.faces))
    return out


def _declined(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, DoublesDeclined)
    return [Feedback(e.seat, say("{player} keeps its doubles", player=Player(e.seat)))]


def _card_played(engine: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, CardPlayed)
    player = Player(e.seat)
    if e.zero == 1:
        return [
            Feedback(e.seat, say("{player} plays a zero: first zero, colours lapse", player=player))
        ]
    if e.zero == 2:
        return [
            Feedback(
                e.seat, say("{player} plays the second zero: it takes the trick", player=player)
            )
        ]
    return []


# Why a trick went where it did, in words, by the engine's reason; built once, as one
# trick is won every few cards.
_TRICK_WHY: Mapping[WinReason, Text] = {
    WinReason.BEST_COLOUR: say("best colour (yellow > green > blue > lilac), highest number"),
    WinReason.FIRST_ZERO: say("first zero: colours lapse, the highest number wins"),
    WinReason.SECOND_ZERO: say("second zero wins the trick"),
}


def _trick_won(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon)
    key = (e.seat, e.trick, e.points, e.reason)
    said = _TRICKS_SAID.get(key)
    if said is None:
        if len(_TRICKS_SAID) >= _TRICKS_SAID_MAX:
            _TRICKS_SAID.clear()  # bots' playouts never rest: a bound for them too
        said = _TRICKS_SAID[key] = Feedback(
            e.seat,
            say_plural(
                "{player} wins trick {trick} ({n} point): {why}",
                "{player} wins trick {trick} ({n} points): {why}",
                e.points,
                player=Player(e.seat),
                trick=e.trick,
                why=_TRICK_WHY[e.reason],
            ),
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    return [said]


# The feedback of a won trick by (seat, trick, points, reason), made once: feedback is a
# frozen value, and one is said every few cards while the same few hundred recur. The
# table forgets them when it rests (``forget_interned``); a process that never rests
# (a bot's playouts, a benchmark) empties them at the bound.
_TRICKS_SAID: Interned[tuple[int, int, int, WinReason], Feedback] = Interned()
_TRICKS_SAID_MAX = 4096


def _stock_won(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, StockWon)
    return [
        Feedback(
            e.seat,
            say_plural(
                "{player} wins the stock ({n} face-down card): the second zero wins the trick "
                "and the stock",
                "{player} wins the stock ({n} face-down cards): the second zero wins the trick "
                "and the stock",
                e.cards,
                player=Player(e.seat),
            ),
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    ]


# Values the round's messages are made of, made once (they are frozen): each seat as a
# message argument, a seat's token cue, the tokens a seat can win in a round (0-2).
# Events name engine seats (0-5), which the engine has checked.
_PLAYERS: tuple[Player, ...] = tuple(Player(seat) for seat in range(6))
_TOKEN_CUES: tuple[Feedback, ...] = tuple(
    Feedback(seat, None, cue=Cue.TRICK_WON) for seat in range(6)
)
_SIGNED: tuple[Signed, ...] = tuple(Signed(n) for n in range(3))
_GENRE_ARGS: dict[str, Arg] = {genre: as_arg(genre_word(genre)) for genre in GENRES}
_NOBODY = say("nobody")


def _signed(tokens: int) -> Signed:
    return _SIGNED[tokens] if 0 <= tokens < len(_SIGNED) else Signed(tokens)


def _genre_arg(genre: str) -> Arg:
    found = _GENRE_ARGS.get(genre)
    return found if found is not None else as_arg(genre_word(genre))


def _round_scored(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    earners = [s for s, t in enumerate(e.tokens) if t]
    if e.trendy:
        trendy = Items(
            tuple(
                say("{genre} {points}", genre=_genre_arg(g), points=e.genre_totals[g])
                for g in e.trendy
            )
        )
        got = Items(
            tuple(
                say("{player} {tokens}", player=_PLAYERS[s], tokens=_signed(e.tokens[s]))
                for s in earners
            )
        )
        text = say(
            "Round {round}: trendy ({threshold}+): {trendy}. Tokens: {tokens}",
            round=e.round,
            trendy=trendy,
            tokens=got if earners else _NOBODY,
            threshold=e.threshold,
        )
    else:
        text = say(
            "Round {round}: no genre reached {threshold}, so no tokens",
            round=e.round,
            threshold=e.threshold,
        )
    out = [Feedback(None, text, MessageKind.WON)]
    if e.stock_winner is not None:
        stock = say_plural(
            "Round {round}: the stock ({n} point) went to {player}",
            "Round {round}: the stock ({n} points) went to {player}",
            e.stock_value,
            round=e.round,
            player=_PLAYERS[e.stock_winner],
        )
        out.append(Feedback(None, stock, MessageKind.WON))
    out += [_TOKEN_CUES[s] for s in earners]
    return out


def _rerolls_due(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, RerollsDue)
    most = Items(tuple(_PLAYERS[s] for s in e.most))
    if e.fewest:
        text = say(
            "Rerolls: most points ({most}) reroll both; fewest ({fewest}) none, one or both; "
            "the rest none or one",
            most=most,
            fewest=Items(tuple(_PLAYERS[s] for s in e.fewest)),
        )
    else:
        text = say("Rerolls: most points ({most}) reroll both; the rest none or one", most=most)
    first = e.order[0]
    return [
        Feedback(None, text),
        Feedback(
            first,
            say("{player}: PREV/NEXT choose dice to reroll, OK rolls them", player=_PLAYERS[first]),
        ),
    ]


def _round_started(engine: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    text = say(
        "Round {round}: {dealer} deals {cards} cards each, {stock} face down as the stock; "
        "{lead} leads",
        round=e.round,
        dealer=Player(e.dealer),
        cards=engine.hand_size,
        stock=stock_size(engine.players),
        lead=Player(e.lead),
    )
    return [Feedback(None, text)]


def _game_over(_: Oskar, e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    tokens = max(e.totals)
    if len(e.winners) == 1:
        text = say_plural(
            "Game over: {player} wins with {n} Oskar token",
            "Game over: {player} wins with {n} Oskar tokens",
            tokens,
            player=Player(e.winners[0]),
        )
    else:
        text = say_plural(
            "Game over: {players} share the victory with {n} Oskar token",
            "Game over: {players} share the victory with {n} Oskar tokens",
            tokens,
            players=Items(tuple(Player(s) for s in e.winners)),
        )
    return [Feedback(s, None, cue=Cue.TRICK_WON) for s in e.winners] + [
        Feedback(None, text, MessageKind.WON)
    ]


# Events after which a seat's dice choice is made (its picked dice are cleared).
_CHOICE_MADE: frozenset[type[Event]] = frozenset({DiceRolled, RerollDone, DoublesDeclined})
# Events known to say nothing: skip the subclass test for them (a turn passes per card).
_SILENT: frozenset[type[Event]] = frozenset({TurnPassed, HandRegistered})

_FEEDBACK: dict[type[Event], Callable[[Oskar, Event], list[Feedback]]] = {
    DiceRolled: _dice_rolled,
    RerollDone: _rerolled,
    DoublesDeclined: _declined,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    StockWon: _stock_won,
    RoundScored: _round_scored,
    RerollsDue: _rerolls_due,
    RoundStarted: _round_started,
    GameOver: _game_over,
}


ADAPTER = OskarAdapter
