"""Refused messages per table, and server-side login sessions (issue 31).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "refusals",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("first", sa.String(40), nullable=False),
        sa.Column("last", sa.String(40), nullable=False),
        sa.Column("topic", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("user", sa.String(80), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("expires", sa.String(40), nullable=False),
    )
    op.create_index("ix_sessions_user", "sessions", ["user"])


def downgrade() -> None:
    op.drop_table("sessions")
    op.drop_table("refusals")
