"""A change of address (issue 52): asked for on /me, confirmed by a link to the new address
(signed, once, within the hour; opening it changes nothing), the old address told; or at once
by `flask players readdress OLD NEW`. Then the player is known by the new address, with their
seats, ratings, tokens, preferences and blocks; mail goes there only, and a reply from the old
address is answered once with where to write now. An address that belongs to another player
is refused, saying what to do."""
from __future__ import annotations

import time

import pytest
from itsdangerous import timed
from sqlalchemy import select

from service import play
from service.linking.signer import Claims, Expired, Signer
from service.play.clock import ManualClock
from service.play.players import blocks, personaltokens, readdress
from service.play.time import calendar
from service.store.models import InboundMessage, OutboxRow, Player
from tests.conftest import T0
from tests.play.mail.test_replies import reply_to
from tests.play.players.helpers import play_moves, player_id, position
from tests.web.helpers import latest_to, mails, move_links, post_form, sign_in, start_game, text_of

ANNA, NEW, BEN = "anna@example.org", "anna@new.example", "ben@example.org"


@pytest.fixture
def clock():
    return ManualClock(T0)


@pytest.fixture
def app(app_factory, clock):
    return app_factory(TURNPOST_CLOCK=clock)


def cli(app, *args):
    with app.app_context():
        return app.test_cli_runner().invoke(args=list(args))


def link_in(msg) -> str:
    return "/me/address/" + text_of(msg).split("/me/address/")[1].split()[0]


def test_a_change_asked_on_me_moves_the_account_once_its_link_is_pressed(app, client):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    sign_in(client, app, ANNA)
    anna, ben = player_id(svc, ANNA), player_id(svc, BEN)
    _, token = personaltokens.create(svc, ANNA, "script")
    calendar.save_preferences(svc, {"rest_days": "sun"}, player_id=anna)
    blocks.block(svc, anna, ben)
    r = post_form(client, "/me/address", {"email": " Anna@New.Example "}, page="/me")
    assert r.status_code == 302
    assert f"We sent a link to {NEW}" in client.get("/me").text
    confirm, notice = latest_to(app, NEW), latest_to(app, ANNA)
    assert confirm["Subject"] == "Confirm your new address for Turnpost"
    assert ANNA in text_of(confirm)                # the new address learns from where
    assert notice["Subject"] == "A change of address was asked for your Turnpost account"
    assert NEW not in text_of(notice) and "a…@n….example" in text_of(notice)
    path = link_in(confirm)
    page = client.get(path)
    assert page.status_code == 200 and f"Move my account to {NEW}" in page.text
    assert client.head(path).status_code == 200
    assert player_id(svc, NEW) is None             # opening the link changed nothing
    assert client.post(path).status_code == 400    # no CSRF token: refused
    other = app.test_client()                      # the new mailbox's browser
    done = post_form(other, path, page=path)
    assert done.status_code == 200 and f"Your account now uses {NEW}" in done.text
    assert player_id(svc, NEW) == anna and player_id(svc, ANNA) is None
    again = post_form(other, path, page="/sign-in")
    assert again.status_code == 409 and "used already" in again.text
    # everything came with it
    assert client.get("/me").status_code == 200 and f"Signed in as {NEW}" in \
        client.get("/me").text
    assert personaltokens.holder(svc, token).email == NEW
    assert calendar.read_preferences(svc, anna)["rest_days"] == "sun"
    with svc.db.transaction() as session:
        assert blocks.between(session, anna, ben)
    assert [s.player.email for s in position(svc, game).row.seats] == [NEW, BEN]


def test_an_address_that_belongs_to_another_player_is_refused_and_nothing_is_sent(app, client):
    start_game(app, "trees", [ANNA, BEN])
    sign_in(client, app, ANNA)
    sent = len(mails(app))
    r = post_form(client, "/me/address", {"email": BEN}, page="/me")
    assert r.status_code == 400
    assert f"{BEN} already belongs to another Turnpost player" in r.text
    assert "erase it" in r.text                    # what to do if both are yours
    for typed, why in (("not an address", "not an email address"), (ANNA, "already")):
        r = post_form(client, "/me/address", {"email": typed}, page="/me")
        assert r.status_code == 400 and why in r.text, typed
    assert len(mails(app)) == sent
    result = cli(app, "players", "readdress", ANNA, BEN)
    assert result.exit_code != 0 and "already belongs to another Turnpost player" in \
        result.output
    start_game(app, "trees", [BEN, "bot"])
    result = cli(app, "players", "readdress", "bot-normal-1@bots.invalid", NEW)
    assert result.exit_code != 0 and "is a bot, not a person" in result.output


def test_our_own_addresses_cannot_be_moved_to(app_factory):
    app = app_factory(TURNPOST_MAIL_DOMAIN="play.example.org")
    start_game(app, "trees", [ANNA, BEN])
    result = cli(app, "players", "readdress", ANNA, "moves@play.example.org")
    assert result.exit_code != 0 and "cannot receive mail from Turnpost" in result.output


