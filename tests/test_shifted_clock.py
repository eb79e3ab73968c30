"""The real kiosk process on a wall clock shifted to 1970, then stepped forward and back.

A time namespace (``unshare --time``) cannot do this: it shifts only the
monotonic and boot-time clocks, never the wall clock. So the test compiles a
small ``LD_PRELOAD`` shim with gcc that adds an offset, read from a file the
test rewrites mid-game, to ``CLOCK_REALTIME`` (``clock_gettime``,
``gettimeofday``, ``time``); the steady clocks run on untouched, as on a Pi
whose NTP client steps the clock.
"""

from __future__ import annotations

import datetime as dt
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_kiosk_stop import bot_table, kiosk, start_a_game

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long offset(void) {
    const char *path = getenv("SHIFT_FILE");
    long seconds = 0;
    FILE *file = path ? fopen(path, "r") : NULL;
    if (file) { if (fscanf(file, "%ld", &seconds) != 1) seconds = 0; fclose(file); }
    return seconds;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(id, ts);
    if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
        ts->tv_sec += offset();
    return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    int result = clock_gettime(CLOCK_REALTIME, &ts);
    if (tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
    (void)tz;
    return result;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
"""


def compile_shim(folder: Path) -> Path:
    if shutil.which("gcc") is None:
        pytest.fail("gcc is needed to build the clock shim (apt-get install gcc)")
    source, library = folder / "shift.c", folder / "shift.so"
    source.write_text(SHIM, encoding="utf-8")
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"], check=True
    )
    return library


def entries(journal: Path) -> list[tuple[str, float | None]]:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT at, steady FROM entries ORDER BY game, seq").fetchall()
    db.close()
    return [(str(at), steady) for at, steady in rows]


def wait_for_more(journal: Path, than: int, timeout: float = 60.0) -> int:
    """Wait until the bots have journaled more than ``than`` entries; how many there are."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = len(entries(journal))
        if count > than:
            return count
        time.sleep(0.2)
    raise AssertionError(f"the bots journaled nothing past entry {than} in {timeout} s")


@pytest.mark.slow
def test_a_kiosk_booted_in_1970_and_stepped_keeps_honest_stamps(tmp_path: Path) -> None:
    shim = compile_shim(tmp_path)
    table_toml = bot_table(tmp_path)
    journal = tmp_path / "records" / "journal.sqlite3"
    journal.parent.mkdir()
    start_a_game(table_toml, journal)
    shift = tmp_path / "shift"
    to_1970 = -int(time.time()) + 3600  # 01:00 on 1 January 1970, as a Pi without RTC boots
    shift.write_text(str(to_1970), encoding="ascii")
    shifted = {"LD_PRELOAD": str(shim), "SHIFT_FILE": str(shift)}
    with kiosk(table_toml, tmp_path, shifted) as running:
        running.status("playing oshaka-trick")
        count = wait_for_more(journal, len(entries(journal)))
        assert entries(journal)[-1][0].startswith("1970-01-01")  # the shim works
        shift.write_text("0", encoding="ascii")  # NTP steps the clock forward: 56 years
        count = wait_for_more(journal, count)
        shift.write_text("-3600", encoding="ascii")  # and back an hour
        wait_for_more(journal, count)
        running.proc.send_signal(signal.SIGTERM)
        assert running.proc.wait(timeout=15) == 0
    stamps = entries(journal)
    walls = [dt.datetime.fromisoformat(at) for at, _ in stamps]
    assert not [w for w in walls if w.year < 2025], stamps  # every 1970 stamp was corrected
    assert walls == sorted(walls)  # in play order, though the clock went back an hour
    steady = [s for _, s in stamps if s is not None]
    assert len(steady) == len(stamps) and steady == sorted(steady)
    with sqlite3.connect(journal) as db:
        started, status, played = db.execute(
            "SELECT started, status, played FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    db.close()
    assert dt.datetime.fromisoformat(started) <= walls[0]
    # However far the clock jumped, the game lasted what the steady clock says: minutes.
    span = (walls[-1] - dt.datetime.fromisoformat(started)).total_seconds()
    assert 0 < span < 600, span
    assert status == "playing" or 0 < played < 600
