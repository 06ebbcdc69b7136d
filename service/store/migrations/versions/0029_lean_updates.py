"""Fewer bytes per move (make bench-bytes). The outbox's due index holds only the emails not
done with: every email's row is updated twice on its way out (claimed, then sent), and each
update wrote a new entry into the index for a row no query of it would look for again; the
index grew with every email ever sent. (On PostgreSQL: SQLite uses a partial index only for
queries that name its condition, and the claim's does not; a laptop's outbox is small.) And `games` leaves a tenth of each page free: a move
updates its game's row, and with room on the page PostgreSQL writes the new version there
without touching the indexes (a HOT update); on the full pages of a large table it could not.

Revision ID: 0029_lean_updates
Revises: 0028_seat_player_index
"""
import sqlalchemy as sa
from alembic import op

revision = "0029_lean_updates"
down_revision = "0028_seat_player_index"
branch_labels = None
depends_on = None

UNSENT = sa.text("status NOT IN ('sent', 'skipped')")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.create_index("ix_outbox_due", "outbox", ["status", "next_try"], postgresql_where=UNSENT)
    op.execute("ALTER TABLE games SET (fillfactor = 90)")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE games RESET (fillfactor)")
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.create_index("ix_outbox_due", "outbox", ["status", "next_try"])
