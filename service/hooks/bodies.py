"""What a webhook's POST carries, per kind of endpoint:

* `json` (any endpoint): `{"event", "gameId", "title", "url"}`, for a program to read;
* `discord`: a Discord channel webhook's message, `{"content": ...}`;
* `slack`: a Slack incoming webhook's message, `{"text": ...}` with Slack's link markup.

Every kind is signed the same way (`signature`), so an endpoint of any kind may check it. The
words (the title, what a chat message says of the event) are in the language of the moment:
the hook owner's, set by service.play.webhooks; the JSON's field names never change."""
from __future__ import annotations

import hashlib
import hmac
import json

from service.mailwire.outbound.catalogs import N_, _

KINDS = ("json", "discord", "slack")

#: what each event says in a chat message
SAID = {"turn": N_("Your turn"), "game_over": N_("Game over"),
        "invitation": N_("You are invited"), "test": N_("A test from Turnpost")}


def body(kind: str, event: str, game_id: int | None, title: str, url: str) -> bytes:
    """The raw body for an endpoint of `kind`: these bytes are signed and sent as they are."""
    if kind == "discord":
        doc = {"content": f"{_said(event)} {title} — {url}",
               "allowed_mentions": {"parse": []}}     # a title never pings a channel
    elif kind == "slack":
        doc = {"text": f"{_said(event)} <{url}|{_slack_safe(title)}>"}
    else:
        doc = {"event": event, "gameId": game_id, "title": title, "url": url}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def _said(event: str) -> str:
    """What the message says of the event, with its colon ("Your turn:", "À vous de jouer :")."""
    return _("%(event)s:", event=_(SAID[event]) if event in SAID else event)


def _slack_safe(text: str) -> str:
    # Slack reads &, < and > as its markup: escaped, a title cannot make a link of its own
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def signature(secret: str, raw: bytes) -> str:
    """`X-Turnpost-Signature`'s value: the HMAC-SHA256 of the raw body under the hook's
    secret, as `sha256=<hex>` (the receiver computes the same over the bytes it received and
    compares in constant time)."""
    return "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
