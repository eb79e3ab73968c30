"""Oshaka Trick's scoring: forced penalties, a round's score and report, the score sheet.

A won card smaller than the top face-up card of its colour is a forced Oshaka
penalty (minus its number); in round 2 so is a card of a fourth colour once
the seat shows face-up cards of three colours. A round scores the top card of
each face-up column, -1 per face-down card and minus the number of each Oshaka
penalty (``SeatArea.score``).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import JSON
from controller.games.oshaka_trick.cards import Card
from controller.games.oshaka_trick.state import RoundState
from controller.games.words import Player, Text, Words, say


def forced_reason(rnd: RoundState, seat: int, card: Card) -> Text | None:
    """Why ``card`` would be a forced Oshaka penalty for ``seat`` in ``rnd`` now, or None."""
    area = rnd.areas[seat]
    column = area.columns.get(card.colour)
    if column and card.number < column[-1].number:
        return say(
            "{card} is smaller than {top}, the top of {player}'s {colour} column",
            card=card.words,
            top=column[-1].words,
            player=Player(seat),
            colour=card.colour_name,
        )
    if rnd.number == 2 and not column and len(area.columns) >= 3:
        return say(
            "{card} would be a fourth colour, and in round 2 a fourth colour cannot score",
            card=card.words,
        )
    return None


def totals(rounds: Sequence[RoundState], players: int) -> list[int]:
    """Each seat's total over ``rounds`` (the rounds the report shows)."""
    out = [0] * players
    for rnd in rounds:
        for seat, area in enumerate(rnd.areas):
            out[seat] += area.score()
    return out


def round_json(rnd: RoundState) -> JSON:
    """One round of the report: scores, face-up columns, penalties, Oshaka cards, reneges."""
    return {
        "scores": [area.score() for area in rnd.areas],
        "columns": [area.columns_json() for area in rnd.areas],
        "penalties": [len(area.face_down) for area in rnd.areas],
        "oshaka": [[str(c) for c in area.oshaka] for area in rnd.areas],
        "reneges": [{"seat": s, "trick": t} for s, t in rnd.reneges],
    }


def sheet_rows(round_report: JSON) -> list[tuple[Words, list[Words]]]:
    """The score sheet's rows for one round of the report: column tops, face down, Oshaka."""
    # Column tops in the record's short notation ("R7 B3"): a sheet cell has no room
    # for "Red 7, Blue 3 and Green 5", and the notation is printed on the cards.
    columns: list[Words] = [
        " ".join(col[-1] for col in seat.values()) or "-" for seat in round_report["columns"]
    ]
    face_down: list[Words] = [f"-{n}" if n else "-" for n in round_report["penalties"]]
    oshaka: list[Words] = [
        f"-{sum(int(c[1:]) for c in cards)}" if cards else "-" for cards in round_report["oshaka"]
    ]
    return [
        (say("column tops"), columns),
        (say("face down"), face_down),
        (say("Oshaka"), oshaka),
    ]


def sheet_notes(round_report: JSON) -> list[Words]:
    """The sentences under the sheet for one round: its proven reneges."""
    return [
        say("{player} reneged in trick {trick}", player=Player(r["seat"]), trick=r["trick"])
        for r in round_report["reneges"]
    ]
