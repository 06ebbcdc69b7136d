"""Submitting a move: intent -> engine -> events + emails, in one transaction (DESIGN.md, "One
move, end to end", steps 2-4).

Several moves (or command lines) in one intent are applied in order on the evolving state and
committed together, or not at all: a whole Magnate turn, an Aristocracy action turn, a reply
email with three lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import event as sa_event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.games.contract import Chance, CommandError, IllegalMove, Move, replay
from service.store.models import EventRow, Submission

from . import marks, notify, positions
from .errors import AlreadyDone, GameOver, PositionChanged, Refused


@dataclass(frozen=True)
class Intent:
    game_id: int
    seat: int
    moves: list[Move] = field(default_factory=list)   # structured moves (links, buttons)
    lines: list[str] = field(default_factory=list)    # command text (email, turn form)
    expected: str | None = None        # mark of the position the player was looking at
    expected_seq: int | None = None    # or, server side only, its sequence number
    source: str = "web"                # link | web | email | bot | cli
    key: str | None = None             # idempotency key: same key twice = applied once


@dataclass(frozen=True)
class Applied:
    game_id: int
    kind: str
    first_seq: int
    last_seq: int
    moves: list[Move]
    outbox_ids: list[int]
    ended: bool


def submit(session: Session, intent: Intent, chance: Chance, now: datetime) -> Applied:
    # keys are per seat: one seat's key can never answer for another's move
    key = f"{intent.seat}:{intent.key}"[:128] if intent.key is not None else None
    pos = positions.load(session, intent.game_id, lock=True)
    if key is not None:
        done = session.get(Submission, (intent.game_id, key))
        if done is not None:
            already_done(session, pos, intent.seat, done)
    engine, state, seq = pos.engine, pos.state, pos.seq
    if pos.row.status == "ended" or engine.outcome(state) is not None:
        raise GameOver("This game has finished; no more moves can be made.")
    check_fresh(session, pos, intent)

    events, applied = [], []
    new_state = state
    # the lambda reads new_state as it stands when each line is parsed: late binding wanted
    for index, (text, move) in enumerate(_moves(engine, intent, lambda: new_state)):  # noqa: B023
        try:
            produced = engine.decide(new_state, intent.seat, move, chance)
        except IllegalMove as exc:
            raise Refused(exc.why, index=index, text=text or engine.describe(move)) from None
        new_state = replay(engine, produced, new_state)
        events.extend(produced)
        applied.append(move)
    if not events:
        raise Refused("There was no move in that.")

    first = seq + 1
    for n, ev in enumerate(events):
        session.add(EventRow(game_id=pos.row.id, seq=first + n, type=ev.type, data=dict(ev.data),
                             seat=intent.seat, source=intent.source, created_at=now))
    last = first + len(events) - 1
    if key is not None:
        session.add(Submission(game_id=pos.row.id, key=key, seat=intent.seat,
                               first_seq=first, last_seq=last, source=intent.source,
                               created_at=now))
    try:
        session.flush()
    except IntegrityError:
        # another writer took these sequence numbers (or this key) first: it won the race
        raise PositionChanged("Someone else moved at the same moment; have a look at the "
                              "new position and try again.", seq) from None
    pos.row.seq = last
    ended = engine.outcome(new_state) is not None
    if ended:
        pos.row.status = "ended"
    rows = notify.queue_changed_views(session, pos.row, engine, state, new_state, last, now)
    session.flush()
    sa_event.listen(session, "after_commit",
                    lambda _s: positions.remember(pos.row.id, last, new_state), once=True)
    return Applied(pos.row.id, pos.row.kind, first, last, applied, [r.id for r in rows], ended)


def already_done(session: Session, pos: positions.Position, seat: int, done: Submission):
    """The same submission again: "already done" while the seat's position is still the one
    it produced (a double click, a redelivered email); once the seat's position has changed
    since (say it replaced a sealed choice), the old link is simply stale."""
    if done.last_seq != pos.seq:
        then = positions.load(session, pos.row.id, upto=done.last_seq)
        if marks.mark(pos.engine, then.state, seat) != marks.mark(pos.engine, pos.state, seat):
            raise PositionChanged("That move was made before, and the game has moved on since; "
                                  "here is the position as it is now.", pos.seq)
    raise AlreadyDone("That move was already made; nothing more to do.",
                      done.first_seq, done.last_seq)


def check_fresh(session: Session, pos: positions.Position, intent: Intent) -> None:
    """A link or email made for an older position is refused only if the change is one this
    seat can see (its freshness view, service.play.marks): other seats' hidden choices move
    the log on without making anybody's link stale."""
    expected = intent.expected
    if intent.expected_seq is not None and intent.expected_seq != pos.seq:
        if intent.expected_seq > pos.seq:
            raise PositionChanged("That email is for a position this game never reached.",
                                  pos.seq)
        then = positions.load(session, pos.row.id, upto=intent.expected_seq)
        expected = marks.mark(pos.engine, then.state, intent.seat)
    if expected is None or expected == marks.mark(pos.engine, pos.state, intent.seat):
        return
    raise PositionChanged("The game has moved on since that email was sent, so its links "
                          "no longer apply. Here is the position as it is now.", pos.seq)


def _moves(engine, intent: Intent, current):
    """Yield (text, move) pairs; text lines are parsed against the state as it then stands, so
    a later line may use a card an earlier line gained."""
    for move in intent.moves:
        yield None, move
    for index, line in enumerate(intent.lines):
        try:
            parsed = engine.parse(current(), intent.seat, line)
        except CommandError as exc:
            raise Refused(exc.why, index=len(intent.moves) + index, text=line,
                          suggestions=exc.suggestions) from None
        for move in parsed:
            yield line, move


