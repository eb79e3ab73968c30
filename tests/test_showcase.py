"""The idle table's showcase: the games from their specs, how to play each, step by step.

The steps come from the table's turning page on the attract screen; the
display draws the games, their pictures and player counts, and the rules line
of the step, at sizes the legibility standard allows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator
from dataclasses import replace
from typing import Any

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games import spec_of, specs
from controller.games.cards import CardFace
from controller.table import Table
from controller.table.pages import ATTRACT_PAGE_SECONDS
from controller.tags.registry import simulated
from controller.view import Screen, TableView
from controller.words import Presenter
from display import showcase as showcase_module
from display import theme
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


# --- the tiles' cards: their real faces, without the fonts that would cost the idle table --


def test_each_tile_shows_cards_of_different_numbers() -> None:
    """Oss's deck in tribe order once put three 1s on its tile."""
    for game_id, spec in specs().items():
        faces = [spec.deck.face(card) for card in showcase_module.fanned_cards(spec)]
        assert len({face.rank for face in faces}) == len(faces), (game_id, faces)
        assert len({face.colour for face in faces}) == len(faces) or any(
            face.symbol for face in faces
        ), (game_id, faces)  # a game of suits tells its cards apart by their suits


def tile_cards(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> dict[str, list[tuple[CardFace, bytes]]]:
    """Each game's tile cards as the attract screen at ``size`` draws them: face, picture."""
    drawn: dict[CardFace, bytes] = {}
    keep = Painter.card_picture

    def spy(
        self: Painter, key: Hashable, rect: pygame.Rect, draw: Callable[[], pygame.Surface]
    ) -> pygame.Rect:
        def recorded() -> pygame.Surface:
            image = draw()
            if isinstance(key, tuple) and key[0] == "showcase card":
                drawn[key[2]] = pygame.image.tobytes(image, "RGBA")
            return image

        return keep(self, key, rect, recorded)

    table, _ = attract()
    renderer = Renderer(size)
    with monkeypatch.context() as spying:
        spying.setattr(Painter, "card_picture", spy)
        renderer.draw(table.view)
    assert len(renderer.fonts.fallbacks) == 0  # no font for the suits: they are shapes
    return {
        choice.game_id: [(face, drawn[face]) for face in showcase_module._faces(choice.game_id)]
        for choice in offered(table.view)
    }


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_oh_pshaw_s_tile_cards_show_their_suits_in_their_ink(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = tile_cards(size, monkeypatch)["oh-pshaw"]
    assert {face.symbol for face, _ in cards} == {"♠", "♦", "♣"}
    for face, _ in cards:
        assert face.symbol in showcase_module.SUITS
    # Each suit's picture is its own shape, in the ink its suit is printed in.
    suits = {
        symbol: showcase_module.suit_picture(symbol, 16, theme.TEXT_DARK)
        for symbol in showcase_module.SUITS
    }
    shapes = {pygame.image.tobytes(image, "RGBA") for image in suits.values()}
    assert len(shapes) == 4
    for image in suits.values():
        inked = sum(1 for x in range(16) for y in range(16) if image.get_at((x, y)).a > 200)
        assert 40 <= inked <= 220  # a filled shape, not a dot and not the whole box
    red = showcase_module.suit_picture("♦", 16, theme.CARD_RED_INK)
    middle = red.get_at((8, 8))
    assert (middle.r, middle.g, middle.b) == theme.CARD_RED_INK


def test_a_suited_tile_card_differs_from_its_number_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    with_suit = tile_cards((1280, 720), monkeypatch)["oh-pshaw"]
    with monkeypatch.context() as patched:
        patched.setattr(showcase_module, "SUITS", {})
        without = tile_cards((1280, 720), patched)["oh-pshaw"]
    assert [face for face, _ in without] == [face for face, _ in with_suit]
    assert all(a[1] != b[1] for a, b in zip(with_suit, without, strict=True))
