"""Oskar at the table: dice, rerolls with the seat buttons, doubles, manual entry, a full game.

Everything goes through the real path: mock readers (or serial readers on
pseudo-terminals), gpiozero MockFactory buttons via ``Devices.press``, the
recording LED strip, and pygame with the dummy video driver.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from controller.games.base import Action
from controller.games.oskar.engine import (
    Card,
    KeepDoubles,
    Oskar,
    Phase,
    Play,
    RegisterHand,
    RollDice,
    full_deck,
    genre_word,
    stock_size,
)
from controller.games.oskar.table import OskarAdapter
from controller.kiosk.app import Kiosk
from controller.kiosk.simulation import Simulator
from controller.records.record import replay
from controller.view import MessageKind, Screen
from display.renderer import Renderer
from display.scenes import scene_for
from display.screenshot import screenshot_view
from hardware.cues import Cue
from hardware.events import Button, InputEvent, TagPresented
from hardware.leds import RecordingStrip
from hardware.ptys import PtyPair
from tests.rigs import TableRig, painted_text, serial_config, serial_tapper
from tests.words import shown


class Rig(TableRig):
    """The table rig with Oskar's deck."""

    deck = "oskar"

    def start_oskar(self, seats: tuple[int, ...] = (0, 1, 2, 3)) -> Oskar:
        self.start_game("oskar", seats)
        return self.engine

    @property
    def adapter(self) -> OskarAdapter:
        return self.adapter_as(OskarAdapter)

    @property
    def engine(self) -> Oskar:
        return self.adapter.engine


def phase_of(engine: Oskar) -> Phase:
    """The engine's phase now (a call, so a type checker does not keep an earlier answer)."""
    return engine.phase


def started(seed: int = 5, seats: int = 4) -> Rig:
    rig = Rig(seats=seats, seed=seed)
    rig.devices.__enter__()
    rig.loop.drain()
    rig.start_oskar(tuple(range(seats)))
    return rig


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


@pytest.fixture
def manual_rig() -> Iterator[Rig]:
    """A table whose players roll real dice and enter the faces with the buttons."""
    with Rig(dice="manual").running() as r:
        yield r


def rig_with(condition: Callable[[Rig], bool], tries: int = 200) -> Rig:
    """A started 4-seat game from the first table seed whose opening meets ``condition``."""
    for seed in range(tries):
        rig = started(seed)
        if condition(rig):
            return rig
        rig.devices.__exit__(None, None, None)
    raise AssertionError("no seed gave the wanted opening")


def decline_pending_doubles(rig: Rig) -> None:
    """Any seat with a pending doubles offer keeps its dice (OK with no die picked)."""
    for _ in range(20):
        seat = rig.engine.doubles
        if seat is None:
            return
        rig.press(seat, Button.OK)
    raise AssertionError("doubles offers do not end")


def recorded(rig: Rig, kind: type[Action]) -> list[tuple[Action, bool]]:
    """The game's recorded actions of ``kind``, each with whether chance supplied it."""
    game = rig.table.game
    assert game is not None
    pairs = zip(game.recorder.actions, game.chance, strict=True)
    return [(action, chance) for action, chance in pairs if isinstance(action, kind)]


def play_until(rig: Rig, phase: Phase, limit: int = 5000) -> None:
    """Bots play every seat (through the mock devices) until the engine reaches ``phase``."""
    sim = Simulator(
        rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3}, rng=random.Random(2)
    )
    for _ in range(limit):
        if rig.engine.phase is phase:
            return
        assert sim.step(0.0)
        rig.loop.drain()
    raise AssertionError(f"never reached {phase}")


# --- the opening: virtual roller and virtual deal ---------------------------------------


