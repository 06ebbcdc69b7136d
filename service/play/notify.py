"""Which emails a change of position calls for, queued as outbox rows in the same transaction
as the events (docs/architecture.md step 4): if the events commit, so do their emails; if not, neither."""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from service.games.contract import Game
from service.linking import freshness
from service.store.models import GameRow, OutboxRow
from service.store.movewrites import insert_outbox
from service.store.statuses import OutboxStatus

from . import aftercommit


def queue_changed_views(session: Session, game: GameRow, engine: Game, before: Any, after: Any,
                        seq: int, now: datetime, mover: int | None = None,
                        forced: dict[int, dict] | None = None) -> list[int]:
    """One email per seat whose view changed (every seat when the game starts: `before` is
    None), but no chatter: a seat watching someone part-way through a turn of several actions
    hears once, when new seats must act, with all of the turn's news; a seat still to choose
    in a sealed round is not mailed because another seat chose (its links stay good: the
    change is outside its freshness view, service.linking.freshness).

    Each player's mail mode then thins this out (`wants_mail`): the mover never hears about its
    own move (the done page told it), and by default a seat hears only when it must act and
    when the game ends. Bots are never mailed. Returns the new outbox rows' ids, in seat
    order. `forced`: the seats whose only move is played for them (`forced_seats`), when the
    caller knows them."""
    return queue_many(session, changed_views(game, engine, before, after, seq, now, mover,
                                             forced))


def changed_views(game: GameRow, engine: Game, before: Any, after: Any, seq: int,
                  now: datetime, mover: int | None = None,
                  forced: dict[int, dict] | None = None) -> list[dict[str, Any]]:
    """The outbox rows' values (`values`) queue_changed_views inserts, for a caller that
    writes them with the rest of a move (service.store.movewrites)."""
    return [values(game, seat, "turn", seq, now)
            for seat in changed_seats(game, engine, before, after, mover, forced)]


def changed_seats(game: GameRow, engine: Game, before: Any, after: Any,
                  mover: int | None = None, forced: dict[int, dict] | None = None
                  ) -> list[int]:
    """The seats queue_changed_views mails (the rules are in its docstring), less the seats
    whose only move is played for them in a moment (`forced_seats`, worked out here unless
    the caller knows it): their next email tells them, whichever way the turn reached them (a
    move, the game's start, a take-back, a timeout)."""
    if forced is None:
        forced = forced_seats(game, engine, after)
    return [seat for seat in _changed_seats(game, engine, before, after, mover)
            if seat not in forced]


def _changed_seats(game: GameRow, engine: Game, before: Any, after: Any,
                   mover: int | None) -> list[int]:
    acting_after = engine.to_act(after)
    ended = engine.outcome(after) is not None
    if before is None:
        return [s.seat for s in game.seats if s.bot is None
                and wants_mail(s.player.mail_mode, s.seat, None, s.seat in acting_after, ended)]
    acting_before = engine.to_act(before)
    new_actors = bool(acting_after - acting_before)
    just_ended = ended and engine.outcome(before) is None
    wanted_seats = []
    for seat_row in game.seats:
        seat = seat_row.seat
        if seat_row.bot is not None:
            continue                           # bots are never mailed
        was, now_acts = seat in acting_before, seat in acting_after
        # the cheap tests first: comparing two views costs more than all the rest
        if not wants_mail(seat_row.player.mail_mode, seat, mover, now_acts, ended):
            continue
        if now_acts != was or just_ended:
            # its turn began, its part is done or the game ended: its view shows it (every
            # view has `to_act` and `outcome`, docs/architecture.md), no need to compare two views
            wanted_seats.append(seat)
            continue
        if ended:
            wanted = True
        elif now_acts:                         # still acting: new links if its position moved
            wanted = freshness.mark(engine, before, seat) != freshness.mark(engine, after, seat)
        else:
            wanted = new_actors                # watching: once, when the turn passes
        if wanted and engine.view(before, seat) != engine.view(after, seat):
            wanted_seats.append(seat)
    return wanted_seats


_EARLIER = aliased(OutboxRow)
# the seq of the seat's turn email queued before the outer query's row
_PREVIOUS_TURN = (select(func.max(_EARLIER.seq))
                  .where(_EARLIER.game_id == OutboxRow.game_id, _EARLIER.seat == OutboxRow.seat,
                         _EARLIER.kind == "turn", _EARLIER.id < OutboxRow.id)
                  .scalar_subquery())
