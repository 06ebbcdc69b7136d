"""The pages in German and French with no English left: every page a player meets outside
the other translators' pages (the lobby, /me, a game's public and seat pages of every kind
mid-game and finished, the open games, signing in, a move link's confirm and done pages, an
invitation, a game still forming, unsubscribing, the error pages), fetched by a signed-in
player whose language is German and by a browser asking for French. What stays as written
(cards, players' names, the engines' sentences and prompts, the moves' own words) is cut out
before the words are counted, as tests/languages/test_views.py does for the views."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from service import play
from service.games import registry
from service.linking.signer import Claims
from service.mailwire.outbound import catalogs
from service.play.players import seatchanges
from service.play.time import LOBBY_CHOICES
from service.store.models import GameRow
from service.web.pages import seat_reader, when
from tests.languages.helpers import left_in_english, make_player, theirs
from tests.web.helpers import (
    LINK,
    SIGN_IN,
    game_link,
    invitation_links,
    latest_to,
    mails,
    move_links,
    post_form,
    sign_in,
    start_game,
    text_of,
)

ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"

#: our English words on the pages; none may be left on a German or French one (words German
#: or French spell the same are not here: "page", "message", "plans", "public", "notes",
#: "invite" in French; "still", "was", "Lobby", "Link", "private", "Mail" of "E-Mail" in
#: German)
ENGLISH = {"your", "you", "the", "and", "with", "is", "are", "this", "that", "game", "games",
           "move", "moves", "turn", "next", "follow", "rematch", "undo", "take", "back",
           "send", "save", "sign", "signed", "email", "emails", "players", "player", "seat",
           "seats", "open", "start", "new", "resign", "history", "older", "newer", "rules",
           "clock", "clocks", "days", "hours", "waiting", "invited", "accept",
           "decline", "never", "done", "nothing", "changed", "bounced", "reach", "delivered",
           "wrong", "found", "expired", "damaged", "here", "home", "who", "what", "when",
           "which", "for", "from", "of", "to", "at", "by", "it", "has", "have", "will", "can",
           "cannot", "please", "each", "every", "button", "buttons", "brings", "card", "cards",
           "shown", "watch", "watching", "spectator", "say", "said", "only", "all",
           "everyone", "agree", "agreed", "asked", "want", "choose", "chosen", "settings",
           "unsubscribe", "unsubscribed", "stop", "again", "yet", "over", "won", "left",
           "vacation", "report", "block", "follower", "followers"}

#: the games' rule texts stay as their authors wrote them (rules.html's article)
RULE_TEXT = re.compile(r'<article class="card rules">.*?</article>', re.S)

#: pages the other translator of issue 51 has (their templates and views), cut out of the
#: pages that include them: /me's webhook form (_webhooks.html)
OTHERS = [re.compile(r'<div class="card" id="webhooks">.*?</form>\s*</div>', re.S)]

KINDS = ["trees", "suzerain", "magnate-roller", "aristocracy"]


@pytest.fixture
def readers(app):
    """A client signed in as Anna, whose language is German, and one signed in as Ben from a
    browser asking for French (his language taken from it at sign-in). Both get an email of
    every move, with its links to their seats."""
    make_player(app, ANNA, "de")
    make_player(app, BEN, None)        # every move by email, as Anna; no language chosen yet
    german = app.test_client()
    sign_in(german, app, ANNA)
    french = app.test_client()
    french.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    sign_in(french, app, BEN)
    return {"de": german, "fr": french}


def _english_left(page: str, cut: list[str] = ()) -> set[str]:
    for other in [RULE_TEXT, *OTHERS]:
        page = other.sub(" ", page)
    # a command a player types (`note clear`, `say ...`): the English words always work
    page = re.sub(r"<code>.*?</code>", " ", page.replace("\xad", ""), flags=re.S)
    # an address shown as itself (a profile's /players/anna-12)
    page = re.sub(r"(?<![\w<])/[\w/.-]+", " ", page)
    return left_in_english(page, [*cut, "Turnpost", "Anna", "Ben", "Cleo", "anna", "ben",
                                  "cleo"], ENGLISH)


def _options_words() -> list[str]:
    """What the lobby's form shows as written: the games' names ("Magnate (Roller rules)")
    and their options' values ("classic", "4-5-6"); the options' labels and help are said in
    the page's language."""
    # the clock's choices in words ("3 days per move") are service.play.time's, which the
    # other translator of issue 51 has
    written = [choice for _value, choice in LOBBY_CHOICES]
    for _entry, label, game, _preset in registry.lobby():
        written.append(label)
        for opt in game.options.values():
            written += map(str, opt.choices or ())
    return theirs(written, [], None)


