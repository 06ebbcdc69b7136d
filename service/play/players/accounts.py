"""Accounts without passwords (docs/architecture.md, "Players and identity"): an account is the player row
of an address, signed in by a one-time emailed link; it owns every seat of that address.

A sign-in link lasts 15 minutes, works once, and only in the browser that asked for it: the
adapter keeps a random nonce in that browser's session and hands its hash in here, so a link
read by someone else (a forwarded email, a mail scanner) signs nobody in."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import available_timezones

from sqlalchemy import select

from service.linking.signer import TokenError
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify
from service.play.errors import PlayError
from service.play.services import Services
from service.store.models import Player, SignIn

from .addresses import address, default_name, erased

SIGN_IN_LIFETIME = timedelta(minutes=15)
MAIL_MODES = {"turn": N_("when it is my move"), "every": N_("every move"),
              "digest": N_("a daily digest")}
ZONES = frozenset(available_timezones())


class SignInRefused(PlayError):
    title = N_("This sign-in link does not work")


class BadPreferences(PlayError):
    title = N_("Those preferences were not saved")


@dataclass(frozen=True)
class Account:
    id: int
    email: str
    name: str
    zone: str | None
    mail_mode: str
    digest_hour: int | None
    muted_reason: str | None       # why no mail reaches this address, if none does
    language: str = catalogs.DEFAULT
    chosen_language: str | None = None    # as chosen_language says: None, none chosen yet


def browser_hash(nonce: str) -> str:
    return hashlib.sha256(("turnpost.browser:" + nonce).encode()).hexdigest()


def request_sign_in(svc: Services, typed: str, browser_nonce: str,
                    language: str | None = None) -> list[int]:
    """Mail a sign-in link to the address (a new address becomes a new player when the link is
    used, not before). Nothing is sent to an address that asked never to be mailed or that
    bounced; the page says the same either way, so it tells nobody which addresses are ours.
    `language`: the one the page was shown in; the link's email to an address that is no
    player yet is in it."""
    addr = address(typed)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        player = session.scalars(select(Player).where(Player.email == addr)).first()
        if player is not None and player.unmailable:
            return []
        row = SignIn(email=addr, browser_hash=browser_hash(browser_nonce), created_at=now,
                     expires_at=now + SIGN_IN_LIFETIME)
        session.add(row)
        session.flush()
        payload = {"sign_in": row.id}
        if catalogs.known(language):
            payload["language"] = catalogs.known(language)
        return [notify.letter(session, addr, "sign_in", payload, now).id]


def complete_sign_in(svc: Services, token: str, browser_nonce: str | None,
                     language: str | None = None) -> Account:
    """Use a sign-in link: the player's account (made now if the address is new). `language`:
    the browser's (its Accept-Language, or the switcher's choice), taken as the player's
    language when they have chosen none yet."""
    try:
        claims = svc.urls.signer.loads("sign_in", token)
    except TokenError as exc:
        raise SignInRefused(exc.detail) from None
    now = svc.clock.now()
    with svc.db.transaction() as session:
        row = session.get(SignIn, claims.game, with_for_update=True)
        if row is None:
            raise SignInRefused(_("This sign-in link is not one of ours."))
        if row.used_at is not None:
            raise SignInRefused(_("This sign-in link was used already; each works once. "
                                  "Ask for a new one."))
        if now > row.expires_at:
            raise SignInRefused(_("This sign-in link is more than 15 minutes old. "
                                  "Ask for a new one."))
        if browser_nonce is None or browser_hash(browser_nonce) != row.browser_hash:
            raise SignInRefused(_("This sign-in link was asked for in another browser. Open "
                                  "it in the browser where you typed your address, or ask "
                                  "for a new one here."))
        row.used_at = now
        player = session.scalars(select(Player).where(Player.email == row.email)).first()
        if player is None:
            player = Player(email=row.email, name=default_name(row.email), created_at=now)
            session.add(player)
            session.flush()
        if player.language is None and catalogs.known(language):
            player.language = catalogs.known(language)
        return _account(player)


def account(svc: Services, player_id: int | None) -> Account | None:
    """The signed-in account; None for nobody, and for an account erased since the browser
    signed in (its row stays, as "former player N": nobody is signed in as that)."""
    if player_id is None:
        return None
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        return _account(player) if player is not None and not erased(player.email) else None


def chosen_language(svc: Services, player_id: int) -> str | None:
    """The language the player chose (None: none yet, or no such player)."""
    with svc.db.transaction() as session:
        return catalogs.known(session.scalar(select(Player.language)
                                             .where(Player.id == player_id)))


def save_preferences(svc: Services, player_id: int, *, name: str, zone: str, mail_mode: str,
                     digest_hour: str) -> Account:
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40 or "@" in name:
        raise BadPreferences(_("A display name has 1 to 40 characters and no @: other "
                               "players see it, never your address."))
    zone = zone.strip() or None
    if zone is not None and zone not in ZONES:
        raise BadPreferences(_("%(zone)r is not a time zone; write it like Europe/Paris or "
                               "America/New_York.", zone=zone[:60]))
    if mail_mode not in MAIL_MODES:
        raise BadPreferences(_("Choose one of the mail modes offered."))
    hour = None
    if mail_mode == "digest":
        if not digest_hour.strip().isdigit() or not 0 <= int(digest_hour) <= 23:
            raise BadPreferences(_("A daily digest needs an hour from 0 to 23."))
        hour = int(digest_hour)
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        player.name, player.zone, player.mail_mode, player.digest_hour = name, zone, mail_mode, hour
        return _account(player)


def _account(player: Player) -> Account:
    # the page shows it in the reader's language (N_: translated there)
    reason = (N_("you asked never to be emailed") if player.suppressed
              else N_("mail to this address bounced") if player.bounced_at else None)
    return Account(player.id, player.email, player.name, player.zone, player.mail_mode,
                   player.digest_hour, reason, catalogs.chosen(player.language),
                   catalogs.known(player.language))
