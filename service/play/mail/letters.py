"""The emails about the service itself rather than a move: a sign-in link, an invitation (to a
game or a tournament), a standing challenge matched (its payload carries everything it says),
and the letters about an account (`ACCOUNT`: a change of address, an erasure, the goodbye).
The outbox row names its sign-in, invitation or account change row; the link's token is minted
when the email is rendered, so no bearer token is ever stored, and the addresses an account's
letter names are read from its change then, so the row holds none but its recipient's."""
from __future__ import annotations

from email.message import EmailMessage

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.mailwire.outbound.compose import Envelope, compose_letter
from service.play.services import Services
from service.play.time import clocks, deadlines
from service.store.models import AccountChange, GameRow, Invitation, OutboxRow, Player

#: the letters about an account (service.play.players.readdress and .erasure queue them)
ACCOUNT = frozenset({"readdress_confirm", "readdress_notice", "readdress_done", "moved",
                     "erase_confirm", "goodbye"})
#: a player's webhook was switched off after failing for days (service.play.webhooks)
WEBHOOK_OFF = "webhook_off"
KINDS = frozenset({"sign_in", "invitation", "challenge", "tournament_invite", "tournament_round",
                   "tournament_end", "ladder_challenge", "league_season_start",
                   "league_season_end", WEBHOOK_OFF, "follow_digest"}) | ACCOUNT


def render(session: Session, svc: Services, row: OutboxRow, envelope: Envelope) -> EmailMessage:
    urls = svc.urls
    payload = row.payload or {}
    if row.kind == "sign_in":
        ctx = {"link": urls.absolute(urls.sign_in_path(payload["sign_in"]))}
        return compose_letter(svc.templates, urls, envelope, "sign_in", ctx)
    if row.kind in ACCOUNT:
        return compose_letter(svc.templates, urls, envelope, "account",
                              account_letter(session, svc, row),
                              in_reply_to=payload.get("in_reply_to"),
                              auto="auto-replied" if row.kind == "moved" else "auto-generated")
    if row.kind == WEBHOOK_OFF:
        ctx = {**payload, "since": payload.get("since", "")[:10], "link": urls.absolute("/me")}
        return compose_letter(svc.templates, urls, envelope, row.kind, ctx)
    if row.kind == "follow_digest":
        # the payload holds the public lines (service.play.community.follows); the unfollow
        # link is minted now, so no bearer token is stored
        ctx = {**payload, "unfollow": urls.absolute(urls.unfollow_path(payload["follow"])),
               "games": [{**g, "link": urls.absolute(g["path"])} for g in payload["games"]]}
        return compose_letter(svc.templates, urls, envelope, "follow_digest", ctx)
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
    if row.kind.startswith(("tournament_", "league_")) or row.kind == "ladder_challenge":
        # the payload says it all (service.play.community.tournamentletters, .leagueletters,
        # .ladders)
        ctx = {**payload, "link": urls.absolute(payload["path"])}
        return compose_letter(svc.templates, urls, envelope, row.kind, ctx)
    inv = session.get(Invitation, payload["invitation"])
    game = session.get(GameRow, inv.game_id)
    creator = session.get(Player, game.created_by) if game.created_by else None
    seats = session.scalar(select(func.count()).select_from(Invitation).where(
        Invitation.game_id == game.id, Invitation.status != "replaced"))

    def link(answer: str) -> str:
        return urls.absolute(urls.invitation_path(game.id, inv.seat, inv.id, answer))

    ctx = {"inviter": creator.name if creator else _("A player"), "game_id": game.id,
           "title": registry.title(game.kind, game.options), "seats": seats,
           "accept": link("accept"), "decline": link("decline"), "never": link("never"),
           "expires": catalogs.moment(inv.expires_at) if inv.expires_at else "",
           # the time each move may take: what a player agrees to by accepting
           "clock": clocks.describe(deadlines.control(game))}
    return compose_letter(svc.templates, urls, envelope, "invitation", ctx)



#: the small print of a letter whose link works once within the hour
ONCE_AN_HOUR = N_("The link works once, within an hour. If you did not ask for this, ignore "
                  "this email: nothing changes.")


