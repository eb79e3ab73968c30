"""The command line loads only the subcommand it runs, and says the same as with every one.

``controller.cli.main`` imports a subcommand's module only when the command line
names it (a third of the start-up of every ``python -m controller`` in the tests
and on the Pi); ``--help``, no command or an unknown one load them all.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli.main import SUBCOMMANDS, build_parser
from controller.games import specs
from tests.conftest import ROOT

NAMES = [name for _, _, names in SUBCOMMANDS for name in names]


def said(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[int, str, str]:
    """What parsing ``argv`` prints (standard output, standard error) and its exit status."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            parser.parse_args(argv)
        except SystemExit as stop:
            return int(stop.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_the_table_names_every_command_the_full_parser_has() -> None:
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert sorted(commands.choices) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_named_command_says_the_same_with_only_its_module(name: str) -> None:
    for argv in ([name, "--help"], ["--lang", "de", name, "--help"], [name, "--no-such-option"]):
        assert said(build_parser(argv), argv) == said(build_parser(), argv)


def test_a_replay_starts_without_the_kiosk_the_journal_or_the_doctor() -> None:
    probe = (
        "import sys\n"
        "from controller.cli.main import build_parser\n"
        "build_parser(['--lang', 'en', 'replay'])\n"
        "print(sorted(m for m in ('controller.kiosk.run', 'controller.cli.doctor', "
        "'controller.cli.journal', 'hardware.reader_factory') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_kiosk_is_up_and_draws_its_attract_screen_without_any_game_s_rules(
    tmp_path: Path,
) -> None:
    # What the kiosk does before READY=1 (the kiosk built, the journal opened, the
    # unfinished game looked for, the window opened) and its first frame, in a fresh
    # process: no game's engine, table side or bot is imported (start-up does not wait
    # for four games' rules); choosing a game imports its own, and only its own; the
    # warm-up the window runs after its first frame imports the others.
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from controller.config.table_config import TableConfig\n"
        "from controller.kiosk.app import Kiosk\n"
        "from controller.kiosk.windowed import window_for\n"
        "def rules():\n"
        "    return sorted(m for m in sys.modules if m.startswith('controller.games.')\n"
        "                  and m.rsplit('.', 1)[1] in ('engine', 'table', 'bots', 'search'))\n"
        "config = TableConfig.simulated(4, bots=4)\n"
        "folder = Path(sys.argv[1])\n"
        "kiosk = Kiosk.create(config, seed=1, journal_path=folder / 'journal.sqlite3',\n"
        "                     records_dir=folder / 'records')\n"
        "window = window_for(config)\n"
        "with kiosk, window:\n"
        "    kiosk.resume()\n"
        "    window.show(kiosk.table.view)\n"
        "    print(rules())\n"
        "    print(kiosk.table.view.screen.name)\n"
        "    from controller.games import specs\n"
        "    from controller.table.lobby import menu_entries\n"
        "    entry = next(e for e in menu_entries(specs()) if e.spec.id == 'oskar')\n"
        "    print(entry.adapter.spec.id, rules())\n"
        "    import threading\n"
        "    from controller.adapters import import_every_game\n"
        "    stop = threading.Event()\n"
        "    stop.set()\n"
        "    import_every_game(stop)\n"
        "    print(len(rules()))\n"
        "    import_every_game(threading.Event())\n"
        "    print(sorted({m.split('.')[2] for m in rules() if m.endswith('.table')}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    before, screen, chosen, stopped, warmed = done.stdout.splitlines()
    assert before == "[]"
    assert screen == "ATTRACT"
    assert chosen == (
        "oskar ['controller.games.oskar.bots', 'controller.games.oskar.engine', "
        "'controller.games.oskar.table']"
    )
    # The warm-up the windowed kiosk runs after its first frame: nothing once stopped,
    # else every game's table side (and with it its rules and bot).
    assert stopped == "3"
    assert warmed == str(sorted(spec.key for spec in specs().values()))


def test_a_game_that_cannot_load_is_one_log_line_and_the_warm_up_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import dataclasses
    import logging
    import threading

    import controller.adapters as adapters

    real = specs()
    broken = dataclasses.replace(real["oss"], id="broken-game", home="tests.no_such_game")
    monkeypatch.setattr(adapters, "specs", lambda: {"broken-game": broken, **real})
    with caplog.at_level(logging.WARNING, logger="controller.adapters"):
        adapters.import_every_game(threading.Event())
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "game broken-game could not be loaded: ModuleNotFoundError: "
        "No module named 'tests.no_such_game'"
    ]
    # The games after it were still loaded.
    assert {game_id: adapters.adapter_for(spec).spec.id for game_id, spec in real.items()} == {
        game_id: game_id for game_id in real
    }
