"""``cafe-table dev new-game``: a newcomer's game folder, played, replayed and checked.

The scaffold runs in a copy of the project, as a newcomer would run it in
their checkout: it must write one folder and change nothing else, and the
game it writes must play headless through the table to a winner, replay from
its record to the same totals, and pass the engine conformance test and the
rooms' import rules, with no other edit.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import dev
from controller.cli import main as cli

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("controller", "display", "hardware", "firmware", "hub", "tests", "pyproject.toml")


def _copy_project(into: Path) -> Path:
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
            )
        else:
            shutil.copy2(source, into / name)
    return into


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts
    }


def _run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The copy comes first on the path, before the editable install of this checkout.
    env = os.environ | {"PYTHONPATH": str(copy), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_a_scaffolded_game_plays_replays_and_passes_the_conformance_test(tmp_path: Path) -> None:
    copy = _copy_project(tmp_path / "project")
    before = _files(copy)

    made = _run(copy, "-m", "controller", "dev", "new-game", "toy_trick", "--title", "Toy Trick")
    assert made.returncode == 0, made.stderr
    after = _files(copy)
    changed = {name for name in after if before.get(name) != after[name]} | (
        before.keys() - after.keys()
    )
    assert changed, "the scaffold wrote nothing"
    assert all(name.startswith("controller/games/toy_trick/") for name in changed), changed
    for part in ("spec.py", "engine.py", "table.py", "bots.py", "locale/toy_trick.pot"):
        assert f"controller/games/toy_trick/{part}" in changed

    # The files are the project's style already: ruff finds nothing to say.
    for check in (["check"], ["format", "--check"]):
        linted = _run(copy, "-m", "ruff", *check, "--no-cache", "controller/games/toy_trick")
        assert linted.returncode == 0, linted.stdout

    out = tmp_path / "out"
    played = _run(
        copy, "-m", "controller", "kiosk", "--headless", "--game", "toy-trick",
        "--players", "3", "--seed", "4", "--out", str(out),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "Toy Trick - 3 players - finished" in played.stdout
    assert "Winner" in played.stdout
    (record,) = out.glob("*-toy-trick.jsonl")

    replayed = _run(copy, "-m", "controller", "replay", "--json", str(record))
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["finished"] is True
    assert sum(result["totals"]) == 3  # three tricks, a point each
    assert result["winners"] == [
        s for s, t in enumerate(result["totals"]) if t == max(result["totals"])
    ]

    checked = _run(
        copy, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q",
        "tests/test_engine_conformance.py", "tests/test_architecture.py",
        "tests/test_game_specs.py", "-k", "toy-trick or toy_trick or architecture or folder",
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert " passed" in checked.stdout and "failed" not in checked.stdout


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("Lucky", "is not a game key"),
        ("9lives", "is not a game key"),
        ("class", "is not a game key"),
        ("common", "is reserved"),
        ("oss", "already exists"),
    ],
)
def test_a_key_the_scaffold_cannot_use_is_refused_with_what_to_do(
    key: str, why: str, tmp_path: Path
) -> None:
    games = tmp_path / "games"
    (games / "oss").mkdir(parents=True)
    with pytest.raises(dev.ScaffoldError, match=why):
        dev.new_game(key, games=games)
    assert [p.name for p in games.iterdir()] == ["oss"]  # nothing written


def test_the_command_says_why_on_one_line_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["dev", "new-game", "oh_pshaw"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "already exists; choose another key" in err


def test_the_class_name_follows_the_key() -> None:
    assert dev.class_name("lucky_sevens") == "LuckySevens"
    assert dev.class_name("x2") == "X2"
