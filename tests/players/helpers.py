"""What the tests of a player's data share: finding an address anywhere in the database, and
playing a game through the service with seeded choices."""
from __future__ import annotations

import json
import random

from sqlalchemy import select

from service import play
from service.play import repository
from service.store.models import Base, Player


def mentions(value, address: str) -> bool:
    """Whether a value read from any column holds the address, in any case: text, raw bytes,
    JSON (with or without its escapes)."""
    if value is None or isinstance(value, (bool, int, float)):
        return False
    if isinstance(value, (bytes, bytearray, memoryview)):
        text = bytes(value).decode("utf-8", "replace")
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return address.lower() in text.lower()


def scan(svc, address: str) -> list[str]:
    """Every (table.column, row) of the whole database whose value holds the address: every
    column of every table, read whole (text, JSON, raw mail, pickled states)."""
    found = []
    with svc.db.transaction() as session:
        for table in Base.metadata.sorted_tables:
            for row in session.execute(select(table)).mappings():
                for column, value in row.items():
                    if mentions(value, address):
                        key = {k.name: row[k.name] for k in table.primary_key.columns}
                        found.append(f"{table.name}.{column} {key}")
    return found


def player_id(svc, address: str) -> int | None:
    with svc.db.transaction() as session:
        return session.scalar(select(Player.id).where(Player.email == address))


def position(svc, game_id: int):
    with svc.db.transaction() as session:
        return repository.load(session, svc.states, game_id)


def play_moves(svc, game_id: int, moves: int | None, seed: int = 7,
               seats: set[int] | None = None) -> int:
    """Play up to `moves` moves (None: to the end) with seeded random choices, for the seats
    to act (only `seats`, when given: stops when none of them is to act). Returns how many."""
    rng = random.Random(seed)
    made = 0
    while moves is None or made < moves:
        pos = position(svc, game_id)
        if pos.engine.outcome(pos.state) is not None or pos.row.status == "ended":
            break
        acting = sorted(pos.engine.to_act(pos.state) & (seats if seats is not None
                                                        else set(range(len(pos.row.seats)))))
        if not acting:
            break
        seat = rng.choice(acting)
        move = pos.engine.bots["random"](pos.state, seat, rng)
        play.submit(svc, play.Intent(game_id, seat, moves=[move], whole_turn=True,
                                     source="cli"))
        made += 1
    return made
