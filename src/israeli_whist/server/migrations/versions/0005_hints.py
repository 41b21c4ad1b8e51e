"""Hints at the table: whether the creator allowed them, and each hint used, stored with the game.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Tables made before this one allowed no hints, as a new table does unless its creator asks.
    op.add_column("tables", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "hints_used",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("hand_number", sa.Integer, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_hints_used_table_id", "hints_used", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_hints_used_table_id", "hints_used")
    op.drop_table("hints_used")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
