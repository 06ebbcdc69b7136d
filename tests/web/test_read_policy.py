"""The one read policy (service/play/readpolicy.py, docs/architecture.md "Who may see a game"),
checked on every route the app serves. Each route that names a game in its address is given
the number (or public id, or chat line) of a private game, and then one that names nothing.
A stranger and anyone signed out must get 404 for both, and the same answer word for word.
Every other route is listed below with the reason it cannot show a game. A new route that
names none of these is then a failure until someone classifies it.

The defects this guards against: `GET /api/v1/games/<id>/record` answered 200 to anyone for
every game, private ones included, and a stranger's token was told "no game number 1 of
yours" for a game that exists but "no game number 9" for one that does not."""
from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from sqlalchemy import select

from service import play
from service.play.players import personaltokens, seatchanges
from service.play.reads import gamefile
from service.store.models import ChatMessage, GameRow
from tests.web.helpers import csrf, lobby_game, mails, sign_in, start_game, text_of

ANNA, BEN, STRANGER = "anna@example.org", "ben@example.org", "sam@example.org"

#: the parts of an address that name a game
GAME_ARGUMENTS = ("game_id", "public_id", "message_id")
#: a part that comes with a game's number, filled with a value the route would take
COMPANIONS = {"seat": "1"}

#: routes that name no game: why none can show one
NO_GAME = {
    "static": "the stylesheet and scripts",
    "healthz": "whether the database is up",
    "metrics.metrics": "counters, no game in them",
    "games.lobby": "the lobby: the games one can make",
    "games.rules": "a game's rule text, not a game played",
    "games.create": "makes a game",
    "games.practice": "makes a game against bots",
    "cards.face": "a card's picture",
    "contests.open_games": "forming games with an open seat, offered to everyone "
                           "(readpolicy.sees_open_seat)",
    "contests.post_challenge": "posts a standing challenge",
    "contests.withdraw_challenge": "a challenge of the signed-in player's own",
    "contests.accept_challenge": "accepts a standing challenge, by challenge: starts a game",
    "contests.accept_ladder_challenge": "a ladder challenge to the signed-in defender, by "
                                        "challenge",
    "contests.withdraw_ladder_challenge": "a ladder challenge of the signed-in challenger's "
                                          "own, by challenge",
    "contests.ladders_index": "the ladders",
    "contests.ladder": "a ladder, by game kind",
    "contests.join_ladder": "joins a ladder, by game kind",
    "contests.leave_ladder": "leaves a ladder, by game kind",
    "contests.challenge_on_ladder": "challenges a player, by player",
    "contests.block": "blocks a player, by player",
    "community.boards": "the leaderboards",
    "follows.follow_tournament": "follows a tournament, public by design",
    "community.board": "a leaderboard, by game kind",
    "community.profile": "a player's profile, by handle (no game listed)",
    "community.hide": "hides the signed-in player's own profile",
    "accounts.me": "the signed-in player's own games",
    "accounts.preferences": "the signed-in player's own preferences",
    "accounts.calendar_preferences": "the signed-in player's own time",
    "accounts.sign_in_form": "signing in",
    "accounts.sign_in_request": "signing in",
    "accounts.sign_out": "signing out",
    "accounts.export": "the signed-in player's own data, every game as their seat sees it",
    "accounts.change_address": "asks for a change of the signed-in player's own address",
    "accounts.erase_request": "asks for the erasure of the signed-in player's own account",
    "tokens.my_tokens": "the signed-in player's own API tokens",
    "webhooks.add": "adds a webhook of the signed-in player's own",
    "webhooks.test": "tests a webhook of the signed-in player's own, by webhook",
    "webhooks.delete": "deletes a webhook of the signed-in player's own, by webhook",
    "tournaments.tournaments_index": "the tournaments",
    "tournaments.new_tournament": "the form that makes one",
    "tournaments.make": "makes a tournament",
    "tournaments.tournament_page": "a tournament, public by design: its games link their "
                                   "public pages only where those are on "
                                   "(readpolicy.public_page)",
    "tournaments.start": "a tournament its maker starts",
    "tournaments.cancel": "a tournament its maker calls off",
    "leagues.leagues_index": "the leagues",
    "leagues.league_page": "a league, public by design: its divisions' standings, and a link "
                           "to each division's tournament page",
    "leagues.leave": "the signed-in player leaves a league, by league",
    "inbound.mailgun": "a mail provider's webhook, behind its own secret",
    "inbound.sendgrid": "a mail provider's webhook, behind its own secret",
    "inbound.raw": "raw mail in, behind its own secret",
    "dev.outbox": "the developer's outbox, never served in production (safety.py)",
    "dev.message": "the developer's outbox, never served in production (safety.py)",
    "dev.reply": "the developer's outbox, never served in production (safety.py)",
    "api.spec": "the API's description",
    "api.my_games": "the token holder's own games",
    "api.player": "a player's profile, by handle",
    "api.leaderboard": "a leaderboard, by game kind",
    "api.challenges": "the standing challenges",
    "api.prefs": "the token holder's own preferences",
    "api.change_prefs": "sets the token holder's own preferences",
    "api.post_challenge": "posts a standing challenge",
    "api.withdraw_challenge": "a challenge of the token holder's own",
    "api.webhooks": "the token holder's own webhooks",
    "api.add_webhook": "adds a webhook of the token holder's own",
    "api.delete_webhook": "deletes a webhook of the token holder's own, by webhook",
    "api.make_tournament": "makes a tournament",
    "api.tournament": "a tournament, public by design; its games carry their public ids only "
                      "where those pages are on (readpolicy.public_page)",
    "api.start_tournament": "a tournament its maker starts",
    "api.cancel_tournament": "a tournament its maker calls off",
}

