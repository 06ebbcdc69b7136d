"""History and replay: times on every entry, the history paged 50 events at a time in SQL,
a replay that steps through the positions as one seat saw them (never what it could not see
then), and the log downloads (a seat's own view at any time; the whole log after the end)."""
from __future__ import annotations

import random
import re

import pytest

from service.linking import freshness
from service.linking.signer import Claims
from service.play import repository
from service.store import eventstore
from tests.web.helpers import form_client, sign_in, table_game
from tests.web.test_every_game import _leaks


@pytest.fixture
def client(app):
    """Forms posted with the session's CSRF token, as the pages post them."""
    return form_client(app)


def _play(client, app, kind="trees", seats=2, moves=None, seed=3):
    players = [f"p{n}@example.org" for n in range(seats)]
    gid = table_game(app, kind, players)
    svc = app.extensions["turnpost"]
    rng = random.Random(seed)
    made = 0
    while moves is None or made < moves:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine,
                                                                          pos.state, seat), move))
        assert client.post(f"/m/{token}", data={"then": "game"}).status_code == 302
        made += 1
    return gid, svc


def test_the_history_is_paged_fifty_events_at_a_time_newest_first(client, app):
    gid, svc = _play(client, app)
    with svc.db.transaction() as s:
        row = repository.game_row(s, gid)
        last = row.seq
        page = eventstore.newest(s, row, limit=50)
        assert [r.seq for r in page] == list(range(last - 49, last + 1))
        older = eventstore.newest(s, row, before=last - 49, limit=50)
        assert older[-1].seq == last - 50
    assert last > 60
    html = client.get(svc.urls.game_path(gid, 0)).text
    times = re.findall(r'<time datetime="([^"]+)">', html)
    assert times and all(t.startswith("2") for t in times)
    more = re.search(r'href="[^"]*\?before=(\d+)#history"', html)
    assert more and int(more.group(1)) == last - 49
    older_html = client.get(svc.urls.game_path(gid, 0) + f"?before={more.group(1)}").text
    assert older_html != html and "<time" in older_html


def test_replay_steps_through_what_the_seat_saw_and_never_more(client, app):
    gid, svc = _play(client, app, moves=12)
    base = svc.urls.game_path(gid, 0) + "/replay"
    url, seen, numbers = base, [], []
    while True:
        html = client.get(url).text
        at = int(re.search(r"Step (\d+) of (\d+)", html).group(1))
        numbers.append(at)
        seq = re.search(r'href="\?at=(\d+)"[^>]*>Next', html) or None
        here = int(re.search(r"\?at=(\d+)", url).group(1)) if "?at=" in url else None
        if here is not None:
            with svc.db.transaction() as s:
                then = repository.load(s, svc.states, gid, upto=here)
            assert not _leaks(then.engine, then.state, 0, html), f"step {at} leaks"
        seen.append(html)
        if seq is None:
            break
        url = f"{base}?at={seq.group(1)}"
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 3
    prev = re.search(r'href="\?at=(\d+)"[^>]*>← Previous', seen[-1])
    back = client.get(f"{base}?at={prev.group(1)}").text
    assert prev and f"Step {len(numbers) - 1} of" in back
    # the keys come from a script file the page loads (inline scripts are refused by the CSP)
    assert 'id="next"' in seen[0] and 'src="/static/replay.js"' in seen[0]
    assert "ArrowRight" in client.get("/static/replay.js").text


def test_a_seat_downloads_its_own_log_and_the_whole_log_only_after_the_end(client, app):
    gid, svc = _play(client, app, moves=4)
    mine = client.get(svc.urls.game_path(gid, 0) + "/log.json")
    assert mine.status_code == 200 and "attachment" in mine.headers["Content-Disposition"]
    data = mine.get_json()
    assert data["seat"] == 0 and data["events"]
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
        recorded = eventstore.load(s, pos.row)
    # the engine's redacted events, less the templates its sentences are translated from
    assert [e["event"] for e in data["events"]] == [
        {k: v for k, v in pos.engine.redact(r.event, 0).items() if k != "say"}
        for r in recorded if pos.engine.redact(r.event, 0)]
    assert all("say" not in e["event"] and e["event"]["text"] for e in data["events"])
    # no card hidden from seat 0 when the game started is in the start events it downloads
    with svc.db.transaction() as s:
        opening = [r.seq for r in recorded if r.source == "start"]
        start = repository.load(s, svc.states, gid, upto=max(opening))
    hidden = start.engine.secrets(start.state, 0)
    assert hidden
    shown = _strings([e["event"] for e in data["events"] if e["seq"] in opening])
    assert not hidden & shown
    whole_by_seat = svc.urls.game_path(gid, 0) + "/whole-log.json"
    refused = client.get(whole_by_seat)
    assert refused.status_code == 403 and "once the game is over" in refused.text
    _play_on(client, svc, gid)
    whole = client.get(whole_by_seat)
    assert whole.status_code == 200
    with svc.db.transaction() as s:
        assert [e["seq"] for e in whole.get_json()["events"]] == list(
            range(1, repository.game_row(s, gid).seq + 1))
    assert hidden <= _strings(whole.get_json()["events"])


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*map(_strings, obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*map(_strings, obj)) if obj else set()
    return set()


def _play_on(client, svc, gid):
    rng = random.Random(9)
    while True:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.engine.outcome(pos.state) is not None:
            return
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine,
                                                                          pos.state, seat), move))
        client.post(f"/m/{token}", data={"then": "game"})


def test_the_whole_log_is_for_the_players_and_a_public_pages_audience_only(client, app):
    """To a stranger a private game's log is not there, finished or not, answered exactly as a
    game that does not exist; its players read it by their seat link or signed in; a public
    game's page audience reads it by the page's unguessable id, never by the game's number."""
    gid, svc = _play(client, app, moves=2)
    with svc.db.transaction() as s:
        row = repository.game_row(s, gid)
        row.public = False
        public_id = row.public_id
    nothing = app.test_client().get("/games/999999/log.json")
    assert nothing.status_code == 404

    def stranger_sees_nothing():
        for path in (f"/games/{gid}/log.json", f"/games/{public_id}/log.json"):
            answer = app.test_client().get(path)
            assert (answer.status_code, answer.text) == (404, nothing.text), path

    stranger_sees_nothing()                          # unfinished: no 403 that confirms it
    _play_on(client, svc, gid)
    stranger_sees_nothing()                          # finished and private
    assert client.get(svc.urls.game_path(gid, 1) + "/whole-log.json").status_code == 200
    player = app.test_client()
    sign_in(player, app, "p1@example.org")
    assert player.get(f"/games/{gid}/log.json").get_json()["game"] == gid
    outsider = app.test_client()
    sign_in(outsider, app, "outsider@example.org")
    assert outsider.get(f"/games/{gid}/log.json").status_code == 404
    with svc.db.transaction() as s:
        repository.game_row(s, gid).public = True
    assert app.test_client().get(f"/games/{public_id}/log.json").get_json()["game"] == gid
    assert app.test_client().get(f"/games/{gid}/log.json").status_code == 404
    page = app.test_client().get(f"/games/{public_id}").text
    assert f'href="/games/{public_id}/log.json"' in page
