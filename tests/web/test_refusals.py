"""One handler answers a use case's refusal (a PlayError) on every page: the status its kind
calls for, what a view asks for with @on_refusal, and a problem document under /api/."""
from __future__ import annotations

import pytest

from service import play
from service.web.refusals import on_refusal, problem_page

KINDS = {"no-game": (play.NoSuchGame, 404), "not-yours": (play.NotYourSeat, 403),
         "refused": (play.Refused, 422), "over": (play.GameOver, 409)}


def refuse(kind: str):
    raise KINDS[kind][0]("Words for the player.")


@pytest.fixture
def client(app):
    app.add_url_rule("/test/refuse/<kind>", "refuse_plain", refuse)
    app.add_url_rule("/test/asked/<kind>", "refuse_asked",
                     on_refusal(problem_page(400))(lambda kind: refuse(kind)))
    app.add_url_rule("/test/unless/<kind>", "refuse_unless",
                     on_refusal(lambda exc, kind: ("answered by the view", 418),
                                unless=(play.NotYourSeat,))(lambda kind: refuse(kind)))
    app.add_url_rule("/api/v1/test/refuse/<kind>", "api_refuse", refuse)
    return app.test_client()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_page_answers_each_kind_with_its_status_and_words(client, kind):
    response = client.get(f"/test/refuse/{kind}")
    assert response.status_code == KINDS[kind][1]
    assert response.mimetype == "text/html"
    assert "Words for the player." in response.get_data(as_text=True)


def test_a_view_may_ask_for_another_status(client):
    assert client.get("/test/asked/no-game").status_code == 400


def test_a_view_answers_itself_except_the_kinds_it_leaves_to_the_handler(client):
    answered = client.get("/test/unless/refused")
    assert (answered.status_code, answered.get_data(as_text=True)) == (418,
                                                                       "answered by the view")
    assert client.get("/test/unless/not-yours").status_code == 403


def test_under_the_api_a_refusal_is_a_problem_document(client):
    response = client.get("/api/v1/test/refuse/no-game")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.json["detail"] == "Words for the player."
