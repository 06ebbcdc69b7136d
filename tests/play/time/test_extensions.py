"""Extension by request: `extend 2d` asks the others; each agrees with one click; the deadline
moves when all have; once per player per game by default (`extensions=N`); clear refusals."""
from __future__ import annotations

from datetime import timedelta

import pytest

from service import play
from service.play.time import extensions
from tests.play.time.helpers import outbox, seats, start, to_act

THREE = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Carla <carla@example.org>"]


def agree_links(svc, game_id):
    return [(r["seat"], a["url"]) for r in outbox(svc, game_id, "timeout")
            for a in r["payload"]["timeout"].get("actions", []) if "/s/" in a["url"]]


def agree(svc, url):
    claims = svc.urls.signer.loads("seat", url.rsplit("/s/", 1)[1])
    return extensions.agree(svc, claims.game, claims.seat, claims.holder,
                            int(claims.move["target"]))


def test_an_extension_agreed_by_all_moves_the_deadline(services):
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    deadline = seats(services, g.game_id)[asker]["deadline"]
    done = play.runner.run_line(services, g.game_id, asker, "extend 2d")
    assert "Asked the others for 2 days more" in done.text
    links = agree_links(services, g.game_id)
    assert sorted(s for s, _ in links) == sorted(set(range(3)) - {asker})
    first = agree(services, links[0][1])
    assert first.startswith("Thank you; the extension waits for")
    assert seats(services, g.game_id)[asker]["deadline"] == deadline      # not yet
    last = agree(services, links[1][1])
    assert last.startswith("Everyone agreed: the deadline is now")
    assert seats(services, g.game_id)[asker]["deadline"] == deadline + timedelta(days=2)
    # a second click changes nothing more; asking again is over the game's one
    assert "already" in agree(services, links[1][1])
    with pytest.raises(play.PlayError, match="allows 1 extension per player, and you have used 1"):
        play.runner.run_line(services, g.game_id, asker, "extend 1d")
    assert seats(services, g.game_id)[asker]["deadline"] == deadline + timedelta(days=2)


def test_a_bot_agrees_at_once(services):
    g = start(services, players=["Anna <anna@example.org>", "bot"], clock="2d")
    human = next(r["seat"] for r in seats(services, g.game_id) if "anna" in r["player"])
    if to_act(services, g.game_id) != [human]:
        pytest.skip("the bot moves first in this deal")
    deadline = seats(services, g.game_id)[human]["deadline"]
    done = play.runner.run_line(services, g.game_id, human, "extend 3")
    assert done.text.startswith("Everyone agreed")
    assert seats(services, g.game_id)[human]["deadline"] == deadline + timedelta(days=3)


@pytest.mark.parametrize("line, words", [
    ("extend 0d", "outside the range allowed; write `extend 2d`: from 1 to 14 days"),
    ("extend 90d", "outside the range allowed; write `extend 2d`: from 1 to 14 days"),
    ("extend soon", "is not a number of days"),
])
def test_a_bad_extension_gets_words_and_changes_nothing(services, line, words):
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    before = seats(services, g.game_id)
    with pytest.raises(play.PlayError, match=words.replace("`", ".")):
        play.runner.run_line(services, g.game_id, asker, line)
    assert seats(services, g.game_id) == before and agree_links(services, g.game_id) == []


def test_asked_twice_and_the_game_option(services):
    g = start(services, players=THREE, clock="2d", extensions=0)
    asker = to_act(services, g.game_id)[0]
    with pytest.raises(play.PlayError, match="allows 0 extensions per player"):
        play.runner.run_line(services, g.game_id, asker, "extend 2d")
    h = start(services, players=THREE, clock="2d", extensions=2)
    asker = to_act(services, h.game_id)[0]
    play.runner.run_line(services, h.game_id, asker, "extend 2d")
    with pytest.raises(play.PlayError, match="already asked for an extension; it waits"):
        play.runner.run_line(services, h.game_id, asker, "extend 2d")
    with pytest.raises(play.BadStart, match="extensions=many is not a number"):
        start(services, players=THREE, clock="2d", extensions="many")


