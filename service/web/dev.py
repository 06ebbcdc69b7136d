"""The dev outbox: every email the Maildir transport wrote, readable in the browser, and the
rows an operator must look at (parked after their retries ran out). Each email can be
answered from here: the reply is built as a mail client would and handed to the intake, as the
SMTP receiver hands real mail."""
from __future__ import annotations

import base64
from email import policy
from email.parser import BytesParser
from email.utils import parseaddr

from flask import Blueprint, abort, redirect, render_template, request, url_for

from service import play
from service.mailwire.inbound import smtp_receiver
from service.mailwire.outbound.catalogs import N_, _
from service.play.reads import admin

from . import dev_reply, pages
from .ext import services

bp = Blueprint("dev", __name__, url_prefix="/dev")


def _messages():
    for key, raw in reversed(services().transport.messages()):
        yield key, BytesParser(policy=policy.default).parsebytes(raw)


@bp.get("/outbox")
def outbox():
    mails = [{"key": k, "to": m["To"], "subject": m["Subject"], "date": m["Date"]}
             for k, m in _messages()]
    return render_template("web/outbox.html", mails=mails,
                           parked=admin.outbox(services(), play.OutboxStatus.PARKED),
                           unapplied=admin.unapplied(services()),
                           replied=request.args.get("replied", ""))


def _message(key: str):
    return next((msg for k, msg in _messages() if k == key), None)


@bp.get("/outbox/<key>")
def message(key: str):
    msg = _message(key)
    if msg is None:
        abort(404)
    html = msg.get_body(("html",))
    text = msg.get_body(("plain",))
    return render_template("web/message.html", msg=msg, key=key,
                           html=with_images(msg, html.get_content()) if html else "",
                           text=text.get_content() if text else "",
                           headers=list(msg.items()), reply_to=dev_reply.reply_address(msg))


@bp.post("/outbox/<key>/reply")
def reply(key: str):
    """Reply as the email's recipient: the message goes to the intake use case, as one
    received by SMTP does, and is processed by the same path."""
    msg = _message(key)
    if msg is None:
        abort(404)
    text = request.form.get("text", "").strip()
    if not text:
        return pages.problem(N_("Nothing to send"), _("Write the reply (a move, or a command "
                                                      "such as `view`) and send it again."), 400)
    svc = services()
    to = dev_reply.reply_address(msg)
    raw = smtp_receiver.with_recipients(dev_reply.compose(msg, text, svc.clock.now()), [parseaddr(to)[1]])
    play.accept_mail(svc, raw, "dev")
    return redirect(url_for("dev.outbox", replied=str(msg["To"] or "")))


def with_images(msg, html: str) -> str:
    """The HTML with its inline pictures (cid: links) as data URLs, for the iframe."""
    for part in msg.walk():
        cid = (part.get("Content-ID") or "").strip("<>")
        if cid and part.get_content_maintype() == "image":
            data = base64.b64encode(part.get_content()).decode()
            html = html.replace(f"cid:{cid}", f"data:{part.get_content_type()};base64,{data}")
    return html
