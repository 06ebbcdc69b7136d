"""Tournaments made in the lobby: the maker is entered at once (bots too), each other entrant
gets one email with a signed accept link and is entered when they accept. The first round
starts by itself when every invitation is accepted; when one is declined or expires, the maker
may start with those who accepted (at least a table), or call it off. Until then the
tournament is "forming"; a pending invitation closes when it starts without it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, webhooks
from service.play.errors import PlayError
from service.play.players import Entry, blocks, default_name, find_player, invitations
from service.play.services import Services
from service.play.time import clocks
from service.store.models import Player, Tournament, TournamentInvite

from .tournaments import (
    BadTournament,
    NoSuchTournament,
    check,
    enter,
    entrants_of,
    first_round,
    new_tournament,
    rounds_of,
)

INVITE_LIFETIME = timedelta(days=7)
MAX_INVITEES = 64


class InviteClosed(PlayError):
    title = N_("This invitation cannot be used")


#: an answered invitation's status, as a refusal to answer it again names it
ANSWERED = {"accepted": N_("accepted"), "declined": N_("declined")}


@dataclass(frozen=True)
class Made:
    tournament_id: int
    started: bool


@dataclass(frozen=True)
class InviteView:
    tournament_id: int
    maker: str
    title: str
    format: str
    rounds: int
    status: str         # pending | accepted | declined | expired | closed | cancelled


def make(svc: Services, maker_id: int, kind: str, fmt: str, rounds: int | None,
         invitees: list[str], *, clock: str | None = None, rated: bool = True,
         no_vacation: bool = False) -> Made:
    """The maker's tournament: `invitees` are addresses (invited by email) or bot levels
    (entered at once). Everything is checked before anything is written or sent."""
    if len(invitees) > MAX_INVITEES:
        raise BadTournament(_("That is %(n)s entrants; a tournament made in the lobby takes "
                              "at most %(most)s. Nothing was sent.", n=len(invitees),
                              most=MAX_INVITEES))
    now = svc.clock.now()
    with svc.db.transaction() as session:
        maker = session.get(Player, maker_id)
        checked = check(svc, kind, fmt, rounds, [maker.email, *invitees], clock=clock)
        addrs = [e.addr for e in checked.entries[1:] if not e.bot]
        _refuse_blocked(session, maker_id, addrs)
        silent = blocks.blocking(session, maker_id, addrs)
        t = new_tournament(session, checked, rated, no_vacation, "forming", now,
                           created_by=maker_id)
        for n, e in enumerate(checked.entries):
            if n == 0 or e.bot:
                enter(session, t, Entry(maker.email, maker.name) if n == 0 else e, n, now)
            else:
                _invite(session, svc, t, maker, e.addr, n, now, silent)
        session.flush()
        games = _start_if_all_in(session, svc, t)
    return Made(t.id, bool(games))


def answer(svc: Services, token: str, choice: str) -> str:
    """accept | decline | never, from the invitation's links: "accepted", "started" (this
    acceptance completed the field and the first round began), "declined", or "never" (declined,
    and the address is never mailed again: every invitation waiting on it is declined too)."""
    tournament_id, invite_id = read_token(svc, token)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        t = _locked(session, tournament_id)
        inv = _open_invite(session, t, invite_id, now)
        inv.answered_at = now
        if choice == "never":
            player = find_player(session, inv.email, default_name(inv.email), now)
            invitations.never_mail(session, player, now)
            for other in session.scalars(select(TournamentInvite).where(
                    TournamentInvite.email == inv.email, TournamentInvite.status == "pending")):
                other.status, other.answered_at = "declined", now
            return "never"
        if choice != "accept":
            inv.status = "declined"
            return "declined"
        inv.status = "accepted"
        player = find_player(session, inv.email, default_name(inv.email), now)
        enter(session, t, Entry(player.email, player.name), inv.entry, now)
        session.flush()
        games = _start_if_all_in(session, svc, t)
    return "started" if games else "accepted"


def start(svc: Services, maker_id: int, tournament_id: int) -> int:
    """The maker starts with those who accepted; the invitations still pending close.
    Returns the number of games of the first round."""
    with svc.db.transaction() as session:
        t = _locked(session, tournament_id)
        if t.created_by != maker_id:
            raise BadTournament(_("Only the player who made this tournament can start it."))
        _still_forming(t)
        return len(_start(session, svc, t))


def cancel(svc: Services, maker_id: int, tournament_id: int) -> None:
    """The maker calls off a tournament that has not started: it is listed as called off, and
    its invitations still open close (their links say so)."""
    with svc.db.transaction() as session:
        t = _locked(session, tournament_id)
        if t.created_by != maker_id:
            raise BadTournament(_("Only the player who made this tournament can call it "
                                  "off."))
        _still_forming(t)
        for inv in invites_of(session, t.id):
            if inv.status == "pending":
                inv.status = "closed"
        t.status, t.ended_at = "cancelled", svc.clock.now()


def read_token(svc: Services, token: str) -> tuple[int, int]:
    """A damaged, foreign or expired token raises the signer's TokenError, answered as every
    link's is."""
    claims = svc.urls.signer.loads("tournament_invite", token)
    if claims.mark is None or not str(claims.mark).isdigit():
        raise InviteClosed(_("This is not a tournament invitation link."))
    return claims.game, int(claims.mark)


