"""Correspondence time: each game's time control and timeout policy, each seat's
clock (with its deadline and reminder instants indexed for the sweep), who holds the seat,
players' vacations, and the seat changes (resign, forfeit, absent, replace) the history shows.

Games from before clocks have none (clock NULL = no clock).

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.String(40), nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(20), nullable=True))
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("remind_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("status", sa.String(20), nullable=False,
                                   server_default="active"))
        batch.add_column(sa.Column("on_timeout", sa.String(20), nullable=True))
        batch.add_column(sa.Column("holder", sa.Integer(), nullable=False, server_default="0"))
    op.create_index("ix_seats_deadline", "seats", ["deadline"])
    op.create_index("ix_seats_remind_at", "seats", ["remind_at"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("zone", sa.String(64), nullable=True))
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("resumes_at", sa.DateTime(), nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_vacations_player_id", "vacations", ["player_id"])
    op.create_index("ix_vacations_open_resumes", "vacations", ["open", "resumes_at"])
    op.create_table(
        "seat_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_seat_changes_game", "seat_changes", ["game_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_seat_changes_game", "seat_changes")
    op.drop_table("seat_changes")
    op.drop_index("ix_vacations_open_resumes", "vacations")
    op.drop_index("ix_vacations_player_id", "vacations")
    op.drop_table("vacations")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("zone")
    op.drop_index("ix_seats_remind_at", "seats")
    op.drop_index("ix_seats_deadline", "seats")
    with op.batch_alter_table("seats") as batch:
        for name in ("holder", "on_timeout", "status", "remind_at", "deadline", "clock"):
            batch.drop_column(name)
    with op.batch_alter_table("games") as batch:
        for name in ("result", "on_timeout", "clock"):
            batch.drop_column(name)