def _game_words(app, game_id: int, reader) -> list[str]:
    """What a game page shows as the engine wrote it: its view, its history's sentences, its
    moves' texts (as theirs() cuts them out of the views)."""
    read = play.read_game(app.extensions["turnpost"], game_id, reader)
    page = read.page
    written = [page.view, [e.get("text", "") for e in read.history],
               [m["text"] for m in page.all_moves], [m["text"] for m in page.menu], page.news]
    return theirs(written, page.names, page.me)


def _left_on(lang: str, where: str, page: str, cut: list[str] = ()) -> list[str]:
    """What is wrong with one page: its language not said, or English words left."""
    if f'<html lang="{lang}">' not in page:
        return [f"{where} in {lang} is not <html lang={lang}>"]
    left = _english_left(page, cut)
    return [f"{where} in {lang} still says {sorted(left)}"] if left else []


def test_the_check_finds_a_planted_english_word():
    page = '<html lang="de"><p>Deine Partien</p><p>Next game</p><script>var x="the";</script>'
    assert _left_on("de", "planted", page) == ["planted in de still says ['game', 'next']"]
    assert _english_left('<p>Ben, "take" Anna <code>undo</code></p>') == set()


def test_the_english_pages_have_the_words_it_looks_for(app, client):
    """The check has teeth on real pages: the English lobby and a seat page have many."""
    start_game(app, "trees", [ANNA, BEN])
    assert len(_english_left(client.get("/").text, _options_words())) > 30
    assert len(_english_left(client.get(game_link(latest_to(app, ANNA))).text)) > 30


