"""A league's emails: a season's start (your division, your opponents, the clock) and its end
(your place, and whether you move up, down, stay or are out), one to each member who can be
mailed (never a bot). The payload carries everything the letter says, as it stood when queued:
its sentences built here (the clock, the standings, the fate) are in the member's language,
as the relay composes the rest of the letter in it."""
from __future__ import annotations

from collections.abc import Hashable

from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import _
from service.play import notify
from service.play.services import Services
from service.play.time import clocks
from service.store.models import League, LeagueMember

from . import standings


def mailable(member: LeagueMember) -> bool:
    player = member.player
    return not (member.bot or player.unmailable or player.email.endswith(".invalid"))


def season_start(session: Session, svc: Services, league: League,
                 divisions: list[list[LeagueMember]], clock: str) -> None:
    """`clock`: each game's clock option, said in the letter in words."""
    control = clocks.parse_clock(clock)
    now = svc.clock.now()
    for d, members in enumerate(divisions, 1):
        for m in members:
            if not mailable(m):
                continue
            with catalogs.speaking(m.player.language):
                words = clocks.describe(control)
            notify.letter(session, m.player.email, "league_season_start", {
                **_about(league), "name": m.player.name, "division": d,
                "opponents": [o.player.name for o in members if o is not m],
                "clock": words, "days": league.season_days}, now)


def season_end(session: Session, svc: Services, league: League,
               boards: list[list[standings.Line]], members: dict[int, LeagueMember],
               steps: dict[Hashable, int], after: list[list[int]]) -> None:
    """`boards`: each division's final standings, top division first; `steps`: each
    player's move (-1 up, +1 down, 0 stays); `after`: the next season's divisions."""
    next_division = {pid: d for d, division in enumerate(after, 1) for pid in division}
    now = svc.clock.now()
    for d, board in enumerate(boards, 1):
        for place, line in enumerate(board, 1):
            m = members.get(line.player_id)
            if m is None or not mailable(m):
                continue
            with catalogs.speaking(m.player.language):
                lines = [standings.line_text(n, shown, "round-robin")
                         for n, shown in enumerate(board, 1)]
                said = fate(steps.get(line.player_id, 0), m, next_division.get(line.player_id),
                            d, league.status == "closing")
            notify.letter(session, m.player.email, "league_season_end", {
                **_about(league), "name": m.player.name, "division": d, "place": place,
                "of": len(board), "standings": lines, "fate": said}, now)


def fate(step: int, member: LeagueMember, division: int | None, was: int,
         closing: bool = False) -> str:
    """What the season's end means for the member, in one sentence, in the language of the
    moment."""
    if closing:
        return _("This was the league's last season: it is closed now.")
    if member.left_at is not None:
        return _("You have left the league, so you are not in the next season.")
    if division is None:
        return _("The next season waits for more players to join; you are in it, and it "
                 "starts when the divisions are full.")
    if step < 0:
        return _("You are promoted: next season you play in division %(n)s.", n=division)
    if step > 0:
        return _("You are relegated: next season you play in division %(n)s.", n=division)
    if division == was:
        return _("Next season you play in division %(n)s.", n=division)
    return _("Next season you play in division %(n)s (its places were filled from below, as "
             "players left).", n=division)


def _about(league: League) -> dict:
    return {"league": league.id, "title": registry.get(league.kind).title,
            "season": league.season, "divisions": league.divisions,
            "path": f"/leagues/{league.id}"}
