"""What an erased player leaves behind in the community (players.erasure runs this in its
transaction, before the map's rows are deleted or made anonymous: service.play.players.
personaldata). Their games in progress are resigned already.

* Ladders: off each, the players below step up a place (as `ladders.leave`); their open ladder
  games no longer count for the ladder.
* Tournaments: one they made that has not started is called off (as `invites.cancel`); in one
  still forming they are no entrant any more; in one running they withdraw from this round on
  (a resignation withdraws them only at the round's end, and they may have no game in this
  round); their invitations still pending read declined. A finished tournament keeps them,
  as the anonymous player, in its standings.
* Leagues: they leave each (their resigned games withdraw them from the season being played),
  so no later season enters them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.play.players import Who
from service.play.services import Services
from service.store.models import LadderRung, Tournament, TournamentEntrant, TournamentInvite

from . import ladders, leagues


def erased(session: Session, svc: Services, person: Who, now: datetime) -> None:
    for rung in session.scalars(select(LadderRung).where(
            LadderRung.player_id == person.player_id).with_for_update()).all():
        ladders.step_off(session, rung)
    made = session.scalars(select(Tournament).where(
        Tournament.created_by == person.player_id, Tournament.status == "forming")
        .with_for_update()).all()
    for t in made:
        for inv in session.scalars(select(TournamentInvite).where(
                TournamentInvite.tournament_id == t.id, TournamentInvite.status == "pending")):
            inv.status = "closed"
        t.status, t.ended_at = "cancelled", now
    entered = session.execute(select(TournamentEntrant, Tournament).join(
        Tournament, Tournament.id == TournamentEntrant.tournament_id).where(
        TournamentEntrant.player_id == person.player_id)).all()
    for entrant, t in entered:
        if t.status == "forming":
            session.execute(delete(TournamentEntrant).where(
                TournamentEntrant.tournament_id == t.id,
                TournamentEntrant.player_id == person.player_id))
        elif t.status == "running" and entrant.withdrawn_round is None:
            entrant.withdrawn_round = t.round
    if person.addresses:
        for inv in session.scalars(select(TournamentInvite).where(
                TournamentInvite.email.in_(person.addresses),
                TournamentInvite.status == "pending")):
            inv.status, inv.answered_at = "declined", now
    leagues.left_everything(session, person.player_id, now)
    session.flush()
