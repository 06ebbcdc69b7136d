"""A player's language (en, de or fr): their emails, `help` and answers, and their pages are
in it. Empty for everyone until they choose, or sign in from a browser that asks for one.

Revision ID: 0038_player_language
Revises: 0035_account_changes
"""
import sqlalchemy as sa
from alembic import op

revision = "0038_player_language"
down_revision = "0037_desk"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(5), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
