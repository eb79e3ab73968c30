"""Results that explain (issue 13 item 5, issue 29 item 3): places with ties shown as ties,
totals with their unit, the winner line in words, the rule that decided it (never left out),
every round on a page a seat can turn, the rows that add up and the counts set apart, at the
legibility floor at every size, for games played through the table by bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

import display.generic
import display.scenes
import display.scenes.oshaka_trick
from controller.games.words import Verbatim, say
from controller.kiosk.simulation import Simulator
from controller.view import Screen, TableView
from controller.view.results import place_words, places
from display.renderer import Renderer
from display.results_screen import fit_rounds, places_stacked, table_size
from display.theme import Metrics, Painter
from hardware.events import Button, ReaderOffline
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


def test_places_share_a_tie_and_skip_the_next_place() -> None:
    assert places([5, 9, 7, 7, 1], [1]) == (4, 1, 2, 2, 5)
    assert places([21, 21, 3], [0, 1]) == (1, 1, 3)
    # A tie-break (Oh Pshaw's extra round) decided among equal totals: the winner is first.
    assert places([30, 30, 10], [1]) == (2, 1, 3)


@pytest.mark.parametrize("game_id", ["oh-pshaw", "oshaka-trick", "oskar", "oss"])
def test_every_games_sheet_adds_up_and_says_the_winner_in_words(game_id: str) -> None:
    rig = play_to_results(game_id, 4)
    with rig.devices:
        view = rig.table.view
        report = rig.table.result
        sheet = view.result_sheet
        assert report is not None and sheet is not None
        totals = report["totals"]
        assert list(sheet.totals) == totals
        for seat in range(4):  # the rounds add up to the totals, and so do the sums
            assert sum(v[seat] or 0 for _, v in sheet.rounds) == totals[seat]
            if sheet.addends:
                assert sum(v[seat] or 0 for _, v in sheet.addends) == totals[seat]
        (winner,) = report["winners"]  # these seeds give one winner each
        unit = "tokens" if game_id == "oskar" else "points"
        best = totals[winner]
        assert (
            english(sheet.winner) == f"Seat {winner + 1} wins with {best} {unit}: the most {unit}"
        )
        assert [english(a) for a in sheet.amounts] == [
            f"{t} {unit.removesuffix('s') if t == 1 else unit}" for t in totals
        ]
        assert sheet.places[winner] == 1 and sorted(sheet.places)[0] == 1
        assert english(sheet.rule)


def test_oskar_explains_the_tokens_rule_and_each_rounds_trends() -> None:
    rig = play_to_results("oskar", 4)
    with rig.devices:
        sheet = rig.table.view.result_sheet
        report = rig.table.result
        assert sheet is not None and report is not None
        rule = english(sheet.rule)
        assert rule.startswith("The most Oskar tokens win; a seat's 7th token ends the game")
        assert "does not win it" in rule
        assert [english(h) for h, _ in sheet.counts] == ["Film points", "Stocks won"]
        assert sheet.addends == ()  # the rounds' tokens add up; film points only explain
        assert len(sheet.notes) == len(report["rounds"])
        first = report["rounds"][0]
        note = english(sheet.notes[0])
        assert note.startswith("Round 1: ")
        for seat, tokens in enumerate(first["scores"]):
            assert (f"Seat {seat + 1} +{tokens}" in note) == bool(tokens)


def test_oshaka_sets_its_counts_apart_from_the_points_that_add_up() -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        sheet = rig.table.view.result_sheet
        report = rig.table.result
        assert sheet is not None and report is not None
        assert [english(h) for h, _ in sheet.addends] == ["Column tops", "Face down", "Oshaka"]
        assert [english(h) for h, _ in sheet.counts] == [
            "Face-up columns", "Face-down cards", "Oshaka cards"
        ]  # fmt: skip
        face_down = [sum(r["penalties"][s] for r in report["rounds"]) for s in range(4)]
        assert list(sheet.counts[1][1]) == face_down
        assert list(sheet.addends[1][1]) == [-n for n in face_down]
        assert "face-down card -1" in english(sheet.rule)


def test_a_shared_victory_is_said_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        view = rig.table.view
        assert view.result is not None
        totals = [21, 3, 21, 5]
        shared = TableView(
            view.version + 1,
            Screen.RESULTS,
            view.seats,
            game_id=view.game_id,
            game=view.game,
            result={**view.result, "winners": [0, 2], "totals": totals},
            game_title=view.game_title,
            result_rule=view.result_rule,
        )
        written = painted(monkeypatch)
        for page in range(4):
            Renderer((1920, 1080)).render(replace(shared, results_page=page))
        texts = [t for t, _ in written]
        assert "Seat 1 and Seat 3 share the win: 21 points each" in texts
        assert texts.count("1st (shared)") >= 2 and "3rd" in texts and "4th" in texts


def painted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every line the painters write from now on, with its type size."""
    written: list[tuple[str, int]] = []
    text = Painter.text

    def spy(self: Painter, words: Any, pos: Any, size: int, *args: Any, **kw: Any) -> Any:
        written.append((self.words(words), size))
        return text(self, words, pos, size, *args, **kw)

    monkeypatch.setattr(Painter, "text", spy)
    return written


