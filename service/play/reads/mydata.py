"""A player's data in one JSON document (issue 52; `GET /me/export`, `flask players export
ADDRESS`): their profile and preferences, every game they sit in, each named by "gameId" with
its rules, options and result and its log as their seat may see it, and every other row of the
map (service.play.players.personaldata) that names them: ratings and their history, ladders,
tournaments, challenges, blocks, reports, tokens (never the tokens themselves), webhooks
(never their secrets: personaldata says why), sign-ins, invitations, vacations, changes of
address.

A game is shown only as the seat may see it, whatever its state: its log through the engine's
`redact`, its position through `view` (the same `seat_events` as the seat's own log download),
so a card another seat hid is never in it (tests/play/players/test_export.py, for every game).
Of the table talk only the player's own lines are theirs to take; the others' stay with the
game."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from service.mailwire.outbound.catalogs import unkept
from service.play import repository
from service.play.players import datarows, personaltokens
from service.play.services import Services
from service.play.time import seat_line
from service.store.models import (
    ChatMessage,
    League,
    LeagueMember,
    Note,
    Plan,
    Player,
    Seat,
    SeatChange,
)
from service.store.statuses import GameStatus

from .replay import seat_events

FORMAT = "turnpost-player/1"
_SEAT_WORD = re.compile(r"\{p(\d+)\}")


def export_address(svc: Services, addr: str) -> dict[str, Any]:
    """The operator's export of the player of `addr`."""
    with svc.db.reading() as session:
        player_id = session.scalar(select(Player.id).where(
            Player.email == addr.strip().lower()))
    if player_id is None:
        raise personaltokens.UnknownPlayer(f"No player has the address {addr.strip()!r}.")
    return export(svc, player_id)


def export(svc: Services, player_id: int) -> dict[str, Any]:
    with svc.db.reading() as session:
        person = datarows.who(session, player_id)
        doc = {"format": FORMAT, "exported_at": svc.clock.now().isoformat()}
        for name, part in PARTS.items():
            doc[name] = part(session, svc, person)
        doc["records"] = datarows.records(session, person)
        return doc


def profile(session, svc: Services, person: datarows.Who) -> dict[str, Any]:
    """The players row as it is: name, address, handle, every preference."""
    player = session.get(Player, person.player_id)
    return {c.name: datarows.plain(getattr(player, c.key)) for c in Player.__table__.columns}


def games(session, svc: Services, person: datarows.Who) -> list[dict[str, Any]]:
    out = []
    for seat_row in session.scalars(select(Seat).where(Seat.player_id == person.player_id)
                                    .order_by(Seat.game_id)):
        out.append(_game(session, svc, seat_row.game_id, seat_row))
    return out


def _game(session, svc: Services, game_id: int, mine: Seat) -> dict[str, Any]:
    pos = repository.load(session, svc.states, game_id)
    row, engine, seat = pos.row, pos.engine, mine.seat
    names = [s.player.name for s in row.seats]
    outcome = engine.outcome(pos.state)
    return {
        "gameId": row.id, "kind": row.kind, "title": engine.title, "options": row.options,
        "rules_version": row.rules_version, "status": row.status,
        "created_at": row.created_at.isoformat(), "rated": row.rated,
        "seat": seat, "seat_status": mine.status, "players": names,
        # the service's result (a resignation or forfeit ended it), else the engine's
        "result": row.result or (outcome.to_json() if outcome is not None else None),
        "ended": row.status == GameStatus.ENDED or outcome is not None,
        "view": engine.view(pos.state, seat),
        "log": seat_events(session, engine, row, seat),
        "chat": [{"at": m.created_at.isoformat(), "seq": m.seq, "to": m.to_seat,
                  "text": m.text} for m in session.scalars(
                      select(ChatMessage).where(ChatMessage.game_id == game_id,
                                                ChatMessage.from_seat == seat)
                      .order_by(ChatMessage.id))],
        "plans": [{"kind": p.kind, "text": p.text, "status": p.status,
                   "why": p.why and unkept(p.why),
                   "written_seq": p.written_seq, "at": p.created_at.isoformat()}
                  for p in session.scalars(select(Plan).where(
                      Plan.game_id == game_id, Plan.seat == seat).order_by(Plan.id))],
        # their own notes alone: a note another holder of the seat wrote is not theirs
        "notes": [{"text": n.text, "at": n.created_at.isoformat()}
                  for n in session.scalars(select(Note).where(
                      Note.game_id == game_id, Note.seat == seat,
                      Note.player_id == mine.player_id).order_by(Note.id))],
        "seat_changes": [{"seq": c.seq, "kind": c.kind, "at": c.created_at.isoformat(),
                          "text": _named(seat_line(c.text)["text"], names)}
                         for c in session.scalars(select(SeatChange).where(
                             SeatChange.game_id == game_id, SeatChange.seat == seat)
                             .order_by(SeatChange.id))],
    }


def leagues(session, svc: Services, person: datarows.Who) -> list[dict[str, Any]]:
    """Each league they are in or were in: its game, the season it plays, their division in
    it (none while they wait for a place), when they joined and when they left."""
    rows = session.execute(select(LeagueMember, League).join(
        League, League.id == LeagueMember.league_id).where(
        LeagueMember.player_id == person.player_id).order_by(LeagueMember.league_id)).all()
    return [{"league": league.id, "kind": league.kind, "season": league.season,
             "division": member.division, "joined_at": member.joined_at.isoformat(),
             "left_at": member.left_at.isoformat() if member.left_at else None}
            for member, league in rows]


def _named(text: str, names: list[str]) -> str:
    """A seat change's sentence with its seats' names ("{p1} resigned": "Bob resigned")."""
    return _SEAT_WORD.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                          else m.group(0), text)


#: the parts of the export built here, by the names personaldata.Part gives them (a test
#: checks that every part the map names has its builder)
PARTS = {"profile": profile, "games": games, "leagues": leagues}

