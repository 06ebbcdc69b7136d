"""Safe production defaults: refuse to start with a public or empty secret where links reach
real people, headers that keep pages out of frames and token URLs out of Referer headers,
/healthz that says what is down, and the dev outbox only where it cannot leak."""
from __future__ import annotations

from flask import current_app, request

from config import DEV_SECRET
from service.play import admin
from workers.broker_wait import broker_down

from .ext import services

# pages whose URL is a bearer token: a Referer header would hand it to another site
TOKEN_PAGES = ("/m/", "/g/", "/u/")
CSP = ("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class UnsafeSettings(RuntimeError):
    """Settings that would let anyone forge links to other players' seats."""


def is_production(cfg) -> bool:
    """Real workers or real mail: links reach real people."""
    return bool(cfg["TURNPOST_BROKER_URL"]) or cfg["TURNPOST_MAIL_TRANSPORT"] == "smtp"


def check_secret(cfg) -> None:
    if is_production(cfg) and cfg["TURNPOST_SECRET_KEY"] in ("", DEV_SECRET):
        raise UnsafeSettings(
            "TURNPOST_SECRET_KEY is " + ("empty" if not cfg["TURNPOST_SECRET_KEY"] else
                                         "the public development default")
            + " while a broker or an SMTP relay is configured: anyone could sign links to "
            "any player's seat. Set TURNPOST_SECRET_KEY to a long random value, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))' (to rotate, move "
            "the old one to TURNPOST_SECRET_KEY_FALLBACKS).")


def dev_outbox_wanted(cfg) -> bool:
    """/dev/outbox shows every player's mail: on when asked for explicitly, or by default on
    the embedded setup only (SQLite, no broker, mail to a Maildir)."""
    if cfg["TURNPOST_MAIL_TRANSPORT"] != "maildir":
        return False
    wanted = str(cfg["TURNPOST_DEV_OUTBOX"]).strip().lower()
    if wanted in ("1", "true", "yes", "on"):
        return True
    if wanted != "auto":
        return False
    return (cfg["TURNPOST_DATABASE_URL"].startswith("sqlite")
            and not cfg["TURNPOST_BROKER_URL"])


def secure_headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault(
        "Referrer-Policy",
        "no-referrer" if request.path.startswith(TOKEN_PAGES) else "same-origin")
    return response


def healthz():
    """200 when the database (and the broker, when there is one) answer; else 503 naming
    what is down, for a load balancer or an operator's probe."""
    down = {}
    why = admin.database_down(services())
    if why:
        down["database"] = why
    if current_app.config["TURNPOST_BROKER_URL"]:
        why = broker_down(current_app.extensions["celery"])
        if why:
            down["broker"] = why
    if down:
        return {"ok": False, "down": down}, 503
    return {"ok": True}


def init_app(app) -> None:
    app.after_request(secure_headers)
    app.add_url_rule("/healthz", "healthz", healthz)
