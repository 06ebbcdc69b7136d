"""Whose move it is, and how a game ended, on the rows: `seats.to_act` (the seat is to act now)
and `games.outcome` (the engine's outcome of a game its rules ended). /me and the API's game
list folded every listed game's log to learn them (/me of a player with 1,000 games: 278 ms on
the million-game seed of make bench-scale).

Existing games are folded here, in batches of BATCH games, each from its newest snapshot that
today's engines can read (else its whole log) and the events after it. The columns are named
here, not read from the models, so that a later column does not break this revision.

Revision ID: 0029_seat_turns
Revises: 0028_seat_player_index
"""
import pickle

import sqlalchemy as sa
from alembic import op

from service.games import registry
from service.games.contract import Event
from service.play.repository import TAKEN_BACK, fold_log, snapshot_format
from service.store.eventstore import upcast

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
SNAPSHOTS = sa.table("snapshots", sa.column("game_id", sa.Integer), sa.column("seq", sa.Integer),
                     sa.column("format", sa.String), sa.column("state", sa.LargeBinary))
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
        states = _states(conn, games)
        to_act, outcomes = [], []
        for game in games:
            if game.id not in states:
                continue                    # no events: nothing to fold
            engine = registry.get(game.kind)
            outcome = engine.outcome(states[game.id])
            if outcome is not None:
                outcomes.append({"key": game.id, "outcome": outcome.to_json()})
            elif game.status != "ended":
                to_act += [{"key": game.id, "seat_no": s}
                           for s in engine.to_act(states[game.id])]
        if outcomes:
            conn.execute(GAMES.update().where(GAMES.c.id == sa.bindparam("key"))
                         .values(outcome=sa.bindparam("outcome")), outcomes)
        if to_act:
            conn.execute(SEATS.update().where(SEATS.c.game_id == sa.bindparam("key"),
                                              SEATS.c.seat == sa.bindparam("seat_no"))
                         .values(to_act=True), to_act)


def _states(conn, games) -> dict:
    """Each game's latest state: from its newest snapshot that today's engines wrote (the
    format the service reads them in), plus the events after it; a game whose take-back
    reaches behind that snapshot, or without one, from its whole log."""
    by_id = {g.id: g for g in games}
    base = _snapshots(conn, by_id)
    logs = _logs(conn, by_id, {g: seq for g, (seq, _) in base.items()})
    whole = [g for g, log in logs.items() if g in base and any(
        event.type == TAKEN_BACK and event.data["to"] < base[g][0] for _, event in log)]
    if whole:
        for g in whole:
            del base[g]
        logs.update(_logs(conn, {g: by_id[g] for g in whole}, {}))
    states = {}
    for game_id, log in logs.items():
        if game_id in base:
            seq, state = base[game_id]
            states[game_id] = fold_log(registry.get(by_id[game_id].kind), log, state, seq)
        elif log:
            states[game_id] = fold_log(registry.get(by_id[game_id].kind), log)
    return states


def _snapshots(conn, by_id) -> dict:
    """{game id: (seq, state)} of each game's newest snapshot in today's format."""
    wanted = {g.id: snapshot_format(g) for g in by_id.values()}
    newest = conn.execute(sa.select(SNAPSHOTS.c.game_id, SNAPSHOTS.c.format,
                                    sa.func.max(SNAPSHOTS.c.seq))
                          .where(SNAPSHOTS.c.game_id.in_(list(by_id)),
                                 SNAPSHOTS.c.format.in_(set(wanted.values())))
                          .group_by(SNAPSHOTS.c.game_id, SNAPSHOTS.c.format)).all()
    keys = [(g, seq) for g, fmt, seq in newest if wanted[g] == fmt]
    out = {}
    for game_id, seq, state in conn.execute(
            sa.select(SNAPSHOTS.c.game_id, SNAPSHOTS.c.seq, SNAPSHOTS.c.state)
            .where(sa.tuple_(SNAPSHOTS.c.game_id, SNAPSHOTS.c.seq).in_(keys))) if keys else ():
        try:
            out[game_id] = seq, pickle.loads(state)  # noqa: S301 - our own database's bytes
        except Exception:  # noqa: BLE001, S112 - an unreadable cache entry: the whole log
            continue
    return out


def _logs(conn, by_id, after: dict[int, int]) -> dict[int, list[tuple[int, Event]]]:
    """Each game's events after `after[game]` (its snapshot's; all without one)."""
    groups: dict[int, list[int]] = {}
    for game_id in by_id:
        groups.setdefault(after.get(game_id, 0), []).append(game_id)
    logs: dict[int, list[tuple[int, Event]]] = {g: [] for g in by_id}
    for game_id, seq, type_, data in conn.execute(
            sa.select(EVENTS.c.game_id, EVENTS.c.seq, EVENTS.c.type, EVENTS.c.data)
            .where(sa.or_(*(sa.and_(EVENTS.c.game_id.in_(ids), EVENTS.c.seq > since)
                            for since, ids in groups.items())))
            .order_by(EVENTS.c.game_id, EVENTS.c.seq)):
        logs[game_id].append((seq, upcast(Event(type_, data), seq,
                                          by_id[game_id].rules_version)))
    return logs


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("outcome")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("to_act")
