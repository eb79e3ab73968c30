"""The options screen through the table with mock devices (issue 13, item 1): every option
with the rulebook's names and limits that follow the joined players, presets as shortcuts,
the café's house defaults and hidden options, and the variant named on results, history,
CSV and score sheet; a whole Oh Pshaw game with options chosen on the screen, ended early."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.config.reading import ConfigError
from controller.config.table_config import GameHouseRules, TableConfig, parse
from controller.games import specs
from controller.games.oh_pshaw.engine import OhPshaw
from controller.records.history import export_record, history_lines, summaries, write_csv
from controller.records.journal import Journal
from controller.records.record import replay
from controller.records.scoresheet import render
from controller.table.options import OptionsForm
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.view import Screen
from display.screenshot import screenshot_view
from hardware.events import Button
from tests.rigs import TableRig
from tests.words import shown


def clock() -> dt.datetime:
    return dt.datetime(2025, 1, 31, 20, 15, tzinfo=dt.UTC)


class Rig(TableRig):
    """People at every seat of a journaled table with mock devices and a virtual deal."""

    deck = "standard-52"

    def __init__(self, path: Path, seats: int = 4, **config: Any) -> None:
        self.journal = Journal.open(path, TableConfig.simulated(seats), clock=clock)
        super().__init__(seats, journal=self.journal, **config)

    def to_options(self, game_id: str, seats: tuple[int, ...], preset: int = 0) -> None:
        """Wake, choose the menu line ``preset`` of ``game_id``, join ``seats``, press NEXT."""
        self.join_game(game_id, seats, preset)
        assert self.screen() is Screen.OPTIONS

    def lines(self) -> list[tuple[str, str, str]]:
        return [(shown(a), shown(b), shown(c)) for a, b, c in self.table.view.options]

    def cursor_to(self, label: str, seat: int = 0) -> None:
        """NEXT at ``seat`` until the cursor is on the line named ``label``."""
        for _ in range(len(self.lines())):
            if self.lines()[self.table.view.options_cursor][0] == label:
                return
            self.press(seat, Button.NEXT)
        raise AssertionError(f"no line {label!r} on the options screen")

    def set_value(self, label: str, value: str, seat: int = 0) -> None:
        """Move to the line and press OK until it shows ``value``."""
        self.cursor_to(label, seat)
        for _ in range(60):
            if self.lines()[self.table.view.options_cursor][1] == value:
                return
            self.press(seat, Button.OK)
        raise AssertionError(f"{label} never showed {value!r}")

    def value(self, label: str) -> str:
        return next(v for lab, v, _ in self.lines() if lab == label)

    @property
    def engine(self) -> OhPshaw:
        return self.engine_as(OhPshaw)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with Rig(tmp_path / "journal.sqlite3").running() as r:
        yield r
    r.journal.close()


def test_every_oh_pshaw_option_is_on_the_screen_with_its_rulebook_name(rig: Rig) -> None:
    rig.to_options("oh-pshaw", (0, 1, 2, 3))
    labels = [label for label, _, _ in rig.lines()]
    spec = specs()["oh-pshaw"]
    assert labels == ["Start the game", "Preset", *(shown(o.label) for o in spec.options)]
    assert rig.table.view.options_cursor == 0  # OK at once starts with the menu's preset
    assert rig.value("Preset") == "Quick: 1 to 7 cards" and rig.value("Largest hand") == "7"
    explanations = {label: text for label, _, text in rig.lines()}
    assert explanations["Largest hand"].endswith("(1-13 for 4 players)")
    assert all(explanations.values())  # every line explains itself
    hints = {(h.seat, h.button): shown(h.label) for h in rig.table.view.buttons}
    assert hints[(2, Button.OK)] == "start" and hints[(2, Button.NEXT)] == "next line"
    rig.press(3, Button.NEXT)  # any seat moves the cursor
    assert rig.table.view.options_cursor == 1
    hints = {(h.seat, h.button): shown(h.label) for h in rig.table.view.buttons}
    assert hints[(1, Button.OK)] == "change"


def test_limits_follow_the_joined_players(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "j.sqlite3", seats=6)
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2, 3, 4, 5))
        explanations = {label: text for label, _, text in rig.lines()}
        assert explanations["Largest hand"].endswith("(1-8 for 6 players)")
        rig.cursor_to("Largest hand")
        seen = set()
        for _ in range(12):
            rig.press(0, Button.OK)
            seen.add(rig.value("Largest hand"))
        assert "9" not in seen and "8" in seen  # 6 x 9 > 52: never offered
        # Contract whist needs hands of 7: with a largest hand of 5 it is not offered.
        rig.set_value("Largest hand", "5")
        rig.cursor_to("Hand sizes")
        offered = {rig.value("Hand sizes")}
        for _ in range(2):
            rig.press(0, Button.OK)
            offered.add(rig.value("Hand sizes"))
        # The named schedules, then N..1 from the largest hand; then the editor opens.
        # The schedules read as the options screen names them ("up-down" is "up and down").
        assert offered == {"ascending", "up and down", "5, 4, 3, 2, 1"}
    rig.journal.close()


def test_presets_are_shortcuts_and_one_is_named_when_the_values_match(rig: Rig) -> None:
    rig.to_options("oh-pshaw", (0, 1, 2, 3))
    rig.cursor_to("Preset")
    rig.press(0, Button.OK)
    assert rig.value("Preset") == "Up and down: 1-7-1 cards"
    assert rig.value("Hand sizes") == "up and down" and rig.value("Largest hand") == "7"
    rig.set_value("The hook", "on")
    assert rig.value("Preset") == "your own choice"
    assert rig.value("Start the game") == "Hand sizes up and down, Largest hand 7, The hook"


def test_a_whole_oh_pshaw_game_with_options_chosen_at_the_table_then_ended_early(
    rig: Rig,
) -> None:
    rig.to_options("oh-pshaw", (0, 1, 2, 3))
    rig.set_value("Largest hand", "3")
    rig.set_value("Scoring", "mild", seat=2)
    rig.set_value("Round winner bonus", "on", seat=1)
    rig.set_value("Rotating trump", "on", seat=3)
    rig.cursor_to("Start the game")
    rig.press(0, Button.OK)
    assert rig.screen() is Screen.PLAY
    engine = rig.engine
    assert engine.header()["options"] == {
        "max_hand": 3,
        "scoring": "mild",
        "round_winner_bonus": True,
        "rotating_trump": True,
    }
    title = "Oh Pshaw: Largest hand 3, Scoring mild, Round winner bonus, Rotating trump"
    assert shown(rig.table.view.game_title) == title
    assert f"{title} begins" in [shown(m.text) for m in rig.table.messages]
    # Records, history and CSV keep the English variant of before.
    assert engine.header()["options"] and specs()["oh-pshaw"].variant(
        engine.header()["options"]
    ) == ("largest hand 3, scoring mild, round winner bonus, rotating trump")
    # Rotating trump: no card is turned, hearts are trump in round 1.
    assert engine.round.turned is None and engine.snapshot().trump == "H"

    def play_round() -> None:
        number = engine.round.index
        while engine.phase == "bid":
            rig.press(engine.turn, Button.OK)  # bid 0
        while engine.round.index == number and not engine.finished:
            seat = engine.turn
            rig.tap(seat, engine.legal_actions(seat)[0].to_json()["play"])

    play_round()
    play_round()
    assert [r["trump"] for r in engine.report()["rounds"]] == ["H", "C", "D"]  # round 3 dealt
    scored = engine.report()["rounds"][0]["scores"]
    # Mild scoring with the bonus: tricks + 10 for an exact bid, +10 to the round's best.
    first = engine.rounds[0]
    base = [t + (10 if t == b else 0) for t, b in zip(first.tricks, first.bids, strict=True)]
    top = max(base)
    assert scored == [s + (10 if s == top else 0) for s in base]

    while engine.phase == "bid":
        rig.press(engine.turn, Button.OK)  # round 3 bid, then staff end it
    totals = engine.totals()
    rig.tap_uid(0, SIMULATED_STAFF_UID)
    rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)
    rig.press(0, Button.OK)  # confirm (staff mode asks before anything destructive)
    assert rig.screen() is Screen.RESULTS
    result = rig.table.result
    assert result is not None and result["ended"] == "early" and result["finished"]
    assert result["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]

    games = summaries(rig.journal)
    assert games[0].variant == "largest hand 3, scoring mild, round winner bonus, rotating trump"
    # The history line names it as the menu does (its labels, in the reader's language).
    assert f"Oh Pshaw: {games[0].variant}".lower() in history_lines(games)[1].lower()
    out = io.StringIO()
    write_csv(games, out)
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["variant"] == games[0].variant and row["ended"] == "early"
    sheet = render(replay(export_record(rig.journal, games[0].id)))
    assert f"Variant: {games[0].variant}".lower() in sheet.lower()


def test_the_results_name_the_variant_played(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "j.sqlite3")
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oskar", (0, 1, 2), preset=1)  # the menu's "first to 8 tokens"
        rig.press(0, Button.OK)
        assert rig.screen() is Screen.PLAY
        assert shown(rig.table.view.game_title) == "Oskar: first to 8 tokens"
        path = screenshot_view(rig.table.view, tmp_path / "oskar.png", size=(800, 480))
        assert pygame.image.load(str(path)).get_size() == (800, 480)
    rig.journal.close()


def test_house_defaults_and_hidden_options(tmp_path: Path) -> None:
    house = {"oh-pshaw": GameHouseRules({"scoring": "mild"}, ("renege_penalty", "hook"))}
    rig = Rig(tmp_path / "j.sqlite3", games=house)
    with rig.devices:
        rig.loop.drain()
        rig.to_options("oh-pshaw", (0, 1, 2))
        labels = [label for label, _, _ in rig.lines()]
        assert "Renege penalty" not in labels and "The hook" not in labels
        assert rig.value("Scoring") == "mild"  # the house default, under the menu's preset
        rig.cursor_to("Start the game")
        rig.press(0, Button.OK)
        assert rig.engine.header()["options"] == {"max_hand": 7, "scoring": "mild"}
    rig.journal.close()


def test_games_section_of_table_toml_is_checked() -> None:
    config = parse({"games": {"oskar": {"defaults": {"tokens_to_win": 8}, "hidden": []}}})
    assert config.games["oskar"].defaults == {"tokens_to_win": 8}
    with pytest.raises(ConfigError, match=r"games\.chess is not a game the table knows"):
        parse({"games": {"chess": {}}})
    with pytest.raises(
        ConfigError, match=r"games\.oskar\.defaults is refused: option .tokens_to_win."
    ):
        parse({"games": {"oskar": {"defaults": {"tokens_to_win": 9}}}})
    with pytest.raises(ConfigError, match="Oskar's options are: tokens_to_win"):
        parse({"games": {"oskar": {"hidden": ["speed"]}}})


def test_the_form_offers_only_values_the_engine_accepts() -> None:
    spec = specs()["oh-pshaw"]
    for players in range(3, 8):
        form = OptionsForm.start(spec, players, None, None)
        largest = [v for v in form.allowed(spec.option("max_hand")) if v is not None]
        assert max(largest) == 52 // players
    oss = OptionsForm.start(specs()["oss"], 3, replace(GameHouseRules(), hidden=("rounds",)), {})
    assert [o.key for o in oss.visible] == ["replays_per_round", "replay_scope"]
