"""On PostgreSQL the outbox's due index holds only the emails not done with: every email's row
is updated on its way out (claimed, then sent), and each update wrote a new entry into the
index for a row no query of it would look for again; the index kept one for every email ever
sent (make bench-bytes: 33 KB per 1,000 moves once vacuumed, none now). SQLite uses a partial
index only for queries that name its condition, which the claim's does not; a laptop's outbox
is small.

Revision ID: 0030_outbox_due_unsent
Revises: 0029_seat_turns
"""
import sqlalchemy as sa
from alembic import op

revision = "0030_outbox_due_unsent"
down_revision = "0029_seat_turns"
branch_labels = None
depends_on = None

UNSENT = sa.text("status NOT IN ('sent', 'skipped')")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.create_index("ix_outbox_due", "outbox", ["status", "next_try"], postgresql_where=UNSENT)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.create_index("ix_outbox_due", "outbox", ["status", "next_try"])
