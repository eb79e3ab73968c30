"""The hub's database as it was before migrations (made by ``metadata.create_all``).

A database the hub made before Alembic is stamped with this revision when
the hub first opens it (``hub.storage.migrate``); a new one is built from it.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("online", sa.Boolean, nullable=False),
        sa.Column("status_at", sa.String(40)),
        sa.Column("state", sa.Text),
        sa.Column("state_at", sa.String(40)),
    )
    op.create_table(
        "games",
        sa.Column("uid", sa.String(200), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("started", sa.String(40)),
        sa.Column("finished", sa.String(40)),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("winners", sa.Text, nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("received", sa.String(40), nullable=False),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_index("ix_games_game", "games", ["game"])
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "alerts",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("raised", sa.String(40), nullable=False),
        sa.Column("acked", sa.String(40)),
        sa.Column("acked_by", sa.String(80)),
    )
    op.create_table(
        "events",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_index("ix_events_table_id", "events", ["table_id"])
    op.create_table(
        "users",
        sa.Column("name", sa.String(80), primary_key=True),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("password", sa.Text, nullable=False),
    )
    op.create_table(
        "config_requests",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("sent", sa.String(40), nullable=False),
        sa.Column("sent_by", sa.String(80), nullable=False),
        sa.Column("ok", sa.Boolean),
        sa.Column("message", sa.Text),
        sa.Column("answered", sa.String(40)),
    )
    op.create_table(
        "members",
        sa.Column("uid", sa.String(20), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
        sa.Column("enrolled", sa.String(40), nullable=False),
        sa.Column("changed", sa.String(40), nullable=False),
        sa.Column("changed_by", sa.String(80), nullable=False),
        sa.Column("retired", sa.String(40)),
    )
    op.create_table(
        "game_names",
        sa.Column("uid", sa.String(200), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("nickname", sa.String(64), nullable=False),
    )
    op.create_index("ix_game_names_nickname", "game_names", ["nickname"])
    op.create_table(
        "hub_meta",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "hub_meta",
        "game_names",
        "members",
        "config_requests",
        "users",
        "events",
        "alerts",
        "games",
        "tables",
    ):
        op.drop_table(table)