def centre_text(
    view: TableView, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, int]]:
    """The lines the results centre writes on twelve pages in turn, with their type sizes."""
    seen: list[tuple[str, int]] = []
    written = painted(monkeypatch)
    real = display.scenes.CENTRES[Screen.RESULTS]

    def centre(p: Painter, *args: Any) -> None:
        start = len(written)
        real(p, *args)
        seen.extend(written[start:])  # the centre's lines only, not the panels'

    monkeypatch.setitem(display.scenes.CENTRES, Screen.RESULTS, centre)
    renderer = Renderer(size)
    for page in range(12):
        renderer.render(replace(view, results_page=page, version=page + 1))
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [
        ("oh-pshaw", 3),
        ("oh-pshaw", 7),
        ("oshaka-trick", 3),
        ("oshaka-trick", 4),
        ("oskar", 3),
        ("oskar", 6),
        ("oss", 2),
        ("oss", 6),
    ],
)
def test_every_page_keeps_the_why_and_the_legible_type(
    game_id: str, seats: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fewest and the most seats each game takes, at the 7-inch screen and at full HD: the
    # winner line and the rule come round on every page or on a page of their own,
    # nothing in the centre is below 1/24 of the short side, and every place, every
    # round and every count is on some page.
    rig = play_to_results(game_id, seats)
    with rig.devices:
        view = rig.table.view
        sheet = view.result_sheet
        assert sheet is not None
        for size in ((800, 480), (1920, 1080)):
            floor = -(-min(size) // 24)
            seen = centre_text(view, size, monkeypatch)
            texts = " ".join(t for t, _ in seen)
            assert english(sheet.winner) in texts
            # The rule's lines, wherever they wrap, read as the whole rule on some page.
            rule = "".join(english(sheet.rule).split())
            assert rule in "".join(texts.split()), f"the rule was left out at {size}"
            for words in (*sheet.amounts, *(h for h, _ in sheet.counts)):
                assert english(words) in texts
            for seat in range(seats):
                assert f"Seat {seat + 1}" in texts
            small = {(t, s) for t, s in seen if s < floor}
            assert not small, f"results text below {floor} px at {size}: {small}"


def test_the_results_pages_turn_by_themselves_and_at_the_seat_buttons() -> None:
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        first = rig.table.view.results_page
        rig.table.tick(rig.now + 7.0)
        assert rig.table.view.results_page == first + 1
        rig.table.tick(rig.now + 8.0)  # not yet another page
        assert rig.table.view.results_page == first + 1
        rig.press(2, Button.NEXT)
        assert rig.table.view.results_page == first + 2
        rig.press(0, Button.PREV)
        rig.press(0, Button.PREV)
        assert rig.table.view.results_page == first
        assert rig.table.screen is Screen.RESULTS
        labels = {(b.seat, english(b.label)) for b in rig.table.view.buttons}
        assert {(0, "< page"), (0, "done"), (0, "page >")} <= labels


def test_the_results_screen_shows_none_of_the_games_lines_but_its_own() -> None:
    # The last trick's line, "Game over: ..." (the winner line says it) and any staff
    # question belong to play, not to the sheet; a reader lost here is said.
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        assert rig.table.messages, "the game said nothing at its end"
        assert rig.table.view.messages == ()
        rig.table.handle(ReaderOffline(1, "/dev/ttyACM1", "lost the connection", rig.now))
        after = rig.table.view
        lines = [english(m.text) for m in after.messages]
        assert len(lines) == 1 and lines[0].startswith("The reader of Seat 2"), lines


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
        Renderer((800, 480)).render(rig.table.view)
        summary = next(rows for rows in seen if english(rows[0][0]) == "Columns")
        names = [english(name) for name, _ in summary]
        assert names == ["Columns", "Face down", "Oshaka", "Round 1"]
        assert list(summary[0][1]) == [len(c) for c in first["columns"]]
        assert list(summary[1][1]) == [-n for n in first["penalties"]]
        assert list(summary[2][1]) == [len(o) for o in first["oshaka"]]
        assert list(summary[3][1]) == first["scores"]


def test_a_results_view_without_a_sheet_or_totals_still_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A view built without the table (no sheet) and a report with no totals yet: the
    # screen says nobody won instead of failing on an empty sheet.
    rig = play_to_results("oshaka-trick", 4)
    with rig.devices:
        bare = replace(rig.table.view, result={"totals": [], "winners": []}, result_sheet=None)
        written = painted(monkeypatch)
        Renderer((800, 480)).render(bare)
        assert "Nobody won" in [t for t, _ in written]


def test_a_place_too_wide_for_a_name_beside_it_puts_the_name_under_it() -> None:
    """Where "3rd (shared)" and its amount leave a name no room (a centre turned a
    quarter), each name gets a line of its own; a wide centre keeps one line each."""
    size = (480, 800)
    painter = Painter(pygame.Surface(size), Renderer(size).fonts, Metrics.for_size(size))
    place = place_words(3, True)
    standings = [(place, say("{seat}", seat=Verbatim("Wilhelmina")), "7", False)]
    wide = painter.measure(painter.words(place), table_size(painter), True)
    assert places_stacked(painter, standings, wide * 2)
    assert not places_stacked(painter, standings, wide * 5)
    assert not places_stacked(painter, [], 10)
