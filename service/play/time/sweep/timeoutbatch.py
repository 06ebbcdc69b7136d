"""The clock sweep, a batch at a time: a few hundred due seats handled in one transaction, in a
constant number of statements, whatever the batch's size.

1. The batch's games are locked in id order (SELECT ... FOR UPDATE on PostgreSQL, the write
   lock of BEGIN IMMEDIATE on SQLite; a player's move and another sweeper lock the same rows),
   then their seats are read: every decision is taken on rows no one else can change.
2. The states of the games whose seat is still due (one claimed since it was found, by a move
   or another sweeper, is "moved" at once) come from the state cache, else in bulk: the newest
   snapshot of each game in one query and the events after it in one more
   (service.store.snapshots / events).
3. Each seat, in deadline order, is judged by the same `judge` (or `remind`) as the per-game
   path, and a timeout's move recorded by the same step (timeoutmove.played: the plans the
   batch read for its games in one statement dropped or played, the clocks, whose turn, the
   emails); `Batch` collects the rows the per-game path would write at once.
4. Everything is written with bulk inserts and updates: events first, so that a log position
   another writer took (the (game_id, seq) primary key) fails the batch before anything else.

A batch that fails for any reason is rolled back whole and `None` is returned: the caller then
goes seat by seat (service.play.time.sweep.timeouts.timeout), which re-checks each seat under its own lock
and isolates a game that fails. Either way each due seat has exactly one outcome."""
from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.play import aftercommit, notify, repository, webhooks
from service.play.moves import planplay
from service.play.repository import Position
from service.play.services import Services
from service.play.time import deadlines, vacationdays
from service.store import records, snapshots
from service.store.models import (
    EventRow,
    GameRow,
    OutboxRow,
    Plan,
    SeatChange,
    Submission,
)
from service.store.statuses import OutboxStatus

from . import timeoutmove

log = logging.getLogger(__name__)

# a game's row but its engine options (JSON the clocks never read)
GAME_READ = [c for c in GameRow.__table__.c if c.name != "options"]

Judge = Callable[..., str]

# the waiting plans of the games among parameter `ids` (planplay.WAITING); built once
_WAITING_PLANS = (select(Plan).where(Plan.game_id.in_(bindparam("ids", expanding=True)),
                                     planplay.WAITING).order_by(Plan.id))


def timeouts(svc: Services, due: list[tuple[int, int, datetime]], now: datetime, judge: Judge,
             outbox_ids: list[int]) -> list[str] | None:
    """Handle the due seats ((game_id, seat, deadline), in deadline order) in one transaction;
    each seat's outcome, or None when nothing was written (then go seat by seat)."""
    def work(batch: Batch) -> list[str]:
        batch.load([g for g, _, _ in due])
        # the plans a timeout's move drops or sets off (timeoutmove, as on the per-game
        # path), read under the games' lock, which a plan's writer takes too: read when the
        # seats were found, a plan written since would be left standing by the move that
        # ended it
        batch.read_plans()
        # a seat whose deadline moved since it was found (a move; another sweeper, or the
        # same shard run twice, was first) is `judge`'s "moved" at once: no state is read
        batch.load_states([g for g, s, d in due if _deadline(batch.games.get(g), s) == d])
        return [judge(batch, svc, batch.positions[g], s, d, now) if g in batch.positions
                else "moved" for g, s, d in due]
    return _run(svc, now, due, work, outbox_ids, "timeout")


def reminders(svc: Services, due: list[tuple[int, int, datetime]], now: datetime,
              remind: Callable[..., bool], outbox_ids: list[int]) -> int | None:
    """Send the due reminders ((game_id, seat, remind_at)) in one transaction: how many were
    sent, or None when nothing was written (then one by one)."""
    def work(batch: Batch) -> int:
        batch.load([g for g, _, _ in due])
        sent = 0
        for game_id, seat, remind_at in due:
            game = batch.games.get(game_id)
            row = next((r for r in game.seats if r.seat == seat), None) if game else None
            # the claim: a move or another sweeper since the seat was found leaves nothing
            if row is not None and row.remind_at == remind_at:
                row.remind_at = None
                sent += remind(batch, game, seat, now)
        return sent
    return _run(svc, now, due, work, outbox_ids, "reminder")


