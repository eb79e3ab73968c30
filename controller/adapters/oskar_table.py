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

Dice, the deal and journal safety
---------------------------------
With the virtual roller, ``chance`` rolls the opening dice of every seat from
the table's rng, one seat after another, stopping after a seat that rolled
doubles until that seat has decided. Rerolls are rolled from ``self.rng``
when the seat presses OK. Everything rolled is an action in the record.

Oskar's engine never knows the hands (the rules have no ``hand`` verb), so
with a virtual deal the adapter keeps the dealt hands itself. A round is
dealt in the first ``chance`` call of the round, before any card of it is
played, and kept in ``dealt``; a seat's remaining hand is derived from that
deal and the engine's state (cards played this round, cards left per seat),
so nothing the adapter remembers between events is needed for it.

After a rebuild from the journal (crash resume or staff undo) the adapter is
new. The table gives every adapter the game's journaled seed (``context.seed``),
and the deal of round N is drawn from ``Random(f"{seed}/oskar-deal/{N}")``,
so a rebuilt game deals exactly the same. An adapter used without a table
(no seed) deals from the rng it is given, and cannot know the hands of a
round already under way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    Gesture,
    Press,
    SingleClassAdapter,
    Tap,
)
from controller.bots.oskar_bot import OskarBot
from controller.games.base import JSON, Action, Event, Expectation, GameOver, IllegalAction
from controller.games.oskar import (
    GENRES,
    SPEC,
    Card,
    CardPlayed,
    DiceRolled,
    DoublesDeclined,
    Oskar,
    Phase,
    Play,
    Reroll,
    RerollDone,
    RerollsDue,
    RollDice,
    RoundScored,
    RoundStarted,
    StockWon,
    TrickWon,
    deal,
    roll,
    stock_size,
)
from controller.view import MessageKind
from hardware.cues import Cue

DIE_BUTTONS: tuple[str, str] = ("prev", "next")  # PREV is die 0, NEXT is die 1


@dataclass(frozen=True)
class DeclineDoubles(Action):
    """Not an engine action: the seat keeps its doubles (the bot's way to say "no, thanks").

    Only ``gestures`` reads it; the table never applies it.
    """

    def to_json(self) -> JSON:
        return {"seat": self.seat, "keep_doubles": True}


@dataclass(frozen=True)
class Dealt:
    """One round's virtual deal: each seat's cards and the face-down stock."""

    round: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


@dataclass
class Entry:
    """A seat's manual dice entry in progress: which dice, which one now, the faces so far."""

    kind: str  # "dice" (opening), "reroll" or "doubles"
    dice: tuple[int, ...]  # the dice whose faces are entered, in order
    step: int  # index into ``dice`` of the die being entered
    faces: list[str] = field(default_factory=list)  # both faces, the entered ones updated


