"""docs/configuration.md's table of keys says the defaults the code really uses.

Every row of the table is checked: a literal default (a TOML value) against
what ``controller.config.table_config.parse`` gives when the key is left out, and the few
defaults said in words against the behaviour they describe. A new row that
this test does not know fails, so the table cannot drift from the code.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from controller.config.opening_hours import SleepWindow
from controller.config.table_config import TableConfig, parse
from hardware.cues import Sound
from tests.conftest import ROOT

DOC = ROOT / "docs" / "configuration.md"
ROW = re.compile(r"^\| (?P<key>[^|]+) \| (?P<default>[^|]+) \| (?P<meaning>.+) \|$")


def rows() -> list[tuple[str, str]]:
    """(key cell, default cell) of every row of the keys table."""
    found = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match and match["key"] not in ("key", "---"):
            found.append((match["key"].strip(), match["default"].strip()))
    return found


def keys_of(cell: str) -> tuple[str, list[str]]:
    """``[display] width`, `height``` -> ("display", ["width", "height"]); seat.x -> seat."""
    names = re.findall(r"`([^`]+)`", cell)
    first = names[0]
    if first.startswith("["):
        section, _, key = first.partition("] ")
        return section.strip("[]"), [key, *names[1:]]
    section, _, key = first.partition(".")
    return section, [key]


def code_default(section: str, key: str) -> Any:
    """What the code uses for ``section.key`` when a table.toml leaves the key out."""
    config = parse({"timer": {}, "seat": [{}, {}]})
    if section == "table":
        value = getattr(config, key)
        return str(value) if key == "records" else value
    if section == "seat":
        return getattr(config.seats[0], key)
    if section == "timer":
        assert config.timer is not None
        return getattr(config.timer, key)
    return getattr(getattr(config, section), key)


# Defaults the table says in words, and what each must mean in the code.
IN_WORDS = {
    ("timer", "pin", "no timer"): lambda: parse({}).timer is None,
    ("timer", "limit", "none"): lambda: code_default("timer", "limit") is None,
    ("tags", "registry", "the simulated deck"): lambda: parse({}).tags is None,
    ("staff", "pin_hash", "no PIN"): lambda: parse({}).staff.pin_hash is None,
    ("display", "sleep", "never"): lambda: parse({}).display.sleep is None,
    ("sound", "cues", "every cue"): lambda: parse({}).sound.cues == frozenset(Sound),
    ("sound", "quiet", "as `[display] sleep`"): lambda: (
        parse({"display": {"sleep": "01:00-09:00"}}).sound.quiet == SleepWindow(60, 540)
    ),
    ("sound", "pan", "the middle"): lambda: parse({}).sound.pan is None,
    # No [games] section: every game keeps its rulebook defaults and hides nothing.
    ('games."<game id>"', "defaults", "the rulebook's"): lambda: parse({}).games == {},
    ('games."<game id>"', "hidden", "none"): lambda: parse({}).games == {},
    ("seat", "buttons", "simulated"): lambda: code_default("seat", "buttons") is None,
    ("seat", "pixels", "`[8*i, 8*i+8]`"): lambda: (
        [s.pixels for s in parse({"seat": [{}, {}, {}]}).seats] == [(0, 8), (8, 16), (16, 24)]
    ),
    ("", "[[seat]]", "4 simulated seats"): lambda: (
        len(TableConfig.simulated().seats) == 4
        and all(s.reader == "mock" for s in TableConfig.simulated().seats)
    ),
}


def literal(text: str) -> Any:
    """A default cell as a TOML value, or raise ValueError when it is words."""
    try:
        return tomllib.loads(f"v = {text.strip('`')}")["v"]
    except tomllib.TOMLDecodeError:
        raise ValueError(text) from None


def test_the_documented_table_has_every_section() -> None:
    sections = {keys_of(key)[0] for key, _ in rows() if key != "`[[seat]]`"}
    assert sections == {
        "table",
        "display",
        "leds",
        "timer",
        "tags",
        "seat",
        "staff",
        'games."<game id>"',
        "journal",
        "bots",
        "sound",
    }


@pytest.mark.parametrize(("key_cell", "default_cell"), rows())
def test_a_documented_default_is_the_codes(key_cell: str, default_cell: str) -> None:
    if key_cell == "`[[seat]]`":
        assert IN_WORDS[("", "[[seat]]", default_cell)](), default_cell
        return
    section, keys = keys_of(key_cell)
    cells = [c.strip() for c in default_cell.split(",")] if len(keys) > 1 else [default_cell]
    assert len(cells) == len(keys), (key_cell, default_cell)
    for key, cell in zip(keys, cells, strict=True):
        try:
            documented = literal(cell)
        except ValueError:
            check = IN_WORDS.get((section, key, cell))
            assert check is not None, f"{key_cell}: default {cell!r} is neither a value nor known"
            assert check(), f"{key_cell}: the code does not do {cell!r}"
            continue
        actual = code_default(section, key)
        assert documented == actual, f"{section}.{key}: docs say {documented!r}, code {actual!r}"


# --- the page's tables read as tables -----------------------------------------------------------


def markdown_tables(text: str) -> list[list[tuple[int, str]]]:
    """Each run of consecutive ``|`` lines of ``text``, as (line number, line) pairs."""
    tables: list[list[tuple[int, str]]] = []
    previous = False
    for number, line in enumerate(text.splitlines(), 1):
        is_row = line.startswith("|")
        if is_row and not previous:
            tables.append([])
        if is_row:
            tables[-1].append((number, line))
        previous = is_row
    return tables


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split(" | ")]


def test_every_table_has_its_heading_and_rows_of_its_width() -> None:
    """A row left after a paragraph starts a "table" without heading: Markdown shows it as
    text, so the seats' keys would vanish from the page (issue 29)."""
    tables = markdown_tables(DOC.read_text(encoding="utf-8"))
    assert tables
    for table in tables:
        (first, heading), *rest = table
        assert len(rest) >= 2, f"line {first}: a table needs a heading, a --- row and rows"
        width = len(cells(heading))
        assert set(cells(rest[0][1])) == {"---"}, f"line {first}: no --- row under the heading"
        for number, line in rest:
            found = len(cells(line))
            assert found == width, f"line {number}: {found} cells, not {width}"


def test_the_keys_table_is_one_table_naming_every_key_once() -> None:
    keys_tables = [t for t in markdown_tables(DOC.read_text(encoding="utf-8")) if "key" in t[0][1]]
    assert len(keys_tables) == 1
    named: dict[tuple[str, str], int] = {}
    for number, line in keys_tables[0][2:]:
        section, keys = keys_of(cells(line)[0])
        for key in keys:
            earlier = named.setdefault((section, key), number)
            assert earlier == number, f"line {number}: {section} {key} is on line {earlier} too"
    assert len(named) == sum(len(keys_of(key)[1]) for key, _ in rows())  # every row is in it


def test_the_sample_table_uses_the_current_names() -> None:
    """The sample loads, and its LED backend is a current name, not the old alias."""
    from controller.config.table_config import load

    sample = ROOT / "controller" / "samples" / "table.toml"
    config = load(sample)
    assert config.leds.backend in ("spi", "pi5", "pwm", "mock")
    assert tomllib.loads(sample.read_text(encoding="utf-8"))["leds"]["backend"] != "neopixel"
    # A bot seat's comment says a bot plays it.
    text = sample.read_text(encoding="utf-8")
    for block in text.split("[[seat]]")[1:]:
        if "bot = true" in block:
            assert "played on screen" not in block and "bot" in block.split("\n")[1]
