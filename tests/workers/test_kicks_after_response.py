"""With a broker, a request's kicks are published once its response has gone to the player
(service.web.kicks): the move is committed before the page is made, and the page does not
wait on Redis. Outside a request (the CLI, a worker's task) a kick goes at once."""
from __future__ import annotations

from service import play
from service.store.models import OutboxRow
from tests.web.helpers import latest_to, move_links, start_game

PLAYERS = ["anna@example.org", "ben@example.org"]


def _recording(app) -> list[tuple[str, tuple]]:
    kicked: list[tuple[str, tuple]] = []
    app.extensions["turnpost"].enqueue = lambda job, *args: kicked.append((job, args))
    return kicked


def test_a_moves_kick_is_published_after_its_response(app_factory):
    app = app_factory(TURNPOST_BROKER_URL="redis://127.0.0.1:9/0")   # never reached
    svc = app.extensions["turnpost"]
    kicked = _recording(app)
    started = start_game(app, "trees", PLAYERS)
    assert kicked == [("deliver", (started.outbox_ids,))]      # no request: at once
    play.deliver(svc, started.outbox_ids)                      # the turn emails, to read
    link = next(links[0][1] for addr in PLAYERS
                for links in [move_links(latest_to(app, addr))] if links)
    kicked.clear()
    response = app.test_client().post(link)
    assert response.status_code == 200 and "Done" in response.text
    assert kicked == []                     # the player has the page; Redis not asked yet
    response.close()                        # as the server does once it has sent it
    assert [job for job, _ in kicked] == ["deliver"]
    with svc.db.transaction() as s:         # the emails the kick names are committed rows
        assert [s.get(OutboxRow, i).status for i in kicked[0][1][0]] == ["pending"]


def test_a_broker_that_fails_after_the_response_is_noted_and_loses_nothing(app_factory,
                                                                           caplog):
    app = app_factory(TURNPOST_BROKER_URL="redis://127.0.0.1:9/0")
    svc = app.extensions["turnpost"]
    started = start_game(app, "trees", PLAYERS)
    play.deliver(svc, started.outbox_ids)
    link = next(links[0][1] for addr in PLAYERS
                for links in [move_links(latest_to(app, addr))] if links)

    def down(job, *args):
        raise ConnectionError("Redis is down")

    svc.enqueue = down
    with caplog.at_level("WARNING"):
        response = app.test_client().post(link)
        assert response.status_code == 200
        response.close()
    assert "broker" in svc.outages.down()
    assert any("broker is down" in r.getMessage() for r in caplog.records)
    assert sorted(play.sweep(svc).values()) == ["sent"]         # the sweep sends the email


def test_on_the_embedded_default_kicks_are_not_deferred(app):
    """Without a broker the in-process worker takes the kick at once (it waits for the
    request to end anyway), and the tests' inline mode sends before the response."""
    assert app.extensions["turnpost"].later is play.services.run_now
