"""The outbox relay (docs/architecture.md steps 5-6), in batches: claim up to BATCH rows in one UPDATE,
render and send them one after the other over one SMTP connection (which the transport keeps
open for the next batch), and mark each one sent as soon as the relay has taken it.

* Idempotent per row: rows are claimed by a conditional UPDATE under a random claim, so two
  workers (or a worker and the sweep) never both send one; a sent row is never sent again.
* A claim lasts CLAIM_TIMEOUT and is renewed by a heartbeat while its batch runs: a slow relay
  keeps its rows, and the rows of a worker killed mid-batch are taken over within a minute.
* Each row's failure is its own. A refusal of its address (5.1.x to its recipient, while the
  relay takes other mail) is parked at once with the relay's reason and noted as evidence
  (play.mail.relayrefusals: two separate days mute the address). Any other refusal is the relay's
  trouble (a 5.7.x policy refusal, a 5xx without a code, every recipient of a batch refused):
  no seat is muted, an operator is told (a log line, /metrics), and the row, like any other
  failure, goes back to `pending` with the next delay of the retry schedule and is parked when
  the schedule is used up (`flask outbox`, the dev outbox page). When the relay cannot be
  reached at all, the batch's other rows are not tried: they fail the same way and wait for
  their next try.
* While rows wait for a retry, each sweep probes the relay with them one at a time (a probe
  that fails costs the row no attempt) until one goes through, when all the waiting rows go,
  or the relay still fails: mail flows within a sweep of the relay answering again. A row
  whose own address is refused says nothing about the relay: the probe goes on to the next.
* Each row is marked sent in its own commit as soon as the relay's answer to it is in, and
  before the next email goes over: a worker killed with kill -9 has at most the one email in
  flight unmarked (sent again when its claim lapses; SMTP cannot tell us the relay already
  has it).
* A Message-ID names one rendering. Each claim composes the row's email anew (the game, its
  clocks and result, and the links signed as they are then), so each claim counts one
  rendering (`renderings`) and the n-th goes as `<message_id>.<n>` (play.notify.rendering_id),
  dated when composed. Sending the first bytes again instead would mean writing every email
  to the database before it goes, for the rare send in doubt; a second rendering is another
  message, and a client must not take one for the other (a "Your move" kept in place of a
  "Game over" composed later). A reply to, or a bounce of, any rendering finds its row. Marking is retried through a database blip, so a message
  that went out is not sent again; the relay's answer ("queued as ...") is kept with each row.
* GROUP rows at a time are loaded in one short transaction of four statements, whatever
  their number: the rows, which addresses bounced, the games with their seats, the news.
  Their emails (the picture, templates, CSS) are composed after it, so a batch holds no
  lock while drawing.
* The relay's answer to an email is read, and its row marked, on a thread of the batch while
  the next email is composed, and that one is handed over only once it is done (the relay
  takes one in, and the database commits it, while the next is composed); a row counts as
  sent, and is marked, only once its answer says the relay took it.
* A webhook delivery (service.play.webhooks) is a row like the others, claimed, retried,
  parked and held for quiet hours the same way; it is posted to its endpoint instead of handed
  to the relay, so its failure is its endpoint's, never the relay's: no outage is noted, no
  probe is made with it, and a bounced address does not stop it.
* An erased player's goodbye (FORGOTTEN_ONCE_SENT) is deleted, not marked, once sent or given
  up on, and a refusal of its address is not kept as evidence: nothing of the address stays.
"""
from __future__ import annotations

import contextvars
import logging
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import cache, partial
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    delete,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from tenacity import RetryCallState

from service.display import boardpicture
from service.hooks import HookFailed
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.compose import (
    NOTE_KINDS,
    Envelope,
    compose_note,
    compose_notice,
    compose_turn,
)
from service.mailwire.outbound.templating import precompile
from service.mailwire.outbound.transports import (
    Handover,
    RelayUnreachable,
    SendFailed,
    SendRefused,
    hand_over,
)
from service.play import aftercommit, notify, repository, webhooks
from service.play.moves import notes, standingplans
from service.play.reads import forcedmoves, seatpage, waiting
from service.play.services import Services
from service.play.time import calendar, mailholds
from service.store import eventstore, records
from service.store.db import StatementLine
from service.store.models import OutboxRow, Player
from service.store.statuses import OutboxStatus
from service.telemetry import logcontext

from . import bounces, letters, relayrefusals, retry

log = logging.getLogger(__name__)
CLAIM_TIMEOUT = timedelta(seconds=60)
HEARTBEAT_SECONDS = 20.0
#: Pauses between tries to mark a sent row sent, through a database restart (about 2 min).
MARK_SENT_PAUSES = (0.2, 0.5, 1, 1, 2, 2, 4, 4, 8, 8, 15, 15, 15, 15, 15, 15)
#: Pauses between tries to load a batch's rows through a database restart (about 40 s,
#: inside the claims' minute).
LOAD_PAUSES = (0.2, 0.5, 1, 2, 4, 8, 8, 8, 8)
#: Rows claimed, sent and marked together; of them, rows loaded together. Loaded one by one,
#: a row cost four statements (two thirds of an email's time outside composing and sending, on
#: PostgreSQL); ten together cost the same four. A group's first email waits for the group.
BATCH = 50
GROUP = 10
RELAY = "mail relay"
#: rows deleted once sent, or once given up on, rather than kept: an erased player's goodbye
#: (its address was to stay only until it was sent; service.play.players.erasure)
FORGOTTEN_ONCE_SENT = frozenset({"goodbye"})


