"""Plans: a seat's moves written ahead (if they play X then play Y; next: Y), private rows
per seat until played.

Revision ID: 0025_plans
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = "0025_plans"
down_revision = "0024_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "plans",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("other", sa.Integer(), nullable=True),
        sa.Column("condition", sa.JSON(), nullable=True),
        sa.Column("reply", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("written_seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("why", sa.Text(), nullable=True),
        sa.Column("told", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_plans_game", "plans", ["game_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_plans_game", "plans")
    op.drop_table("plans")