class OskarAdapter(SingleClassAdapter):
    """The table side of an Oskar game; see the module docstring."""

    spec = SPEC

    engine: Oskar

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        self.dealt: Dealt | None = None
        self._selection: dict[int, set[int]] = {}  # dice chosen with PREV/NEXT, per seat
        self._entry: dict[int, Entry] = {}  # manual entries in progress, per seat
        self._declined: int | None = None  # the seat that said "keep" to its doubles offer

    # --- the deal -------------------------------------------------------------------

    def _deal_round(self, rng: random.Random) -> None:
        """Deal the current round if it is in progress and not dealt yet (virtual deal only)."""
        engine = self.engine
        rnd = engine.round
        if not engine.round_in_progress():
            return
        if self.dealt is not None and self.dealt.round == rnd.number:
            return
        source = random.Random(f"{self.context.seed}/oskar-deal/{rnd.number}")
        hands, stock = deal(source, engine.players)
        self.dealt = Dealt(rnd.number, tuple(tuple(h) for h in hands), tuple(stock))

    def remaining(self, player: int) -> list[Card] | None:
        """The seat's cards not yet played this round, or None when the table does not know."""
        engine = self.engine
        dealt = self.dealt
        if dealt is None or dealt.round != engine.round.number or not engine.round_in_progress():
            return None
        rnd = engine.round
        left = engine.hand_size - rnd.cards_played[player]
        # Every non-zero card is unique, so once played it left its holder's hand;
        # the seat's zeros are whatever else it still holds.
        kept = [c for c in dealt.hands[player] if not c.is_zero and not rnd.played[c]]
        zeros = sum(1 for c in dealt.hands[player] if c.is_zero)
        zeros_left = max(0, min(zeros, left - len(kept)))
        return sorted(kept + [Card("R", 0)] * zeros_left)

    def hand(self, player: int) -> tuple[str, ...]:
        cards = self.remaining(player)
        return () if cards is None else tuple(str(c) for c in cards)

    def chance(self, rng: random.Random) -> list[Action]:
        # One draw always comes first, so the dice below do not depend on
        # whether this call also dealt (a rebuilt adapter deals, a live one may not).
        sub = random.Random(rng.getrandbits(64))
        self._deal_round(sub)
        engine = self.engine
        if self.manual_dice or engine.phase is not Phase.DICE or engine.doubles is not None:
            return []
        actions: list[Action] = []
        for seat in engine.unrolled():
            first, second = roll(rng, 2)
            actions.append(RollDice(seat, (first, second)))
            if first == second:
                break  # the seat decides about its doubles before anyone else rolls
        return actions

    # --- input ----------------------------------------------------------------------

    def offer_open(self) -> int | None:
        """The seat whose doubles offer waits for its decision (others wait), or None."""
        seat = self.engine.doubles
        return seat if seat is not None and seat != self._declined else None

    def on_card(self, player: int, card: str) -> Action:
        engine = self.engine
        parsed = Card.parse(card)
        offer = self.offer_open()
        if offer is not None and engine.phase is not Phase.OVER:
            if offer == player:
                raise IllegalAction(
                    f"seat {player} rolled doubles: first PREV/NEXT picks a die and OK rerolls "
                    "it, or OK alone keeps them"
                )
            raise IllegalAction(
                f"seat {player} cannot play {parsed} yet: seat {offer} rolled doubles and "
                "decides first whether to reroll one die"
            )
        remaining = self.remaining(player)
        expected = engine.expected
        if (
            remaining is not None
            and expected is not None
            and expected == Expectation(player, "play")
            and parsed not in remaining
        ):
            # The table dealt the cards, so it knows: a card not in the hand is refused.
            held = " ".join(str(c) for c in remaining) or "no cards"
            raise IllegalAction(f"seat {player} does not hold {parsed}; its hand: {held}")
        return Play(player, parsed)

    def on_button(self, player: int, button: str) -> Action | str | None:
        engine = self.engine
        if engine.phase is Phase.OVER:
            return None
        offer = self.offer_open()
        if engine.doubles == player:
            return self._doubles_button(player, button)
        if offer is not None:
            return f"wait: seat {offer} rolled doubles and decides first"
        expected = engine.expected
        if engine.phase is Phase.DICE and player in engine.unrolled():
            if self.manual_dice:
                return self._entry_button(player, button, Entry("dice", (0, 1), 0, _start()))
            if button == "ok":
                # Only reached when the table deals physically (no chance actions).
                first, second = roll(self.rng, 2)
                return RollDice(player, (first, second))
            return "press OK to roll your dice"
        if engine.phase is Phase.REROLL and expected == Expectation(player, "reroll"):
            return self._reroll_button(player, button)
        if expected == Expectation(player, "play"):
            return "tap the card you play on your reader"
        return None

    def _selected(self, player: int) -> set[int]:
        if player not in self._selection:
            must_both = self.engine.reroll_allowance(player) == frozenset({2})
            self._selection[player] = {0, 1} if must_both else set()
        return self._selection[player]

    def _reroll_button(self, player: int, button: str) -> Action | str | None:
        entry = self._entry.get(player)
        if entry is not None:
            return self._entry_button(player, button, entry)
        chosen = self._selected(player)
        if button in DIE_BUTTONS:
            chosen ^= {DIE_BUTTONS.index(button)}
            return None
        allowed = self.engine.reroll_allowance(player)
        if len(chosen) not in allowed:
            return _explain(allowed, len(chosen))
        current = self._faces(player)
        which = tuple(sorted(chosen))
        if self.manual_dice and which:
            self._selection.pop(player, None)
            start = list(current)
            return self._entry_button(player, None, Entry("reroll", which, 0, start))
        self._selection.pop(player, None)
        return self._roll_chosen(player, which)

    def _doubles_button(self, player: int, button: str) -> Action | str | None:
        entry = self._entry.get(player)
        if entry is not None and entry.kind == "doubles":
            return self._entry_button(player, button, entry)
        chosen = self._selection.setdefault(player, set())
        if button in DIE_BUTTONS:
            die = DIE_BUTTONS.index(button)
            # One die only: picking a die unpicks the other; picking it again unpicks it.
            self._selection[player] = set() if chosen == {die} else {die}
            return None
        self._selection.pop(player, None)
        faces = self._faces(player)
        if not chosen:
            self._declined = player
            engine = self.engine
            unrolled = engine.unrolled()
            if engine.phase is Phase.DICE and unrolled and not self.manual_dice and self.dealt:
                # Keeping doubles lets the opening roll go on: the next seat rolls now.
                first, second = roll(self.rng, 2)
                return RollDice(unrolled[0], (first, second))
            return f"you keep {faces[0]} + {faces[1]}"
        which = tuple(sorted(chosen))
        if self.manual_dice:
            return self._entry_button(player, None, Entry("doubles", which, 0, list(faces)))
        return self._roll_chosen(player, which)

    def _roll_chosen(self, player: int, which: tuple[int, ...]) -> Reroll:
        faces = list(self._faces(player))
        for die in which:
            faces[die] = roll(self.rng, 1)[0]
        return Reroll(player, which, (faces[0], faces[1]))

    def _entry_button(self, player: int, button: str | None, fresh: Entry) -> Action | str | None:
        """Manual entry: PREV/NEXT cycle the face of the die being entered, OK confirms it."""
        entry = self._entry.setdefault(player, fresh)
        die = entry.dice[entry.step]
        if button in DIE_BUTTONS:
            step = -1 if button == "prev" else 1
            face = entry.faces[die]
            entry.faces[die] = GENRES[(GENRES.index(face) + step) % len(GENRES)]
            return None
        if button != "ok":
            return f"die {die}: PREV/NEXT choose the face it shows, OK confirms it"
        entry.step += 1
        if entry.step < len(entry.dice):
            return None
        del self._entry[player]
        faces = (entry.faces[0], entry.faces[1])
        if entry.kind == "dice":
            return RollDice(player, faces)
        return Reroll(player, entry.dice, faces)

    def _faces(self, player: int) -> tuple[str, str]:
        faces = self.engine.dice[player]
        assert faces is not None, "a seat rerolls only dice it has rolled"
        return faces

    # --- what the buttons say -----------------------------------------------------------

    def hints(self) -> list[tuple[int, str, str]]:
        engine = self.engine
        if engine.phase is Phase.OVER:
            return []
        doubles = engine.doubles
        offer = self.offer_open()
        out: list[tuple[int, str, str]] = []
        if doubles is not None:
            out += self._doubles_hints(doubles)
            if offer is not None:
                return out
        expected = engine.expected
        if engine.phase is Phase.DICE:
            for seat in engine.unrolled():
                if self.manual_dice:
                    out += self._entry_hints(seat, self._entry.get(seat))
                elif not self.dealt:
                    out.append((seat, "ok", "roll dice"))
            return out
        if engine.phase is Phase.REROLL and expected is not None:
            seat = expected.seat
            entry = self._entry.get(seat)
            if entry is not None:
                return out + self._entry_hints(seat, entry)
            chosen = self._selected(seat)
            for die, button in enumerate(DIE_BUTTONS):
                out.append((seat, button, "REROLL" if die in chosen else "keep"))
            count = len(chosen)
            out.append((seat, "ok", "keep both" if count == 0 else f"roll {count}"))
        return out

    def _doubles_hints(self, seat: int) -> list[tuple[int, str, str]]:
        entry = self._entry.get(seat)
        if entry is not None and entry.kind == "doubles":
            return self._entry_hints(seat, entry)
        chosen = self._selection.get(seat, set())
        out = [
            (seat, button, "REROLL" if die in chosen else "keep")
            for die, button in enumerate(DIE_BUTTONS)
        ]
        out.append((seat, "ok", "roll 1" if chosen else "keep both"))
        return out

    def _entry_hints(self, seat: int, entry: Entry | None) -> list[tuple[int, str, str]]:
        die, face = (0, GENRES[0]) if entry is None else (entry.dice[entry.step], "")
        if entry is not None:
            face = entry.faces[die]
        return [
            (seat, "prev", "< face"),
            (seat, "ok", f"die {die}: {face}"),
            (seat, "next", "face >"),
        ]

    def waiting_players(self) -> list[int]:
        engine = self.engine
        offer = self.offer_open()
        if offer is not None:
            return [offer]
        if engine.phase is Phase.DICE:
            if self.manual_dice or not self.dealt:
                return engine.unrolled()
            return []
        return super().waiting_players()

    # --- simulated players -------------------------------------------------------------

    def make_bot(self, rng: random.Random) -> Bot:
        return TableBot(self, OskarBot(rng))

    def gestures(self, action: Action) -> list[Gesture]:
        if isinstance(action, Play):
            return [Tap(str(action.card))]
        seat = action.seat
        engine = self.engine
        if isinstance(action, DeclineDoubles):
            chosen = self._selection.get(seat, set())
            return [*[Press(DIE_BUTTONS[d]) for d in sorted(chosen)], Press("ok")]
        if isinstance(action, RollDice):
            if not self.manual_dice:
                return [Press("ok")]
            return _face_presses(_start(), action.faces, (0, 1))
        if isinstance(action, Reroll):
            which = set(action.rerolled)
            out: list[Gesture] = []
            if engine.doubles == seat:
                chosen = self._selection.get(seat, set())
                if chosen != which:
                    die = min(which) if which else min(chosen)
                    out.append(Press(DIE_BUTTONS[die]))
            else:
                chosen = self._selected(seat)
                out += [Press(DIE_BUTTONS[d]) for d in (0, 1) if (d in chosen) != (d in which)]
            out.append(Press("ok"))
            if self.manual_dice and action.rerolled:
                out += _face_presses(list(self._faces(seat)), action.faces, action.rerolled)
            return out
        return []

    # --- feedback ----------------------------------------------------------------------

    def feedback(self, event: Event) -> list[Feedback]:
        if isinstance(event, DiceRolled | RerollDone | DoublesDeclined):
            # A new roll may make a new doubles offer; an old "keep" no longer applies.
            self._declined = None
            self._selection.pop(event.seat, None)
            self._entry.pop(event.seat, None)
        handler = _FEEDBACK.get(type(event))
        return handler(self, event) if handler is not None else []