_OUTBOX = OutboxRow.__table__.c


def _claimable(early: bool = False, c=_OUTBOX):
    """Rows a worker may take: pending and due (`early`: due or not), or claimed by a worker
    whose claim has lapsed. Its times are parameters (`_times`), so the statements that use
    it are built once. `c`: the columns it reads (the outbox's, or a CTE's of them)."""
    return or_(_waiting(early, c), _lapsed(c))


def _waiting(early: bool = False, c=_OUTBOX):
    """Pending rows that are due (`early`: due or not)."""
    waiting = c.status == OutboxStatus.PENDING
    if early:
        return waiting
    return and_(waiting, c.next_try <= bindparam("now", type_=_OUTBOX.claimed_at.type))


def _lapsed(c=_OUTBOX):
    """Rows whose worker's claim has lapsed (it died, or lost the database, mid-batch)."""
    return and_(c.status == OutboxStatus.SENDING,
                c.claimed_at < bindparam("stale", type_=_OUTBOX.claimed_at.type))


def _times(now: datetime) -> dict[str, datetime]:
    return {"now": now, "stale": now - CLAIM_TIMEOUT}


def due(session: Session, now: datetime, limit: int = 500) -> list[int]:
    return list(session.scalars(_DUE, {**_times(now), "limit": limit}))


_DUE = (select(_OUTBOX.id).where(_claimable())
        .order_by(_OUTBOX.id).limit(bindparam("limit")))


def claim(session: Session, row_id: int, now: datetime, token: str = "",
          early: bool = False) -> bool:
    return claim_batch(session, [row_id], now, token, early=early) == [row_id]


def claim_batch(session: Session, row_ids: list[int], now: datetime, token: str, *,
                fill: int = 0, early: bool = False) -> list[int]:
    """Claim those of `row_ids` that are claimable and, with `fill`, up to that many other
    rows, lapsed claims first, then the rows due longest (those that fell due at the same
    moment in no set order: a tie broken by id would sort a whole burst, which fell due at
    once, at every claim), in one UPDATE. Returns the ids claimed: those asked for in the
    order asked, then the others. On PostgreSQL a row another worker is claiming this moment
    is skipped rather than waited for."""
    if not row_ids and not fill:
        return []
    statement = _claim_statement(bool(fill), early,
                                 session.get_bind().dialect.name == "postgresql")
    claimed = session.execute(statement, {"ids": list(row_ids), "fill": fill,
                                          "n": len(row_ids) + fill, "token": token or None,
                                          **_times(now)}).scalars()
    order = {row_id: k for k, row_id in enumerate(row_ids)}
    return sorted(claimed, key=lambda row_id: (order.get(row_id, len(order)), row_id))


@cache
def _claim_statement(fill: bool, early: bool, postgres: bool):
    """The claim's UPDATE for one shape, built once with its values as parameters (ids,
    fill, n, token, and `_times`): a worker's task of two rows claims with it, and building
    it anew each time cost more CPU than the database spent running it.

    Each part is read along the index it needs, never by the planner's guess at how many
    rows are due. The outbox is mostly sent rows, so its statistics put the due rows at
    about none, however many a burst leaves waiting: with 10,000 due, a pick ordered "asked
    first" sorted them all, and an UPDATE that checked again what it updates read them all
    once for each row claimed (60-70 ms of the database's CPU at each of the fan-out's
    5,000 claims; issue 53). So the rows asked for are found by their key (then checked,
    locked as they are), the others by the due index in its order, only as far as the batch
    needs (lapsed claims, then the pending rows due longest), and the UPDATE takes the picked
    rows by their key: locked since they were picked, they are as the pick saw them."""
    def locked(pick):
        # a row another worker is claiming this moment is skipped, not waited for
        return pick.with_for_update(skip_locked=True) if postgres else pick

    asked = _OUTBOX.id.in_(bindparam("ids", expanding=True))
    own = locked(select(_OUTBOX.id, _OUTBOX.status, _OUTBOX.next_try, _OUTBOX.claimed_at)
                 .where(asked)).cte("own")
    mine = select(own.c.id, literal(0).label("place")).where(_claimable(early, own.c))
    if fill:
        # not the rows asked for (told by `own`: the ids' bind again, negated, would be
        # rendered for an empty list as the negation's "true" in both places)
        others = _OUTBOX.id.not_in(select(own.c.id))
        lapsed = locked(select(_OUTBOX.id, literal(1).label("place"))
                        .where(_lapsed(), others).limit(bindparam("fill"))).cte("lapsed")
        waiting = locked(select(_OUTBOX.id, literal(2).label("place"))
                         .where(_waiting(early), others).order_by(_OUTBOX.next_try)
                         .limit(bindparam("fill"))).cte("waiting")
        parts = union_all(mine, *(select(part.c.id, part.c.place) for part in (lapsed, waiting))
                          ).subquery("parts")
        # (the rows asked for and the waiting ones come to n at most: only lapsed claims
        # beyond it are left, unclaimed)
        picked = (select(parts.c.id).order_by(parts.c.place)
                  .limit(bindparam("n")).cte("picked"))
    else:
        picked = mine.cte("picked")
    # the picked rows, a CTE: evaluated once (as a plain IN (subquery) PostgreSQL may run it
    # again for each row it updates)
    return (update(OutboxRow.__table__)
            .where(_OUTBOX.id.in_(select(picked.c.id)))
            .values(status=OutboxStatus.SENDING,
                    claimed_at=bindparam("now", type_=_OUTBOX.claimed_at.type), claim=bindparam("token"),
                    # each claim composes the email anew: a rendering of its own, under a
                    # Message-ID of its own (notify.rendering_id)
                    renderings=_OUTBOX.renderings + 1)
            .returning(_OUTBOX.id))


