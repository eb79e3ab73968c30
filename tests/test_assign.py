"""assign-readers: seats learn their readers from taps over real pseudo-terminals."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from controller.cli.assign import assign, chosen_protocol
from controller.cli.main import build_parser
from hardware.link_reader import LinkReader
from hardware.ptys import PtyPair
from tests.conftest import run_cli, run_cli_here


def test_taps_at_each_seat_in_turn_assign_the_readers() -> None:
    pairs = [PtyPair().open() for _ in range(3)]
    try:
        ports = [pair.slave_path for pair in pairs]
        said: list[str] = []
        asked = threading.Event()

        def tell(text: str) -> None:
            said.append(text)
            asked.set()

        # Seat 0 is the third reader, seat 1 the first, seat 2 the second; the
        # first reader is tapped twice (a second tap there is refused).
        order = [2, 0, 0, 1]

        def staff() -> None:
            for index in order:
                asked.wait(5)
                asked.clear()
                pairs[index].write(b"TAG 04A1B2C3D4E5F6\nGONE\n")

        walker = threading.Thread(target=staff)
        walker.start()
        result = assign(ports, 3, "line", tell=tell, timeout=10)
        walker.join(5)
        assert result.done
        assert result.assignment == {0: ports[2], 1: ports[0], 2: ports[1]}
        # The first reader is the second seat, counted from 1 for staff: "Seat 2".
        assert any("already Seat 2" in line for line in said)
        toml = result.toml("line")
        assert toml.count("[[seat]]") == 3 and f'reader = "{ports[2]}"' in toml
    finally:
        for pair in pairs:
            pair.close()


def test_no_readers_connected_is_a_clear_message(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyACM9")
    result = run_cli("assign-readers", "--port", missing, "--protocol", "line", "--timeout", "1")
    assert result.returncode == 2
    assert "assign-readers:" in result.stderr and "Traceback" not in result.stderr


def test_a_board_speaking_another_protocol_is_named_within_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A line-protocol board (it only ever sends TAG/GONE lines) opened as a link
    # reader: the command must say so within the link's few seconds of silence,
    # not wait out its --timeout. The link's allowance for silence is shortened here
    # (the command opens its readers with the default), so the test waits a fraction
    # of a second for what takes 3.5 s at a table; the command runs in this process
    # for that (test_no_readers_connected_is_a_clear_message runs it as its own).
    silence = 0.3
    defaults = LinkReader.__init__.__kwdefaults__
    assert defaults is not None and "heartbeat_timeout" in defaults
    monkeypatch.setitem(defaults, "heartbeat_timeout", silence)
    with PtyPair() as board:
        board.write(b"TAG 04A1B2C3D4E5F6\nGONE\n")
        started = time.monotonic()
        result = run_cli_here(
            "assign-readers", "--port", board.slave_path, "--protocol", "link", "--timeout", "120"
        )
        waited = time.monotonic() - started
    assert result.returncode == 2
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("assign-readers: the reader at ") and "--protocol" in line, line
    assert f"nothing for {silence:g} s" in line, line  # the link's silence said it
    assert "Traceback" not in result.stderr
    assert waited < 60  # far below the 120 s wait for a tap: the reader said it at once


def test_the_protocol_comes_from_the_configured_seats(tmp_path: Path) -> None:
    with PtyPair() as board:
        table = tmp_path / "table.toml"
        # One reader is a link board; the other seat is still simulated.
        table.write_text(
            f'[[seat]]\nreader = "{board.slave_path}"\nprotocol = "link"\n\n[[seat]]\n',
            encoding="utf-8",
        )
        parser = build_parser()
        args = parser.parse_args(["assign-readers", "--config", str(table)])
        assert chosen_protocol(args) == "link"
        # Without a configuration: the seats' default protocol, as table.toml has it.
        assert chosen_protocol(parser.parse_args(["assign-readers"])) == "line"
        args = parser.parse_args(["assign-readers", "--config", str(table), "--protocol", "line"])
        assert chosen_protocol(args) == "line"
