"""Duplicate events (israeli_whist.server.events): an event's boards and rules, each player's play of
a board (its table, and once finished its points), and on each table the event board it plays.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("boards", sa.Integer, nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(40), nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("starts_at", sa.DateTime, nullable=False),
        sa.Column("ends_at", sa.DateTime, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_events_ends_at", "events", ["ends_at"])
    op.create_table(
        "event_plays",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("line", sa.JSON, nullable=True),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_event_plays_user_id", "event_plays", ["user_id"])
    op.create_index("ix_event_plays_table_id", "event_plays", ["table_id"])
    op.add_column("tables", sa.Column("event_id", sa.String(24), nullable=True))
    op.add_column("tables", sa.Column("event_board", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("event_board")
        batch.drop_column("event_id")
    op.drop_index("ix_event_plays_table_id", "event_plays")
    op.drop_index("ix_event_plays_user_id", "event_plays")
    op.drop_table("event_plays")
    op.drop_index("ix_events_ends_at", "events")
    op.drop_table("events")
