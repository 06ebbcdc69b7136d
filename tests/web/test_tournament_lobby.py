"""A tournament made in the lobby: the form (a refusal says why, keeps what was typed and
makes nothing), the invitation emails (subject, text and HTML), the link's page and button,
the pending entrants on the tournament's page, and the maker's start."""
from __future__ import annotations

import re

from sqlalchemy import func, select

from service.play import community
from service.store.models import Tournament
from tests.web.helpers import form_client, html_of, mails, post_form, sign_in, text_of

ANNA, BEN, CY = "anna@example.org", "ben@example.org", "cy@example.org"
ANSWER = re.compile(r"http://turnpost\.test(/tournaments/invitations/[A-Za-z0-9_.\-]+/"
                    r"(accept|decline|never))")


def maker(app):
    client = form_client(app)
    sign_in(client, app, ANNA)
    return client


def invitation_to(app, addr):
    found = [m for m in mails(app) if m["To"] == addr and "tournament" in m["Subject"]]
    assert len(found) == 1, [m["Subject"] for m in mails(app) if m["To"] == addr]
    return found[0]


def links(msg) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in ANSWER.finditer(text_of(msg))}


def make(client, **form):
    return client.post("/tournaments", data={
        "game": "trees", "format": "swiss", "rounds": "2", "clock": "3d", "rated": "on",
        "entrants": f"{BEN}\n{CY}\nbot:easy", **form})


def test_the_form_makes_a_tournament_whose_entrants_accept_by_link(app):
    anna = maker(app)
    assert "Make a tournament" in anna.get("/tournaments/new").text
    made = make(anna)
    assert made.status_code == 302 and made.location.endswith("/tournaments/1")
    page = anna.get("/tournaments/1").text
    assert "Swiss, 2 rounds, 3 days per move." in page
    assert "Waiting for its entrants to accept" in page
    assert f"{BEN}: waiting" in page and "Start now with those entered" in page
    # a stranger sees how many wait, never their addresses
    stranger = app.test_client().get("/tournaments/1").text
    assert "2 invitations waiting" in stranger and BEN not in stranger
    letter = invitation_to(app, BEN)
    assert letter["Subject"] == "anna invites you to a Trees tournament (#1)"
    assert "Swiss, 2 rounds" in text_of(letter) and links(letter)["accept"] in html_of(letter)
    for addr in (BEN, CY):
        path = links(invitation_to(app, addr))["accept"]
        person = app.test_client()
        page = person.get(path).text                 # a GET shows the button, changes nothing
        assert "Enter the tournament" in page
        answered = post_form(person, path, page=path)
        assert answered.status_code == 200
    assert "the tournament has started" in answered.text
    view = community.show(app.extensions["turnpost"], 1)
    assert view.status == "running" and len(view.played[0].tables) == 2


def test_a_declined_invitation_and_the_makers_start(app):
    anna = maker(app)
    make(anna)
    path = links(invitation_to(app, BEN))["decline"]
    person = app.test_client()
    assert "Declined" in post_form(person, path, page=path).text
    assert "was answered already (declined)" in person.get(path).text
    again = post_form(person, path)                     # a second press changes nothing
    assert again.status_code == 409 and "answered already (declined)" in again.text
    assert "ben@example.org: declined" in anna.get("/tournaments/1").text
    started = anna.post("/tournaments/1/start", data={})
    assert started.status_code == 302
    assert "Round 1 has started: 1 game." in anna.get("/tournaments/1").text
    # the invitation still open closed
    cy = links(invitation_to(app, CY))["accept"]
    assert "started without this entry" in app.test_client().get(cy).text


def test_only_the_maker_starts_and_not_with_too_few(app):
    anna = maker(app)
    make(anna, entrants=BEN)
    ben = form_client(app)
    sign_in(ben, app, BEN)
    refused = ben.post("/tournaments/1/start", data={})
    assert refused.status_code == 409 and "Only the player who made" in refused.text
    refused = anna.post("/tournaments/1/start", data={})
    assert refused.status_code == 409 and "only 1 have accepted" in refused.text
    assert community.show(app.extensions["turnpost"], 1).status == "forming"