#: `since` as a column of a query of outbox rows: the relay reads it with its rows
SINCE = func.coalesce(OutboxRow.since_seq, _PREVIOUS_TURN, 0)


def since(session: Session, row: OutboxRow) -> int:
    """The seq after which `row`'s email tells the news: its own `since_seq`, or the position
    of the seat's turn email queued before it (0: none)."""
    if row.since_seq is not None:
        return row.since_seq
    return session.scalar(select(SINCE).where(OutboxRow.id == row.id))


def wants_mail(mode: str, seat: int, mover: int | None, acts: bool, ended: bool) -> bool:
    if ended:
        return True
    if seat == mover:
        return False
    return mode == "every" or acts


def send_now(seat_row: Any, kind: str, status: str, now: datetime) -> tuple[str, datetime]:
    return status, now


#: A queued row's (status, next_try): the time family installs its quiet-hours rule here
#: (service.play.time.calendar.hold) as it is imported, so the core needs no family to hold
#: a row for the end of its recipient's quiet hours.
hold = send_now


def status_for(seat_row, kind: str) -> str:
    """pending (send it), held (a digest player's turn mail, released at its hour), or skipped:
    an address that bounced or asked never to be mailed gets nothing at all, and a seat that
    unsubscribed from the game gets nothing of it but the answers to its own emails."""
    player = seat_row.player
    if seat_row.bot is not None:          # bots are never mailed
        return OutboxStatus.SKIPPED
    if player.suppressed or player.bounced_at is not None:
        return OutboxStatus.SKIPPED
    if seat_row.muted and kind not in ("answer", "refusal"):
        return OutboxStatus.SKIPPED
    if kind == "turn" and player.mail_mode == "digest":
        return OutboxStatus.HELD
    return OutboxStatus.PENDING


#: notices about the game in progress (its clocks, a take-back asked or refused): moot once it
#: has ended, when the game-over email tells everyone where things stand
NOTICES = ("timeout", "reminder", "undo")


def supersede(session: Session, game_ids: int | list[int]) -> None:
    """The game has ended (or these games, the clock sweep's batch): its notices not yet sent
    are dropped (skipped), so that nobody gets a late "is back from vacation" or reminder,
    composed after the end as one more game-over email, beside the one game-over email each
    seat is sent. Chat messages and the answers to a player's own emails still go. Call it
    before queueing the game-over emails. Every way a game ends calls it: a move
    (submit.record), the service (timing.end_game), a timeout (those two, or the sweep's batch)."""
    ids = [game_ids] if isinstance(game_ids, int) else list(game_ids)
    session.execute(update(OutboxRow)
                    .where(OutboxRow.game_id.in_(ids), OutboxRow.kind.in_(NOTICES),
                           OutboxRow.status.in_((OutboxStatus.PENDING, OutboxStatus.HELD,
                                                 "quiet")))      # quiet: held for quiet hours
                    .values(status=OutboxStatus.SKIPPED, claim=None)
                    .execution_options(synchronize_session=False))


#: the sources of the moves the bots' job makes: it plays on by itself while any is due
BOTS_OWN = ("bot", "forced")


def turns_changed(session: Session, game, engine: Game, state: Any,
                  forced: dict | None = None, source: str = "") -> bool:
    """Whose turn it is changed (a move, a start, a take-back, a timeout): `game.bots_due`
    set as `bot_to_act` says and, when a bot or a forced move is to play, the bots' job
    declared for after the commit (service.play.aftercommit), whichever way the change came
    in. The bots' own moves (`BOTS_OWN`) declare nothing: their job goes on by itself."""
    game.bots_due = bot_to_act(game, engine, state, forced)
    if game.bots_due and source not in BOTS_OWN:
        aftercommit.bots(session, game.id)
    return game.bots_due


def bot_to_act(game: GameRow, engine: Game, state: Any, forced: dict | None = None) -> bool:
    """Whether a bot seat, or a forced move (`forced_seats`, given when known), is to be
    played now (the bots' worker is then kicked)."""
    if engine.outcome(state) is not None:
        return False
    acting = engine.to_act(state)
    if any(s.bot is not None and s.seat in acting for s in game.seats):
        return True
    return bool(forced_seats(game, engine, state) if forced is None else forced)


