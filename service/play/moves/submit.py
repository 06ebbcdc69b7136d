"""Submitting a move: intent -> engine -> events + emails, in one transaction (docs/architecture.md, "One
move, end to end", steps 2-5).

Several moves (or command lines) in one intent are applied in order on the evolving state and
committed together, or not at all: a whole Magnate turn, an Aristocracy action turn, a reply
email with three lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from service.games.contract import CommandError, Event, IllegalMove, Move, replay
from service.linking import freshness
from service.mailwire.outbound.catalogs import _
from service.play import aftercommit, notify, repository, webhooks
from service.play.errors import AlreadyDone, GameOver, PlayError, PositionChanged, Refused, reason
from service.play.services import Services
from service.play.time import deadlines, ending, mailholds
from service.store import eventstore, movewrites, records
from service.store.models import Submission
from service.store.statuses import GameStatus
from service.telemetry import logcontext

from . import planplay

#: The last line of a reply that keeps an open turn open (M9): "sell sailor / keep".
KEEP = "keep"


@dataclass(frozen=True)
class Intent:
    game_id: int
    seat: int
    moves: list[Move] = field(default_factory=list)   # structured moves (links, buttons)
    lines: list[str] = field(default_factory=list)    # command text (email, turn form)
    expected: str | None = None        # mark of the position the player was looking at
    expected_seq: int | None = None    # or, server side only, its sequence number
    source: str = "web"                # link | web | email | bot | timer | cli
    key: str | None = None             # idempotency key: same key twice = applied once
    # a reply or a one-click email link is one whole turn: a turn left open by it (M9) is
    # ended for the player, unless a reply's last line is "keep"
    whole_turn: bool = False
    holder: int | None = None          # the seat's holder the link was made for (None: any)


@dataclass(frozen=True)
class Applied:
    game_id: int
    kind: str
    first_seq: int
    last_seq: int
    moves: list[Move]
    outbox_ids: list[int]
    ended: bool
    bots_next: bool = False     # a bot seat (or a forced move) is to act now
    # who acts now, and every seat's name: enough for the mover's "done" page without reading
    # the game again
    to_act: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    bots: tuple[int, ...] = ()  # the seats bots play (they are never mailed)


class RaceLost(PositionChanged):
    """Another writer took the sequence numbers (or this very idempotency key) first."""


def submit(svc: Services, intent: Intent) -> Applied:
    """Apply the intent in one transaction; its emails and the bots' turn follow the commit
    (service.play.aftercommit: never before it, a worker must find the rows).

    The idempotency key is looked up only when the move cannot be applied as it stands (a
    double click finds the position changed or the move illegal) or loses a race on insert:
    then once more, key first, in a fresh transaction. A move that goes through pays no
    lookup, since its receipt's primary key refuses a second one anyway."""
    try:
        with svc.db.transaction() as session:
            applied = apply(session, svc, intent, key_first=False)
    except RaceLost:
        with svc.db.transaction() as session:
            applied = apply(session, svc, intent)
    return applied


def apply(session: Session, svc: Services, intent: Intent, *, key_first: bool = True) -> Applied:
    """The move in the caller's transaction (it commits or rolls back everything).
    `key_first=False`: look the idempotency key up only if the move cannot be applied (the
    caller retries with it on RaceLost, in a new transaction)."""
    try:
        applied = _apply(session, svc, intent, key_first)
    except AlreadyDone:
        svc.note("move", outcome="duplicate", source=intent.source)
        raise
    except RaceLost:
        if key_first:        # otherwise the caller tries once more: not refused yet
            svc.note("move", outcome="refused", source=intent.source)
        raise
    except PlayError:
        svc.note("move", outcome="refused", source=intent.source)
        raise
    sa_event.listen(session, "after_commit",
                    lambda _s: svc.note("move", outcome="applied", source=intent.source),
                    once=True)
    return applied


def _apply(session: Session, svc: Services, intent: Intent, key_first: bool) -> Applied:
    logcontext.bind(game=intent.game_id, seat_=intent.seat)
    key = seat_key(intent.seat, intent.key) if intent.key is not None else None
    # the game as plain records, written back after the move (cheaper than ORM objects)
    tracked = records.Tracked(session)
    pos = repository.load_locked(session, svc.states, intent.game_id, tracked)
    repository.check_holder(pos.row, intent.seat, intent.holder)
    if key is not None and key_first:
        _unless_done(session, svc, pos, intent.seat, key)
    try:
        if pos.row.status == GameStatus.ENDED or pos.engine.outcome(pos.state) is not None:
            raise GameOver(_("This game has finished; no more moves can be made."))
        check_fresh(session, svc, pos, intent)
        events, moves, new_state = decide_all(pos, intent, svc.chance)
    except PlayError:
        if key is not None and not key_first:      # a double click: say "already done"
            _unless_done(session, svc, pos, intent.seat, key)
        raise
    return record(session, svc, pos, intent, key, events, moves, new_state, tracked)


