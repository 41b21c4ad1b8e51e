"""Talk at a table: its messages, stored with the game, and who may talk (the creator's choice).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Tables made before this one: everyone may talk, as at a new table.
    op.add_column("tables", sa.Column("chat", sa.String(8), nullable=False, server_default="everyone"))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("reaction", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_table_id", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat")
