"""The community on the web: the open seats page lists standing challenges, filters them and
posts them (a refusal says why and stores nothing); /ladders/<game> joins and challenges; a
chat line reported from the game page reaches `flask reports list`; a block from the game
page hides the line; the API posts and lists challenges."""
from __future__ import annotations

import re

from sqlalchemy import func, select

from service.play.moves import chat
from service.play.players import personaltokens
from service.store.models import Challenge, GameRow, Player
from tests.web.helpers import form_client, mails, sign_in, table_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"


def person(app, addr):
    client = form_client(app)
    sign_in(client, app, addr)
    return client


def count(app, model, *where):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def accept(client):
    """The defender presses Accept on the ladder page, under "Challenges to you"."""
    page = client.get("/ladders/trees").text
    found = re.search(r'action="(/ladders/trees/challenges/\d+/accept)"', page)
    assert found and page.index('id="to-answer"') < found.start()
    done = client.post(found.group(1), data={}, follow_redirects=True)
    assert "The ladder game has started" in done.text


def test_a_challenge_posted_on_the_open_seats_page_is_listed_then_matched(app):
    anna, ben = person(app, ANNA), person(app, BEN)
    r = anna.post("/challenges", data={"game": "trees", "clock": "3d", "rated": "yes",
                                       "min_rating": "1400", "max_rating": "1700"})
    assert r.status_code == 302
    page = app.test_client().get("/games/open").get_data(as_text=True)
    assert 'href="/ladders/trees"' in page
    assert "anna: Trees, 3d per move, rated, against 1400–1700" in page
    assert "anna:" not in app.test_client().get("/games/open?rating=1300").get_data(as_text=True)
    assert "anna:" not in app.test_client().get("/games/open?clock=5d").get_data(as_text=True)
    assert "anna:" in app.test_client().get("/games/open?game=trees&rated=yes&rating=1500") \
        .get_data(as_text=True)
    r = ben.post("/challenges", data={"game": "trees", "clock": "3d", "rated": "yes"})
    assert r.status_code == 302 and r.location.endswith("/me")
    assert count(app, GameRow) == 1
    assert count(app, Challenge, Challenge.status == "matched") == 2
    told = {m["To"]: text_of(m) for m in mails(app) if "challenge is matched" in m["Subject"]}
    assert set(told) == {ANNA, BEN}
    assert "Trees against ben" in " ".join(told[ANNA].split())
    assert "3 days per move, rated" in " ".join(told[BEN].split())


def test_an_empty_rating_range_is_refused_on_the_page_and_nothing_stored(app):
    anna = person(app, ANNA)
    r = anna.post("/challenges", data={"game": "trees", "clock": "3d", "min_rating": "1700",
                                       "max_rating": "1400"})
    assert r.status_code == 400
    assert "The rating range 1700-1400 is empty" in r.get_data(as_text=True)
    assert count(app, Challenge) == 0


def test_the_ladder_page_joins_and_challenges(app):
    anna, ben = person(app, ANNA), person(app, BEN)
    assert anna.post("/ladders/trees/join", data={}).status_code == 302
    assert ben.post("/ladders/trees/join", data={}).status_code == 302
    page = ben.get("/ladders/trees").get_data(as_text=True)
    assert "anna" in page and "ben (you)" in page and "Challenge</button>" in page
    with app.extensions["turnpost"].db.transaction() as s:
        anna_id = s.scalar(select(Player.id).where(Player.email == ANNA))
    sent = ben.post(f"/ladders/trees/challenge/{anna_id}", data={}, follow_redirects=True)
    assert "The game starts when they accept it" in sent.text
    assert count(app, GameRow) == 0, "not before anna accepts (issue 49, item 17)"
    letter = next(m for m in mails(app) if m["To"] == ANNA and "ladder" in m["Subject"])
    assert "ben challenges you on the Trees ladder" == letter["Subject"]
    assert "http://turnpost.test/ladders/trees" in text_of(letter)
    assert "the game starts by itself" in " ".join(text_of(letter).split())
    accept(anna)
    assert count(app, GameRow) == 1
    r = ben.post(f"/ladders/trees/challenge/{anna_id + 1}", data={})        # Ben himself
    assert r.status_code == 409 and "yourself" in r.get_data(as_text=True)
    assert app.test_client().get("/ladders/chess").status_code == 404


def test_the_ladder_page_leaves_and_its_open_game_plays_on(app):
    anna, ben = person(app, ANNA), person(app, BEN)
    anna.post("/ladders/trees/join", data={})
    ben.post("/ladders/trees/join", data={})
    assert "Leave this ladder" in ben.get("/ladders/trees").text
    with app.extensions["turnpost"].db.transaction() as s:
        anna_id = s.scalar(select(Player.id).where(Player.email == ANNA))
    ben.post(f"/ladders/trees/challenge/{anna_id}", data={})
    accept(anna)
    left = ben.post("/ladders/trees/leave", data={}, follow_redirects=True)
    assert "You left the ladder. Your open ladder game plays on" in left.text
    assert "ben" not in left.text.split("ladder</h1>")[1].split("</ol>")[0]
    assert "Join this ladder" in left.text and count(app, GameRow, GameRow.status == "active") == 1
    again = ben.post("/ladders/trees/leave", data={})
    assert again.status_code == 409 and "not on this ladder" in again.text


