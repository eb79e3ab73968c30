"""The idle table's showcase: the games from their specs, how to play each, step by step.

The steps come from the table's turning page on the attract screen; the
display draws the games, their pictures and player counts, and the rules line
of the step, at sizes the legibility standard allows.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from controller.config.table_config import TableConfig
from controller.games import spec_of, specs
from controller.table import Table
from controller.table.pages import ATTRACT_PAGE_SECONDS
from controller.tags.registry import simulated
from controller.view import Screen, TableView
from controller.words import Presenter
from display import showcase as showcase_module
from display.renderer import Renderer
from display.showcase import STEPS, TAP_TO_START, offered, players, showcased
from display.theme import Metrics, Painter
from hardware.events import Button, ButtonPressed


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def attract(language: str = "en", **config: Any) -> tuple[Table, Clock]:
    clock = Clock()
    table = Table(replace(TableConfig.simulated(), language=language, **config), simulated())
    table.clock = clock
    return table, clock


def test_the_attract_screen_turns_a_page_every_few_seconds() -> None:
    table, clock = attract()
    assert table.screen is Screen.ATTRACT
    pages = [table.view.results_page]
    for _ in range(8):
        clock.now += ATTRACT_PAGE_SECONDS / 2
        table.tick(clock.now)
        pages.append(table.view.results_page)
    # One step per ATTRACT_PAGE_SECONDS: every other half-step turns the page.
    assert pages[-1] - pages[0] == 4 and all(b - a in (0, 1) for a, b in itertools.pairwise(pages))


def test_the_menu_does_not_turn_pages() -> None:
    table, clock = attract()
    table.handle(ButtonPressed(0, Button.OK, clock.now))
    assert table.screen is Screen.CHOOSE_GAME
    page = table.view.results_page
    clock.now += 3 * ATTRACT_PAGE_SECONDS
    table.tick(clock.now)
    assert table.view.results_page == page


def test_every_registered_game_is_offered_once_with_its_players() -> None:
    table, _ = attract()
    games = offered(table.view)
    assert [g.game_id for g in games] == list(specs())
    for choice in games:
        spec = spec_of(choice.game_id)
        assert (choice.min_players, choice.max_players) == (spec.min_players, spec.max_players)


def test_the_showcase_steps_through_each_games_first_rules_lines() -> None:
    table, _ = attract()
    view = table.view
    seen = []
    for page in range(STEPS * len(specs())):
        now = showcased(replace(view, results_page=page))
        assert now is not None
        seen.append((now.game, now.step, now.line))
    expected = [
        (game_id, step, spec_of(game_id).rules[step])
        for game_id in specs()
        for step in range(STEPS)
    ]
    assert seen == expected
    again = showcased(replace(view, results_page=STEPS * len(specs())))
    assert again is not None and (again.game, again.step) == expected[0][:2]  # round again


def test_a_game_the_table_cannot_offer_is_not_showcased() -> None:
    table, _ = attract(deal="physical")  # Oss needs the virtual deal
    view = table.view
    shown = {showcased(replace(view, results_page=p)).game for p in range(40)}  # type: ignore[union-attr]
    assert "oss" not in shown and "oss" in [g.game_id for g in offered(view)]


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every line of text rendered from now on, with its size in pixels."""
    found: list[tuple[str, int]] = []
    render = Painter.render_text

    def spy(self: Painter, text: Any, size: int, *args: Any, **kw: Any) -> Any:
        found.append((self.present(text), size))
        return render(self, text, size, *args, **kw)

    monkeypatch.setattr(Painter, "render_text", spy)
    yield found


def drawn_sizes(view: TableView, size: tuple[int, int], written: list[tuple[str, int]]) -> None:
    written.clear()
    Renderer(size).render(view)


@pytest.mark.parametrize("language", ["en", "de", "ja"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_showcase_is_legible(
    language: str, size: tuple[int, int], written: list[tuple[str, int]]
) -> None:
    table, _ = attract(language)
    short = min(size)
    words = Presenter(language)
    for page in (0, STEPS + 1, 2 * STEPS + 2, 3 * STEPS):
        view = replace(table.view, results_page=page)
        drawn_sizes(view, size, written)
        sizes: dict[str, list[int]] = {}
        for text, px in written:
            sizes.setdefault(text, []).append(px)
        must_read = [words(TAP_TO_START), *(spec_of(g.game_id).title for g in offered(view))]
        for text in must_read:
            assert text in sizes, (text, list(sizes))
            assert min(sizes[text]) >= short / 24, (text, sizes[text])
        secondary = [words(players(g)) for g in offered(view)]
        for text in secondary:
            assert min(sizes[text]) >= short / 32, (text, sizes[text])
        now = showcased(view)
        assert now is not None
        rule = words(now.line)
        # The rules line, wrapped (and cut short if it must): its lines, at the secondary
        # size or more, hold the rule's first words.
        lines = [t for t, px in written if px >= short / 32 and t not in must_read]
        assert "".join(rule.split())[:12] in "".join("".join(lines).split())


def test_a_turned_page_redraws_the_centre_only() -> None:
    table, clock = attract()
    renderer = Renderer((1280, 720))
    renderer.render(table.view)
    clock.now += ATTRACT_PAGE_SECONDS
    table.tick(clock.now)
    assert renderer.draw(table.view)
    layout = renderer.layout
    assert layout is not None
    assert renderer.dirty_rects == [layout.centre_area]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("strip", [False, True], ids=["table", "demo strip"])
def test_a_tile_shows_readable_cards_or_none(
    size: tuple[int, int], strip: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's strip under the centre once left each tile a sliver of a card (a dark
    blob 12 px tall at 1920x1080): a tile's cards are tall enough to read, or absent."""
    cards: list[Any] = []
    real = showcase_module._mini_card

    def recorded(p: Painter, rect: Any, *args: Any, **kwargs: Any) -> None:
        cards.append(rect.copy())
        real(p, rect, *args, **kwargs)

    monkeypatch.setattr(showcase_module, "_mini_card", recorded)
    table, _ = attract()
    renderer = Renderer(size)
    if strip:
        renderer.staff_seats = (0, 1, 2, 3)  # the demo window's "staff tag at seat" controls
    renderer.draw(table.view)
    metrics = Metrics.for_size(size)
    line = metrics.leading(metrics.small)
    assert all(card.h >= showcase_module.MIN_CARD_LINES * line for card in cards), (
        [card.h for card in cards],
        line,
    )
    if not strip:
        assert len(cards) == 3 * len(offered(table.view))  # the table itself has the room