def forced_seats(game: GameRow, engine: Game, state: Any) -> dict[int, dict]:
    """The people's seats to act whose one legal move shows them nothing new (the engine's
    `forced_move`), played for them when they keep the `forced_moves` preference: seat ->
    move."""
    forced = getattr(engine, "forced_move", None)
    if forced is None or engine.outcome(state) is not None:
        return {}
    acting = engine.to_act(state)
    out = {}
    for s in game.seats:
        if s.seat in acting and s.bot is None and s.player.forced_moves:
            move = forced(state, s.seat)
            if move is not None:
                out[s.seat] = move
    return out


def new_message_id() -> str:
    return "tp." + secrets.token_hex(12)


def rendering_id(message_id: str, renderings: int) -> str:
    """The Message-ID's local part of a row's email as composed for the `renderings`-th time
    (the relay composes it anew at each claim): its `message_id` the first time, then
    `message_id.2`, `message_id.3`... A Message-ID names one rendering, never another: an
    email composed again (its claim lapsed after a crash, a retry, an operator's resend)
    shows the game and the clocks as they are then, with links signed then, so it is another
    message, and a client must not take one for the other."""
    return message_id if renderings <= 1 else f"{message_id}.{renderings}"


def row_message_id(local: str) -> str:
    """The outbox row's `message_id` named by the local part of any rendering's Message-ID
    (`tp.x.2` -> `tp.x`): a reply to, or a bounce of, any copy finds its row."""
    head, dot, tail = local.rpartition(".")
    return head if dot and head.startswith("tp.") and tail.isdigit() else local


def values(game: GameRow, seat: int, kind: str, seq: int, now: datetime,
           payload: dict | None = None, since: int | None = None) -> dict[str, Any]:
    """An outbox row's values: `since`: the email tells the news after this seq; by default
    (None) the news since the seat's previous turn email, worked out when the email is
    composed (`since`), not while a player waits for their move."""
    seat_row = next(s for s in game.seats if s.seat == seat)
    # inside the player's quiet hours it waits for their end (service.play.time.calendar)
    status, next_try = hold(seat_row, kind, status_for(seat_row, kind), now)
    return {"game_id": game.id, "seat": seat, "to_addr": seat_row.player.email, "kind": kind,
            "message_id": new_message_id(), "seq": seq, "since_seq": since,
            "payload": payload or {}, "status": status, "attempts": 0,
            "next_try": next_try, "created_at": now}


def queue(session: Session, game: GameRow, seat: int, kind: str, seq: int, now: datetime,
          payload: dict | None = None, since: int | None = None) -> OutboxRow:
    """One outbox row, added to the session (flushed with the caller's other changes) and
    sent once the unit of work commits (service.play.aftercommit)."""
    row = OutboxRow(**values(game, seat, kind, seq, now, payload, since))
    session.add(row)
    aftercommit.deliver(session, [row])
    return row


def letter(session: Session, to_addr: str, kind: str, payload: dict[str, Any], now: datetime,
           *, game_id: int | None = None, seq: int = 0) -> OutboxRow:
    """An email to an address rather than to a seat (a sign-in link, an invitation, a
    tournament's or a challenge's letter): due now, telling no news of a game. Added to the
    session and flushed (the caller may want its id), and sent once the unit of work
    commits."""
    row = OutboxRow(game_id=game_id, seat=None, to_addr=to_addr, kind=kind, seq=seq,
                    since_seq=0, payload=payload, message_id=new_message_id(),
                    status=OutboxStatus.PENDING, attempts=0, next_try=now, created_at=now)
    session.add(row)
    aftercommit.deliver(session, [row])
    session.flush()
    return row


def queue_many(session: Session, rows: list[dict[str, Any]]) -> list[int]:
    """Outbox rows (`values`) inserted at once, without the unit of work: a move's emails.
    Returns their ids in the order given; they are sent once the unit of work commits."""
    # the table's own INSERT (Core): the ORM's bulk insert costs a move more than the write
    ids = insert_outbox(session, rows)
    aftercommit.deliver(session, ids)
    return ids