class Heartbeat:
    """Renews a batch's claims every HEARTBEAT_SECONDS while it runs."""

    def __init__(self, svc: Services, row_ids: list[int], token: str):
        self.svc, self.row_ids, self.token = svc, row_ids, token
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True,
                                        name=f"outbox-heartbeat-{row_ids[0]}")

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            try:
                with self.svc.db.autocommit() as session:
                    session.execute(update(OutboxRow).where(
                        OutboxRow.id.in_(self.row_ids), OutboxRow.claim == self.token,
                        OutboxRow.status == OutboxStatus.SENDING)
                    .values(claimed_at=self.svc.clock.now()))
            except DBAPIError:
                pass    # the database is away: marking the rows will say so, once


def deliver(svc: Services, row_ids: list[int], *, fill: bool = False,
            early: bool = False, whole_batch: Callable[[], None] | None = None
            ) -> dict[int, str]:
    """Send these outbox rows, BATCH at a time. Returns what happened to each: sent |
    skipped (not claimable: sent already, claimed by another, or its address bounced) |
    retry | parked | waiting (`early`: a probe's row that still could not go).

    `fill`: also take other rows that are due, up to a whole batch (a worker's task of two
    rows sends whatever else is waiting too, so under a burst the batches grow and the tasks
    behind find their rows sent: one claim, one connection, one mark for many).
    `early`: rows waiting for their next try go now (the probe's).
    `whole_batch`: called once a claim has taken a whole batch, before its emails are
    composed (rows may still be due behind it: a worker's task asks for the next task then,
    so that another worker takes them while this one sends; workers.delivergate)."""
    results: dict[int, str] = {}
    chunks = [row_ids[k:k + BATCH] for k in range(0, len(row_ids), BATCH)]
    for chunk in chunks or ([[]] if fill else []):
        results.update(_batch(svc, chunk, BATCH - len(chunk) if fill else 0, early,
                              whole_batch))
    for result in results.values():
        if result != "skipped":
            svc.note("email", event={"retry": "retried"}.get(result, result))
    if results:
        log.info("outbox delivery: %s", summary(results))
    return results


def summary(results: dict[int, str]) -> str:
    """What happened to a delivery's rows, for an operator's log: the row ids by outcome
    ("sent [1, 2, 3]; retry [4]"), one line however large the batch."""
    by_outcome: dict[str, list[int]] = {}
    for row_id, outcome in results.items():
        by_outcome.setdefault(outcome, []).append(row_id)
    return "; ".join(f"{outcome} {sorted(ids)}" for outcome, ids in by_outcome.items())


def deliver_one(svc: Services, row_id: int, *, probe: bool = False) -> str:
    """Send one outbox row (a batch of one). A probe sends a row before its next try, to see
    whether the relay answers again."""
    return _batch(svc, [row_id], 0, probe)[row_id]


def _batch(svc: Services, row_ids: list[int], fill: int, early: bool,
           whole_batch: Callable[[], None] | None = None) -> dict[int, str]:
    token = secrets.token_hex(8)
    batch = _Sending(svc, token, probe=early)
    with svc.db.transaction() as session:
        claimed = claim_batch(session, row_ids, svc.clock.now(), token, fill=fill, early=early)
        # the first group is loaded in the claim's own unit of work (issue 53: a task of one
        # email was two, a pool checkout, a ping, BEGIN and COMMIT more); a database error
        # takes the claim back with it, and the task's retry or the sweep sends the rows
        first = batch.load_claimed(session, claimed[:GROUP]) if claimed else {}
    results = {row_id: "skipped" for row_id in row_ids}
    if not claimed:
        return results
    if whole_batch is not None and len(claimed) >= BATCH:
        try:
            whole_batch()
        except Exception:  # noqa: BLE001 - asking for more must never cost the claimed rows
            log.exception("asking for the next delivery failed (the sweep sends what is due)")
    # the executor ends (its thread joined) before the marks' connection goes back
    with Heartbeat(svc, claimed, token), closing(svc.db.line()) as marks, \
            ThreadPoolExecutor(1, thread_name_prefix="outbox-mark") as marking:
        batch.marking, batch.marks = marking, marks
        try:
            for k in range(0, len(claimed), GROUP):
                results.update(batch.deliver(claimed[k:k + GROUP], first if k == 0 else None))
        finally:
            results.update(batch.answers())
            results.update(batch.settle_refusals())
    return results


