"""Ladders, one per game: players stand in places 1 (the top), 2, 3...; a newcomer joins at
the bottom. A player challenges someone up to REACH places above them; the game starts as
any game does, and when it ends with the challenger the one winner, the challenger takes the
defender's place and everyone from there down to the challenger's old place steps down one.
A defender who wins, or a shared result, changes nothing.

Each player has at most MAX_OPEN ladder games open; a player on vacation shows so and cannot
be challenged until back. A player who leaves frees their place (those below step up); their
open ladder games play on as ordinary games, outside the ladder. The end of a ladder game is settled by the hook every end calls
(service.play.time.ending), in the transaction that ends it; `catch_up` settles any the hook missed."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from service.games import registry
from service.play import repository as positions
from service.play.errors import PlayError
from service.play.players import Entry, blocks, open_game
from service.play.services import Services
from service.play.time import ending
from service.store.models import GameRow, LadderGame, LadderRung, Player, Seat, Vacation

from . import strength

REACH = 3          # places above oneself a player may challenge
MAX_OPEN = 3       # ladder games a player may have open at once
#: the clock a ladder game is played on
LADDER_CLOCK = "3d"


class LadderRefused(PlayError):
    title = "The ladder did not take that"


@dataclass(frozen=True)
class Rung:
    place: int
    player_id: int
    name: str
    on_vacation: bool
    open_games: int
    challengeable: bool        # by the viewer, now


@dataclass(frozen=True)
class Ladder:
    kind: str
    title: str
    rungs: list[Rung]
    mine: int | None           # the viewer's place


def _engine_title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except registry.UnknownGame:
        raise LadderRefused(f"There is no game called {kind!r}.") from None


def view(svc: Services, kind: str, viewer_id: int | None = None) -> Ladder:
    title = _engine_title(kind)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        catch_up(session, svc, kind)
        rows = session.execute(select(LadderRung, Player.name).join(
            Player, Player.id == LadderRung.player_id).where(LadderRung.kind == kind)
            .order_by(LadderRung.place)).all()
        away = _on_vacation(session, [r.player_id for r, _ in rows], now)
        counts = _open_counts(session, kind)
        places = {r.player_id: r.place for r, _ in rows}
        mine = places.get(viewer_id) if viewer_id is not None else None
        apart = blocks.apart(session, viewer_id) if viewer_id is not None else set()
        rungs = []
        for rung, name in rows:
            reason = None if mine is None else _refusal(
                mine, rung.place, rung.player_id in away, counts.get(viewer_id, 0),
                counts.get(rung.player_id, 0), rung.player_id in apart)
            rungs.append(Rung(rung.place, rung.player_id, name, rung.player_id in away,
                              counts.get(rung.player_id, 0), mine is not None and reason is None))
        return Ladder(kind, title, rungs, mine)


def ladders_index(svc: Services) -> list[tuple[str, str, int]]:
    """Every game's ladder: (game, title, players on it)."""
    with svc.db.transaction() as session:
        counts = dict(session.execute(select(LadderRung.kind, func.count())
                                      .group_by(LadderRung.kind)).all())
    return [(kind, engine.title, counts.get(kind, 0))
            for kind, engine in registry.available().items()]


def join(svc: Services, player_id: int, kind: str) -> int:
    """The player's place: a newcomer joins at the bottom."""
    _engine_title(kind)
    with svc.db.transaction() as session:
        rungs = _locked(session, kind)
        mine = next((r for r in rungs if r.player_id == player_id), None)
        if mine is not None:
            raise LadderRefused(f"You are on this ladder already, in place {mine.place}.")
        place = max((r.place for r in rungs), default=0) + 1
        session.add(LadderRung(kind=kind, player_id=player_id, place=place,
                               joined_at=svc.clock.now()))
    return place


def leave(svc: Services, player_id: int, kind: str) -> int:
    """The player leaves the ladder: everyone below steps up one place. Their open ladder
    games play on as ordinary games but no longer count for the ladder (nor against anyone's
    open-game limit). Returns how many such games there were."""
    _engine_title(kind)
    with svc.db.transaction() as session:
        catch_up(session, svc, kind)
        rungs = _locked(session, kind)
        mine = next((r for r in rungs if r.player_id == player_id), None)
        if mine is None:
            raise LadderRefused("You are not on this ladder; nothing was changed.")
        place = mine.place
        session.delete(mine)
        session.flush()
        table = LadderRung.__table__
        # through negative places, as in _climb: one player per place after every statement
        session.execute(table.update().where(table.c.kind == kind, table.c.place > place)
                        .values(place=-(table.c.place - 1)))
        session.execute(table.update().where(table.c.kind == kind, table.c.place < 0)
                        .values(place=-table.c.place))
        left = session.execute(update(LadderGame).where(
            LadderGame.kind == kind, LadderGame.settled.is_(False),
            (LadderGame.challenger_id == player_id) | (LadderGame.defender_id == player_id))
            .values(settled=True).execution_options(synchronize_session=False))
        session.expire_all()
        return left.rowcount


