"""The player's desk (issue 50): private notes a player keeps on a game, seen by nobody else;
follows of a public game or a tournament, told in a daily digest.

Revision ID: 0037_desk
Revises: 0035_account_changes
"""
import sqlalchemy as sa
from alembic import op

revision = "0037_desk"
down_revision = "0036_webhooks"
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
    op.create_table(
        "follows",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"),
                  nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_until", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_follows_player", "follows", ["player_id"])
    op.create_index("ix_follows_game", "follows", ["game_id"])
    op.create_index("ix_follows_tournament", "follows", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_follows_tournament", table_name="follows")
    op.drop_index("ix_follows_game", table_name="follows")
    op.drop_index("ix_follows_player", table_name="follows")
    op.drop_table("follows")
    op.drop_index("ix_notes_player", table_name="notes")
    op.drop_index("ix_notes_game_seat", table_name="notes")
    op.drop_table("notes")
