"""Results that explain (issue 13, item 5): every round on screen (merged into groups only
when they cannot fit, so the totals still add up), the winner or a shared victory, the rule
that decided it and the rows that show why, for games played through the table by bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

import display.generic
import display.results_screen
import display.scenes.oshaka_trick
import display.theme
from controller.kiosk.simulation import Simulator
from controller.view import Screen, TableView
from display.results_screen import fit_rounds
from display.screenshot import screenshot_view
from tests.rigs import TableRig
from tests.words import shown as english

Rows = Sequence[tuple[str, Sequence[int | None]]]


def test_fit_rounds_pages_every_round_and_keeps_the_sums() -> None:
    rounds = [(f"Round {i + 1}", [i, 2 * i, None]) for i in range(14)]
    assert fit_rounds(rounds, 20) == rounds
    seen: list[str] = []
    for page in range(4):  # 14 rounds, 4 a page: 4 pages
        shown = fit_rounds(rounds, 6, page)
        assert len(shown) <= 6
        for seat in range(3):  # every page adds up to the same totals
            assert sum(v[seat] or 0 for _, v in shown) == sum(v[seat] or 0 for _, v in rounds)
        seen += [english(name) for name, _ in shown if english(name).startswith("Round ")]
    assert seen == [f"Round {i + 1}" for i in range(14)]
    assert [english(n) for n, _ in fit_rounds(rounds, 6, 1)] == [
        "Rounds 1-4", "Round 5", "Round 6", "Round 7", "Round 8", "Rounds 9-14"
    ]  # fmt: skip
    assert fit_rounds(rounds, 6, 4) == fit_rounds(rounds, 6, 0)  # pages wrap round
    merged = fit_rounds(rounds, 2)  # no room for a page: groups
    assert [english(n) for n, _ in merged] == ["Rounds 1-7", "Rounds 8-14"]
    assert fit_rounds(rounds, 0) == []


def play_until(game_id: str, seats: int, done: Callable[[TableRig], bool]) -> TableRig:
    """An all-bot table walks the menu (first preset, first answer) and plays until ``done``."""
    rig = TableRig(seats, bots=seats)
    sim = Simulator(
        rig.table,
        rig.devices,
        rig.registry,
        bot_seats=set(range(seats)),
        rng=random.Random(4),
        auto_game=game_id,
    )
    rig.devices.open()
    rig.loop.drain()
    for _ in range(20_000):
        if done(rig):
            return rig
        sim.step(0.0)
        rig.loop.drain()
    raise AssertionError(f"{game_id} never got there")


def play_to_results(game_id: str, seats: int) -> TableRig:
    return play_until(game_id, seats, lambda rig: rig.table.screen is Screen.RESULTS)


def drawn_table(
    view: TableView,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int] = (800, 480),
) -> Rows:
    """Render the results at ``size`` and return the rows the score table was given."""
    seen: list[Rows] = []
    real = display.generic.draw_score_table  # what display.results_screen imported

    def spy(p: Any, rect: pygame.Rect, v: TableView, rows: Rows, **kw: Any) -> int:
        seen.append(list(rows))
        used: int = real(p, rect, v, rows, **kw)
        assert used <= rect.h  # every row given fits in the room
        assert used == display.generic.score_table_height(p, len(rows), kw.get("size", 0))
        return used

    monkeypatch.setattr(display.results_screen, "draw_score_table", spy)
    screenshot_view(view, tmp_path / "results.png", size=size)
    assert seen, "the results screen drew no score table"
    return seen[-1]


def test_oh_pshaw_results_with_seven_players_show_every_round_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = play_to_results("oh-pshaw", 7)
    with rig.devices:
        view = rig.table.view
        report = rig.table.result
        assert report is not None
        rounds = len(report["rounds"])
        seen: set[str] = set()
        for page in range(rounds):  # the pages the table turns, one after another
            # At 1280x720 the table has room for a page of rounds under the rule;
            # the 7-inch screen's 800x480 shows the rounds in two groups (below).
            paged = replace(view, results_page=page)
            rows = drawn_table(paged, tmp_path, monkeypatch, (1280, 720))
            assert [english(n) for n, _ in rows][-2:] == ["Bids made", "Total"]
            seen |= {english(n) for n, _ in rows if english(n).startswith("Round ")}
            for seat in range(7):  # the totals add up on screen, on every page
                shown = sum(v[seat] or 0 for n, v in rows if english(n).startswith("Round"))
                assert shown == rows[-1][1][seat] == report["totals"][seat]
        assert seen == {f"Round {i + 1}" for i in range(rounds)}
        made = [sum(r["bids"][s] == r["tricks"][s] for r in report["rounds"]) for s in range(7)]
        assert list(rows[-2][1]) == made
        assert english(view.result_rule).startswith("most points: taking exactly the tricks bid")
        assert english(view.game_title) == "Oh Pshaw: Quick: 1 to 7 cards"


def test_oshaka_results_explain_columns_face_down_and_oshaka(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        view = rig.table.view
        report = rig.table.result
        assert report is not None
        rows = drawn_table(view, tmp_path, monkeypatch)
        assert [english(n) for n, _ in rows][-4:] == ["Columns", "Face down", "Oshaka", "Total"]
        face_down = [sum(r["penalties"][s] for r in report["rounds"]) for s in range(4)]
        assert list(rows[-3][1]) == face_down
        assert "face-down card -1" in english(view.result_rule)


def test_a_shared_victory_is_said_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        view = rig.table.view
        assert view.result is not None
        shared = TableView(
            view.version + 1,
            Screen.RESULTS,
            view.seats,
            game_id=view.game_id,
            game=view.game,
            result={**view.result, "winners": [0, 2]},
            game_title=view.game_title,
            result_rule=view.result_rule,
        )
        texts: list[str] = []
        real = display.generic.draw_status  # what display.results_screen imported

        def spy(p: Any, rect: pygame.Rect, text: Any, *args: Any) -> int:
            texts.append(p.words(text))
            result: int = real(p, rect, text, *args)
            return result

        monkeypatch.setattr(display.results_screen, "draw_status", spy)
        screenshot_view(shared, tmp_path / "shared.png", size=(800, 480))
        assert any(t.startswith("Shared victory: ") for t in texts)


def test_the_results_pages_turn_by_themselves() -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        first = rig.table.view.results_page
        rig.table.tick(rig.now + 7.0)
        assert rig.table.view.results_page == first + 1
        rig.table.tick(rig.now + 8.0)  # not yet another page
        assert rig.table.view.results_page == first + 1


def test_oshaka_shows_round_one_scored_while_the_lead_of_round_two_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def choosing_lead(rig: TableRig) -> bool:
        game = rig.table.game
        expected = None if game is None else game.engine.expected
        return expected is not None and expected.expects == "lead"

    rig = play_until("oshaka-trick", 4, choosing_lead)
    with rig.devices:
        game = rig.table.game
        assert game is not None
        first = game.engine.report()["rounds"][0]
        seen: list[Rows] = []
        real = display.generic.draw_score_table  # what the scene imported

        def spy(p: Any, rect: pygame.Rect, v: TableView, rows: Rows, **kw: Any) -> int:
            seen.append(list(rows))
            used: int = real(p, rect, v, rows, **kw)
            return used

        monkeypatch.setattr(display.scenes.oshaka_trick, "draw_score_table", spy)
        screenshot_view(rig.table.view, tmp_path / "lead.png", size=(800, 480))
        summary = next(rows for rows in seen if english(rows[0][0]) == "Columns")
        names = [english(name) for name, _ in summary]
        assert names == ["Columns", "Face down", "Oshaka", "Round 1"]
        assert list(summary[0][1]) == [len(c) for c in first["columns"]]
        assert list(summary[1][1]) == [-n for n in first["penalties"]]
        assert list(summary[2][1]) == [len(o) for o in first["oshaka"]]
        assert list(summary[3][1]) == first["scores"]


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [("oh-pshaw", 4), ("oh-pshaw", 7), ("oshaka-trick", 4), ("oskar", 4), ("oss", 4)],
)
def test_the_score_table_keeps_readable_type_on_the_7_inch_screen(
    game_id: str, seats: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 800x480 the centre is some 170 px tall: the title and the rule give way
    # before the scores shrink below 17 (the small type there is 20).
    rig = play_to_results(game_id, seats)
    with rig.devices:
        sizes: list[int] = []
        titles: list[int] = []
        real_table = display.generic.draw_score_table
        real_heading = display.results_screen._results_heading

        def table_spy(p: Any, rect: pygame.Rect, v: TableView, rows: Rows, **kw: Any) -> int:
            sizes.append(kw["size"])
            used: int = real_table(p, rect, v, rows, **kw)
            assert used <= rect.h
            return used

        def heading_spy(p: Any, *args: Any) -> tuple[int, list[str]]:
            size, rule = real_heading(p, *args)
            titles.append(size)
            return size, rule

        monkeypatch.setattr(display.results_screen, "draw_score_table", table_spy)
        monkeypatch.setattr(display.results_screen, "_results_heading", heading_spy)
        screenshot_view(rig.table.view, tmp_path / "results.png", size=(800, 480))
        metrics = display.theme.Metrics.for_size((800, 480))
        assert sizes and min(sizes) >= 17
        assert titles == [metrics.body]  # the title stepped down to make that room


def test_a_tall_centre_keeps_the_big_title_and_the_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = play_to_results("oh-pshaw", 3)  # three seats leave the centre 312 px tall
    with rig.devices:
        chosen: list[tuple[int, list[str]]] = []
        real_heading = display.results_screen._results_heading

        def heading_spy(p: Any, *args: Any) -> tuple[int, list[str]]:
            chosen.append(real_heading(p, *args))
            return chosen[-1]

        monkeypatch.setattr(display.results_screen, "_results_heading", heading_spy)
        screenshot_view(rig.table.view, tmp_path / "results.png", size=(800, 480))
        metrics = display.theme.Metrics.for_size((800, 480))
        assert [size for size, _ in chosen] == [metrics.big]
        assert chosen[0][1], "the rule was left out of a centre with room for it"
