"""The words still English before issue 12's last step: score-sheet rows and notes, option
choices, and the record-format errors of ``controller/games/base.py``.

A German reader's replay sheet has German row labels and notes (seats named "Platz N",
counted from 1); the options screen names choices ("up-down", "per player") in the
reader's language; the record-format errors are messages whose English ``str()`` (what
the replay prints after ``line N:``) is exactly the old sentence.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller import games
from controller.games import spec_of, specs
from controller.games.base import (
    BadOption,
    MalformedAction,
    TableError,
    in_words,
    read_options,
    read_players,
    read_seat_key,
    require_int,
    split_action,
)
from controller.games.spec import OptionKind
from controller.games.words import Text, say
from controller.records import scoresheet
from controller.records.record import RecordError, replay
from controller.table.options import OptionsForm
from controller.words import Presenter
from controller.words.catalogs import translations
from tests.test_engine_conformance import play_randomly
from tests.test_toy_game import SPEC as TOY_SPEC
from tests.test_toy_game import HighCard

RECORDS = Path(__file__).parent / "records"
GERMAN = Presenter("de")
# Keys whose German is spelt as the English (a name, or nothing but fields).
SAME_IN_GERMAN = {"Oshaka", "{field}", "{field}: {value}", "{field} {value}", "{items}", "mild"}


def german_sheet(record: str) -> str:
    return scoresheet.render(replay((RECORDS / record).read_text(encoding="utf-8")), GERMAN)


def test_a_german_oh_pshaw_sheet_has_german_rows_and_notes() -> None:
    sheet = german_sheet("oh-pshaw/renege.jsonl")
    lines = sheet.splitlines()
    assert lines[0] == "Oh Pshaw - 3 Personen - beendet"
    assert [line.split()[0] for line in lines[3:6]] == ["Runde", "Gebot", "Stiche"]
    assert "Runde 1: 2 Karten für jeden, Geber Platz 1" in lines
    assert "Runde 1: Trumpf: Kreuz (aufgedeckt: 2♣)" in lines
    assert "Runde 1: Gebote zusammen 2 für 2 Stiche: GLEICH" in lines
    assert "Runde 1: Platz 3 hat in Stich 1 nicht bedient" in lines
    for english in ("bid", "tricks won", "dealt by", "trumps", "reneged", "seat"):
        assert english not in sheet


def test_the_english_sheet_names_seats_from_one_in_whole_sentences() -> None:
    sheet = scoresheet.render(replay((RECORDS / "oh-pshaw/renege.jsonl").read_text("utf-8")))
    lines = sheet.splitlines()
    assert "Round 1: 2 cards each, dealt by Seat 1" in lines
    assert "Round 1: Trump: clubs (turned card 2♣)" in lines
    assert "Round 1: The bids total 2 for 2 tricks: EQUAL" in lines
    assert "Round 1: Seat 3 reneged in trick 1" in lines


def test_german_oss_and_oskar_sheets_name_their_rows_and_notes_in_german() -> None:
    oss = german_sheet("oss/full-game-2p.jsonl").splitlines()
    labels = {line.split()[0] for line in oss if line.startswith("  ") and "Platz 1" not in line}
    assert labels == {"Häuptling", "Stammeskarten", "Herausforderung", "Wiederholungen"}
    assert "Runde 1: Herausforderung BadabOss gewonnen von Platz 2" in oss
    assert any(line.startswith("Runde 1: Solo-Aufgaben Aslik, ") for line in oss)
    oskar = german_sheet("oskar/rulebook-example.jsonl").splitlines()
    assert "  Filmpunkte" in [line[: len("  Filmpunkte")] for line in oskar]
    assert "Runde 1: Trend-Genres: Horror und Komödie" in oskar
    assert "Runde 1: Der Talon (4 Punkte) ging an Platz 5" in oskar


@pytest.mark.parametrize("game_id", tuple(specs()))
def test_every_sheet_label_and_note_is_a_translated_message(game_id: str) -> None:
    """No game hands the sheet an English str: labels and notes are messages with German."""
    german = translations("de")
    engine = play_randomly(game_id, 2).engine
    seen = 0
    for round_ in engine.report()["rounds"]:
        rows = engine.sheet_rows(round_)
        notes = engine.sheet_notes(round_)
        for words in [label for label, _ in rows] + notes:
            assert isinstance(words, Text), f"{game_id}: {words!r} is not a message"
            if words.plural is None:
                translated = german.gettext(words.key)
            else:
                translated = german.ngettext(words.key, words.plural, words.count or 1)
            assert translated != words.key or words.key in SAME_IN_GERMAN, words.key
            seen += 1
        for _, cells in rows:
            # A cell is a number, a symbol or a card notation, or a message.
            for cell in cells:
                assert (
                    isinstance(cell, Text)
                    or not any(c.isalpha() for c in cell[:1])
                    or (game_id in ("oss", "oshaka-trick"))
                ), (game_id, cell)
    assert seen, f"{game_id} wrote no sheet rows or notes"


def test_the_default_sheet_names_known_fields_in_the_readers_language() -> None:
    engine = HighCard(2, 0)
    round_: dict[str, Any] = {
        "scores": [1, 0],
        "tricks": [1, 0],
        "hand_size": 3,
        "tie_break": True,
        "trendy": ["horror", "comedy", "action"],
        "odd_field": None,
    }
    # "trendy" is no field every game has: unnamed until the game's spec names it.
    assert Presenter()(engine.sheet_notes(round_)[-1]) == "trendy: horror, comedy, and action"
    games.register(replace(TOY_SPEC, field_labels={"trendy": say("trendy genres")}))
    # The sheet's reader names the fields as the sheet's game does.
    german = Presenter("de", game_id=TOY_SPEC.id)
    try:
        rows = [
            (german(label), [german(c) for c in cells])
            for label, cells in engine.sheet_rows(round_)
        ]
        notes = [german(n) for n in engine.sheet_notes(round_)]
        english = [Presenter(game_id=TOY_SPEC.id)(n) for n in engine.sheet_notes(round_)]
    finally:
        games.unregister(TOY_SPEC.id)
    assert rows == [("Stiche", ["1", "0"])]
    assert notes == ["Kartenzahl: 3", "Stechrunde: ja", "Trend-Genres: horror, comedy und action"]
    assert english == [
        "hand size: 3",
        "tie-break round: yes",
        "trendy genres: horror, comedy, and action",
    ]
    # A field no game names shows its own name with spaces, never an underscore.
    assert Presenter()(in_words({"odd_field": 2})) == "odd field 2"


def test_every_choice_of_every_game_has_its_words() -> None:
    for spec in specs().values():
        for option in spec.options:
            if option.kind in (OptionKind.CHOICE, OptionKind.SCHEDULE):
                assert set(option.choice_words) == set(option.choices), (spec.id, option.key)
        # One way only: choice words live on the options, not in the display's vocabulary.
        assert not hasattr(spec.vocabulary, "choice_words")


def test_the_options_screen_shows_choices_in_german() -> None:
    spec = spec_of("oh-pshaw")
    form = OptionsForm.start(spec, 4, None, None)
    form.cursor = [line.key for line in form.lines()].index("schedule")
    seen = []
    variants = []
    for _ in range(3):
        line = form.lines()[form.cursor]
        seen.append((GERMAN(line.label), GERMAN(line.value)))
        variants.append(GERMAN(form.lines()[0].value))
        form.press_ok()
    assert seen == [
        ("Blattgrößen", "aufsteigend"),
        ("Blattgrößen", "auf und ab"),
        ("Blattgrößen", "Contract Whist"),
    ]
    # The start line names the variant the same way (a preset by its own name).
    assert variants[1:] == ["Blattgrößen auf und ab", "Contract Whist: 7-1-7 Karten"]
    oss = OptionsForm.start(spec_of("oss"), 3, None, None)
    oss.cursor = [line.key for line in oss.lines()].index("replay_scope")
    values = []
    for _ in range(2):
        values.append(GERMAN(oss.lines()[oss.cursor].value))
        oss.press_ok()
    assert values == ["pro Spieler", "für den ganzen Tisch"]


# --- the record-format errors: messages, with the replay's English unchanged ----------


def refusal(call: Any, *args: Any) -> TableError:
    with pytest.raises(TableError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize(
    ("error", "english"),
    [
        (lambda: read_players({}, 2, 4, "toy"), 'the header has no "players"'),
        (
            lambda: read_players({"players": "x"}, 2, 4, "toy"),
            '"players" must be a whole number, not "x"',
        ),
        (lambda: read_players({"players": 9}, 2, 4, "toy"), "toy is for 2 to 4 players, not 9"),
        (lambda: read_seat_key({}, "lead", 3), 'the header has no "lead" (the seat 0..2)'),
        (lambda: read_seat_key({"lead": 5}, "lead", 3), '"lead" must be a seat 0..2, not 5'),
        (lambda: read_options({"options": [1]}, (), "toy"), '"options" must be an object, not [1]'),
        (
            lambda: read_options({"options": {"z": 1}}, ("a", "b"), "toy"),
            'unknown option "z" for toy; its options are: a, b',
        ),
        (lambda: require_int("x", '"bid"'), '"bid" must be a whole number, not "x"'),
        (lambda: require_int(9, '"bid"', 0, 5), '"bid" must be in 0..5, not 9'),
        (lambda: split_action({}, 3, {"play": ()}), 'the action has no "seat"'),
        (lambda: split_action({"seat": 3}, 3, {"play": ()}), '"seat" must be a seat 0..2, not 3'),
        (
            lambda: split_action({"seat": 0, "zap": 1}, 3, {"play": (), "bid": ()}),
            'unknown action "zap"; this game knows: bid, play',
        ),
        (
            lambda: split_action({"seat": 0}, 3, {"play": ()}),
            "the action names no verb; this game knows: play",
        ),
        (
            lambda: split_action({"seat": 0, "play": 1, "bid": 1}, 3, {"play": (), "bid": ()}),
            "an action takes exactly one verb, not play, bid",
        ),
        (
            lambda: split_action({"seat": 0, "play": 1, "card": 1}, 3, {"play": ()}),
            '"card" does not belong in a "play" action',
        ),
    ],
)
def test_record_format_errors_are_messages_with_their_english(error: Any, english: str) -> None:
    caught = refusal(error)
    assert isinstance(caught, BadOption | MalformedAction)
    assert isinstance(caught.text, Text), "a message, so the table shows it in any language"
    assert str(caught) == english
    assert Presenter()(caught.text) == english
    assert GERMAN(caught.text) != english


def test_a_replay_error_line_keeps_its_english() -> None:
    lines = (RECORDS / "oh-pshaw/renege.jsonl").read_text(encoding="utf-8").splitlines()
    with pytest.raises(RecordError) as caught:
        replay("\n".join([lines[0], '{"seat": 7, "bid": 1}', *lines[1:]]) + "\n")
    assert str(caught.value) == 'line 2: "seat" must be a seat 0..2, not 7'