def test_the_menu_offers_oskar_and_the_virtual_roller_rolls_every_seat(rig: Rig) -> None:
    engine = rig.start_oskar()
    decline_pending_doubles(rig)
    assert engine.phase is Phase.PLAY
    assert all(faces is not None for faces in engine.dice)
    game = rig.table.game
    assert game is not None
    rolls = recorded(rig, RollDice)
    assert len(rolls) == 4
    # Every opening roll is chance: the engine rolls again once a seat keeps its doubles.
    assert all(chance for _, chance in rolls)
    # The engine dealt the round: hand registrations in the record, as chance.
    dealt = recorded(rig, RegisterHand)
    assert [a.seat for a, _ in dealt] == [0, 1, 2, 3] and all(chance for _, chance in dealt)
    hands = [rig.adapter.simulation.hand(p) for p in range(4)]
    assert all(len(h) == engine.hand_size for h in hands)
    stock = engine.stock_cards()
    assert stock is not None and len(stock) == stock_size(4)
    everything = Counter(c for h in hands for c in h) + Counter(str(c) for c in stock)
    assert everything == Counter(str(c) for c in full_deck())
    # The dice show on the table's view, and the seat to lead is lit green.
    view = rig.table.view
    assert view.game is not None
    assert [s["dice"] for s in view.game.to_json()["seats"]] == [list(f) for f in engine.dice if f]
    lead = engine.round.turn
    assert rig.devices.leds.showing(lead, rig.now) is Cue.YOUR_TURN


def test_a_card_not_in_the_hand_is_refused_and_a_held_one_is_played(rig: Rig) -> None:
    engine = rig.start_oskar()
    decline_pending_doubles(rig)
    seat = engine.round.turn
    hand = rig.adapter.simulation.hand(seat)
    other = next(c for c in rig.adapter.simulation.hand((seat + 1) % 4) if c not in hand)
    before = engine.snapshot()
    rig.tap(seat, other)
    assert engine.snapshot() == before
    assert f"does not hold {other}" in rig.last_text()
    assert rig.table.messages[-1].kind is MessageKind.REFUSED
    assert rig.devices.leds.showing(seat, rig.now) is Cue.REFUSED
    rig.tap(seat, hand[-1])
    assert engine.round.trick == [(seat, Card.parse(hand[-1]))]
    assert len(rig.adapter.simulation.hand(seat)) == engine.hand_size - 1


def test_with_a_physical_deal_each_seat_rolls_with_ok_and_plays_any_unplayed_card() -> None:
    rig = Rig(deal="physical")
    with rig.devices:
        rig.loop.drain()
        engine = rig.start_oskar()
        assert engine.phase is Phase.DICE and engine.unrolled() == [0, 1, 2, 3]
        assert {(s, b): label for (s, b), label in rig.hints().items() if b == "ok"} == {
            (s, "ok"): "roll dice" for s in range(4)
        }
        assert set(rig.adapter.presentation.waiting_players()) == {0, 1, 2, 3}
        game = rig.table.game
        assert game is not None
        for seat in (2, 0, 3, 1):
            if engine.dice[seat] is None:
                rig.press(seat, Button.OK)
            decline_pending_doubles(rig)
        assert phase_of(engine) is Phase.PLAY
        # Nothing was dealt or rolled by chance: every roll is a seat's own press.
        assert not any(isinstance(a, RegisterHand) for a in game.recorder.actions)
        assert not any(game.chance)
        assert all(rig.adapter.simulation.hand(p) == () for p in range(4))
        assert engine.stock_cards() is None
        seat = engine.round.turn
        rig.tap(seat, "L16")  # the engine does not know the hands: any unplayed card goes
        assert engine.round.trick == [(seat, Card.parse("L16"))]


# --- the reroll phase --------------------------------------------------------------------


