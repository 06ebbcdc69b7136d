"""Webhooks (issue 51), end to end against a real endpoint on 127.0.0.1 (allowed by
TURNPOST_WEBHOOK_ALLOW_PRIVATE): a hook made by `flask players webhook` is POSTed when it
becomes its player's turn, signed over the raw body; the same address is refused without the
setting, when made and when sent; Discord's and Slack's shapes; "webhook only"; a redirect is
not followed; a hook failing for three days is switched off and its owner emailed."""
from __future__ import annotations

import json
import re
from datetime import timedelta
from email import message_from_bytes
from email.policy import default

import pytest
from sqlalchemy import select

from service import play
from service.hooks import bodies
from service.mailwire.outbound.transports import RelayUnreachable
from service.play import webhooks
from service.play.players import hooks
from service.store.models import OutboxRow, Webhook
from service.store.statuses import OutboxStatus
from tests.hooks.receiver import Receiver
from tests.play.players.helpers import play_moves, player_id, position
from tests.web.helpers import mails, start_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"
SECRET = re.compile(r"^secret: ([0-9a-f]{64})$", re.M)


@pytest.fixture
def app(app_factory):
    return app_factory(TURNPOST_WEBHOOK_ALLOW_PRIVATE="1")


def cli(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


def first_mover(svc, game_id: int) -> int:
    return min(position(svc, game_id).engine.to_act(position(svc, game_id).state))


def test_a_hook_made_by_the_cli_is_posted_signed_when_it_becomes_their_turn(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN], mail_mode="turn").game_id
    mover = first_mover(svc, game)
    waiting = (ANNA, BEN)[1 - mover]
    with Receiver() as endpoint:
        made = cli(app, "players", "webhook", waiting, endpoint.url)
        assert made.exit_code == 0, made.output
        secret = SECRET.search(made.output).group(1)
        emails_before = len([m for m in mails(app) if m["To"] == waiting])
        play_moves(svc, game, 1, seats={mover})
        assert len(endpoint.got) == 1
    delivery = endpoint.got[0]
    assert endpoint.verifies(secret, delivery)
    assert not endpoint.verifies("another secret", delivery)
    doc = json.loads(delivery.raw)
    assert set(doc) == {"event", "gameId", "title", "url"}
    assert doc["event"] == "turn" and doc["gameId"] == game
    assert doc["title"] == f"Trees game {game}"
    assert doc["url"].startswith("http://turnpost.test/g/")
    assert delivery.headers["X-Turnpost-Delivery"].startswith("tp.")
    assert delivery.headers["Content-Type"] == "application/json"
    # the turn email still goes: the hook is not "webhook only"
    assert len([m for m in mails(app) if m["To"] == waiting]) == emails_before + 1


def test_the_seats_link_opens_the_seats_page(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, email=(ANNA, BEN)[1 - mover])
        play_moves(svc, game, 1, seats={mover})
    url = json.loads(endpoint.got[0].raw)["url"]
    page = app.test_client().get(url.removeprefix("http://turnpost.test"))
    assert page.status_code == 200


def test_a_loopback_address_is_refused_without_the_setting(app_factory):
    app = app_factory()
    start_game(app, "trees", [ANNA, BEN])
    for url in ("http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]/hook",
                "http://10.1.2.3/hook", "http://169.254.169.254/latest"):
        refused = cli(app, "players", "webhook", BEN, url)
        assert refused.exit_code != 0
        assert "public addresses only" in refused.output
    assert cli(app, "players", "webhook", BEN, "ftp://example.org/x").exit_code != 0
    with app.extensions["turnpost"].db.transaction() as session:
        assert session.scalars(select(Webhook)).all() == []


def test_a_private_address_is_refused_again_when_sent(app):
    """Made while allowed, sent after the setting went off: refused at send time, nothing
    posted, the delivery waits for its retry with the reason."""
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, email=(ANNA, BEN)[1 - mover])
        svc.settings.WEBHOOK_ALLOW_PRIVATE = False
        play_moves(svc, game, 1, seats={mover})
        assert endpoint.got == []
    with svc.db.transaction() as session:
        row = session.scalars(select(OutboxRow).where(OutboxRow.kind == "webhook")).one()
        assert row.status == OutboxStatus.PENDING and row.attempts == 1
        assert "private address" in row.last_error


def test_discord_and_slack_get_their_message_shapes():
    discord = json.loads(bodies.body("discord", "turn", 12, "Trees game 12", "https://t/g/x"))
    assert discord["content"] == "Your turn: Trees game 12 — https://t/g/x"
    assert discord["allowed_mentions"] == {"parse": []}
    slack = json.loads(bodies.body("slack", "game_over", 12, "A <b> & c", "https://t/g/x"))
    assert slack == {"text": "Game over: <https://t/g/x|A &lt;b&gt; &amp; c>"}
    plain = json.loads(bodies.body("json", "turn", 12, "Trees game 12", "https://t/g/x"))
    assert plain == {"event": "turn", "gameId": 12, "title": "Trees game 12",
                     "url": "https://t/g/x"}


