"""Shared bits of the clock tests: start a game with a clock, read seats, run the sweep."""
from __future__ import annotations

import random

from sqlalchemy import select

from service import play
from service.play import repository
from service.store.models import OutboxRow, Seat, SeatChange

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


def start(svc, kind="trees", players=PLAYERS, seed=3, **options):
    svc.chance = random.Random(seed)
    return play.start_game(svc, kind, players, {k: str(v) for k, v in options.items()})


def position(svc, game_id):
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, game_id)


def to_act(svc, game_id):
    pos = position(svc, game_id)
    return sorted(pos.engine.to_act(pos.state))


def seats(svc, game_id):
    with svc.db.transaction() as s:
        rows = s.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)).all()
        return [{"seat": r.seat, "deadline": r.deadline, "remind_at": r.remind_at,
                 "status": r.status, "clock": dict(r.clock or {}), "holder": r.holder,
                 "player": r.player.email} for r in rows]


def outbox(svc, game_id=None, kind=None):
    with svc.db.transaction() as s:
        q = select(OutboxRow).order_by(OutboxRow.id)
        if game_id is not None:
            q = q.where(OutboxRow.game_id == game_id)
        if kind is not None:
            q = q.where(OutboxRow.kind == kind)
        return [{"id": r.id, "seat": r.seat, "kind": r.kind, "to": r.to_addr,
                 "payload": dict(r.payload or {}), "seq": r.seq} for r in s.scalars(q)]


def changes(svc, game_id):
    with svc.db.transaction() as s:
        return [(c.seat, c.kind) for c in s.scalars(select(SeatChange)
                                                   .where(SeatChange.game_id == game_id)
                                                   .order_by(SeatChange.id))]


def move(svc, game_id, seat=None, source="web"):
    pos = position(svc, game_id)
    seat = min(pos.engine.to_act(pos.state)) if seat is None else seat
    m = pos.engine.legal_moves(pos.state, seat)[0]
    return play.submit(svc, play.Intent(game_id, seat, moves=[m], source=source))
