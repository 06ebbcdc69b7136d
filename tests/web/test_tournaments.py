"""A tournament of two people and two bots, played to its end by the people's links (the bots
in the worker: in process in tests); its page, its API read and the command line."""
from __future__ import annotations

import random

from sqlalchemy import select

from service.linking import freshness
from service.linking.signer import Claims
from service.play import community, repository
from service.store.models import GameRow, Seat
from tests.web.helpers import form_client, mails, sign_in

PEOPLE = ["ann@example.org", "bob@example.org"]


def my_turns(svc, tournament_id):
    """(game, seat, position) of each person's seat that is to act in the tournament."""
    with svc.db.transaction() as s:
        rows = s.execute(select(GameRow.id, Seat.seat).join(Seat, Seat.game_id == GameRow.id)
                         .where(GameRow.tournament_id == tournament_id,
                                GameRow.status == "active", Seat.bot.is_(None))).all()
        out = []
        for game_id, seat in rows:
            pos = repository.load(s, svc.states, game_id)
            if seat in pos.engine.to_act(pos.state):
                out.append((game_id, seat, pos))
    return out


def test_two_people_and_two_bots_play_a_tournament_to_its_end_by_links(app):
    client = form_client(app)
    svc = app.extensions["turnpost"]
    with app.app_context():
        made = app.test_cli_runner().invoke(args=[
            "tournaments", "create", "trees", "--format", "swiss", "--rounds", "3",
            "--clock", "3d", *PEOPLE, "bot:easy", "bot:normal"])
    assert made.exit_code == 0, made.output
    assert "tournament 1: round 1 started, 2 games" in made.output
    rng = random.Random(7)
    for step in range(3000):
        if community.show(svc, 1).status == "ended":
            break
        turns = my_turns(svc, 1)
        assert turns, f"step {step}: nobody is to act and the tournament did not move on"
        game_id, seat, pos = turns[0]
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(game_id, seat,
                                                     freshness.mark(pos.engine, pos.state, seat),
                                                     move))
        assert client.post(f"/m/{token}", data={"then": "game"}).status_code == 302
    view = community.show(svc, 1)
    assert view.status == "ended" and len(view.played) == 3
    assert all(t.over for r in view.played for t in r.tables)
    # each person was told of every round and of the end, and no bot was mailed
    subjects = [m["Subject"] for m in mails(app) if "tournament" in m["Subject"]]
    for person in PEOPLE:
        theirs = [m["Subject"] for m in mails(app) if m["To"] == person
                  and "tournament" in m["Subject"]]
        assert sum("begins" in s for s in theirs) == 3 and sum("ended" in s for s in theirs) == 1
    assert len(subjects) == 8
    page = client.get("/tournaments/1").text
    assert "Trees tournament #1" in page and "Buchholz" in page and "Ended." in page
    assert page.count(">Game ") == 6        # each game linked to its public page
    api = client.get("/api/v1/tournaments/1").json
    assert api["status"] == "ended" and len(api["roundsPlayed"]) == 3
    assert sum(line["points"] for line in api["standings"]) == 6
    with app.app_context():
        shown = app.test_cli_runner().invoke(args=["tournaments", "show", "1"])
    assert shown.exit_code == 0 and " 1. " in shown.output and "round 3:" in shown.output
    # each of ann's three games links the tournament from her /me
    sign_in(client, app, PEOPLE[0])
    assert client.get("/me").text.count('<a href="/tournaments/1">tournament</a>') == 3


def test_an_unknown_tournament_is_a_404_on_the_page_the_api_and_the_command_line(app):
    client = form_client(app)
    assert client.get("/tournaments/9").status_code == 404
    r = client.get("/api/v1/tournaments/9")
    assert r.status_code == 404 and r.content_type == "application/problem+json"
    with app.app_context():
        shown = app.test_cli_runner().invoke(args=["tournaments", "show", "9"])
    assert shown.exit_code != 0 and "no tournament 9" in shown.output


def test_a_round_robin_shows_only_the_tie_break_it_ranks_by(app):
    """Issue 49 item 18: a round robin ranks by Sonneborn-Berger alone (docs/playing.md), yet
    its page showed a Buchholz column; its letters, the command line and the API showed it too."""
    client = form_client(app)
    svc = app.extensions["turnpost"]
    robin = community.create(svc, "trees", "round-robin", None, [*PEOPLE, "cy@example.org"])
    swiss = community.create(svc, "trees", "swiss", 2, [*PEOPLE, "cy@example.org",
                                                        "dee@example.org"])
    page = client.get(f"/tournaments/{robin.tournament_id}").text
    standings = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert "Sonneborn-Berger" in standings and "Buchholz" not in standings
    heads = standings.split("</thead>")[0].count("<th>")
    rows = standings.split("<tbody>")[1].split("<tr>")[1:]
    assert len(rows) == 3 and all(row.count("<td>") == heads for row in rows)
    api = client.get(f"/api/v1/tournaments/{robin.tournament_id}").json
    assert api["tieBreaks"] == ["sonnebornBerger"]
    assert all(line["buchholz"] is None for line in api["standings"])
    with app.app_context():
        shown = app.test_cli_runner().invoke(args=["tournaments", "show",
                                                   str(robin.tournament_id)])
    assert "Sonneborn-Berger" in shown.output and "Buchholz" not in shown.output
    letters = [text for text in (m.get_body(("plain",)).get_content() for m in mails(app))
               if text.splitlines()[0].endswith(f"tournament #{robin.tournament_id}")]
    assert letters and all("Sonneborn-Berger" in t and "Buchholz" not in t for t in letters)
    # a Swiss still shows both, in the order it ranks by
    page = client.get(f"/tournaments/{swiss.tournament_id}").text
    assert page.index("<th>Buchholz</th>") < page.index("<th>Sonneborn-Berger</th>")
    assert client.get(f"/api/v1/tournaments/{swiss.tournament_id}").json["tieBreaks"] == \
        ["buchholz", "sonnebornBerger"]