def test_an_agreement_after_the_asker_moved_is_answered(services):
    from tests.play.time.helpers import move
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    play.runner.run_line(services, g.game_id, asker, "extend 2d")
    move(services, g.game_id, asker)
    with pytest.raises(play.PlayError, match="has moved since"):
        agree(services, agree_links(services, g.game_id)[0][1])


# -- answered in words (issue 49, item 13) ---------------------------------------------------

def test_agree_by_reply_to_the_request_moves_the_deadline(app):
    """The request's email answered by `agree`, as a reply (its Reply-To is the reader's seat):
    the word, not the engine's grammar ("Trees moves read ..."), and the deadline moves."""
    from tests.play.mail.test_replies import deliver, inbound_status, reply_to
    from tests.web.helpers import latest_to, text_of
    svc = app.extensions["turnpost"]
    people = ["anna@example.org", "ben@example.org"]
    g = start(svc, players=people, clock="2d")
    asker = to_act(svc, g.game_id)[0]
    deadline = seats(svc, g.game_id)[asker]["deadline"]
    play.runner.run_line(svc, g.game_id, asker, "extend 2d")
    other = people[1 - asker]
    request = latest_to(app, other)
    assert "reply `agree` to give it or `decline` to refuse" in text_of(request)
    row_id, _ = deliver(app, reply_to(request, "agree"))
    assert inbound_status(app, row_id)[0] == "answered"
    assert "Everyone agreed: the deadline is now" in text_of(latest_to(app, other))
    assert seats(svc, g.game_id)[asker]["deadline"] == deadline + timedelta(days=2)


def test_decline_ends_the_request_and_tells_the_asker(services):
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    deadline = seats(services, g.game_id)[asker]["deadline"]
    play.runner.run_line(services, g.game_id, asker, "extend 2d")
    first, second = sorted(set(range(3)) - {asker})
    assert play.runner.run_line(services, g.game_id, first, "agree").text.startswith(
        "Thank you; the extension waits for")
    done = play.runner.run_line(services, g.game_id, second, "decline")
    assert "You declined" in done.text and "their deadline stays" in done.text
    told = outbox(services, g.game_id, "timeout")[-1]
    assert told["seat"] == asker
    assert "declined your request for 2 more days; your deadline stays" in \
        told["payload"]["timeout"]["text"]
    assert seats(services, g.game_id)[asker]["deadline"] == deadline
    # the link agreed with afterwards changes nothing; the declined request counts as used
    with pytest.raises(play.PlayError, match="declined already"):
        agree(services, agree_links(services, g.game_id)[0][1])
    with pytest.raises(play.PlayError, match="you have used 1"):
        play.runner.run_line(services, g.game_id, asker, "extend 1d")
    assert seats(services, g.game_id)[asker]["deadline"] == deadline


@pytest.mark.parametrize("word", ["agree", "decline"])
def test_an_answer_with_no_request_waiting_is_refused_with_words(services, word):
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    with pytest.raises(play.PlayError, match=f"nothing to {word}"):
        play.runner.run_line(services, g.game_id, (asker + 1) % 3, word)
    play.runner.run_line(services, g.game_id, asker, "extend 2d")
    with pytest.raises(play.PlayError, match=f"nothing to {word}"):
        play.runner.run_line(services, g.game_id, asker, word)      # not one's own request


def test_the_asker_reads_your_deadline_moves(services):
    """Issue 49, item 20: never "the deadline of you move"."""
    from service.display.seatview import fill
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    play.runner.run_line(services, g.game_id, asker, "extend 2d")
    for seat in sorted(set(range(3)) - {asker}):
        play.runner.run_line(services, g.game_id, seat, "agree")
    told = {r["seat"]: r["payload"]["timeout"]["text"] for r in outbox(services, g.game_id,
                                                                       "timeout")
            if "Everyone agreed" in r["payload"]["timeout"]["text"]}
    names = ["Anna", "Ben", "Carla"]
    assert fill(told[asker], names, asker).startswith("Everyone agreed: your deadline moves to")
    other = (asker + 1) % 3
    assert fill(told[other], names, other).startswith(
        f"Everyone agreed: {names[asker]}'s deadline moves to")
