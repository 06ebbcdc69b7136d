"""Operators' and players' bookkeeping: listing outbox and inbound rows by status, muting a
seat's mail. Small use cases, so the CLI and pages never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass
from email import policy
from email.parser import BytesHeaderParser

from sqlalchemy import func, select, text

from service.play import aftercommit, repository
from service.play.services import Services
from service.store import eventstore
from service.store.models import GameRow, InboundMessage, OutboxRow, Player, Seat
from service.store.statuses import GameStatus, InboundStatus, OutboxStatus


@dataclass(frozen=True)
class OutboxLine:
    id: int
    game_id: int | None
    to_addr: str
    kind: str
    attempts: int
    last_error: str


@dataclass(frozen=True)
class InboundLine:
    id: int
    via: str
    message_id: str
    outcome: str


def outbox(svc: Services, status: str) -> list[OutboxLine]:
    with svc.db.transaction() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == status)
                               .order_by(OutboxRow.id)).all()
        return [OutboxLine(r.id, r.game_id, r.to_addr, r.kind, r.attempts, r.last_error or "")
                for r in rows]


def inbound(svc: Services, status: str) -> list[InboundLine]:
    with svc.db.transaction() as session:
        rows = session.scalars(select(InboundMessage).where(InboundMessage.status == status)
                               .order_by(InboundMessage.id)).all()
        return [InboundLine(r.id, r.via, r.message_id, r.outcome or "") for r in rows]


@dataclass(frozen=True)
class Unapplied:
    """A received email that moved nothing, as the dev outbox lists it."""
    id: int
    received_at: str             # "2026-11-24 09:00 UTC"
    sender: str                  # its From header as written (root@localhost, too)
    to: str
    subject: str
    status: str                  # ignored, refused, stranger, failed, received ...
    why: str


#: what processing made of an email that moved something (a move, or a word answered)
_ACTED_ON = (InboundStatus.APPLIED, InboundStatus.ANSWERED)


def unapplied(svc: Services, limit: int = 50) -> list[Unapplied]:
    """The newest received emails that were not applied, and why: the dev outbox shows them,
    so a reply from an address with no seat (mutt's root@localhost) does not vanish."""
    with svc.db.transaction() as session:
        rows = session.execute(select(InboundMessage.id, InboundMessage.received_at,
                                      InboundMessage.raw, InboundMessage.status,
                                      InboundMessage.outcome)
                               .where(InboundMessage.status.not_in(_ACTED_ON))
                               .order_by(InboundMessage.id.desc()).limit(limit)).all()
    out = []
    for row in rows:
        head = BytesHeaderParser(policy=policy.default).parsebytes(bytes(row.raw))
        out.append(Unapplied(row.id, row.received_at.strftime("%Y-%m-%d %H:%M UTC"),
                             _header(head, "From"), _header(head, "To"),
                             _header(head, "Subject"), row.status,
                             row.outcome or "not processed yet"))
    return out


def _header(head, name: str) -> str:
    try:
        return str(head.get(name, "") or "")[:200]
    except Exception:  # noqa: BLE001 - a header beyond the parser's reading shows as blank
        return ""


def mute_seat(svc: Services, game_id: int, seat: int | None) -> bool:
    """Stop a seat's mail for one game (its unsubscribe link). The game goes on."""
    with svc.db.transaction() as session:
        row = session.get(Seat, (game_id, seat)) if seat is not None else None
        if row is None:
            return False
        row.muted = True
        return True


# -- operators' look at games (flask games ..., flask outbox ..., flask players ...) ---------

@dataclass(frozen=True)
class GameSummary:
    id: int
    kind: str
    status: str
    seq: int
    players: list[str]
    to_act: list[str]            # addresses whose move it is


@dataclass(frozen=True)
class GameDetail:
    summary: GameSummary
    rules_version: int
    seats: list[str]             # "0 anna@example.org (Anna) muted"
    log: list[str]               # "seq type seat source at"
    outbox: list[str]
    inbound: list[str]


def games(svc: Services, status: str | None = None,
          waiting_on: str | None = None) -> list[GameSummary]:
    """Games, newest first; `waiting_on` keeps those where that address is to move."""
    with svc.db.transaction() as session:
        q = select(GameRow).order_by(GameRow.id.desc())
        if status:
            q = q.where(GameRow.status == status)
        out = []
        for row in session.scalars(q).all():
            summary = _summary(session, svc, row)
            if waiting_on is None or waiting_on.strip().lower() in summary.to_act:
                out.append(summary)
        return out


def _summary(session, svc: Services, row: GameRow) -> GameSummary:
    pos = repository.load(session, svc.states, row.id)
    emails = [s.player.email for s in row.seats]
    acting = [] if row.status == GameStatus.ENDED else sorted(pos.engine.to_act(pos.state))
    return GameSummary(row.id, row.kind, row.status, pos.seq, emails,
                       [emails[s] for s in acting])


def game_detail(svc: Services, game_id: int) -> GameDetail:
    with svc.db.transaction() as session:
        row = repository.game_row(session, game_id)
        summary = _summary(session, svc, row)
        seats = [f"{s.seat} {s.player.email} ({s.player.name})" + (" muted" if s.muted else "")
                 for s in row.seats]
        log = [f"{e.seq}\t{e.event.type}\tseat {e.seat}\t{e.source}\t{e.at:%Y-%m-%d %H:%M}"
               for e in eventstore.load(session, row)]
        rows = session.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id)
                               .order_by(OutboxRow.id)).all()
        outbox_lines = [f"{r.id}\t{r.kind}\tseat {r.seat}\t{r.to_addr}\tseq {r.seq}\t{r.status}"
                        f"\tattempts {r.attempts}\t{r.last_error or ''}".rstrip() for r in rows]
        answered = {(r.payload or {}).get("in_reply_to") for r in rows} - {None}
        mail = session.scalars(select(InboundMessage)
                               .where(InboundMessage.message_id.in_(answered))
                               .order_by(InboundMessage.id)).all() if answered else []
        inbound_lines = [f"{m.id}\t{m.via}\t{m.status}\t{m.message_id}\t{m.outcome or ''}"
                         for m in mail]
        return GameDetail(summary, row.rules_version, seats, log, outbox_lines, inbound_lines)


