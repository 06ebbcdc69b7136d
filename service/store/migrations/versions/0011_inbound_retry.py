"""Inbound mail stopped by a transient database error is processed again with backoff: how
many attempts it has had, when the next is due, and who holds its processing claim (a worker's
retry takes back its own claim).

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("next_attempt_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("claimed_by", sa.String(64), nullable=True))


def downgrade() -> None:
    # a message waiting for its next attempt is simply received again
    op.execute("UPDATE inbound SET status = 'received' WHERE status = 'retrying'")
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("claimed_by")
        batch.drop_column("next_attempt_at")
        batch.drop_column("attempts")
