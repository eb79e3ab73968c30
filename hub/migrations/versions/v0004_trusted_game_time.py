"""Games keep whether the table's clock was set and the time the hub trusts for them (issue 33).

The history's date filters read ``played``: the table's end time when the table says
its clock was set (or, for a row stored before tables said so, when the time is not
before 2025), else the record's arrival at the hub.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_set", sa.Boolean))
        batch.add_column(sa.Column("played", sa.String(40)))
    # Rows from before: no table said; a 1970 end (a clock not set) files under arrival.
    op.execute(
        "UPDATE games SET played = CASE WHEN finished >= '2025-01-01' THEN finished "
        "ELSE received END"
    )
    op.create_index("ix_games_played", "games", ["played"])


def downgrade() -> None:
    op.drop_index("ix_games_played", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("played")
        batch.drop_column("clock_set")
