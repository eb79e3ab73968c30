"""The pygame display: every screen draws, draws only on change, faces its seats, maps clicks.

Views are built by hand, and the Oshaka scene also from a real engine's
snapshot after a few tricks. pygame runs headless (``tests/conftest.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.games import specs
from controller.games.base import JSON, Expectation, Overlay, Snapshot
from controller.games.oshaka_trick.actions import Verb
from controller.games.oshaka_trick.bots import OshakaBot
from controller.games.oshaka_trick.engine import OshakaTrick, RegisterHand, deal
from controller.games.oshaka_trick.snapshot import OshakaSnapshot
from controller.view import (
    ButtonHint,
    GameChoice,
    GameView,
    Message,
    MessageKind,
    Screen,
    SeatView,
    TableView,
)
from display import layout, theme
from display.layout import Side
from display.renderer import Renderer
from display.screenshot import save_screenshot, screenshot_view
from display.ui import ChooseGame, PressButton, Quit, TapCard, action_for_event
from hardware.events import Button

SIZES = [(800, 480), (1920, 1080)]

GAMES = tuple(
    GameChoice(spec.id, spec.title, spec.min_players, spec.max_players) for spec in specs().values()
)


# --- building views ------------------------------------------------------------------


def oshaka_engine(actions: int = 30, seed: int = 7) -> OshakaTrick:
    """A 4-player game with registered hands, played on by bots for ``actions`` actions."""
    engine = OshakaTrick(4, 0)
    for seat, hand in enumerate(deal(4, random.Random(seed))):
        engine.apply(RegisterHand(seat, tuple(hand)))
    bot = OshakaBot(random.Random(seed))
    for _ in range(actions):
        expected = engine.expected
        if expected is None:
            break
        engine.apply(bot.choose(engine, expected.seat))
    return engine


def oshaka_hands(engine: OshakaTrick) -> dict[int, tuple[str, ...]]:
    hands: dict[int, tuple[str, ...]] = {}
    for seat in range(engine.players):
        hand = engine.registered_hand(seat)
        if hand is not None:
            hands[seat] = tuple(str(card) for card in hand)
    return hands


def table_seats(
    count: int = 4, players: int = 4, offline: int | None = None
) -> tuple[SeatView, ...]:
    """``count`` physical seats; the first ``players`` play as engine seats 0.. in order."""
    return tuple(
        SeatView(
            seat=index,
            joined=index < players,
            player=index if index < players else None,
            is_bot=index in (1, 2),
            reader_online=index != offline,
            label=f"Seat {index + 1}",
        )
        for index in range(count)
    )


def seat_buttons(seats: tuple[SeatView, ...], *names: Button) -> tuple[ButtonHint, ...]:
    return tuple(ButtonHint(seat.seat, name, name.upper()) for seat in seats for name in names)


def play_view(
    engine: OshakaTrick | None = None, version: int = 10, human: tuple[int, ...] = (0,)
) -> TableView:
    engine = engine or oshaka_engine()
    seats = table_seats(4, 4, offline=2)
    return TableView(
        version=version,
        screen=Screen.PLAY,
        seats=seats,
        games=GAMES,
        game_id="oshaka-trick",
        game=GameView(engine.snapshot(), Overlay()),
        messages=(
            Message("Seat 2 won the trick: B2 is the smallest card", MessageKind.WON),
            Message(
                "R3 is smaller than R8, the top of the red column", MessageKind.PENALTY, seat=0
            ),
            Message("seat 1 cannot play G5: it must follow red", MessageKind.REFUSED, seat=1),
            Message("Seat 3's reader is unplugged", MessageKind.PROBLEM, seat=2),
        ),
        buttons=seat_buttons(seats, Button.OK),
        hands=oshaka_hands(engine),
        human_seats=human,
        title="Cafe table",
    )


def attract_view(version: int = 1) -> TableView:
    seats = table_seats(4, 0)
    return TableView(
        version, Screen.ATTRACT, seats, games=GAMES, buttons=seat_buttons(seats, Button.OK)
    )


def choose_view(version: int = 2, selected: int = 1) -> TableView:
    seats = table_seats(4, 0)
    return TableView(
        version,
        Screen.CHOOSE_GAME,
        seats,
        games=GAMES,
        selected_game=selected,
        buttons=seat_buttons(seats, Button.PREV, Button.NEXT, Button.OK),
    )


def join_view(version: int = 3) -> TableView:
    seats = tuple(
        replace(seat, joined=seat.seat in (0, 2), is_bot=False) for seat in table_seats(5, 0)
    )
    return TableView(
        version,
        Screen.JOIN,
        seats,
        games=GAMES,
        selected_game=0,
        game_id="oshaka-trick",
        buttons=seat_buttons(seats, Button.OK),
        messages=(Message("Seat 3 joined"),),
    )


def results_view(version: int = 50) -> TableView:
    engine = oshaka_engine(actions=10_000)
    assert engine.expected is None  # played to the end
    return TableView(
        version,
        Screen.RESULTS,
        table_seats(4, 4),
        games=GAMES,
        game_id="oshaka-trick",
        game=GameView(engine.snapshot(), Overlay()),
        result=engine.report(),
        buttons=seat_buttons(table_seats(4, 4), Button.OK),
    )


@dataclass(frozen=True)
class MadeUpSnapshot(Snapshot):
    """The snapshot of a game the display knows nothing of: its JSON form is all it has."""

    picture: tuple[tuple[str, object], ...]

    def to_json(self) -> JSON:
        return dict(self.picture)


def generic_view(version: int = 20) -> TableView:
    """A made-up game the display has no scene for: the generic one must cope."""
    seats = table_seats(6, 5)
    game: dict[str, Any] = {
        "game": "made-up",
        "title": "Made Up",
        "round": 3,
        "trick_number": 2,
        "phase": "play",
        "trick": [{"seat": 1, "card": "QH"}, {"seat": 2, "card": "7S"}, {"seat": 3, "card": "AD"}],
        "next": {"seat": 4, "expects": "play"},
        "totals": [12, 30, 7, 0, 18],
        "seats": [{"seat": s, "bid": s % 3, "tricks": s % 2, "hand": None} for s in range(5)],
    }
    return TableView(
        version,
        Screen.PLAY,
        seats,
        games=GAMES,
        game_id="made-up",
        game=GameView(MadeUpSnapshot(tuple(game.items())), Overlay()),
        messages=(
            Message("seat 2 cannot play 7S: it must follow hearts", MessageKind.REFUSED, seat=2),
        ),
        hands={4: ("2C", "9H", "KS", "AD")},
        human_seats=(4,),
        buttons=seat_buttons(seats, Button.OK),
    )


def every_screen() -> Iterator[TableView]:
    yield attract_view()
    yield choose_view()
    yield join_view()
    yield play_view()
    yield generic_view()
    yield results_view()


# --- measuring pictures -----------------------------------------------------------------


def distinct_colours(surface: pygame.Surface, step: int = 7) -> int:
    """How many different colours a grid sample of ``surface`` holds."""
    w, h = surface.get_size()
    return len(
        {tuple(surface.get_at((x, y)))[:3] for x in range(0, w, step) for y in range(0, h, step)}
    )


def count_colour(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    """How many pixels of exactly ``colour`` a sample of every second pixel of every second
    row of ``rect`` (from its top left) holds.

    Done on the picture's bytes, a row at a time: each channel of the sampled pixels
    becomes a string of 0/1 bytes (is it this colour's channel?), and a pixel counts
    where all three are 1. Reading pixel by pixel (``get_at``) took half a second of
    CPU for a full-HD screen.
    """
    rect = rect.clip(surface.get_rect())
    if rect.width <= 0 or rect.height <= 0:
        return 0
    rgb = pygame.image.tobytes(surface.subsurface(rect), "RGB")
    stride = rect.width * 3
    flags = [bytes(int(value == wanted) for value in range(256)) for wanted in colour]
    count = 0
    for top in range(0, len(rgb), 2 * stride):
        row = rgb[top : top + stride]
        red, green, blue = (row[i::6].translate(flags[i]) for i in range(3))
        count += (
            int.from_bytes(red, "big") & int.from_bytes(green, "big") & int.from_bytes(blue, "big")
        ).bit_count()
    return count


def find_hit(renderer: Renderer, kind: type, **fields: Any) -> tuple[int, int]:
    """A window pixel whose click means an action of ``kind`` with ``fields``."""
    for rect, action in renderer.hit_boxes:
        if isinstance(action, kind) and all(getattr(action, k) == v for k, v in fields.items()):
            window = renderer.window_rect(rect)
            return window.centerx, window.centery
    raise AssertionError(f"no {kind.__name__} {fields} drawn")


# --- every screen draws ---------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    "view", list(every_screen()), ids=lambda v: f"{v.screen.value}-{v.game_id}"
)
def test_every_screen_draws_a_full_picture(
    view: TableView, size: tuple[int, int], tmp_path: Path
) -> None:
    renderer = Renderer(size)
    surface = renderer.render(view)
    assert surface.get_size() == size
    assert renderer.frames_drawn == 1
    # A blank or one-colour screen has a handful of colours; text, cards and panels give many.
    assert distinct_colours(surface) > 40
    saved = save_screenshot(surface, tmp_path / f"{view.screen.value}.png")
    assert pygame.image.load(str(saved)).get_size() == size


def test_oshaka_scene_draws_cards_of_every_colour_from_a_real_snapshot() -> None:
    engine = oshaka_engine(actions=40)
    snapshot = engine.snapshot()
    placed = [c for seat in snapshot.seats for col in seat.columns.values() for c in col]
    assert placed, "the bots should have placed some cards face up by now"
    renderer = Renderer((1920, 1080))
    surface = renderer.render(play_view(engine))
    deck = specs()["oshaka-trick"].deck
    for colour in {deck.face(card).colour for card in placed}:
        assert count_colour(surface, surface.get_rect(), theme.CARD_COLOURS[colour]) > 50, colour


def test_each_seat_count_gets_panels_that_fit_and_do_not_overlap() -> None:
    for seats in range(1, 10):
        sides = layout.default_sides(seats)
        assert len(sides) == seats
        for size, deep in [(s, d) for s in [*SIZES, (480, 800)] for d in (False, True)]:
            lay = layout.compute_layout(size, sides, deep)
            canvas = pygame.Rect((0, 0), size)
            rects = [slot.rect for slot in lay.slots] + [lay.centre]
            assert [slot.seat_index for slot in lay.slots] == list(range(seats))
            for index, rect in enumerate(rects):
                assert canvas.contains(rect) and rect.w > 0 and rect.h > 0
                for other in rects[index + 1 :]:
                    assert not rect.colliderect(other), (seats, size, rect, other)


def test_four_seats_sit_bottom_left_top_right_clockwise() -> None:
    lay = layout.compute_layout((800, 480), layout.default_sides(4))
    bottom, left, top, right = (slot.rect for slot in lay.slots)
    assert bottom.bottom == 480 and top.top == 0 and left.left == 0 and right.right == 800
    assert [slot.rotation for slot in lay.slots] == [0, 90, 180, 270]
    # Two seats on the bottom edge: clockwise runs right to left there.
    five = layout.compute_layout((800, 480), layout.default_sides(5))
    assert five.slots[0].side is Side.BOTTOM and five.slots[1].side is Side.BOTTOM
    assert five.slots[0].rect.left > five.slots[1].rect.left


# --- drawing only when something changed ------------------------------------------------


def test_draw_skips_the_same_version_and_redraws_a_new_one() -> None:
    renderer = Renderer((800, 480))
    view = attract_view(version=5)
    assert renderer.draw(view) is True
    before = renderer.surface.copy()
    assert renderer.draw(view) is False
    assert renderer.draw(replace(view, title="changed but same version")) is False
    assert renderer.frames_drawn == 1
    assert renderer.draw(choose_view(version=6)) is True
    assert renderer.frames_drawn == 2
    assert renderer.drawn_version == 6
    # The picture really changed.
    assert pygame.image.tobytes(before, "RGB") != pygame.image.tobytes(renderer.surface, "RGB")


def test_resize_and_rotation_force_a_redraw_at_the_new_size() -> None:
    renderer = Renderer((800, 480))
    view = play_view()
    renderer.draw(view)
    renderer.resize((1024, 600))
    assert renderer.draw(view) is True
    assert renderer.surface.get_size() == (1024, 600)
    renderer.rotation = 90
    assert renderer.draw(view) is True
    assert renderer.canvas_size == (600, 1024)
    assert renderer.draw(view) is False
    with pytest.raises(ValueError):
        renderer.rotation = 45


def test_fonts_are_cached_per_size() -> None:
    renderer = Renderer((800, 480))
    renderer.draw(play_view(version=1))
    cached = len(renderer.fonts)
    renderer.draw(play_view(version=2))
    assert len(renderer.fonts) == cached


# --- panels face their seats ------------------------------------------------------------


def test_turn_highlight_is_strong_and_sits_on_the_centre_side_of_each_panel() -> None:
    engine = oshaka_engine(actions=0)
    base = play_view(engine, human=())
    renderer = Renderer((800, 480))
    for player in range(4):
        # Make each seat the one to play, with nothing else in the highlight colour.
        assert base.game is not None
        snap = base.game.snapshot
        assert isinstance(snap, OshakaSnapshot)
        turn = replace(snap, next=Expectation(player, Verb.PLAY), trick=())
        game = GameView(turn, Overlay())
        renderer.draw(replace(base, version=100 + player, game=game, buttons=(), messages=()))
        assert renderer.layout is not None
        slot = renderer.layout.slots[player]
        rect = slot.rect
        # The header bar (gold) is at the top of the upright panel, i.e. toward the centre:
        # the panel's half nearer the centre holds far more gold than the half at the edge.
        w, h = rect.size
        top_half = pygame.Rect(rect.left, rect.top, w, h // 2)
        bottom_half = pygame.Rect(rect.left, rect.top + h // 2, w, h - h // 2)
        left_half = pygame.Rect(rect.left, rect.top, w // 2, h)
        right_half = pygame.Rect(rect.left + w // 2, rect.top, w - w // 2, h)
        near, far = {
            Side.BOTTOM: (top_half, bottom_half),
            Side.TOP: (bottom_half, top_half),
            Side.LEFT: (right_half, left_half),
            Side.RIGHT: (left_half, right_half),
        }[slot.side]
        near_gold = count_colour(renderer.surface, near, theme.TURN)
        far_gold = count_colour(renderer.surface, far, theme.TURN)
        assert near_gold > 200, (slot.side, near_gold)
        assert near_gold > far_gold * 2, (slot.side, near_gold, far_gold)
        # Other panels are not highlighted.
        for other in renderer.layout.slots:
            if other is not slot:
                inner = other.rect.inflate(-other.rect.w // 3, -other.rect.h // 3)
                assert count_colour(renderer.surface, inner, theme.TURN) < 20, other.side


def test_turned_surfaces_agree_with_rotate_point() -> None:
    image = pygame.Surface((40, 20))
    image.fill((0, 0, 0))
    image.set_at((3, 2), (255, 0, 0))
    for rotation in layout.ROTATIONS:
        turned = layout.turn_surface(image, rotation)
        assert turned.get_size() == layout.rotated_size((40, 20), rotation)
        x, y = layout.rotate_point((3.5, 2.5), (40, 20), rotation)
        assert tuple(turned.get_at((int(x), int(y))))[:3] == (255, 0, 0), rotation
        back = layout.unrotate_point((x, y), (40, 20), rotation)
        assert back == pytest.approx((3.5, 2.5))


# --- the simulator's controls ------------------------------------------------------------


def test_hit_test_finds_a_card_of_the_on_screen_hand_and_a_button() -> None:
    engine = oshaka_engine(actions=0)
    view = play_view(engine, human=(0,))
    renderer = Renderer((800, 480))
    renderer.draw(view)
    hand = view.hands[0]
    assert len(hand) == 13
    for card in (hand[0], hand[6], hand[-1]):
        pos = find_hit(renderer, TapCard, seat=0, card=card)
        assert renderer.hit_test(pos) == TapCard(0, card)
    # Only the human seat's hand is clickable: nobody else's cards.
    taps = {a for _, a in renderer.hit_boxes if isinstance(a, TapCard)}
    assert {a.seat for a in taps} == {0}
    assert {a.card for a in taps} == set(hand)
    pos = find_hit(renderer, PressButton, seat=2, button="ok")
    assert renderer.hit_test(pos) == PressButton(2, Button.OK)
    # The centre of the trick area is nobody's control.
    assert renderer.layout is not None
    assert renderer.hit_test(renderer.layout.centre.center) is None


def test_a_click_on_the_visible_strip_of_an_overlapped_card_taps_that_card() -> None:
    renderer = Renderer((800, 480))
    view = play_view(oshaka_engine(actions=0), human=(0,))
    renderer.draw(view)
    taps = [(r, a) for r, a in renderer.hit_boxes if isinstance(a, TapCard)]
    first, second = taps[0][0], taps[1][0]
    # The seat-0 panel is upright: the left edge of each card strip belongs to that card.
    assert renderer.hit_test((first.left + 1, first.centery)) == taps[0][1]
    assert renderer.hit_test((second.left + 1, second.centery)) == taps[1][1]


def test_hit_test_on_a_side_panel_and_the_game_menu() -> None:
    renderer = Renderer((1920, 1080))
    view = choose_view(selected=2)
    renderer.draw(view)
    for index in range(len(GAMES)):
        assert renderer.hit_test(find_hit(renderer, ChooseGame, index=index)) == ChooseGame(index)
    # Seat 1 sits at the left edge: its buttons are in the left panel, turned.
    x, y = find_hit(renderer, PressButton, seat=1, button="next")
    assert x < renderer.layout.depth if renderer.layout else False
    assert renderer.hit_test((x, y)) == PressButton(1, Button.NEXT)


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_mounting_rotation_maps_clicks_to_the_same_controls(rotation: int) -> None:
    view = play_view(oshaka_engine(actions=0), human=(0,))
    turned = Renderer((800, 480), rotation=rotation)
    turned.draw(view)
    assert turned.canvas_size == layout.rotated_size((800, 480), rotation)
    # The same picture unturned: a window of the canvas's size.
    upright = Renderer(turned.canvas_size)
    upright.draw(view)
    card = view.hands[0][3]
    x, y = find_hit(upright, TapCard, seat=0, card=card)
    # The same spot of the picture, after turning the picture clockwise.
    wx, wy = layout.rotate_point((x + 0.5, y + 0.5), turned.canvas_size, rotation)
    assert turned.hit_test((int(wx), int(wy))) == TapCard(0, card)
    # And the pixels there show the same thing.
    assert turned.surface.get_at((int(wx), int(wy))) == upright.surface.get_at((x, y))


def test_rotation_180_maps_a_click_by_hand_computed_coordinates() -> None:
    view = choose_view(selected=0)
    upright = Renderer((800, 480))
    upright.draw(view)
    flipped = Renderer((800, 480), rotation=180)
    flipped.draw(view)
    x, y = find_hit(upright, ChooseGame, index=0)
    assert flipped.hit_test((799 - x, 479 - y)) == ChooseGame(0)
    assert flipped.hit_test((x, y)) != ChooseGame(0)
    # A seat button: the bottom seat's OK shows near the top edge of a flipped window.
    bx, by = find_hit(upright, PressButton, seat=0, button="ok")
    assert by > 240
    assert flipped.hit_test((799 - bx, 479 - by)) == PressButton(0, Button.OK)


def test_no_on_screen_hand_without_human_seats() -> None:
    renderer = Renderer((800, 480))
    renderer.draw(play_view(human=()))
    assert not [a for _, a in renderer.hit_boxes if isinstance(a, TapCard)]


def test_action_for_event_maps_quit_escape_and_clicks() -> None:
    renderer = Renderer((800, 480))
    renderer.draw(choose_view())
    pos = find_hit(renderer, ChooseGame, index=0)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    assert action_for_event(click, renderer.hit_test) == ChooseGame(0)
    assert action_for_event(pygame.event.Event(pygame.QUIT), renderer.hit_test) == Quit()
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)
    assert action_for_event(escape, renderer.hit_test) == Quit()
    assert (
        action_for_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos), renderer.hit_test) is None
    )


# --- odds and ends ------------------------------------------------------------------------


def test_screenshot_view_writes_a_png(tmp_path: Path) -> None:
    path = screenshot_view(results_view(), tmp_path / "shots" / "results.png", size=(1024, 600))
    image = pygame.image.load(str(path))
    assert image.get_size() == (1024, 600)
