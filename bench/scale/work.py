"""What the workers do alone: the clock sweep with 10,000 deadlines due at once (through the
public entry: beat's periodic sweep task, workers.tasks.sweep_timers, whatever it hands out
behind it), and a fan-out of 10,000 emails to the SMTP sink beside plain smtplib."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import psycopg
import redis
from pg_bench import SinkTail
from sqlalchemy import select, text, update
from sqlalchemy.orm import selectinload

from bench import plain_smtplib_rate
from service.play import notify
from service.play.mail import relay
from service.store.models import GameRow, OutboxRow, Seat

from . import seed

FAR = datetime(2999, 1, 1, tzinfo=timezone.utc)
_UNSENT = text("SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending') "
               "AND next_try <= now() AT TIME ZONE 'UTC'")


def drain(engine, redis_url: str, seconds: float = 900) -> float:
    """Wait until the workers' queue is empty and no email is due or being sent (a figure's
    emails are its own cost, not the next one's); the seconds it took."""
    broker, t0 = redis.Redis.from_url(redis_url), time.monotonic()
    while time.monotonic() - t0 < seconds:
        with engine.connect() as conn:
            left = conn.scalar(_UNSENT)
        if not left and not broker.llen("celery"):
            break
        time.sleep(1)
    return time.monotonic() - t0


def make_due(url: str, lo: int, hi: int, n: int) -> tuple[datetime, int]:
    """The deadlines of `n` games in progress with ids in lo..hi fall due now, all at once:
    their seat clocks moved back so that each deadline is this instant (their reminders
    with them). The due games are kept in bench_scale_due to watch."""
    due = datetime.now(timezone.utc).replace(microsecond=0)
    with psycopg.connect(seed.libpq(url)) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_scale_due")
        conn.execute("CREATE TABLE bench_scale_due AS SELECT s.game_id, s.seat, g.seq "
                     "FROM seats s JOIN games g ON g.id = s.game_id WHERE g.status = 'active' "
                     "AND s.deadline IS NOT NULL AND g.id BETWEEN %s AND %s "
                     "ORDER BY g.id LIMIT %s", (lo, hi, n))
        count = conn.execute("SELECT count(*) FROM bench_scale_due").fetchone()[0]
        naive = due.replace(tzinfo=None)
        seed.shift_seats(conn, "(game_id, seat) IN (SELECT game_id, seat FROM bench_scale_due)",
                         (), lambda _game, earliest: naive - earliest)
        conn.commit()
    return due, count


def handled(url: str, due: datetime, seconds: float = 600, say=print
            ) -> tuple[float, int, float]:
    """Seconds from `due` until every due game has moved on (a timeout's event, or its
    deadline no longer past), how many had, and the seconds from `due` until the first had
    (to within the half-second the count is polled at)."""
    sql = ("SELECT count(*) FROM bench_scale_due d JOIN games g ON g.id = d.game_id "
           "JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat "
           "WHERE g.seq > d.seq OR s.deadline IS NULL OR s.deadline > %s")
    with psycopg.connect(seed.libpq(url), autocommit=True) as conn:
        total = conn.execute("SELECT count(*) FROM bench_scale_due").fetchone()[0]
        done, said, first = 0, time.monotonic(), None
        while time.time() - due.timestamp() < seconds:
            done = conn.execute(sql, (due.replace(tzinfo=None),)).fetchone()[0]
            if done and first is None:
                first = time.time() - due.timestamp()
            if done >= total:
                break
            if time.monotonic() - said > 15:
                say(f"sweep, {done:,} of {total:,} handled")
                said = time.monotonic()
            time.sleep(0.5)
    took = time.time() - due.timestamp()
    return took, done, took if first is None else first


def queue_fanout(svc, lo: int, hi: int, n: int) -> dict[str, int]:
    """`n` turn emails for the seats of games in lo..hi, queued as moves queue them but held
    back (due in the far future) until the fan-out starts: {Message-ID: row id}."""
    now = svc.clock.now()
    out: dict[str, int] = {}
    with svc.db.transaction() as s:
        games = s.scalars(select(GameRow).where(GameRow.id.between(lo, hi))
                          .options(selectinload(GameRow.seats).joinedload(Seat.player))
                          .order_by(GameRow.id).limit((n + 1) // 2)).all()
        rows = []
        for game in games:
            for seat in game.seats:
                values = notify.values(game, seat.seat, "turn", game.seq, now)
                rows.append(dict(values, status="pending", next_try=FAR))
        rows = rows[:n]
        ids = notify.queue_many(s, rows)
        out = {r["message_id"]: i for r, i in zip(rows, ids)}
    return out


def smtplib_floor(svc, ids: list[int], port: int) -> float:
    """Plain smtplib's emails/s to the sink, sending these rows' emails rendered beforehand."""
    with svc.db.transaction() as s:
        rows = [s.get(OutboxRow, i) for i in ids]
        samples = [relay.render(s, svc, row) for row in rows]
    return plain_smtplib_rate(port, samples)


def fanout(svc, celery_app, queued: dict[str, int], log, seconds: float = 900) -> tuple[float,
                                                                                      int]:
    """Release the queued rows and hand them to the workers two by two, as moves do: emails/s
    from the first task queued to the last email's arrival at the sink, and how many
    arrived."""
    ids = list(queued.values())
    with svc.db.transaction() as s:
        s.execute(update(OutboxRow).where(OutboxRow.id.in_(ids))
                  .values(next_try=svc.clock.now() - timedelta(seconds=1)))
    start = time.time()
    for k in range(0, len(ids), 2):
        celery_app.send_task("workers.tasks.deliver_outbox", args=[ids[k:k + 2]])
    wanted, tail = set(queued), SinkTail(log, start)
    while time.time() - start < seconds:
        arrived = {m: at for m, at in tail.read().items() if m in wanted}
        if len(arrived) >= len(wanted):
            break
        time.sleep(1)
    if not arrived:
        return 0.0, 0
    return len(arrived) / (max(arrived.values()) - start), len(arrived)