def test_reroll_with_buttons_explains_refusals_and_rolls_the_chosen_dice(rig: Rig) -> None:
    engine = rig.start_oskar()
    play_until(rig, Phase.REROLL)
    decline_pending_doubles(rig)
    rule = engine.rule
    assert rule is not None
    most = rule.order[0]
    assert most in rule.most
    rig.now += 10  # let the round's transient cues (trick won, tokens) end
    rig.devices.leds.tick(rig.now)
    assert rig.devices.leds.showing(most, rig.now) is Cue.YOUR_TURN
    # The seat with the most points must reroll both: both are picked already.
    hints = rig.hints()
    assert hints[(most, "prev")] == "REROLL die 1" and hints[(most, "next")] == "REROLL die 2"
    assert hints[(most, "ok")] == "roll 2 dice"
    rig.press(most, Button.PREV)  # unpick die 0
    assert rig.hints()[(most, "prev")] == "keep die 1"
    before = engine.snapshot()
    rig.press(most, Button.OK)
    assert engine.snapshot() == before
    assert "must reroll both dice, not 1 die" in rig.last_text()
    rig.press(most, Button.PREV)  # pick it again
    rig.press(most, Button.OK)
    assert engine.rerolls_done == 1 or engine.phase is Phase.PLAY
    assert f"Seat {most + 1} rerolls both dice" in " ".join(
        shown(m.text) for m in rig.table.messages
    )

    refused_one_limit = False
    while engine.phase is Phase.REROLL:
        decline_pending_doubles(rig)
        if engine.phase is not Phase.REROLL:
            break
        expected = engine.expected
        assert expected is not None
        seat = expected.seat
        allowed = engine.reroll_allowance(seat)
        faces = engine.dice[seat]
        assert faces is not None
        if allowed == frozenset({0, 1}):
            rig.press(seat, Button.PREV)
            rig.press(seat, Button.NEXT)
            before = engine.snapshot()
            rig.press(seat, Button.OK)
            assert engine.snapshot() == before
            assert "at most one die" in rig.last_text()
            refused_one_limit = True
            rig.press(seat, Button.PREV)  # keep die 0; reroll die 1 only
            rig.press(seat, Button.OK)
            now = engine.dice[seat]
            assert now is not None and now[0] == faces[0]
        elif allowed == frozenset({2}):
            rig.press(seat, Button.OK)  # both are picked for it
        else:
            rig.press(seat, Button.OK)  # nothing picked: keeps both
            assert engine.dice[seat] == faces or engine.doubles == seat
    assert engine.phase is Phase.PLAY and engine.round.number == 2
    if rule.order[len(rule.most) + len(rule.fewest) :]:
        assert refused_one_limit
    # Round 2 was dealt afresh.
    assert engine.stock_cards() is not None
    assert all(len(rig.adapter.simulation.hand(p)) == engine.hand_size for p in range(4))


# --- doubles -----------------------------------------------------------------------------


def test_an_open_doubles_offer_is_the_only_turn_and_the_centre_says_who_follows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def doubles_before_another(rig: Rig) -> bool:
        expected = rig.engine.expected
        doubles = rig.engine.doubles
        return doubles is not None and expected is not None and expected.seat != doubles

    rig = rig_with(doubles_before_another)
    try:
        engine = rig.engine
        doubles, expected = engine.doubles, engine.expected
        assert doubles is not None and expected is not None
        view = rig.table.view
        assert view.game is not None
        scene = scene_for("oskar")
        prompts = {p: scene.turn_prompt(view.game, p) for p in range(4)}
        # One "your turn" at a time: the seat that rolled doubles, not the one after it.
        assert [p for p, prompt in prompts.items() if prompt is not None] == [doubles]
        written = painted_text(monkeypatch)
        Renderer((1920, 1080)).render(view)
        then = {
            "reroll": f"Seat {expected.seat + 1} rerolls",
            "play": f"Seat {expected.seat + 1} plays",
            "dice": "the others roll",
        }[expected.expects]
        order = f"Seat {doubles + 1} decides the doubles, then {then}"
        assert order in written, written
    finally:
        rig.devices.__exit__(None, None, None)


