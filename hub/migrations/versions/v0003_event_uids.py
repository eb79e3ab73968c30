"""Events keep the id a table's outbox gave them, so one sent again is stored once (issue 31).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("uid", sa.String(200)))
    op.create_index("ix_events_uid", "events", ["uid"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_events_uid", "events")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("uid")