class _Sending:
    """One batch's rows, one after the other: loaded (GROUP rows together), composed, handed
    to the relay, marked sent once the relay's answer is in.

    The relay's answer to an email is read, and its row marked sent (a commit of its own),
    by the `marking` thread while this one composes the next email, which goes over only once
    that is done (`answers`): the relay reading an email in, its answer and the commit all
    cost the batch no time beside composing, and a kill leaves at most one email sent but
    not marked. An answer that is not "taken" makes its row retry as before."""

    def __init__(self, svc: Services, token: str, probe: bool,
                 marking: ThreadPoolExecutor | None = None):    # None: for loading alone
        self.svc, self.token, self.probe, self.marking = svc, token, probe, marking
        # the marking thread's connection, kept for the batch's marks (Database.line)
        self.marks: StatementLine | None = None
        # row id -> (game, seat): what the log lines of its composing and sending are about
        self.about: dict[int, tuple[int | None, int | None]] = {}
        self.to: dict[int, str] = {}            # row id -> its address, lower case
        # rows deleted once sent, rather than marked (FORGOTTEN_ONCE_SENT)
        self.forget: set[int] = set()
        # webhook deliveries, posted to their endpoints: the relay being away is not theirs
        self.posted: set[int] = set()
        self.unreachable: SendFailed | None = None
        # the last email handed over: its answer read and its row marked (or failed) there
        self.settling: Future[dict[int, str]] | None = None
        self.took_any = False                   # the relay took an email of this batch
        # refusals of an address, told at the batch's end (settle_refusals)
        self.refused: list[tuple[int, SendRefused]] = []

    def load_claimed(self, session: Session, group: list[int]
                     ) -> dict[int, tuple | Exception | None] | Exception:
        """The group's drafts, loaded in the transaction that claimed its rows; a bug loading
        them is returned, to fail each row as `deliver` fails them, and a database error
        raised, to take the claim back with the rest of the transaction."""
        try:
            return self._load_in(session, group)
        except DBAPIError:
            raise
        except Exception as exc:   # noqa: BLE001 - a bug loading the rows: each row retries
            return exc

    def deliver(self, group: list[int], loaded: dict | Exception | None = None
                ) -> dict[int, str]:
        """What happened to the group's rows, and to the row handed over before each; the
        last one handed over is told by a later call or `answers`. `loaded`: the group's
        drafts, when `load_claimed` loaded them already."""
        results: dict[int, str] = {}
        if self.unreachable is not None:
            for row_id in group:
                results.update(self._send(row_id, None))
            return results
        try:
            if isinstance(loaded, Exception):
                raise loaded
            drafts = loaded if loaded is not None else self._load_through_blips(group)
        except DBAPIError:
            # the database stayed away: the rows keep their claims, which lapse within
            # CLAIM_TIMEOUT, and the next sweep sends them (nothing to write down meanwhile)
            return {row_id: "waiting" for row_id in group}
        except Exception as exc:   # noqa: BLE001 - a bug loading the rows: each row retries
            for row_id in group:
                results.update(self._failed(row_id, exc))
            return results
        for row_id in group:
            results.update(self._send(row_id, drafts[row_id]))
        return results

    def answers(self) -> dict[int, str]:
        """What happened to the email handed over last, once its answer is read and written
        down (waiting for that): sent, or failed as the answer says."""
        settling, self.settling = self.settling, None
        return settling.result() if settling is not None else {}

    def _settle(self, row_id: int, handover: Handover) -> dict[int, str]:
        with logcontext.about(*self.about.get(row_id, (None, None))):
            try:
                relay_id = handover.answer()
            except Exception as exc:   # noqa: BLE001 - as a failure to send it
                return self._failed(row_id, exc)
            return {row_id: self._taken(row_id, relay_id)}

    def settle_refusals(self) -> dict[int, str]:
        """The batch's refusals of an address, once the batch is over: each is about its
        address when the relay took other mail of the batch or refused just this address;
        several addresses refused and nothing taken is the relay's trouble (its recipient
        check gone wrong), and those rows wait like any other failure."""
        relay_wide = not self.took_any and len({self.to.get(r) for r, _ in self.refused}) > 1
        results: dict[int, str] = {}
        for row_id, exc in self.refused:
            with logcontext.about(*self.about.get(row_id, (None, None))):
                results[row_id] = _failed(self.svc, row_id, self.token, exc, self.probe,
                                          relay_wide=relay_wide)
        self.refused = []
        return results

    def _load_through_blips(self, group: list[int]) -> dict[int, tuple | Exception | None]:
        """A database restart mid-batch: try again for a while (the heartbeat keeps the
        claims), saying once that the database is away and once that it is back, instead
        of a traceback per row and an email that waits for its claim to lapse."""
        def away(state: RetryCallState) -> None:
            self.svc.outages.failed("database", f"{type(state.outcome.exception()).__name__} "
                                    f"loading outbox rows {group}; trying again")

        try:
            for attempt in retry.after_pauses(LOAD_PAUSES, _database_away, away):
                with attempt:
                    drafts = self._load(group)
        except DBAPIError:
            log.warning("outbox rows %s wait for their claims to lapse: the database is away",
                        group)
            raise
        self.svc.outages.ok("database")
        return drafts

    def _load(self, group: list[int]) -> dict[int, tuple | Exception | None]:
        with self.svc.db.transaction() as session:
            return self._load_in(session, group)

    def _load_in(self, session: Session, group: list[int]
                 ) -> dict[int, tuple | Exception | None]:
        """Each row's (compose, bounce address), None when its address bounced since it was
        queued (skipped), or what went wrong loading it."""
        drafts: dict[int, tuple | Exception | None] = {}
        # each row with the seq its news start after (notify.since), in one statement
        rows, after = {}, {}
        for row, since in session.execute(_ROWS_WITH_SINCE, {"ids": group}):
            rows[row.id], after[row.id] = row, since
        games, news = _games_and_news(session, self.svc.states, list(rows.values()), after)
        # a turn email's reader is a seat's player, whose record the group's games carry
        dead = bounces.unmailable(session, (r.to_addr for r in rows.values()),
                                  players=(s.player for g in games.values() for s in g.seats))
        live = [r for r in rows.values() if r.to_addr.lower() not in dead]
        desk = _desk(session, live, games)
        for row_id in group:
            row = rows[row_id]
            # a webhook is not mail: a bounced address does not stop it
            if row.to_addr.lower() in dead and row.kind != webhooks.KIND:
                if row.kind in FORGOTTEN_ONCE_SENT:
                    session.delete(row)
                else:
                    row.status, row.claim = OutboxStatus.SKIPPED, None
                drafts[row_id] = None
                continue
            if row.kind in FORGOTTEN_ONCE_SENT:
                self.forget.add(row_id)
            if row.kind == webhooks.KIND:
                self.posted.add(row_id)
            self.about[row_id] = row.game_id, row.seat
            self.to[row_id] = row.to_addr.lower()
            try:
                told = news.get(row.game_id)
                if told is not None:    # this row's own slice of its game's news
                    told = [r for r in told if after[row_id] < r.seq <= row.seq]
                with logcontext.about(row.game_id, row.seat):
                    draft = prepare(session, self.svc, row, games, after[row_id],
                                    news=told, desk=desk)
                drafts[row_id] = draft, self.svc.urls.bounce_address(row.message_id)
            except DBAPIError:
                raise                   # the transaction is gone: the whole group retries
            except Exception as exc:   # noqa: BLE001 - a template or rules bug: this row's
                drafts[row_id] = exc
        return drafts

    def _send(self, row_id: int, draft: tuple | Exception | None) -> dict[int, str]:
        # the rows of a group are loaded together, then composed and sent one by one: each
        # row's lines name its own game and seat, not the group's last
        with logcontext.about(*self.about.get(row_id, (None, None))):
            return self._send_now(row_id, draft)

    def _send_now(self, row_id: int, draft: tuple | Exception | None) -> dict[int, str]:
        """What happened to the row (nothing yet when its answer is owed), and to the row
        handed over before it, whose answer is read before this one goes over."""
        if self.unreachable is not None and row_id not in self.posted:
            # no connection could be made for an earlier row: this one would fail the same
            # way (after the same timeout); it waits for its next try like that one
            return self._failed(row_id, self.unreachable)
        if draft is None:
            return {row_id: "skipped"}
        try:
            if isinstance(draft, Exception):
                raise draft
            compose, bounce = draft
            msg = compose()
            if isinstance(msg, webhooks.Delivery):
                return self.answers() | self._post(row_id, msg)
            msg["Return-Path"] = f"<{bounce}>"
        except Exception as exc:   # noqa: BLE001 - a template or rules bug: this row retries
            return self._failed(row_id, exc)
        # the last email's answer, and its mark, before this one goes: only one email is
        # ever with the relay and not marked sent
        results = self.answers()
        try:
            handover = hand_over(self.svc.transport, msg)
        except Exception as exc:   # noqa: BLE001 - any failure to send it retries
            if isinstance(exc, RelayUnreachable):
                self.unreachable = exc
            return results | self._failed(row_id, exc)
        # read and marked while the next email is composed (with this one's log context)
        self.settling = self.marking.submit(contextvars.copy_context().run, self._settle,
                                            row_id, handover)
        return results

    def _post(self, row_id: int, delivery: webhooks.Delivery) -> dict[int, str]:
        """A webhook delivery, posted now (at most webhooks' 5 s): sent, or failed as any row
        fails, its endpoint's trouble and not the relay's."""
        try:
            answer = webhooks.post(self.svc, delivery)
        except HookFailed as exc:
            return {row_id: _failed(self.svc, row_id, self.token, exc, self.probe)}
        _mark_sent(self.svc, {row_id: answer}, release_holds=False)
        webhooks.went_through(self.svc, delivery.hook_id)
        return {row_id: "sent"}

    def _taken(self, row_id: int, relay_id: str) -> str:
        self.svc.outages.ok(RELAY)
        self.took_any = True
        _mark_sent(self.svc, {row_id: relay_id}, forget=row_id in self.forget,
                   line=self.marks)
        return "sent"

    def _failed(self, row_id: int, exc: Exception) -> dict[int, str]:
        if isinstance(exc, SendRefused) and exc.about_address:
            self.refused.append((row_id, exc))     # told when the batch is over
            return {}
        return {row_id: _failed(self.svc, row_id, self.token, exc, self.probe)}


