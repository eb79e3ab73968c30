"""A score sheet a person can read, made from an engine's replay report.

The sheet is written through a ``Presenter``: in the reader's language, seats
counted from 1 (the record and ``--json`` keep the format's 0-based seats),
numbers written the language's way. ``render(engine)`` without a presenter is
the English sheet.

A record numbers its players 0..n-1 whichever seats they sat at; ``replay``
names player N "Seat N+1" (the record has no seating). Whoever knows where the
players sat (the kiosk, the hub, from the journal) passes the seating, and the
sheet names each player by the table's seat, as the screens and the history do.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace

from controller.games import spec_of
from controller.games.base import JSON, Engine, TableError
from controller.games.words import (
    Items,
    Player,
    Seat,
    Text,
    Verbatim,
    Words,
    as_arg,
    say,
    say_plural,
)
from controller.words import Presenter
from controller.words.terminal import columns, pad

ENGLISH = Presenter()


def waiting_for(who: Seat | Player, expects: str) -> Text:
    """ "Waiting for Seat 3 to bid": what the unfinished game waits for, in words."""
    sentences: dict[str, Text] = {
        "play": say("Waiting for {seat} to play a card", seat=who),
        "place": say("Waiting for {seat} to place a card", seat=who),
        "lead": say("Waiting for {seat} to choose who leads", seat=who),
        "bid": say("Waiting for {seat} to bid", seat=who),
        "trump": say("Waiting for {seat} to choose trump", seat=who),
        "dice": say("Waiting for {seat} to roll the dice", seat=who),
        "reroll": say("Waiting for {seat} to reroll a die", seat=who),
        "draw": say("Waiting for {seat} to draw", seat=who),
        "reveal": say("Waiting for {seat} to reveal a card", seat=who),
        "tribe": say("Waiting for {seat} to place a tribe card", seat=who),
        "result": say("Waiting for {seat} to enter a result", seat=who),
        "counts": say("Waiting for {seat} to enter the counts", seat=who),
        "timed": say("Waiting for {seat} to enter a time", seat=who),
        "replay": say("Waiting for {seat} to play again", seat=who),
        "pass": say("Waiting for {seat} to pass", seat=who),
        "keep": say("Waiting for {seat} to choose what to keep", seat=who),
        "challenge": say("Waiting for {seat} to challenge", seat=who),
    }
    return sentences.get(
        expects, say("Waiting for {seat}: {action}", seat=who, action=Verbatim(expects))
    )


def render(engine: Engine, present: Presenter = ENGLISH, seats: Sequence[int] = ()) -> str:
    """The report as a fixed-width table: rows per round, totals and winners.

    Written for people: seats are numbered from 1 (the record and ``--json``
    keep the format's 0-based seats) and each round's other facts are in words.
    ``seats[p]`` is the table's seat (0-based) where player ``p`` sat, when known:
    the sheet then names that seat, as the table's screens did.
    """
    if present.game_id is None:
        # The game's cards in its own words ("Red 7", "3 of tribe 2"), whoever asked for the sheet.
        present = replace(present, game_id=engine.game_id)
    if seats:
        present = replace(present, players=tuple(seats))
    report = engine.report()
    rows: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    for number, round_ in enumerate(report["rounds"], start=1):
        rows.append(
            (present(say("Round {number}", number=number)), _cells(present, round_["scores"]))
        )
        rows += [
            ("  " + present(label), [present(c) for c in cells])
            for label, cells in engine.sheet_rows(round_)
        ]
        notes += [
            present(say("Round {number}: {note}", number=number, note=as_arg(note)))
            for note in engine.sheet_notes(round_)
        ]
    rows.append((present(say("Total")), _cells(present, report["totals"])))
    header = [present.player(p) for p in range(engine.players)]
    width = max(columns(cell) for _, cells in [("", header), *rows] for cell in cells) + 2
    label_width = max(columns(label) for label, _ in rows) + 1

    def line(label: str, cells: list[str]) -> str:
        return pad(label, label_width) + "".join(pad(cell, width, right=True) for cell in cells)

    out = [present(_heading(engine, finished=bool(report["finished"])))]
    # A game outside the registry (a test's toy engine) names no variant.
    with contextlib.suppress(TableError, KeyError):
        variant = spec_of(engine.game_id).variant_words(engine.header()["options"])
        out.append(present(say("Variant: {variant}", variant=as_arg(variant))))
    out.append(line("", header))
    out += [line(label, cells) for label, cells in rows]
    out += notes
    winners = Items(tuple(Player(p) for p in report["winners"]))
    if report.get("ended") == "early":
        out.append(
            present(say("Ended early by staff: the points stand as they are and the leaders win"))
        )
    if report["finished"]:
        if len(report["winners"]) == 1:
            out.append(present(say("Winner: {seats}", seats=winners)))
        else:
            out.append(present(say("Shared victory: {seats}", seats=winners)))
    else:
        out.append(present(say("Leading: {seats}", seats=winners)))
        if report["next"] is not None:
            expected = report["next"]
            who = Player(int(expected["seat"]))
            out.append(present(waiting_for(who, str(expected["expects"]))))
    return "\n".join(out) + "\n"


def _heading(engine: Engine, *, finished: bool) -> Words:
    title, count = Verbatim(engine.title), engine.players
    if finished:
        return say_plural(
            "{game} - {n} player - finished", "{game} - {n} players - finished", count, game=title
        )
    return say_plural(
        "{game} - {n} player - not finished",
        "{game} - {n} players - not finished",
        count,
        game=title,
    )


def _cells(present: Presenter, values: list[int]) -> list[str]:
    return [present.number(v) for v in values]


def report_json(engine: Engine) -> JSON:
    """The replay command's ``--json`` object, keys in the spec's order."""
    report = engine.report()
    out: JSON = {
        "game": engine.game_id,
        "players": engine.players,
        "finished": report["finished"],
        "rounds": report["rounds"],
        "totals": report["totals"],
        "winners": report["winners"],
        "next": report["next"],
    }
    # A game staff ended early (oh-pshaw's ``end`` action) says so; others have no such key.
    if "ended" in report:
        out["ended"] = report["ended"]
    return out
