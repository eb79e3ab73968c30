"""A score sheet a person can read, made from an engine's replay report."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from controller.games import spec_of
from controller.games.base import JSON, Engine, TableError


def render(engine: Engine) -> str:
    """The report as a fixed-width table: rows per round, totals and winners."""
    report = engine.report()
    rows: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    for number, round_ in enumerate(report["rounds"], start=1):
        rows.append((f"Round {number}", [str(v) for v in round_["scores"]]))
        rows += [(f"  {label}", cells) for label, cells in engine.sheet_rows(round_)]
        for key, value in round_.items():
            per_seat = isinstance(value, list) and len(value) == engine.players
            if key == "scores" or (per_seat and key != "reneges") or value in (None, [], {}):
                continue
            notes.append(f"Round {number} {key}: {_words(value)}")
    rows.append(("Total", [str(v) for v in report["totals"]]))
    header = [f"Seat {s}" for s in range(engine.players)]
    width = max(len(cell) for _, cells in [("", header), *rows] for cell in cells) + 2
    label_width = max(len(label) for label, _ in rows) + 1

    def line(label: str, cells: list[str]) -> str:
        return f"{label:<{label_width}}" + "".join(cell.rjust(width) for cell in cells)

    status = "finished" if report["finished"] else "not finished"
    out = [f"{engine.title} - {engine.players} players - {status}"]
    # A game outside the registry (a test's toy engine) names no variant.
    with contextlib.suppress(TableError, KeyError):
        out.append(f"Variant: {spec_of(engine.game_id).variant(engine.header()['options'])}")
    out.append(line("", header))
    out += [line(label, cells) for label, cells in rows]
    out += notes
    winners = ", ".join(f"seat {s}" for s in report["winners"])
    if report.get("ended") == "early":
        out.append("Ended early by staff: the points stand as they are and the leaders win")
    if report["finished"]:
        out.append(("Winner: " if len(report["winners"]) == 1 else "Shared victory: ") + winners)
    else:
        out.append(f"Leading: {winners}")
        if report["next"] is not None:
            out.append(f"Waiting for seat {report['next']['seat']} to {report['next']['expects']}")
    return "\n".join(out) + "\n"


def _words(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items())
    return json.dumps(value)


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