@contextmanager
def _uncollected():
    """No cycle collection while a batch runs: its thousand states and rows live until it
    ends, and every collection its allocations set off scanned them again. The collector is
    back once the batch is dropped (its rows hold no cycles: refcounting frees them)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run(svc: Services, now: datetime, due: list, work: Callable[[Batch], Any],
         outbox_ids: list[int], what: str) -> Any:
    with _uncollected():
        done = _one_transaction(svc, now, due, work, what)
    if done is None:
        return None
    result, ids = done
    outbox_ids.extend(ids)
    return result


def _one_transaction(svc: Services, now: datetime, due: list, work: Callable[[Batch], Any],
                     what: str) -> tuple[Any, list[int]] | None:
    try:
        with svc.db.transaction() as session:
            batch = Batch(session, svc, now)
            result = work(batch)
            ids = batch.write()
    except IntegrityError as exc:   # another writer took a position in a game's log
        log.info("%s batch of %d rolled back on a conflict (%s); going seat by seat", what,
                 len(due), str(exc.orig).splitlines()[0] if exc.orig else "")
        return None
    except Exception:  # noqa: BLE001 - the per-game path isolates the game that fails
        log.warning("%s batch of %d failed; going seat by seat", what, len(due),
                    exc_info=True)
        return None
    batch.committed()
    return result, ids


def _deadline(game: GameRow | None, seat: int) -> datetime | None:
    row = next((r for r in game.seats if r.seat == seat), None) if game else None
    return row.deadline if row is not None else None


class Batch:
    """The batch's games and states, and the rows their seats' outcomes call for. It is the
    `Out` of service.play.time.sweep.timeouts for the batch: what `Recorder` writes through the session
    one game at a time, this collects for bulk inserts."""

    def __init__(self, session: Session, svc: Services, now: datetime):
        self.session, self.svc, self.now = session, svc, now
        self.tracked = records.Tracked(session)
        self.games: dict[int, GameRow] = self.tracked.games
        self.positions: dict[int, Position] = {}
        self.events: list[dict] = []
        self.receipts: list[dict] = []
        self.outbox: list[dict] = []
        self.changes: list[dict] = []
        self.snapshots: list[tuple[int, int, str, Any]] = []
        self.ended: list[int] = []      # games ended here: their unsent notices are dropped
        self.states: dict[int, tuple[int, Any]] = {}  # cached once the batch commits
        self.days = vacationdays.DayTaker(session, svc, self.games)   # read once, if asked
        self.plans: dict[int, list[Plan]] = {}   # each game's waiting plans (`read_plans`)
        self.hooks: dict[int, list] = {}        # its players' webhooks, by player (`read_plans`)

    # --- reading --------------------------------------------------------------------------

    def load(self, game_ids: list[int]) -> None:
        """Lock the games, read them with their seats and players as plain records (not ORM
        objects, which cost more to build than the rest of a timeout: service.store.records;
        the rules in service.play.time.deadlines read and set the same attributes)."""
        # the lock first, in id order as every writer of several games takes it (a move, a
        # vacation, another sweeper); the seats are read after it, as they now stand
        self.tracked.lock_many(game_ids, GAME_READ)

    def read_plans(self) -> None:
        """The loaded games' waiting plans, in one statement (after `load` took their lock),
        and their players' webhooks, in another (service.play.webhooks.of_players)."""
        self.plans = {g: [] for g in self.games}
        if self.games:
            for plan in self.session.scalars(_WAITING_PLANS, {"ids": sorted(self.games)}):
                self.plans[plan.game_id].append(plan)
            self.hooks = webhooks.of_players(self.session, (
                s.player_id for g in self.games.values() for s in g.seats))

    def load_states(self, game_ids: list[int]) -> None:
        """The states of these games, locked by `load`."""
        self._states([self.games[g] for g in sorted(set(game_ids))])

    def _states(self, rows: list[GameRow]) -> None:
        """Each game's state at its last event, read for the whole batch at once (the
        repository's load_many); the snapshots its folds call for are written with the rest."""
        loaded, due = repository.load_many(self.session, self.svc.states, rows)
        self.positions.update(loaded)
        self.snapshots += due

    # --- what the outcomes write (service.play.time.sweep.timeouts.Out) ------------------------------

    def queue(self, game: GameRow, seat: int, kind: str, seq: int, payload: dict,
              since: int | None = None) -> dict:
        """An outbox row as notify.queue makes it (`since` None: the news since the seat's
        previous turn email, worked out when the email is composed)."""
        row = notify.values(game, seat, kind, seq, self.now, payload, since)
        self.outbox.append(row)
        return row

    def change(self, game, row, kind, text, now) -> None:
        self.changes.append(deadlines.change_values(game, row, kind, text, now))

    def tell(self, game, seat, text, now, *, offer, others_only) -> None:
        for to, payload in deadlines.notices(self.svc, game, seat, text, offer=offer,
                                          others_only=others_only):
            self.queue(game, to, "timeout", game.seq, payload)

    def end_game(self, game, seat, how, now) -> None:
        self._ended(game.id)
        told = deadlines.close_game(self.session, game, seat, how, now)
        for to, payload in told:
            self.queue(game, to, "turn", game.seq, payload)
        # the players' webhooks told of the end, as deadlines.end_game tells them
        self.outbox += webhooks.event_values(self.session, game, [to for to, _ in told],
                                             webhooks.GAME_OVER, now, known=self.hooks)

    def reminder(self, game, seat, payload, now) -> None:
        # the turn email told the news; this only reminds
        self.queue(game, seat, "reminder", game.seq, payload, since=game.seq)

    def vacation_day(self, game, row, clock, deadline, now) -> bool:
        taken = self.days.take(game, row, clock, deadline, now)
        if taken is None:
            return False
        for to, payload in vacationdays.notices(game, row.seat, taken, now):
            self.queue(game, to, "timeout", game.seq, payload)
        return True

    def played(self, pos: Position, seat: int, key: str, events, moves, state, notice: dict,
               now: datetime) -> None:
        """The timeout's move as the per-game path records it (timeoutmove.played), its rows
        kept for the batch's bulk inserts."""
        game = pos.row
        done = timeoutmove.played(self.session, self.svc, pos, seat, key, events, moves, state,
                                  notice, now, waiting=self.plans.get(game.id, []),
                                  hooks=self.hooks)
        self.events += done.event_rows
        self.receipts.append(done.receipt)
        if done.ended:
            self._ended(game.id)
        self.outbox += done.emails
        snapshot = repository.snapshot_after_move(pos, done.last, done.state)
        if snapshot:
            self.snapshots.append(snapshot)
        self.positions[game.id] = Position(game, pos.engine, done.state, done.last)
        self.states[game.id] = (done.last, done.state)

    def _ended(self, game_id: int) -> None:
        """notify.supersede for a game this batch ends: its notices in the database when the
        batch is written, and those this batch queued for it before now (the per-game path
        has flushed those by then, and its UPDATE drops them too)."""
        self.ended.append(game_id)
        for row in self.outbox:
            if (row["game_id"] == game_id and row["kind"] in notify.NOTICES
                    and row["status"] in (OutboxStatus.PENDING, OutboxStatus.HELD, "quiet")):
                row["status"] = OutboxStatus.SKIPPED

    # --- writing --------------------------------------------------------------------------

    def write(self) -> list[int]:
        """Every row in bulk; the events first (a conflict on their key fails the batch
        before anything else is sent). Returns the outbox rows' ids."""
        s = self.session
        if self.events:
            s.execute(EventRow.__table__.insert(), self.events)
        if self.receipts:
            s.execute(Submission.__table__.insert(), self.receipts)
        self.tracked.write()
        self.days.write()
        if self.ended:      # before this batch's own emails go in (notify.supersede)
            notify.supersede(s, self.ended)
        ids = []
        if self.outbox:
            # not notify.queue_many: its ids in the order given cost SQLite a statement a row
            outbox = OutboxRow.__table__
            ids = list(s.execute(outbox.insert().returning(outbox.c.id), self.outbox).scalars())
            aftercommit.deliver(s, ids)        # sent once the batch commits
        if self.changes:
            s.execute(SeatChange.__table__.insert(), self.changes)
        snapshots.save_many(s, self.snapshots)
        return ids

    def committed(self) -> None:
        for game_id, (seq, state) in self.states.items():
            self.svc.states.remember(game_id, seq, state)