def test_the_link_lasts_an_hour_and_a_taken_address_is_refused_at_the_button(app, client,
                                                                            clock):
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, BEN])
    sign_in(client, app, ANNA)
    post_form(client, "/me/address", {"email": NEW}, page="/me")
    path = link_in(latest_to(app, NEW))
    start_game(app, "trees", [NEW, BEN])           # meanwhile NEW plays, as another player
    taken = post_form(app.test_client(), path, page=path)
    assert taken.status_code == 409 and "already belongs to another" in taken.text
    post_form(client, "/me/address", {"email": "anna@third.example"}, page="/me")
    path = link_in(latest_to(app, "anna@third.example"))
    clock.advance(minutes=61)
    late = app.test_client().get(path)
    assert late.status_code == 400 and "more than an hour old" in late.text
    assert player_id(svc, ANNA) is not None and player_id(svc, "anna@third.example") is None


def test_after_flask_players_readdress_the_old_address_gets_no_more_mail(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    anna = player_id(svc, ANNA)
    # an email for Anna waits (her quiet hours): it goes to the new address
    with svc.db.transaction() as session:
        waiting = session.scalars(select(OutboxRow).where(OutboxRow.to_addr == ANNA)).first()
        waiting.status, waiting.next_try = "quiet", T0.replace(hour=22)
        waiting_id = waiting.id
    before = len([m for m in mails(app) if m["To"] == ANNA])
    result = cli(app, "players", "readdress", ANNA, NEW)
    assert result.exit_code == 0 and result.output == (
        f"player {anna} moved from {ANNA} to {NEW}\n")
    assert player_id(svc, NEW) == anna and player_id(svc, ANNA) is None
    assert latest_to(app, NEW)["Subject"] == "Your Turnpost account moved to this address"
    with svc.db.transaction() as session:
        assert session.get(OutboxRow, waiting_id).to_addr == NEW
    play_moves(svc, game, None)                     # the whole game, every email
    play.sweep(svc)
    assert len([m for m in mails(app) if m["To"] == ANNA]) == before
    assert any(m["To"] == NEW and "Trees" in m["Subject"] for m in mails(app))


def test_a_reply_from_the_old_address_is_answered_once_with_where_to_write(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = next(a for a in (ANNA, BEN) if move_links(latest_to(app, a)))
    if mover != ANNA:
        play_moves(svc, game, 1)
    ours = latest_to(app, ANNA)
    readdress.move(svc, ANNA, NEW)
    seq, to_ben = position(svc, game).seq, len([m for m in mails(app) if m["To"] == BEN])
    with app.app_context():
        first, _ = play.accept_mail(svc, reply_to(ours, move_links(ours)[0][0]), "smtp")
    # the seat's player is not warned of "someone else" writing: it was them, answered
    assert not any("Someone wrote to your reply address" in text_of(m) for m in mails(app)
                   if m["To"] == NEW)
    with app.app_context():
        second, _ = play.accept_mail(svc, reply_to(ours, "help"), "smtp")
    answers = [m for m in mails(app) if m["To"] == ANNA and "no longer plays" in m["Subject"]]
    assert len(answers) == 1                        # once, however often it writes
    words = text_of(answers[0])
    assert "a…@n….example" in words and NEW not in words
    assert answers[0]["In-Reply-To"].strip("<>").startswith(first_message_id(svc, first))
    assert position(svc, game).seq == seq           # nothing was done
    assert len([m for m in mails(app) if m["To"] == BEN]) == to_ben
    with svc.db.transaction() as session:
        assert [session.get(InboundMessage, i).status for i in (first, second)] == \
            ["stranger", "stranger"]


def first_message_id(svc, inbound_id: int) -> str:
    with svc.db.transaction() as session:
        return session.get(InboundMessage, inbound_id).message_id.strip("<>")


def test_a_player_whose_old_address_bounced_gets_the_turn_at_the_new_one(app):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    play_moves(svc, game, None, seats={1})          # up to Anna's turn
    with svc.db.transaction() as session:
        session.scalar(select(Player).where(Player.email == ANNA)).bounced_at = T0
    readdress.move(svc, ANNA, NEW)
    play.sweep(svc)
    turn = [m for m in mails(app) if m["To"] == NEW and move_links(m)]
    assert turn, "the turn email was sent again, to the new address"
    with svc.db.transaction() as session:
        assert session.get(Player, player_id(svc, NEW)).bounced_at is None


def test_an_account_link_expires_within_the_hour_whatever_the_games_links_may(monkeypatch):
    """signer.SHORT_LIVED: the token itself stops working after an hour (the row's own
    expiry aside), while a game's link signed at the same moment lasts its 90 days."""
    signer = Signer("a-secret-long-enough-for-the-tests", max_age_days=90)
    now = time.time()
    monkeypatch.setattr(timed.time, "time", lambda: now)
    tokens = {p: signer.dumps(p, Claims(1, None)) for p in ("readdress", "erase", "view")}
    monkeypatch.setattr(timed.time, "time", lambda: now + 3599)
    assert all(signer.loads(p, t).game == 1 for p, t in tokens.items())
    monkeypatch.setattr(timed.time, "time", lambda: now + 3601)
    for purpose in ("readdress", "erase"):
        with pytest.raises(Expired):
            signer.loads(purpose, tokens[purpose])
    assert signer.loads("view", tokens["view"]).game == 1
