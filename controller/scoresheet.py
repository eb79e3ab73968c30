"""A score sheet a person can read, made from an engine's replay report."""

from __future__ import annotations

from controller.games.base import JSON, Engine, seat_name


def render(engine: Engine) -> str:
    """The report as a fixed-width table: rows per round, totals and winners.

    Written for people: seats are numbered from 1 (the record and ``--json``
    keep the format's 0-based seats) and each round's other facts are in words.
    """
    report = engine.report()
    rows: list[tuple[str, list[str]]] = []
    notes: list[str] = []
    for number, round_ in enumerate(report["rounds"], start=1):
        rows.append((f"Round {number}", [str(v) for v in round_["scores"]]))
        rows += [(f"  {label}", cells) for label, cells in engine.sheet_rows(round_)]
        notes += [f"Round {number}: {note}" for note in engine.sheet_notes(round_)]
    rows.append(("Total", [str(v) for v in report["totals"]]))
    header = [seat_name(s).capitalize() for s in range(engine.players)]
    width = max(len(cell) for _, cells in [("", header), *rows] for cell in cells) + 2
    label_width = max(len(label) for label, _ in rows) + 1

    def line(label: str, cells: list[str]) -> str:
        return f"{label:<{label_width}}" + "".join(cell.rjust(width) for cell in cells)

    status = "finished" if report["finished"] else "not finished"
    out = [f"{engine.title} - {engine.players} players - {status}", line("", header)]
    out += [line(label, cells) for label, cells in rows]
    out += notes
    winners = ", ".join(seat_name(s) for s in report["winners"])
    if report["finished"]:
        out.append(("Winner: " if len(report["winners"]) == 1 else "Shared victory: ") + winners)
    else:
        out.append(f"Leading: {winners}")
        if report["next"] is not None:
            expected = report["next"]
            out.append(f"Waiting for {seat_name(expected['seat'])} to {expected['expects']}")
    return "\n".join(out) + "\n"


def report_json(engine: Engine) -> JSON:
    """The replay command's ``--json`` object, keys in the spec's order."""
    report = engine.report()
    return {
        "game": engine.game_id,
        "players": engine.players,
        "finished": report["finished"],
        "rounds": report["rounds"],
        "totals": report["totals"],
        "winners": report["winners"],
        "next": report["next"],
    }
