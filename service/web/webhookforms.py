"""The webhooks card of /me (issue 51): add one (its secret shown on the page this once), send
it a test, delete it. Forms with the CSRF token like the rest of /me; each view calls one use
case of service.play.players.hooks."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for

from service.mailwire.outbound.catalogs import _
from service.play.errors import PlayError
from service.play.players import accounts, hooks

from .accountpages import current_account, my_page, signed_in
from .ext import services
from .refusals import on_refusal

bp = Blueprint("webhooks", __name__)


def _refused(exc: PlayError, **_view_args):
    """My page again, the refusal beside the webhooks form (as it was typed)."""
    typed = {"url": request.form.get("url", "")[:2000], "kind": request.form.get("kind", ""),
             "events": request.form.getlist("events"),
             "webhook_only": bool(request.form.get("webhook_only"))}
    return my_page(current_account(), status=400, hook_error=exc.detail, hook_typed=typed)


@bp.post("/me/webhooks")
@signed_in
@on_refusal(_refused)
def add(me: accounts.Account):
    form = request.form
    made = hooks.register(services(), form.get("url", "")[:2001],
                          kind=form.get("kind", "json"), events=form.getlist("events"),
                          instead_of_email=bool(form.get("webhook_only")), player_id=me.id)
    # shown on the page, not flashed: a secret does not belong in a session cookie
    return my_page(me, made=made)


@bp.post("/me/webhooks/<int:hook_id>/test")
@signed_in
@on_refusal(_refused)
def test(me: accounts.Account, hook_id: int):
    hooks.test(services(), me.id, hook_id)
    flash(_("A test was sent to webhook %(id)s; its result shows here in a moment "
            "(a failure beside the webhook).", id=hook_id), "webhooks")
    return redirect(url_for("accounts.me") + "#webhooks")


@bp.post("/me/webhooks/<int:hook_id>/delete")
@signed_in
@on_refusal(_refused)
def delete(me: accounts.Account, hook_id: int):
    hooks.delete(services(), me.id, hook_id)
    flash(_("Webhook %(id)s is deleted.", id=hook_id), "webhooks")
    return redirect(url_for("accounts.me") + "#webhooks")
