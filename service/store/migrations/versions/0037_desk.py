"""The player's desk (issue 50): private notes a player keeps on a game, seen by nobody else.

Revision ID: 0037_desk
Revises: 0035_account_changes
"""
import sqlalchemy as sa
from alembic import op

revision = "0037_desk"
down_revision = "0035_account_changes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_notes_game_seat", "notes", ["game_id", "seat"])
    op.create_index("ix_notes_player", "notes", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_notes_player", table_name="notes")
    op.drop_index("ix_notes_game_seat", table_name="notes")
    op.drop_table("notes")
