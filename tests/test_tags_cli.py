"""``tags`` commands: the first staff tag of a new table, read over real pseudo-terminals."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli.tags import main
from controller.tags.registry import TagRegistry
from hardware.ptys import PtyPair
from tests.conftest import run_cli, run_cli_here

STAFF_UID = "04C0FFEE123456"


@pytest.fixture
def reader_ports() -> Iterator[list[PtyPair]]:
    pairs = [PtyPair().open() for _ in range(2)]
    try:
        yield pairs
    finally:
        for pair in pairs:
            pair.close()


def write_config(tmp_path: Path, pairs: list[PtyPair]) -> Path:
    seats = "".join(
        f'[[seat]]\nreader = "{pair.slave_path}"\nprotocol = "line"\n\n' for pair in pairs
    )
    path = tmp_path / "table.toml"
    path.write_text(f'[tags]\nregistry = "tags.json"\n\n{seats}', encoding="utf-8")
    return path


def tap_when_asked(pair: PtyPair, uid: str, capsys: pytest.CaptureFixture[str]) -> threading.Thread:
    """Tap ``uid`` on ``pair``'s reader once the command says it waits."""

    def staff() -> None:
        for _ in range(500):
            if "waiting up to" in capsys.readouterr().out:
                break
            threading.Event().wait(0.01)
        pair.write(f"TAG {uid}\nGONE\n".encode())

    thread = threading.Thread(target=staff)
    thread.start()
    return thread


def test_add_staff_reads_a_tap_and_creates_the_registry(
    tmp_path: Path, reader_ports: list[PtyPair], capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, reader_ports)
    registry = tmp_path / "tags.json"
    assert not registry.exists()
    staff = tap_when_asked(reader_ports[1], STAFF_UID, capsys)
    status = main(["tags", "add-staff", "--config", str(config), "--wait", "10"])
    staff.join(5)
    assert status == 0
    loaded = TagRegistry.load(registry)
    entry = loaded.lookup(STAFF_UID)
    assert entry is not None and entry.is_staff
    assert json.loads(registry.read_text())["staff"] == [STAFF_UID]


def test_show_and_list_say_what_the_registry_holds(
    tmp_path: Path, reader_ports: list[PtyPair], capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, reader_ports)
    assert main(["tags", "add-staff", "--config", str(config), "--uid", STAFF_UID.lower()]) == 0
    capsys.readouterr()
    assert main(["tags", "show", "--config", str(config), STAFF_UID]) == 0
    assert capsys.readouterr().out.strip() == f"{STAFF_UID}: a staff tag"
    assert main(["tags", "show", "--config", str(config), "04AABBCCDD"]) == 0
    assert "not enrolled" in capsys.readouterr().out
    assert main(["tags", "list", "--config", str(config)]) == 0
    listing = capsys.readouterr().out
    assert "staff: 1" in listing and "Oshaka Trick (oshaka): 0 of 52 cards" in listing


def test_a_tag_enrolled_as_a_card_is_not_made_a_staff_tag(
    tmp_path: Path, reader_ports: list[PtyPair]
) -> None:
    config = write_config(tmp_path, reader_ports)
    registry = TagRegistry()
    registry.enroll("oshaka", "R7", STAFF_UID)
    registry.save(tmp_path / "tags.json")
    result = run_cli("tags", "add-staff", "--config", str(config), "--uid", STAFF_UID)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "already enrolled as R7 of oshaka" in result.stderr
    assert TagRegistry.load(tmp_path / "tags.json").lookup(STAFF_UID) is not None


def test_mistakes_are_one_line_each(tmp_path: Path) -> None:
    simulated = tmp_path / "sim.toml"
    mock_seats = '[[seat]]\nreader = "mock"\n\n' * 2
    simulated.write_text(f'[tags]\nregistry = "tags.json"\n\n{mock_seats}')
    no_registry = tmp_path / "bare.toml"
    no_registry.write_text(mock_seats)
    cases = [
        (("tags", "add-staff"), "--config table.toml"),
        (("tags", "add-staff", "--config", str(simulated)), "only simulated readers"),
        (("tags", "list", "--config", str(no_registry)), "[tags] registry"),
        (("tags", "show", "--config", str(tmp_path / "none.toml"), "04AA"), "none.toml"),
    ]
    for args, words in cases:
        result = run_cli_here(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert words in result.stderr and result.stderr.count("\n") == 1, result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_no_tap_in_time_says_what_to_check(tmp_path: Path, reader_ports: list[PtyPair]) -> None:
    config = write_config(tmp_path, reader_ports)
    result = run_cli("tags", "add-staff", "--config", str(config), "--wait", "0.5")
    assert result.returncode == 2
    assert "no tag was tapped within" in result.stderr and "kiosk is stopped" in result.stderr
    assert not (tmp_path / "tags.json").exists()
