"""Motion on the table's screen (``display/motion.py``), on an injected clock.

The movements are checked as positions at chosen moments of a fake clock,
never against wall-clock speed; the drawn frames of a real Oh Pshaw game
check that the renderer draws them (pixels change while a card travels, and
stop changing when it lands) and that the table's own view never waits for them.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import parse as parse_table_config
from controller.games.oh_pshaw.snapshot import OhPshawSnapshot
from controller.games.oh_pshaw.spec import SPEC as OH_PSHAW
from controller.games.oh_pshaw.state import Phase
from controller.games.oshaka_trick.snapshot import OshakaSnapshot
from controller.games.oshaka_trick.state import Phase as OshakaPhase
from controller.games.oskar.snapshot import OskarSnapshot
from controller.kiosk.simulation import Simulator
from controller.table.pages import HELP_HOLD, RECALL_SECONDS
from controller.view import TableView
from controller.words import Presenter
from display import legibility
from display.motion import (
    CENTRE,
    COUNT_SECONDS,
    FALL_BEHIND,
    FRAME_STEP,
    GLIDE_SECONDS,
    HOLD_SECONDS,
    RESULT_SECONDS,
    SLIDE_SECONDS,
    STILL,
    TRAVEL_SECONDS,
    Motion,
    TrickPicture,
    ease_out,
)
from display.renderer import Renderer
from display.scenes.oh_pshaw import TOTAL
from display.scenes.oss import TRICK_PAGE_SECONDS
from display.window import Window
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.games.oh_pshaw.test_table_oh_pshaw import Rig
from tests.rigs import TableRig, painted_text
from tests.words import shown

Plays = tuple[tuple[int, str], ...]
LEAD = (0, "QH")
SECOND = (1, "2H")
TRICK = ((0, "QH"), (1, "2H"), (2, "5H"), (3, "KH"))


@dataclass
class Frames:
    """A ``Motion`` driven frame by frame on a fake clock, as the renderer drives it."""

    motion: Motion = field(default_factory=Motion)
    now: float = 10.0

    def at(self, now: float) -> Motion:
        self.now = now
        self.motion.begin(now, "oh-pshaw")
        return self.motion

    def done(self) -> None:
        self.motion.end()

    def trick_until(
        self, until: float, plays: Plays, last: Plays = (), winner: int | None = None
    ) -> TrickPicture:
        """Frames every ``FRAME_STEP`` up to ``until`` (a display keeping up), the last
        one at ``until``; the trick area's picture then."""
        while self.now + FRAME_STEP < until:
            self.at(self.now + FRAME_STEP).trick(plays, last, winner)
            self.done()
        picture = self.at(until).trick(plays, last, winner)
        self.done()
        return picture


def frames_from(plays: tuple[tuple[int, str], ...] = ()) -> Frames:
    """Frames whose first frame (what was on the table already) is drawn at 10.0."""
    frames = Frames()
    frames.at(10.0).trick(plays, (), None)
    frames.done()
    return frames


def test_ease_out_starts_fast_and_lands_softly() -> None:
    assert ease_out(0.0) == 0.0 and ease_out(1.0) == 1.0
    assert ease_out(-1.0) == 0.0 and ease_out(2.0) == 1.0
    # More than half the way in the first quarter of the time, then slower.
    assert ease_out(0.25) > 0.5
    assert ease_out(0.9) - ease_out(0.8) < ease_out(0.2) - ease_out(0.1)


def test_every_movement_lasts_150_to_300_ms() -> None:
    for seconds in (TRAVEL_SECONDS, SLIDE_SECONDS, COUNT_SECONDS, GLIDE_SECONDS):
        assert 0.15 <= seconds <= 0.3


def test_what_is_on_the_table_at_the_first_frame_does_not_move() -> None:
    frames = Frames()
    lead = ((3, "9S"),)
    picture = frames.at(10.0).trick(lead, TRICK, 3)
    frames.done()
    assert picture.plays == lead and picture.arriving == {} and picture.won == ()
    assert frames.motion.due is None


