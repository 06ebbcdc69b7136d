"""A game as one verifiable JSON file (`flask games export ID` / `flask games import FILE`): its
kind, options, rules version, seats and whole event log, the digest of every seat's view after
replaying the log, and a SHA-256 of all of that. Import refuses a file whose hash does not
match (edited by hand) or whose log does not replay to the views it records (edited and
re-hashed, or a rules engine that no longer plays it the same way)."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from sqlalchemy import select

from service.games import registry
from service.games.contract import Event, replay
from service.play import readpolicy, repository
from service.play.errors import PlayError
from service.play.readpolicy import Reader
from service.play.services import Services
from service.store import eventstore
from service.store.models import GameRow, Player, Seat

FORMAT = "turnpost-game/1"


class BadArchive(PlayError):
    title = "This export cannot be imported"


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(doc: dict) -> str:
    return hashlib.sha256(_canonical({k: v for k, v in doc.items() if k != "sha256"})).hexdigest()


def views_digest(engine, state, seats: int) -> str:
    """Every seat's view and the spectator's, hashed: "replays to the same state" as far as
    anybody can see it."""
    views = [engine.view(state, s) for s in [None, *range(seats)]]
    return hashlib.sha256(_canonical(views)).hexdigest()


def export(svc: Services, game_id: int, reader: Reader) -> dict:
    """The game's file, for the reader readpolicy.sees_file admits (the operator)."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: repository.game_row(session, game_id), reader,
                               readpolicy.sees_file)
        recorded = eventstore.load(session, row)
        engine = registry.get(row.kind)
        state = replay(engine, [r.event for r in recorded])
        doc = {
            "format": FORMAT, "kind": row.kind, "options": row.options,
            "rules_version": row.rules_version, "status": row.status,
            "created_at": row.created_at.isoformat(), "exported_from": game_id,
            "seats": [{"seat": s.seat, "email": s.player.email, "name": s.player.name,
                       "muted": s.muted} for s in row.seats],
            "events": [{"seq": r.seq, "type": r.event.type, "data": r.event.data,
                        "seat": r.seat, "source": r.source, "at": r.at.isoformat()}
                       for r in recorded],
            "views_sha256": views_digest(engine, state, len(row.seats)),
        }
    return doc | {"sha256": content_hash(doc)}


def verify(doc: Any) -> list[Event]:
    """The file's events, if it is whole and replays to the views it records."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadArchive(f"This is not a Turnpost game export ({FORMAT}).")
    if doc.get("sha256") != content_hash(doc):
        raise BadArchive("The file's SHA-256 does not match its contents: it was changed "
                         "after it was exported.")
    try:
        engine = registry.get(doc["kind"])
    except registry.UnknownGame:
        raise BadArchive(f"This service has no game {doc['kind']!r}.") from None
    events = [Event(e["type"], e["data"]) for e in doc["events"]]
    if [e["seq"] for e in doc["events"]] != list(range(1, len(events) + 1)):
        raise BadArchive("The log's sequence numbers are not 1, 2, 3...")
    try:
        state = replay(engine, events)
    except Exception as exc:  # noqa: BLE001 - any engine failure means the log does not replay
        raise BadArchive(f"The log does not replay: {type(exc).__name__}: {exc}") from None
    if views_digest(engine, state, len(doc["seats"])) != doc["views_sha256"]:
        raise BadArchive("The log replays to a different position than the one exported.")
    return events


def import_game(svc: Services, doc: Any) -> int:
    """A new game from a verified export (a new id; nobody is mailed). Returns its id."""
    events = verify(doc)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        # a copy of a game played elsewhere, or here: its result was rated there, never again
        game = GameRow(kind=doc["kind"], options=doc["options"], seq=0, status=doc["status"],
                       rules_version=doc["rules_version"], rated=False,
                       created_at=datetime.fromisoformat(doc["created_at"]))
        session.add(game)
        session.flush()
        for s in sorted(doc["seats"], key=lambda s: s["seat"]):
            player = session.scalar(select(Player).where(Player.email == s["email"]))
            if player is None:
                player = Player(email=s["email"], name=s["name"], created_at=now)
                session.add(player)
                session.flush()
            session.add(Seat(game_id=game.id, seat=s["seat"], player_id=player.id,
                             muted=bool(s.get("muted"))))
        session.flush()
        session.refresh(game)
        for e, event in zip(doc["events"], events):
            eventstore.append(session, game, [event], seat=e["seat"], source=e["source"],
                               now=datetime.fromisoformat(e["at"]))
        # whose move it is and how it ended, on the rows as every game has them
        engine = registry.get(game.kind)
        state = repository.fold_log(engine, list(enumerate(events, start=1)))
        repository.mark_turns(game, engine, state)
        outcome = engine.outcome(state)
        if outcome is not None:
            game.outcome = outcome.to_json()
        return game.id