@pytest.mark.parametrize("kind", ["discord", "slack"])
def test_a_chat_hook_is_posted_its_shape_with_the_link(app, kind):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint:
        made = hooks.register(svc, endpoint.url, kind=kind, email=(ANNA, BEN)[1 - mover])
        play_moves(svc, game, 1, seats={mover})
    delivery = endpoint.got[0]
    assert endpoint.verifies(made.secret, delivery)
    said = json.loads(delivery.raw)["content" if kind == "discord" else "text"]
    assert f"Trees game {game}" in said and "http://turnpost.test/g/" in said


def test_webhook_only_replaces_the_turn_email_but_not_the_games_end(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN], mail_mode="turn").game_id
    with Receiver() as endpoint:
        for addr in (ANNA, BEN):
            hooks.register(svc, endpoint.url, events="turn,game_over", instead_of_email=True,
                           email=addr)
        before = len(mails(app))
        play_moves(svc, game, None)         # to the end
        events = [json.loads(d.raw)["event"] for d in endpoint.got]
    assert events.count("game_over") == 2 and "turn" in events
    # no "your turn" email all game: only the two game-over emails
    assert sorted(m["To"] for m in mails(app)[before:]) == [ANNA, BEN]


def test_a_redirect_is_not_followed(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint, Receiver() as elsewhere:
        endpoint.status, endpoint.location = 302, elsewhere.url
        hooks.register(svc, endpoint.url, email=(ANNA, BEN)[1 - mover])
        play_moves(svc, game, 1, seats={mover})
        assert len(endpoint.got) == 1 and elsewhere.got == []
    with svc.db.transaction() as session:
        row = session.scalars(select(OutboxRow).where(OutboxRow.kind == "webhook")).one()
        assert "redirects are not followed" in row.last_error


def test_a_hook_failing_for_three_days_is_switched_off_and_its_owner_emailed(services):
    svc = services
    svc.settings.WEBHOOK_ALLOW_PRIVATE = True
    play.start_game(svc, "trees", [ANNA, BEN], {})
    ben = player_id(svc, BEN)
    with Receiver() as endpoint:
        endpoint.status = 500
        hook = hooks.register(svc, endpoint.url, player_id=ben).hook
        first = hooks.test(svc, ben, hook.id)
        assert play.deliver(svc, [first]) == {first: "retry"}
        svc.clock.advance(timedelta(days=2))
        second = hooks.test(svc, ben, hook.id)
        assert play.deliver(svc, [second]) == {second: "retry"}
        assert hooks.listed(svc, ben)[0].active
        svc.clock.advance(timedelta(days=1, minutes=1))
        third = hooks.test(svc, ben, hook.id)
        assert play.deliver(svc, [third]) == {third: "parked"}
        assert len(endpoint.got) == 3
    now = hooks.listed(svc, ben)[0]
    assert not now.active and now.switched_off_at is not None
    assert "HTTP 500" in now.last_error
    with svc.db.transaction() as session:
        told = session.scalars(select(OutboxRow).where(OutboxRow.kind == "webhook_off")).one()
        told_id, waiting = told.id, session.get(OutboxRow, first)
        assert told.to_addr == BEN
        waiting_id = waiting.id
    assert play.deliver(svc, [told_id]) == {told_id: "sent"}
    # the first delivery's retry finds its hook off: dropped, not posted
    with svc.db.transaction() as session:
        session.get(OutboxRow, waiting_id).next_try = svc.clock.now()
    assert play.deliver(svc, [waiting_id]) == {waiting_id: "skipped"}
    letter = message_from_bytes(svc.transport.messages()[-1][1], policy=default)
    assert letter["Subject"] == "Your Turnpost webhook is switched off"
    # the address's host, not its path (a chat webhook's path is its credential)
    assert "http://127.0.0.1:" in text_of(letter) and "/hook" not in text_of(letter)
    with pytest.raises(hooks.BadWebhook):
        hooks.test(svc, ben, hook.id)


def test_a_delivery_that_goes_through_ends_the_failing(services):
    svc = services
    svc.settings.WEBHOOK_ALLOW_PRIVATE = True
    play.start_game(svc, "trees", [ANNA, BEN], {})
    ben = player_id(svc, BEN)
    with Receiver() as endpoint:
        endpoint.status = 503
        hook = hooks.register(svc, endpoint.url, player_id=ben).hook
        failed = hooks.test(svc, ben, hook.id)
        play.deliver(svc, [failed])
        assert hooks.listed(svc, ben)[0].failing_since is not None
        endpoint.status = 200
        svc.clock.advance(timedelta(days=2, hours=23))
        ok = hooks.test(svc, ben, hook.id)
        assert play.deliver(svc, [ok]) == {ok: "sent"}
    assert hooks.listed(svc, ben)[0].failing_since is None


def test_a_deleted_hooks_waiting_delivery_is_dropped(services):
    svc = services
    svc.settings.WEBHOOK_ALLOW_PRIVATE = True
    play.start_game(svc, "trees", [ANNA, BEN], {})
    ben = player_id(svc, BEN)
    hook = hooks.register(svc, "http://127.0.0.1:9/never", player_id=ben).hook
    row = hooks.test(svc, ben, hook.id)
    hooks.delete(svc, ben, hook.id)
    assert play.deliver(svc, [row]) == {row: "skipped"}


def test_bad_webhooks_are_refused_with_what_to_do(services):
    svc = services
    play.start_game(svc, "trees", [ANNA, BEN], {})
    ben = player_id(svc, BEN)
    for url, words in (("", "Give the webhook's address"),
                       ("example.org/hook", "not an http or https address"),
                       ("https://exa mple.org/", "without spaces"),
                       ("https://example.org/" + "x" * 2000, "at most 2000")):
        with pytest.raises(hooks.BadWebhook, match=words):
            hooks.register(svc, url, player_id=ben)
    with pytest.raises(hooks.BadWebhook, match="not a kind"):
        hooks.register(svc, "https://example.org/h", kind="teams", player_id=ben)
    with pytest.raises(hooks.BadWebhook, match="not an event"):
        hooks.register(svc, "https://example.org/h", events="turn,moves", player_id=ben)
    for _ in range(hooks.MOST):
        hooks.register(svc, "https://example.org/h", player_id=ben)
    with pytest.raises(hooks.BadWebhook, match="delete one first"):
        hooks.register(svc, "https://example.org/h", player_id=ben)
    assert len(hooks.listed(svc, ben)) == hooks.MOST
    with pytest.raises(hooks.NoSuchWebhook):
        hooks.delete(svc, player_id(svc, ANNA), hooks.listed(svc, ben)[0].id)


def test_a_resignation_tells_the_others_game_over_hook(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, events="game_over", email=BEN)
        hooks.register(svc, endpoint.url, events="turn", email=ANNA)
        play.runner.run(svc, play.Intent(game, 0, lines=["resign"], source="cli"))
        told = [json.loads(d.raw) for d in endpoint.got]
    assert [(t["event"], t["gameId"]) for t in told] == [("game_over", game)]


class _AwayRelay:
    name = "smtp"

    def send(self, msg):
        raise RelayUnreachable("connection refused")


def test_a_delivery_goes_while_the_mail_relay_is_away(services):
    """The relay unreachable, the batch's emails wait for their next try; its webhook
    deliveries are posted all the same, and the relay's outage is not theirs."""
    svc = services
    svc.settings.WEBHOOK_ALLOW_PRIVATE = True
    play.start_game(svc, "trees", [ANNA, BEN], {})
    ben = player_id(svc, BEN)
    with svc.db.transaction() as session:
        emails = list(session.scalars(select(OutboxRow.id).where(OutboxRow.kind == "turn")))
    svc.transport = _AwayRelay()
    with Receiver() as endpoint:
        hook = hooks.register(svc, endpoint.url, player_id=ben).hook
        posted = hooks.test(svc, ben, hook.id)
        done = play.deliver(svc, [*emails, posted])
        assert len(endpoint.got) == 1
    assert done == {**dict.fromkeys(emails, "retry"), posted: "sent"}


class _Table:
    """Just what event_for reads of an engine: who is to act, and whether it is over."""

    def to_act(self, state):
        return frozenset(state["acting"])

    def outcome(self, state):
        return state.get("outcome")


def test_a_hook_is_told_when_a_turn_begins_and_when_the_game_ends_not_on_every_move():
    table = _Table()
    start, yours, still = {"acting": {0}}, {"acting": {1}}, {"acting": {1}}
    over = {"acting": set(), "outcome": {"ranking": [0, 1]}}
    assert webhooks.event_for(table, None, start, 0) == "turn"         # dealt: its turn
    assert webhooks.event_for(table, None, start, 1) is None
    assert webhooks.event_for(table, start, yours, 1) == "turn"        # the turn passes
    assert webhooks.event_for(table, yours, still, 1) is None          # its turn goes on
    assert webhooks.event_for(table, start, yours, 0) is None          # it watches
    assert webhooks.event_for(table, yours, over, 0) == "game_over"
    assert webhooks.event_for(table, over, over, 0) is None            # told once