def test_doubles_offer_waits_for_the_seat_and_a_chosen_die_is_rerolled() -> None:
    rig = rig_with(lambda r: r.engine.doubles is not None)
    try:
        engine = rig.engine
        seat = rig.engine.doubles
        assert seat is not None
        faces = engine.dice[seat]
        assert faces is not None and faces[0] == faces[1]
        assert "doubles" in " ".join(shown(m.text) for m in rig.table.messages)
        assert rig.adapter.presentation.waiting_players() == [seat]
        assert rig.devices.leds.showing(seat, rig.now) is Cue.YOUR_TURN
        other = (seat + 1) % 4
        before = engine.snapshot()
        rig.press(other, Button.OK)
        assert engine.snapshot() == before
        assert f"Seat {seat + 1} rolled doubles and decides first" in rig.last_text()
        rig.press(seat, Button.NEXT)  # pick die 1
        assert rig.hints()[(seat, "next")] == "REROLL die 2"
        rig.press(seat, Button.PREV)  # picking die 0 instead unpicks die 1
        assert rig.hints()[(seat, "next")] == "keep die 2"
        assert rig.hints()[(seat, "prev")] == "REROLL die 1"
        # A narrow panel's buttons say it shorter, each still naming its die.
        shorts = {
            h.button: shown(h.short) for h in rig.table.view.buttons if h.seat == seat and h.short
        }
        assert shorts == {Button.PREV: "REROLL 1", Button.NEXT: "keep 2"}
        rig.press(seat, Button.OK)
        game = rig.table.game
        assert game is not None
        rerolls = [a for a in game.recorder.actions if a.to_json().get("reroll") == [0]]
        assert len(rerolls) == 1 and rerolls[0].seat == seat
        now = engine.dice[seat]
        assert now is not None and now[1] == faces[1]
        decline_pending_doubles(rig)
        assert engine.phase is Phase.PLAY
    finally:
        rig.devices.__exit__(None, None, None)


def test_doubles_offer_declined_with_ok_and_no_die_picked() -> None:
    rig = rig_with(lambda r: r.engine.doubles is not None and len(r.engine.unrolled()) > 0)
    try:
        engine = rig.engine
        seat = rig.engine.doubles
        assert seat is not None
        waiting = engine.unrolled()
        assert rig.hints()[(seat, "ok")] == "keep both"
        rig.press(seat, Button.OK)  # keep the doubles: the opening roll goes on
        texts = " ".join(shown(m.text) for m in rig.table.messages)
        assert f"Seat {seat + 1} keeps its doubles" in texts
        assert engine.dice[waiting[0]] is not None
        faces = engine.dice[seat]
        assert faces is not None and faces[0] == faces[1]
        # The "keep" is a line of the record, taken by the seat (not chance).
        game = rig.table.game
        assert game is not None
        kept = recorded(rig, KeepDoubles)
        assert kept == [(KeepDoubles(seat), False)]
        assert kept[0][0].to_json() == {"seat": seat, "reroll": []}
        # Staff undo takes it back (and the rolls it let happen): the offer is open again.
        assert rig.table.undo_last()
        assert rig.engine.doubles == seat
        assert rig.engine.dice[waiting[0]] is None
        assert rig.adapter.presentation.waiting_players() == [seat]
    finally:
        rig.devices.__exit__(None, None, None)


# --- manual dice entry ---------------------------------------------------------------------


def test_manual_dice_entry_with_the_buttons(manual_rig: Rig) -> None:
    rig = manual_rig
    engine = rig.start_oskar()
    assert engine.phase is Phase.DICE and engine.unrolled() == [0, 1, 2, 3]
    assert set(rig.adapter.presentation.waiting_players()) == {0, 1, 2, 3}
    assert rig.hints()[(2, "ok")] == "die 1: western"  # dice counted from 1, as seats
    rig.press(2, Button.NEXT)
    rig.press(2, Button.NEXT)  # western -> horror -> comedy
    assert rig.hints()[(2, "ok")] == "die 1: comedy"
    rig.press(2, Button.OK)
    rig.press(2, Button.PREV)  # the second die: western -> romance, read "love story"
    assert rig.hints()[(2, "ok")] == "die 2: love story"
    rig.press(2, Button.OK)
    assert engine.dice[2] == ("comedy", "romance")
    game = rig.table.game
    assert game is not None
    assert game.recorder.actions[-1].to_json() == {"seat": 2, "dice": ["comedy", "romance"]}
    assert game.chance[-1] is False
    # Doubles entered by hand: the offer, then the seat enters the rerolled face.
    rig.press(0, Button.OK)
    rig.press(0, Button.OK)  # western + western
    assert engine.doubles == 0 and rig.engine.doubles == 0
    rig.press(1, Button.OK)
    assert "Seat 1 rolled doubles and decides first" in rig.last_text()
    rig.press(0, Button.NEXT)  # pick die 1
    rig.press(0, Button.OK)  # now enter its new face
    assert "PREV/NEXT choose the face" in rig.last_text()
    rig.press(0, Button.PREV)  # western -> romance
    rig.press(0, Button.OK)
    assert engine.dice[0] == ("western", "romance")
    assert game.recorder.actions[-1].to_json() == {
        "seat": 0,
        "reroll": [1],
        "dice": ["western", "romance"],
    }
    for seat in (1, 3):
        rig.press(seat, Button.NEXT)
        rig.press(seat, Button.OK)
        rig.press(seat, Button.OK)  # horror + horror
        decline = rig.engine.doubles
        if decline is not None:
            rig.press(decline, Button.OK)
    assert rig.engine.phase is Phase.PLAY
    assert all(len(rig.adapter.simulation.hand(p)) == engine.hand_size for p in range(4))


