"""Whose move it is, and how a game ended, on the rows: `seats.to_act` (the seat is to act now)
and `games.outcome` (the engine's outcome of a game its rules ended). /me and the API's game
list folded every listed game's log to learn them (/me of a player with 1,000 games: 278 ms on
the million-game seed of make bench-scale).

Existing games are folded here, in batches of BATCH games, each from its whole log (never a
snapshot: their format names the engines' code of the day). The columns and the fold are
named here, not read from the models, so that a later column does not break this revision.

Revision ID: 0029_seat_turns
Revises: 0028_seat_player_index
"""
import sqlalchemy as sa
from alembic import op

from service.games import registry
from service.games.contract import Event
from service.play.repository import fold_log
from service.store.events import upcast

revision = "0029_seat_turns"
down_revision = "0028_seat_player_index"
branch_labels = None
depends_on = None

BATCH = 500

GAMES = sa.table("games", sa.column("id", sa.Integer), sa.column("kind", sa.String),
                 sa.column("status", sa.String), sa.column("rules_version", sa.Integer),
                 sa.column("outcome", sa.JSON))
SEATS = sa.table("seats", sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer),
                 sa.column("to_act", sa.Boolean))
EVENTS = sa.table("events", sa.column("game_id", sa.Integer), sa.column("seq", sa.Integer),
                  sa.column("type", sa.String), sa.column("data", sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("to_act", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("outcome", sa.JSON(), nullable=True))
    back_fill(op.get_bind())


def back_fill(conn) -> None:
    """Every started game folded once: its seats to act (a game in play) and its engine's
    outcome (a game over by its rules)."""
    after = 0
    while True:
        games = conn.execute(sa.select(GAMES.c.id, GAMES.c.kind, GAMES.c.status,
                                       GAMES.c.rules_version)
                             .where(GAMES.c.id > after, GAMES.c.status != "forming")
                             .order_by(GAMES.c.id).limit(BATCH)).all()
        if not games:
            return
        after = games[-1].id
        logs: dict[int, list[tuple[int, Event]]] = {g.id: [] for g in games}
        version = {g.id: g.rules_version for g in games}
        for game_id, seq, type_, data in conn.execute(
                sa.select(EVENTS.c.game_id, EVENTS.c.seq, EVENTS.c.type, EVENTS.c.data)
                .where(EVENTS.c.game_id.in_(list(logs)))
                .order_by(EVENTS.c.game_id, EVENTS.c.seq)):
            logs[game_id].append((seq, upcast(Event(type_, data), seq, version[game_id])))
        to_act, outcomes = [], []
        for game in games:
            if not logs[game.id]:
                continue
            engine = registry.get(game.kind)
            state = fold_log(engine, logs[game.id])
            outcome = engine.outcome(state)
            if outcome is not None:
                outcomes.append({"key": game.id, "outcome": outcome.to_json()})
            elif game.status != "ended":
                to_act += [{"key": game.id, "seat_no": s} for s in engine.to_act(state)]
        if outcomes:
            conn.execute(GAMES.update().where(GAMES.c.id == sa.bindparam("key"))
                         .values(outcome=sa.bindparam("outcome")), outcomes)
        if to_act:
            conn.execute(SEATS.update().where(SEATS.c.game_id == sa.bindparam("key"),
                                              SEATS.c.seat == sa.bindparam("seat_no"))
                         .values(to_act=True), to_act)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("outcome")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("to_act")
