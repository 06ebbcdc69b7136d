"""Games record the version of the rules they started under; inbound mail keeps what it was
parsed into, so it is parsed once.

Games from before versions existed were started under version 1 of their engine's rules.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), nullable=False,
                                   server_default="1"))
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("parsed", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("parsed")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rules_version")
