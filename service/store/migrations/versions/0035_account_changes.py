"""A player's own changes to their account: a change of address or an erasure, each asked for
on /me and confirmed by a signed link that works once within the hour; a confirmed change of
address is kept so that a reply from the old address is answered once with where to write now.

Revision ID: 0035_account_changes
Revises: 0034_ladder_challenges
"""
import sqlalchemy as sa
from alembic import op

revision = "0035_account_changes"
down_revision = "0034_ladder_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("old_email", sa.String(320), nullable=False),
        sa.Column("new_email", sa.String(320), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.Column("answered_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_account_changes_player_id", "account_changes", ["player_id"])
    op.create_index("ix_account_changes_old_email", "account_changes", ["old_email"])


def downgrade() -> None:
    op.drop_index("ix_account_changes_old_email", "account_changes")
    op.drop_index("ix_account_changes_player_id", "account_changes")
    op.drop_table("account_changes")