def test_a_played_card_travels_in_from_its_seat() -> None:
    frames = frames_from((LEAD,))
    start = frames.at(11.0).trick((LEAD, SECOND), (), None)
    frames.done()
    assert start.arriving == {"2H": 0.0}
    assert frames.motion.due == pytest.approx(11.0 + FRAME_STEP)
    middle = frames.trick_until(11.0 + TRAVEL_SECONDS / 2, (LEAD, SECOND))
    assert 0.5 < middle.arriving["2H"] < 1.0  # eased: past half way at half time
    landed = frames.trick_until(11.0 + TRAVEL_SECONDS, (LEAD, SECOND))
    assert landed.arriving == {} and landed.plays == (LEAD, SECOND)
    assert frames.motion.due is None  # nothing moves: no more frames asked for


def test_a_completed_trick_stays_until_the_next_card_and_at_least_two_seconds() -> None:
    frames = frames_from(TRICK[:3])
    won = frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    # The completing card travels in; the trick shows with its winner.
    assert won.won == TRICK and won.winner == 3 and won.arriving == {"KH": 0.0}
    # No next card: it stays, however long.
    later = frames.at(60.0).trick((), TRICK, 3)
    frames.done()
    assert later.won == TRICK and later.plays == () and later.gone == 0.0


def test_a_lead_within_the_hold_waits_until_the_trick_was_seen() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    lead = ((3, "9S"),)
    held = frames.at(11.5).trick(lead, TRICK, 3)  # a bot leads half a second later
    frames.done()
    assert held.won == TRICK and held.plays == ()
    assert frames.motion.due == pytest.approx(11.0 + HOLD_SECONDS)  # woken at its end
    moving = frames.at(11.0 + HOLD_SECONDS).trick(lead, TRICK, 3)
    frames.done()
    # Then the won trick slides to its winner while the lead travels in.
    assert moving.plays == lead and moving.arriving == {"9S": 0.0}
    assert moving.won == TRICK and moving.gone == 0.0
    sliding = frames.trick_until(11.0 + HOLD_SECONDS + SLIDE_SECONDS / 2, lead, TRICK, 3)
    assert 0.0 < sliding.gone < 1.0
    settled = frames.trick_until(11.0 + HOLD_SECONDS + 1.0, lead, TRICK, 3)
    assert settled.won == () and settled.arriving == {} and settled.plays == lead


def test_a_lead_after_the_hold_comes_in_at_once() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    lead = ((3, "9S"),)
    picture = frames.at(20.0).trick(lead, TRICK, 3)
    frames.done()
    assert picture.plays == lead and picture.arriving == {"9S": 0.0} and picture.won == TRICK


def test_the_round_s_last_trick_is_held_over_the_next_round() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    held = frames.at(12.0).held()
    frames.done()
    assert held is not None and held.won == TRICK and held.winner == 3
    assert frames.motion.due == pytest.approx(11.0 + HOLD_SECONDS)
    assert frames.at(11.0 + HOLD_SECONDS).held() is None


def test_a_trick_that_leaves_without_a_last_trick_just_goes() -> None:
    frames = frames_from(TRICK[:3])
    # A snapshot without the completed trick (its last card never shown): nothing to hold.
    assert frames.at(11.0).trick(()).won == ()
    frames.done()
    assert frames.motion.due is None


def test_a_card_back_from_a_new_deal_travels_again() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    frames.at(15.0).trick((), (), None)  # a new round: the table is empty
    frames.done()
    again = frames.at(20.0).trick((TRICK[0],), (), None)
    frames.done()
    assert again.arriving == {"QH": 0.0}


def test_frames_that_fall_behind_jump_to_the_end() -> None:
    frames = frames_from((LEAD,))
    frames.at(11.0).trick((LEAD, SECOND), (), None)
    frames.done()
    # The next frame comes late (the Pi was busy): the card is where it lands.
    late = frames.at(11.0 + FALL_BEHIND + 0.01).trick((LEAD, SECOND), (), None)
    frames.done()
    assert late.arriving == {}
    # A later movement moves again.
    third = (2, "5H")
    later = frames.at(12.0).trick((LEAD, SECOND, third), (), None)
    frames.done()
    assert later.arriving == {"5H": 0.0}


def test_motion_off_draws_ends_at_once_but_keeps_the_hold() -> None:
    frames = frames_from(TRICK[:3])
    frames.motion.enabled = False
    won = frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    assert won.arriving == {} and frames.motion.due is None
    held = frames.at(11.5).trick(((3, "9S"),), TRICK, 3)
    frames.done()
    assert held.won == TRICK and held.plays == ()
    after = frames.at(11.0 + HOLD_SECONDS).trick(((3, "9S"),), TRICK, 3)
    frames.done()
    assert after.won == () and after.arriving == {} and after.plays == ((3, "9S"),)
    assert frames.motion.count("totals", [5]) == [5]


