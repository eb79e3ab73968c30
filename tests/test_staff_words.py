"""The staff desk and the command line in the reader's language, with seats counted from 1.

A German desk and a German command line read German from the ``staff``
catalog; the replay's human sheet numbers seats from 1 in every language,
while its ``--json`` object and its ``line N:`` errors stay exactly the
record format's, whatever the language.
"""

from __future__ import annotations

import argparse
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from controller.cli import main as cli
from controller.games.words import Items, Seat
from controller.records import scoresheet
from controller.records.history import GameSummary, history_lines
from controller.records.record import replay
from controller.tags.registry import simulated
from controller.tags.staff_desk import StaffDesk
from controller.tags.staff_pin import PinGuard, PinHash, hash_pin
from controller.words import Presenter
from controller.words import terminal as terminal_words
from hardware.events import Button
from tests.words import shown

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "controller" / "samples" / "oshaka-trick.jsonl"
GERMAN = Presenter("de")
JAPANESE = Presenter("ja")


def run(*argv: str) -> tuple[int, str, str]:
    """``cafe-table ARGV`` in this process: exit status, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def no_language_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(terminal_words.ENVIRONMENT, raising=False)


# --- the staff desk ---------------------------------------------------------------


def test_a_german_staff_desk_reads_german_from_the_catalog() -> None:
    desk = StaffDesk(seat=2, registry=simulated(["oshaka"]), registry_path=None)
    menu = desk.view()
    assert GERMAN(menu.title) == "Personal"
    assert GERMAN(menu.prompt) == "PREV / NEXT wählen, OK öffnet"
    options = [GERMAN(option) for option in menu.options]
    assert "Deck „Oshaka Trick“ einlernen" in options and options[-1] == "Personalmenü schließen"
    # The same desk in English and Japanese: one message, three readers.
    assert shown(menu.options[0]) == "Enroll the Oshaka Trick deck"
    assert JAPANESE(menu.options[0]) == "Oshaka Trick のデッキを登録"
    desk.button(Button.OK)  # enroll the first deck: practice, the table has no registry file
    enroll = desk.view()
    assert GERMAN(enroll.prompt).startswith("Tippe R1 an (1 von 52 im Deck oshaka)")
    assert GERMAN(enroll.lines[0]).startswith("Nur zum Üben:")


def test_a_deck_described_in_words_is_named_in_the_desks_language() -> None:
    """A deck's title that is a description, not a game's name, is translated on the desk:
    a German desk said "Deck „Oss tribe cards“ einlernen" before."""
    desk = StaffDesk(seat=0, registry=simulated(["oss-tribes"]), registry_path=None)
    english = [shown(option) for option in desk.view().options]
    german = [GERMAN(option) for option in desk.view().options]
    japanese = [JAPANESE(option) for option in desk.view().options]
    oss = english.index("Enroll the Oss tribe cards deck")
    assert german[oss] == "Deck „Oss-Stammeskarten“ einlernen"
    wizard = english.index("Enroll the Oh Pshaw Wizard add-on (4 Wizards, 4 Jesters) deck")
    assert "4 Zauberer, 4 Narren" in german[wizard]
    assert "ウィザード・ジェスター各4枚" in japanese[wizard]


def test_a_wrong_pin_closes_the_desk_with_a_german_farewell_counted_in_seconds() -> None:
    now = [1000.0]
    guard = PinGuard(PinHash.parse(hash_pin("PNNO")), clock=lambda: now[0], tries=1, lockout=30.0)
    desk = StaffDesk(seat=0, registry=simulated(["oshaka"]), registry_path=None, guard=guard)
    for _ in range(4):
        desk.button(Button.OK)
    assert desk.closed
    assert GERMAN(desk.farewell) == "Falsche Personal-PIN: für 30 Sekunden gesperrt"
    assert shown(desk.farewell) == "Wrong staff PIN: locked for 30 seconds"


def test_the_history_lines_count_seats_from_one_and_write_dates_the_languages_way() -> None:
    game = GameSummary(
        id=7,
        game="oh-pshaw",
        title="Oh Pshaw",
        status="finished",
        started="2026-11-29T20:15:00",
        finished="2026-11-29T21:05:00",
        seats=(0, 2, 5),
        scores=(12, 30, 1200),
        winners=(5,),
    )
    english = history_lines([game])
    assert english[0].split() == ["#", "date", "game", "seats", "scores", "winner", "status"]
    assert "1 3 6" in english[1] and "Seat 6" in english[1] and "11/29/26" in english[1]
    german = history_lines([game], GERMAN)
    assert german[0].split()[:3] == ["#", "Datum", "Spiel"]
    assert "29.11.26, 21:05" in german[1] and "Platz 6" in german[1] and "1.200" in german[1]
    assert german[1].rstrip().endswith("beendet")
    japanese = history_lines([game], JAPANESE)
    assert "2026/11/29 21:05" in japanese[1] and "終了" in japanese[1]


# --- the command line ---------------------------------------------------------------


def test_the_replay_sheet_in_german_counts_seats_from_one() -> None:
    status, out, err = run("--lang", "de", "replay", str(SAMPLE))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Oshaka Trick - 4 Personen - beendet"
    header = next(line for line in lines if "Platz" in line)
    assert header.split() == ["Platz", "1", "Platz", "2", "Platz", "3", "Platz", "4"]
    assert any(line.startswith("Runde 1 ") for line in lines)
    winners = replay(SAMPLE.read_text(encoding="utf-8")).report()["winners"]
    named = GERMAN.argument(Items(tuple(Seat(w) for w in winners)))
    assert lines[-1] in (f"Sieg: {named}", f"Geteilter Sieg: {named}")
    assert f"Platz {winners[0] + 1}" in lines[-1]  # the record's seat 0 is "Platz 1"


def test_the_replay_json_is_the_same_in_every_language_and_keeps_0_based_seats() -> None:
    engine = replay(SAMPLE.read_text(encoding="utf-8"))
    expected = json.dumps(scoresheet.report_json(engine)) + "\n"
    for language in ("en", "de", "ja"):
        status, out, err = run("--lang", language, "replay", "--json", str(SAMPLE))
        assert (status, out, err) == (0, expected, "")
    assert json.loads(expected)["winners"] == engine.report()["winners"]  # 0-based, as recorded


def test_line_n_errors_stay_the_record_formats_english_in_every_language(tmp_path: Path) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    # The second action again: a card already played (or a turn out of order).
    broken.write_text("\n".join([*lines[:3], lines[2], *lines[3:]]) + "\n", encoding="utf-8")
    results = {
        language: run("--lang", language, "replay", str(broken)) for language in ("en", "de")
    }
    status, out, err = results["en"]
    assert status == 2 and out == ""
    assert err.startswith("line 4: ") and err.count("\n") == 1
    assert results["de"] == results["en"]


def test_a_german_command_line_error_comes_from_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nothing-here.jsonl"
    status, out, err = run("--lang", "de", "replay", str(missing))
    assert (status, out) == (2, "")
    assert err == f"{missing} lässt sich nicht öffnen: keine solche Datei\n"
    # The environment chooses the language when --lang does not.
    monkeypatch.setenv(terminal_words.ENVIRONMENT, "ja")
    status, _, err = run("kiosk", "--game", "chess")
    assert status == 2
    assert err.startswith("kiosk: --game 'chess': このテーブルにその遊びはありません。")


def test_the_language_comes_from_lang_then_environment_then_table_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nlanguage = "de"\n', encoding="utf-8")

    def language(**given: object) -> str:
        return terminal_words.chosen_language(argparse.Namespace(**given))

    assert language() == "en"
    assert language(config=str(config)) == "de"
    monkeypatch.setenv(terminal_words.ENVIRONMENT, "ja")
    assert language(config=str(config)) == "ja"
    assert language(config=str(config), lang="en") == "en"
    # A file without the key, a broken file or an unknown language: English, no error here.
    monkeypatch.delenv(terminal_words.ENVIRONMENT)
    for text in ("[table]\n", "not toml [", '[table]\nlanguage = "xx"\n'):
        config.write_text(text, encoding="utf-8")
        assert language(config=str(config)) == "en"
    assert language(config=str(tmp_path / "missing.toml")) == "en"


def test_tags_lines_come_in_the_chosen_language(tmp_path: Path) -> None:
    registry = tmp_path / "tags.json"
    config = tmp_path / "table.toml"
    config.write_text(f'[tags]\nregistry = "{registry}"\n', encoding="utf-8")
    status, out, err = run("--lang", "de", "tags", "list", "--config", str(config))
    assert (status, err) == (0, "")
    assert out.startswith(f"{registry}: noch kein Register; lerne einen Personal-Tag ein mit ")


def test_a_table_toml_that_cannot_be_read_is_refused_in_german(tmp_path: Path) -> None:
    missing = tmp_path / "table.toml"
    status, out, err = run("--lang", "de", "kiosk", "--config", str(missing), "--headless")
    assert (status, out) == (2, "")
    assert err == (
        f"kiosk: {missing}: keine solche Datei; lass --config weg, um den ganz simulierten "
        "Tisch zu nutzen\n"
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\n", encoding="utf-8")
    status, _, err = run("--lang", "ja", "doctor", "--config", str(broken))
    assert status == 2 and err.startswith(f"doctor: {broken}: 正しい TOML ではありません")
    assert err.count("\n") == 1


def test_a_bad_setting_is_named_in_the_chosen_language_with_its_english_unchanged(
    tmp_path: Path,
) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[display]\nfullscreen = 3\n", encoding="utf-8")
    status, _, english = run("doctor", "--config", str(config))
    assert status == 2
    assert english == (
        f"doctor: {config.name}: display.fullscreen must be true or false, not 3; "
        "write true or false\n"
    )
    status, _, german = run("--lang", "de", "doctor", "--config", str(config))
    assert status == 2
    assert german == (
        f"doctor: {config.name}: display.fullscreen muss true oder false sein, nicht 3; "
        "schreibe true oder false\n"
    )
