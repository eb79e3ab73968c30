"""Hardware, doctor and fleet words in the reader's language, seats counted from 1.

The hardware layer writes English staff-log lines (seats from 0) and cannot
import the controller; the kind of trouble travels with its events and the
controller puts it into words. These tests read what a German (or Japanese)
table, its doctor, its window and its café alerts actually show.
"""

from __future__ import annotations

import errno
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main as cli
from controller.cli.doctor import report, run_checks
from controller.config.reading import ConfigError
from controller.config.table_config import load, parse
from controller.fleet.connection import CafeConnection
from controller.fleet.link import ConfigRequested
from controller.games.words import Items, Verbatim, say
from controller.table import Table
from controller.tags.registry import RegistryError, TagRegistry, simulated
from controller.view import MessageKind, Screen
from controller.words import Presenter
from hardware.errors import ReaderUnavailable
from hardware.events import Button, ButtonPressed, ButtonReleased, ReaderOffline
from hardware.leds import RecordingStrip, SeatLeds
from hardware.problems import Offline
from hardware.serial_stream import open_serial_port
from tests.rigs import TableRig
from tests.test_cafe_tables import FakeLink, table_toml
from tests.test_doctor import machine, real_table
from tests.words import shown

GERMAN = Presenter("de")
JAPANESE = Presenter("ja")


def last_problem(rig: TableRig, seat: int) -> str:
    """The last problem announced to ``seat``, as that seat's panel shows it."""
    view = rig.table.view
    message = next(m for m in reversed(view.messages) if m.kind is MessageKind.PROBLEM)
    assert message.seat == seat
    return Presenter.for_view(view, seat)(message.text)


# --- the table ----------------------------------------------------------------------


def test_a_german_table_says_a_reader_went_offline_in_german_with_the_seat_from_1() -> None:
    rig = TableRig(4, language="de")
    with rig.devices:
        rig.loop.drain()
        reader = rig.devices.mock_reader(2)
        assert reader is not None
        reader.unplug()  # the hardware's reason: "lost the connection: unplugged"
        rig.loop.drain()
        shown_de = last_problem(rig, 2)
        assert shown_de == (
            "Der Leser von Platz 3 antwortet nicht; das Spiel wartet: prüf sein USB-Kabel"
        )
        # The hardware's English log line (seats from 0) never reaches the panel.
        assert "connection" not in shown_de and "unplugged" not in shown_de
        other = rig.devices.mock_reader(0)
        assert other is not None
        other.unplug("seat 0's reader at /dev/ttyUSB0 is not there", Offline.MISSING)
        rig.loop.drain()
        assert last_problem(rig, 0) == (
            "Der Leser von Platz 1 ist nicht angeschlossen; das Spiel wartet: prüf sein USB-Kabel"
        )


def test_every_offline_kind_has_its_own_words_and_closing_on_purpose_says_nothing() -> None:
    rig = TableRig(4)
    said = {}
    for seat, kind in enumerate((Offline.MISSING, Offline.BUSY, Offline.DENIED, Offline.SILENT)):
        rig.table.handle(ReaderOffline(seat, "/dev/ttyUSB9", f"seat {seat}: log line", 1.0, kind))
        said[kind] = last_problem(rig, seat)
        assert f"Seat {seat + 1}" in said[kind] and "log line" not in said[kind]
    assert len(set(said.values())) == 4
    before = len(rig.table.view.messages)
    rig.table.handle(ReaderOffline(1, "/dev/ttyUSB9", "closed", 2.0))
    assert len(rig.table.view.messages) == before


def test_a_german_table_names_an_unknown_tag_in_german_with_the_seat_from_1() -> None:
    rig = TableRig(4, language="de")
    with rig.devices:
        rig.start_game("oskar", (0, 1, 2, 3))
        assert rig.screen() is Screen.PLAY
        rig.tap_uid(1, "04DEADBEEF0001")
        assert last_problem(rig, 1) == (
            "Platz 2: dieser Chip (04DEADBEEF0001) gehört zu keinem Deck; "
            "bitte das Personal, ihn anzumelden"
        )
        # The same message in English names the seat counted from 1 as well.
        message = rig.table.view.messages[-1]
        assert shown(message.text).startswith("Seat 2: this tag (04DEADBEEF0001)")


