"""The command line loads only the subcommand it runs, and says the same as with every one.

``controller.cli.main`` imports a subcommand's module only when the command line
names it (a third of the start-up of every ``python -m controller`` in the tests
and on the Pi); ``--help``, no command or an unknown one load them all.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys

import pytest

from controller.cli.main import SUBCOMMANDS, build_parser
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
