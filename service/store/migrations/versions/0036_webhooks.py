"""A player's webhooks (issue 51): endpoints told of their games by a signed POST, each
delivery an outbox row of kind "webhook" sent by the relay like an email.

Revision ID: 0036_webhooks
Revises: 0035_account_changes
"""
import sqlalchemy as sa
from alembic import op

revision = "0036_webhooks"
down_revision = "0035_account_changes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("events", sa.String(80), nullable=False),
        sa.Column("instead_of_email", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("failing_since", sa.DateTime(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("switched_off_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_webhooks_player_id", "webhooks", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_webhooks_player_id", "webhooks")
    op.drop_table("webhooks")