def resend(svc: Services, row_id: int) -> bool:
    """Send an outbox row again, whatever became of it (a player says it never arrived). It
    is composed anew, the game as it is now, so it goes under a Message-ID of its own
    (play.notify.rendering_id): a client that has the first keeps both, each as it was."""
    with svc.db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        if row is None or row.status == OutboxStatus.SENDING:
            return False
        row.status, row.attempts, row.next_try, row.claimed_at = (OutboxStatus.PENDING, 0,
                                                                  svc.clock.now(), None)
        aftercommit.deliver(session, [row_id])
    return True


def parked_ids(svc: Services) -> list[int]:
    with svc.db.transaction() as session:
        return list(session.scalars(select(OutboxRow.id)
                                    .where(OutboxRow.status == OutboxStatus.PARKED)
                                    .order_by(OutboxRow.id)))


def mute_player(svc: Services, email: str) -> int:
    """Stop every game's mail to an address (an operator's answer to "stop mailing me");
    the games go on. Returns the number of seats muted."""
    with svc.db.transaction() as session:
        player = session.scalar(select(Player).where(Player.email == email.strip().lower()))
        if player is None:
            return 0
        seats = session.scalars(select(Seat).where(Seat.player_id == player.id)).all()
        for seat in seats:
            seat.muted = True
        return len(seats)


@dataclass(frozen=True)
class OutboxAges:
    oldest_unsent: float         # seconds since the oldest pending or sending row was queued
    due_lag: float               # seconds the oldest row due for sending has been waiting


def outbox_ages(svc: Services) -> OutboxAges:
    """For /metrics: how far behind the mail is (0 when nothing waits)."""
    now = svc.clock.now()
    unsent = OutboxRow.status.in_((OutboxStatus.PENDING, OutboxStatus.SENDING))
    with svc.db.transaction() as session:
        oldest = session.scalar(select(func.min(OutboxRow.created_at)).where(unsent))
        due = session.scalar(select(func.min(OutboxRow.next_try))
                             .where(OutboxRow.status == OutboxStatus.PENDING,
                                    OutboxRow.next_try <= now))
    return OutboxAges(_age(now, oldest), _age(now, due))


def _age(now, then) -> float:
    if then is None:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=now.tzinfo)
    return max(0.0, (now - then).total_seconds())


def database_down(svc: Services) -> str | None:
    """None when the database answers a query; else why not, in one line (for /healthz)."""
    try:
        with svc.db.transaction() as session:
            session.execute(text("SELECT 1"))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means down; say which
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