def test_a_tampered_link_is_refused(app):
    anna = maker(app)
    make(anna)
    path = links(invitation_to(app, BEN))["accept"]
    bad = path.replace("/accept", "").rsplit("/", 1)
    damaged = f"{bad[0]}/{bad[1][:-4]}abcd/accept"
    for answer in (app.test_client().get(damaged), post_form(app.test_client(), damaged)):
        assert answer.status_code == 400 and "This link is damaged" in answer.text
    assert community.show(app.extensions["turnpost"], 1).status == "forming"


def test_a_refused_form_says_why_keeps_the_typing_and_makes_nothing(app):
    anna = maker(app)
    refused = make(anna, entrants="bot:hard", rounds="2")
    assert refused.status_code == 400
    assert "no bot called" in refused.text and "bot:hard" in refused.text
    refused = make(anna, rounds="many")
    assert refused.status_code == 400 and "Rounds is a number" in refused.text
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Tournament)) == 0
    assert not [m for m in mails(app) if "tournament" in m["Subject"]]


def test_signed_out_the_form_asks_to_sign_in(app):
    client = form_client(app)
    assert "Sign in with your email" in client.get("/tournaments/new").text
    sent = client.post("/tournaments", data={"game": "trees"})
    assert sent.status_code == 302 and "/sign-in" in sent.location


def test_the_header_leads_to_ratings_ladders_and_tournaments(app):
    client = app.test_client()
    header = client.get("/").text.split("</header>")[0]
    for path in ("/ratings", "/ladders", "/tournaments"):
        assert f'href="{path}"' in header
        assert client.get(path).status_code == 200
    assert 'href="/ladders/trees"' in client.get("/ladders").text
    anna = maker(app)
    make(anna)
    listed = client.get("/tournaments").text
    assert "Trees tournament #1" in listed and "waiting for its entrants to accept" in listed
    assert 'href="/tournaments/new"' in listed


def test_me_lists_the_tournaments_waiting_to_start(app):
    anna = maker(app)
    make(anna)
    assert "Your <a href=\"/tournaments/1\">Trees tournament #1</a>: waiting" in anna.get("/me").text
    ben = form_client(app)
    sign_in(ben, app, BEN)
    mine = ben.get("/me").text
    assert "You are invited to the Trees tournament #1" in mine
    path = re.search(r'href="(/tournaments/invitations/[^"]+/accept)"', mine).group(1)
    assert "Enter the tournament" in ben.get(path).text         # the link on /me works
    post_form(ben, path, page=path)
    assert "Tournaments waiting to start" not in ben.get("/me").text


def test_the_maker_calls_it_off_from_its_page(app):
    anna = maker(app)
    make(anna)
    assert anna.post("/tournaments/1/cancel", data={}).status_code == 302
    page = anna.get("/tournaments/1").text
    assert "Called off by its maker before it started" in page and "Call it off" not in page
    assert "called off" in app.test_client().get("/tournaments").text
    path = links(invitation_to(app, BEN))["accept"]
    assert "its maker called the tournament off" in app.test_client().get(path).text
    again = anna.post("/tournaments/1/cancel", data={})
    assert again.status_code == 409 and "was called off" in again.text


def test_never_email_me_declines_and_no_invitation_reaches_the_address_again(app):
    """The invitation's third link, as a game invitation has: the address is never mailed
    again, and every invitation waiting on it, to a tournament or a game, reads declined."""
    anna = maker(app)
    make(anna)
    letter = invitation_to(app, BEN)
    path = links(letter)["never"]
    assert path in html_of(letter)
    person = app.test_client()
    assert "Decline, and never email me again" in person.get(path).text
    assert "no more email" in post_form(person, path, page=path).text
    assert "ben@example.org: declined" in anna.get("/tournaments/1").text
    before = len([m for m in mails(app) if m["To"] == BEN])
    make(anna, entrants=f"{BEN}\n{CY}")                # a second tournament: Ben is not mailed
    made = post_form(anna, "/games", {"game": "trees", "players": BEN}, page="/")
    assert made.status_code == 302                      # nor is he for a game
    assert len([m for m in mails(app) if m["To"] == BEN]) == before
    assert "ben@example.org: declined" in anna.get("/tournaments/2").text