def test_scores_count_to_their_new_value() -> None:
    frames = Frames()
    assert frames.at(10.0).count("totals", [10, 0, None]) == [10, 0, None]
    frames.done()
    assert frames.at(11.0).count("totals", [30, 0, 4]) == [10, 0, 4]
    frames.done()
    shown: list[list[int | None]] = []
    for frame in range(1, 20):
        shown.append(frames.at(11.0 + frame * FRAME_STEP).count("totals", [30, 0, 4]))
        frames.done()
    firsts = [values[0] for values in shown]
    assert firsts == sorted(firsts, key=lambda v: v or 0)  # it only counts up
    assert any(v is not None and 10 < v < 30 for v in firsts)  # through the values between
    assert shown[-1] == [30, 0, 4] and all(values[1:] == [0, 4] for values in shown)


def count_frames(frames: Frames, part: str, name: str, value: int) -> list[int]:
    """Frames of ``part`` alone, each when the motion asks for it, until it is still: the
    figure ``name`` (headed for ``value``) as each showed."""
    shown: list[int] = []
    while (due := frames.motion.due_of(part)) is not None:
        with frames.at(due).part(part):
            shown.append(frames.motion.figure(name, value))
        frames.done()
    return shown


def test_a_panel_s_score_counts_on_that_panel_alone() -> None:
    frames = Frames()
    motion = frames.at(10.0)
    for seat, total in ((1, 10), (2, 5)):
        with motion.part(f"panel {seat}"):
            motion.figure(f"total of {seat}", total)
    frames.done()
    assert motion.due is None  # the first frame: the scores were there already
    with frames.at(11.0).part("panel 1"):
        assert motion.figure("total of 1", 30) == 10  # it starts from what showed
    frames.done()
    # Only the panel whose score changed asks to be drawn again.
    assert motion.due_of("panel 1") == pytest.approx(11.0 + FRAME_STEP)
    assert motion.due_of("panel 2") is None and motion.due == motion.due_of("panel 1")
    shown = count_frames(frames, "panel 1", "total of 1", 30)
    assert shown == sorted(shown) and shown[-1] == 30
    assert any(10 < value < 30 for value in shown)  # through the values between
    assert frames.now <= 11.0 + COUNT_SECONDS + FRAME_STEP
    assert motion.due is None


def test_due_says_what_the_frame_drawn_so_far_asks_for() -> None:
    frames = frames_from((LEAD,))
    frames.at(11.0).trick((LEAD, SECOND), (), None)
    assert frames.motion.due == pytest.approx(11.0 + FRAME_STEP)  # before the frame ends
    frames.done()
    frames.at(12.0).trick((LEAD, SECOND), (), None)
    assert frames.motion.due is None  # it landed: known within the frame already
    frames.done()
    assert frames.motion.due is None


def test_a_part_not_drawn_keeps_the_frame_it_asked_for() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    frames.at(11.5).trick(((3, "9S"),), TRICK, 3)  # the lead waits for the hold's end
    frames.done()
    hold_end = 11.0 + HOLD_SECONDS
    assert frames.motion.due_of(CENTRE) == pytest.approx(hold_end)
    # A panel counts meanwhile; the centre is not drawn in those frames.
    with frames.at(11.6).part("panel 0"):
        frames.motion.figure("total of 0", 0)
    frames.done()
    with frames.at(11.7).part("panel 0"):
        frames.motion.figure("total of 0", 20)
    frames.done()
    assert frames.motion.due_of(CENTRE) == pytest.approx(hold_end)
    assert frames.motion.due == pytest.approx(11.7 + FRAME_STEP)


def test_a_panel_s_count_that_falls_behind_shows_the_new_score() -> None:
    frames = Frames()
    with frames.at(10.0).part("panel 0"):
        frames.motion.figure("total of 0", 10)
    frames.done()
    with frames.at(11.0).part("panel 0"):
        assert frames.motion.figure("total of 0", 30) == 10
    frames.done()
    with frames.at(11.0 + FALL_BEHIND + 0.01).part("panel 0"):
        assert frames.motion.figure("total of 0", 30) == 30
    frames.done()
    assert frames.motion.due is None
    # Motion off: the new score at once, no frames asked for.
    frames.motion.enabled = False
    with frames.at(20.0).part("panel 0"):
        assert frames.motion.figure("total of 0", 50) == 50
    frames.done()
    assert frames.motion.due is None