def test_a_line_reported_from_the_game_page_is_listed_for_the_operators(app):
    client = form_client(app)
    gid = table_game(app, "trees", [ANNA, BEN])
    urls = app.extensions["turnpost"].urls
    anna_page, ben_page = urls.game_path(gid, 0), urls.game_path(gid, 1)
    line = chat.say(app.extensions["turnpost"], gid, 1, "rude words").message_id
    report_field = f'name="line" value="{line}"'
    assert report_field in client.get(anna_page).get_data(as_text=True)
    assert report_field not in client.get(ben_page).get_data(as_text=True)   # his own
    r = client.post(f"{anna_page}/report", data={"line": str(line), "reason": "insult"})
    assert r.status_code == 302
    out = app.test_cli_runner().invoke(args=["reports", "list"]).output
    assert "rude words" in out and "reported by anna" in out and "insult" in out
    assert out.strip().endswith("1 reports")
    # and a block from the page hides the line from Anna
    assert client.post(f"{anna_page}/block", data={"seat": "7"}).status_code == 400
    assert client.post(f"{anna_page}/block", data={"seat": "1"}).status_code == 302
    assert "rude words" not in client.get(anna_page).get_data(as_text=True)
    assert "rude words" in client.get(ben_page).get_data(as_text=True)


def test_me_lists_the_players_one_blocked_and_unblocks_them(app):
    """A block made under a chat line hides that player's lines, and with them the only
    button there was: /me lists whom you blocked, each with its Unblock (issue 49, item 7:
    the refusal to invite someone you blocked says to unblock them there)."""
    client = form_client(app)
    gid = table_game(app, "trees", [ANNA, BEN])
    svc = app.extensions["turnpost"]
    anna_page = svc.urls.game_path(gid, 0)
    chat.say(svc, gid, 1, "rude words")
    sign_in(client, app, ANNA)
    assert "Players you have blocked" not in client.get("/me").get_data(as_text=True)
    assert client.post(f"{anna_page}/block", data={"seat": "1"}).status_code == 302
    me = client.get("/me").get_data(as_text=True)
    assert "Players you have blocked" in me and "Unblock ben" in me
    with svc.db.transaction() as s:
        ben = s.scalar(select(Player.id).where(Player.email == BEN))
    r = client.post(f"/players/{ben}/block", data={"undo": "1", "next": "/me#blocked"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/me#blocked")
    assert "Players you have blocked" not in client.get("/me").get_data(as_text=True)
    assert "rude words" in client.get(anna_page).get_data(as_text=True)


def test_the_api_posts_and_lists_challenges(app, client):
    svc = app.extensions["turnpost"]
    person(app, ANNA)
    person(app, BEN)
    auth = {a: {"Authorization": f"Bearer {personaltokens.create(svc, a)[1]}"} for a in (ANNA, BEN)}
    r = client.post("/api/v1/challenges", headers=auth[ANNA],
                    json={"game": "trees", "clock": "3d", "minRating": 1700, "maxRating": 1400})
    assert r.status_code == 409 and "empty" in r.json["detail"]
    r = client.post("/api/v1/challenges", headers=auth[ANNA], json={"game": "trees", "clock": "3d"})
    assert r.status_code == 201 and r.json["gameId"] is None
    listed = client.get("/api/v1/challenges?game=trees", headers=auth[BEN]).json["challenges"]
    assert [c["player"] for c in listed] == ["anna"]
    r = client.post("/api/v1/challenges", headers=auth[BEN], json={"game": "trees", "clock": "3d"})
    assert r.status_code == 201 and r.json["opponent"] == "anna"
    assert client.get("/api/v1/challenges", headers=auth[BEN]).json["challenges"] == []


def test_a_listed_challenge_is_accepted_in_one_press(app):
    """Issue 49, item 17: no matching challenge to post; Accept starts the game on the listed
    challenge's terms, and a second press (or its own player) is refused with words."""
    anna, ben = person(app, ANNA), person(app, BEN)
    anna.post("/challenges", data={"game": "trees", "clock": "5d", "rated": "no"})
    page = ben.get("/games/open").text
    found = re.search(r'action="(/challenges/(\d+)/accept)"', page)
    assert found, "Accept on a challenge that is not one's own"
    assert f'action="/challenges/{found.group(2)}/withdraw"' in anna.get("/games/open").text
    assert f'action="/challenges/{found.group(2)}/accept"' not in anna.get("/games/open").text
    done = ben.post(found.group(1), data={}, follow_redirects=True)
    assert "You took anna&#39;s challenge" in done.text
    with app.extensions["turnpost"].db.transaction() as s:
        game = s.scalars(select(GameRow)).one()
        assert (game.clock, game.rated) == ("5d", False)
        assert [r.player.email for r in game.seats] == [ANNA, BEN]
    told = {m["To"] for m in mails(app) if "challenge is matched" in m["Subject"]}
    assert told == {ANNA, BEN}
    again = person(app, "cleo@example.org").post(found.group(1), data={})
    assert again.status_code == 409 and "no longer open" in again.text
    assert count(app, GameRow) == 1


def test_a_listed_challenge_whose_terms_do_not_admit_the_player_is_refused(app):
    anna, ben = person(app, ANNA), person(app, BEN)
    anna.post("/challenges", data={"game": "trees", "clock": "3d", "min_rating": "1600"})
    path = re.search(r'action="(/challenges/\d+/accept)"', ben.get("/games/open").text).group(1)
    r = ben.post(path, data={})
    assert r.status_code == 409 and "Its terms do not admit you: a rating of 1600 to any" in r.text
    assert count(app, GameRow) == 0 and count(app, Challenge, Challenge.status == "open") == 1
