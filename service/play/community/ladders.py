"""Ladders, one per game: players stand in places 1 (the top), 2, 3...; a newcomer joins at
the bottom. A player challenges someone up to REACH places above them; the defender is told
by email and accepts on the ladder page, and the game starts then, as any game does; a
challenge not answered within ANSWER_WITHIN (the time the ladder page and the email state)
starts by itself at its end (`start_lapsed`, the sweep's). The challenger may withdraw it
while it waits. When the game ends with the challenger the one winner, the challenger takes
the defender's place and everyone from there down to the challenger's old place steps down
one. A defender who wins, or a shared result, changes nothing.

Each player has at most MAX_OPEN ladder games open; a player on vacation shows so and cannot
be challenged until back. A player who leaves frees their place (those below step up); their
open ladder games play on as ordinary games, outside the ladder. The end of a ladder game is settled by the hook every end calls
(service.play.time.ending), in the transaction that ends it; `catch_up` settles any the hook missed."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, ranking, repository
from service.play.errors import PlayError
from service.play.players import Entry, blocks, open_game
from service.play.services import Services
from service.play.time import clocks, ending
from service.store.models import (
    GameRow,
    LadderChallenge,
    LadderGame,
    LadderRung,
    Player,
    Seat,
    Vacation,
)

from . import strength

REACH = 3          # places above oneself a player may challenge
MAX_OPEN = 3       # ladder games (and challenges waiting) a player may have open at once
#: the clock a ladder game is played on
LADDER_CLOCK = "3d"
#: how long a challenged player has to accept before the game starts by itself
ANSWER_WITHIN = timedelta(days=3)
ANSWER_WORDS = N_("3 days")      # said in the reader's language where it is shown
WAITING = "waiting"


class LadderRefused(PlayError):
    title = N_("The ladder did not take that")


@dataclass(frozen=True)
class Rung:
    place: int
    player_id: int
    name: str
    on_vacation: bool
    open_games: int
    challengeable: bool        # by the viewer, now


@dataclass(frozen=True)
class Waiting:
    """A challenge waiting for its defender's answer, as one of its two players sees it."""
    id: int
    opponent: str              # the challenger to its defender, the defender to its challenger
    starts: str                # when it starts by itself, in the viewer's time zone


@dataclass(frozen=True)
class Ladder:
    kind: str
    title: str
    rungs: list[Rung]
    mine: int | None           # the viewer's place
    to_answer: list[Waiting] = ()      # challenges of the viewer, waiting for them
    asked: list[Waiting] = ()          # the viewer's challenges, waiting for the defender
    answer_words: str = ANSWER_WORDS


def _engine_title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except registry.UnknownGame:
        raise LadderRefused(_("There is no game called %(kind)r.", kind=kind)) from None


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
        waiting = _waiting(session, kind, viewer_id)
        pending = {c.defender_id for c in waiting if c.challenger_id == viewer_id}
        rungs = []
        for rung, name in rows:
            reason = None if mine is None else _refusal(
                mine, rung.place, rung.player_id in away, counts.get(viewer_id, 0),
                counts.get(rung.player_id, 0), rung.player_id in apart)
            rungs.append(Rung(rung.place, rung.player_id, name, rung.player_id in away,
                              counts.get(rung.player_id, 0),
                              mine is not None and reason is None
                              and rung.player_id not in pending))
        names = {r.player_id: name for r, name in rows}
        zone = session.scalar(select(Player.zone).where(Player.id == viewer_id)) \
            if viewer_id is not None else None

        def seen(c: LadderChallenge, other: int) -> Waiting:
            return Waiting(c.id, names.get(other, "a player who left"),
                           clocks.format_deadline(c.answer_by, now, zone))
        return Ladder(kind, title, rungs, mine,
                      [seen(c, c.challenger_id) for c in waiting if c.defender_id == viewer_id],
                      [seen(c, c.defender_id) for c in waiting if c.challenger_id == viewer_id])


def _waiting(session: Session, kind: str, player_id: int | None) -> list[LadderChallenge]:
    """The ladder's challenges waiting for an answer that the player is in, oldest first."""
    if player_id is None:
        return []
    return list(session.scalars(select(LadderChallenge).where(
        LadderChallenge.kind == kind, LadderChallenge.status == WAITING,
        or_(LadderChallenge.challenger_id == player_id,
            LadderChallenge.defender_id == player_id)).order_by(LadderChallenge.id)))


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
            raise LadderRefused(_("You are on this ladder already, in place %(n)s.",
                                   n=mine.place))
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
            raise LadderRefused(_("You are not on this ladder; nothing was changed."))
        return step_off(session, mine)


def step_off(session: Session, mine: LadderRung) -> int:
    """`leave` in the caller's transaction, the ladder's rungs locked (an erasure too)."""
    kind, player_id, place = mine.kind, mine.player_id, mine.place
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
    # their challenges still waiting go with them: no game starts from them
    session.execute(update(LadderChallenge).where(
        LadderChallenge.kind == kind, LadderChallenge.status == WAITING,
        (LadderChallenge.challenger_id == player_id)
        | (LadderChallenge.defender_id == player_id))
        .values(status="void").execution_options(synchronize_session=False))
    session.expire_all()
    return left.rowcount