#: routes whose address carries a signed token: the token is the credential (made for one game
#: and seat, or one person), and what it shows is still the read policy's to say
#: (test_a_previous_holders_link_reads_nothing_of_the_seat)
TOKEN_LINKS = {
    **dict.fromkeys(
        ["games.game_page", "games.turn_form", "games.say", "games.undo", "games.replay",
         "games.seat_log", "games.whole_log_for_seat", "seats.confirm_resign", "seats.resign",
         "seats.vacation", "seats.replace", "accounts.rematch", "tokens.seat_tokens",
         "contests.report_from_seat", "contests.block_from_seat"],
        "a seat's game page link (/g/): Reader.at(game, seat, holder)"),
    "links.confirm": "a move link (/m/): Reader.at(game, seat, holder)",
    "links.act": "a move link (/m/): the move is checked against the seat's holder",
    "seats.confirm_seat_action": "a seat's clock action link (/s/)",
    "seats.seat_action": "a seat's clock action link (/s/)",
    "seats.confirm_invitation": "an invitation to take over a seat (/i/)",
    "seats.accept_invitation": "an invitation to take over a seat (/i/)",
    "accounts.invitation": "an invitation to a game (/invitations/)",
    "accounts.answer_invitation": "an invitation to a game (/invitations/)",
    "tournaments.invitation": "an invitation to a tournament",
    "tournaments.answer": "an invitation to a tournament",
    "leagues.join_page": "a league's join link: the league, public by design",
    "leagues.join": "a league's join link: joins the signed-in player",
    "accounts.sign_in_confirm": "a sign-in link",
    "accounts.address_page": "a change-of-address link (signed, one hour, single-use)",
    "accounts.confirm_address": "a change-of-address link (signed, one hour, single-use)",
    "accounts.erase_page": "an erasure link (signed, one hour, single-use)",
    "accounts.erase": "an erasure link (signed, one hour, single-use)",
    "accounts.sign_in": "a sign-in link",
    "players.confirm": "an unsubscribe link (/u/)",
    "players.unsubscribe": "an unsubscribe link (/u/)",
    "follows.confirm_unfollow": "a follow digest's unfollow link (/follows/): the follow",
    "follows.unfollow": "a follow digest's unfollow link (/follows/): the follow",
    "feeds.deadlines": "a feed token: the holder's own games",
    "feeds.moves": "a feed token: the holder's own games",
}

