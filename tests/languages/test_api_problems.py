"""The API's own request errors, werkzeug's errors an API request meets, and the too-many-
requests answers (API and page) in the language the request asks for, English word for word
otherwise: a problem document's title and detail are said in it (service.web.problems.respond),
as a page's are (pages.problem)."""
from __future__ import annotations

import pytest

from service.mailwire.outbound import catalogs
from service.play.players import personaltokens
from service.web import problems
from tests.languages.helpers import make_player
from tests.web.helpers import post_form

ANNA = "anna@example.org"

#: (request, its English title and detail, their German and French titles and a word each
#: detail must hold)
ASKED = {
    "no token": ({"de": "Token nötig", "fr": "Jeton requis"},
                 ("Token needed", "Send a personal API token: Authorization: Bearer tp_...")),
    "not json": ({"de": "Kein JSON", "fr": "Pas du JSON"},
                 ("Not JSON", "The body must be a JSON object.")),
    "bad seat": ({"de": "Ungültiger Platz", "fr": "Place incorrecte"},
                 ("Malformed seat", "seat is one seat number, a whole number from 0 (the seat "
                                    "field of /api/v1/games), e.g. ?seat=1.")),
    "bad rating": ({"de": "Ungültiger Wert für rating", "fr": "Valeur de rating incorrecte"},
                   ("Malformed rating", "rating is a whole number.")),
    "no such address": ({"de": "Nicht gefunden", "fr": "Introuvable"},
                        ("Not found", "There is nothing at /api/v1/nowhere. The API's operations "
                                      "are listed at /api/v1/openapi.json.")),
    "wrong method": ({"de": "Methode nicht erlaubt", "fr": "Méthode non autorisée"},
                     ("Method not allowed", "/api/v1/games takes {allowed}, not DELETE.")),
}


def _ask(client, token: str, what: str, lang: str | None):
    headers = {"Authorization": f"Bearer {token}"} if what != "no token" else {}
    if lang:
        headers["Accept-Language"] = lang
    if what == "not json":
        return client.post("/api/v1/games/1/moves", data="nope", headers=headers,
                           content_type="application/json")
    if what == "wrong method":
        return client.delete("/api/v1/games", headers=headers)
    path = {"no token": "/api/v1/games", "bad seat": "/api/v1/games/1?seat=x",
            "bad rating": "/api/v1/challenges?rating=x",
            "no such address": "/api/v1/nowhere"}[what]
    return client.get(path, headers=headers)


@pytest.mark.parametrize("what", sorted(ASKED))
def test_the_apis_own_errors_are_in_the_language_asked_for(app, client, what):
    make_player(app, ANNA, None)
    token = personaltokens.create(app.extensions["turnpost"], ANNA, "test")[1]
    titles, (title, detail) = ASKED[what]
    answer = _ask(client, token, what, None)
    english = answer.json
    # the methods a route takes, in the order werkzeug gives them (its Allow header's)
    detail = detail.format(allowed=answer.headers.get("Allow"))
    assert (english["title"], english["detail"]) == (title, detail)
    for lang in ("de", "fr"):
        said = _ask(client, token, what, lang).json
        assert said["status"] == english["status"] and said["type"] == english["type"]
        assert said["title"] == titles[lang], (lang, said)
        assert said["detail"] != detail and said["detail"], (lang, said)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_werkzeugs_words_the_api_may_answer_with_are_translated(lang):
    with catalogs.speaking(lang):
        untranslated = [w for w in problems.HTTP_WORDS if catalogs.gettext(w) == w]
    assert not untranslated


@pytest.mark.parametrize(("lang", "said"), [
    (None, "That was done too often from here or for this account (2 per 1 hour). Please try "
           "again in 60 minutes."),
    ("de", "Das wurde von hier oder für dieses Konto zu oft getan (2 per 1 hour). Versuch es "
           "bitte in 60 Minuten noch einmal."),
    ("fr", "Cela a été fait trop souvent depuis cet endroit ou pour ce compte (2 per 1 hour). "
           "Veuillez réessayer dans 60 minutes.")])
def test_too_many_requests_is_said_in_the_pages_language(app_factory, lang, said):
    app = app_factory(TURNPOST_LIMIT_SIGN_IN_ADDRESS="2/hour")
    client = app.test_client()
    if lang:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    for _ in range(2):
        assert post_form(client, "/sign-in", {"email": ANNA}).status_code == 200
    refused = post_form(client, "/sign-in", {"email": ANNA})
    assert refused.status_code == 429
    assert said in " ".join(refused.text.split())