def look(svc: Services, token: str) -> InviteView:
    """What the link's page shows before its button is pressed (a GET changes nothing)."""
    tournament_id, invite_id = read_token(svc, token)
    with svc.db.transaction() as session:
        t = session.get(Tournament, tournament_id)
        inv = session.get(TournamentInvite, invite_id)
        if t is None or inv is None or inv.tournament_id != t.id:
            raise InviteClosed(_("This invitation is not one of ours."))
        maker = session.get(Player, t.created_by) if t.created_by else None
        status = status_of(inv, svc.clock.now())
        if t.status == "cancelled" and status == "closed":
            status = "cancelled"
        return InviteView(t.id, maker.name if maker else "Someone",
                          registry.get(t.kind).title, t.format, t.rounds, status)


@dataclass(frozen=True)
class Waiting:
    """A forming tournament on a player's /me: one they made, or one they are invited to."""
    tournament_id: int
    title: str
    path: str           # its page, or (invited) the invitation's accept link
    made: bool


def waiting_for(svc: Services, player_id: int) -> list[Waiting]:
    """The forming tournaments the player made (their page has the Start button) and the
    tournament invitations waiting for their answer."""
    with svc.db.reading() as session:
        return waiting_for_in(session, svc, session.get(Player, player_id))


def waiting_for_in(session, svc: Services, me: Player) -> list[Waiting]:
    """`waiting_for` in the caller's unit of work, the player's row read already (/me)."""
    now = svc.clock.now()
    made = session.scalars(select(Tournament).where(
        Tournament.created_by == me.id, Tournament.status == "forming")
        .order_by(Tournament.id))
    out = [Waiting(t.id, registry.get(t.kind).title, f"/tournaments/{t.id}", True)
           for t in made]
    invited = session.execute(select(TournamentInvite, Tournament).join(
        Tournament, Tournament.id == TournamentInvite.tournament_id).where(
        TournamentInvite.email == me.email, TournamentInvite.status == "pending",
        TournamentInvite.expires_at > now, Tournament.status == "forming"))
    out += [Waiting(t.id, registry.get(t.kind).title,
                    svc.urls.tournament_invitation_path(t.id, inv.id, "accept"), False)
            for inv, t in invited]
    return out


def status_of(inv: TournamentInvite, now) -> str:
    return "expired" if inv.status == "pending" and now > inv.expires_at else inv.status


def invites_of(session: Session, tournament_id: int) -> list[TournamentInvite]:
    return list(session.scalars(select(TournamentInvite).where(
        TournamentInvite.tournament_id == tournament_id).order_by(TournamentInvite.entry)))


# -- inside the transaction -------------------------------------------------------------------

def _start_if_all_in(session: Session, svc: Services, t: Tournament) -> list[int]:
    if any(i.status != "accepted" for i in invites_of(session, t.id)):
        return []
    return _start(session, svc, t)


