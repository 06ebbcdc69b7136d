"""The dev outbox: every email the Maildir transport wrote, readable in the browser, and the
rows an operator must look at (parked after their retries ran out)."""
from __future__ import annotations

import base64
from email import policy
from email.parser import BytesParser

from flask import Blueprint, abort, render_template

from service.play import admin

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
                           parked=admin.outbox(services(), "parked"))


@bp.get("/outbox/<key>")
def message(key: str):
    for k, msg in _messages():
        if k == key:
            html = msg.get_body(("html",))
            text = msg.get_body(("plain",))
            return render_template("web/message.html", msg=msg,
                                   html=with_images(msg, html.get_content()) if html else "",
                                   text=text.get_content() if text else "",
                                   headers=list(msg.items()))
    abort(404)


def with_images(msg, html: str) -> str:
    """The HTML with its inline pictures (cid: links) as data URLs, for the iframe."""
    for part in msg.walk():
        cid = (part.get("Content-ID") or "").strip("<>")
        if cid and part.get_content_maintype() == "image":
            data = base64.b64encode(part.get_content()).decode()
            html = html.replace(f"cid:{cid}", f"data:{part.get_content_type()};base64,{data}")
    return html
