"""A player's data in one JSON document (issue 52): `flask players export ADDRESS` and, signed in,
`GET /me/export`. It names every game of the player by "gameId", holds the rows of the map of a
player's data that name them, and shows each game only as their seat may see it: no card
another seat hid from them, in any of the four games, in the middle of a game or at its end."""
from __future__ import annotations

import json

import pytest

from service import play
from service.games import registry
from service.play.players import accounts, blocks, personaltokens
from service.play.reads import mydata
from service.store import eventstore
from service.store.models import Player
from tests.games.leaks import Vocabulary, leaks_in, rules_reveal
from tests.games.test_invariants import ids_in
from tests.play.players.helpers import play_moves, player_id, position
from tests.web.helpers import sign_in, start_game

ANNA, BEN, CARL = "anna@example.org", "ben@example.org", "carl@example.org"


def test_flask_players_export_names_every_game_by_game_id(app):
    svc = app.extensions["turnpost"]
    first = start_game(app, "trees", [ANNA, BEN]).game_id
    second = start_game(app, "suzerain", [CARL, ANNA]).game_id
    start_game(app, "trees", [BEN, CARL])                    # not Anna's
    play_moves(svc, first, None)                             # finished and rated
    play.say(svc, second, 1, "good luck")
    anna = player_id(svc, ANNA)
    blocks.block(svc, anna, player_id(svc, CARL))
    token_id, token = personaltokens.create(svc, ANNA, "my script")
    result = app.test_cli_runner().invoke(args=["players", "export", ANNA])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert [g["gameId"] for g in doc["games"]] == [first, second]
    assert doc["profile"]["email"] == ANNA and doc["profile"]["id"] == anna
    finished, playing = doc["games"]
    assert finished["ended"] and finished["result"]["winners"] and finished["log"]
    assert finished["rules_version"] >= 1 and finished["options"] is not None
    assert playing["seat"] == 1 and playing["chat"][0]["text"] == "good luck"
    records = doc["records"]
    assert [r["kind"] for r in records["ratings"]] == ["trees"]
    assert [r["game_id"] for r in records["rating_changes"]] == [first]
    assert [r["blocked_id"] for r in records["blocks"]] == [player_id(svc, CARL)]
    assert [(r["id"], r["label"]) for r in records["api_tokens"]] == [(token_id, "my script")]
    assert token not in result.output and "token_hash" not in records["api_tokens"][0]


def test_an_unknown_address_is_refused_by_name(app):
    result = app.test_cli_runner().invoke(args=["players", "export", "nobody@example.org"])
    assert result.exit_code != 0 and "No player has the address" in result.output


def test_me_export_is_the_signed_in_players_download(app):
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    client = app.test_client()
    assert client.get("/me/export").status_code == 302                 # signed in only
    sign_in(client, app, ANNA)
    r = client.get("/me/export")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Disposition"].startswith("attachment; filename=\"turnpost-")
    assert r.headers["Cache-Control"] == "no-store"
    doc = r.get_json()
    assert [g["gameId"] for g in doc["games"]] == [game]
    assert doc["profile"]["email"] == ANNA
    assert "Download everything" in client.get("/me").text


# -- nothing another seat hid ------------------------------------------------------------------

#: the four games as test_every_game plays them (Aristocracy shortened by its round cap)
CASES = [("trees", 3, {}), ("suzerain", 2, {}), ("aristocracy", 3, {"round_cap": "2"}),
         ("magnate-roller", 2, {})]


def hidden_by_event(svc, game_id: int, seat: int) -> tuple[dict[int, set[str]], set[str], set[str]]:
    """What the seat may not read in each event of the log, by seq: the cards secret to it
    both before and after the event (`secrets`, as tests/games/leaks.py reads a history),
    less what the rules show it in passing (leaks.rules_reveal); the cards secret to it now;
    and every card of the game."""
    pos = position(svc, game_id)
    engine = pos.engine
    with svc.db.transaction() as session:
        log = [(r.seq, r.event) for r in eventstore.load(session, pos.row)]
    state, hidden = None, {}
    for seq, event in log:
        before = engine.secrets(state, seat) if state is not None else None
        state = engine.evolve(state, event)
        after = engine.secrets(state, seat)
        hidden[seq] = (after if before is None else before & after) \
            - rules_reveal(engine.id, event, seat)
    cards = {c for zone in engine.zones(state).values() for c in zone}
    return hidden, engine.secrets(state, seat), cards


def hidden_in(game: dict, hidden: dict[int, set[str]], now: set[str], cards: set[str]) -> list:
    """Every mention of a card the seat may not know in one game of an export: in its view,
    by id, against what is secret now (as test_invariants.check_views reads a view: its
    sentences are help, "write cards as 7♥"); in each event of its log, against what that
    event kept secret, by id anywhere and by name or label (leaks.leaks_in, which counts
    copies)."""
    vocab = Vocabulary(cards)
    found = [("id", c) for c in sorted(ids_in(game["view"]) & now)]
    for event in game["log"]:
        secret = hidden[event["seq"]]
        found += [("id", c) for c in sorted(ids_in(event["event"]) & secret)]
        found += leaks_in(event["event"], secret, vocab)[0]
    return found


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind, seats, options", CASES, ids=[c[0] for c in CASES])
def test_an_export_holds_nothing_the_others_hid(services, kind, seats, options):
    """Played with seeded choices, read after a few moves and again at the end: the export of
    the first seat's player names no card its seat may not know. The same check on the
    game's whole log (every event as recorded) finds hidden cards, so it compares something."""
    svc = services
    addrs = [f"p{n}@example.org" for n in range(seats)]
    entry = next(e for e in registry.lobby() if e[0] == kind)
    game = play.start_game(svc, entry[2].id, addrs, {**options, **entry[3]}).game_id
    me = player_id(svc, addrs[0])
    for moves in (4, None):
        play_moves(svc, game, moves, seed=11)
        (mine,) = mydata.export(svc, me)["games"]
        hidden, now, cards = hidden_by_event(svc, game, 0)
        assert hidden_in(mine, hidden, now, cards) == []
        assert hidden_in(_whole(svc, game), hidden, now, cards), "the check compares nothing"
    assert mine["ended"] and mine["result"] is not None


def _whole(svc, game_id: int) -> dict:
    """The game as the export would show it if it showed everything."""
    pos = position(svc, game_id)
    with svc.db.transaction() as session:
        log = [{"seq": r.seq, "event": r.event.to_json()}
               for r in eventstore.load(session, pos.row)]
    return {"view": pos.engine.view(pos.state, None), "log": log}


def test_the_profile_is_every_column_of_the_players_row(services):
    """A preference added to the players table later is in the export with no change here."""
    svc = services
    play.start_game(svc, "trees", [ANNA, "bot"], {})
    me = player_id(svc, ANNA)
    accounts.save_preferences(svc, me, name="Anna K", zone="Europe/Paris", mail_mode="turn",
                              digest_hour="")
    profile = mydata.export(svc, me)["profile"]
    assert set(profile) == {c.name for c in Player.__table__.columns}
    assert profile["name"] == "Anna K" and profile["zone"] == "Europe/Paris"
