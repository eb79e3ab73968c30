"""FleetReporter: a table's views become state, events and alerts (no network needed)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from controller.fleet.reporter import FleetReporter
from controller.view import GameChoice, Screen, SeatView, TableView


class FakeLink:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def publish_state(self, state: dict[str, Any]) -> None:
        self.calls.append(("state", state))

    def event(self, kind: str, **data: Any) -> None:
        self.calls.append(("event", {"kind": kind, **data}))

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None:
        self.calls.append(("alert", {"id": alert_id, "kind": kind, "seat": seat, "text": text}))

    def kinds(self) -> list[str]:
        return [c[1]["kind"] if c[0] != "state" else "state" for c in self.calls]


FACTS: dict[str, Any] = {
    "waiting": [2],
    "totals": [3, 1, 0],
    "round_number": 2,
    "decks": {"oskar": (38, 38)},
}


def view(version: int, screen: Screen, **changes: Any) -> TableView:
    seats = tuple(SeatView(seat=i, joined=True, player=i) for i in range(3))
    base = TableView(
        version=version,
        screen=screen,
        seats=seats,
        game_id="oskar",
        games=(GameChoice("oskar", "Oskar", 3, 6),),
    )
    return replace(base, **changes)


def test_a_game_start_change_and_end_are_reported_once_each() -> None:
    link = FakeLink()
    reporter = FleetReporter(link, now=lambda: "2026-11-30T20:00:00+00:00")
    reporter.observe(view(1, Screen.JOIN), **FACTS)
    reporter.observe(view(2, Screen.PLAY), **FACTS)
    reporter.observe(view(2, Screen.PLAY), **FACTS)  # the same version: nothing new
    reporter.observe(view(3, Screen.RESULTS, result={"totals": [7, 2, 1], "winners": [0]}), **FACTS)
    assert link.kinds() == ["state", "game-started", "state", "game-finished", "state"]
    state = link.calls[2][1]
    assert state["title"] == "Oskar" and state["waiting_for"] == [3] and state["round"] == 2
    assert state["game_started"] == "2026-11-30T20:00:00+00:00"
    assert state["seats"][0]["seat"] == 1 and state["decks"] == {"oskar": [38, 38]}
    assert link.calls[3][1]["winners"] == [1]  # seats as people count them


def test_a_reader_going_offline_raises_an_alert_and_coming_back_an_event() -> None:
    link = FakeLink()
    reporter = FleetReporter(link)
    playing = view(1, Screen.PLAY)
    reporter.observe(playing, **FACTS)
    seats = list(playing.seats)
    seats[1] = replace(seats[1], reader_online=False)
    reporter.observe(replace(playing, version=2, seats=tuple(seats)), **FACTS)
    seats[1] = replace(seats[1], reader_online=True)
    reporter.observe(replace(playing, version=3, seats=tuple(seats)), **FACTS)
    kinds = link.kinds()
    assert kinds.count("reader-offline") == 2  # the event and the alert
    assert "reader-back" in kinds
    alert = next(c[1] for c in link.calls if c[0] == "alert")
    assert alert["seat"] == 1 and "Seat 2's reader" in alert["text"]
    offline_state = [c[1] for c in link.calls if c[0] == "state"][1]
    assert offline_state["readers_offline"] == [2]


def test_a_new_version_that_changes_nothing_the_hub_shows_sends_no_state() -> None:
    link = FakeLink()
    reporter = FleetReporter(link)
    # The attract screen's showcase turns a page: a new version, the same state.
    reporter.observe(view(1, Screen.ATTRACT, game_id=None), **FACTS)
    reporter.observe(view(2, Screen.ATTRACT, game_id=None), **FACTS)
    reporter.observe(view(3, Screen.ATTRACT, game_id=None), **FACTS)
    assert link.kinds() == ["state"]
    reporter.observe(view(4, Screen.CHOOSE_GAME, game_id=None), **FACTS)
    assert link.kinds() == ["state", "state"]
    menu = link.calls[1][1]
    assert menu["version"] == 4 and menu["screen"] == Screen.CHOOSE_GAME.value
