"""Standing challenges, ladders per game, blocks between players and reported chat lines.

Revision ID: 0023_challenges
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = "0023_challenges"
down_revision = "0022_absence"
branch_labels = None
depends_on = None

UTC = sa.DateTime()   # naive UTC, as every timestamp (service.store.types)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("clock", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("max_rating", sa.Integer(), nullable=True),
        sa.Column("min_reliability", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("matched_at", UTC, nullable=True),
    )
    op.create_index("ix_challenges_player_id", "challenges", ["player_id"])
    op.create_index("ix_challenges_open", "challenges", ["status", "kind"])
    op.create_table(
        "ladder_rungs",
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("joined_at", UTC, nullable=False),
        sa.UniqueConstraint("kind", "place", name="uq_ladder_rungs_place"),
    )
    op.create_table(
        "ladder_games",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("challenger_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("defender_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("settled", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
    )
    op.create_index("ix_ladder_games_open", "ladder_games", ["kind", "settled"])
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", UTC, nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_once"),
    )


def downgrade() -> None:
    for table in ("chat_reports", "blocks", "ladder_games", "ladder_rungs", "challenges"):
        op.drop_table(table)