class TableBot:
    """The Oskar bot seen through the table: it knows its seat's dealt hand from the adapter."""

    def __init__(self, adapter: OskarAdapter, bot: OskarBot) -> None:
        self.adapter = adapter
        self.bot = bot

    def choose(self, engine: Any, seat: int) -> Action:
        assert isinstance(engine, Oskar)
        adapter = self.adapter
        if engine.doubles == seat and adapter.offer_open() == seat:
            extra = self.bot.doubles_choice(engine, seat)
            return extra if extra is not None else DeclineDoubles(seat)
        # A seat that kept its doubles is asked again only when something is due
        # from it; doubles_choice depends on the dice alone, so it keeps them again.
        return self.bot.choose(engine, seat, adapter.hand(seat))


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
            out += [Press("next")] * steps
        else:
            out += [Press("prev")] * (len(GENRES) - steps)
        out.append(Press("ok"))
    return out


def _explain(allowed: frozenset[int], chosen: int) -> str:
    dice = "die" if chosen == 1 else "dice"
    if allowed == frozenset({2}):
        return (
            f"you have the most points and must reroll both dice, not {chosen} {dice}: "
            "PREV and NEXT choose them, then OK"
        )
    if allowed == frozenset({0, 1}):
        return "you may reroll at most one die: unpick one with PREV or NEXT, then OK"
    return f"you cannot reroll {chosen} {dice} now"


