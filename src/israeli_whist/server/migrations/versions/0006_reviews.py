"""Reviews of games, stored with them: one row a game (its state, progress, seed, budget and, once
done, the review), and each hand's review as it finishes, so that a job taken up again after a
restart keeps the hands already done.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("hands_done", sa.Integer, nullable=False),
        sa.Column("hands_total", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("budget", sa.JSON, nullable=False),
        sa.Column("review", sa.JSON, nullable=True),
        sa.Column("error", sa.String(400), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_reviews_state", "reviews", ["state"])
    op.create_table(
        "review_hands",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("budget", sa.JSON, nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("review_hands")
    op.drop_index("ix_reviews_state", "reviews")
    op.drop_table("reviews")
