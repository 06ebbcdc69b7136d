"""Players become accounts: preferences (time zone, mail mode), a one-time sign-in link table,
invitations that a seat must accept before any game mail, games that form before they start
(open seats, an unguessable public id), and addresses muted after a hard bounce or a "never
email me" (a bounce names its email by the VERP return path: the outbox row's Message-ID).

Existing games are started games with a public id made from their row; they keep working.

Revision ID: 0005
Revises: 0004
"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UTC = sa.DateTime()   # naive UTC, as every timestamp (service.store.types)


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        # players.zone came with the clocks (0004)
        batch.add_column(sa.Column("mail_mode", sa.String(12), nullable=False,
                                   server_default="turn"))
        batch.add_column(sa.Column("digest_hour", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("suppressed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("bounced_at", UTC, nullable=True))
        batch.add_column(sa.Column("digest_sent_on", sa.String(10), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
        batch.add_column(sa.Column("created_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("public_id", sa.String))
    conn = op.get_bind()
    for (gid,) in conn.execute(sa.select(games.c.id)).all():
        conn.execute(games.update().where(games.c.id == gid)
                     .values(public_id=secrets.token_urlsafe(12)))
    with op.batch_alter_table("games") as batch:
        batch.create_unique_constraint("uq_games_public_id", ["public_id"])
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("browser_hash", sa.String(64), nullable=False),
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("expires_at", UTC, nullable=False),
        sa.Column("used_at", UTC, nullable=True),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(320), nullable=True),      # None: an open seat
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),   # pending|accepted|declined|open
        sa.Column("created_at", UTC, nullable=False),
        sa.Column("expires_at", UTC, nullable=True),
        sa.Column("answered_at", UTC, nullable=True),
    )
    op.create_index("ix_invitations_game", "invitations", ["game_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_invitations_game", table_name="invitations")
    op.drop_table("invitations")
    op.drop_table("sign_ins")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_public_id", type_="unique")
        for name in ("rematch_of", "created_by", "public", "public_id"):
            batch.drop_column(name)
    with op.batch_alter_table("players") as batch:
        for name in ("digest_sent_on", "bounced_at", "suppressed", "digest_hour", "mail_mode"):
            batch.drop_column(name)
