"""The first evening of a real table, end to end, with pseudo-terminals for the seat readers.

From unboxing to a first game as docs/first-evening.md tells it: a table.toml
names the readers and a registry file that does not exist yet; the kiosk
starts anyway and its display says how to enroll the first staff tag;
``tags add-staff`` reads that tag at a reader; the kiosk, started again, opens
the staff desk for it; a deck is enrolled card by card as the display asks
(its tags tapped over the readers); and the first game is played with it.

The staff desk is worked from the kiosk's window, as on a table whose seat buttons are
not wired yet: the readers are real (the window is locked: no quitting), the buttons
simulated, so the window's keys press them (issue 29: a configured window answered no key).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from controller.cli.tags import main as tags_main
from controller.config.table_config import load
from controller.games.words import as_arg, say
from controller.kiosk.app import Kiosk
from controller.kiosk.windowed import apply_ui_action, window_for
from controller.tags.registry import TagRegistry, deck_of, decks, simulated_uid
from controller.view import MessageKind, Screen
from display.window import Window
from hardware.events import InputEvent, TagPresented
from hardware.ptys import PtyPair
from tests.rigs import pty_pairs, serial_tapper
from tests.test_tags_cli import tap_when_asked
from tests.words import shown

STAFF_UID = "04F1125AFF0001"
GAME = "oss"  # two seats and the smallest deck of a two-player game
SEATS = 2


def write_table(tmp_path: Path, ptys: list[PtyPair]) -> Path:
    """The table.toml of docs/first-evening.md: real readers, bots for the test's players."""
    seats = "".join(
        f'[[seat]]\nreader = "{pty.slave_path}"\nprotocol = "line"\n'
        f"pixels = [{i * 4}, {i * 4 + 4}]\nbot = true\n\n"
        for i, pty in enumerate(ptys)
    )
    path = tmp_path / "table.toml"
    path.write_text(
        f'[tags]\nregistry = "tags.json"\n\n{seats}',
        encoding="utf-8",
    )
    return path


def wait_until(kiosk: Kiosk, done: Callable[[], bool], what: str) -> None:
    """Run the kiosk's loop until ``done`` (a tap crosses a pty and a reader thread)."""
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        kiosk.loop.run_once(timeout=0.05)


def press_key(window: Window, kiosk: Kiosk, key: int) -> None:
    """A key pressed and let go in the kiosk's window, handed to the table."""
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=""))
    actions = window.poll()
    assert actions, "the window took the key for no button"
    for action in actions:
        assert apply_ui_action(kiosk, action)
    kiosk.loop.drain()


def test_from_an_empty_registry_to_a_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pty_pairs(SEATS) as ptys:
        table_toml = write_table(tmp_path, ptys)
        registry_file = tmp_path / "tags.json"
        assert not registry_file.exists()

        # 1. The kiosk starts without a registry and says how to enroll the first staff tag.
        config = load(table_toml)
        kiosk = Kiosk.create(config, seed=1, config_path=table_toml)
        with kiosk:
            kiosk.loop.drain()
            assert kiosk.table.screen is Screen.ATTRACT
            notice = kiosk.table.view.messages[-1]
            assert notice.kind is MessageKind.PROBLEM
            assert "No staff tag is enrolled yet" in shown(notice.text)
            assert f"tags add-staff --config {table_toml.resolve()}" in shown(notice.text)

        # 2. tags add-staff reads the staff tag at a reader and creates the registry.
        staff = tap_when_asked(ptys[1], STAFF_UID, capsys)
        assert tags_main(["tags", "add-staff", "--config", str(table_toml), "--wait", "10"]) == 0
        staff.join(5)
        entry = TagRegistry.load(registry_file).lookup(STAFF_UID)
        assert entry is not None and entry.is_staff

        # 3. The kiosk again: no notice; the staff tag at a reader opens the staff desk.
        config = load(table_toml)
        kiosk = Kiosk.create(
            config, seed=7, auto_game=GAME, records_dir=tmp_path / "out", config_path=table_toml
        )
        over_serial = serial_tapper(ptys)
        taps: list[str] = []  # tags the simulator sent over the readers
        seen: list[TagPresented] = []  # tags the table received from them

        def tapper(seat: int, uid: str) -> None:
            taps.append(uid)
            over_serial(seat, uid)

        kiosk.simulator.tapper = tapper
        handle = kiosk.table.handle

        def counting(event: InputEvent) -> None:
            if isinstance(event, TagPresented):
                seen.append(event)
            handle(event)

        kiosk.table.handle = counting  # type: ignore[method-assign]
        deck = deck_of(GAME)
        window = window_for(config)
        assert window.locked and window.key_seat == 0  # real readers; seat 1's keys
        with kiosk, window:
            pygame.event.clear()
            kiosk.loop.drain()
            assert not kiosk.table.view.messages
            ptys[0].write(f"TAG {STAFF_UID}\nGONE\n".encode())
            wait_until(kiosk, lambda: kiosk.table.screen is Screen.STAFF, "the staff desk")

            # 4. Enroll the deck: PREV / NEXT to the entry, OK, then tap each card asked for.
            wanted = shown(say("Enroll the {deck} deck", deck=as_arg(decks()[deck].title)))
            for _ in range(20):
                view = kiosk.table.view.staff
                assert view is not None
                if shown(view.options[view.selected]) == wanted:
                    break
                press_key(window, kiosk, pygame.K_RIGHT)
            press_key(window, kiosk, pygame.K_RETURN)
            copies: dict[str, int] = {}
            enrolled = 0
            while True:
                view = kiosk.table.view.staff
                assert view is not None
                if not shown(view.prompt).startswith("Tap "):
                    break
                card = shown(view.prompt).split()[1]
                copy = copies.get(card, 0)
                copies[card] = copy + 1
                ptys[enrolled % SEATS].write(
                    f"TAG {simulated_uid(deck, card, copy)}\nGONE\n".encode()
                )
                enrolled += 1
                wait_until(
                    kiosk,
                    lambda n=enrolled: len(kiosk.registry.cards_of(deck)) == n,  # type: ignore[misc]
                    f"{card} to be enrolled",
                )
            saved = TagRegistry.load(registry_file)
            assert len(saved.cards_of(deck)) == enrolled == sum(copies.values())
            assert "is enrolled: all" in shown(view.prompt)
            press_key(window, kiosk, pygame.K_LEFT)  # back to the menu
            ptys[0].write(f"TAG {STAFF_UID}\nGONE\n".encode())  # the staff tag closes the desk
            wait_until(kiosk, lambda: kiosk.table.screen is Screen.ATTRACT, "the attract screen")

            # 5. The first game: the seats (bots here) tap the newly enrolled cards.
            before_game = len(seen)
            for _ in range(20_000):
                if kiosk.table.screen is Screen.RESULTS:
                    break
                sent = len(taps)
                kiosk.simulator.step(0.0)
                kiosk.loop.drain()
                if len(taps) > sent:  # the tap crosses a pty: wait until the table has it
                    wait_until(kiosk, lambda: len(seen) - before_game == len(taps), "a card tap")
            assert kiosk.table.screen is Screen.RESULTS
            # Every card of the game came over a reader, as an enrolled card of the deck.
            assert taps and len(seen) - before_game == len(taps)
            assert all(kiosk.registry.lookup(uid) is not None for uid in taps)
            assert sorted((tmp_path / "out").glob(f"*-{GAME}.jsonl"))