def challenge(svc: Services, player_id: int, kind: str, defender_id: int) -> int:
    """Start a ladder game against the player in a higher place; returns its id."""
    _engine_title(kind)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        catch_up(session, svc, kind)
        rungs = {r.player_id: r for r in _locked(session, kind)}
        if player_id not in rungs:
            raise LadderRefused("Join the ladder first: only players on it challenge.")
        if defender_id == player_id:
            raise LadderRefused("You cannot challenge yourself.")
        if defender_id not in rungs:
            raise LadderRefused("That player is not on this ladder.")
        counts = _open_counts(session, kind)
        reason = _refusal(rungs[player_id].place, rungs[defender_id].place,
                          bool(_on_vacation(session, [defender_id], now)),
                          counts.get(player_id, 0), counts.get(defender_id, 0),
                          blocks.between(session, player_id, defender_id))
        if reason:
            raise LadderRefused(reason)
        me, them = session.get(Player, player_id), session.get(Player, defender_id)
        options = {"clock": LADDER_CLOCK, **strength.rated_option(True)}
        started = open_game(session, svc, kind, [Entry(them.email, them.name),
                                                 Entry(me.email, me.name)], options)
        session.add(LadderGame(game_id=started.game_id, kind=kind, challenger_id=player_id,
                               defender_id=defender_id, settled=False, created_at=now))
    return started.game_id


def _refusal(mine: int, theirs: int, away: bool, my_open: int, their_open: int,
             apart: bool) -> str | None:
    """Why the player in place `mine` may not challenge the one in `theirs`, or None."""
    if theirs == mine:
        return "You cannot challenge yourself."
    if theirs > mine:
        return (f"Place {theirs} is below yours ({mine}): a ladder challenge goes up, to "
                f"someone at most {REACH} places above you.")
    if mine - theirs > REACH:
        return (f"Place {theirs} is {mine - theirs} places above yours ({mine}); you may "
                f"challenge at most {REACH} places up.")
    if away:
        return "That player is on vacation: they can be challenged when they are back."
    if apart:
        return "You cannot challenge that player (one of you has blocked the other)."
    if my_open >= MAX_OPEN:
        return f"You have {my_open} ladder games open; finish one first (at most {MAX_OPEN})."
    if their_open >= MAX_OPEN:
        return f"That player has {their_open} ladder games open already (at most {MAX_OPEN})."
    return None


def _locked(session: Session, kind: str) -> list[LadderRung]:
    """The ladder's rungs, locked (PostgreSQL): one change to a ladder at a time."""
    return list(session.scalars(select(LadderRung).where(LadderRung.kind == kind)
                                .order_by(LadderRung.place).with_for_update()))


def _on_vacation(session: Session, player_ids: list[int], now: datetime) -> set[int]:
    if not player_ids:
        return set()
    return set(session.scalars(select(Vacation.player_id).where(
        Vacation.player_id.in_(player_ids), Vacation.open.is_(True),
        Vacation.resumes_at > now)))


def _open_counts(session: Session, kind: str) -> dict[int, int]:
    """Open ladder games per player, over every ladder (the limit is per player)."""
    counts: dict[int, int] = {}
    for row in session.scalars(select(LadderGame).where(LadderGame.settled.is_(False))):
        for pid in (row.challenger_id, row.defender_id):
            counts[pid] = counts.get(pid, 0) + 1
    return counts


# --- the end of a ladder game -----------------------------------------------------------

@ending.when_a_game_ends
def settle(session: Session, game, now: datetime, outcome=None) -> None:
    """The hook: a ladder game just ended; the winner takes the higher place."""
    row = session.get(LadderGame, game.id)
    if row is None or row.settled:
        return
    if outcome is not None:
        winners = list(outcome.winners)
    else:
        winners = list((game.result or {}).get("winners") or [])
    _settle(session, row, winners)


def catch_up(session: Session, svc: Services, kind: str) -> int:
    """Settle the ladder's ended games the hook did not see; returns how many."""
    ended = session.execute(select(LadderGame, GameRow).join(
        GameRow, GameRow.id == LadderGame.game_id).where(
        LadderGame.kind == kind, LadderGame.settled.is_(False),
        GameRow.status == "ended")).all()
    for row, game in ended:
        if game.result and game.result.get("winners") is not None:
            winners = list(game.result["winners"])
        else:
            pos = positions.load(session, svc.states, game.id)
            outcome = pos.engine.outcome(pos.state)
            winners = list(outcome.winners) if outcome is not None else []
        _settle(session, row, winners)
    return len(ended)


def _settle(session: Session, row: LadderGame, winner_seats: list[int]) -> None:
    claimed = session.execute(update(LadderGame).where(
        LadderGame.game_id == row.game_id, LadderGame.settled.is_(False)).values(settled=True)
        .execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        return                              # settled by another writer
    session.expire(row)
    seats = dict(session.execute(select(Seat.seat, Seat.player_id)
                                 .where(Seat.game_id == row.game_id)).all())
    winners = {seats.get(s) for s in winner_seats}
    if winners != {row.challenger_id}:
        return                              # the defender held, or a shared result
    rungs = {r.player_id: r.place for r in _locked(session, row.kind)}
    low, high = rungs.get(row.challenger_id), rungs.get(row.defender_id)
    if low is None or high is None or high > low:
        return                              # someone left, or the challenger is above now
    _climb(session, row.kind, row.challenger_id, low, high)


def _climb(session: Session, kind: str, player_id: int, low: int, high: int) -> None:
    """`player_id` moves from place `low` up to `high`; high..low-1 step down one. Through
    negative places, so the one-player-per-place constraint holds after every statement."""
    rungs = LadderRung.__table__
    session.execute(rungs.update().where(rungs.c.kind == kind, rungs.c.place >= high,
                                         rungs.c.place < low).values(place=-(rungs.c.place + 1)))
    session.execute(rungs.update().where(rungs.c.kind == kind, rungs.c.player_id == player_id)
                    .values(place=-high))
    session.execute(rungs.update().where(rungs.c.kind == kind, rungs.c.place < 0)
                    .values(place=-rungs.c.place))
    session.expire_all()

