"""The order in which seats left a game: `seats.left_order`, 1 for the first seat to resign or
forfeit, 2 for the next. RULINGS P1 ranks every seat that left below those that stayed, the
first to leave lowest; the seats' status said only that a seat left, not when.

Seats that have left already are numbered here from the game's seat changes (the last
"resigned" or "forfeited" change of each, in the order they were written); a seat with no
such change (none is known) comes after those with one, by seat. The columns are named here,
not read from the models, so that a later column does not break this revision.

Revision ID: 0032_seat_left_order
Revises: 0031_seat_player_game_index
"""
import sqlalchemy as sa
from alembic import op

revision = "0032_seat_left_order"
down_revision = "0031_seat_player_game_index"
branch_labels = None
depends_on = None

LEFT = ("resigned", "forfeited")

SEATS = sa.table("seats", sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer),
                 sa.column("status", sa.String), sa.column("left_order", sa.Integer))
CHANGES = sa.table("seat_changes", sa.column("id", sa.Integer),
                   sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer),
                   sa.column("kind", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("left_order", sa.Integer(), nullable=True))
    back_fill(op.get_bind())


def back_fill(conn) -> None:
    """Number the seats that have left, per game, by their last leaving change."""
    gone = conn.execute(sa.select(SEATS.c.game_id, SEATS.c.seat)
                        .where(SEATS.c.status.in_(LEFT))).all()
    if not gone:
        return
    when: dict[tuple[int, int], int] = {}
    for game_id, seat, change_id in conn.execute(
            sa.select(CHANGES.c.game_id, CHANGES.c.seat, CHANGES.c.id)
            .where(CHANGES.c.kind.in_(LEFT))):
        when[(game_id, seat)] = max(change_id, when.get((game_id, seat), 0))
    by_game: dict[int, list[int]] = {}
    for game_id, seat in gone:
        by_game.setdefault(game_id, []).append(seat)
    rows = []
    for game_id, seats in by_game.items():
        known = sorted(seats, key=lambda s: (when.get((game_id, s)) is None,
                                             when.get((game_id, s), 0), s))
        rows += [{"g": game_id, "s": seat, "n": n} for n, seat in enumerate(known, start=1)]
    conn.execute(SEATS.update().where(SEATS.c.game_id == sa.bindparam("g"),
                                      SEATS.c.seat == sa.bindparam("s"))
                 .values(left_order=sa.bindparam("n")), rows)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_order")
