"""A German table at 800x480 draws no English word (issue 12, "Done when").

Bots play each of the four games through the renderer (SDL dummy driver) with
``[table] language = "de"`` and the second seat's panel switched to Japanese
at the join screen, from the join screen to the results. Every view sampled is
drawn twice: as the table shows it (German centre, one Japanese panel) and as
an English table would show it. A string the German screen draws that the
English screen draws too is English left on a German table, unless it has no
Latin letters, is a card name ("Q♠"), a proper name (a game's title, a
language's own name, an Oss trick or challenge card), or a word the German
catalog keeps as it is (its translation equals its key). The Japanese panel must draw Japanese.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from controller.games import specs
from controller.games.oss.cards import CHALLENGES_BY_NAME, TRICKS_BY_NAME
from controller.kiosk.simulation import Simulator
from controller.tags.registry import deck_cards, deck_of
from controller.view import Screen, TableView
from controller.words.catalogs import LANGUAGE_NAMES, domains, po_path
from display.fitting import ELLIPSIS
from display.renderer import Renderer
from display.screenshot import screenshot_view
from hardware.events import Button
from tests.rigs import TableRig
from tests.test_pseudo_locale import CARD_NAME, recording

JAPANESE_SEAT = 1  # the seat switched to 日本語 at the join screen (Seat 2)
REFUSAL_AT = 3  # the play view after which a seat taps out of turn
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")


@cache
def proper_names() -> frozenset[str]:
    """Names no language changes: the games' titles, the languages' own names, Oss's cards."""
    titles = {str(spec.title) for spec in specs().values()}
    return frozenset(
        titles | set(LANGUAGE_NAMES.values()) | set(TRICKS_BY_NAME) | set(CHALLENGES_BY_NAME)
    )


WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
# Config words quoted as written ("replay_scope" must be „player“ ...) and fields.
QUOTED = re.compile(r"„[^“\"]*[“\"]|\"[^\"]*\"|\{[^}]*\}")


def german_catalog() -> Iterator[tuple[str, tuple[str, ...]]]:
    """(key, translations) of every entry of the German catalogs."""
    for domain in domains():
        with po_path("de", domain.name).open("rb") as po:
            for message in read_po(po):
                key = message.id[0] if isinstance(message.id, tuple | list) else message.id
                found = message.string
                strings = tuple(found) if isinstance(found, tuple | list) else (found,)
                if key:
                    yield str(key), tuple(str(s or "") for s in strings)


@cache
def kept_as_is() -> frozenset[str]:
    """The German catalogs' keys whose translation is the English key itself."""
    return frozenset(key for key, strings in german_catalog() if strings == (key,))


@cache
def german_words() -> frozenset[str]:
    """Every word of the German catalogs' translations (bar quoted config words, fields)."""
    words = {w for name in proper_names() for w in WORD.findall(name)}
    for _, strings in german_catalog():
        for string in strings:
            words.update(WORD.findall(QUOTED.sub(" ", string)))
    return frozenset(words)


def english_left(german: list[str], english: list[str]) -> list[str]:
    """The strings of ``german`` with an English word that the English screen draws too.

    Whole strings drawn by both screens are English unless exempt; inside a German
    sentence, a word both screens draw that no German translation uses is English
    (an untranslated value such as "ascending" in "Blattgrößen: ascending")."""
    in_english = {" ".join(s.split()) for s in english}
    english_words = {w for s in english for w in WORD.findall(s)}
    found: list[str] = []
    for text in dict.fromkeys(german):
        piece = " ".join(text.split())
        if not LATIN.search(piece):
            continue
        bare = piece.replace(ELLIPSIS, "").strip()
        if CARD_NAME.match(bare) or bare in proper_names():
            continue
        same = piece in in_english and not any(bare in kept for kept in kept_as_is())
        if same or any(w in english_words - german_words() for w in WORD.findall(bare)):
            found.append(text)
    return found


def test_the_check_catches_english_and_spares_names() -> None:
    german = ["Platz 1", "ascending", "Oh Pshaw", "Q♠", "42", "Press OK", "Ariac", "本語"]
    english = ["Seat 1", "ascending", "Oh Pshaw", "Q♠", "42", "Press OK", "Ariac", "本語"]
    assert english_left(german, english) == ["ascending", "Press OK"]
    # An English word inside a German sentence, drawn by the English screen too.
    german = ["Blattgrößen: ascending", "Punktewertung: Standard", "Stich 3 · Runde 1"]
    english = ["Hand sizes: ascending", "Scoring: standard", "Trick 3 · Round 1"]
    assert english_left(german, english) == ["Blattgrößen: ascending"]


