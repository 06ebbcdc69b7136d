"""Rematch, the button on a finished game's page: the same table again, bot seats by bots of
the same level, once per game however often it is pressed (and by whom), with a way back to
the game from every answer."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from service.play.clock import ManualClock
from service.store.models import GameRow, Invitation, OutboxRow, Seat
from tests.conftest import T0
from tests.play.players.test_my_games import play_to_the_end
from tests.web.helpers import form_client, invitation_links, mails, post_form, start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def app(app_factory):
    return app_factory(TURNPOST_CLOCK=ManualClock(T0))


def press(client, app, gid: int, seat: int, path: str | None = None):
    """The rematch button of a seat's game page (`path`: that page, as a link the player
    keeps; a new one by default)."""
    path = path or app.extensions["turnpost"].urls.game_path(gid, seat)
    return post_form(client, path + "/rematch", page=path), path


def count(app, model, *where):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def test_a_table_with_bots_gets_its_rematch_with_the_same_bots_at_once(app):
    gid = start_game(app, "trees", [ANNA, "bot:easy", "bot"], {"turn_cap": "2"}).game_id
    play_to_the_end(app, gid)
    client = app.test_client()
    r, _ = press(client, app, gid, 0)
    # nobody to wait for: the new game is dealt, and the asker is taken to their seat in it
    assert r.status_code == 302 and r.headers["Location"].startswith("/g/"), r.text
    page = client.get(r.headers["Location"]).text
    assert "Trees #2" in page and "Rematch: game #2" in page
    with app.extensions["turnpost"].db.transaction() as s:
        new = s.get(GameRow, 2)
        assert new.rematch_of == gid and new.status == "active"
        assert [(x.seat, x.bot) for x in sorted(new.seats, key=lambda x: x.seat)] == [
            (0, None), (1, "easy"), (2, "normal")]
    assert count(app, OutboxRow, OutboxRow.to_addr.like("%.invalid"),
                 OutboxRow.status != "skipped") == 0
    # pressed again: the same rematch, nothing new made
    again, _ = press(client, app, gid, 0)
    assert again.status_code == 200 and "already offered" in again.text
    assert re.search(r'href="/g/[^"]+">Open game #2', again.text)
    assert count(app, GameRow) == 2


def test_a_second_press_finds_the_rematch_offered_and_sends_nothing_again(app):
    gid = start_game(app, "trees", [ANNA, BEN, "bot"], {"turn_cap": "2"}).game_id
    svc = app.extensions["turnpost"]
    play_to_the_end(app, gid)
    anna = app.test_client()
    r, anna_page = press(anna, app, gid, 0)
    assert r.status_code == 200 and "Rematch offered" in r.text
    assert f'href="{anna_page}"' in r.text                  # back to the game
    invited = [m for m in mails(app) if m["To"] == BEN and "invites you" in m["Subject"]]
    assert len(invited) == 1
    with svc.db.transaction() as s:
        bot = s.scalars(select(Invitation).where(Invitation.game_id == 2,
                                                 Invitation.seat == 2)).one()
        assert bot.status == "accepted" and bot.email.startswith("bot-normal-")
    again, _ = press(anna, app, gid, 0, anna_page)           # the double click
    assert again.status_code == 200 and "already offered" in again.text
    assert "nothing new was made or sent" in again.text and f'href="{anna_page}"' in again.text
    # Ben presses too: the same game, and the way to his invitation
    ben = app.test_client()
    theirs, ben_page = press(ben, app, gid, 1)
    assert theirs.status_code == 200 and "already offered" in theirs.text
    link = re.search(r'href="(/invitations/[^"]+/accept)"', theirs.text).group(1)
    # the same invitation (the token is signed again, with its own time: compare its claims)
    def claims(path):
        return svc.urls.signer.loads("invite", path.split("/")[2])
    assert claims(link) == claims(invitation_links(invited[0])["accept"])
    assert link.endswith("/accept")
    assert count(app, GameRow) == 2
    assert len([m for m in mails(app) if m["To"] == BEN and "invites you" in m["Subject"]]) == 1


def test_a_refused_rematch_links_back_to_the_game(app):
    gid = start_game(app, "trees", [ANNA, BEN]).game_id       # not over yet
    r, page = press(app.test_client(), app, gid, 0)
    assert r.status_code == 409 and "once a game has ended" in r.text
    assert f'href="{page}"' in r.text


def test_a_practice_rematch_starts_at_once_and_mails_nobody(app):
    client = form_client(app)
    r = client.post("/practice", data={"game": "trees", "seats": "2", "level": "easy",
                                       "trees.turn_cap": "2"})
    assert r.status_code == 302
    play_to_the_end(app, 1)
    again = client.post(r.headers["Location"].split("#")[0] + "/rematch", data={})
    assert again.status_code == 302, again.text
    assert client.get(again.headers["Location"]).status_code == 200
    with app.extensions["turnpost"].db.transaction() as s:
        seat = s.get(Seat, (2, 0))
        assert seat.muted and seat.player.email.endswith("@guests.invalid")
    assert mails(app) == []



def test_the_finished_games_page_says_the_rematch_is_offered(app):
    gid = start_game(app, "trees", [ANNA, BEN, "bot"], {"turn_cap": "2"}).game_id
    play_to_the_end(app, gid)
    client = app.test_client()
    path = app.extensions["turnpost"].urls.game_path(gid, 1)
    assert "Rematch: offer the same table a new game" in client.get(path).text
    press(app.test_client(), app, gid, 0)
    page = client.get(path).text
    assert "Rematch offered: game #2, see where" in page
    assert "Rematch: offer the same table" not in page
