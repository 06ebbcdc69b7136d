"""What a webhook's POST carries, per kind of endpoint:

* `json` (any endpoint): `{"event", "gameId", "title", "url"}`, for a program to read;
* `discord`: a Discord channel webhook's message, `{"content": ...}`;
* `slack`: a Slack incoming webhook's message, `{"text": ...}` with Slack's link markup.

Every kind is signed the same way (`signature`), so an endpoint of any kind may check it. The
words (the title, what a chat message says of the event, `said`) come from the caller, in the
hook owner's language (service.play.webhooks); the JSON's field names never change."""
from __future__ import annotations

import hashlib
import hmac
import json

KINDS = ("json", "discord", "slack")

#: what each event says in a chat message (in English; a caller passes its own words)
SAID = {"turn": "Your turn", "game_over": "Game over", "invitation": "You are invited",
        "test": "A test from Turnpost"}


def body(kind: str, event: str, game_id: int | None, title: str, url: str, *,
         said: str | None = None) -> bytes:
    """The raw body for an endpoint of `kind`: these bytes are signed and sent as they are.
    `said`: a chat message's lead, colon included ("Du bist am Zug:"); SAID's English
    by default."""
    said = said if said is not None else f"{SAID.get(event, event)}:"
    if kind == "discord":
        doc = {"content": f"{said} {title} — {url}",
               "allowed_mentions": {"parse": []}}     # a title never pings a channel
    elif kind == "slack":
        doc = {"text": f"{said} <{url}|{_slack_safe(title)}>"}
    else:
        doc = {"event": event, "gameId": game_id, "title": title, "url": url}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def _slack_safe(text: str) -> str:
    # Slack reads &, < and > as its markup: escaped, a title cannot make a link of its own
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def signature(secret: str, raw: bytes) -> str:
    """`X-Turnpost-Signature`'s value: the HMAC-SHA256 of the raw body under the hook's
    secret, as `sha256=<hex>` (the receiver computes the same over the bytes it received and
    compares in constant time)."""
    return "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
