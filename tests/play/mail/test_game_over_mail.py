"""The end of a game by resignation, as the players read it: one game-over email each (a notice
queued before the end is not sent after it as another), "bob resigned." with one full stop and
the name as bob wrote it, and nobody "to play" in the email or on the page once it is over."""
from __future__ import annotations

import random
from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from service import play
from service.games.contract import replay
from service.mailwire.outbound.templating import game_partial
from service.play import repository
from service.play.players import seatchanges
from service.play.time.sweep import timeouts
from service.store.models import OutboxRow, Player
from tests.play.time.helpers import outbox, start, to_act

PLAYERS = ["anna <anna@example.org>", "bob <bob@example.org>"]


def _player_id(svc, email):
    with svc.db.transaction() as s:
        return s.query(Player).filter_by(email=email).one().id


def _mails(svc):
    return [message_from_bytes(raw, policy=policy.default)
            for _, raw in svc.transport.messages()]


def _flat(msg) -> str:
    text = msg.get_body(("plain",)).get_content()
    return " ".join(text.split())


def _delivered_after_the_end(svc, game_id, seen):
    """Send everything queued for the game, as the relay would; the emails it sent."""
    play.deliver(svc, [r["id"] for r in outbox(svc, game_id)])
    return _mails(svc)[seen:]


def _resign_with_a_notice_waiting(svc, kind="trees"):
    game_id = start(svc, kind=kind, players=PLAYERS, clock="3d").game_id
    play.deliver(svc, [r["id"] for r in outbox(svc, game_id)])
    seen = len(_mails(svc))
    bob = _player_id(svc, "bob@example.org")
    seatchanges.take_vacation(svc, bob, "vacation 3")
    svc.clock.advance(hours=2)
    # bob is back: anna's notice is queued; bob resigns before the relay sends it (here the
    # relay runs only when told, as a busy or retrying one would)
    seatchanges.take_vacation(svc, bob, "back")
    seatchanges.resign(svc, game_id, 1)
    return game_id, seen


def test_each_player_gets_one_game_over_email_and_no_late_notice(services):
    game_id, seen = _resign_with_a_notice_waiting(services)
    sent = _delivered_after_the_end(services, game_id, seen)
    to_anna = [m for m in sent if m["To"] == "anna@example.org"]
    to_bob = [m for m in sent if m["To"] == "bob@example.org"]
    assert [m["Subject"].split(" · ")[0] for m in to_anna] == ["Game over"]
    assert [m["Subject"].split(" · ")[0] for m in to_bob] == ["Game over"]
    assert not any("is back" in _flat(m) for m in sent)
    assert {r["kind"] for r in outbox(services, game_id) if r["seat"] == 0} >= {"timeout", "turn"}


def test_the_game_over_email_says_who_resigned_once_and_nobody_to_play(services):
    game_id, seen = _resign_with_a_notice_waiting(services)
    sent = _delivered_after_the_end(services, game_id, seen)
    anna = next(_flat(m) for m in sent if m["To"] == "anna@example.org")
    bob = next(_flat(m) for m in sent if m["To"] == "bob@example.org")
    assert "bob resigned." in anna and "You won. bob resigned." in anna
    assert "You resigned." in bob and "anna won. You resigned." in bob
    for text in (anna, bob):
        assert "resigned.." not in text and "Bob" not in text
        assert "to play" not in text and "YOUR TURN" not in text
        assert "Your move by" not in text


def test_the_page_of_a_resigned_game_says_nobody_is_to_play(services):
    for kind in ("trees", "magnate", "suzerain"):
        services.chance = random.Random(1)
        game_id = start(services, kind=kind, players=PLAYERS, clock="3d").game_id
        seatchanges.resign(services, game_id, 1)
        for seat in (0, 1):
            page = play.read_game(services, game_id, play.Reader.at(game_id, seat)).page
            env = services.templates
            for ext in ("txt", "html"):
                text = env.get_template(game_partial(env, kind, ext)).render(
                    page=page, view=page.view, names=page.names, me=page.me)
                flat = " ".join(text.split())
                assert "to play" not in flat and "Waiting for" not in flat, (kind, ext, flat)
            assert page.whose_move == "Game over."


def _statuses(svc, game_id, kind):
    with svc.db.transaction() as s:
        return [r.status for r in s.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game_id, OutboxRow.kind == kind).order_by(OutboxRow.id))]


def _bob_away_and_back(svc):
    """A notice to anna (bob is back) left unsent, as a busy relay leaves it."""
    bob = _player_id(svc, "bob@example.org")
    seatchanges.take_vacation(svc, bob, "vacation 3")
    svc.clock.advance(hours=2)
    seatchanges.take_vacation(svc, bob, "back")


@pytest.mark.parametrize("bulk", [True, False])
def test_a_game_the_clock_ends_drops_the_notices_still_waiting(services, bulk):
    """Every way a game ends drops its unsent notices (notify.supersede): here a forfeit of a
    two-player game by the clock, on the sweep's batch and on its per-game path alike."""
    game_id = start(services, players=PLAYERS, clock="1d", on_timeout="forfeit").game_id
    play.deliver(services, [r["id"] for r in outbox(services, game_id)])
    _bob_away_and_back(services)
    assert "pending" in _statuses(services, game_id, "timeout")
    assert to_act(services, game_id)
    services.clock.advance(days=1, hours=1)
    report = timeouts.run(services, bulk=bulk)
    assert report.outcomes.get("ended") == 1
    assert "pending" not in _statuses(services, game_id, "timeout")


def test_a_game_a_move_ends_drops_the_notices_still_waiting(services):
    services.chance = random.Random(5)
    game_id = start(services, players=PLAYERS, clock="3d").game_id
    while True:        # to the last move of the game, played by the easy bot
        with services.db.transaction() as s:
            pos = repository.load(s, services.states, game_id)
        (seat,) = pos.engine.to_act(pos.state)
        move = pos.engine.bots["easy"](pos.state, seat, random.Random(seat))
        after = replay(pos.engine, pos.engine.decide(pos.state, seat, move,
                                                     random.Random(0)), pos.state)
        if pos.engine.outcome(after) is not None:
            break
        play.submit(services, play.Intent(game_id, seat, moves=[move], source="web"))
    play.deliver(services, [r["id"] for r in outbox(services, game_id)])
    _bob_away_and_back(services)
    assert "pending" in _statuses(services, game_id, "timeout")
    services.chance = random.Random(0)
    assert play.submit(services, play.Intent(game_id, seat, moves=[move], source="web")).ended
    assert "pending" not in _statuses(services, game_id, "timeout")
