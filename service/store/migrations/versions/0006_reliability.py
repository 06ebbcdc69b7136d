"""Reliability: inbound mail remembers the game and seat it was for (a seat's owner sees
attempts from other addresses on the game page) and when it may be deleted (mail to unknown
reply addresses is kept 7 days for diagnosis); outbox rows carry the claim of the worker
sending them (renewed while it sends) and the relay's queue id once sent.

Revision ID: 0006
Revises: 0007
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("seat", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("expires_at", sa.DateTime(), nullable=True))
        batch.create_index("ix_inbound_game_seat", ["game_id", "seat"])
        batch.create_index("ix_inbound_expires_at", ["expires_at"])
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("claim", sa.String(32), nullable=True))
        batch.add_column(sa.Column("relay_id", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("relay_id")
        batch.drop_column("claim")
    with op.batch_alter_table("inbound") as batch:
        batch.drop_index("ix_inbound_expires_at")
        batch.drop_index("ix_inbound_game_seat")
        batch.drop_column("expires_at")
        batch.drop_column("seat")
        batch.drop_column("game_id")