def _games_and_news(session: Session, states: repository.StateCache, rows: list[OutboxRow],
                    after: dict[int, int]
                    ) -> tuple[dict[int, Any], dict[int, list[eventstore.Recorded]]]:
    """The turn emails' games (with seats and players) and, per game, the events from the
    earliest news any of its rows tells to the latest position any shows: two statements,
    and one more for the snapshots of the games that need one.

    Each game is folded here too, into the state cache, to each position its rows show, from
    the same read of events: it reaches back to where the fold starts (the cache's state,
    else the newest snapshot) when that is before the news, so `prepare` finds the state
    cached and reads nothing more. Loaded a row at a time, a game far into play read its
    snapshot and its events again, two statements a game (issue 53)."""
    turns = [r for r in rows if r.game_id is not None and r.kind not in letters.KINDS
             and r.kind != webhooks.KIND]
    games = records.read_many(session, {r.game_id for r in turns})
    spans: dict[int, tuple[Any, int, int]] = {}
    shown: dict[int, tuple[Any, list[int]]] = {}        # the positions each game's rows show
    for r in turns:
        game = games.get(r.game_id)
        if game is None:
            continue                # prepare says so, for this row alone
        _, low, high = spans.get(r.game_id, (game, after[r.id], r.seq))
        spans[r.game_id] = (game, min(low, after[r.id]), max(high, r.seq))
        shown.setdefault(r.game_id, (game, []))[1].append(r.seq)
    starts = repository.fold_starts(session, states, {gid: (game, min(seqs))
                                                      for gid, (game, seqs) in shown.items()})
    for gid, (base, _) in starts.items():
        game, low, high = spans[gid]
        spans[gid] = (game, min(low, base), high)
    news = eventstore.load_ranges(session, spans)
    repository.fold_ahead(session, states, shown, starts, news)
    return games, news


