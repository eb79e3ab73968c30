"""Oss, the jacks dexterity game: the rules the table keeps while people throw jacks.

The players do the tricks with their hands; the engine keeps the flow and the
score. A round goes: the chief reveals three solo tricks and a duel trick;
from the chief clockwise every seat plays a tribe card below a solo trick;
the first two cards below a trick duel with the duel trick, later ones try the
trick alone; the attempts are made in turn order from the chief, with replays
bought by discarding a tribe card; then everyone attempts the challenge,
whose winner becomes the chief; then everyone draws one tribe card.

Chance enters only as actions (``hand``, ``draw``, ``reveal``, ``challenge``),
so a record replays a game exactly; :meth:`Oss.chance_actions` (the engine
contract) and :func:`chance_action` draw those actions from an injected
``random.Random`` for the table's virtual deck, the simulated game and the
tests. Every rule the table needs is here: a "most jacks" duel entered as
``counts`` is judged by the engine, which tribe a tapped card may be is
:meth:`Oss.check_tribe`, and the toss timer's times are ``timed`` actions the
engine keeps in its attempt log and bests (so an undo or a resume keeps them).
:meth:`Oss.snapshot` returns a frozen :class:`OssSnapshot`. The record verbs
are documented in ``docs/oss-records.md``.

The rules are split by concern in this folder; this module composes them:

| module | holds |
| --- | --- |
| ``cards.py`` | the tribe, trick and challenge cards and their notation |
| ``rulings.py`` | the limits and the rulings the display shows as help |
| ``actions.py`` | verbs, phases and the verbs each takes, actions and events |
| ``values.py`` | tribe cards, placements, attempts, timed tosses, round facts |
| ``state.py`` | ``OssState``: every field the phases change, and who acts next |
| ``phases.py`` | ``Phases``: each verb's handler, which checks before it changes |
| ``views.py`` | the snapshot, the replay report and the score sheet |
| ``snapshot.py`` | the snapshot's types, which the display imports |
| ``chance.py`` | hands, draws, reveals and challenges from an injected generator |

``Oss.apply`` dispatches through one table by verb, after ``PHASE_VERBS``
says the phase takes it. Oss has no fast paths.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import Any, Self

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
from controller.games.oss import cards
from controller.games.oss.actions import (
    FAILED,
    MAX_COUNT,
    MAX_TIMED_MILLIS,
    MOST_JACKS_DUELS,
    PHASE_VERBS,
    RESULTS,
    VERB_KEYS,
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
from controller.games.oss.chance import (
    chance_action,
    chance_actions,
    hands_from,
    reveal_from,
)
from controller.games.oss.options import OssOptions
from controller.games.oss.phases import (
    Phases,
)
from controller.games.oss.rulings import (
    HAND_SIZE,
    RULINGS,
    TABLE_RULINGS,
)
from controller.games.oss.snapshot import (
    AttemptView,
    ChallengeView,
    OssSnapshot,
    PlacementMode,
    PlacementView,
    SeatState,
    TableSide,
    TimerView,
    TossView,
    TrickView,
)
from controller.games.oss.values import (
    Attempt,
    Placement,
    RoundInfo,
    TimedToss,
    TribeCard,
    Won,
    require_count,
    require_trick,
    require_value,
)
from controller.games.oss.views import (
    Views,
)
from controller.games.words import Verbatim, say


class Oss(Phases, Views):
    """One game of Oss; see the module docstring and ``docs/oss-records.md``."""

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, "oss")
        chief = read_seat_key(header, "chief", players)
        return cls(players, chief, OssOptions.read(header, cls.game_id))

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        # The first chief is "the most big-boned": the table asks (the spec's starter);
        # this draw stands only when nobody answers.
        return new_header(cls, players, options, "chief", rng)

    def chance_actions(self, rng: random.Random, chance: Chance) -> list[Action]:
        # What the shuffled decks give now, worked out from the state alone (no copy
        # of the game played forward): hands or draws, then the reveal that follows
        # them (they take no trick card), or the challenge card.
        if not chance.cards:
            return []
        phase = self._phase
        dealt: list[Action] = []
        if phase is Phase.HAND:
            for seat in self._pending:
                deck = list(self.deck_of(seat))
                dealt.append(Hand(seat, tuple(sorted(rng.sample(deck, HAND_SIZE)))))
        elif phase is Phase.DRAW:
            dealt = [Draw(seat, rng.choice(self.deck_of(seat))) for seat in self._pending]
        if phase in (Phase.HAND, Phase.DRAW, Phase.REVEAL):
            dealt.append(reveal_from(self, self._chief, rng))
        elif phase is Phase.CHALLENGE:
            dealt.append(Challenge(self._chief, rng.choice(self.available_challenges())))
        return dealt

    def header(self) -> JSON:
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": self.options.changed(),
            "chief": self.first_chief,
        }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        seat, word = split_action(obj, self.players, VERB_KEYS)
        verb = Verb(word)
        payload = obj[verb]
        if verb is Verb.HAND:
            if not isinstance(payload, list) or len(payload) != HAND_SIZE:
                raise MalformedAction(
                    say(
                        '"hand" must list the {n} tribe card values in hand, not {value}',
                        n=HAND_SIZE,
                        value=Verbatim(describe(payload)),
                    )
                )
            return Hand(seat, tuple(require_value(v, "a hand card") for v in payload))
        if verb is Verb.DRAW:
            return Draw(seat, require_value(payload, '"draw"'))
        if verb is Verb.REVEAL:
            if not isinstance(payload, dict) or set(payload) != {"solo", "duel"}:
                raise MalformedAction(
                    say(
                        '"reveal" must be an object {example}',
                        example=Verbatim('{"solo": [three trick names], "duel": name}'),
                    )
                )
            solo = payload["solo"]
            if not isinstance(solo, list) or len(solo) != 3:
                raise MalformedAction(
                    say(
                        '"solo" must list three trick names, one per family, not {value}',
                        value=Verbatim(describe(solo)),
                    )
                )
            names = tuple(require_trick(name, "a solo trick") for name in solo)
            return Reveal(seat, names, require_trick(payload["duel"], "the duel trick"))
        if verb is Verb.TRIBE:
            if "trick" not in obj:
                raise MalformedAction(
                    say('a "tribe" action needs a "trick": the solo trick to play below')
                )
            return Tribe(
                seat, require_value(payload, '"tribe"'), require_trick(obj["trick"], '"trick"')
            )
        if verb is Verb.RESULT:
            if payload not in RESULTS:
                raise MalformedAction(
                    say(
                        '"result" must be "won", "lost" or "tie", not {value}',
                        value=Verbatim(describe(payload)),
                    )
                )
            return Result(seat, Outcome(payload))
        if verb is Verb.COUNTS:
            if not isinstance(payload, list) or len(payload) != 2:
                raise MalformedAction(
                    say(
                        '"counts" must list the two duelists\' counts, first duelist first, '
                        "not {value}",
                        value=Verbatim(describe(payload)),
                    )
                )
            return Counts(seat, (require_count(payload[0]), require_count(payload[1])))
        if verb is Verb.COUNT:
            if "of" not in obj:
                raise MalformedAction(
                    say('a "count" action needs "of": the duelist whose jacks were counted')
                )
            of = obj["of"]
            if isinstance(of, bool) or not isinstance(of, int) or not 0 <= of < self.players:
                raise MalformedAction(
                    say(
                        '"of" must be a seat 0..{last}, not {value}',
                        last=Verbatim(str(self.players - 1)),
                        value=Verbatim(describe(of)),
                    )
                )
            return Count(seat, of, require_count(payload))
        if verb is Verb.TIMED:
            if (
                isinstance(payload, bool)
                or not isinstance(payload, int)
                or not 0 <= payload <= MAX_TIMED_MILLIS
            ):
                raise MalformedAction(
                    say(
                        '"timed" must be a toss time in milliseconds (0..{most}), not {value}',
                        most=Verbatim(str(MAX_TIMED_MILLIS)),
                        value=Verbatim(describe(payload)),
                    )
                )
            return Timed(seat, payload)
        if verb is Verb.REPLAY:
            return Replay(seat, require_value(payload, '"replay" (the card discarded)'))
        if verb is Verb.PASS:
            if payload is not True:
                raise MalformedAction(
                    say('"pass" must be true, not {value}', value=Verbatim(describe(payload)))
                )
            return Pass(seat)
        if verb is Verb.KEEP:
            return Keep(seat, require_value(payload, '"keep"'))
        # Verb.CHALLENGE
        if not isinstance(payload, str) or cards.challenge_name(payload) is None:
            known = ", ".join(card.name for card in cards.CHALLENGES)
            raise MalformedAction(
                say(
                    "there is no challenge card called {value}; they are: {known}",
                    value=Verbatim(describe(payload)),
                    known=Verbatim(known),
                )
            )
        name = cards.challenge_name(payload)
        assert name is not None
        return Challenge(seat, name)

    def apply(self, action: Action) -> list[Event]:
        if not 0 <= action.seat < self.players:
            raise MalformedAction(
                say(
                    '"seat" must be a seat 0..{last}, not {seat}',
                    last=Verbatim(str(self.players - 1)),
                    seat=Verbatim(str(action.seat)),
                )
            )
        verb = _verb_of(action)
        if self._phase is Phase.OVER:
            raise IllegalAction(say("the game is already over; nothing more can be played"))
        if verb not in PHASE_VERBS[self._phase]:
            raise IllegalAction(self._out_of_order(action.seat, verb))
        handler = _HANDLERS[verb]
        if verb in _MEASURES:
            # A time or a confirmed count changes no turn, so the replay just refused
            # stays explained; a time is the last action until the decision it times.
            events = handler(self, action)
            if verb is Verb.TIMED:
                self._last_timed = True
            return events
        # Every handler checks everything before it changes anything, so a refused
        # action returns here with the state untouched, the last refusal included.
        events = handler(self, action)
        self._refused_replay, self._refusing = self._refusing, None
        self._last_timed = False
        return events

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self._phase
        if phase is Phase.HAND:
            if seat not in self._pending:
                return []
            return [Hand(seat, combo) for combo in hands_from(self._decks[seat])]
        if phase is Phase.DRAW:
            if seat not in self._pending:
                return []
            return [Draw(seat, v) for v in sorted(self._decks[seat])]
        if phase is Phase.REVEAL:
            if seat != self._chief:
                return []
            families = [self.available_tricks(f) for f in (1, 2, 3, cards.DUEL)]
            return [Reveal(seat, (a, b, c), d) for a, b, c, d in product(*families)]
        if phase is Phase.TRIBE:
            if seat != self._next_placer():
                return []
            return [
                Tribe(seat, v, trick) for v in sorted(self._hands[seat]) for trick in self._solo
            ]
        if phase is Phase.RESULT:
            attempt = self._attempts[self._index]
            if seat not in attempt.seats:
                return []
            if attempt.kind is AttemptKind.SOLO:
                return [Result(seat, Outcome.WON), Result(seat, Outcome.LOST)]
            results: list[Action] = [Result(seat, r) for r in RESULTS]
            if self._duel in MOST_JACKS_DUELS:
                counts = range(FAILED, MAX_COUNT + 1)
                results += [Counts(seat, (a, b)) for a in counts for b in counts]
            return results
        if phase is Phase.REPLAY:
            if seat != self._loser:
                return []
            return [Replay(seat, v) for v in sorted(self._hands[seat])] + [Pass(seat)]
        if phase is Phase.KEEP:
            if seat != self._winner:
                return []
            return [Keep(seat, v) for v in sorted(set(self._attempts[self._index].values))]
        if phase is Phase.CHALLENGE:
            if seat != self._chief:
                return []
            return [Challenge(seat, name) for name in self.available_challenges()]
        if phase is Phase.CHALLENGE_RESULT:
            if seat not in self._remaining:
                return []
            return [Result(seat, Outcome.WON), Result(seat, Outcome.LOST)]
        return []


# One dispatch for every verb: its handler, once ``PHASE_VERBS`` says the phase takes it.
_HANDLERS: Mapping[Verb, Callable[[Oss, Any], list[Event]]] = {
    Verb.HAND: Oss._hand,
    Verb.DRAW: Oss._draw,
    Verb.REVEAL: Oss._reveal,
    Verb.TRIBE: Oss._tribe,
    Verb.RESULT: Oss._result,
    Verb.COUNTS: Oss._counts,
    Verb.COUNT: Oss._count,
    Verb.TIMED: Oss._timed,
    Verb.REPLAY: Oss._replay,
    Verb.PASS: Oss._pass,
    Verb.KEEP: Oss._keep,
    Verb.CHALLENGE: Oss._reveal_challenge,
}
# Verbs that only record what the table measured or confirmed on the way to a decision.
_MEASURES: frozenset[Verb] = frozenset({Verb.TIMED, Verb.COUNT})


_VERB_OF: dict[type[Action], Verb] = {
    Hand: Verb.HAND,
    Draw: Verb.DRAW,
    Reveal: Verb.REVEAL,
    Tribe: Verb.TRIBE,
    Result: Verb.RESULT,
    Counts: Verb.COUNTS,
    Count: Verb.COUNT,
    Timed: Verb.TIMED,
    Replay: Verb.REPLAY,
    Pass: Verb.PASS,
    Keep: Verb.KEEP,
    Challenge: Verb.CHALLENGE,
}


def _verb_of(action: Action) -> Verb:
    verb = _VERB_OF.get(type(action))
    if verb is None:
        raise MalformedAction(
            say("oss does not know the action {action}", action=Verbatim(repr(action)))
        )
    return verb


__all__: Sequence[str] = (
    "FAILED",
    "HAND_SIZE",
    "MAX_COUNT",
    "MAX_TIMED_MILLIS",
    "MOST_JACKS_DUELS",
    "RESULTS",
    "RULINGS",
    "TABLE_RULINGS",
    "Attempt",
    "AttemptBegins",
    "AttemptKind",
    "AttemptView",
    "CardDrawn",
    "CardOut",
    "CardWon",
    "Challenge",
    "ChallengeRevealed",
    "ChallengeView",
    "ChallengeWon",
    "Count",
    "CountConfirmed",
    "Counts",
    "Draw",
    "DuelCounted",
    "DuelFormed",
    "DuelResult",
    "DuelTied",
    "Eliminated",
    "Hand",
    "HandRegistered",
    "Keep",
    "Oss",
    "OssOptions",
    "OssSnapshot",
    "Outcome",
    "Pass",
    "Phase",
    "Placement",
    "PlacementMode",
    "PlacementView",
    "Replay",
    "Replayed",
    "Result",
    "Reveal",
    "RoundInfo",
    "RoundScored",
    "SeatState",
    "SoloResult",
    "TableSide",
    "Timed",
    "TimedToss",
    "TimerView",
    "TossTimed",
    "TossView",
    "Tribe",
    "TribeCard",
    "TribePlayed",
    "TrickView",
    "TricksRevealed",
    "Verb",
    "Won",
    "chance_action",
    "chance_actions",
)
