"""RFC 9457 problem documents: how the JSON API answers every error, its own refusals and the
app's alike (a URL it does not have, a database restart, a bug), so that a client always gets
JSON it can read and never an HTML page."""
from __future__ import annotations

import json

from flask import current_app, request

from service.mailwire.outbound.catalogs import N_, _

MEDIA_TYPE = "application/problem+json"
API_PREFIX = "/api/"


class Problem(Exception):
    def __init__(self, status: int, title: str, detail: str, type_: str = "about:blank",
                 **extra):
        super().__init__(detail)
        self.status, self.title, self.detail, self.type, self.extra = (status, title, detail,
                                                                       type_, extra)


#: werkzeug's own words for the errors an API request may meet besides a wrong address or
#: method (errorpages answers those in ours): a body too large or of another type, a request
#: it could not read. Marked so that the catalogs carry them: `respond` says them in the
#: request's language as it says ours
HTTP_WORDS = (
    N_("Bad Request"),
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("Request Entity Too Large"), N_("The data value transmitted exceeds the capacity limit."),
    N_("Unsupported Media Type"),
    N_("The server does not support the media type transmitted in the request."))


def for_api() -> bool:
    """Whether this request is the API's, so its errors are problem documents."""
    return request.path.startswith(API_PREFIX)


def respond(p: Problem, headers: dict[str, str] | None = None):
    # as pages.problem does: a title or detail that is a catalog's msgid (marked N_ where it
    # is raised) is said in the request's language here; one said already stays as it is
    title, detail = (_(words) if words else words for words in (p.title, p.detail))
    body = {"type": p.type, "title": title, "status": p.status, "detail": detail,
            "instance": request.path, **p.extra}
    response = current_app.response_class(json.dumps(body), status=p.status,
                                          mimetype=MEDIA_TYPE, headers=headers)
    if p.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="turnpost"'
    return response
