"""The scripted player for the crash test (``tests/test_crash_resume.py``).

It builds a table the way the kiosk does (all-simulated config with four bot
seats, mock devices, the simulated tag registry, a ``Journal`` on the given
path) and plays a game whose player actions are fixed in advance by a script
file, feeding them through the mock readers and buttons. The test kills it
with SIGKILL at random moments and starts it again; every start resumes the
journal's unfinished game and carries on from the number of player actions
the journal already holds.

    crash_player.py generate SCRIPT [--game G] [--table-seed N] [--bot-seed N]
    crash_player.py play JOURNAL SCRIPT OUT [--pause S] [--die-in-write N]

``play`` prints ``ready N`` (N = player actions already journaled) once the
table is built and resumed, and writes the finished game's record (exported
from the journal) to OUT, atomically, before exiting 0.
``--die-in-write N`` makes the process SIGKILL itself inside its N-th
journal write transaction, before the commit.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from controller.adapters import Press, Tap
from controller.config.table_config import TableConfig
from controller.kiosk.devices import Devices, build
from controller.kiosk.resume import resume_if_unfinished
from controller.kiosk.simulation import Simulator
from controller.records.history import export_record
from controller.records.journal import FINISHED, Journal
from controller.table import Table, TableLoop
from controller.tags.registry import TagRegistry, deck_of, simulated
from controller.view import Screen
from hardware.events import Button, Contact, InputEvent

SEATS = 4


class Kit:
    """A kiosk-like table on simulated hardware."""

    def __init__(self, table_seed: int, journal: Journal | None) -> None:
        self.config = TableConfig.simulated(SEATS, bots=SEATS)
        self.events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        self.devices: Devices = build(self.config, self.events)
        self.registry: TagRegistry = simulated()
        self.journal = journal
        self.table = Table(
            self.config,
            self.registry,
            leds=self.devices.leds,
            rng=random.Random(table_seed),
            journal=journal,
        )
        self.loop = TableLoop(self.table, self.events)

    def press(self, seat: int, button: Contact) -> None:
        if not self.devices.press(seat, button):
            raise SystemExit(f"seat {seat}'s {button} button is not simulated")
        self.loop.drain()

    def tap(self, seat: int, card: str) -> None:
        game = self.table.game
        assert game is not None
        uid = self.registry.uid_for(deck_of(game.adapter.game_id), card)
        reader = self.devices.mock_reader(seat)
        if uid is None or reader is None:
            raise SystemExit(f"cannot tap {card} at seat {seat}")
        reader.present(uid)
        reader.remove()
        self.loop.drain()

    def start(self, game_id: str) -> None:
        """Walk the menus as people would: wake, choose the game, everyone joins, start."""
        self.press(0, Button.OK)
        ids = [g.game_id for g in self.table.view.games]
        while ids[self.table.selected] != game_id:
            self.press(0, Button.NEXT)
        self.press(0, Button.OK)  # choose; seat 0 joins
        for seat in range(1, SEATS):
            self.press(seat, Button.OK)
        self.press(0, Button.NEXT)
        if self.table.screen is Screen.OPTIONS:
            self.press(0, Button.OK)  # "Start the game" with the menu's preset
        if self.table.screen is Screen.STARTER:
            self.press(0, Button.OK)  # seat 0 answers the rulebook's question (Oshaka's first lead)
        if self.table.screen is not Screen.PLAY:
            raise SystemExit(f"the game did not start: {self.table.messages[-1].text}")


def generate(game: str, table_seed: int, bot_seed: int) -> dict[str, Any]:
    """Play one bot game (no journal) and return the script: the player actions, in order."""
    kit = Kit(table_seed, None)
    with kit.devices:
        kit.loop.drain()
        sim = Simulator(
            kit.table,
            kit.devices,
            kit.registry,
            bot_seats=set(range(SEATS)),
            rng=random.Random(bot_seed),
            auto_game=game,
        )
        for _ in range(100_000):
            if kit.table.screen is Screen.RESULTS:
                break
            if not sim.step(0.0):
                raise SystemExit("the bots got stuck")
            kit.loop.drain()
        played = kit.table.game
        assert played is not None and kit.table.screen is Screen.RESULTS
        actions = [
            action.to_json()
            for action, chance in zip(played.recorder.actions, played.chance, strict=True)
            if not chance
        ]
        return {
            "game": game,
            "table_seed": table_seed,
            "actions": actions,
            "record": played.recorder.dumps(),
        }


class DyingJournal(Journal):
    """A journal whose process kills itself inside its N-th write, before the commit."""

    die_at = 0
    writes = 0

    def _inside_write(self) -> None:
        DyingJournal.writes += 1
        if DyingJournal.writes == DyingJournal.die_at:
            os.kill(os.getpid(), signal.SIGKILL)


def play(journal_path: Path, script: dict[str, Any], out: Path, pause: float, die: int) -> int:
    DyingJournal.die_at = die
    config = TableConfig.simulated(SEATS, bots=SEATS)
    journal = DyingJournal.open(journal_path, config)
    for notice in journal.notices:
        print(f"notice: {notice}", file=sys.stderr)
    kit = Kit(script["table_seed"], journal)
    with kit.devices, journal:
        kit.loop.drain()
        resumed = resume_if_unfinished(journal, kit.table)
        if resumed is None:
            finished = journal.games((FINISHED,))
            if finished:  # killed after the game ended but before OUT was written
                return _write(out, export_record(journal, finished[-1].id))
            kit.start(script["game"])
        game_id = journal.current_game
        assert game_id is not None
        done = journal.player_actions(game_id)
        print(f"ready {done}", flush=True)
        for obj in script["actions"][done:]:
            game = kit.table.game
            assert game is not None
            engine = game.adapter.engine
            action = engine.parse_action(obj)
            seat = game.players[action.seat]
            before = len(game.recorder.actions)
            for gesture in game.adapter.simulation.gestures(action):
                if isinstance(gesture, Tap):
                    kit.tap(seat, gesture.card)
                elif isinstance(gesture, Press):
                    kit.press(seat, gesture.button)
            game = kit.table.game
            if game is None or len(game.recorder.actions) <= before:
                last = kit.table.messages[-1].text if kit.table.messages else "?"
                print(f"the table did not accept {obj}: {last}", file=sys.stderr)
                return 3
            if pause:
                time.sleep(pause)  # widens the window in which the test's kill can land
        if kit.table.screen is not Screen.RESULTS:
            print("the script ended before the game did", file=sys.stderr)
            return 3
        return _write(out, export_record(journal, game_id))


def _write(out: Path, text: str) -> int:
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    print("done", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate")
    gen.add_argument("script", type=Path)
    gen.add_argument("--game", default="oshaka-trick")
    gen.add_argument("--table-seed", type=int, default=5)
    gen.add_argument("--bot-seed", type=int, default=3)
    run = commands.add_parser("play")
    run.add_argument("journal", type=Path)
    run.add_argument("script", type=Path)
    run.add_argument("out", type=Path)
    run.add_argument("--pause", type=float, default=0.0)
    run.add_argument("--die-in-write", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "generate":
        script = generate(args.game, args.table_seed, args.bot_seed)
        args.script.write_text(json.dumps(script), encoding="utf-8")
        return 0
    script = json.loads(args.script.read_text(encoding="utf-8"))
    return play(args.journal, script, args.out, args.pause, args.die_in_write)


if __name__ == "__main__":
    sys.exit(main())
