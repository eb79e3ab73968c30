"""Game record files in the records folder: written atomically, never missing for a finished game.

The kiosk writes a finished game's ``table-record/1`` file right after the
journal marks the game finished. A crash between the two would leave the game
without its file, so at every start ``write_missing_records`` writes, from
the journal, the file of every finished game the journal has not seen saved.
A file is written to a temporary name, fsync'd and renamed, so a record file
is either whole or absent; its name comes from the game's finishing time in
the journal, and an identical file already there is kept rather than written
twice.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import tempfile
from pathlib import Path

from controller.games.base import TableError
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
    folder: Path, game: str, text: str, when: dt.datetime, *, maybe_saved: bool = True
) -> Path:
    """Write a game's record as ``<YYYYmmdd-HHMMSS>-<game>.jsonl`` in ``folder``.

    Another game's file of the same second gets ``-2``, ``-3`` ...; with
    ``maybe_saved`` (a record the journal has not seen saved: a crash after
    the rename but before the journal noted it must not make a copy), a file
    that already holds exactly this record is kept and returned. A game that
    has just finished was never saved, so its file is always its own, even
    beside an identical record of the same second (the same seed, replayed).
    """
    stamp = when.strftime("%Y%m%d-%H%M%S")
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
    when = _finished_at(None if row is None else row.finished)
    path = save_record(folder, game, text, when, maybe_saved=False)
    if journal is not None and row is not None:
        journal.record_saved(row.id, path)
    return path


def write_missing_records(journal: Journal, folder: Path) -> list[Path]:
    """Write the file of every finished game whose record the journal has not seen saved."""
    written = []
    for row in journal.records_missing():
        text = row.record if row.record is not None else export_record(journal, row.id)
        path = save_record(folder, row.game, text, _finished_at(row.finished))
        journal.record_saved(row.id, path)
        logger.warning("wrote the missing record of game %d to %s", row.id, path)
        written.append(path)
    return written


def _finished_at(text: str | None) -> dt.datetime:
    if text is not None:
        try:
            return dt.datetime.fromisoformat(text)
        except ValueError:
            pass
    return dt.datetime.now().astimezone()


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False
