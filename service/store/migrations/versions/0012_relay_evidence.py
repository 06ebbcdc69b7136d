"""The days the relay refused an address with a per-recipient permanent code (5.1.x): an
address is muted only on evidence about it (a hard bounce, or such refusals on two separate
days), never on one bad minute of the relay.

Revision ID: 0012
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "address_refusals",
        sa.Column("address", sa.String(320), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("refused_at", sa.DateTime(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("address_refusals")
