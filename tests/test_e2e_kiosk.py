"""End to end: four seats play a whole Oshaka game through serial readers on real
pseudo-terminals and gpiozero mock buttons; the exported record, the LED frames
and the screenshots are checked against what happened."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame
import pytest

from controller.games.oshaka_trick.engine import OshakaTrick, Play
from controller.kiosk.app import Kiosk
from controller.records.record import replay
from controller.view import Screen
from hardware.events import TagPresented
from hardware.leds import RecordingStrip
from hardware.ptys import PtyPair
from tests.rigs import PIXELS, is_turn_green, serial_config, serial_tapper

SEATS = 4


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def segment_colours(strip: RecordingStrip, seat: int) -> set[tuple[int, int, int]]:
    frame = strip.pixels(-1)
    return set(frame[seat * PIXELS : (seat + 1) * PIXELS])


@pytest.mark.slow
def test_four_seats_play_a_full_game_over_serial_and_gpio(
    ptys: list[PtyPair], tmp_path: Path
) -> None:
    config = serial_config(ptys)
    kiosk = Kiosk.create(config, seed=11, auto_game="oshaka-trick", records_dir=tmp_path)
    clock = FakeClock()
    kiosk.table.clock = clock
    strip = kiosk.devices.strip
    assert isinstance(strip, RecordingStrip)

    tags_seen: list[TagPresented] = []
    original_handle = kiosk.table.handle

    def handle(event: object) -> None:
        if isinstance(event, TagPresented):
            tags_seen.append(event)
        original_handle(event)  # type: ignore[arg-type]

    kiosk.table.handle = handle  # type: ignore[method-assign]

    kiosk.simulator.tapper = serial_tapper(ptys)
    plays_checked = 0
    with kiosk.devices:
        for _ in range(4000):
            if kiosk.table.screen is Screen.RESULTS:
                break
            game = kiosk.table.game
            before = len(game.recorder.actions) if game else 0
            tags_before = len(tags_seen)
            acted = kiosk.simulator.step(0.0)
            kiosk.loop.drain()
            game = kiosk.table.game
            if (
                game is not None
                and kiosk.table.screen is Screen.PLAY
                and acted
                and len(tags_seen) == tags_before
            ):
                # A tap travels through the pseudo-terminal and the reader thread:
                # wait for it to arrive (bounded), not for a fixed time.
                deadline = time.monotonic() + 5
                while len(game.recorder.actions) == before and time.monotonic() < deadline:
                    kiosk.loop.run_once(timeout=0.05)
            if game is None or len(game.recorder.actions) == before:
                continue
            last = game.recorder.actions[-1]
            engine = game.adapter.engine
            assert isinstance(engine, OshakaTrick)
            if isinstance(last, Play) and 0 < len(engine.round.trick.plays) < SEATS:
                # Mid-trick: let transient cues end, then the frame shows whose turn it is.
                clock.now += 5
                kiosk.devices.leds.tick(clock.now)
                expected = engine.expected
                assert expected is not None
                for seat in range(SEATS):
                    colours = segment_colours(strip, seat)
                    assert is_turn_green(colours) == (seat == expected.seat), (seat, colours)
                plays_checked += 1
        assert kiosk.table.screen is Screen.RESULTS

        # Every card play came through a serial reader.
        game = kiosk.table.game
        assert game is not None
        plays = [a for a in game.recorder.actions if isinstance(a, Play)]
        assert len(plays) == 2 * 13 * SEATS
        assert len(tags_seen) >= len(plays)
        assert plays_checked >= 2 * 13 * (SEATS - 1)

        # The exported record replays to the scores the table showed.
        records = sorted(tmp_path.glob("*-oshaka-trick.jsonl"))
        assert len(records) == 1
        replayed = replay(records[0].read_text(encoding="utf-8"))
        assert kiosk.table.result is not None
        assert replayed.report() == kiosk.table.result
        assert replayed.report()["totals"] == kiosk.table.result["totals"]
        assert replayed.finished

        # Screenshots of the final table at the smallest and largest sizes.
        from display.screenshot import screenshot_view

        for size in ((800, 480), (1920, 1080)):
            path = screenshot_view(kiosk.table.view, tmp_path / f"final-{size[0]}.png", size)
            image = pygame.image.load(str(path))
            assert image.get_size() == size
            sample = {
                tuple(image.get_at((x, y)))
                for x in range(0, size[0], 17)
                for y in range(0, size[1], 13)
            }
            assert len(sample) > 10, f"the {size} screenshot looks blank"
    assert os.environ.get("SDL_VIDEODRIVER") == "dummy"
