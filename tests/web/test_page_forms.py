"""Every form a page shows works when posted as the page renders it: the browser sends the
form's own fields and nothing else. The other web tests post through a client that adds the
CSRF token to every form (helpers.FormClient); this one does not, so a form that forgot its
token is caught here. (The game page's undo and chat forms had none: every press answered
"This form has expired".)

Forms to the routes that take their credential from the URL and need no session (a move
link's /m/, /u/, /s/, /i/) are exempt from CSRF and posted by the move tests; here they are
only read."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from sqlalchemy import select

from service.store.models import GameRow, UndoRequest
from tests.web.helpers import sign_in, table_game

EXEMPT = ("/m/", "/u/", "/s/", "/i/")
EXPIRED = "This form has expired"


class Forms(HTMLParser):
    """The POST forms of a page: (action, fields as a browser would send them, with a
    person's words in the text boxes it leaves empty)."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._open: tuple[str, dict[str, str]] | None = None
        self._select: str | None = None     # the select being read, until an option is taken
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._open = (a.get("action", ""), {})
            return
        if self._open is None:
            return
        fields, name = self._open[1], a.get("name")
        if tag == "input" and name and a.get("type", "text") in ("checkbox", "radio"):
            if "checked" in a:
                fields[name] = a.get("value", "on")
        elif tag == "input" and name:
            typed = a.get("type", "text") in ("text", "email", "search")
            fields[name] = a.get("value") or ("hello" if typed else "")
        elif tag == "textarea" and name:
            self._textarea = name
            fields[name] = ""
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            # the first option, unless a later one is selected
            if self._select not in fields or "selected" in a:
                fields[self._select] = a.get("value", "")

    def handle_data(self, data):
        if self._textarea:
            self._open[1][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self._textarea:
            fields = self._open[1]
            fields[self._textarea] = fields[self._textarea].strip() or "hello"
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form" and self._open is not None:
            self.forms.append(self._open)
            self._open = None


def forms_of(client, path: str) -> list[tuple[str, dict[str, str]]]:
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code)
    parser = Forms()
    parser.feed(r.text)
    return parser.forms


def post_each_as_rendered(client, path: str) -> list[str]:
    """Post every form of the page as it was rendered; returns the actions posted."""
    posted = []
    for action, fields in forms_of(client, path):
        if action.startswith(EXEMPT):
            continue
        assert "csrf_token" in fields, f"the form to {action} on {path} has no CSRF token"
        r = client.post(action, data=fields)
        assert EXPIRED not in r.text, f"the form to {action} on {path} was refused as expired"
        assert r.status_code < 500, (action, r.status_code)
        posted.append(action)
    return posted


@pytest.fixture
def game(app):
    """A two-player game in progress where seat 0 asks to take back a move: seat 0's page
    shows the ask and chat forms, seat 1's the Accept and Refuse forms. The request is
    written as undo.ask writes it: what is tested is its forms, not the take-back."""
    svc = app.extensions["turnpost"]
    gid = table_game(app, "magnate", ["anna@example.org", "ben@example.org"])
    with svc.db.transaction() as s:
        seq = s.scalar(select(GameRow.seq).where(GameRow.id == gid))
        s.add(UndoRequest(game_id=gid, seat=0, back_to=seq - 1, at_seq=seq, answers={},
                          status="open", created_at=svc.clock.now()))
    return gid, [svc.urls.game_path(gid, seat) for seat in (0, 1)]


def test_the_asking_seats_page_posts_its_forms(app, game):
    _, (anna, _) = game
    posted = post_each_as_rendered(app.test_client(), anna)
    assert f"{anna}/play" in posted and f"{anna}/say" in posted


def test_the_other_seats_page_posts_accept_refuse_undo_and_chat(app, game):
    _, (_, ben) = game
    forms = forms_of(app.test_client(), ben)
    answers = [f["answer"] for a, f in forms if a == f"{ben}/undo" and "answer" in f]
    assert answers == ["accept", "refuse"]
    posted = post_each_as_rendered(app.test_client(), ben)
    assert f"{ben}/undo" in posted and f"{ben}/say" in posted


def test_the_undo_button_asks_and_the_chat_box_sends(app, game):
    """What a press does, end to end, with only the page's own fields."""
    gid, (anna, ben) = game
    client = app.test_client()
    action, fields = next(f for f in forms_of(client, ben) if f[0] == f"{ben}/undo")
    r = client.post(action, data=fields, follow_redirects=True)
    assert "take back" in r.text.lower() and EXPIRED not in r.text
    action, fields = next(f for f in forms_of(client, anna) if f[0] == f"{anna}/say")
    r = client.post(action, data={**fields, "text": "good luck, ben"})
    assert r.status_code == 302, r.text
    assert "good luck, ben" in app.test_client().get(ben).text


def test_the_signed_in_pages_post_their_forms(app):
    client = app.test_client()
    sign_in(client, app, "anna@example.org")
    table_game(app, "trees", ["anna@example.org", "ben@example.org"])
    # sign-out last: what follows it on a page would be posted without a session; a form
    # whose answer may be an error shown beside it brings the browser back to it (#...)
    assert post_each_as_rendered(client, "/") == ["/games", "/practice#practice"]
    assert post_each_as_rendered(client, "/me") == ["/me/profile#profile",
                                                    "/me/preferences#preferences",
                                                    "/me/calendar#language",
                                                    "/me/address#your-data",
                                                    "/me/erase#your-data",
                                                    "/me/webhooks#webhooks",
                                                    "/me/calendar#own-time", "/sign-out"]
