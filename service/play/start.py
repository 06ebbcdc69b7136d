"""Starting a game: players by address, seats in the order given, the engine's opening events,
and everybody's first email — one transaction, then the outbox relay is kicked."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from service.games import registry
from service.games.contract import OptionError, replay
from service.store import events as event_store
from service.store.models import GameRow, Player, Seat

from . import notify
from .errors import PlayError
from .services import Services

#: A display name longer than this is refused (it goes into every email of the game).
MAX_NAME = 64


class BadStart(PlayError):
    title = "The game could not be started"


@dataclass(frozen=True)
class Started:
    game_id: int
    seq: int
    outbox_ids: list[int]


def parse_player(text: str) -> tuple[str, str]:
    """"Anna <anna@example.org>" or "anna@example.org" -> (address, display name)."""
    text = text.strip()
    m = re.match(r"^(.*?)\s*<([^>]+)>$", text)
    name, addr = (m.group(1).strip(' "'), m.group(2).strip()) if m else ("", text)
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        # RFC 5321 syntax and length (254 in all); no DNS look-up here. ".test" is allowed
        # for test rigs; the 64 characters before the @ are checked below
        addr = validate_email(addr, check_deliverability=False, test_environment=True).normalized
        if len(addr.rpartition("@")[0]) > 64:
            raise EmailNotValidError("more than 64 characters before the @")
    except EmailNotValidError as exc:
        raise BadStart(f"{shown!r} is not an email address we can write to: {exc}") from None
    if len(name) > MAX_NAME:
        raise BadStart(f"The name {shown!r} is longer than {MAX_NAME} characters; please "
                       "shorten it.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in name):
        raise BadStart(f"The name {shown!r} has control characters in it.")
    return addr.lower(), name or addr.split("@")[0]


def start_game(svc: Services, kind: str, players: Sequence[str],
               options: dict[str, Any]) -> Started:
    with svc.db.transaction() as session:
        started = open_game(session, svc, kind, players, options)
    svc.kick("deliver", started.outbox_ids)
    return started


def open_game(session: Session, svc: Services, kind: str, players: Sequence[str],
              options: dict[str, Any]) -> Started:
    """The game's rows, first events and first emails, in the caller's transaction."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        raise BadStart(f"There is no game called {kind!r}.") from None
    people = [parse_player(p) for p in players]
    addrs = [a for a, _ in people]
    if len(set(addrs)) != len(addrs):
        raise BadStart("Each seat needs a different email address.")
    try:
        options = engine.validate_options(len(people), options)
    except OptionError as exc:
        raise BadStart(str(exc)) from None
    now = svc.clock.now()
    game = GameRow(kind=kind, options=options, seq=0, status="active", created_at=now,
                   rules_version=getattr(engine, "rules_version", 1))
    session.add(game)
    session.flush()
    for seat, (addr, name) in enumerate(people):
        player = _player(session, addr, name, now)
        session.add(Seat(game_id=game.id, seat=seat, player_id=player.id, muted=False))
    session.flush()
    session.refresh(game)
    events = engine.start(len(people), options, svc.chance)
    event_store.append(session, game, events, seat=None, source="start", now=now)
    state = replay(engine, events)
    if engine.outcome(state) is not None:
        game.status = "ended"
    rows = notify.queue_changed_views(session, game, engine, None, state, game.seq, now)
    session.flush()
    return Started(game.id, game.seq, [r.id for r in rows])


def _player(session: Session, addr: str, name: str, now) -> Player:
    """The player of that address, made if new. An upsert: twenty lobby posts naming the same
    new address at once all succeed (a plain INSERT would fail all but one on the unique key)."""
    player = session.scalars(select(Player).where(Player.email == addr)).first()
    if player is not None:
        return player
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(dialect.insert(Player).values(email=addr, name=name, created_at=now)
                    .on_conflict_do_nothing(index_elements=["email"]))
    return session.scalars(select(Player).where(Player.email == addr)).one()
