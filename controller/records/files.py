"""Game record files in the records folder: written atomically, never missing for a finished game.

The kiosk writes a finished game's ``table-record/1`` file right after the
journal marks the game finished. A crash between the two would leave the game
without its file, so at every start ``write_missing_records`` writes, from
the journal, the file of every finished game the journal has not seen saved.
A file is written to a temporary name, fsync'd and renamed, so a record file
is either whole or absent, and an identical file already there is kept rather
than written twice.

A file's name starts with the game's number in the journal (six digits), so
the records folder lists games in the order they were played whatever the
clock said; then comes the game's finishing time when the clock that stamped
it was synchronised (a Pi without a real-time clock may think it is 1970 until
NTP has set it: such a time is left out of the name rather than written
wrong), then the game: ``000042-20261201-213005-oshaka-trick.jsonl``,
``000043-oshaka-trick.jsonl``.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import tempfile
from pathlib import Path

from controller.games.base import TableError
from controller.records.clock import trusted_wall
from controller.records.history import export_record
from controller.records.journal import Journal
from controller.words.safe_text import one_line

logger = logging.getLogger(__name__)

# Where the headless kiosk writes its picture, record and journal by default (its --out).
DEMO_OUT = Path("out")


class RecordFileError(TableError):
    """A record file could not be written; the game itself is safe in the journal."""


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: temp file, fsync, rename, fsync folder."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    # The rename itself reaches the disk only when the folder is synced.
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def save_record(
    folder: Path,
    game: str,
    text: str,
    when: dt.datetime | None,
    *,
    number: int | None = None,
    maybe_saved: bool = True,
) -> Path:
    """Write a game's record as ``<number>-<YYYYmmdd-HHMMSS>-<game>.jsonl`` in ``folder``.

    ``number`` is the game's number in the journal (none: a table without a
    journal, named by the time alone); ``when`` its trusted finishing time
    (none: the clock was not synchronised, and the name leaves it out).

    Another game's file of the same second gets ``-2``, ``-3`` ...; with
    ``maybe_saved`` (a record the journal has not seen saved: a crash after
    the rename but before the journal noted it must not make a copy), a file
    that already holds exactly this record is kept and returned. A game that
    has just finished was never saved, so its file is always its own, even
    beside an identical record of the same second (the same seed, replayed).
    """
    if when is None and number is None:
        when = dt.datetime.now().astimezone()
    parts = [] if number is None else [f"{number:06d}"]
    parts += [] if when is None else [when.strftime("%Y%m%d-%H%M%S")]
    stamp = "-".join(parts)
    path = folder / f"{stamp}-{game}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        counter = 1
        while path.exists():
            if maybe_saved and _holds(path, text):
                return path
            counter += 1
            path = folder / f"{stamp}-{game}-{counter}.jsonl"
        write_atomically(path, text)
    except OSError as exc:
        raise RecordFileError(
            one_line(
                f"could not write the game record {path} ({exc.strerror or exc}); the game "
                "is safe in the journal: free space or fix the records folder's permissions "
                "and start the table again, which writes the record"
            )
        ) from None
    logger.info("saved the game record %s", path)
    return path


def save_finished_record(folder: Path, game: str, text: str, journal: Journal | None) -> Path:
    """Save the record of the game the table just finished, and tell the journal it is saved."""
    game_id = None if journal is None else journal.current_game
    row = None if journal is None or game_id is None else journal.game(game_id)
    when = None if row is None else trusted_wall(row.finished, row.finished_synced)
    number = None if row is None else row.id
    path = save_record(folder, game, text, when, number=number, maybe_saved=False)
    if journal is not None and row is not None:
        journal.record_saved(row.id, path)
    return path


def write_missing_records(journal: Journal, folder: Path) -> list[Path]:
    """Write the file of every finished game whose record the journal has not seen saved."""
    written = []
    for row in journal.records_missing():
        text = row.record if row.record is not None else export_record(journal, row.id)
        when = trusted_wall(row.finished, row.finished_synced)
        path = save_record(folder, row.game, text, when, number=row.id)
        journal.record_saved(row.id, path)
        logger.warning("wrote the missing record of game %d to %s", row.id, path)
        written.append(path)
    return written


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False
