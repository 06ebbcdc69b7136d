"""Each rendering of an email its own Message-ID: the relay composes a row's email anew at
each claim (the game, the clocks and the signed links as they are then), so a row whose claim
lapsed after a crash, a retry or an operator's resend is another message, sent as
`<message_id>.<n>`; `renderings` counts the claims. A row already claimed when this runs may
have gone out under its `message_id`: it counts as rendered once, so its next email is `.2`.

Revision ID: 0033_outbox_renderings
Revises: 0032_seat_left_order
"""
import sqlalchemy as sa
from alembic import op

revision = "0033_outbox_renderings"
down_revision = "0032_seat_left_order"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("renderings", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.execute("UPDATE outbox SET renderings = 1 WHERE status <> 'pending' OR attempts > 0")


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("renderings")
