"""A player's secret calendar of deadlines (ICS) and Atom feed of "your move", revocable."""
from __future__ import annotations

from datetime import timedelta
from xml.etree import ElementTree

import pytest
from icalendar import Calendar

from service import play
from service.play.clock import ManualClock
from service.play.players import personaltokens
from tests.conftest import T0
from tests.web.helpers import game_link, latest_to, post_form

ANNA, BEN = "anna@example.org", "ben@example.org"
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def feeds(app):
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", ["Anna <anna@example.org>", BEN], {}).game_id
    made = {a: personaltokens.create(svc, a, "feeds", "feed") for a in (ANNA, BEN)}
    return gid, made


def test_the_atom_feed_has_an_entry_for_the_player_whose_move_it_is(app, client, feeds):
    gid, made = feeds
    svc = app.extensions["turnpost"]
    to_act = play.read_game(svc, gid, play.Reader.at(gid, 0)).page.to_act
    entries = {}
    for addr, (_, token) in made.items():
        r = client.get(f"/feeds/{token}/moves.atom")
        assert r.status_code == 200 and r.mimetype == "application/atom+xml"
        root = ElementTree.fromstring(r.data)
        entries[addr] = root.findall(f"{ATOM}entry")
    mover = [ANNA, BEN][to_act[0]]
    other = BEN if mover == ANNA else ANNA
    assert len(entries[mover]) == 1 and entries[other] == []
    entry = entries[mover][0]
    assert f"game {gid}" in entry.find(f"{ATOM}title").text
    assert entry.find(f"{ATOM}link").get("href").startswith("http://turnpost.test/g/")
    # to the second, and no address in the feed's name (issue 49, item 20)
    assert "." not in entry.find(f"{ATOM}updated").text
    assert "@" not in ElementTree.fromstring(
        client.get(f"/feeds/{made[mover][1]}/moves.atom").data).find(f"{ATOM}title").text


def test_the_calendar_is_empty_without_clocks_and_lists_deadlines_with_them(
        app_factory, client, feeds):
    _, made = feeds
    token = made[ANNA][1]
    r = client.get(f"/feeds/{token}/deadlines.ics")
    assert r.status_code == 200 and r.mimetype == "text/calendar"
    assert Calendar.from_ical(r.data).walk("VEVENT") == []      # flask start-game: no clock
    # a game with a clock of 3 days per move: the seat to move has its deadline listed
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", ["Anna <anna@example.org>", BEN],
                          {"clock": "3d"}).game_id
    (mover,) = play.read_game(svc, gid, play.Reader.at(gid, 0)).page.to_act
    due = T0 + timedelta(days=3)
    for seat, addr in enumerate([ANNA, BEN]):
        token = personaltokens.create(svc, addr, "feeds", "feed")[1]
        ics = Calendar.from_ical(app.test_client().get(f"/feeds/{token}/deadlines.ics").data)
        assert "@" not in str(ics["x-wr-calname"]), "a calendar named after no address"
        # each event ends at the deadline and lasts an hour: none of no length (item 20)
        spans = [(e.decoded("dtstart"), e.decoded("dtend")) for e in ics.walk("VEVENT")]
        assert spans == ([(due - timedelta(hours=1), due)] if seat == mover else []), addr
    # the feed says when the move is due in words, in the player's zone: no ISO instant
    mover_token = personaltokens.create(svc, [ANNA, BEN][mover], "feeds", "feed")[1]
    atom = ElementTree.fromstring(
        app.test_client().get(f"/feeds/{mover_token}/moves.atom").data)
    summaries = [e.find(f"{ATOM}summary").text for e in atom.findall(f"{ATOM}entry")]
    [summary] = [s for s in summaries if "due" in s]
    assert "Your move is due by Fri 27 Nov, 09:00 UTC." in summary
    assert "T09:00" not in summary and "+00:00" not in summary


def test_a_revoked_or_unknown_or_api_token_is_404(app, client, feeds):
    svc = app.extensions["turnpost"]
    _, made = feeds
    token_id, token = made[ANNA]
    api_token = personaltokens.create(svc, ANNA)[1]
    for bad in ("nonsense", api_token):
        assert client.get(f"/feeds/{bad}/moves.atom").status_code == 404
    personaltokens.revoke(svc, ANNA, token_id)
    assert client.get(f"/feeds/{token}/moves.atom").status_code == 404
    assert client.get(f"/feeds/{token}/deadlines.ics").status_code == 404


def test_feed_links_are_made_on_the_tokens_page(app, client, feeds):
    page = game_link(latest_to(app, ANNA))
    made = post_form(client, f"{page}/tokens", {"scope": "feed", "label": "x"}, page=page).text
    assert "/deadlines.ics" in made and "/moves.atom" in made
    url = made.split('href="http://turnpost.test')[1].split('"')[0]
    assert client.get(url).status_code == 200