#: game routes that ask who you are before any game is looked up. Anyone signed out gets the
#: same answer for every number: the API asks for a token (401, RFC 6750), and a page sends
#: them to sign in (an expired link's "Sign in and go to the game" leads through
#: /me/games/<number>). What a stranger signed in is told is still 404.
CREDENTIAL_FIRST = {
    **dict.fromkeys(["api.game", "api.legal_moves", "api.make_move", "api.chat", "api.extend",
                     "api.plans", "api.try_moves"], 401),
    **dict.fromkeys(["accounts.my_game", "accounts.join", "accounts.refill",
                     "contests.report", "follows.follow_game"], 302),
}

#: what a POST sends: enough for each route to get as far as looking its game up
API_BODY = {"command": "help", "text": "hello", "days": "2d", "lines": ["next: harvest moons"]}
FORM = {"email": "zoe@example.org", "reason": "rude", "commands": "help"}


@pytest.fixture
def private(app):
    """A Trees game Anna made in the lobby with its public page off, Ben at the table, and a
    chat line of Anna's: (game number, public id, chat line id, Anna's signed-in client)."""
    anna, _ = lobby_game(app, ANNA, [BEN])        # "public" not ticked: the page is off
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as session:
        game = session.scalars(select(GameRow)).one()
        assert game.status == "active" and not game.public
        gid, public_id = game.id, game.public_id
    play.say(svc, gid, 0, "good luck, Ben")
    with svc.db.transaction() as session:
        line = session.scalars(select(ChatMessage.id).where(ChatMessage.game_id == gid)).one()
    return gid, public_id, line, anna


def _values(private) -> dict[str, list[tuple[str, str]]]:
    """For each game argument, pairs (the private game's value, a value naming nothing) of
    equal length, so that only what the answer says can differ."""
    gid, public_id, line, _ = private
    other_id = ("Z" if public_id[0] != "Z" else "Y") + public_id[1:]
    return {"game_id": [(str(gid), str(gid + 8))],
            "public_id": [(public_id, other_id), (str(gid), str(gid + 8))],
            "message_id": [(str(line), str(line + 8))]}


def _url(rule, values: dict[str, str]) -> str:
    url = rule.rule
    for name in rule.arguments:
        url = re.sub(rf"<(?:\w+:)?{name}>", values.get(name) or COMPANIONS[name], url)
    return url


def _ask(client, method: str, url: str, headers: dict, token: str):
    if url.startswith("/api/"):
        return client.open(url, method=method, headers=headers,
                           json=API_BODY if method != "GET" else None)
    return client.open(url, method=method, headers=headers,
                       data={**FORM, "csrf_token": token} if method != "GET" else None)


def _answer(response, url: str) -> tuple[int, str, str]:
    """Status, body and Location, with the address asked for written as "<url>": it is the
    one thing an answer may echo that differs between two numbers."""
    def plain(text: str) -> str:
        return text.replace(quote(url, safe=""), "<url>").replace(url, "<url>")
    return (response.status_code, plain(response.get_data(as_text=True)),
            plain(response.headers.get("Location", "")))


def _stranger(app) -> dict[str, str]:
    """The API token of Sam, who plays a game of his own on this server but not the game
    asked about."""
    start_game(app, "trees", [STRANGER, "tom@example.org"])
    token = personaltokens.create(app.extensions["turnpost"], STRANGER)[1]
    return {"Authorization": f"Bearer {token}"}


