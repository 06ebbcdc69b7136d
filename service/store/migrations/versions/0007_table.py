"""At the table: bot seats, chat on the page, undo requests.

A seat played by a bot names its level (`seats.bot`: "easy" | "normal"; NULL for a person);
`games.bots_due` says a bot is to act (the sweep kicks bots whose kick was lost).
Chat messages and undo requests are not engine events, so they get tables of their own (the
`events` log holds the engines' events, plus the service's `MoveTakenBack`).

Revision ID: 0007
Revises: 0008
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot", sa.String(20), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bots_due", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("from_seat", sa.Integer(), nullable=False),
        sa.Column("to_seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_chat_game", "chat_messages", ["game_id", "id"])
    op.create_table(
        "undo_requests",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("back_to", sa.Integer(), nullable=False),
        sa.Column("at_seq", sa.Integer(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_undo_game", "undo_requests", ["game_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_undo_game", "undo_requests")
    op.drop_table("undo_requests")
    op.drop_index("ix_chat_game", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bots_due")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot")
