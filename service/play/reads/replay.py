"""Looking back: a seat steps through the game's positions exactly as it saw them then, and
downloads the log as it may see it (its players, and a public page's audience, may download
the whole log once the game is over). Who may read what is service.play.readpolicy's to say.

A step is a position that existed: the end of one committed batch of events (one start, one
move or turn, one bot move, one take-back), found from the events' (seat, source, time) —
the events of one commit share them. A seat steps only through batches it could see something
of. Each step is rebuilt with `positions.load(upto=seq)` and shown through the engine's `view`
for that seat: what the seat could not see then, the page is never given."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from service.display.seatview import history, redact
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play import readpolicy, repository
from service.play.errors import PlayError
from service.play.moves import chat
from service.play.readpolicy import Reader
from service.play.services import Services
from service.store import eventstore
from service.store.models import GameRow
from service.store.statuses import GameStatus

from .pagereads import by_public_id


class NotYet(PlayError):
    title = N_("Not until the game is over")


@dataclass(frozen=True)
class Step:
    game_id: int
    kind: str
    title: str
    seat: int | None
    names: list[str]
    view: dict
    seq: int              # the position shown: after event `seq`
    number: int           # 1-based step number, of `count`
    count: int
    prev: int | None      # seq of the previous / next step
    next: int | None
    happened: list[str]   # what the step's batch did, as the seat may read it
    # the view's own sentences as templates (the engine's `view_said`: Suzerain's prompt),
    # so the page says the past position's prompt in the reader's language too
    said: dict = field(default_factory=dict)


def replay_step(svc: Services, game_id: int, reader: Reader, at: int | None) -> Step:
    """The step at seq `at` (or the nearest step before it; the first step when None), as the
    reader's seat saw it (the spectator's, for the public page's audience)."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: repository.game_row(session, game_id), reader,
                               readpolicy.sees_table)
        seat = readpolicy.seat_shown(row, reader)
        pos = repository.load(session, svc.states, game_id)
        recorded = eventstore.load(session, row)
        steps = repository.batches(recorded)
        names = [s.player.name for s in row.seats]
        seen = [b for b in steps if b is steps[0]
                or history(pos.engine, [(r.seq, r.event) for r in b], seat, names)]
        ends = [b[-1].seq for b in seen]
        index = 0 if at is None else max([i for i, e in enumerate(ends) if e <= at] or [0])
        batch = seen[index]
        then = repository.load(session, svc.states, game_id, upto=ends[index])
        view_said = getattr(pos.engine, "view_said", None)
        return Step(game_id, row.kind, registry.title(row.kind, row.options), seat, names,
                    pos.engine.view(then.state, seat), ends[index], index + 1, len(ends),
                    ends[index - 1] if index > 0 else None,
                    ends[index + 1] if index + 1 < len(ends) else None,
                    [h["text"] for h in history(pos.engine, [(r.seq, r.event) for r in batch],
                                                seat, names)],
                    dict(view_said(then.state, seat)) if view_said is not None else {})



def seat_log(svc: Services, game_id: int, reader: Reader) -> dict[str, Any]:
    """The log as the reader's seat may see it: each event redacted for it, and the messages
    it may read."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: repository.game_row(session, game_id), reader,
                               readpolicy.sees_table)
        seat = readpolicy.seat_shown(row, reader)
        pos = repository.load(session, svc.states, game_id)
        names = [s.player.name for s in row.seats]
        return {"game": game_id, "kind": row.kind, "seat": seat, "players": names,
                "events": seat_events(session, pos.engine, row, seat),
                "messages": _messages(session, game_id, seat)}


def seat_events(session, engine, row: GameRow, seat: int | None) -> list[dict[str, Any]]:
    """Every event of the game's log as `seat` may see it (the engine's `redact`), in the
    caller's session: the log download and a player's export (reads.mydata)."""
    events = []
    for r in eventstore.load(session, row):
        seen = redact(engine, r.event, seat)
        if seen is not None:
            events.append({"seq": r.seq, "at": r.at.isoformat(), "by": r.seat,
                           "source": r.source, "event": exported(seen)})
    return events


def exported(seen: dict) -> dict:
    """An event as a download gives it: its fields and its English `text`, as logs always
    had them (docs/playing.md, "Replay and logs"). The engine's `say`, the template its
    sentence is told from in the reader's language (service.games.text.said), is the
    display's working and changes with any rewording, so a log does not carry it."""
    return {k: v for k, v in seen.items() if k != "say"}


NO_LOG = N_("There is no such game log.")


def whole_log(svc: Services, reader: Reader, game_id: int | None = None) -> dict[str, Any]:
    """Every event as recorded, hidden cards and all, of the game numbered `game_id` (None:
    the one whose public page the reader came by): only once the game is over, and only to
    those readpolicy.sees_whole_log admits. To anyone else a game that exists is answered
    exactly as one that does not."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: _named(session, reader, game_id), reader,
                               readpolicy.sees_whole_log, NO_LOG)
        readpolicy.seat_shown(row, reader)      # a previous holder's link reads nothing
        game_id = row.id
        pos = (None if row.status == GameStatus.FORMING
               else repository.load(session, svc.states, game_id))
        over = pos is not None and pos.engine.outcome(pos.state) is not None
        if not readpolicy.whole_log_open(row, over):
            raise NotYet(_("The whole log shows every hidden card, so it can be downloaded "
                           "once the game is over. Until then each player can download their "
                           "own view of it from their game page."))
        events = [{"seq": r.seq, "at": r.at.isoformat(), "by": r.seat, "source": r.source,
                   "event": r.event.to_json()} for r in eventstore.load(session, row)]
        return {"game": game_id, "kind": row.kind, "options": row.options,
                "rules_version": row.rules_version,
                "players": [s.player.name for s in row.seats], "events": events,
                "messages": _messages(session, game_id, None)}


def _named(session: Session, reader: Reader, game_id: int | None) -> GameRow:
    """The game a whole log is asked of: by its number, else by the reader's public page."""
    if game_id is None and reader.public_id is not None:
        return by_public_id(session, reader.public_id)
    return repository.game_row(session, game_id if game_id is not None else 0)


def _messages(session, game_id: int, seat: int | None) -> list[dict]:
    return [{"at": m.created_at.isoformat(), "seq": m.seq, "from": m.from_seat,
             "to": m.to_seat, "text": m.text} for m in chat.messages(session, game_id, seat)]
