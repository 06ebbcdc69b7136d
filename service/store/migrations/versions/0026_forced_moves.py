"""Forced moves: a player preference (on by default) to have a seat's one legal move that
shows it nothing new played for it after the bots' delay.

Revision ID: 0026_forced_moves
Revises: 0025_plans
"""
import sqlalchemy as sa
from alembic import op

revision = "0026_forced_moves"
down_revision = "0025_plans"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("forced_moves", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("forced_moves")
