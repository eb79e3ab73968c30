"""Shared test helpers: running the command line, writing small records."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from hardware.ptys import PtyPair

ROOT = Path(__file__).resolve().parent.parent

# The real Mosquitto broker and PostgreSQL fixtures for the café tests.
pytest_plugins = ("tests.broker", "tests.postgres", "tests.mock_gpio")

# Every pygame test runs headless; set before any test imports pygame.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# pygame as the kiosk imports it (display/quick_import.py): without the numpy and
# pkg_resources its __init__ pulls in and no test uses, some 0.3-0.8 s of CPU in each
# xdist worker. The first test module to import pygame would otherwise import it whole.
import display  # noqa: E402, F401

# The test run keeps Python's bytecode caches even where the shell says not to write
# them (PYTHONDONTWRITEBYTECODE, which some development containers set). Without them
# every xdist worker rewrote the asserts of every test module and compiled the project
# from source, some 15 s of CPU per worker and run, and every command a test runs in a
# process of its own compiled what it imports again. The caches are the usual
# __pycache__ folders, which git ignores. Here, before xdist starts its workers: they
# and the tests' subprocesses inherit the environment.
if sys.dont_write_bytecode:
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        help="also run the tests marked slow (CI and the README's test command do)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A quick run leaves the slow tests out (deselected, and said so), it does not skip them.
    if config.getoption("--runslow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
        config.hook.pytest_deselected(items=slow)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    # Everything the run built is frozen on its way out: the interpreter's exit runs full
    # garbage collections over every object left (the modules, fonts, renderers and
    # records of the tests a worker ran), some 1-2 s of CPU in each xdist worker for
    # memory the process is about to hand back anyway. Frozen objects are never walked
    # again; whatever is still referenced is freed by its reference count as before.
    gc.freeze()


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--runslow"):
        return "running every test, the slow ones too"
    return "quick run: tests marked slow are deselected (add --runslow to run them)"


#: Seconds (setup, call and teardown together) past which a test must be marked slow, so
#: that the quick run stays quick: the house rule, on 2 cores with the default workers.
SLOW_LIMIT = 5.0

# The time each test not marked slow took: in the process that writes the report (the
# xdist controller, which gets every worker's reports, or the only process with -n 0).
_unmarked_seconds: dict[str, float] = {}


def count_unmarked(report: pytest.TestReport, seconds: dict[str, float]) -> None:
    """Add the phase ``report`` tells of to its test's ``seconds``, unless it is marked slow."""
    if "slow" not in report.keywords:  # a marker's name is one of the report's keywords
        seconds[report.nodeid] = seconds.get(report.nodeid, 0.0) + report.duration


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    count_unmarked(report, _unmarked_seconds)


def unmarked_over(limit: float, seconds: Mapping[str, float]) -> list[tuple[float, str]]:
    """The tests of ``seconds`` (test id: seconds it took) over ``limit``, longest first."""
    return sorted(((took, test) for test, took in seconds.items() if took > limit), reverse=True)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    # Said at the end of every run, quick or whole: a test that grew past the limit
    # unmarked slows every quick run. Said, not failed: on a loaded machine any test
    # can take longer, so a listed test is timed again alone before it is marked.
    if hasattr(config, "workerinput"):
        return
    over = unmarked_over(SLOW_LIMIT, _unmarked_seconds)
    if not over:
        return
    terminalreporter.section(f"tests over {SLOW_LIMIT:g} s not marked slow")
    for took, test in over:
        terminalreporter.write_line(f"{took:6.1f} s  {test}")
    terminalreporter.write_line(
        "Mark them @pytest.mark.slow (the quick run leaves them out) or make them quicker; "
        "first time one again alone (-n 0 --durations=5): a loaded machine slows any test."
    )


