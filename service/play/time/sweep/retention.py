"""Rows kept only for a while: sent emails' outbox rows, moves' idempotency receipts and
processed inbound mail, deleted once older than their retention (TURNPOST_OUTBOX_RETENTION_DAYS,
TURNPOST_RECEIPT_RETENTION_DAYS, TURNPOST_INBOUND_RETENTION_DAYS; beat's daily `prune`, `flask
prune`). Without it they are most of what the database grows by, and nothing needs them once
every link or reply address that could bring them up again has expired: the retention is
never shorter than TURNPOST_LINK_MAX_AGE_DAYS.

What each row is still needed for, and why that has ended by then:

- A receipt answers a second press of a link, a redelivered reply or an API retry "already
  done". A link or reply address older than TURNPOST_LINK_MAX_AGE_DAYS is refused before any
  receipt is read, and a receipt is never older than the link that made it; a redelivered
  reply is recognised by its Message-ID in the stored mail (kept) before its receipt is read;
  a timeout's key names its deadline and position, which never fall due again. An API client
  retrying with the same Idempotency-Key after the retention makes a new request (the key's
  promise lasts the retention, as a payment API's lasts a day): with the `seq` it looked at
  it is refused as stale, as every old link is.
- A sent outbox row is found by its Message-ID when a bounce, an auto-reply or a reply
  without its reply address comes back (days, not months), and counted for the answer caps
  (a day). And a seat's turn email is where the seat's next email starts its news
  (notify.since): so a turn row goes only when a newer turn row of its seat, sent or skipped,
  carries that on, and no row of the seat still unsent was queued after it.
- A stored reply (its raw bytes, what they were parsed into) tells a redelivery by its
  Message-ID (mail servers retry for days), shows a seat the mail others sent from its
  address, and is what an operator reruns; one that failed or is still being processed is
  kept. A reply redelivered after the retention is stored again and read again: its reply
  address has expired by then, and it moves nothing.
- A player's change to their account (`account_changes`): a request never confirmed is done
  with once its link's hour is up. A confirmed change of address stays as long as the account:
  the old address may still be written in rows kept for ever (a chat line, a seat change) or
  for a retention of 0 days, and an erasure must find every address that was the player's.
- A sign-in link (`sign_ins`) works for 15 minutes, once; it names the address typed, which
  may be nobody's account. Kept SIGN_INS_KEPT after it expired, for an operator asked "did
  my link go out?", then deleted.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, bindparam, delete, exists, func, or_, select
from sqlalchemy.orm import aliased

from service.play.services import Services
from service.store.inboundrows import RETRYING
from service.store.models import (
    AccountChange,
    GameRow,
    InboundMessage,
    OutboxRow,
    SignIn,
    Submission,
)
from service.store.statuses import InboundStatus, OutboxStatus

#: the games whose rows one statement prunes, in a short transaction of its own: a pass reads
#: each table once, in game order, by its index on the game, however large the backlog (a
#: LIMIT on an unindexed age would read again, batch after batch, the rows just deleted)
GAMES = 1_000
#: the stored mails one statement prunes, by id (most have a game, not all)
MAILS = 10_000
#: an email's row is done with once it is in one of these
FINISHED = (OutboxStatus.SENT, OutboxStatus.SKIPPED)
#: a stored mail still to be processed, or kept for an operator
UNDONE = (InboundStatus.RECEIVED, InboundStatus.PROCESSING, InboundStatus.FAILED, RETRYING)
#: how long a sign-in link's row stays after it expired
SIGN_INS_KEPT = timedelta(days=7)


@dataclass(frozen=True)
class Pruned:
    outbox: int = 0
    receipts: int = 0
    inbound: int = 0
    account_changes: int = 0
    sign_ins: int = 0


def retention(days: int, svc: Services) -> timedelta | None:
    """The retention of a setting's `days` (0: kept for ever), never shorter than a link's
    life."""
    if days <= 0:
        return None
    return timedelta(days=max(days, svc.settings.LINK_MAX_AGE_DAYS))


def prune(svc: Services, games: int = GAMES) -> Pruned:
    """Delete the outbox rows and receipts past their retention, `games` games at a time."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        changes = session.execute(delete(AccountChange).where(
            AccountChange.used_at.is_(None), AccountChange.expires_at < now)).rowcount
        sign_ins = session.execute(delete(SignIn).where(
            SignIn.expires_at < now - SIGN_INS_KEPT)).rowcount
    people = {"account_changes": changes, "sign_ins": sign_ins}
    cutoffs = {}
    for days, name in ((svc.settings.OUTBOX_RETENTION_DAYS, "outbox"),
                       (svc.settings.RECEIPT_RETENTION_DAYS, "receipts"),
                       (svc.settings.INBOUND_RETENTION_DAYS, "inbound")):
        keep = retention(days, svc)
        if keep is not None:
            cutoffs[name] = now - keep
    if not cutoffs:
        return Pruned(**people)
    done = dict.fromkeys(cutoffs, 0)
    with svc.db.transaction() as session:
        last = session.scalar(select(func.max(GameRow.id))) or 0
        last_mail = session.scalar(select(func.max(InboundMessage.id))) or 0
        if "outbox" in cutoffs:     # a sign-in's, an invitation's: no game, no news to start
            done["outbox"] += session.execute(_OLD_NOTICES,
                                              {"cutoff": cutoffs["outbox"]}).rowcount
    by_game = {name: cutoff for name, cutoff in cutoffs.items() if name in _OLD}
    for lo in range(0, last + 1, games) if by_game else ():
        with svc.db.transaction() as session:
            for name, cutoff in by_game.items():
                done[name] += session.execute(_OLD[name], {"lo": lo, "hi": lo + games,
                                                           "cutoff": cutoff}).rowcount
    for lo in range(0, last_mail + 1, MAILS) if "inbound" in cutoffs else ():
        with svc.db.transaction() as session:
            done["inbound"] += session.execute(_OLD_MAIL, {
                "lo": lo, "hi": lo + MAILS, "cutoff": cutoffs["inbound"]}).rowcount
    return Pruned(**done, **people)


