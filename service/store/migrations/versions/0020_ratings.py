"""Ratings and profiles: a rating per game (kind) and rated player, the change each rated game
made to it (one row per game and player: a game is rated once), whether a game is rated, and
each player's public handle and "hide my profile" preference.

Existing players get a handle made from their display name and a number, unique; games that
ended before this revision are rated by `flask ratings rebuild`, not here.

Revision ID: 0020_ratings
Revises: 0010
"""
import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0020_ratings"
down_revision = "0012"
branch_labels = None
depends_on = None

UTC = sa.DateTime()   # naive UTC, as every timestamp (service.store.types)


def _stem(name: str) -> str:
    # as service.store.models.handle_stem at this revision (a migration keeps its own copy)
    ascii_name = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:30] or "player"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("handle", sa.String(48), nullable=True))
        batch.add_column(sa.Column("profile_hidden", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                       sa.column("handle", sa.String))
    conn = op.get_bind()
    counted: dict[str, int] = {}
    for pid, name in conn.execute(sa.select(players.c.id, players.c.name)
                                  .order_by(players.c.id)).all():
        stem = _stem(name)
        counted[stem] = counted.get(stem, 0) + 1
        conn.execute(players.update().where(players.c.id == pid)
                     .values(handle=f"{stem}-{counted[stem]}"))
    with op.batch_alter_table("players") as batch:
        batch.alter_column("handle", existing_type=sa.String(48), nullable=False)
        batch.create_unique_constraint("uq_players_handle", ["handle"])
    op.create_table(
        "ratings",
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("rater", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTC, nullable=False),
    )
    op.create_index("ix_ratings_player", "ratings", ["player_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("rater", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.UniqueConstraint("game_id", "rater", name="uq_rating_changes_game_rater"),
    )
    op.create_index("ix_rating_changes_rater", "rating_changes", ["kind", "rater", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_rater", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_player", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_handle", type_="unique")
        batch.drop_column("profile_hidden")
        batch.drop_column("handle")
