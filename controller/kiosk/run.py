"""``cafe-table kiosk``'s arguments and its entry: stop signals, the journal's folder,
then a window or the headless demo.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig, load
from controller.games.base import TableError
from controller.games.words import say
from controller.kiosk.arguments import journal_file, window_table, with_window_options
from controller.kiosk.display_wait import DisplayFailed, wait_for_display
from controller.kiosk.exit_codes import ExitCode
from controller.kiosk.sd_notify import Notifier
from controller.kiosk.stop_signals import StopSignals
from controller.kiosk.windowed import display_available, windowed
from controller.records.durable import require_durable
from controller.records.journal import JournalDiskFull, JournalLocked
from controller.words import terminal as terminal_words
from hardware.errors import HardwareConfigError, HardwareError

logger = logging.getLogger(__name__)


def check_durable(args: argparse.Namespace, config: TableConfig, folder: Path) -> None:
    """``[journal] require_durable``: refuse a journal folder that a power cut empties."""
    if config.journal.require_durable and not args.no_journal:
        journal = journal_file(args, folder)
        require_durable(journal.parent if journal is not None else folder)


def run(args: argparse.Namespace) -> int:
    """``kiosk`` subcommand: choose headless or windowed, and turn failures into one line and
    an exit status with a meaning (``controller.kiosk.exit_codes``).

    SIGTERM, SIGINT and SIGHUP stop it cleanly from here on, in every mode.
    """
    with StopSignals() as stop:
        try:
            return run_until_stopped(args, stop)
        except ConfigError as exc:
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.CONFIG)
        except HardwareConfigError as exc:  # a bad pin map or pixel range in table.toml
            terminal_words.complain(args, "kiosk", str(exc))
            return int(ExitCode.CONFIG)
        except (JournalDiskFull, JournalLocked) as exc:
            # A full disk, or a journal another process holds: the game in the journal is
            # untouched, and a later start resumes it.
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.TEMPORARY)
        except TableError as exc:
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.CONFIG)
        except (HardwareError, DisplayFailed) as exc:
            terminal_words.complain(args, "kiosk", str(exc))
            return int(ExitCode.DEVICE)


def run_until_stopped(args: argparse.Namespace, stop: StopSignals) -> int:
    """The kiosk's run: headless or windowed; under systemd, wait for a display that is
    not there yet (the DRM driver still loading at boot) rather than exit."""
    config = load(Path(args.config)) if args.config else window_table(args)
    config = with_window_options(config, args)
    if not args.headless and Notifier().enabled:
        # Under systemd a bot demo would end and restart for ever: wait for the screen.
        check_durable(args, config, config.records)
        from display import probe

        if not wait_for_display(stop, Notifier(), probe.sdl_display_problem):
            logger.warning("stopped on %s while waiting for the display", stop.requested)
            return int(ExitCode.STOPPED)
        return windowed(args, config, stop)
    headless = args.headless or not display_available()
    check_durable(args, config, Path(args.out) if headless else config.records)
    if headless:
        if not args.headless:
            print(
                terminal_words.presenter(args)(
                    say("No display found: bots play one game headless.")
                ),
                file=sys.stderr,
            )
        # Imported here: a table's kiosk (windowed) never needs the demo's score sheet.
        from controller.kiosk.headless import headless_demo

        return headless_demo(args, config, stop)
    return windowed(args, config, stop)
