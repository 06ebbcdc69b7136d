"""Plans by reply: plan lines in a reply email are kept, and played when the lead arrives."""
from __future__ import annotations

import random

from sqlalchemy import select

from service import play
from service.games.suzerain.rules import playable
from service.play import Intent, repository
from service.store.models import EventRow
from tests.play.mail.test_replies import ADDRS, deliver, inbound_status, reply_to
from tests.web.helpers import game_link, latest_to, start_game


def suzerain_plan(app) -> tuple[int, int, str, str]:
    """A Suzerain game (seed 5): its id, the leader, the leader's first card, and the plan
    line its follower may write to answer that lead."""
    svc = app.extensions["turnpost"]
    svc.chance = random.Random(5)
    game = start_game(app, "suzerain", ADDRS).game_id
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game)
    leader = pos.state.leader
    card = pos.state.hands[leader][0]
    follow = playable(pos.state.hands[1 - leader], card)[0]
    line = (f"if they {pos.engine.describe({'type': 'lead', 'card': card})} then "
            f"{pos.engine.describe({'type': 'play', 'card': follow})}")
    return game, leader, card, line


def test_a_plan_written_in_a_reply_answers_the_lead(client, app):
    svc = app.extensions["turnpost"]
    game, leader, card, line = suzerain_plan(app)
    ours = latest_to(app, ADDRS[1 - leader])
    row_id, _ = deliver(app, reply_to(ours, line))
    assert inbound_status(app, row_id)[0] == "answered"     # words only: no move in it
    play.submit(svc, Intent(game, leader, moves=[{"type": "lead", "card": card}], source="web"))
    with svc.db.transaction() as s:
        planned = list(s.execute(select(EventRow.seat, EventRow.type)
                                 .where(EventRow.game_id == game, EventRow.source == "plan")))
    assert [tuple(p) for p in planned][0] == (1 - leader, "Followed")


def test_a_plan_written_by_reply_stands_on_the_writers_page_alone(client, app):
    _, leader, _, line = suzerain_plan(app)
    ours = latest_to(app, ADDRS[1 - leader])
    deliver(app, reply_to(ours, line))
    mine = client.get(game_link(latest_to(app, ADDRS[1 - leader]))).text
    assert "Your plans" in mine and line in mine
    theirs = client.get(game_link(latest_to(app, ADDRS[leader]))).text
    assert "Your plans" not in theirs and line not in theirs
