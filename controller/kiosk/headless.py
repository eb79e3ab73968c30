"""The headless demo: bots play one full game, the score sheet is printed, pictures saved.

What ``cafe-table kiosk`` does without a display (or with ``--headless``):
the record, the journal and a PNG of the final table and the results go to
``--out``; the last lines say how to replay the record and list the games.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path

from controller.config.table_config import TableConfig
from controller.games.base import TableError
from controller.games.words import Verbatim, as_arg, say
from controller.kiosk.app import Kiosk, stopped_words
from controller.kiosk.arguments import (
    config_path,
    demo_game,
    headless_players,
    headless_table,
    journal_file,
    with_window_options,
)
from controller.kiosk.exit_codes import ExitCode
from controller.kiosk.stop_signals import StopSignals
from controller.records import scoresheet
from controller.view import Screen, TableView
from controller.words import terminal as terminal_words
from controller.words.commands import command

logger = logging.getLogger(__name__)


def render_png(
    view: TableView, path: Path, config: TableConfig, size: tuple[int, int] | None = None
) -> Path:
    """Draw a view off-screen and save it as a PNG."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.screenshot import screenshot_view

    display = config.display
    return screenshot_view(view, path, size or (display.width, display.height), display.rotation)


def headless_demo(
    args: argparse.Namespace, config: TableConfig, stop: StopSignals | None = None
) -> int:
    """Bots play one full game on simulated hardware; print the sheet, save a PNG and record.

    ``stop`` (installed by ``run``) ends the game early on a stop signal; the journal
    keeps it for the next run."""
    players = headless_players(args, None if args.config is None else config)
    if args.config is None:
        # No toss timer: the bots toss no Jack, and their presses, a moment apart, would time
        # every toss at 0.000 s. Oss's results are reported with the seat buttons instead.
        simulated = replace(TableConfig.simulated(players, bots=players), timer=None)
        config = with_window_options(simulated, args)
    else:
        config = headless_table(config, players, str(args.config))
    out = Path(args.out)
    journal = journal_file(args, out)
    try:
        # The demo's output folder, named on the command line, is made like any output
        # folder when the journal is to be in it (else the record makes it when it is
        # saved, and a refused --journal leaves nothing behind). The windowed kiosk's
        # records folder is not: a missing one may be an unmounted disk.
        if journal is not None and journal.parent == out:
            out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TableError(
            say(
                "cannot make the folder {folder} for the demo's picture, record and journal "
                "({reason}); name another with --out",
                folder=Verbatim(str(out)),
                reason=Verbatim(exc.strerror or str(exc)),
            )
        ) from exc
    kiosk = Kiosk.create(
        config,
        seed=args.seed,
        auto_game=demo_game(args),
        records_dir=out,
        journal_path=journal,
        config_path=config_path(args),
    )
    present = terminal_words.presenter(args)
    if stop is not None:
        kiosk.watch(stop)
    with kiosk:
        if kiosk.resume():
            print(present(say("Resumed the unfinished game from the journal.")), file=sys.stderr)
        finished = kiosk.run_headless()
        game = kiosk.table.game
        if not kiosk.stop_requested and (not finished or game is None):
            said = kiosk.table.messages[-1].text if kiosk.table.messages else say("nothing")
            terminal_words.complain(
                args,
                "kiosk",
                say(
                    "the bots could not finish a game of {game} (the table last said: {said}); "
                    "check --game, --players and the bot seats of --config",
                    game=Verbatim(demo_game(args)),
                    said=as_arg(said),
                ),
            )
            return int(ExitCode.CONFIG)
        if kiosk.stop_requested or game is None:
            game = None  # stopped: the journal keeps the game for the next run
        else:
            print(scoresheet.render(game.adapter.engine, present, game.players), end="")
            results = kiosk.table.view
            # The table as it lay after the last card (columns, penalties), and the results screen.
            table_png = render_png(
                replace(results, screen=Screen.PLAY), out / "final-table.png", config
            )
            results_png = render_png(results, out / "results.png", config)
    if game is None:
        logger.warning("%s", stopped_words(kiosk))
        return int(ExitCode.STOPPED)
    print(present(say("Final table: {file}", file=Verbatim(str(table_png)))))
    print(present(say("Results screen: {file}", file=Verbatim(str(results_png)))))
    print(present(say("Game record: {file}", file=Verbatim(str(kiosk.last_record)))))
    replay = Verbatim(command("replay", kiosk.last_record))
    print(present(say("Replay it:   {command}", command=replay)))
    if journal is not None:
        history = Verbatim(command("history", "--journal", journal))
        print(present(say("Its history: {command}", command=history)))
    return 0