def _browser(app, lang: str):
    """A signed-out browser asking for `lang`."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_lobby_me_the_open_games_and_signing_in(app, readers, lang):
    client = readers[lang]
    start_game(app, "trees", [ANNA, BEN])
    addr = ANNA if lang == "de" else BEN
    # a game of Cleo's with an open seat, listed on /games/open, and one Anna or Ben is
    # invited to, on their /me
    cleo = app.test_client()
    sign_in(cleo, app, CLEO)
    post_form(cleo, "/games", {"game": "trees", "players": addr, "open_seats": "1",
                               "public": "on"}, page="/")
    problems = []
    for path in ["/", "/me", "/games/open", "/rules/trees", "/rules/magnate-roller"]:
        problems += _left_on(lang, path, client.get(path).text, _options_words())
    assert "cleo" in client.get("/games/open").text      # the open game is listed
    signed_out = _browser(app, lang)
    for path in ["/", "/sign-in", "/games/open"]:
        problems += _left_on(lang, f"{path} signed out", signed_out.get(path).text,
                             _options_words())
    asked = post_form(signed_out, "/sign-in", {"email": addr}).text
    problems += _left_on(lang, "sign-in sent", asked)
    problems += _left_on(lang, "sign-in refused",
                         post_form(_browser(app, lang), "/sign-in", {"email": "nope"}).text)
    link = SIGN_IN.search(text_of(latest_to(app, addr))).group(1)
    problems += _left_on(lang, "sign-in confirm", signed_out.get(link).text)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_error_pages(app, lang):
    browser = _browser(app, lang)
    problems = []
    for path in ["/no-such-page", "/g/tampered", "/m/tampered", "/u/tampered", "/s/tampered",
                 "/i/tampered", "/invitations/tampered/accept", "/sign-in/tampered",
                 "/rules/no-such-game", "/games/no-such-game"]:
        page = browser.get(path)
        assert page.status_code in (200, 400, 404), path  # a sign-in link's is checked on its post
        problems += _left_on(lang, path, page.text)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_link_pages_an_invitation_and_a_forming_game(app, readers, lang):
    client = readers[lang]
    addr = ANNA if lang == "de" else BEN
    started = start_game(app, "trees", [ANNA, BEN])
    problems = []
    turn = latest_to(app, addr)
    links = [path for _text, path in move_links(turn)]
    unsubscribe = next(m.group(1) for m in LINK.finditer(text_of(turn))
                       if m.group(1).startswith("/u/"))
    problems += _left_on(lang, "unsubscribe", client.get(unsubscribe).text)
    # the links' pages are the key to what they do: no CSRF token (service.web.safety)
    problems += _left_on(lang, "unsubscribed", client.post(unsubscribe).text)
    if links:
        claims = app.extensions["turnpost"].urls.signer.loads(
            "view", game_link(turn).rsplit("/", 1)[-1])
        claims_cut = _game_words(app, started.game_id, seat_reader(claims))
        problems += _left_on(lang, "confirm", client.get(links[0]).text, claims_cut)
        done = client.post(links[0])
        problems += _left_on(lang, "done", done.text, claims_cut)
    # a wait-policy link's page (/s/) for each act, and a take-over invitation's (/i/)
    urls = app.extensions["turnpost"].urls
    seat = 0 if lang == "de" else 1
    for act in ("extend", "bot", "agree"):
        path = urls.seat_action_path(started.game_id, seat, 0, act, 1 - seat)
        problems += _left_on(lang, f"seat action {act}", client.get(path).text)
    take_over = "/i/" + urls.signer.dumps("invite", Claims(started.game_id, seat))
    problems += _left_on(lang, "take over", client.get(take_over).text)
    # a message sent from the seat page: the page again, its note on top
    seat_page = game_link(turn)
    said = post_form(client, f"{seat_page}/say", {"text": "Hallo", "to": ""}, page=seat_page)
    assert said.status_code == 302, said.text
    view = urls.signer.loads("view", seat_page.rsplit("/", 1)[-1])
    cut = _game_words(app, started.game_id, seat_reader(view))
    problems += _left_on(lang, "message sent", client.get(seat_page).text, cut)
    # a line the table does not know, typed in the seat page's box: the page again, the
    # refusal on top
    page = client.get(seat_page).text
    hidden = dict(re.findall(r'name="(seen|nonce)" value="([^"]*)"', page))
    refused = post_form(client, f"{seat_page}/play", {"commands": "frobnicate", **hidden},
                        page=seat_page)
    assert "frobnicate" in refused.text
    # the why is the engine's, said in the page's language (its move words in quotes)
    problems += _left_on(lang, "command refused", refused.text, cut)
    # a game made in the lobby, waiting for Cleo: her invitation, its public page forming
    post_form(client, "/games", {"game": "trees", "players": CLEO, "public": "on"}, page="/")
    invitation = [m for m in mails(app) if m["To"] == CLEO][-1]
    accept = invitation_links(invitation)["accept"]
    problems += _left_on(lang, "invitation", client.get(accept).text)
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        public_id = s.scalars(select(GameRow.public_id).where(GameRow.public_id.is_not(None))
                              .order_by(GameRow.id.desc())).first()
    problems += _left_on(lang, "forming", client.get(f"/games/{public_id}").text)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind", KINDS)
def test_each_games_pages_mid_game_and_finished(app, readers, kind):
    people = [ANNA, BEN, CLEO][:3 if kind in ("magnate-roller", "aristocracy") else 2]
    started = start_game(app, kind, people)
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        public_id = s.get(GameRow, started.game_id).public_id
    problems = []
    for finished in (False, True):
        if finished:
            for seat in range(1, len(people)):
                seatchanges.resign(svc, started.game_id, seat)
        state = " finished" if finished else ""
        for lang, addr in (("de", ANNA), ("fr", BEN)):
            path = game_link(latest_to(app, addr))
            claims = svc.urls.signer.loads("view", path.rsplit("/", 1)[-1])
            cut = _game_words(app, started.game_id, seat_reader(claims))
            for where, page in ((path, path), ("replay", f"{path}/replay")):
                problems += _left_on(lang, f"{kind} {where}{state}",
                                     readers[lang].get(page).text, cut)
            if public_id:
                public = _game_words(app, started.game_id, play.Reader.spectator(public_id))
                problems += _left_on(lang, f"{kind} public page{state}",
                                     readers[lang].get(f"/games/{public_id}").text, public)
    assert not problems, "\n".join(problems)


def test_the_historys_times_are_in_the_readers_language():
    with catalogs.speaking("de"):
        assert when("2026-03-04T19:05:00+00:00") == "4. März 19:05 UTC"
    with catalogs.speaking("fr"):
        assert when("2026-11-24T09:05:00+00:00") == "24 nov. 09:05 UTC"
    assert when("2026-11-24T09:05:00+00:00") == "24 Nov 09:05 UTC"     # English as before
