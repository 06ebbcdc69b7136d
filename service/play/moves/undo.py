"""Undo by agreement: a seat asks to take back its last move, the other people at the table
accept or refuse (bots accept), and when all have accepted the move is taken back.

Design — the log stays append-only and the engines stay pure. Taking back appends the
service's own event, `MoveTakenBack {"to": N, "seat": s, "undone": [first, last]}`, and
`positions.load` folds it as "the state as it was after event N" (it rebuilds that state by
replaying the log up to N, which may itself hold earlier take-backs). Views, emails, history
and replay are then recomputed from the log like after any move; the history says what
happened. Undone events stay in the log for the record (and for the whole-log download).

What can be taken back: the asking seat's last move (its last committed batch of events), with
nothing after it but bot moves (they are taken back with it), and only if no event of those
batches drew chance or turned up anything hidden: the engine's `can_take_back` says so per
batch, and no seat's `secrets` may have shrunk. A request lives in `undo_requests`; it
expires with the next event (it is only good while the game still stands at `at_seq`).

The clocks go back with the position (`timing.take_back`): the seat whose move was taken back
has its turn again with the time it had left when it moved (no fresh period, no time lost
while the others answered); a turn that began after the move never happened (no time charged,
no Fischer increment earned). A sealed choice taken back reopens that seat's own clock; the
others' run on. The request and the refusal reach the seats as notices from the game (outbox
kind "undo"), not as chat lines."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from service.games.contract import Event
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, repository, webhooks
from service.play.errors import GameOver, PlayError
from service.play.repository import TAKEN_BACK
from service.play.services import Services
from service.play.time import deadlines, who
from service.store import eventstore
from service.store.models import UndoRequest
from service.store.statuses import GameStatus

from . import planplay

#: how far back to look for the asking seat's last move (bot moves may follow it)
LOOK_BACK = 400
#: sources of batches that are nobody's own move
NOT_A_MOVE = frozenset({"start", "timer", "undo"})


class UndoRefused(PlayError):
    title = N_("That cannot be taken back")


@dataclass(frozen=True)
class UndoResult:
    status: str               # asked | done | accepted | refused
    words: str                # what to tell the seat that acted
    outbox_ids: list[int]
    bots_next: bool = False


def ask(svc: Services, game_id: int, seat: int) -> UndoResult:
    """`undo`: ask the others to take back this seat's last move (done at once when the
    others are all bots)."""
    with svc.db.transaction() as session:
        return ask_in(session, svc, game_id, seat)


def answer(svc: Services, game_id: int, seat: int, accept: bool) -> UndoResult:
    """`undo accept` / `undo refuse`: this seat's answer to the waiting request."""
    with svc.db.transaction() as session:
        return answer_in(session, svc, game_id, seat, accept)


# every game page asks: built once (built per call it cost more than running it)
_OPEN = select(UndoRequest).where(UndoRequest.game_id == bindparam("game_id"),
                                  UndoRequest.status == "open")


def waiting(session: Session, game_id: int, seq: int) -> UndoRequest | None:
    """The open request still good at seq (older open ones have expired)."""
    rows = session.scalars(_OPEN, {"game_id": game_id}).all()
    good = None
    for row in rows:
        if row.at_seq == seq:
            good = row
        else:
            row.status = "expired"      # a move since: the request lapsed with it
    return good


def asked(session: Session, game_id: int, seq: int) -> UndoRequest | None:
    """`waiting`'s request for a page, which only reads: the lapsed ones are marked expired by
    the next unit of work that writes (`waiting`), not by a reader."""
    return next((row for row in session.scalars(_OPEN, {"game_id": game_id})
                 if row.at_seq == seq), None)


def ask_in(session: Session, svc: Services, game_id: int, seat: int) -> UndoResult:
    pos = repository.load(session, svc.states, game_id, lock=True)
    if pos.row.status == GameStatus.ENDED or pos.engine.outcome(pos.state) is not None:
        raise GameOver(_("This game has finished; no move can be taken back."))
    if waiting(session, game_id, pos.seq) is not None:
        raise UndoRefused(_("A request to take back a move is already waiting for answers; "
                            "wait for it to be answered (or for the next move, which ends "
                            "it)."))
    back_to = _takeable(session, svc, pos, seat)
    people = [s.seat for s in pos.row.seats if s.seat != seat and s.bot is None]
    now = svc.clock.now()
    request = UndoRequest(game_id=game_id, seat=seat, back_to=back_to, at_seq=pos.seq,
                          answers={}, status="open", created_at=now)
    session.add(request)
    if not people:
        return _take_back(session, svc, pos, request)
    rows = [_notice(session, pos, to, now, N_("%(who)s asks to take back a move"),
                    N_("%(who)s asks to take back their last move. Reply \"undo accept\" or "
                       "\"undo refuse\", or answer on your game page."), who=who(seat))
            for to in people if not _seat(pos.row, to).muted]
    session.flush()
    return UndoResult("asked", "Asked the others to let you take back your last move.",
                      [r.id for r in rows])