def seat_key(seat: int, key: str) -> str:
    """A submission's idempotency key as stored: keys are per seat, so one seat's key can
    never answer for another's move."""
    return f"{seat}:{key}"[:128]


def _unless_done(session: Session, svc: Services, pos: repository.Position, seat: int,
                 key: str) -> None:
    done = session.get(Submission, (pos.row.id, key))
    if done is not None:
        already_done(session, svc, pos, seat, done)



def decide_all(pos: repository.Position, intent: Intent, chance) -> tuple[list[Event], list[Move], Any]:
    engine, events, applied = pos.engine, [], []
    lines, keep = _without_keep(engine, pos.state, intent.seat, intent.lines)
    new_state = pos.state

    def turn_ended() -> bool:
        # an earlier line ended the seat's turn: a later one cannot follow in this email
        return bool(applied) and intent.seat not in engine.to_act(new_state)

    # the lambda reads new_state as it stands when each line is parsed: late binding wanted
    work = _moves(engine, intent.seat, intent.moves, lines, lambda: new_state,  # noqa: B023
                  turn_ended)
    for index, (text, move) in enumerate(work):
        produced = _decide(engine, new_state, intent.seat, move, chance, index, text)
        new_state = replay(engine, produced, new_state)
        events.extend(produced)
        applied.append(move)
    finish = getattr(engine, "finish_turn", None)
    if events and intent.whole_turn and not keep and finish is not None:
        closing = finish(new_state, intent.seat)
        if closing is not None:
            produced = _decide(engine, new_state, intent.seat, closing, chance, len(applied), "")
            new_state = replay(engine, produced, new_state)
            events.extend(produced)
            applied.append(closing)
    if not events:
        raise Refused(_("There was no move in that."))
    return events, applied, new_state


@dataclass
class Recorded:
    """What a move writes, worked out in its unit of work (`consequences`): its events and
    those of the plans it set off, its receipt, its emails as outbox rows' values; the game's
    and seats' columns are changed on the game's row (or record) itself."""

    event_rows: list[dict[str, Any]]
    receipt: dict[str, Any] | None
    emails: list[dict[str, Any]]
    first: int
    last: int
    state: Any                    # the position after it (and after the plans it set off)
    ended: bool


def record(session: Session, svc: Services, pos: repository.Position, intent: Intent,
           key: str | None, events: list[Event], moves: list[Move], new_state,
           tracked: records.Tracked | None = None) -> Applied:
    """Write the move: its events (with the receipt of `key`), the seats' clocks, its emails,
    in one write (service.store.movewrites), with the game's changed columns when `tracked` (the
    game read by records.Tracked) is given; without it (the clock's per-game timeouts,
    service.play.time.sweep.timeouts) the caller writes the game."""
    done = consequences(session, svc, pos, intent, key, events, moves, new_state,
                        waiting=_no_plans(pos.row), hooks=_no_hooks(pos.row))
    outbox_ids = write_move(session, svc, pos, done, tracked)
    return Applied(pos.row.id, pos.row.kind, done.first, done.last, moves, outbox_ids,
                   done.ended, pos.row.bots_due, tuple(sorted(pos.engine.to_act(done.state))),
                   tuple(s.player.name for s in pos.row.seats),
                   tuple(s.seat for s in pos.row.seats if s.bot is not None))


def _no_plans(game) -> list | None:
    """No plans to read when the move's lock read found none waiting (records.read_one's
    `plans_waiting`); None: read them (a game read some other way)."""
    return [] if getattr(game, "plans_waiting", None) is False else None


def _no_hooks(game) -> dict | None:
    """No webhooks to read when the move's lock read found no seat's player with an active
    one (`seat.player.hooked`); None: read them."""
    flags = [getattr(s.player, "hooked", None) for s in game.seats]
    return {} if flags and all(f is False for f in flags) else None


