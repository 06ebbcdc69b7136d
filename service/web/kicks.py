"""With a broker, the kicks of a request (play.Services.kick: "send these emails", "bots, your
move") are published once the response has gone to the player: the move is committed before
the response is made, and the player need not wait on Redis for the page that says so.

If the process dies between the two, nothing is lost: the rows are in the database and the
periodic sweep sends them (as when the broker is down). On the embedded default a kick is
handed to the in-process worker at once; it waits for the request to end anyway."""
from __future__ import annotations

from collections.abc import Callable

from flask import Flask, after_this_request, has_request_context


def after_response(work: Callable[[], None]) -> None:
    """Run `work` when the response of the current request has been sent (the server closes
    it), or now outside a request (the CLI, a worker's task)."""
    if not has_request_context():
        work()
        return

    @after_this_request
    def send_after(response):
        response.call_on_close(work)
        return response


def init_app(app: Flask) -> None:
    if app.config["TURNPOST_BROKER_URL"]:
        app.extensions["turnpost"].later = after_response
