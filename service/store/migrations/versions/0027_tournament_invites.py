"""Tournaments made in the lobby: their maker, and the invited addresses that accept by link
before the first round starts.

Revision ID: 0027_tournament_invites
Revises: 0026_forced_moves
"""
import sqlalchemy as sa
from alembic import op

revision = "0027_tournament_invites"
down_revision = "0026_forced_moves"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("created_by", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_tournaments_created_by", "players", ["created_by"],
                                 ["id"])
    op.create_table(
        "tournament_invites",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_tournament_invites_tournament_id", "tournament_invites",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_invites_tournament_id", "tournament_invites")
    op.drop_table("tournament_invites")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_constraint("fk_tournaments_created_by", type_="foreignkey")
        batch.drop_column("created_by")