def _pair(faces: Sequence[str]) -> str:
    return f"{faces[0]} + {faces[1]}"


def _dice_rolled(a: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, DiceRolled)
    out = [Feedback(e.seat, f"Seat {e.seat} rolls {_pair(e.faces)}")]
    if e.doubles:
        out.append(_doubles_prompt(e.seat, e.faces))
    return out


def _doubles_prompt(seat: int, faces: Sequence[str]) -> Feedback:
    return Feedback(
        seat,
        f"Seat {seat}: doubles ({faces[0]})! PREV/NEXT picks a die and OK rerolls it; "
        "OK with no die picked keeps them",
    )


def _rerolled(a: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RerollDone)
    if not e.rerolled:
        text = f"Seat {e.seat} keeps both dice: {_pair(e.faces)}"
    else:
        dice = "both dice" if len(e.rerolled) == 2 else f"die {e.rerolled[0]}"
        extra = " (doubles reroll)" if e.doubles_reroll else ""
        text = f"Seat {e.seat} rerolls {dice}{extra}: now {_pair(e.faces)}"
    out = [Feedback(e.seat, text)]
    if e.doubles:
        out.append(_doubles_prompt(e.seat, e.faces))
    return out


def _declined(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, DoublesDeclined)
    return [Feedback(e.seat, f"Seat {e.seat} keeps its doubles")]


