"""``replay`` refuses every malformed record with exit 2 and exactly one ``line N:`` line.

The mutants of issue 14 each through the real command line (bytes on standard
input; ``replay`` runs in this process, and as a process of its own under a strict
UTF-8 locale where the locale is the point), then a seeded, derandomized Hypothesis
fuzz that mutates every valid record the project ships thousands of times.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cli import main as cli
from tests.conftest import run_cli_here

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted([*ROOT.glob("tests/records/**/*.jsonl"), *ROOT.glob("controller/samples/*.jsonl")])
SAMPLE = ROOT / "controller" / "samples" / "oshaka-trick.jsonl"
ONE_LINE = re.compile(r"line [1-9][0-9]*: [^\n]+\n")


def replay_cli(
    data: bytes, *args: str, process: bool = False
) -> subprocess.CompletedProcess[bytes]:
    """``cafe-table replay ARGS -`` with ``data`` on stdin, in this process; with ``process``
    as ``python -m controller`` under a strict UTF-8 locale."""
    if not process:
        done = run_cli_here("replay", *args, "-", stdin=data)
        out, err = done.stdout.encode("utf-8"), done.stderr.encode("utf-8")
        return subprocess.CompletedProcess(done.args, done.returncode, out, err)
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "0"}
    env.pop("PYTHONIOENCODING", None)
    return subprocess.run(
        [sys.executable, "-m", "controller", "replay", *args, "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def refused(done: subprocess.CompletedProcess[bytes], line: int) -> str:
    """The one line of a refusal, checked: exit 2, nothing on stdout, ``line N:`` first."""
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    err = done.stderr.decode("utf-8")
    assert ONE_LINE.fullmatch(err), err
    assert err.startswith(f"line {line}: "), err
    return err


def sample_lines() -> list[str]:
    return SAMPLE.read_text(encoding="utf-8").split("\n")


def with_line(number: int, text: str) -> bytes:
    """The sample record with line ``number`` (1-based) replaced by ``text``."""
    lines = sample_lines()
    lines[number - 1] = text
    return "\n".join(lines).encode("utf-8")


def test_the_sample_replays() -> None:
    done = replay_cli(SAMPLE.read_bytes(), "--json", process=True)
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is True


def test_an_integer_of_thousands_of_digits() -> None:
    err = refused(replay_cli(with_line(2, '{"seat": ' + "9" * 5000 + ', "play": "R1"}')), 2)
    assert "is too long" in err and len(err) < 300


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_deep_nesting(text: str) -> None:
    assert "nests arrays or objects" in refused(replay_cli(with_line(3, text)), 3)


def test_a_value_with_a_newline_cannot_forge_a_second_line() -> None:
    forged = json.dumps({"seat": 0, "play": "R1\nline 9: all is well\r\u2028"})
    err = refused(replay_cli(with_line(2, forged)), 2)
    assert "\\nline 9: all is well\\r\\u2028" in err


def test_non_utf8_on_stdin_under_a_strict_utf8_locale() -> None:
    data = with_line(4, '{"seat": 0, "play": "R1"}').replace(b'"R1"', b'"R\xff1"', 1)
    assert "not UTF-8" in refused(replay_cli(data, process=True), 4)


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(b'{"format": "table-record/1", "game": "oss\xc3"}\n')
    done = subprocess.run(
        [sys.executable, "-m", "controller", "replay", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert "not UTF-8" in refused(done, 1)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_unicode_line_separators_inside_strings_are_not_line_ends(separator: str) -> None:
    lines = sample_lines()
    lines.insert(1, json.dumps({"note": f"dealt by Ana{separator}and Bo"}, ensure_ascii=False))
    done = replay_cli("\n".join(lines).encode("utf-8"), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] is True


def test_crlf_line_ends_are_read() -> None:
    done = replay_cli(SAMPLE.read_bytes().replace(b"\n", b"\r\n"), "--json")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("NaN", "is not a number JSON allows"),
        ("-Infinity", "is not a number JSON allows"),
        ("1e999", "is too large"),
        ("0." + "1" * 40, "is too long"),
    ],
)
def test_numbers_are_bounded(value: str, words: str) -> None:
    assert words in refused(replay_cli(with_line(2, '{"seat": ' + value + "}")), 2)


# --- the fuzz ---------------------------------------------------------------------------------

VALID = [path.read_text(encoding="utf-8") for path in RECORDS]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["R1", "R13", "AS", "TH", "horror", "score", "penalty", "", "0"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
raw_snippets = st.sampled_from(
    [
        "9" * 4400,
        "[" * 3000,
        '"\u2028"',
        "\u0085",
        "\r",
        "\n",
        "NaN",
        "1e400",
        "{",
        '"seat": ',
        '\\"',
        "\\u0000",
        "\ufeff",
    ]
)


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A valid record with a few mutations: JSON values, lines, or raw bytes."""
    lines = draw(st.sampled_from(VALID)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "key", "drop", "swap", "copy", "snippet", "cut"]))
        at = draw(st.integers(0, len(lines) - 1))
        if kind in ("value", "key"):
            try:
                obj = json.loads(lines[at])
            except (ValueError, RecursionError):  # an earlier mutation broke this line
                continue
            if isinstance(obj, dict) and obj:
                key = draw(st.sampled_from(sorted(obj)))
                if kind == "value":
                    obj[key] = draw(json_values)
                else:
                    obj[draw(st.text(max_size=6))] = obj.pop(key)
                lines[at] = json.dumps(obj, ensure_ascii=draw(st.booleans()))
        elif kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "copy":
            lines.insert(at, lines[at])
        elif kind == "snippet":
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + draw(raw_snippets) + lines[at][cut:]
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    data = "\n".join(lines).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:  # now and then a byte that is not UTF-8
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[cut:]
    return data


def replay_in_process(data: bytes) -> tuple[int, str, str]:
    """``main(["replay", "--json", "-"])`` with ``data`` as the bytes of standard input."""
    done = run_cli_here("replay", "--json", "-", stdin=data)
    return done.returncode, done.stdout, done.stderr


@settings(
    max_examples=2000,
    derandomize=True,  # the same examples on every run: CI stays stable
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@pytest.mark.slow
@given(mutated_records())
def test_fuzzed_records_replay_or_are_refused_in_one_line(data: bytes) -> None:
    status, out, err = replay_in_process(data)
    if status == 0:
        assert err == ""
        report = json.loads(out)
        assert set(report) >= {"game", "players", "finished", "totals", "winners", "next"}
    else:
        assert status == 2 and out == ""
        assert ONE_LINE.fullmatch(err), err
        number = int(err.split(":", 1)[0].removeprefix("line "))
        assert number <= data.count(b"\n") + 1


def test_a_file_name_no_system_can_open(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", "game\x00.jsonl"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "cannot open game\\x00.jsonl: no file name holds a NUL character\n"
