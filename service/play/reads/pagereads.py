"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves.

The history is paged in SQL: a page holds the newest `HISTORY_PAGE` events before a seq (and
the chat messages written meanwhile that the seat may read), so a long game's page stays
short and cheap."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from service.display.seatview import SeatPage, after_colon, history, told
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play import community, readpolicy, repository
from service.play.errors import NoSuchGame
from service.play.moves import chat, notes, standingplans, tablebots, undo
from service.play.readpolicy import Reader
from service.play.services import Services
from service.play.time import seat_line
from service.store import eventstore
from service.store.models import GameRow, InboundMessage, Invitation, SeatChange
from service.store.statuses import GameStatus, InboundStatus

from . import forcedmoves, seatpage, waiting

HISTORY_PAGE = 50


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # the page of history as the seat may see it, oldest first
    bounced: tuple[str, ...] = ()   # players whose mail bounced: they are mailed nothing
    older: int | None = None     # `before` of the next older page, None at the start
    bots: list[int] = field(default_factory=list)   # seats played by bots
    undo: dict | None = None     # the request to take back a move waiting for answers
    # mail for this seat from other addresses (when, from whom), newest first: nothing was
    # done with it, and the owner should know someone tried
    attempts: list[tuple[str, str]] = field(default_factory=list)
    rematch: int | None = None   # a finished game's rematch, once someone has offered it
    public_path: str = ""        # the game's public page, when its players keep one
    zone: str = ""               # the reader's chosen time zone ("": none chosen, or nobody's)
    plans: list[str] = field(default_factory=list)        # the seat's standing plans
    plan_hints: list[str] = field(default_factory=list)   # plans it might write now
    # the player whose seat it is now (None for a spectator): a page opened by someone
    # signed in as another player says whose seat its buttons act for
    seat_player: int | None = None
    tournament_id: int | None = None   # a tournament's game: resigning it withdraws from it
    notes: list[str] = field(default_factory=list)   # the holder's private notes (`note`)
    # the holder's game waiting longest on them elsewhere ("Next game"), once this one
    # waits on others
    next_game: waiting.Waiting | None = None
    followers: int = 0           # the public page's: how many follow the game


def read_game(svc: Services, game_id: int, reader: Reader, *, with_history: bool = True,
              before: int | None = None) -> GameRead:
    """The game's page as `reader` may see it (service.play.readpolicy): a link's seat, its
    own view; the public page's audience, the spectator's. `with_history=False` for pages that
    show only the position (a link's confirm page): no history, moves to choose from, undo
    request or attempts; `before`: the history page of the events before that seq."""
    with svc.db.reading() as session:
        # the page's reads of plain rows go to the transaction's connection: through the
        # session's execute, which readies ORM loading they do not use, each cost three times
        # as much
        rows = session.connection()
        row = readpolicy.admit(lambda: repository.game_record(rows, game_id), reader,
                               readpolicy.sees_table)
        seat = readpolicy.seat_shown(row, reader)
        # the page of history, read first: its events are those a cold fold of the newest
        # position needs (after the newest snapshot, at most SNAPSHOT_EVERY back), one read
        recent = eventstore.newest(rows, row, before=before, limit=HISTORY_PAGE) \
            if with_history else []
        pos = repository.load(session, svc.states, game_id, row=row,
                             known=recent if before is None else ())
        names = [s.player.name for s in pos.row.seats]
        page = seatpage.build(pos.row, pos, seat, svc.clock.now(), every_move=True,
                              with_menu=with_history)
        holder_id = None if seat is None else next(
            (s.player_id for s in pos.row.seats if s.seat == seat), None)
        if not with_history:     # the position alone
            return GameRead(page, [], seat_player=holder_id)
        entries, older = history_page(rows, pos, seat, names, before, recorded=recent)
        request = undo.asked(session, game_id, pos.seq)
        asking = None if request is None else {
            "seat": request.seat, "name": names[request.seat], "mine": request.seat == seat,
            "answered": str(seat) in request.answers}
        bounced = tuple(s.player.name for s in pos.row.seats if s.player.bounced_at)
        tried = [] if seat is None else [
            (m.received_at.strftime("%Y-%m-%d %H:%M UTC"), m.parsed.get("sender", "?")
             if m.parsed else "?") for m in attempts(rows, game_id, seat)]
        rematch = rows.scalar(_REMATCH, {"game_id": game_id}) \
            if pos.row.status == GameStatus.ENDED else None
        public_id = readpolicy.public_page(pos.row)
        public = svc.urls.public_game_path(public_id) if public_id else ""
        mine = [] if seat is None else standingplans.mine(session, pos.engine, game_id, seat, names)
        return GameRead(page, entries, bounced, older,
                        [s.seat for s in pos.row.seats if s.bot], asking, tried, rematch,
                        public, _zone(pos.row, seat), mine,
                        standingplans.hints(pos.engine, pos.state, seat, names), holder_id,
                        pos.row.tournament_id, notes.shown(rows, game_id, seat, holder_id),
                        None if seat is None or seat in page.to_act else
                        waiting.first_waiting(rows, holder_id, besides=game_id),
                        community.follows.followers(rows, game_id) if seat is None else 0)


