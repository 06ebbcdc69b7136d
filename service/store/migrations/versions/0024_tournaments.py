"""Tournaments: the event, its entrants, a row per round started (its key makes a round start
once), and each game's tournament.

Revision ID: 0024_tournaments
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = "0024_tournaments"
down_revision = "0023_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("format", sa.String(20), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("no_vacation", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("due", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("public_id", sa.String(32), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("bot", sa.String(20), nullable=True),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_games_tournament", "tournaments", ["tournament_id"], ["id"])
        batch.create_index("ix_games_tournament_id", ["tournament_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_tournament_id")
        batch.drop_constraint("fk_games_tournament", type_="foreignkey")
        batch.drop_column("tournament_id")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