# --- the hardware's kinds -------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (errno.ENOENT, Offline.MISSING),
        (errno.EBUSY, Offline.BUSY),
        (errno.EACCES, Offline.DENIED),
        (errno.EIO, Offline.FAILED),
    ],
)
def test_a_reader_that_cannot_open_says_which_kind_of_trouble(code: int, kind: Offline) -> None:
    from hardware.serial_stream import _unavailable

    error = _unavailable(0, "/dev/ttyUSB7", OSError(code, "nope"))
    assert isinstance(error, ReaderUnavailable) and error.kind == kind
    assert "seat 0's reader at /dev/ttyUSB7" in str(error)  # the staff log keeps its line


def test_a_port_that_is_not_there_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ReaderUnavailable) as caught:
        open_serial_port(1, str(tmp_path / "ttyUSB-gone"))
    assert caught.value.kind == Offline.MISSING


# --- doctor ---------------------------------------------------------------------------


def test_doctor_in_german_prints_german_check_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the simulated table's records folder is ./records
    assert cli.main(["--lang", "de", "doctor"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[-1] == "alle Prüfungen bestanden" and err == ""
    names = [line.split(":")[0].split(maxsplit=1)[1] for line in lines[:-1]]
    assert names == [
        "Anzeige", "Renderer", "Gruppen", "Geräte", "Pin-Factory", "Leser", "LEDs",
        "Wurf-Timer", "Journal-Ordner", "Journaldatei", "Schriften", "freier Speicher",
    ]  # fmt: skip
    assert "Leser: alle Plätze simuliert" in out and "fsync" in out


def test_a_failing_check_in_german_and_japanese_names_the_seat_from_1(tmp_path: Path) -> None:
    broken = machine(tmp_path, pin_factory=lambda: "MockFactory")
    results = run_checks(real_table(tmp_path), broken)
    german, passed = report(results, GERMAN)
    assert not passed
    assert (
        "\nFEHLER  Pin-Factory: gpiozero nutzt seine MockFactory: die Tasten würden nie gedrückt "
        "-> entferne GPIOZERO_PIN_FACTORY=mock; nutze GPIOZERO_PIN_FACTORY=lgpio"
    ) in german
    assert "\nok      Leser von Platz 1: " in german  # lined up with "FEHLER  "
    assert german.endswith("1 Prüfung fehlgeschlagen\n")
    japanese, _ = report(results, JAPANESE)
    # The status column: "失敗" is four terminal columns wide, padded to six like "OK".
    assert "\n失敗  ピンファクトリー: gpiozero が MockFactory を使っています" in japanese
    assert "\nOK    1番席のリーダー: " in japanese
    assert japanese.endswith("1 件のチェックが失敗しました\n")
    english, _ = report(results)
    assert "ok    reader of Seat 1: " in english and english.endswith("1 check failed\n")


# --- the window and the café ----------------------------------------------------------


def test_the_window_title_is_in_the_table_s_language() -> None:
    from display.window import Window

    rig = TableRig(2, language="de")
    with Window(rig.config.display) as window:
        window.show(rig.table.view)
        assert pygame.display.get_caption()[0] == "Café-Tisch"
        # Staff switch the table to Japanese: the title follows on the next frame.
        window.show(replace(rig.table.view, language="ja"))
        assert pygame.display.get_caption()[0] == "カフェテーブル"


class WordsLink(FakeLink):
    """The fake link, keeping the alert's text too."""

    def alert(self, alert_id: str, kind: str, text: str, seat: int | None = None) -> None:
        self.sent.append(("alert", {"id": alert_id, "kind": kind, "text": text, "seat": seat}))


def german_cafe_table(tmp_path: Path) -> tuple[Table, CafeConnection]:
    """A German café table whose link keeps what it would send (alert texts included)."""
    path = table_toml(tmp_path, '[cafe]\nbroker = "127.0.0.1"\ntable = "table-1"')
    path.write_text(
        path.read_text(encoding="utf-8").replace("[table]\n", '[table]\nlanguage = "de"\n'),
        encoding="utf-8",
    )
    config = load(path)
    assert config.cafe is not None and config.language == "de"
    registry = simulated()
    factory: Any = WordsLink
    connection = CafeConnection(config.cafe, None, registry, config_path=path, link_factory=factory)
    leds = SeatLeds(RecordingStrip(32), {i: range(8 * i, 8 * i + 8) for i in range(4)})
    table = Table(config, registry, leds=leds, on_staff_call=connection.staff_call)
    connection.after_turn(table)  # the connection learns the table's language
    return table, connection


def test_a_call_for_staff_reaches_the_hub_in_the_table_s_language_seat_from_1(
    tmp_path: Path,
) -> None:
    table, connection = german_cafe_table(tmp_path)
    table.handle(ButtonPressed(2, Button.OK, 20.0))
    table.handle(ButtonReleased(2, Button.OK, 23.5))  # held: a call for staff
    link = connection.link
    assert isinstance(link, WordsLink)
    alerts = [sent for kind, sent in link.sent if kind == "alert"]
    assert alerts == [
        {
            "id": alerts[0]["id"],
            "kind": "call-staff",
            "text": "Platz 3 ruft das Personal",
            "seat": 2,
        }
    ]  # the text for people counts from 1; the data field stays the 0-based seat


def test_a_refused_pushed_setting_reaches_the_dashboard_in_the_table_s_language(
    tmp_path: Path,
) -> None:
    table, connection = german_cafe_table(tmp_path)
    connection.inbox.put(ConfigRequested("r1", {"seat": {"reader": "/dev/ttyUSB9"}}))
    connection.after_turn(table)
    link = connection.link
    assert isinstance(link, FakeLink)
    results = [sent for kind, sent in link.sent if kind == "config"]
    expected = GERMAN(
        say(
            "[{section}] cannot be set from the hub; it may set {sections}",
            section=Verbatim("seat"),
            sections=Items((Verbatim("display"), Verbatim("games"), Verbatim("table"))),
        )
    )
    assert expected.startswith("[seat] ") and "cannot" not in expected  # German, from the catalog
    assert results == [{"id": "r1", "ok": False, "message": expected}]


# --- files the staff write --------------------------------------------------------------


def test_a_bad_tag_registry_is_explained_in_german_and_keeps_its_english_line() -> None:
    with pytest.raises(RegistryError) as caught:
        TagRegistry.from_json({"format": "tag-registry/1", "decks": {"tarot": {}}}, "tags.json")
    assert GERMAN(caught.value.text).startswith("tags.json: es gibt kein Deck 'tarot'; der Tisch")
    assert str(caught.value).startswith("tags.json: there is no deck 'tarot'; the table knows")


def test_a_config_error_s_reason_is_in_german() -> None:
    with pytest.raises(ConfigError) as caught:
        parse({"games": {"chess": {}}})
    german = GERMAN(caught.value.text)
    assert german.startswith("table.toml: games.chess ist kein Spiel, das der Tisch kennt; nutze ")
    with pytest.raises(ConfigError) as caught:
        parse({"seat": [{"pixels": "all"}, {}]})
    assert "muss [erstes, Ende] Pixelnummern sein, nicht 'all'" in GERMAN(caught.value.text)


def test_doctor_says_why_a_reader_is_unavailable_without_the_hardware_s_seat_0(
    tmp_path: Path,
) -> None:
    def busy(seat: int, path: str, protocol: str) -> str:
        raise ReaderUnavailable(
            f"seat {seat}'s reader at {path} is in use by another program", "busy"
        )

    results = run_checks(real_table(tmp_path), machine(tmp_path, probe_reader=busy))
    german, passed = report(results, GERMAN)
    line = next(line for line in german.splitlines() if "Leser von Platz 1" in line)
    assert not passed and line.startswith("FEHLER  Leser von Platz 1: ")
    assert "antwortet nicht (ein anderes Programm belegt den Port)" in line
    assert "seat 0" not in line
