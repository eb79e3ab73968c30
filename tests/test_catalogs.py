"""The German and Japanese catalogs are complete, and plurals and placeholders are right."""

from __future__ import annotations

import functools
import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from controller.games.words import Player, say, say_plural
from controller.words import Presenter
from controller.words.catalogs import (
    ROOT,
    TRANSLATED,
    Domain,
    compile_po,
    domain_files,
    domains,
    game_domain_name,
    po_path,
)
from controller.words.extract import missing, template


@functools.cache
def keys_of(domain: Domain) -> Catalog:
    """The domain's keys, extracted from its sources once for every language."""
    return template(domain)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", domains(), ids=lambda d: d.name)
def test_every_key_of_the_sources_is_translated_and_not_fuzzy(
    domain: Domain, language: str
) -> None:
    # Checked against the sources themselves: a sentence added to the code without
    # `python -m controller.words update` and a translation fails this test.
    problems = list(missing(domain, language, keys=keys_of(domain)))
    assert not problems, f"{po_path(language, domain.name)}: {problems[:10]}"


def test_the_check_finds_a_key_nobody_translated(tmp_path: Path) -> None:
    (tmp_path / "fresh.py").write_text(
        'say("A sentence nobody translated")\nsay("Seat {number}", number=1)\n', encoding="utf-8"
    )
    fresh = Domain("table", ("fresh.py",))  # the table's catalogs, a new source
    for language in TRANSLATED:
        found = list(missing(fresh, language, tmp_path))
        assert found == [("A sentence nobody translated", "missing")]


def test_german_plurals_follow_the_rulebook() -> None:
    german = Presenter("de")
    one, two = (
        german(say_plural("needs {n} more trick", "needs {n} more tricks", n)) for n in (1, 2)
    )
    assert "1 Stich" in one and "2 Stiche" in two  # "braucht noch 1 Stich / 2 Stiche"


def test_seats_are_named_from_1_in_every_language() -> None:
    for language, expected in (("en", "Seat 3"), ("de", "Platz 3"), ("ja", "3番席")):
        reader = Presenter(language, players=(0, 2, 4))
        assert reader(say("{player}", player=Player(1))) == expected


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_compiles(language: str) -> None:
    for domain in domains():
        compiled = gettext.GNUTranslations(io.BytesIO(compile_po(po_path(language, domain.name))))
        assert compiled.info()["language"] == language


def test_every_source_that_says_words_belongs_to_a_domain() -> None:
    # A module moved to a room no domain's globs cover would have its sentences
    # dropped from the catalogs at the next update, and shown in English.
    claimed = {path.resolve() for domain in domains() for path in domain_files(domain)}
    sayers = [
        path
        for room in ("controller", "display", "hardware")
        for path in sorted((ROOT / room).rglob("*.py"))
        if re.search(r"\bsay(_plural)?\(", path.read_text(encoding="utf-8"))
    ]
    assert len(sayers) > 20  # the check sees the sources at all
    unclaimed = [str(path.relative_to(ROOT)) for path in sayers if path.resolve() not in claimed]
    assert not unclaimed, f"in no translation domain (controller/words/catalogs.py): {unclaimed}"


def test_a_key_two_games_share_reads_in_the_words_of_the_game_being_played() -> None:
    # "{player} leads" is in Oshaka Trick's and Oh Pshaw's catalogs; the German
    # Oh Pshaw rulebook says "anspielen", Oshaka Trick's words say "ausspielen".
    # Searched in a fixed order, one game showed the other's word.
    leads = say("{player} leads: play a card", player=Player(0))
    oh_pshaw = Presenter("de", game_id="oh-pshaw")(leads)
    oshaka = Presenter("de", game_id="oshaka-trick")(leads)
    assert "spielt an" in oh_pshaw and "spielt aus" in oshaka
    # Oskar's cards are a "Blatt" (its rulebook's word), Oshaka Trick's a "Hand".
    registered = say(
        "{player} cannot register a hand now: it has already played this round",
        player=Player(0),
    )
    assert "Blatt" in Presenter("de", game_id="oskar")(registered)
    assert "Hand" in Presenter("de", game_id="oshaka-trick")(registered)


def test_a_game_without_catalogs_of_its_own_reads_the_shared_ones() -> None:
    assert game_domain_name("oh-pshaw") == "oh_pshaw"
    assert game_domain_name("no-such-game") is None and game_domain_name(None) is None
    assert Presenter("de", game_id="no-such-game")(say("Seat {number}", number=3)) == "Platz 3"


def test_the_staff_s_words_come_first_where_the_staff_reads_them() -> None:
    # The history's status "playing" is the staff's "läuft"; the display's own
    # "playing" (a seat's status line) is "spielt".
    assert Presenter("de", domain="staff")(say("playing")) == "läuft"
    assert Presenter("de")(say("playing")) == "spielt"
