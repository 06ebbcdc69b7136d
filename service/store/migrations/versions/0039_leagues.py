"""Leagues (issue 50, item 5): seasons that repeat, in divisions, with promotion and
relegation. A season's division is a round-robin tournament (league_divisions names it); a
season row per league and season makes its start happen once.

Revision ID: 0039_leagues
Revises: 0035_account_changes
"""
import sqlalchemy as sa
from alembic import op

revision = "0039_leagues"
down_revision = "0038_player_language"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("divisions", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("season_days", sa.Integer(), nullable=False),
        sa.Column("promote", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("due", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "league_members",
        sa.Column("league_id", sa.Integer(), sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("bot", sa.String(20), nullable=True),
        sa.Column("division", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("left_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "league_seasons",
        sa.Column("league_id", sa.Integer(), sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("season", sa.Integer(), primary_key=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "league_divisions",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("league_id", sa.Integer(), sa.ForeignKey("leagues.id"), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.UniqueConstraint("league_id", "season", "division",
                            name="uq_league_divisions_season_division"),
    )


def downgrade() -> None:
    op.drop_table("league_divisions")
    op.drop_table("league_seasons")
    op.drop_table("league_members")
    op.drop_table("leagues")
