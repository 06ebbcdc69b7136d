"""Starting a game: players by address, seats in the order given, the engine's opening events,
and everybody's first email — one transaction, then the outbox relay is kicked."""
from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.clocks import ClockError
from service.games import registry
from service.games.contract import OptionError, replay
from service.store import events as event_store
from service.store.models import GameRow, Player, Seat

from . import notify, timing
from .addresses import BadAddress, address, default_name
from .errors import PlayError
from .services import Services


class BadStart(PlayError):
    title = "The game could not be started"


@dataclass(frozen=True)
class Started:
    game_id: int
    seq: int
    outbox_ids: list[int]
    public_id: str = ""


def parse_player(text: str) -> tuple[str, str]:
    """"Anna <anna@example.org>" or "anna@example.org" -> (address, display name)."""
    text = text.strip()
    m = re.match(r"^(.*?)\s*<([^>]+)>$", text)
    name, addr = (m.group(1).strip(' "'), m.group(2).strip()) if m else ("", text)
    try:
        addr = address(addr)
    except BadAddress as exc:
        raise BadStart(exc.detail) from None
    return addr, name[:40] or default_name(addr)


def public_id() -> str:
    """The public page's id: unguessable, so a game's page is found only through its players."""
    return secrets.token_urlsafe(12)


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
    # clock= and on_timeout= are the service's options, not the engine's
    try:
        options, clock, on_timeout = timing.read_options(options)
    except ClockError as exc:
        raise BadStart(str(exc)) from None
    try:
        options = engine.validate_options(len(people), options)
    except OptionError as exc:
        raise BadStart(str(exc)) from None
    now = svc.clock.now()
    game = new_game_row(session, engine, kind, options, "active", now, clock=clock,
                        on_timeout=on_timeout)
    for seat, (addr, name) in enumerate(people):
        player = find_player(session, addr, name, now)
        session.add(Seat(game_id=game.id, seat=seat, player_id=player.id, muted=False))
    return deal(session, svc, game)


def new_game_row(session: Session, engine, kind: str, options: dict, status: str, now,
                 **more) -> GameRow:
    game = GameRow(kind=kind, options=options, seq=0, status=status, created_at=now,
                   rules_version=getattr(engine, "rules_version", 1), public_id=public_id(),
                   **more)
    session.add(game)
    session.flush()
    return game


def deal(session: Session, svc: Services, game: GameRow) -> Started:
    """A game whose seats are all taken begins: the engine's opening events and everybody's
    first email, in the caller's transaction."""
    session.flush()
    session.refresh(game)
    engine = registry.get(game.kind)
    now = svc.clock.now()
    options = game.options
    people = game.seats
    game.status = "active"
    events = engine.start(len(people), options, svc.chance)
    event_store.append(session, game, events, seat=None, source="start", now=now)
    state = replay(engine, events)
    if engine.outcome(state) is not None:
        game.status = "ended"
    timing.open_clocks(session, game, now)
    timing.track(session, game, engine, state, now)
    rows = notify.queue_changed_views(session, game, engine, None, state, game.seq, now)
    session.flush()
    return Started(game.id, game.seq, [r.id for r in rows], game.public_id or "")


def find_player(session: Session, addr: str, name: str, now) -> Player:
    player = session.scalars(select(Player).where(Player.email == addr)).first()
    if player is None:
        player = Player(email=addr, name=name, created_at=now)
        session.add(player)
        session.flush()
    return player
