"""Out-of-office replies: never a move, but one email offering a vacation until the return date
the reply names (or 7 days), at most one a week; nothing applied until the link is pressed, and
a press after the player moved gets a clear answer."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from service.play.clock import ManualClock
from service.play.mail import awayoffers
from service.store.models import Vacation
from tests.conftest import T0
from tests.play.mail.test_replies import deliver, events, inbound_status, mover, reply_to, start
from tests.web.helpers import mails, move_links, text_of

TODAY = date(2026, 11, 24)     # the clock of the tests (conftest.T0), a Tuesday


@pytest.fixture
def clock():
    return ManualClock(T0)


@pytest.fixture
def app(app_factory, clock):
    return app_factory(TURNPOST_CLOCK=clock)


@pytest.mark.parametrize("text, back", [
    ("I am out of the office and back on 12 December.", date(2026, 12, 12)),
    ("Away until 2026-12-24, with no access to email.", date(2026, 12, 24)),
    ("I'm returning Monday.", date(2026, 11, 30)),
    ("I will be back on December 3rd, 2026.", date(2026, 12, 3)),
    ("Back on 5 January", date(2027, 1, 5)),
    ("I am away at the moment.", None),
])
def test_the_return_date_is_read_from_common_english_forms(text, back):
    assert awayoffers.return_day(text, TODAY) == back


def vacations(app):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalars(select(Vacation)).all()


def offers_to(app, addr):
    return [m for m in mails(app) if m["To"] == addr and "Take a vacation until" in text_of(m)]


def offer_link(msg):
    return next(w for w in text_of(msg).split() if "/s/" in w).strip("<>()")


def test_an_out_of_office_reply_brings_one_offer_and_nothing_until_pressed(client, clock):
    app = client.application
    start(client)
    addr, ours = mover(app)
    before = events(app)
    ooo = reply_to(ours, "I am out of the office and back on 12 December.",
                   Auto_Submitted="auto-replied")
    row_id, _ = deliver(app, ooo)
    assert inbound_status(app, row_id)[0] == "offered"
    assert events(app) == before and vacations(app) == []        # not a move; nothing taken
    offers = offers_to(app, addr)
    assert len(offers) == 1
    assert "Take a vacation until 2026-12-11" in text_of(offers[0])
    # a second auto-reply the same week: no second offer
    deliver(app, reply_to(ours, "Out of office until 2026-12-20", Auto_Submitted="auto-replied"))
    assert len(offers_to(app, addr)) == 1
    clock.advance(days=1)
    # the link: GET shows and changes nothing, POST applies
    path = offer_link(offers[0]).split("turnpost.test", 1)[1]
    assert "Take a vacation until 2026-12-11" in client.get(path).text
    assert vacations(app) == []
    assert "You are on vacation to the end of 11 Dec" in client.post(path).text
    assert [(v.first_day, v.last_day) for v in vacations(app)] == [(date(2026, 11, 25),
                                                                  date(2026, 12, 11))]


def test_an_offer_pressed_after_the_player_moved_says_so(client):
    app = client.application
    start(client)
    addr, ours = mover(app)
    deliver(app, reply_to(ours, "Automatic reply: I am away.", Auto_Submitted="auto-replied"))
    offer = offers_to(app, addr)[0]
    assert "named no return date, so this is for 7 days" in text_of(offer)
    turn = next(m for m in reversed(mails(app)) if m["To"] == addr and move_links(m))
    assert client.post(move_links(turn)[0][1]).status_code == 200
    answer = client.post(offer_link(offer).split("turnpost.test", 1)[1])
    assert answer.status_code == 409 and "You have moved since" in answer.text
    assert vacations(app) == []