# a group's rows, each with the seq its news start after (built once: per call, it cost more
# than running it)
_ROWS_WITH_SINCE = select(OutboxRow, notify.SINCE).where(
    OutboxRow.id.in_(bindparam("ids", expanding=True)))

#: a row marked sent, with whether its seat is held for want of mail (the email reaching it
#: releases the hold): one statement, where the mark and the question were two
_MARK_SENT = (update(OutboxRow.__table__)
              .where(_OUTBOX.id == bindparam("row_id"), _OUTBOX.status != OutboxStatus.SENT)
              .values(status=OutboxStatus.SENT, sent_at=bindparam("at"), last_error=None,
                      claim=None, relay_id=bindparam("answer"))
              .returning(_OUTBOX.game_id, _OUTBOX.seat, mailholds.seat_held().label("held")))


def _mark_sent(svc: Services, sent: dict[int, str], *, forget: bool = False,
               release_holds: bool = True, line: StatementLine | None = None) -> None:
    """The messages went out: record it (a statement a row, each its own commit), through a
    database restart if need be. Until it is recorded the heartbeat keeps the claims, so the
    rows are not taken over and sent again. `forget`: the rows are deleted instead (an
    erased player's goodbye: its address was to be kept only until it was sent).
    `release_holds`: False for a webhook delivery, which is no email reaching the seat.
    `line`: the batch's connection for its marks (else one is taken for these)."""
    now = svc.clock.now()
    params = [{"row_id": row_id, "at": now, "answer": str(answer or "")[:200] or None}
              for row_id, answer in sent.items()]
    def away(state: RetryCallState) -> None:
        svc.outages.failed("database", f"{type(state.outcome.exception()).__name__} marking "
                           f"outbox rows {sorted(sent)} sent; retrying")

    with closing(svc.db.line()) if line is None else nullcontext(line) as marks:
        try:
            for attempt in retry.after_pauses(MARK_SENT_PAUSES, _database_away, away):
                with attempt:
                    if forget:
                        marks.execute(delete(OutboxRow).where(OutboxRow.id.in_(list(sent))))
                        held = []
                    else:
                        # a seat held for want of mail among the recipients, told by the
                        # mark itself (no second statement per email to ask)
                        marked = [row for one in params
                                  for row in marks.execute(_MARK_SENT, one)]
                        held = sorted({(m.game_id, m.seat) for m in marked
                                       if m.held}) if release_holds else []
                    svc.outages.ok("database")
                    mailholds.release_held(svc, held)   # their clocks run again
        except DBAPIError:
            log.error("outbox rows %s were sent but could not be marked sent", sent)


def _database_away(exc: BaseException) -> bool:
    """The errors the relay waits out: the database's, through its driver."""
    return isinstance(exc, DBAPIError)


def render(session: Session, svc: Services, row: OutboxRow) -> EmailMessage:
    """The email of one outbox row: the seat's position at the row's `seq`, with the news
    since the seat's previous turn email."""
    with logcontext.about(row.game_id, row.seat):
        return prepare(session, svc, row)()


@dataclass(frozen=True)
class Desk:
    """What a group's emails say of their readers' desks (issue 50), read for the group in
    two statements: each reader's games waiting on them, the notes on the group's games (none
    when their games' read says no note is kept on them)."""

    waiting: dict[int, waiting.Shortlist]
    notes: dict[tuple[int, int, int], list[str]]


def _desk(session: Session, rows: list[OutboxRow], games: dict[int, Any]) -> Desk:
    in_games = {r.game_id for r in rows if r.game_id is not None and r.kind not in letters.KINDS}
    # the readers alone: a game's other seats get emails of their own, with their own desks
    readers = {s.player_id for r in rows if r.game_id in in_games and r.game_id in games
               for s in games[r.game_id].seats if s.seat == r.seat}
    # the notes of the games that have any (their read says so: most have none)
    noted = {g for g in in_games if getattr(games.get(g), "noted", True)}
    return Desk(waiting.shortlists(session, readers - {None}, in_games),
                notes.shown_many(session, noted))


