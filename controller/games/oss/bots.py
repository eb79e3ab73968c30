"""A bot for Oss, and the simulated dexterity that plays its tricks.

The table cannot throw jacks for a bot, so a bot's hands are simulated: each bot
has a ``skill`` in 0..1 and the outcome of every attempt is drawn from the
skills with an injected ``random.Random`` (:func:`simulate_result`). The bot's
own decisions (which tribe card below which trick, whether to buy a replay,
which duel card to keep) weigh the points at stake against those same odds.

:func:`play_out` runs a whole game with bots in every seat: chance actions come
from :func:`controller.games.oss.engine.chance_action`, results from
:func:`simulate_result`, decisions from the bots. The kiosk's simulated game and
the tests use it; a seed gives the same game every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.games.base import Action
from controller.games.oss.engine import (
    FAILED,
    MAX_COUNT,
    MOST_JACKS_DUELS,
    AttemptKind,
    Counts,
    Keep,
    Oss,
    Outcome,
    Pass,
    Phase,
    Replay,
    Result,
    Tribe,
    Verb,
    chance_action,
)

#: A duel's chance of a tie (it restarts), whatever the skills.
DUEL_TIE = 0.1
#: The skill a bot assumes for an opponent it knows nothing about.
AVERAGE_SKILL = 0.5


def solo_chance(skill: float, value: int) -> float:
    """The chance a player of this skill succeeds a solo trick with ``value`` jacks.

    More jacks is harder; even a perfect player fails now and then, and even a
    beginner sometimes succeeds.
    """
    skill = min(1.0, max(0.0, skill))
    return 0.05 + 0.9 * float(skill ** (value / 2.5))


def duel_chance(skill: float, other: float) -> float:
    """The chance a duelist of ``skill`` beats one of ``other``, given the duel is not a tie."""
    a, b = 0.05 + max(0.0, skill), 0.05 + max(0.0, other)
    return a / (a + b)


def simulate_result(engine: Oss, skills: Sequence[float], rng: random.Random) -> Result:
    """The ``result`` action the engine waits for, drawn from the seats' skills.

    A solo succeeds with :func:`solo_chance`; a duel ties with ``DUEL_TIE`` or
    is won by the first duelist with :func:`duel_chance`; in a challenge one
    remaining seat is eliminated, the less skilled the likelier.
    """
    phase = engine.phase
    if phase is Phase.RESULT:
        attempt = engine.current_attempt
        assert attempt is not None
        if attempt.kind is AttemptKind.SOLO:
            seat = attempt.seats[0]
            won = rng.random() < solo_chance(skills[seat], attempt.values[0])
            return Result(seat, Outcome.WON if won else Outcome.LOST)
        first, second = attempt.seats
        roll = rng.random()
        if roll < DUEL_TIE:
            return Result(first, Outcome.TIE)
        won = rng.random() < duel_chance(skills[first], skills[second])
        return Result(first, Outcome.WON if won else Outcome.LOST)
    if phase is Phase.CHALLENGE_RESULT:
        remaining = list(engine.challenge_remaining)
        weights = [1.05 - min(1.0, max(0.0, skills[s])) for s in remaining]
        return Result(rng.choices(remaining, weights)[0], Outcome.LOST)
    raise ValueError(f"oss is not waiting for a result but for {engine.expected}")


class OssBot:
    """Plays one seat's decisions: tribe cards, replays and which duel card to keep."""

    def __init__(self, rng: random.Random, skill: float) -> None:
        if not 0.0 <= skill <= 1.0:
            raise ValueError(f"a bot's skill is in 0..1, not {skill}")
        self.rng = rng
        self.skill = skill

    def choose(self, engine: Oss, seat: int) -> Action:
        """The seat's decision now: ``tribe``, ``replay``/``pass`` or ``keep``."""
        phase = engine.phase
        if phase is Phase.TRIBE:
            return self._tribe(engine, seat)
        if phase is Phase.REPLAY:
            return self._replay(engine, seat)
        if phase is Phase.KEEP:
            attempt = engine.current_attempt
            assert attempt is not None
            return Keep(seat, max(attempt.values))
        raise ValueError(
            f"seat {seat} has no decision to make: oss waits for {engine.expected} "
            "(chance and results come from chance_action and simulate_result)"
        )

    def _hold_value(self, engine: Oss, value: int) -> float:
        """What keeping a card in hand is worth: nothing in the last round."""
        if engine.round >= engine.rounds:
            return 0.0
        return 0.5 * value * solo_chance(self.skill, value)

    def _tribe(self, engine: Oss, seat: int) -> Tribe:
        hand = sorted(set(engine.hand_of(seat)))
        best: list[tuple[int, str]] = []
        best_score = float("-inf")
        for trick in engine.solo_tricks:
            below = [p for p in engine.placements if p.trick == trick]
            for value in hand:
                if len(below) == 1:
                    # Playing here starts a duel: the card values only decide the prize.
                    prize = max(value, below[0].value)
                    gain = prize * duel_chance(self.skill, AVERAGE_SKILL) * (1 - DUEL_TIE / 2)
                else:
                    gain = value * solo_chance(self.skill, value)
                score = gain - self._hold_value(engine, value)
                if score > best_score + 1e-9:
                    best, best_score = [(value, trick)], score
                elif abs(score - best_score) <= 1e-9:
                    best.append((value, trick))
        value, trick = self.rng.choice(best)
        return Tribe(seat, value, trick)

    def _replay(self, engine: Oss, seat: int) -> Action:
        attempt = engine.current_attempt
        hand = engine.hand_of(seat)
        if attempt is None or not hand:
            return Pass(seat)
        cheapest = min(hand)
        if attempt.kind is AttemptKind.SOLO:
            stake = attempt.values[0]
            chance = solo_chance(self.skill, stake)
        else:
            stake = max(attempt.values)
            chance = duel_chance(self.skill, AVERAGE_SKILL)
        if stake * chance > self._hold_value(engine, cheapest):
            return Replay(seat, cheapest)
        return Pass(seat)