def answer_in(session: Session, svc: Services, game_id: int, seat: int,
            accept: bool) -> UndoResult:
    pos = repository.load(session, svc.states, game_id, lock=True)
    request = waiting(session, game_id, pos.seq)
    if request is None:
        raise UndoRefused(_("There is no request to take back a move waiting for an answer "
                            "(a move made since then ends a request)."))
    if seat == request.seat:
        raise UndoRefused(_("That request is yours; the others answer it."))
    if str(seat) in request.answers:
        raise UndoRefused(_("You have answered that request already."))
    request.answers = {**request.answers, str(seat): accept}
    now = svc.clock.now()
    asker = request.seat
    if not accept:
        request.status = "refused"
        rows = [_notice(session, pos, asker, now, N_("Take-back refused by %(who)s"),
                        N_("%(who)s did not agree to take back your last move; it stands."),
                        who=who(seat))]
        session.flush()
        return UndoResult("refused", "You refused; the move stands.", [r.id for r in rows])
    people = {s.seat for s in pos.row.seats if s.seat != asker and s.bot is None}
    if people <= {int(s) for s, yes in request.answers.items() if yes}:
        return _take_back(session, svc, pos, request)
    session.flush()
    return UndoResult("accepted", "You agreed; the others have yet to answer.", [])


def _take_back(session: Session, svc: Services, pos: repository.Position,
               request: UndoRequest) -> UndoResult:
    now = svc.clock.now()
    event = Event(TAKEN_BACK, {"to": request.back_to, "seat": request.seat,
                               "undone": [request.back_to + 1, pos.seq]})
    try:
        eventstore.append(session, pos.row, [event], seat=request.seat, source="undo",
                           now=now)
    except eventstore.Conflict:
        raise UndoRefused(_("Someone moved at the same moment, which ends the request.")) \
            from None
    request.status = "done"
    # the moves the plans waited on are taken back with the position
    planplay.drop_all(session, pos.row.id, N_("a move was taken back"))
    before = repository.load(session, svc.states, pos.row.id, upto=request.back_to).state
    # the clocks go back with the position: whoever is to act there has their turn running
    # again, with the time it had left (timing.take_back, service.play.time.clocks.reopen_turn)
    deadlines.take_back(pos.row, pos.engine, before, request.back_to, now)
    repository.mark_turns(pos.row, pos.engine, before)
    forced = notify.forced_seats(pos.row, pos.engine, before)
    notify.turns_changed(session, pos.row, pos.engine, before, forced, "undo")
    # the seats' emails and their players' webhooks (service.play.webhooks)
    outbox_ids = notify.queue_many(session, webhooks.along(
        session, pos.row, pos.engine, pos.state, before,
        notify.changed_views(pos.row, pos.engine, pos.state, before, pos.row.seq, now,
                             forced=forced), now))
    session.flush()
    return UndoResult("done", "The move was taken back.", outbox_ids,
                      pos.row.bots_due)


def _takeable(session: Session, svc: Services, pos: repository.Position, seat: int) -> int:
    """The seq to go back to for `seat`'s last move, or UndoRefused saying why not."""
    batches = repository.batches(eventstore.newest(session, pos.row, limit=LOOK_BACK))
    mine = None
    for index in range(len(batches) - 1, -1, -1):
        first = batches[index][0]
        if first.source in NOT_A_MOVE:
            break
        if first.seat == seat and first.source != "bot":
            mine = index
            break
        if first.source != "bot":
            break
    if mine is None:
        raise UndoRefused(_("You have no move to take back: the last move is not yours."))
    back_to = batches[mine][0].seq - 1
    state = repository.load(session, svc.states, pos.row.id, upto=back_to).state
    can = getattr(pos.engine, "can_take_back", None)
    for batch in batches[mine:]:
        events = [r.event for r in batch]
        after = repository.load(session, svc.states, pos.row.id, upto=batch[-1].seq).state
        if can is None or not can(state, events) or _revealed(pos, state, after):
            raise UndoRefused(_("That move drew a card, rolled the dice or turned up "
                                "something hidden, so it cannot be taken back."))
        state = after
    return back_to


def _revealed(pos: repository.Position, before, after) -> bool:
    """Whether any seat (or the table) came to know a card it did not know before."""
    for seat in [None, *(s.seat for s in pos.row.seats)]:
        if pos.engine.secrets(before, seat) - pos.engine.secrets(after, seat):
            return True
    return False


def _notice(session: Session, pos: repository.Position, to: int, now, subject: str, text: str,
            **values: str):
    """A notice from the game about a take-back (not a chat line: nobody wrote it), to one seat:
    the email says what it is about and carries no news (`since`: the position as it stands).
    `subject` and `text` are said in the seat's player's language, with `values` put in."""
    player = _seat(pos.row, to).player
    with catalogs.speaking(player.language if player is not None else None):
        said = {"subject": _(subject, **values), "text": _(text, **values)}
    return notify.queue(session, pos.row, to, "undo", pos.seq, now, {"notice": said},
                        since=pos.seq)


def _seat(game, seat: int):
    return next(s for s in game.seats if s.seat == seat)
