"""Chat at the table: messages from the page's box (to everyone or privately to one seat),
`say`/`help`/`view` in the page's command box, refusals with words, escaped text, and — over
random games — a private message never reaching a third seat's page, history or view."""
from __future__ import annotations

import html
import random
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from service.linking import freshness
from service.linking.signer import Claims
from service.play import repository
from service.store.models import ChatMessage, EventRow, OutboxRow
from tests.budgets import examples
from tests.web.helpers import form_client, mails, table_game, text_of


@pytest.fixture
def client(app):
    """Forms posted with the session's CSRF token, as the pages post them."""
    return form_client(app)


def _game(client, app, players=("a@example.org", "b@example.org", "c@example.org"),
          kind="trees"):
    gid = table_game(app, kind, list(players))
    urls = app.extensions["turnpost"].urls
    return gid, [urls.game_path(gid, s) for s in range(len(players))]


def _count(app, model) -> int:
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model))


def test_a_message_to_everyone_is_in_every_history_with_its_time_and_mailed(client, app):
    gid, pages = _game(client, app)
    before = len(mails(app))
    r = client.post(pages[0] + "/say", data={"text": "good luck, all", "to": ""})
    assert r.status_code == 302
    for page in pages:
        text = client.get(page).text
        assert "good luck, all" in text
        assert '<time datetime="2' in text
    new = mails(app)[before:]
    assert sorted(m["To"] for m in new) == ["b@example.org", "c@example.org"]
    assert "good luck, all" in text_of(new[0])


def test_a_private_message_is_seen_by_its_two_seats_only(client, app):
    gid, pages = _game(client, app)
    before = len(mails(app))
    r = client.post(pages[0] + "/say", data={"text": "just between us", "to": "2"})
    assert r.status_code == 302
    assert "just between us" in client.get(pages[0]).text
    assert "just between us" in client.get(pages[2]).text
    assert "privately" in client.get(pages[2]).text
    assert "just between us" not in client.get(pages[1]).text
    assert "just between us" not in client.get(f"/games/{gid}").text
    assert [m["To"] for m in mails(app)[before:]] == ["c@example.org"]


@pytest.mark.parametrize("data, words", [
    ({"text": "   "}, "The message is empty"),
    ({"text": "x" * 10_000}, "10,000 characters long; the most is 2,000"),
    ({"text": "hi", "to": "7"}, "There is no player 8 in this game"),
    ({"text": "hi", "to": "0"}, "addressed to yourself"),
    ({"text": "hi", "to": "Ben"}, "Choose whom the message is for"),
])
def test_messages_that_cannot_go_are_refused_and_nothing_is_stored(client, app, data, words):
    _, pages = _game(client, app)
    sent = len(mails(app))
    r = client.post(pages[0] + "/say", data=data)
    assert r.status_code == 422
    assert words in html.unescape(r.text)
    assert _count(app, ChatMessage) == 0
    assert len(mails(app)) == sent


def test_html_in_a_message_is_shown_as_text(client, app):
    _, pages = _game(client, app)
    client.post(pages[0] + "/say", data={"text": "<script>alert(1)</script><b>hi</b>"})
    page = client.get(pages[1]).text
    assert "<script>alert(1)" not in page and "<b>hi</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_command_box_takes_say_help_and_view_like_a_reply(client, app):
    gid, pages = _game(client, app)
    r = client.post(pages[0] + "/play", data={"commands": "say hello from the box"})
    assert r.status_code == 302
    assert "hello from the box" in client.get(pages[1]).text
    r = client.post(pages[0] + "/play", data={"commands": "help"}, follow_redirects=True)
    assert "Every move you can make now" in r.text or "no move to make" in r.text
    r = client.post(pages[0] + "/play", data={"commands": "view"}, follow_redirects=True)
    assert "Here is the game as it stands." in r.text
    r = client.post(pages[0] + "/play", data={"commands": "say"})
    assert r.status_code == 422 and "The message is empty" in r.text
    with app.extensions["turnpost"].db.transaction() as s:
        # chat is never in the engines' log
        assert s.scalar(select(func.count()).select_from(EventRow).where(
            EventRow.game_id == gid, EventRow.type.ilike("%chat%"))) == 0


def test_the_message_box_flashes_what_it_did(client, app):
    _, pages = _game(client, app)
    r = client.post(pages[0] + "/say", data={"text": "hi", "to": "1"}, follow_redirects=True)
    assert "Message sent privately." in r.text
    assert _count(app, OutboxRow) > 0


def _every_page(client, path: str) -> str:
    """The page and every older page of its history, followed by their links."""
    texts, url = [], path
    while url:
        text = client.get(url).text
        texts.append(text)
        older = re.search(r'href="\?before=(\d+)#history"', text)
        url = f"{path}?before={older.group(1)}" if older else None
    return "\n".join(texts)


KINDS = [("trees", (2, 3, 4)), ("suzerain", (2,)), ("aristocracy", (3, 4)),
         ("magnate-roller", (2,))]


@pytest.mark.deep
@settings(max_examples=examples(8), deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_private_messages_never_reach_a_third_seat(app_factory, data):
    kind, counts = data.draw(st.sampled_from(KINDS))
    seats = data.draw(st.sampled_from(counts))
    app = app_factory()
    client = form_client(app)
    players = [f"p{n}@example.org" for n in range(seats)]
    extra = {"aristocracy.round_cap": "1"} if kind == "aristocracy" else {}
    gid = table_game(app, kind, players, extra)
    svc = app.extensions["turnpost"]
    rng = random.Random(data.draw(st.integers(0, 10_000)))
    secrets_of: list[tuple[int, int, str]] = []       # (from, to, text)
    for step in range(data.draw(st.integers(5, 60))):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.engine.outcome(pos.state) is not None:
            break
        if rng.random() < 0.3:
            a, b = rng.sample(range(seats), 2)
            text = f"secret{step}x{a}to{b}"
            assert client.post(svc.urls.game_path(gid, a) + "/say",
                               data={"text": text, "to": str(b)}).status_code == 302
            secrets_of.append((a, b, text))
            continue
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine,
                                                                          pos.state, seat), move))
        resp = client.post(f"/m/{token}", data={"then": "game"})
        assert resp.status_code == 302, resp.text
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
    for seat in range(seats):
        page = _every_page(client, svc.urls.game_path(gid, seat))
        page += client.get(svc.urls.game_path(gid, seat) + "/log.json").text
        view = repr(pos.engine.view(pos.state, seat))
        for a, b, text in secrets_of:
            if seat in (a, b):
                assert text in page
            else:
                assert text not in page and text not in view
    public = _every_page(client, f"/games/{gid}")
    assert not any(text in public for _, _, text in secrets_of)


def test_a_chat_line_is_a_short_email_of_its_own_not_a_second_turn_email(client, app):
    """The player to move had their turn email; a message to them is the line and whose move
    it is, in the game's thread, without the position or the move links again."""
    gid, pages = _game(client, app)
    turn = [m for m in mails(app) if m["To"] == "a@example.org"][-1]
    assert "Your move" in turn["Subject"] and "/m/" in text_of(turn)
    before = len(mails(app))
    client.post(pages[1] + "/say", data={"text": "hello", "to": ""})
    said = next(m for m in mails(app)[before:] if m["To"] == "a@example.org")
    assert said["Subject"].startswith("b says · ") and "Your move" not in said["Subject"]
    body = text_of(said)
    assert "hello" in body and "Your turn." in body
    assert "/m/" not in body and "Your moves" not in body and "/g/" in body
    assert said["References"] == turn["References"]          # one thread per game
