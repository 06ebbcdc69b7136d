"""A turn email's news start after the seat's previous turn email. A move no longer looks that
up while the player waits: `outbox.since_seq` may be NULL, meaning "after the seat's previous
turn email", worked out when the email is composed (by the worker).

Revision ID: 0010
Revises: 0009
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("since_seq", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    # what a NULL stood for, written out, before the column takes NOT NULL again
    op.execute("""
        UPDATE outbox SET since_seq = COALESCE((
            SELECT MAX(prev.seq) FROM outbox AS prev
            WHERE prev.game_id = outbox.game_id AND prev.seat = outbox.seat
              AND prev.kind = 'turn' AND prev.id < outbox.id), 0)
        WHERE since_seq IS NULL""")
    with op.batch_alter_table("outbox") as batch:
        batch.alter_column("since_seq", existing_type=sa.Integer(), nullable=False)