def _card_played(a: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, CardPlayed)
    if not e.card.is_zero:
        return []
    trick = a.engine.round.trick
    zeros = sum(1 for _, c in trick if c.is_zero) if trick else 0
    # Events are read after the action: a finished trick is already cleared.
    if zeros == 1:
        return [Feedback(e.seat, f"Seat {e.seat} plays a zero: first zero, colours lapse")]
    if zeros == 2:
        return [Feedback(e.seat, f"Seat {e.seat} plays the second zero: it takes the trick")]
    return []


def _trick_won(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, TrickWon)
    zeros = sum(1 for _, c in e.cards if c.is_zero)
    if zeros >= 2:
        why = "second zero wins the trick"
    elif zeros == 1:
        why = "first zero: colours lapse, the highest number wins"
    else:
        why = "best colour (yellow > green > blue > lilac), highest number"
    return [
        Feedback(
            e.seat,
            f"Seat {e.seat} wins trick {e.trick} ({e.points} points): {why}",
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    ]


def _stock_won(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, StockWon)
    return [
        Feedback(
            e.seat,
            f"Seat {e.seat} wins the stock ({e.cards} face-down cards): the second zero wins "
            "the trick and the stock",
            MessageKind.WON,
            Cue.TRICK_WON,
        )
    ]


def _round_scored(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundScored)
    if e.trendy:
        trendy = ", ".join(f"{g} {e.genre_totals[g]}" for g in e.trendy)
        earners = [s for s, t in enumerate(e.tokens) if t]
        got = ", ".join(f"seat {s} +{e.tokens[s]}" for s in earners) or "nobody"
        text = f"Round {e.round}: trendy (120+): {trendy}. Tokens: {got}"
    else:
        earners = []
        text = f"Round {e.round}: no genre reached 120, so no tokens"
    if e.stock_winner is not None:
        text += f". Stock ({e.stock_value} points) to seat {e.stock_winner}"
    out = [Feedback(None, text, MessageKind.WON)]
    out += [Feedback(s, None, cue=Cue.TRICK_WON) for s in earners]
    return out


def _rerolls_due(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RerollsDue)
    most = ", ".join(str(s) for s in e.most)
    parts = [f"most points (seat {most}) reroll both"]
    if e.fewest:
        parts.append(f"fewest (seat {', '.join(str(s) for s in e.fewest)}) none, one or both")
    parts.append("the rest none or one")
    first = e.order[0]
    return [
        Feedback(None, "Rerolls: " + "; ".join(parts)),
        Feedback(first, f"Seat {first}: PREV/NEXT choose dice to reroll, OK rolls them"),
    ]


def _round_started(a: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, RoundStarted)
    engine = a.engine
    text = (
        f"Round {e.round}: seat {e.dealer} deals {engine.hand_size} cards each, "
        f"{stock_size(engine.players)} face down as the stock; seat {e.lead} leads"
    )
    return [Feedback(None, text)]


def _game_over(_: OskarAdapter, e: Event) -> list[Feedback]:
    assert isinstance(e, GameOver)
    who = ", ".join(f"seat {s}" for s in e.winners)
    verb = "wins" if len(e.winners) == 1 else "share the victory"
    tokens = max(e.totals)
    return [Feedback(s, None, cue=Cue.TRICK_WON) for s in e.winners] + [
        Feedback(None, f"Game over: {who} {verb} with {tokens} Oskar tokens", MessageKind.WON)
    ]


_FEEDBACK = {
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
