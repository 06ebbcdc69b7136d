"""The API's webhooks, added to /api/v1 by service.web.api (`register`): the token holder's
own webhooks, listed, made (the answer holds the secret, shown this once) and deleted; the
same use cases as /me and `flask players webhook` (service.play.players.hooks)."""
from __future__ import annotations

from flask import g, request

from service.mailwire.outbound.catalogs import N_
from service.play.players import hooks

from .ext import services
from .openapi import _errors, _json, described
from .problems import Problem

HOOK = {"id": 1, "url": "https://discord.com/api/webhooks/123/abc", "kind": "discord",
        "events": ["turn"], "webhookOnly": False, "active": True,
        "createdAt": "2026-12-06T10:00:00+00:00", "failingSince": None, "lastError": None,
        "switchedOffAt": None}

LIST = {"summary": "Your webhooks (never their secrets)",
        "responses": {"200": _json({"webhooks": [HOOK]}, "your webhooks"),
                      **_errors("401")}}

POST = {
    "summary": "Add a webhook: it is POSTed the events chosen (default: your turn), signed "
               "with X-Turnpost-Signature: sha256=<HMAC-SHA256 of the raw body under its "
               "secret>; the secret is in this answer only",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["url"], "properties": {
            "url": {"type": "string"},
            "kind": {"type": "string", "enum": list(hooks.KINDS)},
            "events": {"type": "array", "items": {"type": "string",
                                                  "enum": list(hooks.EVENT_WORDS)}},
            "webhookOnly": {"type": "boolean"}}},
        "example": {"url": "https://discord.com/api/webhooks/123/abc", "kind": "discord",
                    "events": ["turn", "game_over"]}}}},
    "responses": {"201": _json({**HOOK, "secret": "9f86d081884c7d65..."},
                               "made; the secret is shown this once"),
                  **_errors("400", "401", "413")}}

DELETE = {
    "summary": "Delete one of your webhooks",
    "parameters": [{"name": "hook_id", "in": "path", "required": True,
                    "schema": {"type": "integer"}, "example": 1}],
    "responses": {"200": _json({"id": 1, "status": "deleted"}, "deleted"),
                  **_errors("401", "404")}}


def register(bp) -> None:
    bp.add_url_rule("/me/webhooks", "webhooks", list_webhooks, methods=["GET"])
    bp.add_url_rule("/me/webhooks", "add_webhook", add_webhook, methods=["POST"])
    bp.add_url_rule("/me/webhooks/<int:hook_id>", "delete_webhook", delete_webhook,
                    methods=["DELETE"])


@described(LIST)
def list_webhooks():
    return {"webhooks": [h.to_json() for h in hooks.listed(services(), g.api_player.player_id)]}


@described(POST)
def add_webhook():
    # the API's size limit stands (api.authenticate sets it): a bigger body is a 413
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        raise Problem(400, N_("Malformed webhook"), N_(
            "Send at least {\"url\": \"https://...\"}; kind (json, discord, slack), events and "
            "webhookOnly may follow."))
    try:
        made = hooks.register(services(), data["url"], kind=data.get("kind", "json"),
                              events=data.get("events"),
                              instead_of_email=data.get("webhookOnly") is True,
                              player_id=g.api_player.player_id)
    except hooks.BadWebhook as exc:
        raise Problem(400, exc.title, exc.detail) from None
    return {**made.hook.to_json(), "secret": made.secret}, 201


@described(DELETE)
def delete_webhook(hook_id: int):
    try:
        hooks.delete(services(), g.api_player.player_id, hook_id)
    except hooks.NoSuchWebhook as exc:
        raise Problem(404, exc.title, exc.detail) from None
    return {"id": hook_id, "status": "deleted"}