def account_letter(session: Session, svc: Services, row: OutboxRow) -> dict:
    """The words of a letter about an account, from its change as it is now."""
    urls = svc.urls
    change = session.get(AccountChange, (row.payload or {}).get("change", 0))
    player = session.get(Player, change.player_id) if change is not None else None
    ctx = {"subject": "Turnpost", "paragraphs": [], "link": "", "button": "", "small": ""}
    if row.kind == "goodbye":
        return ctx | {
            "subject": _("Your Turnpost account is erased"),
            "paragraphs": [
                _("Your Turnpost account is erased, as you asked. Your games in progress were "
                  "resigned; in finished games your seat is now \"former player\", with no "
                  "name and no address; your ratings' numbers stay, under no name; everything "
                  "else that named you is deleted."),
                _("This is the last email we send you, and its own record goes once it is "
                  "sent. You may sign up again with this address at any time, as a new "
                  "player.")]}
    if change is None or player is None:
        raise LookupError(f"outbox row {row.id}: its account change is gone")
    if row.kind == "readdress_confirm":
        return ctx | {
            "subject": _("Confirm your new address for Turnpost"),
            "paragraphs": [
                _("%(name)s asked to move their Turnpost account from %(old)s to this "
                  "address.", name=player.name, old=change.old_email),
                _("Open the link and press its button to make the move: your games, ratings, "
                  "tokens and preferences come with it, and from then on Turnpost mails you "
                  "here and reads your replies from here only.")],
            "link": urls.absolute(urls.readdress_path(change.id)),
            "button": _("Confirm the new address"),
            "small": _(ONCE_AN_HOUR)}
    if row.kind == "readdress_notice":
        return ctx | {
            "subject": _("A change of address was asked for your Turnpost account"),
            "paragraphs": [
                _("Someone signed in to your Turnpost account asked to move it to %(new)s.",
                  new=masked(change.new_email or '')),
                _("Nothing moves unless the link sent to that address is pressed, within the "
                  "hour. If it was you, open that email there. If it was not, do nothing: the "
                  "account stays here; a sign-in link comes only to this address, so check "
                  "who can read your mail.")]}
    if row.kind == "readdress_done":
        return ctx | {
            "subject": _("Your Turnpost account moved to this address"),
            "paragraphs": [
                _("Your Turnpost account now uses this address; it used to be %(old)s.",
                  old=change.old_email),
                _("Your games, ratings, tokens and preferences came with it. Turnpost mails "
                  "you here from now on, and reads your replies from here only.")]}
    if row.kind == "moved":
        return ctx | {
            "subject": _("This address no longer plays on Turnpost"),
            "paragraphs": [
                _("On %(day)s the Turnpost account of this address moved to %(new)s, so mail "
                  "from here is no longer read: nothing in your email was done.",
                  day=catalogs.day(change.used_at), new=masked(player.email)),
                _("Write from that address instead: reply there to the latest email of the "
                  "game. This address gets no other answer from Turnpost.")]}
    return ctx | {                                           # erase_confirm
        "subject": _("Confirm: erase your Turnpost account"),
        "paragraphs": [
            _("%(name)s, you asked to erase your Turnpost account (%(old)s).",
              name=player.name, old=change.old_email),
            _("Once you press the button on the link's page, your games in progress are "
              "resigned (with more than two players the game goes on, your turns played by "
              "the default move); in finished games your seat becomes \"former player\", "
              "with no name and no address; your ratings' numbers stay, under no name; "
              "everything else that names you is deleted. It cannot be undone."),
            _("You may want to download your data first: My games, \"Your data\".")],
        "link": urls.absolute(urls.erase_path(change.id)),
        "button": _("Go to the erasure page"),
        "small": _(ONCE_AN_HOUR)}


def masked(addr: str) -> str:
    """An address as a letter shows it to someone who may not own it: "n…@e….org"."""
    local, _, domain = addr.partition("@")
    name, dot, tld = domain.rpartition(".")
    host = (name[:1] + "…" + dot + tld) if name else domain[:1] + "…"
    return f"{local[:1]}…@{host}"
