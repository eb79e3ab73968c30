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

from controller.config.table_config import TableConfig, parse
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
