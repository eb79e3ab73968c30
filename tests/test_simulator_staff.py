"""The README demo's staff tag: the staff desk, enrollment, audit, history and undo by clicks.

Everything goes as a person at the demo window does it: the renderer draws
the view (with the simulator's own controls), a click in the middle of a
control is mapped back by ``hit_test`` and ``apply_ui_action`` turns it into
what a seat reader or button would report.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from controller.cli.main import build_parser
from controller.config.table_config import SeatConfig, TableConfig
from controller.kiosk import arguments
from controller.kiosk import windowed as kiosk_window
from controller.kiosk.app import Kiosk
from controller.kiosk.windowed import apply_ui_action
from controller.view import MessageKind, Screen, TableView
from display.renderer import Renderer
from display.ui import PressButton, Quit, TapCard, TapDeckCard, TapStaff, UiAction
from display.window import DECK_CARD_KEY, STAFF_KEY, Window
from hardware.events import Button
from tests.rigs import pty_pairs
from tests.words import shown, shown_all


def screen(kiosk: Kiosk) -> Screen:
    """The table's screen now (a call, so a type checker does not keep an earlier answer)."""
    return kiosk.table.screen


class Demo:
    """The simulated kiosk of ``cafe-table kiosk`` and its window's renderer, clicked."""

    def __init__(self, kiosk: Kiosk, staff_seats: tuple[int, ...]) -> None:
        self.kiosk = kiosk
        self.renderer = Renderer((1280, 720))
        self.renderer.staff_seats = staff_seats

    def controls(self) -> list[UiAction]:
        self.renderer.render(self.kiosk.table.view)
        return [action for _, action in self.renderer.hit_boxes]

    def click(self, wanted: UiAction) -> None:
        """Click the middle of the control drawn for ``wanted``, as a mouse would."""
        self.renderer.render(self.kiosk.table.view)
        box = next(rect for rect, action in self.renderer.hit_boxes if action == wanted)
        action = self.renderer.hit_test(self.renderer.window_rect(box).center)
        assert action == wanted
        assert apply_ui_action(self.kiosk, action)
        self.kiosk.loop.drain()

    def staff_lines(self) -> tuple[str, ...]:
        staff = self.kiosk.table.view.staff
        assert staff is not None
        return shown_all(staff.lines)

    def choose(self, label: str) -> None:
        """Move the staff menu to ``label`` with NEXT and open it with OK."""
        for _ in range(30):
            staff = self.kiosk.table.view.staff
            assert staff is not None
            if shown(staff.options[staff.selected]) == label:
                self.click(PressButton(staff.seat, Button.OK))
                return
            self.click(PressButton(staff.seat, Button.NEXT))
        raise AssertionError(f"the staff menu has no {label!r}")


def test_the_demo_staff_tag_opens_the_desk_enrolls_audits_and_shows_history(
    tmp_path: Path,
) -> None:
    kiosk = Kiosk.create(
        TableConfig.simulated(4), seed=3, records_dir=tmp_path, journal_path=tmp_path / "j.db"
    )
    demo = Demo(kiosk, staff_seats=(0, 1, 2, 3))
    with kiosk:
        kiosk.loop.drain()
        assert kiosk.table.screen is Screen.ATTRACT
        # The window offers the staff tag at every simulated seat; seat 2 is chosen.
        assert {TapStaff(s) for s in range(4)} <= set(demo.controls())
        demo.click(TapStaff(2))
        assert screen(kiosk) is Screen.STAFF
        staff = kiosk.table.view.staff
        assert staff is not None and staff.seat == 2
        assert TapDeckCard(2) in demo.controls()

        # Enrollment practises on an empty copy of the deck: every tap is a step.
        demo.choose("Enroll the Oshaka Trick deck")
        assert "Practice only" in demo.staff_lines()[0]
        first = kiosk.table.view.staff
        assert first is not None and shown(first.prompt).startswith("Tap ")
        asked = shown(first.prompt).split()[1]
        demo.click(TapDeckCard(2))
        assert demo.staff_lines()[-1].startswith(f"{asked} enrolled; now tap ")
        demo.click(TapDeckCard(2))
        assert "enrolled" in demo.staff_lines()[-1]
        # The demo's own registry is untouched: the games still have their deck.
        assert len(kiosk.registry.cards_of("oshaka")) == 52
        demo.click(PressButton(2, Button.PREV))  # back to the menu

        # The audit taps the simulated deck card by card, then OK reports.
        demo.choose("Audit the Oshaka Trick deck")
        for _ in range(52):
            demo.click(TapDeckCard(2))
        demo.click(PressButton(2, Button.OK))
        assert demo.staff_lines() == ("The oshaka deck is complete: 52 cards",)
        demo.click(PressButton(2, Button.PREV))

        demo.choose("Game history")
        assert demo.staff_lines() == ("No finished games yet",)
        demo.click(PressButton(2, Button.PREV))
        demo.click(TapStaff(2))  # the staff tag again closes the desk
        assert kiosk.table.screen is Screen.ATTRACT


