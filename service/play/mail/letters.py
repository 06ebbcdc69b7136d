"""The emails about the service itself rather than a move: a sign-in link, an invitation (to a
game or a tournament), a standing challenge matched (its payload carries everything it says).
The outbox row names its sign-in or invitation row; the link's token is minted when the email
is rendered, so no bearer token is ever stored."""
from __future__ import annotations

from email.message import EmailMessage

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.games import registry
from service.mail.outbound.compose import Envelope, compose_letter
from service.play.services import Services
from service.play.time import clocks
from service.play.time import deadlines as timing
from service.store.models import GameRow, Invitation, OutboxRow, Player

KINDS = frozenset({"sign_in", "invitation", "challenge", "tournament_invite", "tournament_round",
                   "tournament_end", "ladder_challenge"})


def render(session: Session, svc: Services, row: OutboxRow, envelope: Envelope) -> EmailMessage:
    urls = svc.urls
    payload = row.payload or {}
    if row.kind == "sign_in":
        ctx = {"link": urls.absolute(urls.sign_in_path(payload["sign_in"]))}
        return compose_letter(svc.templates, urls, envelope, "sign_in", ctx)
    if row.kind == "challenge":
        ctx = {**payload, "lobby": urls.absolute("/games/open")}
        return compose_letter(svc.templates, urls, envelope, "challenge", ctx)
    if row.kind == "tournament_invite":
        # the accept, decline and never links are minted now: no bearer token is stored
        def answer(choice: str) -> str:
            return urls.absolute(urls.tournament_invitation_path(
                payload["tournament"], payload["invite"], choice))
        ctx = {**payload, "accept": answer("accept"), "decline": answer("decline"),
               "never": answer("never"), "link": urls.absolute(payload["path"])}
        return compose_letter(svc.templates, urls, envelope, row.kind, ctx)
    if row.kind.startswith("tournament_") or row.kind == "ladder_challenge":
        # the payload says it all (service.play.community.letters, .ladders)
        ctx = {**payload, "link": urls.absolute(payload["path"])}
        return compose_letter(svc.templates, urls, envelope, row.kind, ctx)
    inv = session.get(Invitation, payload["invitation"])
    game = session.get(GameRow, inv.game_id)
    creator = session.get(Player, game.created_by) if game.created_by else None
    seats = session.scalar(select(func.count()).select_from(Invitation).where(
        Invitation.game_id == game.id, Invitation.status != "replaced"))

    def link(answer: str) -> str:
        return urls.absolute(urls.invitation_path(game.id, inv.seat, inv.id, answer))

    ctx = {"inviter": creator.name if creator else "A player", "game_id": game.id,
           "title": registry.title(game.kind, game.options), "seats": seats,
           "accept": link("accept"), "decline": link("decline"), "never": link("never"),
           "expires": inv.expires_at.strftime("%d %B %Y, %H:%M UTC") if inv.expires_at else "",
           # the time each move may take: what a player agrees to by accepting
           "clock": clocks.describe(timing.control(game))}
    return compose_letter(svc.templates, urls, envelope, "invitation", ctx)

