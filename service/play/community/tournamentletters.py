"""The tournament's emails: each round's start and the end, one to each entrant who can be
mailed (never a bot). The payload carries what the letter says (the standings as they stood,
in the entrant's language), so the email shows the tournament at the moment it was queued. A league's division sends
none: its league tells a season's start and end in letters of its own
(service.play.community.leagueletters)."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.play import notify
from service.play.services import Services
from service.store.models import Tournament, TournamentEntrant

from . import standings


def tell_entrants(session: Session, svc: Services, t: Tournament, kind: str,
                  entrants: Iterable[TournamentEntrant]) -> list[int]:
    if t.options.get("league"):
        return []
    session.flush()
    board = standings.compute(session, svc, t)
    said: dict[str, list[str]] = {}      # the standings' lines, once per language
    now = svc.clock.now()
    rows = []
    for e in entrants:
        if e.bot or e.player.unmailable or e.player.email.endswith(".invalid"):
            continue
        with catalogs.speaking(e.player.language) as lang:
            if lang not in said:
                said[lang] = [standings.line_text(n, line, t.format)
                              for n, line in enumerate(board, 1)]
        lines = said[lang]
        rows.append(notify.letter(
            session, e.player.email, kind,
            {"tournament": t.id, "title": registry.get(t.kind).title,
             "round": t.round, "rounds": t.rounds, "name": e.player.name,
             "standings": lines, "path": f"/tournaments/{t.id}"}, now))
    return [r.id for r in rows]