def consequences(session: Session, svc: Services, pos: repository.Position, intent: Intent,
                 key: str | None, events: list[Event], moves: list[Move], new_state, *,
                 waiting: list | None = None, hooks: dict | None = None) -> Recorded:
    """Everything a move calls for, decided in its unit of work and written by the caller
    (`write_move`, one game; the clock sweep's batch, many at once): the plans it sets off
    (service.play.moves.planplay; `waiting`: the game's waiting plans if the caller read them
    already), the game's end and its rating, the seats' clocks and turns, whether a bot or
    a forced move is due (declared for after the commit), and who is mailed and whose webhooks
    are told (`hooks`: the players' webhooks if the caller read them already)."""
    now = svc.clock.now()
    receipt = None
    if key is not None:
        receipt = {"game_id": pos.row.id, "key": key, "seat": intent.seat,
                   "first_seq": pos.seq + 1, "last_seq": pos.seq + len(events),
                   "source": intent.source, "created_at": now}
    event_rows = eventstore.rows(pos.row, events, seat=intent.seat, source=intent.source,
                                  now=now)
    # the plans this move sets off, answered in the same write (service.play.moves.planplay)
    followed = planplay.follow(session, svc.chance, pos.row, pos.engine, pos.state,
                               intent.seat, moves, new_state, intent.source, rows=waiting)
    steps = followed.steps
    for step in steps:
        event_rows += eventstore.rows(pos.row, step.events, seat=step.seat,
                                       source=planplay.SOURCE, now=now)
        new_state = step.state
    outcome = pos.engine.outcome(new_state)
    if outcome is not None:
        # recorded and rated with the move that ended it
        ending.finish(session, pos.row, now, outcome=outcome)
    if intent.source != "timer":   # they acted: a clock held for want of mail runs again
        mailholds.release_mover(pos.row, intent.seat, now)
    # the seats' clocks change in the same transaction as the move
    deadlines.track(session, pos.row, pos.engine, new_state, now)
    repository.mark_turns(pos.row, pos.engine, new_state)
    forced = notify.forced_seats(pos.row, pos.engine, new_state)
    notify.turns_changed(session, pos.row, pos.engine, new_state, forced, intent.source)
    last = event_rows[-1]["seq"]
    # a seat whose only move is played for it in a moment is not mailed: its next email tells it
    emails = notify.changed_views(pos.row, pos.engine, pos.state, new_state, last, now,
                                  mover=_mover(intent, pos.engine, new_state, bool(steps)),
                                  forced=forced)
    names = [s.player.name for s in pos.row.seats]
    planplay.tell(followed.untold, emails, pos.engine, names)
    planplay.show(followed.standing, emails, pos.engine, names)
    # the players' webhooks, beside (or, "webhook only", instead of) their turn emails
    emails = webhooks.along(session, pos.row, pos.engine, pos.state, new_state, emails, now,
                            known=hooks)
    return Recorded(event_rows, receipt, emails, event_rows[0]["seq"], last, new_state,
                    outcome is not None)


def write_move(session: Session, svc: Services, pos: repository.Position, done: Recorded,
          tracked: records.Tracked | None = None) -> list[int]:
    """Write one game's move as `consequences` worked it out; its emails are sent, and its
    state cached, once the unit of work commits. Returns the emails' outbox ids."""
    if done.ended:
        # the game-over emails say it all: a reminder or notice not yet sent is dropped,
        # not mailed after them (notify.supersede), before this move's own go in
        notify.supersede(session, pos.row.id)
    try:
        outbox_ids = movewrites.write(session, tracked, done.event_rows, done.receipt,
                                      done.emails)
    except eventstore.Conflict:
        # another writer took these sequence numbers (or this key) first: it won the race
        raise RaceLost(_("Someone else moved at the same moment; have a look at the new "
                         "position and try again."), pos.seq) from None
    aftercommit.deliver(session, outbox_ids)
    repository.moved(session, svc.states, pos, done.last, done.state)
    return outbox_ids


#: moves a person made: the clock's and the bots' are news to the seat they were made for
_BY_THE_PLAYER = ("link", "web", "email", "api", "cli")


def _mover(intent: Intent, engine, new_state, planned: bool = False) -> int | None:
    """The seat not to mail about its own move, whatever the way in: the page, the API or the
    CLI answered it, and a reply needs no answer. A reply that kept its turn open (`keep`)
    is the exception: its writer has no page, and plays on from the email with fresh links;
    so is a move a plan answered at once when the mover is to act again (news it has not
    seen)."""
    if intent.source not in _BY_THE_PLAYER:
        return None
    if planned and intent.seat in engine.to_act(new_state):
        return None
    if intent.source == "email" and intent.seat in engine.to_act(new_state):
        return None
    return intent.seat