def record_text(header: Mapping[str, Any], *actions: Mapping[str, Any]) -> str:
    """A record file's text from a header and action objects."""
    return "".join(json.dumps(obj) + "\n" for obj in (header, *actions))


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m controller ARGS`` as a user would, capturing both streams."""
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def run_cli_here(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    """``run_cli`` in this process: ``controller.cli.main.main(ARGS)`` with its own streams.

    For the tests of what a command says and its exit status: that is the same code
    in a process of its own, which costs a Python start and the command line's imports
    (a quarter to half a second of CPU each). What a separate process adds, its start
    and its exit, ``run_cli`` tests check once per command. ``stdin`` is bytes as a pipe
    gives them (a str is UTF-8 encoded); the log's warnings go to standard error in the
    format ``python -m controller`` gives them. A crash is raised, not turned into exit 1.
    """
    from controller.cli.main import main

    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    out, err = io.StringIO(), io.StringIO()
    log = logging.StreamHandler(err)
    log.setLevel(logging.WARNING)
    log.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(log)  # root has a handler now: the command's basicConfig adds none
    piped = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with (
            contextlib.chdir(ROOT),  # where run_cli runs it: relative paths mean the same
            mock.patch.object(sys, "stdin", piped),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            try:
                status = main(list(args))
            except SystemExit as stop:  # argparse's usage errors, --help
                if stop.code is not None and not isinstance(stop.code, int):
                    print(stop.code, file=err)  # as the interpreter does on its way out
                status = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        root.removeHandler(log)
    return subprocess.CompletedProcess(
        ["cafe-table", *args], status, out.getvalue(), err.getvalue()
    )


@pytest.fixture(autouse=True)
def quick_password_hashes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub's scrypt at a small cost factor, where a test needs passwords only to work.

    One hash at the real cost is some 70 ms of CPU, and the hub's tests hash and check
    some hundreds. A hash keeps its cost in its text, so hashes of either cost verify;
    ``@pytest.mark.real_scrypt`` keeps the real cost for the tests of the hash itself
    and of login timing. The unknown names' hash is made afresh in each test.
    """
    auth = sys.modules.get("hub.auth")
    if auth is None:  # no hub test in this run
        return
    monkeypatch.setattr(auth, "_dummy", [])
    if request.node.get_closest_marker("real_scrypt") is None:
        monkeypatch.setattr(auth, "N", 2**4)


@pytest.fixture
def ptys() -> Iterator[list[PtyPair]]:
    """Four open pseudo-terminal pairs: the serial ports of four seat readers."""
    from tests.rigs import pty_pairs

    with pty_pairs(4) as pairs:
        yield pairs


@pytest.fixture
def write_record(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write a record to a temporary file and return its path."""

    def write(header: Mapping[str, Any], *actions: Mapping[str, Any]) -> Path:
        path = tmp_path / "game.jsonl"
        path.write_text(record_text(header, *actions), encoding="utf-8")
        return path

    return write


# --- tests write only under temporary folders ------------------------------------------------

# Folders a kiosk or a command writes into, relative to where it runs (the checkout, for the
# tests' subprocesses): records/ ([table] records), out/ (the headless --out). Git ignores
# them, so only a look inside finds a record a test left there.
WRITTEN_HERE = ("records", "out")
# What running the tools themselves leaves in the checkout.
TOOL_LEFTOVERS = (".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "__pycache__")


def checkout_files() -> set[str]:
    """The checkout's files a test could have written: its untracked, not ignored files, and
    every file under ``WRITTEN_HERE``."""
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    found = {name for name in listed.stdout.decode("utf-8", "replace").split("\0") if name}
    for folder in WRITTEN_HERE:
        found |= {str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*") if p.is_file()}
    return {name for name in found if not any(part in TOOL_LEFTOVERS for part in Path(name).parts)}


@pytest.fixture(autouse=True, scope="session")
def the_checkout_stays_clean() -> Iterator[None]:
    """Fails the run (an error at the last test's teardown) when the tests left files in the
    checkout: a test writes records, journals and pictures under its ``tmp_path`` only."""
    before = checkout_files()
    yield
    left = sorted(checkout_files() - before)
    assert not left, (
        f"the tests wrote {len(left)} file(s) into the checkout {ROOT}: {', '.join(left[:10])}; "
        "give the kiosk or command a folder under tmp_path (records_dir=, --out, [table] records)"
    )