def test_the_turn_glow_glides_to_the_next_seat() -> None:
    frames = Frames()
    assert frames.at(10.0).glide("turn", (0, 0)) == (0, 0)
    frames.done()
    assert frames.at(11.0).glide("turn", (100, 0)) == (0, 0)
    frames.done()
    for frame in range(1, 4):
        x, y = frames.at(11.0 + frame * FRAME_STEP).glide("turn", (100, 0))
        frames.done()
    assert 50 < x < 100 and y == 0  # eased: past half way at half time (0.1 s of 0.2 s)
    for frame in range(4, 8):
        point = frames.at(11.0 + frame * FRAME_STEP).glide("turn", (100, 0))
        frames.done()
    assert point == (100, 0)


def test_a_new_layout_puts_the_glow_in_its_place_at_once() -> None:
    frames = Frames()
    frames.at(10.0).glide("turn", (0, 0))
    frames.done()
    frames.at(11.0).places_moved()  # the screen was turned: every place moved
    assert frames.motion.glide("turn", (300, 200)) == (300, 200)
    frames.done()
    assert frames.motion.due is None


def test_a_new_game_forgets_the_old_one() -> None:
    frames = frames_from(TRICK[:3])
    frames.at(11.0).trick((), TRICK, 3)
    frames.done()
    frames.motion.begin(11.5, "oshaka-trick")
    picture = frames.motion.trick((LEAD,), (), None)
    assert picture.arriving == {} and picture.won == ()


PAGE = 6.0