def _audiences(app):
    """Anyone signed out, and a stranger signed in (a browser session and an API token)."""
    out = app.test_client()
    headers = _stranger(app)
    stranger = app.test_client()
    sign_in(stranger, app, STRANGER)
    return {"signed out": (out, {}, csrf(out)),
            "stranger": (stranger, headers, csrf(stranger))}


def _game_rules(app):
    return [r for r in app.url_map.iter_rules() if set(r.arguments) & set(GAME_ARGUMENTS)]


def test_every_route_is_walked_or_listed_with_why(app):
    endpoints = {r.endpoint for r in app.url_map.iter_rules()}
    walked = {r.endpoint for r in _game_rules(app)}
    listed = NO_GAME.keys() | TOKEN_LINKS.keys()
    assert endpoints - walked - listed == set(), "classify these routes in this file"
    assert walked & listed == set(), "a route that names a game is walked, not listed"
    assert listed - endpoints == set(), "a listed route the app no longer has"
    assert CREDENTIAL_FIRST.keys() <= walked
    # the walk below reaches every kind of game argument
    assert {a for r in _game_rules(app) for a in r.arguments} - set(COMPANIONS) == \
        set(GAME_ARGUMENTS)


def test_a_private_game_answers_404_to_strangers_on_every_route_as_a_missing_one(app, private):
    values = _values(private)
    audiences = _audiences(app)
    walked = 0
    for rule in _game_rules(app):
        named = [a for a in rule.arguments if a in GAME_ARGUMENTS]
        assert len(named) == 1, rule.rule
        for there, nothing in values[named[0]]:
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                for who, (client, headers, token) in audiences.items():
                    wanted = CREDENTIAL_FIRST.get(rule.endpoint, 404) \
                        if who == "signed out" else 404
                    seen = []
                    for value in (there, nothing):
                        url = _url(rule, {named[0]: value})
                        seen.append(_answer(_ask(client, method, url, headers, token), url))
                    where = f"{method} {rule.rule} with {there!r}, {who}"
                    assert seen[0][0] == wanted, (where, seen[0][:2])
                    assert seen[0] == seen[1], where
                    if wanted == 302:
                        assert seen[0][2].startswith("/sign-in"), where
                    walked += 1
    assert walked >= 30


def test_the_walk_would_see_a_route_that_shows_the_game(app, private):
    """The walk's other side: the same game's own players do get its reads, so a 404 above
    is the policy's answer and not a broken route."""
    gid, public_id, _, anna = private
    svc = app.extensions["turnpost"]
    h = {"Authorization": f"Bearer {personaltokens.create(svc, ANNA)[1]}"}
    for url in (f"/api/v1/games/{gid}", f"/api/v1/games/{gid}/moves",
                f"/api/v1/games/{gid}/record"):
        r = anna.get(url, headers=h)
        assert r.status_code == 200 and r.json["gameId"] == gid, url
    assert anna.get(f"/api/v1/games/{gid}/record", headers=h).json["players"] == ["anna", "ben"]
    assert anna.get(f"/me/games/{gid}").headers["Location"].startswith("/g/")
    # the whole log waits for the end; she is told so, not told it does not exist
    assert anna.get(f"/games/{gid}/log.json").status_code == 403
    # the page is off: to its own players too, the public address shows nothing
    assert anna.get(f"/games/{public_id}").status_code == 404


