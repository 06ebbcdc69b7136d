"""An index on a seat's player: a player's games (/me, the API's list, a vacation stopping
every clock of theirs) were found by reading the whole seats table.

Revision ID: 0028_seat_player_index
Revises: 0027_tournament_invites
"""
from alembic import op

revision = "0028_seat_player_index"
down_revision = "0027_tournament_invites"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_seats_player_id", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player_id", table_name="seats")
