"""Each player's own calendar: rest days (and when they last changed), quiet hours, reminder
offsets, automatic vacation; and a game's own rest days (`rest_days=sat,sun`).

Revision ID: 0021_calendar
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0021_calendar"
down_revision = "0020_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("rest_days", sa.String(40), nullable=True))
        batch.add_column(sa.Column("rest_days_changed_at", sa.DateTime(),
                                   nullable=True))
        batch.add_column(sa.Column("quiet_hours", sa.String(16), nullable=True))
        batch.add_column(sa.Column("reminders", sa.String(80), nullable=True))
        batch.add_column(sa.Column("auto_vacation", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rest_days", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rest_days")
    with op.batch_alter_table("players") as batch:
        for column in ("auto_vacation", "reminders", "quiet_hours", "rest_days_changed_at",
                       "rest_days"):
            batch.drop_column(column)
