"""Inbound mail by webhook: a provider (or any relay) POSTs the raw MIME of a reply.

- ``POST /inbound/raw``: body is the message (``message/rfc822``),
  ``Authorization: Bearer <TURNPOST_INBOUND_SECRET>``.
- ``POST /inbound/mailgun``: a Mailgun route forwarding to a URL ending in ``mime`` (form field
  ``body-mime``), signed with ``TURNPOST_MAILGUN_SIGNING_KEY``.
- ``POST /inbound/sendgrid?key=<TURNPOST_INBOUND_SECRET>``: SendGrid Inbound Parse with "POST
  the raw, full MIME message" (form field ``email``); SendGrid signs nothing, hence the key.

An endpoint whose secret is not configured does not exist (404). Bad credentials change
nothing (401 missing, 403 wrong). Every accepted message is stored with ``accept_mail`` before
the 200, so a provider that retries after a timeout causes no second processing.
"""
from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, abort, current_app, jsonify, request

from service import play

from .ext import services

bp = Blueprint("inbound", __name__, url_prefix="/inbound")

#: Mailgun signs each post with its timestamp; older posts may be replays of a captured one.
MAILGUN_MAX_AGE = 15 * 60
#: Form posts carry a few small fields (envelope, signature) next to the message.
FORM_SLACK = 256 * 1024


def _limit() -> int:
    return int(current_app.config["TURNPOST_INBOUND_MAX_BYTES"])


def _same(given: str, expected: str) -> bool:
    # constant time, so the secret cannot be guessed a character at a time
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def _store(raw: bytes):
    if not raw.strip():
        abort(400, "no message in the request")
    if len(raw) > _limit():
        abort(413)
    row_id, new = play.accept_mail(services(), raw, "webhook")
    return jsonify(stored=row_id, duplicate=not new)


def _form_message(field: str) -> bytes:
    """The raw message from a form post, as a field or as an uploaded file."""
    # Flask 3.1 reads these per request; the message may well exceed the 500 KB form default.
    request.max_content_length = _limit() + FORM_SLACK
    request.max_form_memory_size = _limit() + FORM_SLACK
    upload = request.files.get(field)
    if upload is not None:
        return upload.read()
    # Werkzeug decodes text fields as UTF-8; mail is 7-bit or UTF-8 almost always, and
    # surrogateescape gives back what it could not decode. (A file part keeps exact bytes.)
    return request.form.get(field, "").encode("utf-8", "surrogateescape")


@bp.post("/raw")
def raw():
    secret = current_app.config["TURNPOST_INBOUND_SECRET"]
    if not secret:
        abort(404)
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        abort(401)
    if not _same(token.strip(), secret):
        abort(403)
    # Refuse before reading: an oversize body is not buffered at all.
    request.max_content_length = _limit()
    return _store(request.get_data(cache=False))


@bp.post("/mailgun")
def mailgun():
    key = current_app.config["TURNPOST_MAILGUN_SIGNING_KEY"]
    if not key:
        abort(404)
    message = _form_message("body-mime")
    timestamp, token = request.form.get("timestamp", ""), request.form.get("token", "")
    signature = request.form.get("signature", "")
    if not (timestamp and token and signature):
        abort(401)
    expected = hmac.new(key.encode("utf-8"), (timestamp + token).encode("utf-8"),
                        hashlib.sha256).hexdigest()
    if not _same(signature, expected):
        abort(403)
    # int, not float: "nan" would compare as fresh
    now = services().clock.now().timestamp()
    if not timestamp.isdigit() or abs(now - int(timestamp)) > MAILGUN_MAX_AGE:
        abort(403)
    return _store(message)


@bp.post("/sendgrid")
def sendgrid():
    secret = current_app.config["TURNPOST_INBOUND_SECRET"]
    if not secret:
        abort(404)
    key = request.args.get("key", "")
    if not key:
        abort(401)
    if not _same(key, secret):
        abort(403)
    return _store(_form_message("email"))