def prepare(session: Session, svc: Services, row: OutboxRow,
            games: dict[int, Any] | None = None, since: int | None = None,
            news: list[eventstore.Recorded] | None = None,
            desk: Desk | None = None) -> Callable[[], EmailMessage]:
    """Load what the email of one outbox row shows; the returned call composes it (without
    the database, so it may run after the transaction). `games`: the games read already
    in this transaction, by id (a group's rows share theirs); `since`: the row's
    notify.since, when read with the row; `news`: its events after `since` up to its `seq`,
    when read with the group's."""
    # dated as composed, not as queued: a row held for quiet hours or retried goes out with
    # the time it was written (RFC 5322's Date: when the message was ready to go)
    envelope = Envelope(notify.rendering_id(row.message_id, row.renderings), row.to_addr,
                        svc.from_name, svc.clock.now())
    if row.kind == webhooks.KIND:
        return webhooks.prepare(session, svc, row)
    if row.kind in letters.KINDS or row.game_id is None:
        # in the language of the address's player; a sign-in for an address that is no
        # player yet, in the one its browser asked for (its payload)
        envelope = replace(envelope, language=catalogs.chosen(
            _language_of(session, row.to_addr) or (row.payload or {}).get("language")))
    if row.kind in letters.KINDS:
        with catalogs.speaking(envelope.language):       # a letter's words made here too
            letter = letters.render(session, svc, row, envelope)
        return lambda: letter
    if row.game_id is None:   # a notice outside any game, or an invitation to take a seat
        p = row.payload or {}
        return partial(compose_notice, svc.templates, svc.urls, envelope, why=p.get("why", ""),
                       subject=p.get("subject", ""), in_reply_to=p.get("in_reply_to"),
                       kind="invite" if row.kind == "invite" else "notice")
    # the game, its seats and players as plain records, in one statement (service.store.records)
    game = games.get(row.game_id) if games is not None else None
    if game is None:
        game = records.read_one(session, row.game_id)
        if games is not None:
            games[row.game_id] = game
    # the news, read first: a worker that has not seen the game folds its position from them
    # (when they reach back to its start or to the cached state) rather than read them twice
    if since is None:
        since = notify.since(session, row)
    if news is None:
        news = eventstore.load(session, game, after=since, upto=row.seq)
    pos = repository.load(session, svc.states, row.game_id, upto=row.seq, row=game, known=news)
    # the table is told when mail to one of them bounced (they get nothing any more)
    bounced = [s.player.name for s in game.seats if s.player.bounced_at is not None]
    names = [s.player.name for s in game.seats]
    forced = forcedmoves.told(pos.engine, news, row.seat, names)
    hints = standingplans.hints(pos.engine, pos.state, row.seat, names)
    news = [(r.seq, r.event) for r in news]
    page = seatpage.build(game, pos, row.seat, svc.clock.now(), news=news)
    links = svc.urls.for_seat(game.id, row.seat, page.mark, page.holder)
    reader = next((s.player for s in game.seats if s.seat == row.seat), None)
    envelope = replace(envelope, language=catalogs.chosen(getattr(reader, "language", None)))
    compose = compose_note if row.kind in NOTE_KINDS else compose_turn
    holder = next((s.player_id for s in game.seats if s.seat == row.seat), None)
    # the player's other games waiting on them, counted now (issue 50): a turn email only;
    # and the notes its reader keeps on this game (theirs alone)
    if desk is None:
        desk = Desk(waiting.shortlists(session, {holder} - {None}, {game.id}),
                    notes.shown_many(session, {game.id}))
    shortlist = desk.waiting.get(holder)
    elsewhere = shortlist.line(game.id) if shortlist and compose is compose_turn else None
    mine = desk.notes.get((game.id, row.seat, holder), []) if row.seat is not None else []
    return partial(compose, svc.templates, page, links, envelope,
                   extra=dict(row.payload or {}, kind=row.kind, bounced=bounced, forced=forced,
                              plan_hints=hints, elsewhere=elsewhere, notes=mine,
                              me_url=svc.urls.absolute("/me")))


def _language_of(session: Session, address: str) -> str | None:
    """The language the player of an address chose (None: no player, or none chosen)."""
    return session.scalar(select(Player.language).where(Player.email == address))


def _failed(svc: Services, row_id: int, token: str, exc: Exception, probe: bool, *,
            relay_wide: bool = False) -> str:
    try:
        return _note_failure(svc, row_id, token, exc, probe, relay_wide)
    except DBAPIError as db_exc:
        # the database left too: the row keeps its claim, which lapses, and is tried again
        svc.outages.failed("database", f"{type(db_exc).__name__} noting why outbox row "
                           f"{row_id} failed; it is tried again when its claim lapses")
        return "waiting"


