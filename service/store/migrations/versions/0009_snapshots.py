"""Snapshots of game states, so that no read replays a whole log: a state every few dozen
events, keyed by the rules version and the engine code it was folded under (a snapshot of
another version or code is ignored and the log replayed). A cache: deleting every row is safe.

Revision ID: 0009
Revises: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("format", sa.String(40), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
