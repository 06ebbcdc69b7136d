"""The one step that records a timeout's move, shared by the clock sweep's two paths: the
per-game one (service.play.time.sweep.timeouts.Recorder writes it at once) and the batch
(service.play.time.sweep.timeoutbatch.Batch writes it with the rest of its batch). A fix to what
a timeout's move does is made here, once, for both."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from service.games.contract import Event, Move
from service.play import notify, repository
from service.play.moves import Intent, Recorded, consequences
from service.play.services import Services
from service.play.time import receipt_key, worded


def played(session: Session, svc: Services, pos: repository.Position, seat: int, key: str,
           events: list[Event], moves: list[Move], state: Any, notice: dict, now: datetime,
           waiting: list | None = None, hooks: dict | None = None) -> Recorded:
    """A timeout's move (the engine's `timeout_move`s, `events` from `pos`): what any move
    calls for
    (service.play.moves.submit.consequences: the plans waiting on the seat dropped, those
    it sets off played, forced moves and bots due, the game's end), recorded as the clock's
    (source "timer", a receipt per deadline), and everyone told what was played: the turn
    emails carry the notice, the seats without one get a notice of their own. `waiting`: the
    game's waiting plans, and `hooks`, its players' webhooks, read already by a batch."""
    intent = Intent(pos.row.id, seat, moves=moves, source="timer", key=key)
    done = consequences(session, svc, pos, intent, receipt_key(seat, key), events, moves,
                        state, waiting=waiting, hooks=hooks)
    rows = {r.seat: r for r in pos.row.seats}

    def said(to: int) -> dict:
        # the notice's words in each reader's language (deadlines.worded)
        return dict(notice, text=worded(rows[to], notice["text"]))
    told = set()
    for email in done.emails:
        if email["kind"] == "turn":
            email["payload"] = dict(email["payload"], timeout=said(email["seat"]))
            told.add(email["seat"])
    done.emails += [notify.values(pos.row, r.seat, "timeout", done.last, now,
                                  {"timeout": said(r.seat)})
                    for r in pos.row.seats if r.seat not in told]
    return done