def already_done(session: Session, svc: Services, pos: repository.Position, seat: int,
                 done: Submission):
    """The same submission again: "already done" while the seat's position is still the one
    it produced (a double click, a redelivered email); once the seat's position has changed
    since (say it replaced a sealed choice), the old link is simply stale."""
    if done.last_seq != pos.seq:
        then = repository.load(session, svc.states, pos.row.id, upto=done.last_seq)
        if freshness.mark(pos.engine, then.state, seat) != freshness.mark(pos.engine, pos.state, seat):
            raise PositionChanged(_("That move was made before, and the game has moved on "
                                    "since; here is the position as it is now."), pos.seq)
    raise AlreadyDone(_("That move was already made; nothing more to do."),
                      done.first_seq, done.last_seq)


def made_already(svc: Services, game_id: int, seat: int, key: str) -> str | None:
    """Whether the submission with this key (a one-click link's) was made already, read
    without acting, as opening a link must: None if not; "done" if pressing it again would
    answer "already done"; "moved on" if the seat's position changed since (`already_done`'s
    own judgement, so the link's page says what a press would)."""
    with svc.db.transaction() as session:
        done = session.get(Submission, (game_id, seat_key(seat, key)))
        if done is None:
            return None
        pos = repository.load(session, svc.states, game_id)
        try:
            already_done(session, svc, pos, seat, done)
        except PositionChanged:
            return "moved on"
        except AlreadyDone:
            pass
    return "done"


def check_fresh(session: Session, svc: Services, pos: repository.Position,
                intent: Intent) -> None:
    """A link or email made for an older position is refused only if the change is one this
    seat can see (its freshness view, service.linking.freshness): other seats' hidden choices move the
    log on without making anybody's link stale."""
    expected = intent.expected
    if intent.expected_seq is not None and intent.expected_seq != pos.seq:
        if intent.expected_seq > pos.seq:
            raise PositionChanged(_("That email is for a position this game never reached."),
                                  pos.seq)
        then = repository.load(session, svc.states, pos.row.id, upto=intent.expected_seq)
        expected = freshness.mark(pos.engine, then.state, intent.seat)
    if expected is None or expected == freshness.mark(pos.engine, pos.state, intent.seat):
        return
    raise PositionChanged(_("The game has moved on since that email was sent, so the move you "
                            "chose no longer applies: %(whose)s Here is the position as it is "
                            "now.", whose=_whose_move(pos, intent.seat)), pos.seq)


def _whose_move(pos: repository.Position, seat: int) -> str:
    """Whose move it is now, in words for `seat`'s player."""
    if pos.engine.outcome(pos.state) is not None or pos.row.status == GameStatus.ENDED:
        return _("the game is over.")
    acting = sorted(pos.engine.to_act(pos.state))
    others = [pos.row.seats[s].player.name for s in acting if s != seat]
    if seat in acting:
        return _("it is your move again, in a new position.")
    if not others:
        return _("nobody is to move.")
    names = others[0]
    for name in others[1:]:          # "Ben and Cleo and Dan", as the English always said it
        names = _("%(some)s and %(last)s", some=names, last=name)
    return _("it is %(names)s's move now.", names=names)


def _without_keep(engine, state, seat: int, lines: list[str]) -> tuple[list[str], bool]:
    """A last line `keep` keeps a Magnate turn open (M9), unless it is the whole answer to
    the question the game is waiting on: `keep` alone, when the seat has just drawn an Ace
    and is asked to keep or replace it (M16), keeps the Ace."""
    if not lines or lines[-1].strip().lower() != KEEP:
        return lines, False
    if len(lines) == 1:
        try:
            engine.parse(state, seat, lines[0])
        except CommandError:
            pass
        else:
            return lines, False
    return lines[:-1], True


def _decide(engine, state, seat: int, move: Move, chance, index: int, text: str | None):
    try:
        return engine.decide(state, seat, move, chance)
    except IllegalMove as exc:
        raise Refused(reason(exc), index=index, text=text or engine.describe(move)) from None


def _moves(engine, seat: int, moves: list[Move], lines: list[str], current, turn_ended):
    """Yield (text, move) pairs; text lines are parsed against the state as it then stands, so
    a later line may use a card an earlier line gained."""
    for move in moves:
        yield None, move
    done: list[str] = []
    for index, line in enumerate(lines):
        if turn_ended():
            raise Refused(_("Your turn ended by itself with \"%(last)s\" (nothing more was "
                            "left to do in it), so this line could not follow it in the same "
                            "email. Send one turn per email; the next can go when it is your "
                            "move again.", last=done[-1] if done else _("your move")),
                          index=len(moves) + index, text=line)
        done.append(line)
        try:
            parsed = engine.parse(current(), seat, line)
        except CommandError as exc:
            raise Refused(reason(exc), index=len(moves) + index, text=line,
                          suggestions=exc.suggestions) from None
        for move in parsed:
            yield line, move
