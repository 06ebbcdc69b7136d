"""/me of a player with 1,000 games (100 in progress, 900 finished), for `make bench`: a few real
Trees games played through the use cases (some in progress, on either player's move, some
played to their end), then their rows copied (games, seats, events, snapshots) under new ids,
as bench/sweep_bench.py's `fill` seeds its idle games: cheap, and every copy is a game the
service made. bench.py times the page against its bare route (`me_rows`)."""
from __future__ import annotations

import random
import secrets
import time

from sqlalchemy import func, insert, select

from service import play
from service.play import repository
from service.store.models import EventRow, GameRow, Player, Seat, Snapshot

ME = "Mia Player <mia@example.org>"
OPPONENTS = ["Ben <ben@example.org>", "Cleo <cleo@example.org>", "Dan <dan@example.org>"]
IN_PROGRESS, FINISHED = 100, 900
TEMPLATES_IN_PROGRESS, TEMPLATES_FINISHED = 6, 3
COPIED = (GameRow, Seat, EventRow, Snapshot)


def seed(svc, rng: random.Random) -> int:
    """The player's 1,000 games; returns the player's id."""
    running = [_played(svc, OPPONENTS[n % len(OPPONENTS)], rng, moves=10 + n)
               for n in range(TEMPLATES_IN_PROGRESS)]
    ended = [_played(svc, OPPONENTS[n % len(OPPONENTS)], rng, moves=None)
             for n in range(TEMPLATES_FINISHED)]
    _copy(svc, running, IN_PROGRESS - len(running))
    _copy(svc, ended, FINISHED - len(ended))
    with svc.db.transaction() as s:
        return s.scalar(select(Player.id).where(Player.email == "mia@example.org"))


def _played(svc, opponent: str, rng: random.Random, moves: int | None) -> int:
    """A Trees game of the player against `opponent`, `moves` random legal moves into it
    (None: to its end)."""
    game_id = play.start_game(svc, "trees", [ME, opponent], {"clock": "3d"}).game_id
    made = 0
    while moves is None or made < moves:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        move = rng.choice(pos.engine.legal_moves(pos.state, seat))
        play.submit(svc, play.Intent(game_id, seat, moves=[move], whole_turn=True))
        made += 1
    return game_id


def _copy(svc, templates: list[int], copies: int) -> None:
    """`copies` new games, each every row of one of `templates` (in turn) under a new id."""
    with svc.db.transaction() as s:
        rows = {model: {t: [dict(r) for r in s.execute(select(model.__table__).where(
            _game_column(model) == t)).mappings()] for t in templates} for model in COPIED}
        top = s.scalar(select(func.max(GameRow.id)))
        for model in COPIED:
            batch = []
            for n in range(copies):
                template, new_id = templates[n % len(templates)], top + 1 + n
                for row in rows[model][template]:
                    row = dict(row)
                    row["game_id" if model is not GameRow else "id"] = new_id
                    if model is GameRow:
                        row["public_id"] = secrets.token_hex(12)
                    batch.append(row)
            if batch:             # (a short game has no snapshot)
                s.execute(insert(model), batch)


def _game_column(model):
    return model.__table__.c.id if model is GameRow else model.__table__.c.game_id


def sign_in(app, player_id: int):
    """A test client signed in as the player (the session the sign-in link leaves)."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["player"] = player_id
    return client


def time_me(client) -> float:
    t = time.perf_counter()
    r = client.get("/me")
    elapsed = time.perf_counter() - t
    assert r.status_code == 200 and "Older finished games" in r.text, r.status_code
    return elapsed
