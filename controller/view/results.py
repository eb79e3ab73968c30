"""The results screen's sheet: places, the winner line in words, and the rows that explain.

Plain, frozen data the table builds from a finished game's report (through the
game's ``Presentation``) and the display draws without knowing any rule: which
place each player took (ties share a place), each total with its unit ("8
tokens"), the rounds and the rows that add up to the totals, the counts that
only explain (set apart: they do not add up), and a line per round where a game
has one to say (Oskar's trends and tokens).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.games.words import Items, Player, Text, Words, as_arg, say, say_plural

Row = tuple[Words, tuple[int | None, ...]]


@dataclass(frozen=True)
class ResultSheet:
    """What the results screen shows beyond the title, one value per engine player.

    ``places`` are 1-based and shared on a tie (two seconds, then a fourth);
    ``amounts`` say each total with its ``unit``; ``rounds`` and ``addends`` are
    rows that each add up to ``totals`` (two ways of splitting the same total);
    ``counts`` are rows that explain but do not add up; ``notes`` say each
    round in words.
    """

    winner: Words
    rule: Words
    totals: tuple[int, ...]
    places: tuple[int, ...]
    amounts: tuple[Words, ...]
    unit: Words  # what the totals count, for headings ("points", "tokens")
    rounds: tuple[Row, ...] = ()
    addends: tuple[Row, ...] = ()
    counts: tuple[Row, ...] = ()
    notes: tuple[Words, ...] = ()

    def tied(self, player: int) -> bool:
        """Whether ``player`` shares its place with another player."""
        return self.places.count(self.places[player]) > 1


def places(totals: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Each player's place (1-based): the winners first, then by total, highest first.

    The engine's winners are first even where a tie-break separated equal totals
    (Oh Pshaw's extra round); among the rest an equal total shares a place and
    the next place is skipped (1, 2, 2, 4), as café score sheets count.
    """
    winning = set(winners)
    others = sorted((t for p, t in enumerate(totals) if p not in winning), reverse=True)
    out: list[int] = []
    for player, total in enumerate(totals):
        if player in winning:
            out.append(1)
        else:
            out.append(len(winning) + others.index(total) + 1)
    return tuple(out)


# Ordinal places in words; a table seats at most seven.
_PLACES: tuple[Text, ...] = (
    say("1st"),
    say("2nd"),
    say("3rd"),
    say("4th"),
    say("5th"),
    say("6th"),
    say("7th"),
)


def place_words(place: int, tied: bool) -> Words:
    """A place as a player reads it: "2nd", or "2nd (shared)" on a tie."""
    name: Text | int = _PLACES[place - 1] if 1 <= place <= len(_PLACES) else place
    return (
        say("{place} (shared)", place=name)
        if tied
        else name
        if isinstance(name, Text)
        else str(name)
    )


def points(total: int) -> Words:
    """A total in points, the unit of most games ("21 points")."""
    return say_plural("{n} point", "{n} points", total)


def build_sheet(
    report: Mapping[str, Any],
    *,
    rule: Words,
    amount: Callable[[int], Words] = points,
    unit: Words | None = None,
    best: Words | None = None,
    addends: Sequence[tuple[Words, Sequence[int]]] = (),
    counts: Sequence[tuple[Words, Sequence[int]]] = (),
    notes: Sequence[Words] = (),
) -> ResultSheet:
    """The sheet of a finished game's ``report`` (its totals, winners and rounds' scores)
    with what its game says about it: the rule, the unit, the sums and counts, the notes."""
    totals = tuple(int(t) for t in report.get("totals") or [])
    winners = [int(w) for w in report.get("winners") or [] if 0 <= int(w) < len(totals)]
    rounds = tuple(
        (say("Round {number}", number=index + 1), _scores(entry, len(totals)))
        for index, entry in enumerate(report.get("rounds") or [])
        if isinstance(entry, Mapping) and isinstance(entry.get("scores"), list)
    )
    return ResultSheet(
        winner=winner_line(totals, winners, amount, best or say("the most points")),
        rule=rule,
        totals=totals,
        places=places(totals, winners),
        amounts=tuple(amount(t) for t in totals),
        unit=unit or say("points"),
        rounds=rounds,
        addends=tuple((h, tuple(v)) for h, v in addends),
        counts=tuple((h, tuple(v)) for h, v in counts),
        notes=tuple(notes),
    )


def winner_line(
    totals: Sequence[int], winners: Sequence[int], amount: Callable[[int], Words], best: Words
) -> Words:
    """ "Seat 2 wins with 7 tokens: the most tokens"; "Seat 2 and Seat 3 share the win: 21
    points each"; or that nobody won (a game ended before any score)."""
    if not winners:
        return say("Nobody won")
    won = as_arg(amount(totals[winners[0]]))
    if len(winners) == 1:
        return say(
            "{player} wins with {amount}: {why}",
            player=Player(winners[0]),
            amount=won,
            why=as_arg(best),
        )
    return say(
        "{players} share the win: {amount} each",
        players=Items(tuple(Player(w) for w in winners)),
        amount=won,
    )


def _scores(entry: Mapping[str, Any], players: int) -> tuple[int | None, ...]:
    """A round's scores from its report entry, one per player (None where it has none)."""
    values = [v if isinstance(v, int) else None for v in entry.get("scores") or []]
    return tuple((values + [None] * players)[:players])