def history_page(session: Session | Connection, pos: repository.Position, seat: int | None,
                 names: list[str], before: int | None,
                 limit: int = HISTORY_PAGE,
                 recorded: list[eventstore.Recorded] | None = None
                 ) -> tuple[list[dict], int | None]:
    """One page of history, oldest first, each entry with its time (`at`, ISO 8601 UTC), and
    the `before` of the next older page (None when this page reaches the start). Moves the
    clock played say so, and the seat changes (resign, forfeit, absent, handover) and the chat
    messages the seat may read stand among the events of their time. `recorded`: the page's
    events, when the caller has read them already."""
    if recorded is None:
        recorded = eventstore.newest(session, pos.row, before=before, limit=limit)
    if not recorded:
        return [], None
    first, last = recorded[0].seq, recorded[-1].seq
    at = {r.seq: r.at.isoformat() for r in recorded}
    timer = {r.seq: r.seat for r in recorded if r.source == "timer"}
    planned = {r.seq for r in recorded if r.source == "plan"}
    # a forced move is marked for its own seat alone (service.play.reads.forcedmoves)
    forced = {r.seq for r in recorded if r.source == tablebots.FORCED and r.seat == seat}
    entries = []
    for h in history(pos.engine, [(r.seq, r.event) for r in recorded], seat, names):
        if h["seq"] in timer:
            h = dict(h, text=clock_played(h["text"], seat is not None and timer[h["seq"]] == seat))
        elif h["seq"] in planned:
            h = dict(h, text=_("%(line)s (played by plan)", line=h["text"]))
        elif h["seq"] in forced:
            h = dict(h, text=forcedmoves.marked(h["text"]))
        entries.append(dict(h, kind="event", at=at[h["seq"]]))
    # a message or a seat change belongs to the page whose events it came among
    after = -1 if first == 1 else first - 1
    upto = None if before is None else last
    entries += [chat.entry(m, names, seat)
                for m in chat.messages(session, pos.row.id, seat, after_seq=after, upto_seq=upto)]
    for c in session.execute(_SEAT_CHANGES, {"game_id": pos.row.id, "after": after,
                                             "upto": _END if upto is None else upto}):
        entries.append({"seq": c.seq, "kind": "event", "type": c.kind,
                        "text": told(seat_line(c.text), names, seat),
                        "at": c.created_at.isoformat()})
    entries.sort(key=lambda e: (e["seq"], e["kind"] == "chat", e["at"]))
    return entries, (first if first > 1 else None)



def _zone(game: GameRow, seat: int | None) -> str:
    row = next((s for s in game.seats if s.seat == seat), None)
    return (row.player.zone or "") if row is not None else ""


def clock_played(text: str, for_reader: bool) -> str:
    """A history line of a move the clock made, in the language of the moment (the line
    itself told already from the engine's template): for the seat it played for, that its
    time ran out and the clock played for it ("You rolled..." alone would say the player
    did)."""
    if not for_reader:
        return _("%(line)s (played by the clock: out of time)", line=text)
    return _("Your time ran out, so the clock played for you: %(line)s",
             line=after_colon(text))


@dataclass(frozen=True)
class PublicGame:
    game_id: int
    status: str              # forming | active | ended
    title: str
    seats: list[tuple[str, str]]   # forming: (display name or "an invited player", status)


#: a public page's address that shows nothing: no such id, or a page its players turned off
NO_PAGE = N_("There is no such game page (or its players keep it private).")


def public_game(svc: Services, public_id: str) -> PublicGame:
    """The game behind a public page's unguessable id, for that page's audience
    (readpolicy.sees_table); a game whose page is off, or an id that names nothing, is "no
    such game" alike."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: by_public_id(session, public_id),
                               Reader.spectator(public_id), readpolicy.sees_table, NO_PAGE)
        seats = []
        if row.status == GameStatus.FORMING:
            for inv in session.scalars(select(Invitation).where(
                    Invitation.game_id == row.id, Invitation.status != "replaced")
                    .order_by(Invitation.seat)):
                who = inv.player.name if inv.player is not None else (
                    _("an open seat") if inv.status == "open" else _("an invited player"))
                seats.append((who, inv.status))
        return PublicGame(row.id, row.status, registry.title(row.kind, row.options), seats)


def by_public_id(session: Session, public_id: str) -> GameRow:
    """The game whose public page id this is, its page on or off (the policy decides)."""
    row = session.scalars(select(GameRow).where(GameRow.public_id == public_id[:40])).first()
    if row is None:
        raise NoSuchGame(NO_PAGE)
    return row


def attempts(session: Session | Connection, game_id: int, seat: int, limit: int = 10) -> list:
    """Mail for this seat from other addresses, newest first (the seat's game page): rows
    with InboundMessage's `received_at` and `parsed`."""
    return session.execute(_ATTEMPTS, {"game_id": game_id, "seat": seat, "limit": limit}).all()


# a page's reads besides the game and its events, each built once: built per call they were
# a large share of a cold game page (docs/performance.md); `upto` past the end means "all"
_END = 2**31 - 1
_SEAT_CHANGES = (select(SeatChange.seq, SeatChange.kind, SeatChange.text, SeatChange.created_at)
                 .where(SeatChange.game_id == bindparam("game_id"),
                        SeatChange.seq > bindparam("after"), SeatChange.seq <= bindparam("upto"))
                 .order_by(SeatChange.id))
_REMATCH = (select(GameRow.id).where(GameRow.rematch_of == bindparam("game_id"))
            .order_by(GameRow.id).limit(1))
_ATTEMPTS = (select(InboundMessage.received_at, InboundMessage.parsed)
             .where(InboundMessage.game_id == bindparam("game_id"),
                    InboundMessage.seat == bindparam("seat"),
                    InboundMessage.status == InboundStatus.STRANGER)
             .order_by(InboundMessage.id.desc()).limit(bindparam("limit")))
