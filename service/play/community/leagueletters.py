"""A league's emails: a season's start (your division, your opponents, the clock) and its end
(your place, and whether you move up, down, stay or are out), one to each member who can be
mailed (never a bot). The payload carries everything the letter says, as it stood when queued."""
from __future__ import annotations

from collections.abc import Hashable

from sqlalchemy.orm import Session

from service.games import registry
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
    words = clocks.describe(clocks.parse_clock(clock))
    now = svc.clock.now()
    for d, members in enumerate(divisions, 1):
        for m in members:
            if not mailable(m):
                continue
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
        lines = [standings.line_text(n, line, "round-robin") for n, line in enumerate(board, 1)]
        for place, line in enumerate(board, 1):
            m = members.get(line.player_id)
            if m is None or not mailable(m):
                continue
            notify.letter(session, m.player.email, "league_season_end", {
                **_about(league), "name": m.player.name, "division": d, "place": place,
                "of": len(board), "standings": lines,
                "fate": fate(steps.get(line.player_id, 0), m, next_division.get(line.player_id),
                             d, league.status == "closing")}, now)


def fate(step: int, member: LeagueMember, division: int | None, was: int,
         closing: bool = False) -> str:
    """What the season's end means for the member, in one sentence."""
    if closing:
        return "This was the league's last season: it is closed now."
    if member.left_at is not None:
        return "You have left the league, so you are not in the next season."
    if division is None:
        return ("The next season waits for more players to join; you are in it, and it "
                "starts when the divisions are full.")
    if step < 0:
        return f"You are promoted: next season you play in division {division}."
    if step > 0:
        return f"You are relegated: next season you play in division {division}."
    return f"Next season you play in division {division}" + (
        "." if division == was else " (its places were filled from below, as players left).")


def _about(league: League) -> dict:
    return {"league": league.id, "title": registry.get(league.kind).title,
            "season": league.season, "divisions": league.divisions,
            "path": f"/leagues/{league.id}"}