def challenge(svc: Services, player_id: int, kind: str, defender_id: int) -> int:
    """Challenge the player in a higher place: the challenge waits for them (they are told by
    email) and its game starts when they accept, or by itself after ANSWER_WITHIN. Returns
    the challenge's id."""
    title = _engine_title(kind)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        catch_up(session, svc, kind)
        rungs = {r.player_id: r for r in _locked(session, kind)}
        if player_id not in rungs:
            raise LadderRefused(_("Join the ladder first: only players on it challenge."))
        if defender_id == player_id:
            raise LadderRefused(_("You cannot challenge yourself."))
        if defender_id not in rungs:
            raise LadderRefused(_("That player is not on this ladder."))
        if any(c.defender_id == defender_id for c in _waiting(session, kind, player_id)):
            raise LadderRefused(_("You have challenged that player already; the challenge "
                                  "waits for their answer."))
        counts = _open_counts(session, kind)
        reason = _refusal(rungs[player_id].place, rungs[defender_id].place,
                          bool(_on_vacation(session, [defender_id], now)),
                          counts.get(player_id, 0), counts.get(defender_id, 0),
                          blocks.between(session, player_id, defender_id))
        if reason:
            raise LadderRefused(reason)
        row = LadderChallenge(kind=kind, challenger_id=player_id, defender_id=defender_id,
                              status=WAITING, created_at=now, answer_by=now + ANSWER_WITHIN)
        session.add(row)
        session.flush()
        _tell_defender(session, row, title, rungs[player_id].place, rungs[defender_id].place,
                       now)
        challenge_id = row.id
    return challenge_id


def accept(svc: Services, player_id: int, challenge_id: int) -> int:
    """The defender accepts a challenge waiting for them: its game starts. Returns its id."""
    with svc.db.transaction() as session:
        row = session.get(LadderChallenge, challenge_id)
        if row is None or row.defender_id != player_id:
            raise LadderRefused(_("That is not a ladder challenge to you."))
        if row.status != WAITING:
            raise LadderRefused(_no_longer(row))
        started = _start(session, svc, row, svc.clock.now())
        why = _no_longer(row) if started.game_id is None else ""
    if started.game_id is None:       # void now, and written so: refused after the commit
        raise LadderRefused(why)
    return started.game_id


def withdraw(svc: Services, player_id: int, challenge_id: int) -> None:
    """The challenger takes back a challenge still waiting for its answer."""
    with svc.db.transaction() as session:
        row = session.get(LadderChallenge, challenge_id)
        if row is None or row.challenger_id != player_id:
            raise LadderRefused(_("That is not a ladder challenge of yours."))
        taken = session.execute(update(LadderChallenge).where(
            LadderChallenge.id == challenge_id, LadderChallenge.status == WAITING)
            .values(status="withdrawn", answered_at=svc.clock.now())
            .execution_options(synchronize_session=False))
        if taken.rowcount != 1:
            session.refresh(row)
            raise LadderRefused(_no_longer(row))