def _note_failure(svc: Services, row_id: int, token: str, exc: Exception, probe: bool,
                  relay_wide: bool) -> str:
    address = isinstance(exc, SendRefused) and exc.about_address and not relay_wide
    if isinstance(exc, SendRefused):
        reason = str(exc)
        svc.note("relay_refusal", about="address" if address else "relay")
        if not address:
            why = "every recipient of a batch" if relay_wide else "not about the address"
            svc.outages.failed(RELAY, f"it refuses our mail ({why}): {reason}; the emails "
                               "wait and are tried again, no seat is muted")
    elif isinstance(exc, SendFailed):
        reason = str(exc)
        svc.outages.failed(RELAY, reason)
    elif isinstance(exc, (HookFailed, webhooks.HookGone)):
        reason = str(exc)       # its endpoint's trouble, not the relay's
        log.warning("webhook delivery %s failed: %s", row_id, reason[:300])
    else:
        reason = f"{type(exc).__name__}: {exc}"
        log.exception("outbox row %s could not be rendered or sent", row_id)
    with svc.db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        if row.status != OutboxStatus.SENDING or row.claim != token:
            # our claim lapsed and another worker took the row over (and maybe sent it); a
            # late failure here must not undo that
            return "skipped"
        row.claimed_at, row.claim = None, None
        row.last_error = reason[:2000]
        if address:
            return _refused(session, svc, row, reason)
        if isinstance(exc, webhooks.HookGone):
            row.status = OutboxStatus.SKIPPED       # deleted or switched off since queued
            return "skipped"
        if isinstance(exc, HookFailed) and webhooks.failed(session, row, reason,
                                                           svc.clock.now()):
            row.attempts += 1
            row.status = OutboxStatus.PARKED        # the hook is off: no more tries
            return "parked"
        if probe and isinstance(exc, SendFailed):
            row.status = OutboxStatus.PENDING     # the relay is still away; the row keeps its time
            return "waiting"
        return _retry_later(svc, session, row)


def _retry_later(svc: Services, session: Session, row: OutboxRow) -> str:
    schedule = svc.retry_schedule
    row.attempts += 1
    if row.attempts > len(schedule):
        if row.kind in FORGOTTEN_ONCE_SENT:
            session.delete(row)        # given up: nothing is kept of an erased address
        else:
            row.status = OutboxStatus.PARKED
        return "parked"
    row.status = OutboxStatus.PENDING
    row.next_try = svc.clock.now() + timedelta(seconds=schedule[row.attempts - 1])
    calendar.hold_retry(session, row)     # a retry inside quiet hours waits for their end
    return "retry"


def _refused(session: Session, svc: Services, row: OutboxRow, reason: str) -> str:
    """Its address refused: parked at once, and noted as evidence against the address (a
    second day of it mutes the address everywhere; the player can still play on the game
    page). No seat is muted for one refusal."""
    row.attempts += 1
    if row.kind in FORGOTTEN_ONCE_SENT:
        # an erased player's address: no evidence is kept of it, nor the row
        session.delete(row)
        return "parked"
    row.status = OutboxStatus.PARKED
    muted = relayrefusals.record(session, row.to_addr, reason, svc.clock.now())
    log.warning("outbox row %s to %s refused by the relay, parked%s: %s", row.id, row.to_addr,
                "; refused on two days, the address is muted" if muted else "", reason[:300])
    return "parked"


def probe(svc: Services) -> dict[int, str]:
    """While rows wait for a retry, try them now one at a time: when one goes through, send
    every waiting row; when one still fails for the relay's reasons, the rest wait. A row
    that fails for its own (its address refused, a bug composing it) says nothing about the
    relay: the next is tried. (A sweep runs every minute: mail flows within one of the
    relay's return.)"""
    with svc.db.transaction() as session:
        waiting = list(session.scalars(
            select(OutboxRow.id).where(OutboxRow.status == OutboxStatus.PENDING,
                                       OutboxRow.attempts > 0, OutboxRow.next_try > svc.clock.now(),
                                       # a webhook's endpoint says nothing about the relay
                                       OutboxRow.kind != webhooks.KIND)
            .order_by(OutboxRow.next_try, OutboxRow.id).limit(500)))
    tried: dict[int, str] = {}
    for k, row_id in enumerate(waiting):
        tried[row_id] = deliver_one(svc, row_id, probe=True)
        if tried[row_id] == "sent":
            return tried | deliver(svc, waiting[k + 1:], early=True)
        if tried[row_id] not in ("parked", "skipped", "retry"):
            break
    return tried


def requeue(svc: Services, row_ids: list[int]) -> list[int]:
    """An operator's retry of parked rows: back to pending, attempts reset, sent now (with,
    for a row whose refusal muted its seat, that seat's latest turn email: relayrefusals.unmute)."""
    done = []
    with svc.db.transaction() as session:
        for row_id in row_ids:
            row = session.get(OutboxRow, row_id)
            if row is not None and row.status == OutboxStatus.PARKED:
                row.status, row.attempts, row.next_try = OutboxStatus.PENDING, 0, svc.clock.now()
                done.append(row_id)
                done += relayrefusals.unmute(session, row, svc.clock.now())
        aftercommit.deliver(session, done)
    return done


def prepare_to_render(svc: Services) -> dict[str, int]:
    """Make this process ready to compose emails at full speed: every email template and game
    partial compiled, every card face drawn. A worker calls it before forking its children,
    which then share all of it; done lazily, each child spent its first few hundred
    milliseconds of sending on it."""
    return {"templates": precompile(svc.templates), "card_faces": boardpicture.warm_up()}