def test_pages_turn_in_turn_on_the_display_s_clock_and_wake_it_for_each() -> None:
    frames = Frames()
    shown = []
    for moment in (10.0, 12.0, 16.0, 21.9, 22.0, 28.0, 34.0):
        shown.append(frames.at(moment).page("tricks", 3, PAGE))
        due = frames.motion.due
        frames.done()
        # Woken when the next page is due (pages count from the first frame, at 10 s),
        # and no sooner: turning a page is no movement.
        assert due == pytest.approx(10.0 + PAGE * (1 + (moment - 10.0) // PAGE))
    assert shown == [0, 0, 1, 1, 2, 0, 1]
    assert frames.motion.frames_moving == 0


def test_pages_turn_with_motion_off_too() -> None:
    frames = Frames(Motion(enabled=False))
    assert [frames.at(t).page("tricks", 2, PAGE) for t in (10.0, 16.0, 22.0)] == [0, 1, 0]


def test_one_page_asks_for_no_frame_and_a_new_count_starts_at_the_first() -> None:
    frames = Frames()
    frames.at(10.0).page("tricks", 2, PAGE)
    frames.done()
    assert frames.at(17.0).page("tricks", 2, PAGE) == 1
    frames.done()
    assert frames.at(18.0).page("tricks", 1, PAGE) == 0  # a bigger window: it all fits
    frames.done()
    assert frames.motion.due is None
    assert frames.at(19.0).page("tricks", 3, PAGE) == 0  # pages again: from the first
    frames.done()
    assert frames.motion.due == pytest.approx(25.0)


def test_a_held_page_asks_for_no_frame_and_the_pages_go_on_from_it() -> None:
    frames = Frames()
    frames.at(10.0).page("tricks", 3, PAGE)
    frames.done()
    assert frames.at(11.0).page("tricks", 3, PAGE, held=2) == 2  # a seat chooses there
    frames.done()
    assert frames.motion.due is None
    assert frames.at(40.0).page("tricks", 3, PAGE, held=2) == 2
    frames.done()
    assert frames.at(41.0).page("tricks", 3, PAGE) == 2  # let go: still a whole page
    frames.done()
    assert frames.motion.due == pytest.approx(46.0)
    assert frames.at(46.0).page("tricks", 3, PAGE) == 0


def test_a_still_picture_shows_the_state_as_it_is() -> None:
    assert STILL.trick((LEAD,), TRICK, 3).plays == (LEAD,)
    assert STILL.trick((), TRICK, 3).won == TRICK
    assert STILL.held() is None and STILL.due is None
    assert STILL.count("totals", [3]) == [3] and STILL.glide("turn", (1, 2)) == (1, 2)
    assert STILL.page("tricks", 3, PAGE) == 0 and STILL.page("tricks", 3, PAGE, held=1) == 1


def test_motion_is_on_unless_the_config_turns_it_off() -> None:
    assert parse_table_config({}).display.motion is True
    config = parse_table_config({"display": {"motion": False}})
    assert config.display.motion is False
    assert Window(config.display).renderer.motion.enabled is False


# --- drawn frames of a real game ---------------------------------------------------------


@pytest.fixture
def game() -> Iterator[tuple[Rig, Simulator]]:
    """An Oh Pshaw table of four bots, in round 2 with three cards of a trick played."""
    rig = Rig(seats=4, bots=3)
    with rig.devices:
        rig.loop.drain()
        engine = rig.start((0, 1, 2, 3))
        sim = Simulator(
            rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3}, rng=random.Random(2)
        )
        for _ in range(400):
            rnd = engine.round
            if engine.phase is Phase.PLAY and rnd.index == 2 and len(rnd.trick) == 3:
                break
            assert sim.step(0.0)
            rig.loop.drain()
        else:
            pytest.fail("the bots never reached round 2's third card")
        yield rig, sim


def step(rig: Rig, sim: Simulator) -> TableView:
    assert sim.step(0.0)
    rig.loop.drain()
    return rig.table.view


def centre_pixels(renderer: Renderer) -> bytes:
    assert renderer.layout is not None
    return pygame.image.tobytes(renderer.surface.subsurface(renderer.layout.centre), "RGB")


def test_the_renderer_draws_a_trick_played_held_and_won(game: tuple[Rig, Simulator]) -> None:
    rig, sim = game
    renderer = Renderer((800, 480))
    now = [0.0]
    renderer.clock = lambda: now[0]
    assert renderer.draw(rig.table.view)
    assert renderer.next_frame_in(rig.table.view) is None  # still: no frames asked for

    completed = step(rig, sim)  # the fourth card completes the trick
    assert renderer.draw(completed)
    shown = renderer.motion.shown
    assert shown is not None and len(shown.won) == 4 and len(shown.arriving) == 1
    assert renderer.next_frame_in(completed) == pytest.approx(FRAME_STEP)
    first = centre_pixels(renderer)
    now[0] = FRAME_STEP
    assert renderer.draw(completed)  # the same view, drawn again: the card moves
    assert centre_pixels(renderer) != first
    while (wait := renderer.next_frame_in(completed)) is not None:
        now[0] += wait
        assert renderer.draw(completed)
    assert now[0] <= 0.5  # the motion ended by itself
    landed = centre_pixels(renderer)
    assert renderer.next_frame_in(completed) is None  # it landed: frames stop
    now[0] = 1.0
    assert not renderer.draw(completed)  # nothing to draw

    lead = step(rig, sim)  # a bot leads at once; the table's view has the new trick
    game_view = lead.game
    assert game_view is not None
    snapshot = game_view.snapshot
    assert isinstance(snapshot, OhPshawSnapshot) and len(snapshot.trick) == 1
    assert renderer.draw(lead)
    shown = renderer.motion.shown
    assert shown is not None and shown.plays == () and len(shown.won) == 4  # still held
    # The turn glow glides to the next seat meanwhile; then the display sleeps until
    # the hold ends.
    while (wait := renderer.next_frame_in(lead)) is not None and wait < 2 * FRAME_STEP:
        now[0] += wait
        assert renderer.draw(lead)
    assert wait == pytest.approx(HOLD_SECONDS - now[0])
    shown = renderer.motion.shown
    assert shown is not None and shown.plays == () and len(shown.won) == 4  # still held
    now[0] = HOLD_SECONDS + 0.01
    assert renderer.draw(lead)
    shown = renderer.motion.shown
    assert shown is not None and len(shown.plays) == 1 and shown.won and shown.arriving
    while (wait := renderer.next_frame_in(lead)) is not None:
        now[0] += wait
        assert renderer.draw(lead)
    shown = renderer.motion.shown
    assert shown is not None and shown.won == () and shown.arriving == {}
    assert centre_pixels(renderer) != landed  # the new trick replaced the won one


def test_with_motion_off_a_frame_shows_where_things_end(game: tuple[Rig, Simulator]) -> None:
    rig, sim = game
    moving, still = Renderer((800, 480)), Renderer((800, 480))
    still.motion.enabled = False
    now = [0.0]
    for renderer in (moving, still):
        renderer.clock = lambda: now[0]
        renderer.draw(rig.table.view)
    completed = step(rig, sim)
    for renderer in (moving, still):
        renderer.draw(completed)
    assert centre_pixels(moving) != centre_pixels(still)  # the card is on its way
    assert still.next_frame_in(completed) is None
    while (wait := moving.next_frame_in(completed)) is not None:
        now[0] += wait
        moving.draw(completed)
    assert centre_pixels(moving) == centre_pixels(still)  # and lands where motion-off drew it


def test_a_strip_of_a_trick_played_held_and_won(
    game: tuple[Rig, Simulator], tmp_path: Path
) -> None:
    """The docs' screenshot strip (docs/images/motion-trick.png), drawn from a real game
    at chosen moments of the display's clock: ``MOTION_STRIP=docs/images`` writes it
    there. Each moment must look different from the one before."""
    rig, sim = game
    renderer = Renderer((1280, 720))
    now = [0.0]
    renderer.clock = lambda: now[0]
    renderer.draw(rig.table.view)
    completed = step(rig, sim)
    moments: list[tuple[str, TableView, float]] = [
        ("+0.06 s: the 4th card is played and comes from its seat", completed, 0.06),
        ("+0.12 s: almost at its place in the trick", completed, 0.12),
        ("+1 s: the trick stays, its winner named", completed, 1.0),
    ]
    lead = step(rig, sim)
    moments += [
        ("+1.2 s: the next lead is in: the trick still stays", lead, 1.2),
        ("+2.05 s: the trick slides to its winner, the lead comes in", lead, 2.05),
        ("+2.5 s: the next trick", lead, 2.5),
    ]
    assert renderer.layout is not None
    crop = renderer.layout.centre
    fonts = pygame.font.Font(None, 26)
    strip = pygame.Surface((crop.w * 2, (crop.h + 30) * 3))
    strip.fill((20, 24, 28))
    previous = b""
    for index, (caption, view, moment) in enumerate(moments):
        # Frames at the display's own pace up to the moment, as the kiosk's loop draws them.
        while (wait := renderer.next_frame_in(view)) is not None and now[0] + wait < moment:
            now[0] += wait
            renderer.draw(view)
        now[0] = moment
        renderer.draw(view)
        frame = renderer.surface.subsurface(crop)
        pixels = pygame.image.tobytes(frame, "RGB")
        assert pixels != previous, caption
        previous = pixels
        x, y = (index % 2) * crop.w, (index // 2) * (crop.h + 30)
        strip.blit(fonts.render(caption, True, (235, 235, 235)), (x + 8, y + 6))
        strip.blit(frame, (x, y + 30))
    out = Path(os.environ.get("MOTION_STRIP", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    pygame.image.save(strip, str(out / "motion-trick.png"))


# --- the last trick brought back on a seat's panel (a long NEXT) ---------------------------


def panel_pixels(renderer: Renderer, seat: int) -> bytes:
    assert renderer.layout is not None
    slot = next(s for s in renderer.layout.slots if s.seat_index == seat)
    return pygame.image.tobytes(renderer.surface.subsurface(slot.rect), "RGB")


def test_a_long_next_brings_the_last_trick_back_on_that_seat_s_panel(
    game: tuple[Rig, Simulator], monkeypatch: pytest.MonkeyPatch
) -> None:
    rig, sim = game
    step(rig, sim)  # the fourth card: the trick is won and becomes the last trick
    renderer = Renderer((1280, 720))
    renderer.draw(rig.table.view)
    before = panel_pixels(renderer, 2)
    # A short press of NEXT does nothing of the sort.
    rig.table.handle(ButtonPressed(2, Button.NEXT, rig.now))
    rig.table.handle(ButtonReleased(2, Button.NEXT, rig.now + 0.3))
    assert rig.table.view.recall == ()
    # Held for a second, it brings the last trick back on seat 2's panel alone.
    rig.table.handle(ButtonPressed(2, Button.NEXT, rig.now))
    rig.table.handle(ButtonReleased(2, Button.NEXT, rig.now + HELP_HOLD))
    view = rig.table.view
    assert view.recall == (2,)
    assert renderer.draw(view)
    assert panel_pixels(renderer, 2) != before
    texts = painted_text(monkeypatch)
    Renderer((1280, 720)).draw(view)
    assert any(text.startswith("Last trick: ") and text.endswith(" won it") for text in texts)
    # It closes by itself.
    rig.now += RECALL_SECONDS
    rig.table.tick(rig.now)
    assert rig.table.view.recall == ()
    renderer.draw(rig.table.view)
    assert panel_pixels(renderer, 2) == before


def test_the_rules_page_says_how_to_see_the_last_trick() -> None:
    rules = [shown(line) for line in OH_PSHAW.rules]
    assert any("Hold NEXT" in line and "last trick" in line for line in rules)


# --- a seat's score counting on its panel, in every game ----------------------------------


# Far more frames than any movement takes at 30 a second: past this, something never stops.
# (No movement or hold asks for a frame as far away as a page of Oss's tricks turns.)
MOST_FRAMES = 600


@dataclass
class DrawnGame:
    """Four bots playing a game, each step drawn 5 s after the one before (everything
    before it has settled), on the renderer's fake clock."""

    rig: TableRig
    sim: Simulator
    renderer: Renderer = field(default_factory=lambda: Renderer((800, 480)))
    now: float = 0.0

    def __post_init__(self) -> None:
        self.renderer.clock = lambda: self.now

    @property
    def view(self) -> TableView:
        return self.rig.table.view

    def step(self) -> TableView:
        """One bot's move, drawn."""
        assert self.sim.step(0.0)
        self.rig.loop.drain()
        self.now += 5.0
        self.renderer.draw(self.view)
        return self.view

    def until(self, found: Callable[[TableView, TableView], bool], steps: int = 3000) -> None:
        """Steps until ``found(before, after)`` says this step is the one."""
        for _ in range(steps):
            before = self.view
            if found(before, self.step()):
                return
        pytest.fail("the bots never got there")

    def settle(self) -> Iterator[None]:
        """The same view drawn frame by frame, when the display asks, until nothing asks
        for a frame (a still table asks for none), or only the next page of Oss's tricks
        does (``Motion.page``: a whole page away; no movement or hold lasts that long)."""
        assert max(HOLD_SECONDS, RESULT_SECONDS) < TRICK_PAGE_SECONDS
        view = self.view
        for _ in range(MOST_FRAMES):
            wait = self.renderer.next_frame_in(view)
            if wait is None or wait >= TRICK_PAGE_SECONDS:
                return
            self.now += wait
            assert self.renderer.draw(view)
            yield
        raise AssertionError(f"the display still moved after {MOST_FRAMES} frames")


@contextmanager
def bots_playing(game_id: str) -> Iterator[DrawnGame]:
    rig = TableRig(seats=4, bots=4)
    with rig.running():
        yield DrawnGame(rig, rig.bots(game_id))


def counting_panels(game: DrawnGame) -> list[int]:
    """The seat panels whose score counts now."""
    seats = range(len(game.view.seats))
    return [i for i in seats if game.renderer.motion.due_of(("panel", i)) is not None]


@pytest.mark.parametrize("game_id", ["oh-pshaw", "oshaka-trick", "oskar", "oss"])
def test_a_changed_score_counts_up_on_its_seat_s_panel(game_id: str) -> None:
    """Bots play until a seat's score changes; that seat's panel is drawn again frame by
    frame while its figure counts (the view unchanged), and lands on the picture a
    display without motion draws at once."""
    with bots_playing(game_id) as game:
        game.until(lambda before, after: bool(counting_panels(game)))
        counting = counting_panels(game)
        seat = counting[0]
        renderer = game.renderer
        pictures = [panel_pixels(renderer, seat)]
        drawn = renderer.panels_drawn
        for _ in game.settle():
            pictures.append(panel_pixels(renderer, seat))
        # The same view drawn again and again: the panel changed while its score counted,
        # and only the counting panels were drawn again.
        assert len(set(pictures)) > 2
        assert renderer.panels_drawn > drawn
        assert (renderer.panels_drawn - drawn) <= len(counting) * (len(pictures) - 1)
        still = Renderer((800, 480))
        still.motion.enabled = False
        still.draw(game.view)
        assert pictures[-1] == panel_pixels(still, seat)


# --- Oshaka Trick and Oskar: the same moments, the same motion ------------------------------


def oshaka(view: TableView) -> OshakaSnapshot | None:
    snap = None if view.game is None else view.game.snapshot
    return snap if isinstance(snap, OshakaSnapshot) else None


def test_oshaka_s_turn_glow_goes_to_the_seat_to_play_or_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bots_playing("oshaka-trick") as game:

        def placing(before: TableView, after: TableView) -> bool:
            snap = oshaka(after)
            return snap is not None and snap.phase is OshakaPhase.PLACE

        game.until(placing)
        glides = glide_spy(monkeypatch)
        game.step()  # the winner places a card, or the next seat plays
        for _ in game.settle():
            pass
        snap = oshaka(game.view)
        assert snap is not None and snap.next is not None
        assert glides and glides[-1] == panel_centre(game.renderer, game.view, snap.next.seat)


def test_oskar_s_cards_travel_and_the_turn_glow_follows(monkeypatch: pytest.MonkeyPatch) -> None:
    with bots_playing("oskar") as game:

        def second_card(before: TableView, after: TableView) -> bool:
            snap = None if after.game is None else after.game.snapshot
            return isinstance(snap, OskarSnapshot) and len(snap.trick) >= 2

        game.until(second_card)
        snap = None if game.view.game is None else game.view.game.snapshot
        assert isinstance(snap, OskarSnapshot)
        shown = game.renderer.motion.shown
        assert shown is not None and list(shown.arriving) == [snap.trick[-1].card]
        glides = glide_spy(monkeypatch)
        first = centre_pixels(game.renderer)
        for _ in game.settle():
            pass
        shown = game.renderer.motion.shown
        assert shown is not None and shown.arriving == {} and len(shown.plays) == len(snap.trick)
        assert centre_pixels(game.renderer) != first
        assert snap.decides is not None
        assert glides and set(glides) == {panel_centre(game.renderer, game.view, snap.decides)}


def glide_spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Where the turn glow is headed, each time a scene draws it from now on."""
    headed: list[tuple[int, int]] = []
    glide = Motion.glide

    def spy(self: Motion, name: str, point: tuple[int, int]) -> tuple[int, int]:
        if name == "turn":
            headed.append(point)
        return glide(self, name, point)

    monkeypatch.setattr(Motion, "glide", spy)
    return headed


def panel_centre(renderer: Renderer, view: TableView, player: int) -> tuple[int, int]:
    """The centre of the panel of the seat playing engine seat ``player``."""
    assert renderer.layout is not None
    index = next(i for i, seat in enumerate(view.seats) if seat.player == player)
    slot = next(s for s in renderer.layout.slots if s.seat_index == index)
    centre: tuple[int, int] = slot.rect.center
    return centre


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_oh_pshaw_s_total_chip_keeps_its_width_while_it_counts_past_99(language: str) -> None:
    """A total counting 95 -> 105 passes from two digits to three: its chip is sized for the
    whole count from its first frame, so the chip, and the notes beside it, never move."""
    with bots_playing("oh-pshaw") as game:

        def playing(before: TableView, after: TableView) -> bool:
            snap = None if after.game is None else after.game.snapshot
            return isinstance(snap, OhPshawSnapshot) and snap.phase is Phase.PLAY

        game.until(playing)
        assert game.view.game is not None
        snap = game.view.game.snapshot
        assert isinstance(snap, OhPshawSnapshot)

        def with_total(total: int) -> TableView:
            assert game.view.game is not None
            totals = (total, *snap.totals[1:])
            game_view = replace(game.view.game, snapshot=replace(snap, totals=totals))
            seats = {seat.seat: language for seat in game.view.seats}
            return replace(game.view, game=game_view, language=language, seat_languages=seats)

        assert game.renderer.layout is not None
        slot = next(s for s in game.renderer.layout.slots if s.seat_index == 0).rect
        labels: set[tuple[int, ...]] = set()
        figures: list[int] = []

        def draw(view: TableView) -> None:
            with legibility.recording() as drawing:
                game.renderer.draw(view)
            inside = [t for t in drawing.texts if slot.contains(t.rect)]
            label = next(t.rect for t in inside if t.text == Presenter(language)(TOTAL))
            labels.add(tuple(label))
            figures.extend(
                int(t.text)
                for t in inside
                if t.text.isdigit() and label.left <= t.rect.centerx <= label.right
            )

        game.now += 5.0
        draw(with_total(95))
        figures.clear()
        labels.clear()  # the chip may widen once, as the count starts
        game.now += 5.0
        draw(with_total(105))
        for _ in range(MOST_FRAMES):
            due = game.renderer.motion.due_of(("panel", 0))
            if due is None:
                break
            game.now = max(game.now, due)
            draw(with_total(105))
        else:
            pytest.fail("the total never stopped counting")
        assert any(figure < 100 for figure in figures) and figures[-1] == 105, figures
        assert len(labels) == 1, labels  # the chip never moved nor widened
