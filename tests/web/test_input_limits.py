"""Input limits are answers, not crashes (issue 17, point 4): long names, impossible
addresses and ids beyond the database's integers get a page that says what to fix (400/404);
twenty lobby posts naming one new address at once all start their games."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from celery._state import _set_task_join_will_block
from sqlalchemy import func, select

from service import play
from service.play.players import personaltokens
from service.store.models import ChatMessage, Player
from tests.web.helpers import form_client


def start(app, *players):
    """As a game starts once its players are known (the lobby's invitations end here too)."""
    return play.start_game(app.extensions["turnpost"], "trees", list(players), {})


@pytest.mark.parametrize("player,why", [
    ("A" * 65 + " <anna@example.org>", "longer than 64"),
    ("anna@" + "x" * 300 + ".org", "not an email address"),
    ("a" * 65 + "@example.org", "not an email address"),
    ("anna@localhost", "not an email address"),
    ("anna..b@example.org", "not an email address"),
    ("Anna\x07 <anna@example.org>", "control characters"),
])
def test_bad_players_are_refused_with_a_reason(app, player, why):
    with pytest.raises(play.BadStart) as refused:
        start(app, player, "ben@example.org")
    assert why in refused.value.detail
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Player)) == 0


def test_a_64_character_name_is_fine(app):
    assert start(app, "A" * 64 + " <anna@example.org>", "ben@example.org").game_id == 1


@pytest.mark.parametrize("url", ["/games/99999999999999999999", "/games/2147483648",
                                 "/games/0", "/games/00000000000000000000000001234"])
def test_ids_beyond_the_integer_range_are_404(client, url):
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("url", ["/players/%00", "/players/anna%00", "/api/v1/players/%00",
                                 "/ratings/trees%00", "/games/open%00"])
def test_a_nul_byte_in_a_path_is_404(client, url):
    """Issue 49, item 4: `/players/%00` was a 500 incident on PostgreSQL, at will (its driver
    refuses NUL in text); a path holding one names nothing here."""
    assert client.get(url).status_code == 404


def test_a_nul_byte_in_a_form_a_query_or_a_json_body_is_400_and_changes_nothing(app):
    """The same on PostgreSQL for what a page or the API sends: a chat line with a NUL was
    a 500 as it was stored. Refused, saying so, and nothing is stored."""
    svc = app.extensions["turnpost"]
    gid = start(app, "anna@example.org", "ben@example.org").game_id
    page = svc.urls.game_path(gid, 0)
    client = form_client(app)
    r = client.post(page + "/say", data={"text": "good\x00luck", "to": ""})
    assert r.status_code == 400 and "NUL character" in r.get_data(as_text=True)
    assert client.get("/games/open", query_string={"q": "a\x00"}).status_code == 400
    token = personaltokens.create(svc, "anna@example.org", "test")[1]
    r = client.post(f"/api/v1/games/{gid}/chat", headers={"Authorization": f"Bearer {token}"},
                    json={"text": "good\x00luck"})
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert "NUL character" in r.json["detail"]
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(ChatMessage)) == 0
    assert client.post(page + "/say", data={"text": "good luck", "to": ""}).status_code == 302


def test_twenty_lobby_posts_with_one_new_address_all_start(app):
    def post(n):
        return 302 if start(app, "new@example.org", f"other{n}@example.org").game_id else 500

    with ThreadPoolExecutor(max_workers=20) as pool:
        codes = list(pool.map(post, range(20)))
    # eager Celery (no broker) keeps "inside a task" in a process-wide flag that concurrent
    # threads can leave set; later tests that call .get() would trip on it
    _set_task_join_will_block(False)
    assert codes == [302] * 20
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Player)
                        .where(Player.email == "new@example.org")) == 1


def test_an_unexpected_exception_is_a_friendly_page_with_an_incident_id(app_factory, monkeypatch,
                                                                        caplog):
    app = app_factory(PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    public = app.extensions["turnpost"].urls.public_game_path(
        start(app, "anna@example.org", "ben@example.org").public_id)
    monkeypatch.setattr(play, "read_game", lambda *a, **k: 1 / 0)
    r = client.get(public)
    page = r.get_data(as_text=True)
    assert r.status_code == 500 and "Something went wrong on our side" in page
    incident = page.split("quote incident ")[1][:8]
    assert any(incident in rec.getMessage() for rec in caplog.records)
    assert "ZeroDivisionError" not in page


def test_a_database_disconnect_is_a_503_that_retries_by_itself(app, monkeypatch):
    from sqlalchemy.exc import OperationalError

    def down(*a, **k):
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    public = app.extensions["turnpost"].urls.public_game_path(
        start(app, "anna@example.org", "ben@example.org").public_id)
    monkeypatch.setattr(play, "read_game", down)
    r = app.test_client().get(public)
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert 'http-equiv="refresh"' in r.get_data(as_text=True)
    monkeypatch.setattr(play, "start_practice", down)      # a form post: no reload, say so
    r = form_client(app).post("/practice", data={"game": "trees", "seats": "2"})
    assert r.status_code == 503 and "refresh" not in r.get_data(as_text=True)
