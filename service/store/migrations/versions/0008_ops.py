"""Personal tokens: a player's bearer tokens for the JSON API and the secret part of their
calendar and feed URLs, kept as hashes, revocable.

Revision ID: 0008
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(10), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.UniqueConstraint("token_hash", name="uq_api_tokens_hash"),
    )
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player", "api_tokens")
    op.drop_table("api_tokens")
