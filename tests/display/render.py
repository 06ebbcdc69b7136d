"""Rendering a sample the way the service does: the turn email trio through the email
templates (service.mailwire.outbound), the page partials, and the history as each seat reads it."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from email.message import EmailMessage

from service.display.seatview import history, seat_page
from service.linking.signer import Signer
from service.linking.urls import Urls
from service.mailwire.outbound.compose import Envelope, compose_turn
from service.mailwire.outbound.templating import game_partial, make_env
from tests.display.samples import Sample

URLS = Urls(Signer("look-secret"), "https://turnpost.test", "turnpost.test")
ENV = make_env()
WHEN = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def page_of(sample: Sample, seat: int | None, news_from: int = 0):
    news = [(q, e) for q, e in sample.events if q > news_from]
    return seat_page(sample.engine, 1, sample.engine.id, sample.state, sample.seq, seat,
                     sample.names, news, every_move=seat is not None)


def turn_email(sample: Sample, seat: int, news_from: int = 0) -> EmailMessage:
    page = page_of(sample, seat, news_from)
    links = URLS.for_seat(1, seat, page.mark)
    envelope = Envelope("tp.look", f"p{seat}@example.org", "Turnpost", WHEN)
    return compose_turn(ENV, page, links, envelope)


def partials(sample: Sample, seat: int | None) -> dict[str, str]:
    page = page_of(sample, seat)
    ctx = {"view": page.view, "names": page.names, "me": seat, "page": page}
    return {ext: ENV.get_template(game_partial(ENV, sample.engine.id, ext)).render(ctx)
            for ext in ("html", "txt")}


def history_lines(sample: Sample, seat: int | None) -> list[str]:
    return [h["text"] for h in history(sample.engine, sample.events, seat, sample.names)]


_TAGS = re.compile(r"<style.*?</style>|<[^>]+>", re.S)
_URL = re.compile(r"https?://\S+|\bplay\+\S+@\S+")


def readable(text: str, html: bool = False) -> str:
    """What a reader reads: no tags, styles or link tokens (a token may spell "None")."""
    if html:
        text = _TAGS.sub(" ", text)
        text = text.replace("&nbsp;", " ").replace("&#39;", "'").replace("&amp;", "&")
    return _URL.sub(" ", text)
