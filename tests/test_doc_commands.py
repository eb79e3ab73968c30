"""Every command line README.md and docs/ show works as printed, from a new shell.

A new user copies a command into a fresh shell (no activated venv, no
PYTHONPATH, nothing exported) in the clone's folder. Each document's
commands run in order, as its reader would run them, in a folder that looks
like a fresh clone (the repository's files linked in, its own ``out/`` and
``records/``). A command must exit 0, or refuse in one line on standard
error with no traceback. Placeholders (``FILE``, ``GAME_ID``, ``UID``, ...)
are filled in with real values; the few commands that cannot run here are
listed with the reason.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAMS = (".venv/bin/cafe-table", "cafe-table", ".venv/bin/python", "python", "python3")
# Commands that are not run here, and why (a prefix of the command line).
NOT_RUN = {
    "python3 -m venv": "sets up .venv and installs the package: this test runs in that .venv",
    ".venv/bin/python -m pytest": "the test suite itself",
    ".venv/bin/python benchmarks/": "a speed measurement (minutes; docs/benchmarks.md)",
    # The fresh clone links the real locale folder: these would write into the checkout.
    # tests/test_catalogs.py checks what `update` keeps and that every catalog compiles.
    ".venv/bin/python -m controller.words update": "rewrites the checkout's catalogs",
    ".venv/bin/python -m controller.words compile": "writes .mo files into the checkout",
    ".venv/bin/cafe-table dev new-game": "writes a game folder into the checkout: "
    "tests/test_scaffold.py runs it in a copy of the project, then plays the game",
    "cafe-table hub ": "the café hub's machine (docs/cafe.md links cafe-table into "
    "/usr/local/bin there): setup writes /etc/cafe-hub, adduser asks for a password "
    "at the terminal, run serves until stopped",
}
RECORD = ROOT / "controller" / "samples" / "oshaka-trick.jsonl"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")


def commands_in(text: str) -> list[str]:
    """The command lines of a document: lines of shell code blocks, and inline code spans."""
    found: list[str] = []
    for language, body in FENCE.findall(text):
        if language not in ("", "sh", "bash", "shell", "console"):
            continue
        found += [line.strip() for line in body.splitlines()]
    # In running text a bare `cafe-table replay` names the program; a command to
    # copy is written as it runs from a new shell: .venv/bin/... or python...
    outside = FENCE.sub("", text)
    found += [span for span in INLINE.findall(outside) if not span.startswith("cafe-table")]
    commands = []
    for line in found:
        line = re.sub(r"\s+#\s.*$", "", line).strip()  # a comment after the command
        words = line.split()
        if words and words[0] in PROGRAMS and len(words) > 1:
            commands.append(line)
    return commands


def runnable(command: str, here: Path) -> str:
    """The command with its placeholders filled in and its optional parts taken out."""
    command = re.sub(r"\s\[[^\]]*\]", "", command)  # [--json], [--csv FILE]: optional
    values = {
        "FILE": str(RECORD) if " replay " in f" {command} " else str(here / "copy.jsonl"),
        "GAME_ID": "last",
        "UID": "04A1B2C3D4E5F6",
        "WxH": "800x480",
        "N": "2",
    }
    words = [values.get(word, word) for word in shlex.split(command)]
    if "docs/screenshots.py" in words and "--out" not in words:
        # Its pictures' default folder is the checkout's docs/images (found from the
        # script's real path, not the clone's link): drawn here, every picture still is.
        words += ["--out", f"{here}/tmp-images"]
    return shlex.join(word.replace("/tmp/", f"{here}/tmp-") for word in words)


def fresh_clone(tmp_path: Path) -> Path:
    """A folder that looks like the clone: the repository's entries linked in, nothing run."""
    clone = tmp_path / "clone"
    clone.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in (".git", "out", "records") or entry.name.startswith(".pytest"):
            continue
        (clone / entry.name).symlink_to(entry)
    return clone


def run_in_new_shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # A new login shell's environment: no venv on PATH, no PYTHONPATH, no display.
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8"}
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_docs_show_commands_and_name_the_program_runnably() -> None:
    every = [c for doc in DOCUMENTS for c in commands_in(doc.read_text(encoding="utf-8"))]
    assert len(every) >= 20
    assert {doc.name for doc in WITH_COMMANDS} >= {"README.md", "journal.md", "first-evening.md"}
    # `python -m controller` fails in a new shell without the venv: never print it.
    stale = [c for c in every if re.match(r"python3? -m controller", c)]
    assert not stale, stale


def to_run(document: Path) -> list[str]:
    """The document's commands, less those this test cannot run (``NOT_RUN``)."""
    commands = commands_in(document.read_text(encoding="utf-8"))
    return [c for c in commands if not any(c.startswith(prefix) for prefix in NOT_RUN)]


WITH_COMMANDS = [doc for doc in DOCUMENTS if to_run(doc)]


@pytest.mark.slow
@pytest.mark.parametrize("document", WITH_COMMANDS, ids=lambda p: p.name)
def test_every_command_of_a_document_runs_as_printed(document: Path, tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path)
    failures = []
    for command in to_run(document):
        line = runnable(command, clone)
        done = run_in_new_shell(line, clone)
        errors = [e for e in done.stderr.splitlines() if e.strip()]
        # 126/127: the shell could not run the program at all (not found, not executable).
        refused_in_one_line = done.returncode not in (0, 126, 127) and len(errors) == 1
        if "Traceback" in done.stderr or not (done.returncode == 0 or refused_in_one_line):
            failures.append(f"{line}\n  exit {done.returncode}\n  stderr: {done.stderr[-800:]}")
    assert not failures, "\n".join(failures)