class OssTableBot:
    """A simulated player at the table: the bot's decisions plus its simulated hands.

    The table asks one waiting seat at a time, so every result is the asking
    seat's own report: a solo from its skill, a duel from its side, and in a
    challenge "I won it" with its share of the chances among those still in
    (otherwise "I am out"), which gives each seat its weighted share overall.
    A "most jacks" duel is reported as counts that give the drawn outcome.
    """

    def __init__(self, rng: random.Random, skill: float) -> None:
        self.rng = rng
        self.skill = skill
        self._bot = OssBot(rng, skill)

    def choose(self, engine: Oss, seat: int) -> Action:
        phase = engine.phase
        if phase is Phase.RESULT:
            attempt = engine.current_attempt
            assert attempt is not None
            if attempt.kind is AttemptKind.SOLO:
                won = self.rng.random() < solo_chance(self.skill, attempt.values[0])
                return Result(seat, Outcome.WON if won else Outcome.LOST)
            if self.rng.random() < DUEL_TIE:
                outcome = Outcome.TIE
            else:
                won = self.rng.random() < duel_chance(self.skill, AVERAGE_SKILL)
                outcome = Outcome.WON if won else Outcome.LOST
            if engine.duel_trick in MOST_JACKS_DUELS:
                return self._counts(seat, attempt.seats, outcome)
            return Result(seat, outcome)
        if phase is Phase.CHALLENGE_RESULT:
            others = len(engine.challenge_remaining) - 1
            mine = 0.05 + self.skill
            share = mine / (mine + others * (0.05 + AVERAGE_SKILL))
            return Result(seat, Outcome.WON if self.rng.random() < share else Outcome.LOST)
        return self._bot.choose(engine, seat)

    def _counts(self, seat: int, seats: tuple[int, ...], outcome: Outcome) -> Counts:
        """Jack counts that give ``outcome`` for ``seat``, first duelist's count first."""
        mine = self.rng.randint(FAILED + 1, MAX_COUNT)
        if outcome is Outcome.TIE:
            theirs = mine
        elif outcome is Outcome.WON:
            theirs = self.rng.randint(FAILED, mine - 1)
        else:
            mine, theirs = self.rng.randint(FAILED, mine - 1), mine
        first, second = (mine, theirs) if seat == seats[0] else (theirs, mine)
        return Counts(seat, (first, second))


def play_out(
    engine: Oss, bots: Sequence[OssBot], rng: random.Random, limit: int = 10_000
) -> list[Action]:
    """Play the game to its end with a bot in every seat; return the actions applied.

    ``rng`` draws the chance actions and the attempts' results; each bot uses
    its own generator for its decisions.
    """
    if len(bots) != engine.players:
        raise ValueError(f"play_out needs {engine.players} bots, not {len(bots)}")
    skills = [bot.skill for bot in bots]
    actions: list[Action] = []
    for _ in range(limit):
        expected = engine.expected
        if expected is None:
            return actions
        action = chance_action(engine, rng)
        if action is None:
            if expected.expects == Verb.RESULT:
                action = simulate_result(engine, skills, rng)
            else:
                action = bots[expected.seat].choose(engine, expected.seat)
        engine.apply(action)
        actions.append(action)
    raise RuntimeError(f"the game did not end within {limit} actions")
