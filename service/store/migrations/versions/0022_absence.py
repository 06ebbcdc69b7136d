"""A player's absence handled for them: a vacation day taken instead of a timeout (a player
preference, on by default), an out-of-office reply answered at most once a week, a seat's clock
held while its turn email could not be delivered, and extensions asked of the other players.

Revision ID: 0022_absence
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0022_absence"
down_revision = "0021_calendar"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        # players.auto_vacation comes with 0021 (the calendar's preferences)
        batch.add_column(sa.Column("away_offered_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("extensions", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("mail_held_since", sa.DateTime(), nullable=True))
    op.create_table(
        "extension_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("holder", sa.Integer(), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_extension_game", "extension_requests", ["game_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_extension_game", "extension_requests")
    op.drop_table("extension_requests")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("mail_held_since")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("extensions")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("away_offered_at")