def _start(session: Session, svc: Services, t: Tournament) -> list[int]:
    """The first round, with whoever is entered now (the caller holds the row's lock)."""
    entered = len(entrants_of(session, t.id))
    table = t.options.get("seats", 2)
    if entered < table:
        raise BadTournament(_("%(title)s needs %(table)s players at a table; only %(n)s have "
                              "accepted. Nothing was started.",
                              title=registry.get(t.kind).title, table=table, n=entered))
    if t.format == "round-robin":      # everyone meets everyone: the rounds of those entered
        t.rounds = rounds_of(t.format, None, entered)
    for inv in invites_of(session, t.id):
        if inv.status == "pending":
            inv.status = "closed"
    t.status = "running"
    return first_round(session, svc, t)


def _still_forming(t: Tournament) -> None:
    if t.status == "cancelled":
        raise BadTournament(_("This tournament was called off; nothing was changed."))
    if t.status != "forming":
        raise BadTournament(_("This tournament has started already; it plays to its end."))


def _locked(session: Session, tournament_id: int) -> Tournament:
    t = session.scalars(select(Tournament).where(Tournament.id == tournament_id)
                        .with_for_update()).one_or_none()
    if t is None:
        raise NoSuchTournament(_("There is no tournament %(id)s.", id=tournament_id))
    return t


def _open_invite(session: Session, t: Tournament, invite_id: int, now) -> TournamentInvite:
    inv = session.get(TournamentInvite, invite_id)
    if inv is None or inv.tournament_id != t.id:
        raise InviteClosed(_("This invitation is not one of ours."))
    if inv.status in ("accepted", "declined"):
        raise InviteClosed(_("This invitation was answered already (%(status)s); nothing "
                             "was changed.", status=_(ANSWERED[inv.status])))
    if t.status == "cancelled":
        raise InviteClosed(_("Its maker called this tournament off; nothing was changed."))
    if inv.status == "closed" or t.status != "forming":
        raise InviteClosed(_("This tournament started without this entry; nothing was "
                             "changed."))
    if now > inv.expires_at:
        raise InviteClosed(_("This invitation has expired; ask the player who invited you "
                             "for a new one."))
    return inv


def _refuse_blocked(session: Session, maker_id: int, addrs: list[str]) -> None:
    """A player the maker blocked is not invited, naming the maker's own block; one who
    blocked the maker is invited and reads "declined" at once, with no email (`_invite`), as
    refusing would tell the maker of the block (players.blocks)."""
    blocked = blocks.blocked_among(session, maker_id, addrs)
    if blocked:
        raise BadTournament(_("You have blocked %(who)s, so you cannot invite them; unblock "
                              "them on /me first. Nothing was sent.", who=blocked))


def _invite(session: Session, svc: Services, t: Tournament, maker: Player, addr: str,
            entry: int, now, silent: set[str] = frozenset()) -> list[int]:
    """One invitation and its one email. An address that asked never to be mailed (or
    bounced), or one of `silent` (its player blocked the maker), is not mailed: its
    invitation reads "declined"."""
    known = session.scalars(select(Player).where(Player.email == addr)).first()
    unmailable = (known is not None and known.unmailable) or addr in silent
    inv = TournamentInvite(tournament_id=t.id, email=addr, entry=entry,
                           status="declined" if unmailable else "pending", created_at=now,
                           expires_at=now + INVITE_LIFETIME,
                           answered_at=now if unmailable else None)
    session.add(inv)
    session.flush()
    if unmailable:
        return []
    clock = t.options.get("clock")
    # the clock and the time in the invitee's language (a player's), as the rest of the letter
    # is; an address that is nobody's yet reads English, as its letter does
    with catalogs.speaking(session.scalar(select(Player.language)
                                          .where(Player.email == addr.lower()))):
        words = {"clock": clocks.describe(clocks.parse_clock(clock)) if clock else "",
                 "expires": catalogs.moment(inv.expires_at)}
    row = notify.letter(
        session, addr, "tournament_invite",
        {"tournament": t.id, "invite": inv.id, "inviter": maker.name,
         "title": registry.get(t.kind).title,
         # English, as the template tests it; the template says it in the reader's language
         "format": N_("Swiss") if t.format == "swiss" else N_("round robin"),
         "rounds": t.rounds, "no_vacation": t.no_vacation, "rated": t.rated, **words,
         "path": f"/tournaments/{t.id}"}, now)
    # the invitee's webhooks told too, when the address is a player's who keeps any
    webhooks.invited(session, addr, None, lambda: _("%(title)s tournament %(id)s",
                                                    title=registry.get(t.kind).title, id=t.id),
                     now)
    return [row.id]
