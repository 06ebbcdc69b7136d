"""Outbox rows carry a random Message-ID local part.

A reply's In-Reply-To then proves its writer had that email, and ids no longer count rows.
Rows from before get one made from their id (they are sent or parked by now).

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("message_id", sa.String(length=64), nullable=True))
    op.execute("UPDATE outbox SET message_id = 'tp.legacy.' || id")
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("message_id", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint("uq_outbox_message_id", ["message_id"])


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("uq_outbox_message_id", type_="unique")
        batch.drop_column("message_id")
