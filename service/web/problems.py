"""RFC 9457 problem documents: how the JSON API answers every error, its own refusals and the
app's alike (a URL it does not have, a database restart, a bug), so that a client always gets
JSON it can read and never an HTML page."""
from __future__ import annotations

import json

from flask import current_app, request

MEDIA_TYPE = "application/problem+json"
API_PREFIX = "/api/"


class Problem(Exception):
    def __init__(self, status: int, title: str, detail: str, type_: str = "about:blank",
                 **extra):
        super().__init__(detail)
        self.status, self.title, self.detail, self.type, self.extra = (status, title, detail,
                                                                       type_, extra)


def for_api() -> bool:
    """Whether this request is the API's, so its errors are problem documents."""
    return request.path.startswith(API_PREFIX)


def respond(p: Problem, headers: dict[str, str] | None = None):
    body = {"type": p.type, "title": p.title, "status": p.status, "detail": p.detail,
            "instance": request.path, **p.extra}
    response = current_app.response_class(json.dumps(body), status=p.status,
                                          mimetype=MEDIA_TYPE, headers=headers)
    if p.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="turnpost"'
    return response
