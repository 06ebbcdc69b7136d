"""Ladder challenges wait for their defender: a challenge is a row of its own until the
defender accepts it (or the time the ladder states for an answer lapses), and only then is its
game started (issue 49, item 17).

Revision ID: 0034_ladder_challenges
Revises: 0033_outbox_renderings
"""
import sqlalchemy as sa
from alembic import op

revision = "0034_ladder_challenges"
down_revision = "0033_outbox_renderings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ladder_challenges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("challenger_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("defender_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("answer_by", sa.DateTime(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
    )
    op.create_index("ix_ladder_challenges_waiting", "ladder_challenges",
                    ["status", "answer_by"])


def downgrade() -> None:
    op.drop_index("ix_ladder_challenges_waiting", "ladder_challenges")
    op.drop_table("ladder_challenges")