def test_the_record_by_number_is_for_the_games_players_only(app):
    """The record's leak: it answered 200 to anyone signed out, for every game."""
    started = start_game(app, "trees", [ANNA, BEN])      # its public page is on
    client = app.test_client()
    gid = started.game_id
    # a number names nothing to anyone but the game's players, public page or not: numbers are
    # sequential, and a public page's address is listed nowhere but where its players put it
    assert client.get(f"/api/v1/games/{gid}/record").status_code == 404
    sam = _stranger(app)
    assert client.get(f"/api/v1/games/{gid}/record", headers=sam).status_code == 404
    # the public page's audience reads it by naming the page's id, as the page shows it
    shown = client.get(f"/api/v1/games/{gid}/record", query_string={"publicId":
                                                                     started.public_id})
    assert shown.status_code == 200 and shown.json["players"] == ["anna", "ben"]
    assert "hand" not in shown.json["view"]
    # another game's public id opens nothing
    other = start_game(app, "trees", ["cleo@example.org", "dan@example.org"])
    assert client.get(f"/api/v1/games/{gid}/record",
                      query_string={"publicId": other.public_id}).status_code == 404
    # a token that is not one is refused as such, not read as nobody
    bad = client.get(f"/api/v1/games/{gid}/record", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401


def test_the_record_of_a_private_game_is_404_even_with_its_public_id(app, private):
    gid, public_id, _, _ = private
    client = app.test_client()
    for query in ({}, {"publicId": public_id}):
        r = client.get(f"/api/v1/games/{gid}/record", query_string=query)
        assert r.status_code == 404 and "anna" not in r.get_data(as_text=True)


def test_a_strangers_token_cannot_tell_a_private_game_from_none(app, private):
    """The existence oracle: "no game number 1 of yours" against "no game number 9"."""
    gid = private[0]
    sam = _stranger(app)
    client = app.test_client()
    there = client.get(f"/api/v1/games/{gid}", headers=sam)
    nothing = client.get(f"/api/v1/games/{gid + 8}", headers=sam)
    assert there.status_code == nothing.status_code == 404
    assert there.json["detail"] == nothing.json["detail"]
    assert there.json["title"] == nothing.json["title"]
    # nor by asking for one of the game's seats
    seat = client.get(f"/api/v1/games/{gid}", headers=sam, query_string={"seat": "1"})
    assert seat.json["detail"] == nothing.json["detail"]


def _three_with_a_handover(app):
    """An Aristocracy game of three in which Ben resigned and Dora took his seat over: (game
    number, the view link Ben's emails carried)."""
    svc = app.extensions["turnpost"]
    gid = start_game(app, "aristocracy", [ANNA, BEN, "carla@example.org"]).game_id
    old_link = svc.urls.game_path(gid, 1, 0)
    seatchanges.resign(svc, gid, 1)
    seatchanges.invite_replacement(svc, gid, 0, 1, "dora@example.org")
    invite = next(m for m in mails(app) if m["To"] == "dora@example.org")
    token = re.search(r"/i/([A-Za-z0-9_.\-]+)", text_of(invite)).group(1)
    seatchanges.accept_replacement(svc, token)
    return gid, old_link


def test_a_previous_holders_link_reads_nothing_of_the_seat(app):
    """Ben's old link showed Dora's hand on every read but the game page: the replay and the
    seat's log download asked nothing of its holder, and a move link's confirm page neither."""
    svc = app.extensions["turnpost"]
    gid, old_link = _three_with_a_handover(app)
    client = app.test_client()
    for path in (old_link, f"{old_link}/replay", f"{old_link}/log.json"):
        r = client.get(path)
        assert r.status_code == 403 and "previous player" in r.get_data(as_text=True), path
    move = svc.urls.move_path(gid, 1, None, {"type": "pass"}, holder=0)
    assert client.get(move).status_code == 403
    # Dora's own link reads the seat
    assert client.get(svc.urls.game_path(gid, 1, 1) + "/replay").status_code == 200


def test_a_games_file_is_the_operators_alone(app, private):
    """The export holds every hidden card and every address: no player's reader opens it,
    whatever way in a later adapter gives it; the operator's command line does."""
    gid = private[0]
    svc = app.extensions["turnpost"]
    for reader in (play.Reader(), play.Reader.at(gid, 0), play.Reader.player(1)):
        with pytest.raises(play.NoSuchGame):
            gamefile.export(svc, gid, reader)
    assert gamefile.export(svc, gid, play.OPERATOR)["exported_from"] == gid