def refuse(rig: TableRig, sim: Simulator, game_id: str) -> None:
    """Tap a card at a seat the game does not wait for: the table says why it takes no card
    there (a refusal, or what the seat is counting)."""
    game = rig.table.game
    assert game is not None
    waiting = game.adapter.presentation.waiting_players()
    idle = next(p for p in range(len(game.players)) if p not in waiting)
    seat = game.players[idle]
    last = rig.table.messages[-1] if rig.table.messages else None  # the table keeps a few
    assert sim.tap(seat, deck_cards(deck_of(game_id))[0]) is None
    rig.loop.drain()
    answer = rig.table.messages[-1]
    assert answer is not last and answer.seat == seat, "the tap was not answered"


def in_english(view: TableView) -> TableView:
    return replace(view, language="en", seat_languages={})


def play_in_german(
    game_id: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[Screen, list[str]], set[Screen], bool]:
    """Bots play ``game_id`` at a German table with one Japanese seat.

    Returns the English strings found by screen, the screens drawn, and whether
    the Japanese seat's panel drew Japanese."""
    rig = TableRig(seats, bots=seats, language="de")
    sim = Simulator(
        rig.table,
        rig.devices,
        rig.registry,
        bot_seats=set(range(seats)),
        rng=random.Random(4),
        auto_game=game_id,
    )
    german, english = Renderer((800, 480)), Renderer((800, 480))
    for renderer in (german, english):
        renderer.fonts.images.limit = 0  # draw every text afresh, so each is seen
    found: dict[Screen, list[str]] = {}
    seen: set[Screen] = set()
    japanese = switched = False
    refused: int | None = None  # the step that shows the answer to a tap out of turn
    plays = 0
    shots = os.environ.get("WORDS_SHOTS")  # a folder: save every view checked, for the docs
    with rig.devices, recording(monkeypatch) as (drawn, _):
        rig.devices.open()
        rig.loop.drain()
        for step in range(20_000):
            view = rig.table.view
            if view.screen is Screen.JOIN and not switched and JAPANESE_SEAT in rig.table.joined:
                rig.press(JAPANESE_SEAT, Button.PREV)  # a joined seat's PREV: the next language
                switched = True
                continue
            fresh = view.screen not in seen and (view.screen is not Screen.JOIN or switched)
            if fresh or refused == step or (view.screen is Screen.PLAY and step % 7 == 0):
                seen.add(view.screen)
                plays += view.screen is Screen.PLAY
                drawn.clear()
                german.draw(view)
                shown = list(drawn)
                japanese = japanese or (
                    JAPANESE_SEAT in view.seat_languages and any(CJK.search(s) for s in shown)
                )
                drawn.clear()
                english.draw(in_english(view))
                bad = english_left(shown, list(drawn))
                if bad:
                    found.setdefault(view.screen, []).extend(bad)
                if shots:
                    name = f"{game_id}-{step:05d}-{view.screen.value}.png"
                    # A fresh renderer's picture: what has landed, not a card half-way
                    # to the trick as the checking renderer's frame may catch it.
                    screenshot_view(view, Path(shots) / name)
                if view.screen is Screen.PLAY and plays == REFUSAL_AT and refused is None:
                    refuse(rig, sim, game_id)
                    refused = step + 1  # the next view shows the answer: check it too
                    continue
            if view.screen is Screen.RESULTS:
                break
            sim.step(0.0)
            rig.loop.drain()
    assert switched, f"{game_id}: seat {JAPANESE_SEAT + 1} never joined"
    assert refused is not None, f"{game_id}: no tap out of turn was answered"
    return found, seen, japanese


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "seats"), [("oshaka-trick", 4), ("oh-pshaw", 4), ("oskar", 3), ("oss", 3)]
)
def test_a_german_table_draws_no_english_word(
    game_id: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, seen, japanese = play_in_german(game_id, seats, monkeypatch)
    assert {Screen.JOIN, Screen.PLAY, Screen.RESULTS} <= seen, seen
    assert japanese, "the seat switched to Japanese drew no Japanese"
    lines = [f"{s.name}: {t!r}" for s, texts in found.items() for t in dict.fromkeys(texts)]
    assert not lines, f"{len(lines)} English strings on a German table:\n" + "\n".join(lines)
