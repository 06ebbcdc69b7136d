"""A player's own webhooks (issue 51): made (its secret shown once), listed, deleted and
tested, from /me, the API (`/api/v1/me/webhooks`) and the operator's CLI (`flask players
webhook ADDRESS URL`). What they are told of and how they are sent is service.play.webhooks.

A webhook's address is checked as it is written (http or https, a host, no spaces) and, when
it names its host by address or as `localhost`, refused when that is loopback, private or
link-local unless TURNPOST_WEBHOOK_ALLOW_PRIVATE is set; a name is resolved only when a
delivery is sent, where the same rule is applied to every address it resolves to."""
from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import func, select

from service.hooks import KINDS, sending
from service.mailwire.outbound.catalogs import N_, _
from service.play import webhooks
from service.play.errors import PlayError
from service.play.services import Services
from service.store.models import Player, Webhook

from .personaltokens import UnknownPlayer

#: what the events are called on a form
EVENT_WORDS = {"turn": N_("It is my turn"), "game_over": N_("A game of mine ends"),
               "invitation": N_("I am invited to a game or tournament")}
#: hooks one player may keep: a few channels, not a fan-out service
MOST = 5
LONGEST_URL = 2000


class BadWebhook(PlayError):
    title = N_("That webhook cannot be used")


class NoSuchWebhook(PlayError):
    title = N_("No such webhook")


@dataclass(frozen=True)
class Hook:
    """A webhook as its owner sees it (never its secret, which was shown once)."""
    id: int
    url: str
    kind: str
    events: tuple[str, ...]
    instead_of_email: bool
    active: bool
    created_at: datetime
    failing_since: datetime | None
    last_error: str | None
    switched_off_at: datetime | None

    def to_json(self) -> dict:
        def when(at: datetime | None) -> str | None:
            return at.isoformat() if at else None
        return {"id": self.id, "url": self.url, "kind": self.kind, "events": list(self.events),
                "webhookOnly": self.instead_of_email, "active": self.active,
                "createdAt": when(self.created_at), "failingSince": when(self.failing_since),
                "lastError": self.last_error, "switchedOffAt": when(self.switched_off_at)}


@dataclass(frozen=True)
class Registered:
    hook: Hook
    secret: str         # shown to the player now, and never again


def _hook(row: Webhook) -> Hook:
    return Hook(row.id, row.url, row.kind, tuple(row.events.split(",")), row.instead_of_email,
                row.active, row.created_at, row.failing_since, row.last_error,
                row.switched_off_at)


def read_events(given) -> tuple[str, ...]:
    """Events as a form, the API or the CLI give them ("turn,game_over", a list, or None for
    the default, "turn"), checked and in their usual order."""
    if given is None or given == "" or given == []:
        return (webhooks.TURN,)
    words = given.split(",") if isinstance(given, str) else given
    if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) for w in words):
        raise BadWebhook(_("Events are a list of words: turn, game_over, invitation."))
    chosen = {w.strip().lower().replace("-", "_").replace(" ", "_") for w in words if w.strip()}
    unknown = sorted(chosen - set(webhooks.EVENTS))
    if unknown:
        raise BadWebhook(_("%(unknown)s is not an event a webhook is told of; choose from "
                           "turn, game_over and invitation.", unknown=", ".join(unknown)))
    return tuple(e for e in webhooks.EVENTS if e in chosen) or (webhooks.TURN,)


def check_url(url, allow_private: bool) -> str:
    if not isinstance(url, str) or not url.strip():
        raise BadWebhook(_("Give the webhook's address, e.g. "
                           "https://discord.com/api/webhooks/..."))
    url = url.strip()
    if len(url) > LONGEST_URL or any(c.isspace() or ord(c) < 32 for c in url):
        raise BadWebhook(_("A webhook's address is one line of at most %(most)d characters, "
                           "without spaces.", most=LONGEST_URL))
    try:
        parts = urlsplit(url)
        host, _port = parts.hostname, parts.port     # a bad port raises ValueError too
    except ValueError:
        raise BadWebhook(_("%(url)s is not a web address.", url=url[:100])) from None
    if parts.scheme not in ("http", "https") or not host:
        raise BadWebhook(_("%(url)s is not an http or https address: a webhook's address "
                           "starts with https://", url=url[:100]))
    if not allow_private and not _may_name(host):
        raise BadWebhook(_("%(host)s is a loopback, private or link-local address: webhooks "
                           "go to public addresses only.", host=host))
    return url


def _may_name(host: str) -> bool:
    """Whether a host as written may be posted to (a name is checked again when sent)."""
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return True             # a name: resolved, and checked, when a delivery is sent
    return sending.public(host)


def _owner(session, player_id: int | None, email: str | None) -> Player:
    if player_id is not None:
        player = session.get(Player, player_id)
    else:
        player = session.scalar(select(Player).where(Player.email == (email or "").strip().lower()))
    if player is None:
        raise UnknownPlayer(f"No player has the address {(email or '').strip()!r}.")
    return player


def register(svc: Services, url, *, kind: str = "json", events=None,
             instead_of_email: bool = False, player_id: int | None = None,
             email: str | None = None) -> Registered:
    """A new webhook for the player (by id, or by address for the CLI), with its secret."""
    url = check_url(url, svc.settings.WEBHOOK_ALLOW_PRIVATE)
    if kind not in KINDS:
        raise BadWebhook(_("%(kind)r is not a kind of webhook; choose json, discord or slack.",
                           kind=str(kind)[:20]))
    chosen = read_events(events)
    with svc.db.transaction() as session:
        owner = _owner(session, player_id, email)
        kept = session.scalar(select(func.count()).select_from(Webhook)
                              .where(Webhook.player_id == owner.id))
        if kept >= MOST:
            raise BadWebhook(_("You have %(kept)d webhooks, the most one player may keep: "
                               "delete one first.", kept=kept))
        row = Webhook(player_id=owner.id, url=url, kind=kind, secret=secrets.token_hex(32),
                      events=",".join(chosen), instead_of_email=bool(instead_of_email),
                      active=True, created_at=svc.clock.now())
        session.add(row)
        session.flush()
        return Registered(_hook(row), row.secret)


def listed(svc: Services, player_id: int) -> list[Hook]:
    with svc.db.reading() as session:
        return listed_in(session, player_id)


def listed_in(session, player_id: int) -> list[Hook]:
    """`listed` in the caller's unit of work (/me reads its parts in one)."""
    return [_hook(row) for row in session.scalars(
        select(Webhook).where(Webhook.player_id == player_id).order_by(Webhook.id))]


def _theirs(session, player_id: int, hook_id) -> Webhook:
    row = session.get(Webhook, hook_id) if isinstance(hook_id, int) else None
    if row is None or row.player_id != player_id:
        raise NoSuchWebhook(_("You have no webhook %(id)s; your page lists yours.", id=hook_id))
    return row


def delete(svc: Services, player_id: int, hook_id: int) -> None:
    """The hook goes; its deliveries not sent yet are dropped when their turn comes."""
    with svc.db.transaction() as session:
        session.delete(_theirs(session, player_id, hook_id))


def test(svc: Services, player_id: int, hook_id: int) -> int:
    """A test delivery to one of the player's hooks, sent at once (through the outbox, as
    every delivery goes). Returns its outbox row's id."""
    with svc.db.transaction() as session:
        row = _theirs(session, player_id, hook_id)
        if not row.active:
            raise BadWebhook(_("That webhook is switched off; add it again to turn it on."))
        return webhooks.test(session, row, svc.clock.now())
