"""Oskar's dice: faces, rolls, and the reroll rule after a round.

Every seat shows two genre dice. After a round the seats with the most points
must reroll both, the fewest may reroll none, one or both, the rest none or
one; doubles allow one extra reroll of one die. Chance is drawn only from an
injected ``random.Random``: ``dice_action`` and ``reroll_action`` are the
outcomes of a seat's decision to roll (``RollRequest``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from controller.games.base import (
    MalformedAction,
    describe,
)
from controller.games.interned import Interned
from controller.games.oskar.actions import Reroll, RollDice
from controller.games.oskar.snapshot import GENRES
from controller.games.words import Player, Text, Verbatim, say, say_plural

# --- dice ----------------------------------------------------------------------


def check_face(value: object) -> str:
    """A die face from a record (any letter case), or MalformedAction naming the faces."""
    if type(value) is str and value in _FACES:
        return value  # already as the record writes it (every die of a virtual roll)
    if isinstance(value, str) and value.strip().lower() in GENRES:
        return value.strip().lower()
    raise MalformedAction(
        say(
            "{value} is not a die face; the faces are {faces}",
            value=Verbatim(describe(value)),
            faces=Verbatim(", ".join(GENRES)),
        )
    )


_FACES: frozenset[str] = frozenset(GENRES)


def check_faces(value: object) -> tuple[str, str]:
    """The two faces a seat shows, from a record's ``dice`` list."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise MalformedAction(
            say(
                '"dice" must list the two faces showing, not {value}',
                value=Verbatim(describe(value)),
            )
        )
    return check_face(value[0]), check_face(value[1])


def roll(rng: random.Random, n: int) -> list[str]:
    """Roll ``n`` genre dice with the injected generator (the table's virtual roller)."""
    return [rng.choice(GENRES) for _ in range(n)]


class RerollLimit(StrEnum):
    """Why a seat may reroll the dice it may: the rulebook's group, or an open doubles offer."""

    MOST = "most"  # the most points after the round: must reroll both dice
    FEWEST = "fewest"  # the fewest points: none, one or both
    REST = "rest"  # everyone else: none or one
    DOUBLES = "doubles"  # rolled doubles just now: exactly one die, or keep them

    @property
    def counts(self) -> frozenset[int]:
        """The numbers of dice a seat with this limit may reroll."""
        return _LIMIT_COUNTS[self]


_LIMIT_COUNTS: Mapping[RerollLimit, frozenset[int]] = {
    RerollLimit.MOST: frozenset({2}),
    RerollLimit.FEWEST: frozenset({0, 1, 2}),
    RerollLimit.REST: frozenset({0, 1}),
    RerollLimit.DOUBLES: frozenset({1}),
}


@dataclass(frozen=True)
class RerollRefused:
    """A reroll of ``count`` dice the rules refuse ``seat``, and the rule that refuses it."""

    seat: int
    count: int
    limit: RerollLimit

    @property
    def words(self) -> Text:
        """The refusal as a whole sentence (what a record's refused line says)."""
        player, count = Player(self.seat), self.count
        if self.limit is RerollLimit.MOST:
            return say_plural(
                "{player} must reroll both dice (most points), not reroll {n} die",
                "{player} must reroll both dice (most points), not reroll {n} dice",
                count,
                player=player,
            )
        if self.limit is RerollLimit.FEWEST:
            return say_plural(
                "{player} may reroll none, one or both dice (fewest points), not reroll {n} die",
                "{player} may reroll none, one or both dice (fewest points), not reroll {n} dice",
                count,
                player=player,
            )
        if self.limit is RerollLimit.DOUBLES:
            return say(
                "{player} rolled doubles and may reroll exactly one die, not {count}",
                player=player,
                count=count,
            )
        return say_plural(
            "{player} may reroll at most one die, not reroll {n} die",
            "{player} may reroll at most one die, not reroll {n} dice",
            count,
            player=player,
        )