def test_manual_reroll_enters_the_new_faces(manual_rig: Rig) -> None:
    rig = manual_rig
    engine = rig.start_oskar()
    sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3})
    for _ in range(5000):  # bots enter their dice and play the round through the buttons
        if engine.phase is Phase.REROLL and rig.engine.doubles is None:
            break
        assert sim.step(0.0)
        rig.loop.drain()
    assert engine.phase is Phase.REROLL
    seat = engine.rule.order[0] if engine.rule else -1
    faces = engine.dice[seat]
    assert faces is not None
    rig.press(seat, Button.OK)  # both are picked (most points): enter the two new faces
    assert "PREV/NEXT choose the face" in rig.last_text()
    assert rig.hints()[(seat, "ok")] == f"die 1: {shown(genre_word(faces[0]))}"
    rig.press(seat, Button.NEXT)
    rig.press(seat, Button.OK)
    rig.press(seat, Button.OK)
    game = rig.table.game
    assert game is not None
    last = game.recorder.actions[-1].to_json()
    assert last["seat"] == seat and last["reroll"] == [0, 1]
    assert last["dice"][1] == faces[1]


# --- journal safety of the deal -------------------------------------------------------------


def test_a_mid_round_rebuild_keeps_the_hands_consistent(rig: Rig) -> None:
    engine = rig.start_oskar()
    decline_pending_doubles(rig)
    for _ in range(6):
        seat = engine.round.turn
        rig.tap(seat, rig.adapter.simulation.hand(seat)[0])
    assert rig.table.undo_last()  # staff undo rebuilds the game and a new adapter
    engine = rig.engine
    played = Counter(str(c) for c in engine.round.played.elements())
    hands = [rig.adapter.simulation.hand(p) for p in range(4)]
    for player, hand in enumerate(hands):
        assert len(hand) == engine.hand_size - engine.round.cards_played[player]
    stock = engine.stock_cards()
    assert stock is not None
    everything = Counter(c for h in hands for c in h) + Counter(str(c) for c in stock)
    assert everything + played == Counter(str(c) for c in full_deck())


# --- end to end ------------------------------------------------------------------------------

SEATS = 4


