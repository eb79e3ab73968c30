"""Oh Pshaw's scoring: a round's score, its outcomes, its report and the score sheet.

``standard``: an exact bid scores 10 + bid, else 0. ``mild``: 1 per trick plus
10 for an exact bid. ``round_winner_bonus``: 10 more to the round's highest
scorer(s) above 0, never to a seat with a proven renege, whose round scores
0 minus ``renege_penalty``. A tie-break round scores the tied seats only.
"""

from __future__ import annotations

from controller.games.base import JSON
from controller.games.oh_pshaw.cards import NAME_OF, SUIT_NAMES, SUITS
from controller.games.oh_pshaw.events import BidOutcome, BidStatus
from controller.games.oh_pshaw.options import Options
from controller.games.oh_pshaw.state import RoundState
from controller.games.words import Card, Player, Text, Words, say, say_plural


def score(rnd: RoundState, options: Options, final: bool) -> list[int]:
    """The round's scores: final ones, or the running ones of a round in progress."""
    if rnd.scores is not None:
        return rnd.scores
    opts = options
    reneged = rnd.reneged
    scoring = rnd.scoring_seats
    scores: list[int] = []
    for seat in range(rnd.players):
        won, bid = rnd.tricks[seat], rnd.bids[seat]
        if seat in reneged:
            scores.append(-opts.renege_penalty)
            continue
        if scoring is not None and seat not in scoring:
            # A tie-break round: this seat only plays along (a renege still costs).
            scores.append(0)
            continue
        exact = final and won == bid
        if opts.scoring == "mild":
            scores.append(won + (10 if exact else 0))
        else:
            scores.append(10 + won if exact else 0)
    if final and opts.round_winner_bonus:
        able = [
            s for s in range(rnd.players) if s not in reneged and (scoring is None or s in scoring)
        ]
        top = max((scores[s] for s in able), default=0)
        if top > 0:
            for seat in able:
                if scores[seat] == top:
                    scores[seat] += 10
    return scores


def outcomes(rnd: RoundState) -> tuple[BidOutcome, ...]:
    """How each seat's round went: its bid made, missed, or a proven renege."""
    reneged = rnd.reneged
    return tuple(
        BidOutcome.RENEGED
        if seat in reneged
        else BidOutcome.MADE
        if rnd.tricks[seat] == rnd.bids[seat]
        else BidOutcome.MISSED
        for seat in range(rnd.players)
    )


def round_json(rnd: RoundState, options: Options) -> JSON:
    out: JSON = {
        "scores": score(rnd, options, final=False),
        "bids": list(rnd.bids),
        "tricks": list(rnd.tricks),
        "trump": None if rnd.trump is None else SUITS[rnd.trump],
        "hand_size": rnd.hand_size,
        "dealer": rnd.dealer,
        "turned": None if rnd.turned is None else NAME_OF[rnd.turned],
        "status": rnd.status(),
        "reneges": [{"seat": s, "trick": t} for s, t in rnd.reneges],
    }
    if rnd.tie_break:
        out["tie_break"] = True
        out["tied"] = list(rnd.scoring_seats or ())
    return out


def sheet_rows(round_report: JSON) -> list[tuple[Words, list[Words]]]:
    bids: list[Words] = ["-" if b is None else str(b) for b in round_report["bids"]]
    tricks: list[Words] = [str(t) for t in round_report["tricks"]]
    return [(say("bid"), bids), (say("tricks won"), tricks)]


def unfinished(round_report: JSON) -> bool:
    """Whether a round of the report was not played out (tricks left): cut short or in progress."""
    return bool(sum(round_report["tricks"]) < round_report["hand_size"])


def points_as_they_stand(scoring: str, last_round: JSON | None) -> Text:
    """The ruling for "die Punkte so wie sie stehen" after an early end, given the last round.

    A round not played out counts what its running score shows: under ``mild`` the
    tricks taken so far, under ``standard`` nothing, with no bid judged (made or
    missed) and no round-winner bonus; a proven renege still costs its penalty.
    """
    if last_round is None or not unfinished(last_round):
        return say("every round played is scored")
    if scoring == "mild":
        return say("it counts 1 a trick taken, no bid judged")
    return say("it counts 0, no bid judged")


def sheet_notes(round_report: JSON) -> list[Words]:
    size = round_report["hand_size"]
    notes: list[Words] = [
        say_plural(
            "{n} card each, dealt by {dealer}",
            "{n} cards each, dealt by {dealer}",
            size,
            dealer=Player(round_report["dealer"]),
        )
    ]
    trump = round_report["trump"]
    suit = None if trump is None else SUIT_NAMES[SUITS.index(trump)]
    turned = round_report["turned"]
    if suit is not None and turned is not None:
        notes.append(say("Trump: {suit} (turned card {card})", suit=suit, card=Card(turned)))
    elif suit is not None:
        notes.append(say("Trump: {suit}", suit=suit))
    status = round_report["status"]
    if status is not None:
        notes.append(
            say_plural(
                "The bids total {total} for {n} trick: {status}",
                "The bids total {total} for {n} tricks: {status}",
                size,
                total=sum(round_report["bids"]),
                status=BidStatus(status).word,
            )
        )
    notes += [
        say("{player} reneged in trick {trick}", player=Player(r["seat"]), trick=r["trick"])
        for r in round_report["reneges"]
    ]
    if round_report.get("tie_break"):
        notes.append(say("A tie-break round"))
    return notes