def test_the_demo_staff_tag_undoes_a_play_in_a_game(tmp_path: Path) -> None:
    kiosk = Kiosk.create(TableConfig.simulated(4), seed=5, records_dir=tmp_path)
    demo = Demo(kiosk, staff_seats=(0, 1, 2, 3))
    with kiosk:
        kiosk.loop.drain()
        demo.click(PressButton(0, Button.OK))  # wake
        demo.click(PressButton(0, Button.OK))  # choose Oshaka Trick (first in the menu); join
        for _ in range(10):
            if len(kiosk.table.joined) == 4:
                break
            assert kiosk.simulator.step(0.0)  # the bots join
            kiosk.loop.drain()
        demo.click(PressButton(0, Button.NEXT))  # start
        if kiosk.table.screen is Screen.STARTER:
            demo.click(PressButton(0, Button.OK))  # "who most recently helped someone?": seat 1
        assert kiosk.table.screen is Screen.PLAY
        game = kiosk.table.game
        assert game is not None
        engine = game.adapter.engine
        # Play until seat 0 (the person) has to act, then play its first legal card.
        for _ in range(100):
            expected = engine.expected
            assert expected is not None
            if game.players[expected.seat] == 0:
                break
            kiosk.simulator.step(0.0)
            kiosk.loop.drain()
        before = len(game.recorder.actions)
        hand = kiosk.table.view.hands[game.players.index(0)]
        played = next(c for c in hand if TapCard(0, c) in demo.controls())
        demo.click(TapCard(0, played))
        assert len(game.recorder.actions) > before
        demo.click(TapStaff(0))  # staff mode at the person's seat
        demo.click(PressButton(0, Button.PREV))  # undo
        demo.click(PressButton(0, Button.OK))  # confirm it (staff mode asks before it undoes)
        after = kiosk.table.game  # undo replays the game without its last player action
        assert after is not None and len(after.recorder.actions) == before
        assert played in kiosk.table.view.hands[after.players.index(0)]
        # The undo says what it took back: whose card, named as the game names it.
        said = [shown(m.text) for m in kiosk.table.view.messages]
        assert any(line.startswith("Undone: Seat 1's ") for line in said), said
        assert kiosk.table.staff_seat is None  # staff mode closes after an undo

        # The person plays again; while staff mode is open the bots wait (staff's "undo
        # the last action" must not become a bot's action played meanwhile), then go on.
        demo.click(TapCard(0, played))
        assert len(after.recorder.actions) == before + 1
        demo.click(TapStaff(0))
        assert kiosk.table.staff_seat == 0
        for _ in range(5):
            kiosk.simulator.step(0.0)
            kiosk.loop.drain()
        assert len(after.recorder.actions) == before + 1, "a bot played under staff's hands"
        demo.click(TapStaff(0))  # the staff tag again closes staff mode
        for _ in range(5):
            kiosk.simulator.step(0.0)
            kiosk.loop.drain()
        assert len(after.recorder.actions) > before + 1


def test_a_click_at_a_real_reader_seat_says_so_on_screen(tmp_path: Path) -> None:
    with pty_pairs(1) as ptys:
        seats = (
            SeatConfig(index=0, reader=ptys[0].slave_path, pixels=(0, 4)),
            *(SeatConfig(index=i, bot=True, pixels=(4 * i, 4 * i + 4)) for i in (1, 2, 3)),
        )
        kiosk = Kiosk.create(TableConfig(seats=seats), seed=2, records_dir=tmp_path)
        with kiosk:
            kiosk.loop.drain()
            assert apply_ui_action(kiosk, TapStaff(0))
            kiosk.loop.drain()
            assert kiosk.table.screen is Screen.ATTRACT  # nothing was tapped ...
            said = kiosk.table.view.messages[-1]
            assert said.kind is MessageKind.REFUSED and said.seat == 0
            # The message is for seat 0 (said.seat): its text says only why, no "Seat 0".
            assert shown(said.text) == "This seat has a real reader: tap your staff tag on it"
            # ... while a simulated seat's click taps it.
            assert apply_ui_action(kiosk, TapStaff(1))
            kiosk.loop.drain()
            assert screen(kiosk) is Screen.STAFF


def test_the_window_keys_tap_the_staff_tag_and_the_asked_card() -> None:
    window = Window(TableConfig.simulated().display, key_seat=0, staff_seats=(0,))
    pygame.display.init()
    try:
        for key in (STAFF_KEY, DECK_CARD_KEY):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        assert window.poll() == [TapStaff(0), TapDeckCard(0)]
    finally:
        pygame.display.quit()


def test_the_windowed_kiosk_offers_the_staff_tag_at_its_simulated_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """windowed() builds the window with the staff buttons and feeds its actions in."""

    script: list[list[UiAction]] = [[TapStaff(2)], [PressButton(2, Button.OK)], [TapDeckCard(2)]]
    shown: list[TableView] = []
    staff_seats: list[tuple[int, ...]] = []

    def poll(self: Window) -> list[UiAction]:
        staff_seats.append(self.renderer.staff_seats)
        return script.pop(0) if script else [Quit()]

    real_show = Window.show

    def show(self: Window, view: TableView) -> bool:
        shown.append(view)
        return real_show(self, view)

    monkeypatch.setattr(Window, "poll", poll)
    monkeypatch.setattr(Window, "show", show)
    parser = build_parser()
    args = parser.parse_args(["kiosk", "--no-journal", "--size", "800x480", "--seed", "1"])
    config = arguments.with_window_options(TableConfig.simulated(), args)
    assert kiosk_window.windowed(args, config) == 0
    assert staff_seats[0] == (0, 1, 2, 3)  # every seat of the demo has a simulated reader
    last = shown[-1]
    assert last.screen is Screen.STAFF and last.staff is not None
    assert shown_all(last.staff.lines)[-1].endswith("enrolled; now tap R2")
