"""A move made through the JSON API wakes the bots and the forced moves as every other way in
does (issue 48: an API move kicked only the mail, and the bots answered after the sweep's
stalled-bot pass, two minutes later). The work a commit calls for is declared in its unit of
work and run by one seam (service/play/aftercommit.py), whatever the way in."""
from __future__ import annotations

from sqlalchemy import select

from service import play
from service.play import community
from service.play.players import personaltokens, start
from service.store.models import EventRow, GameRow
from tests.web.helpers import start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


def auth(svc, addr):
    with svc.db.transaction() as s:
        start.find_player(s, addr, addr.split("@")[0].title(), svc.clock.now())
    return {"Authorization": f"Bearer {personaltokens.create(svc, addr, 'test')[1]}"}


def no_sweep(monkeypatch):
    """The periodic passes do nothing here (the tests' inline background runs the outbox
    sweep after each email it sends, and the sweep would wake a stalled bot or tournament):
    whatever happens is set off by the commits themselves."""
    monkeypatch.setattr(play, "sweep", lambda svc: {})
    monkeypatch.setattr(play, "timers", lambda svc, shards=None: None)


def test_a_move_through_the_api_is_answered_by_the_bot_at_once(app, client, monkeypatch):
    no_sweep(monkeypatch)
    svc = app.extensions["turnpost"]
    anna = auth(svc, ANNA)
    for players in ([ANNA, "bot"], ["bot", ANNA]):        # the bot opening, too, at the start
        gid = start_game(app, "trees", players).game_id
        assert client.get(f"/api/v1/games/{gid}", headers=anna).json["isMyTurn"], players
    moves = client.get(f"/api/v1/games/{gid}/moves", headers=anna).json
    r = client.post(f"/api/v1/games/{gid}/moves", headers=anna,
                    json={"command": moves["commands"][0], "seq": moves["seq"]})
    assert r.status_code == 200, r.json
    with svc.db.transaction() as s:
        sources = [e.source for e in s.scalars(select(EventRow).where(
            EventRow.game_id == gid, EventRow.seq > r.json["seq"]))]
    assert "bot" in sources                      # answered in the same breath, no sweep
    assert client.get(f"/api/v1/games/{gid}", headers=anna).json["isMyTurn"]


def _play_my_turns(client, headers) -> int:
    """Every game where it is this player's turn: its first listed move. How many made."""
    made = 0
    for line in client.get("/api/v1/games?status=active", headers=headers).json["nowPlaying"]:
        if not line["isMyTurn"]:
            continue
        moves = client.get(f"/api/v1/games/{line['gameId']}/moves", headers=headers).json
        if not moves["isMyTurn"] or not moves["commands"]:
            continue
        r = client.post(f"/api/v1/games/{line['gameId']}/moves", headers=headers,
                        json={"command": moves["commands"][0], "seq": moves["seq"]})
        assert r.status_code == 200, r.json
        made += 1
    return made


def test_a_swiss_of_two_people_and_two_bots_played_through_the_api_ends_with_no_sweep(
        app, client, monkeypatch):
    """Issue 48's measure: the rounds follow each other, and the bots answer, only by what
    the API's moves set off (before, 2 of the 6 games ended in four minutes)."""
    no_sweep(monkeypatch)
    svc = app.extensions["turnpost"]
    people = {ANNA: auth(svc, ANNA), BEN: auth(svc, BEN)}
    made = community.create(svc, "trees", "swiss", 3, [ANNA, BEN, "bot:easy", "bot:normal"])
    for _ in range(2000):
        if not sum(_play_my_turns(client, headers) for headers in people.values()):
            break
    view = community.show(svc, made.tournament_id)
    assert view.status == "ended" and view.round == 3
    assert [len(r.tables) for r in view.played] == [2, 2, 2]
    assert all(table.over for r in view.played for table in r.tables)
    with svc.db.transaction() as s:
        games = s.scalars(select(GameRow).where(GameRow.tournament_id == made.tournament_id))
        assert sorted(g.status for g in games) == ["ended"] * 6
