"""Resuming the journal's unfinished game when the kiosk starts.

The glue between the journal (``controller.records``) and the table: the
journal only stores and checks; the table only rebuilds what it is handed.
"""

from __future__ import annotations

import logging

from controller.games.base import TableError
from controller.records.journal import (
    GameRow,
    Journal,
    JournalUnavailable,
    check_replays,
    pending_replays,
    seat_languages,
)
from controller.table import Table

logger = logging.getLogger(__name__)


def resume_cut_if_pending(journal: Journal, table: Table) -> bool:
    """Come back to the cut for the deal a crash interrupted, if any; whether it did.

    A cut the table can no longer resume (another menu, fewer seats) is forgotten
    with a log line: it holds no game, so nothing is lost but the cards cut.
    """
    state = journal.pending_cut()
    if state is None:
        return False
    try:
        table.resume_cut(state)
    except (ValueError, KeyError, TypeError):
        logger.warning("the journal's cut for the deal cannot be resumed", exc_info=True)
        journal.drop_cut()
        return False
    return True


def resume_if_unfinished(journal: Journal, table: Table) -> GameRow | None:
    """Resume the journal's unfinished game on the table; returns it, or None.

    A game that no longer replays (or whose seats the table no longer has)
    makes the journal move aside: the message for staff is then in
    ``journal.notices`` and the table stays on its attract screen.
    """
    row = journal.unfinished()
    if row is None:
        return None
    try:
        actions = journal.actions(row.id)
        check_replays(row, actions, {seat.index for seat in table.config.seats})
    except JournalUnavailable:
        raise  # the disk, not the game: moving the journal aside would lose the game
    except (TableError, ValueError, KeyError, TypeError) as exc:
        # ValueError and friends: a hand-edited or half-understood entry. The
        # table is untouched; the file is kept for a person to look at.
        logger.warning("the journal's game %d cannot be resumed", row.id, exc_info=True)
        journal.move_aside(f"its unfinished game #{row.id} ({row.game}) cannot be resumed: {exc}")
        return None
    try:
        table.resume(
            row.game,
            row.players,
            row.header,
            actions,
            row.seed,
            seat_languages(journal, row.id),
            pending_replays(journal, row.id),
        )
    except TableError as exc:
        # The engine replayed it above, so this is the table's side failing
        # (e.g. the game is no longer offered); do not loop on it at every start.
        # Table.resume leaves the table as it was (on its attract screen) when it fails.
        logger.warning("the table could not resume game %d", row.id, exc_info=True)
        journal.move_aside(f"its unfinished game #{row.id} ({row.game}) cannot be resumed: {exc}")
        return None
    return row
