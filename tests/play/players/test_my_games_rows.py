"""/me and the API's game list, read from the rows, say what folding each game says: the
same lines in the same sections (whose move, on whom a game waits and since when, the result
as the game page words it, the links) for games on either player's move, a take-back, a
resignation, a seat that left a game of three, and games played to their end."""
from __future__ import annotations

import random

from sqlalchemy import func, select

from service import play
from service.display.seatview import result_line
from service.play import repository
from service.play.players import seatchanges
from service.play.reads import apireads, mygames, seatpage
from service.store.models import EventRow, Player
from service.store.statuses import GameStatus
from tests.play.test_turn_rows import _take_back
from tests.play.time.helpers import position, start
from tests.play.time.test_batch import THREE


def folded_line(svc, game_id: int, seat: int) -> tuple[str, tuple]:
    """The line as /me made it before the rows had it: the game folded, its seat page built."""
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game_id)
        names = [r.player.name for r in pos.row.seats]
        holder = next(r.holder for r in pos.row.seats if r.seat == seat)
        page = seatpage.build(pos.row, pos, seat, svc.clock.now(), with_menu=False)
        since = s.scalar(select(func.max(EventRow.created_at))
                         .where(EventRow.game_id == game_id))
        ended = pos.row.status == GameStatus.ENDED
        line = (game_id, page.title, [n for i, n in enumerate(names) if i != seat],
                claims_of(svc, svc.urls.game_path(game_id, seat, holder)),
                [names[i] for i in page.to_act if i != seat], since,
                result_line(page) or ("Ended." if ended else ""))
        where = "done" if page.outcome or ended else "move" if page.your_turn else "wait"
        return where, line


def claims_of(svc, path: str):
    """What a game link says (game, seat, holder). Its signature carries the second it was
    signed in, so two links made a second apart differ as text and say the same."""
    assert path.startswith("/g/"), path
    return svc.urls.signer.loads("view", path.removeprefix("/g/"))


def listed(svc, player_id: int) -> dict[int, tuple[str, tuple]]:
    games = mygames.my_games(svc, player_id)
    out = {}
    for where, lines in (("move", games.your_move), ("wait", games.waiting),
                         ("done", games.finished)):
        for g in lines:
            out[g.game_id] = where, (g.game_id, g.title, g.others, claims_of(svc, g.link),
                                     g.waiting_on,
                                     g.since, g.result)
    return out


def play_randomly(svc, game_id: int, moves: int | None, rng: random.Random) -> None:
    n = 0
    while moves is None or n < moves:
        pos = position(svc, game_id)
        if pos.engine.outcome(pos.state) is not None:
            return
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        choice = rng.choice(pos.engine.legal_moves(pos.state, seat))
        svc.clock.advance(minutes=rng.randint(1, 600))
        play.submit(svc, play.Intent(game_id, seat, moves=[choice], whole_turn=True))
        n += 1


def test_my_games_from_the_rows_are_the_folded_games_lines(services):
    rng = random.Random(3)
    games = []
    for n, kind in enumerate(["trees", "suzerain", "magnate", "aristocracy", "trees"]):
        players = THREE if kind == "aristocracy" else THREE[:2]
        game_id = start(services, kind=kind, players=players, seed=n).game_id
        play_randomly(services, game_id, 3 + n, rng)
        games.append(game_id)
    pos = position(services, games[1])                   # a move, then taken back
    seat = min(pos.engine.to_act(pos.state))
    choice = pos.engine.legal_moves(pos.state, seat)[0]
    play.submit(services, play.Intent(games[1], seat, moves=[choice], whole_turn=True))
    _take_back(services, games[1], seat)
    for seed in (7, 8):                                  # over by their rules
        game_id = start(services, seed=seed).game_id
        play_randomly(services, game_id, None, rng)
        games.append(game_id)
    resigned = start(services, seed=9).game_id
    seatchanges.resign(services, resigned, 0)             # over by the service
    left = start(services, players=THREE, seed=10).game_id
    seatchanges.resign(services, left, 2)                 # goes on without the seat
    games += [resigned, left]

    with services.db.transaction() as s:
        anna = s.scalar(select(Player.id).where(Player.email == "anna@example.org"))
    got = listed(services, anna)
    assert set(got) == set(games)
    assert {where for where, _ in got.values()} == {"move", "wait", "done"}
    for game_id in games:
        assert got[game_id] == folded_line(services, game_id, 0), game_id

    # the API's list: whose move it is, as the fold says, for each seat of Anna's
    for line in apireads.my_games(services, anna):
        pos = position(services, line.game_id)
        over = pos.row.status == GameStatus.ENDED
        assert line.to_act == ([] if over else sorted(pos.engine.to_act(pos.state)))
        assert line.seq == pos.seq and line.title == pos.engine.title