def start_lapsed(svc: Services) -> int:
    """The sweep's: the challenges whose time for an answer is over start their games, as the
    ladder says they do. Returns how many started."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        due = list(session.scalars(select(LadderChallenge.id).where(
            LadderChallenge.status == WAITING, LadderChallenge.answer_by <= now)
            .order_by(LadderChallenge.answer_by).limit(200)))
    started = 0
    for challenge_id in due:
        with svc.db.transaction() as session:
            row = session.get(LadderChallenge, challenge_id)
            game = _start(session, svc, row, now)
        if game.game_id is not None:
            started += 1
    return started


def _no_longer(row: LadderChallenge) -> str:
    said = {"started": N_("That challenge's game has started already: its first email has "
                          "come."),
            "withdrawn": N_("That challenge was withdrawn by its challenger."),
            "void": N_("That challenge no longer stands: one of you left the ladder, or "
                       "blocked the other.")}.get(row.status, N_("That challenge no longer "
                                                                "stands."))
    return _(said)


@dataclass(frozen=True)
class _Started:
    game_id: int | None
    outbox_ids: list[int]


def _start(session: Session, svc: Services, row: LadderChallenge, now: datetime) -> _Started:
    """The challenge's game, once (taken from `waiting` by a conditional UPDATE); a challenge
    whose players are no longer both on the ladder, or are kept apart by a block, is void
    (no game: `game_id` None, as for a challenge another writer took first)."""
    rungs = {r.player_id for r in _locked(session, row.kind)}
    void = not {row.challenger_id, row.defender_id} <= rungs \
        or blocks.between(session, row.challenger_id, row.defender_id)
    taken = session.execute(update(LadderChallenge).where(
        LadderChallenge.id == row.id, LadderChallenge.status == WAITING)
        .values(status="void" if void else "started", answered_at=now)
        .execution_options(synchronize_session=False))
    session.refresh(row)
    if taken.rowcount != 1 or void:
        return _Started(None, [])
    me, them = session.get(Player, row.challenger_id), session.get(Player, row.defender_id)
    options = {"clock": LADDER_CLOCK, **strength.rated_option(True)}
    started = open_game(session, svc, row.kind, [Entry(them.email, them.name),
                                                 Entry(me.email, me.name)], options)
    session.add(LadderGame(game_id=started.game_id, kind=row.kind,
                           challenger_id=row.challenger_id, defender_id=row.defender_id,
                           settled=False, created_at=now))
    session.execute(update(LadderChallenge).where(LadderChallenge.id == row.id)
                    .values(game_id=started.game_id)
                    .execution_options(synchronize_session=False))
    return _Started(started.game_id, list(started.outbox_ids))


def _tell_defender(session: Session, row: LadderChallenge, title: str, their_place: int,
                   my_place: int, now: datetime) -> None:
    """The challenged player's email: who, from where, how to accept, and when the game
    starts by itself."""
    defender = session.get(Player, row.defender_id)
    challenger = session.get(Player, row.challenger_id)
    if defender.unmailable or defender.email.endswith(".invalid"):
        return
    # the words built here are in the defender's language, as the rest of their letter is
    with catalogs.speaking(defender.language):
        words = {"clock": clocks.describe(clocks.parse_clock(LADDER_CLOCK)),
                 "answer_within": _(ANSWER_WORDS),
                 "starts": clocks.format_deadline(row.answer_by, now, defender.zone)}
    notify.letter(session, defender.email, "ladder_challenge", {
        "title": title, "challenger": challenger.name, "their_place": their_place,
        "place": my_place, **words, "path": f"/ladders/{row.kind}"}, now)


def _refusal(mine: int, theirs: int, away: bool, my_open: int, their_open: int,
             apart: bool) -> str | None:
    """Why the player in place `mine` may not challenge the one in `theirs`, or None."""
    if theirs == mine:
        return _("You cannot challenge yourself.")
    if theirs > mine:
        return _("Place %(theirs)s is below yours (%(mine)s): a ladder challenge goes up, to "
                 "someone at most %(reach)s places above you.",
                 theirs=theirs, mine=mine, reach=REACH)
    if mine - theirs > REACH:
        return _("Place %(theirs)s is %(up)s places above yours (%(mine)s); you may "
                 "challenge at most %(reach)s places up.",
                 theirs=theirs, up=mine - theirs, mine=mine, reach=REACH)
    if away:
        return _("That player is on vacation: they can be challenged when they are back.")
    if apart:
        return _("You cannot challenge that player (one of you has blocked the other).")
    if my_open >= MAX_OPEN:
        return _("You have %(open)s ladder games open; finish one first (at most %(most)s).",
                 open=my_open, most=MAX_OPEN)
    if their_open >= MAX_OPEN:
        return _("That player has %(open)s ladder games open already (at most %(most)s).",
                 open=their_open, most=MAX_OPEN)
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
    """Open ladder games per player, and challenges waiting to become one, over every ladder
    (the limit is per player)."""
    counts: dict[int, int] = {}
    open_games = session.execute(select(LadderGame.challenger_id, LadderGame.defender_id)
                                 .where(LadderGame.settled.is_(False))).all()
    waiting = session.execute(select(LadderChallenge.challenger_id, LadderChallenge.defender_id)
                              .where(LadderChallenge.status == WAITING)).all()
    for pair in [*open_games, *waiting]:
        for pid in pair:
            counts[pid] = counts.get(pid, 0) + 1
    return counts


# --- the end of a ladder game -----------------------------------------------------------

@ending.when_a_game_ends
def settle(session: Session, game, now: datetime, outcome=None) -> None:
    """The hook: a ladder game just ended; the winner (by the game's places:
    service.play.ranking) takes the higher place."""
    row = session.get(LadderGame, game.id)
    if row is None or row.settled:
        return
    ranked = ranking.of_game(game, outcome)
    _settle(session, row, list(ranked.winners) if ranked is not None else [])


def catch_up(session: Session, svc: Services, kind: str) -> int:
    """Settle the ladder's ended games the hook did not see; returns how many."""
    ended = session.execute(select(LadderGame, GameRow).join(
        GameRow, GameRow.id == LadderGame.game_id).where(
        LadderGame.kind == kind, LadderGame.settled.is_(False),
        GameRow.status == "ended")).all()
    for row, game in ended:
        outcome = None
        if not (game.result or {}).get("places"):   # ended before places were stored
            pos = repository.load(session, svc.states, game.id)
            outcome = pos.engine.outcome(pos.state)
        ranked = ranking.of_game(game, outcome)
        _settle(session, row, list(ranked.winners) if ranked is not None else [])
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

