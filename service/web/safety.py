"""Safe production defaults: refuse to start with a public or empty secret where links reach
real people, headers that keep pages out of frames and token URLs out of Referer headers,
/healthz that says what is down, and the dev outbox only where it cannot leak."""
from __future__ import annotations

from flask import abort, current_app, request, session

# create_app and the tests take these from here
from config.production import UnsafeSettings, check_production, is_production  # noqa: F401
from service.mailwire.outbound.catalogs import N_
from service.play.reads import admin
from workers.broker_wait import broker_down

from . import pages, problems
from .ext import services

# pages whose URL is a bearer token (any rule with a <token> part, and these prefixes when no
# rule matched): a Referer header would hand it to another site, a cache would keep it
TOKEN_PAGES = ("/m/", "/g/", "/u/", "/i/", "/s/", "/sign-in/", "/invitations/", "/feeds/")
NUL = "\x00"
NUL_TITLE = N_("A NUL character was sent")
NUL_WORDS = N_("The form, body or address held a NUL character (%00), which no text here "
                "may contain: nothing was changed. Remove it and send again.")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
#: The longest URL (path and query) answered; gunicorn's own limit was 4094 bytes a line.
MAX_URL_BYTES = 4000
CSP = ("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


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
    token_page = carries_token()
    response.headers.setdefault("Referrer-Policy",
                                "no-referrer" if token_page else "same-origin")
    if token_page or personal(response):
        # neither the browser's history cache nor a proxy keeps a page a link's token opened,
        # nor one drawn for a signed-in account (its address, its games' seat links)
        response.headers["Cache-Control"] = "no-store"
    return response


def personal(response) -> bool:
    """Whether the response was made for a signed-in account: every page a signed-in
    player is sent may show their address or the links to their seats (/me, the lobby, a
    tournament's page), so none is kept. A response that says how it may be kept (a card
    face: the same for everyone) and the static files are left as they are."""
    if "Cache-Control" in response.headers or request.endpoint == "static":
        return False
    return session.get("player") is not None


def carries_token() -> bool:
    """Whether the current request's URL holds a bearer token."""
    return "token" in (request.view_args or {}) or request.path.startswith(TOKEN_PAGES)


def refuse_long_urls():
    """414 for a URL longer than MAX_URL_BYTES, answered here so that it carries the headers
    above (gunicorn would answer bare: config/gunicorn.py lets longer lines through to us)."""
    if len(request.environ.get("RAW_URI") or request.full_path) > MAX_URL_BYTES:
        abort(414)


def refuse_nul():
    """A NUL character (%00) in what a request brings, answered before any view reads it:
    PostgreSQL's text holds none, and its driver refused the query (a 500, at will, for
    `/players/%00`). A path with one names nothing here: 404. A query or form value with one
    is not text a person wrote: 400, saying so. The inbound webhooks are left to the mail
    parser, which reads a NUL in a message as a fault of that message."""
    if NUL in request.path:
        abort(404)
    if request.blueprint == "inbound":
        return None
    fields = request.args.items(multi=True)
    if request.method != "GET" and request.mimetype in FORM_TYPES:
        fields = [*fields, *request.form.items(multi=True)]
    if any(NUL in name or NUL in value for name, value in fields):
        return nul_refused()
    return None


def nul_refused():
    if problems.for_api():
        return problems.respond(problems.Problem(400, NUL_TITLE, NUL_WORDS))
    return pages.problem(NUL_TITLE, NUL_WORDS, 400)


def holds_nul(value) -> bool:
    """Whether a JSON value holds a NUL character in any string, key or value."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(holds_nul(k) or holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(holds_nul(v) for v in value)
    return False


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
    app.before_request(refuse_long_urls)
    app.before_request(refuse_nul)
    app.after_request(secure_headers)
    app.add_url_rule("/healthz", "healthz", healthz)