@dataclass(frozen=True)
class RerollRule:
    """Who rerolls after a round, in which order, and how many dice each may reroll."""

    order: tuple[int, ...]
    most: tuple[int, ...]
    fewest: tuple[int, ...]
    limits: tuple[RerollLimit, ...]  # per seat: its group, which says how many dice

    @property
    def allowed(self) -> tuple[frozenset[int], ...]:
        """Per seat: the permitted numbers of dice rerolled."""
        return tuple(limit.counts for limit in self.limits)

    def refuse_count(self, seat: int, count: int) -> Text:
        """Why ``seat`` may not reroll ``count`` dice, as a whole sentence."""
        return RerollRefused(seat, count, self.limits[seat]).words


def reroll_rule(points: Sequence[int], start: int) -> RerollRule:
    """The rulebook's reroll order and allowances for a round's points.

    Ties in the most (or fewest) points put every tied seat in that group;
    with every seat tied all of them have the most. Within a group seats go
    in seat order from ``start``, the round's start player.
    """
    players = len(points)
    seating = [(start + i) % players for i in range(players)]
    top, low = max(points), min(points)
    most = tuple(s for s in seating if points[s] == top)
    fewest = tuple(s for s in seating if points[s] == low and s not in most)
    rest = tuple(s for s in seating if s not in most and s not in fewest)
    limits = []
    for seat in range(players):
        if seat in most:
            limits.append(RerollLimit.MOST)
        elif seat in fewest:
            limits.append(RerollLimit.FEWEST)
        else:
            limits.append(RerollLimit.REST)
    return RerollRule(most + fewest + rest, most, fewest, tuple(limits))


@dataclass(frozen=True)
class RollRequest:
    """A seat's decision to roll: which of its dice (0, 1), both for the opening roll.

    Not a line of the record: the record holds the chance outcome drawn for it
    (``RollDice`` or ``Reroll``, by ``Oskar.roll_outcome``), as the game-record
    spec defines those verbs. A person who rolls physical dice reports the
    outcome instead (the same actions, faces entered by hand).
    """

    seat: int
    dice: tuple[int, ...]


def dice_action(rng: random.Random, seat: int) -> RollDice:
    """The ``dice`` action of a seat rolling both dice on the virtual roller."""
    first, second = roll(rng, 2)
    return RollDice(seat, (first, second))


def reroll_action(
    rng: random.Random, seat: int, current: Sequence[str], which: Sequence[int]
) -> Reroll:
    """The ``reroll`` action of a seat rerolling the dice ``which`` (0, 1) of ``current``."""
    chosen = tuple(sorted(set(which)))
    if any(index not in (0, 1) for index in chosen):
        raise ValueError(f"dice are numbered 0 and 1, not {list(which)}")
    faces = list(current)
    for index in chosen:
        faces[index] = roll(rng, 1)[0]
    return Reroll(seat, chosen, (faces[0], faces[1]))


def all_rerolls(seat: int, current: tuple[str, str], count: int) -> tuple[Reroll, ...]:
    """Every reroll of ``count`` dice from ``current`` (faces of rerolled dice vary).

    Built once per seat, faces and count: actions are frozen values, and legal
    actions after every round list the same few dozen of them again.
    """
    key = (seat, current, count)
    found = _REROLLS.get(key)
    if found is not None:
        return found
    if count == 0:
        made = [Reroll(seat, (), current)]
    elif count == 1:
        made = [Reroll(seat, (0,), (face, current[1])) for face in GENRES] + [
            Reroll(seat, (1,), (current[0], face)) for face in GENRES
        ]
    else:
        made = [Reroll(seat, (0, 1), (a, b)) for a in GENRES for b in GENRES]
    found = _REROLLS[key] = tuple(made)
    return found


_REROLLS: Interned[tuple[int, tuple[str, str], int], tuple[Reroll, ...]] = Interned()