@pytest.mark.slow
def test_bots_play_a_full_game_over_serial_and_gpio(ptys: list[PtyPair], tmp_path: Path) -> None:
    config = serial_config(ptys)
    kiosk = Kiosk.create(config, seed=4, auto_game="oskar", records_dir=tmp_path)
    strip = kiosk.devices.strip
    assert isinstance(strip, RecordingStrip)
    tags_seen: list[TagPresented] = []
    original = kiosk.table.handle

    def handle(event: InputEvent) -> None:
        if isinstance(event, TagPresented):
            tags_seen.append(event)
        original(event)

    kiosk.table.handle = handle  # type: ignore[method-assign]

    kiosk.simulator.tapper = serial_tapper(ptys)
    rerolled_by_button = 0
    with kiosk.devices:
        for _ in range(20000):
            if kiosk.table.screen is Screen.RESULTS:
                break
            game = kiosk.table.game
            before = len(game.recorder.actions) if game else 0
            tags_before = len(tags_seen)
            acted = kiosk.simulator.step(0.0)
            kiosk.loop.drain()
            game = kiosk.table.game
            if game is None or kiosk.table.screen is not Screen.PLAY or not acted:
                continue
            if len(game.recorder.actions) == before and len(tags_seen) == tags_before:
                if kiosk.simulator._plan:
                    continue  # a button press in the middle of a choice
                # A tap travels through the pseudo-terminal and the reader thread:
                # wait for it to arrive (bounded), not for a fixed time.
                deadline = time.monotonic() + 5
                while len(game.recorder.actions) == before and time.monotonic() < deadline:
                    kiosk.loop.run_once(timeout=0.05)
            if len(game.recorder.actions) > before:
                last = game.recorder.actions[-1]
                if "reroll" in last.to_json():
                    rerolled_by_button += 1
        assert kiosk.table.screen is Screen.RESULTS
        game = kiosk.table.game
        assert game is not None
        engine = game.adapter.engine
        assert isinstance(engine, Oskar) and engine.finished
        plays = [a for a in game.recorder.actions if isinstance(a, Play)]
        assert len(plays) == len(engine.results) * engine.hand_size * SEATS
        assert len(tags_seen) >= len(plays)  # every card came through a serial reader
        assert rerolled_by_button >= SEATS * (len(engine.results) - 1)
        # The exported record replays to the report the table showed.
        records = sorted(tmp_path.glob("*-oskar.jsonl"))
        assert len(records) == 1
        replayed = replay(records[0].read_text(encoding="utf-8"))
        assert replayed.finished
        assert replayed.report() == kiosk.table.result
        # Winners' LEDs showed the win cue at the end.
        assert strip.frames

        from display.screenshot import screenshot_view

        view = kiosk.table.view
        from dataclasses import replace

        for screen in (Screen.PLAY, Screen.RESULTS):
            for size in ((800, 480), (1920, 1080)):
                path = screenshot_view(
                    replace(view, screen=screen), tmp_path / f"{screen.value}-{size[0]}.png", size
                )
                image = pygame.image.load(str(path))
                assert image.get_size() == size
                sample = {
                    tuple(image.get_at((x, y)))
                    for x in range(0, size[0], 17)
                    for y in range(0, size[1], 13)
                }
                assert len(sample) > 10, f"the {size} screenshot looks blank"


def test_scene_draws_mid_round_views_at_the_small_and_large_sizes(rig: Rig, tmp_path: Path) -> None:
    from display.scenes.oskar import columns_caption, picked_dice, read_snapshot

    engine = rig.start_oskar()
    play_until(rig, Phase.REROLL)
    decline_pending_doubles(rig)
    view = rig.table.view
    snap = read_snapshot(view.game)
    assert snap == engine.snapshot()  # the display reads exactly the engine's snapshot
    assert snap.columns_scored and shown(columns_caption(snap)) == "Genres this round (scored)"
    last = snap.last_round
    assert last is not None
    assert {c.genre for c in snap.columns if c.trendy} == set(last.trendy)
    assert all(c.points >= 120 and c.needs == 0 for c in snap.columns if c.trendy)
    assert all(c.needs == 120 - c.points for c in snap.columns if not c.trendy)
    rule = engine.rule
    assert rule is not None
    assert picked_dice(view, rule.order[0]) == {0, 1}  # must reroll both: both marked
    assert rig.hints()[(rule.order[0], "prev")] == "REROLL die 1"  # ... as the buttons say
    for size in ((800, 480), (1280, 720), (1920, 1080)):
        path = screenshot_view(view, tmp_path / f"reroll-{size[0]}.png", size)
        image = pygame.image.load(str(path))
        colours = {
            tuple(image.get_at((x, y))) for x in range(0, size[0], 11) for y in range(0, size[1], 7)
        }
        assert len(colours) > 40, f"the {size} screenshot looks bare"