_LATER = aliased(OutboxRow)
_SAME_SEAT = and_(_LATER.game_id == OutboxRow.game_id, _LATER.seat == OutboxRow.seat,
                  _LATER.id > OutboxRow.id)
#: a newer turn email of the seat, done with, starts the seat's news at least as late
_CARRIED_ON = exists().where(_SAME_SEAT, _LATER.kind == "turn", _LATER.seq >= OutboxRow.seq,
                             _LATER.status.in_(FINISHED))
#: an email of the seat queued after this one and not sent yet may still read it
_STILL_READ = exists().where(_SAME_SEAT, _LATER.status.not_in(FINISHED))
_OLD_ENOUGH = and_(OutboxRow.status.in_(FINISHED), OutboxRow.created_at < bindparam("cutoff"))
_OLD_NOTICES = delete(OutboxRow).where(OutboxRow.game_id.is_(None), _OLD_ENOUGH)
_OLD = {
    "outbox": delete(OutboxRow).where(
        OutboxRow.game_id >= bindparam("lo"), OutboxRow.game_id < bindparam("hi"), _OLD_ENOUGH,
        or_(OutboxRow.kind != "turn", and_(_CARRIED_ON, ~_STILL_READ))),
    "receipts": delete(Submission).where(
        Submission.game_id >= bindparam("lo"), Submission.game_id < bindparam("hi"),
        Submission.created_at < bindparam("cutoff")),
}
_OLD_MAIL = delete(InboundMessage).where(
    InboundMessage.id >= bindparam("lo"), InboundMessage.id < bindparam("hi"),
    InboundMessage.status.not_in(UNDONE), InboundMessage.received_at < bindparam("cutoff"))
