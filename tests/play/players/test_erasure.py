"""Erasing an account (issue 52): games in progress resigned through the resignation use case
(the others play on), finished games keep the seat as "former player N", ratings keep their
numbers, every other row naming the player deleted or made anonymous, and after the sweep that
sends the goodbye no row of any table holds the address, nor an address they moved away from:
every column of every table is read whole, on SQLite and PostgreSQL. The address may sign up
again, as a new player."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from service import play
from service.play import community
from service.play.clock import ManualClock
from service.play.mail import relayrefusals
from service.play.players import (
    blocks,
    erasure,
    invitations,
    personaltokens,
    readdress,
    seatchanges,
)
from service.play.time import calendar
from service.store.models import (
    ChatMessage,
    GameRow,
    Invitation,
    LadderRung,
    OutboxRow,
    Player,
    Rating,
    RatingChange,
    TournamentEntrant,
    TournamentInvite,
)
from tests.conftest import T0
from tests.play.mail.test_replies import reply_to
from tests.play.players.helpers import play_moves, player_id, position, scan
from tests.web.helpers import (
    game_link,
    latest_to,
    mails,
    post_form,
    sign_in,
    start_game,
    text_of,
)

OLD, ANNA, BEN, CARL, DORA = ("anna@old.example", "anna@example.org", "ben@example.org",
                              "carl@example.org", "dora@example.org")


@pytest.fixture
def clock():
    return ManualClock(T0)


@pytest.fixture
def app(app_factory, clock):
    return app_factory(TURNPOST_CLOCK=clock)


def cli(app, *args):
    with app.app_context():
        result = app.test_cli_runner().invoke(args=list(args))
    assert result.exit_code == 0, result.output
    return result.output


def everything_names_anna(app, client) -> dict[str, int]:
    """Anna, first at OLD, then at ANNA, in as many tables as a player can be: games in
    progress (two and three players), a finished rated game, a seat taken over by invitation,
    a game forming that she made and one she is invited to, chat (her address written in it,
    by her and by another), a reply by mail, a relay's refusal, tokens, preferences, a
    vacation, blocks both ways, a report, a ladder, a challenge, a tournament invitation."""
    svc = app.extensions["turnpost"]
    games = {}
    games["three"] = start_game(app, "trees", [OLD, BEN, CARL]).game_id
    games["finished"] = start_game(app, "trees", [OLD, BEN]).game_id
    play_moves(svc, games["finished"], None)
    # a seat taken over: Carl resigns, Ben invites Anna (her address in the history's text)
    games["taken"] = start_game(app, "trees", [DORA, BEN, CARL]).game_id
    seatchanges.resign(svc, games["taken"], 2)
    seatchanges.invite_replacement(svc, games["taken"], 1, 2, OLD)
    invite = latest_to(app, OLD)
    path = "/i/" + text_of(invite).split("/i/")[1].split()[0]
    assert client.post(path).status_code in (200, 302)
    cli(app, "players", "readdress", OLD, ANNA)
    anna = player_id(svc, ANNA)
    games["two"] = start_game(app, "trees", [BEN, ANNA]).game_id
    play_moves(svc, games["three"], 3)
    play.say(svc, games["three"], 0, f"Write to me at {ANNA.upper()} any time")
    said = play.say(svc, games["three"], 1, f"{ANNA} wrote to me")
    # a reply by mail from her address, to her seat's reply address
    ours = latest_to(app, ANNA)
    with app.app_context():
        play.accept_mail(svc, reply_to(ours, "help"), "smtp")
    sign_in(client, app, ANNA)
    personaltokens.create(svc, ANNA, "script")
    personaltokens.create(svc, ANNA, "calendar", scope="feed")
    calendar.save_preferences(svc, {"tz": "Europe/Paris", "rest_days": "sun"}, player_id=anna)
    seatchanges.take_vacation(svc, anna, "vacation 2")
    seatchanges.take_vacation(svc, anna, "back")
    blocks.block(svc, anna, player_id(svc, DORA))
    blocks.block(svc, player_id(svc, DORA), anna)
    with svc.db.transaction() as session:
        line = session.scalar(select(ChatMessage.id).where(ChatMessage.id == said.message_id))
        relayrefusals.record(session, ANNA, f"recipient refused: {ANNA}: 550 5.1.1 no such user",
                        svc.clock.now())
    community.reports.report(svc, anna, line, "spam")
    community.ladders.join(svc, player_id(svc, BEN), "trees")
    community.ladders.join(svc, anna, "trees")
    community.ladders.join(svc, player_id(svc, CARL), "trees")
    community.challenges.post(svc, anna, community.read_terms("suzerain", "3d"))
    games["mine forming"] = invitations.create_game(svc, anna, "trees", [CARL]).game_id
    games["bens forming"] = invitations.create_game(svc, player_id(svc, BEN), "trees",
                                                    [ANNA]).game_id
    community.invites.make(svc, player_id(svc, BEN), "trees", "swiss", 1, [ANNA, CARL])
    readdress.request(svc, anna, "anna@never-confirmed.example")
    assert scan(svc, ANNA) and scan(svc, OLD)          # she is everywhere
    return games


def test_after_erase_and_a_sweep_no_row_of_any_table_holds_the_address(app, client, clock):
    svc = app.extensions["turnpost"]
    games = everything_names_anna(app, client)
    anna = player_id(svc, ANNA)
    said = cli(app, "players", "erase", ANNA, "--yes")
    resigned = ", ".join(str(games[k]) for k in ("three", "taken", "two"))
    assert said == (f"erased: now former player {anna}; 3 games resigned ({resigned}); a "
                    "goodbye email queued\n")
    cli(app, "sweep")
    assert scan(svc, ANNA) == [] and scan(svc, OLD) == []
    # the goodbye went, and its row with it
    goodbye = latest_to(app, ANNA)
    assert goodbye["Subject"] == "Your Turnpost account is erased"
    ben, carl = player_id(svc, BEN), player_id(svc, CARL)
    with svc.db.transaction() as session:
        assert session.scalar(select(OutboxRow.id).where(OutboxRow.kind == "goodbye")) is None
        me = session.get(Player, anna)
        assert (me.name, me.email) == (f"former player {anna}",
                                      f"erased-{anna}@erased.invalid")
        assert me.suppressed and me.profile_hidden and me.zone is None
        # ratings keep their numbers under the anonymous player: the finished game's and
        # the resigned two-player game's (rated like any resignation)
        rating = session.get(Rating, ("trees", f"player:{anna}"))
        changes = session.scalars(select(RatingChange).where(
            RatingChange.rater == f"player:{anna}").order_by(RatingChange.id)).all()
        assert [c.game_id for c in changes] == [games["finished"], games["two"]]
        assert rating.games == 2 and (rating.mu, rating.sigma) == (changes[-1].mu,
                                                                   changes[-1].sigma)
        # the game she made is called off; her seat in Ben's reads declined
        assert session.get(GameRow, games["mine forming"]) is None
        (hers,) = session.scalars(select(Invitation).where(
            Invitation.game_id == games["bens forming"], Invitation.seat == 1))
        assert hers.status == "declined" and hers.player_id is None
        assert session.scalar(select(TournamentInvite.status).where(
            TournamentInvite.email == f"erased-{anna}@erased.invalid")) == "declined"
        assert [r.player_id for r in session.scalars(select(LadderRung).order_by(
            LadderRung.place))] == [ben, carl]
    # the two-player game ended (Ben won), the three-player one plays on
    assert position(svc, games["two"]).row.status == "ended"
    finish(svc, clock, games["three"], people={1, 2})
    three = position(svc, games["three"])
    assert [s.player.name for s in three.row.seats] == [f"former player {anna}", "ben", "carl"]
    assert three.row.status == "ended"
    taken = client.get(f"/games/{position(svc, games['taken']).row.public_id}")
    assert f"former player {anna} took over carl" in taken.text and "anna" not in taken.text
    finished = client.get(f"/games/{position(svc, games['finished']).row.public_id}")
    assert f"former player {anna}" in finished.text and "anna" not in finished.text.lower()
    # the address may sign up again, as a new player with nothing of the old one
    fresh = app.test_client()
    sign_in(fresh, app, ANNA)
    assert player_id(svc, ANNA) not in (None, anna)
    assert "Nothing waits on you" in fresh.get("/me").text


def finish(svc, clock, game_id: int, people: set[int]) -> None:
    """Play a game to its end: the people's seats by seeded choices, a resigned seat's turns
    by the clocks' pass (its default move)."""
    for step in range(500):
        pos = position(svc, game_id)
        if pos.row.status == "ended":
            return
        if pos.engine.to_act(pos.state) & people:
            play_moves(svc, game_id, 1, seed=step, seats=people)
        else:
            clock.advance(minutes=1)
            play.timers(svc, shards=1)
    raise AssertionError("the game did not end")


def test_erasure_by_link_shows_first_and_erases_once_on_the_button(app, client, clock):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    old_link = game_link(latest_to(app, ANNA))
    phone = app.test_client()                   # another browser of hers, signed in too
    sign_in(phone, app, ANNA)
    sign_in(client, app, ANNA)
    anna = player_id(svc, ANNA)
    assert client.get(old_link).status_code == 200
    page = client.get("/me").text
    assert "Erase my account" in page
    r = post_form(client, "/me/erase", page="/me")
    assert r.status_code == 302 and r.headers["Location"].endswith("/me#your-data")
    assert f"We sent a link to {ANNA}" in client.get("/me").text
    letter = latest_to(app, ANNA)
    assert letter["Subject"] == "Confirm: erase your Turnpost account"
    path = "/me/erase/" + text_of(letter).split("/me/erase/")[1].split()[0]
    shown = client.get(path)
    assert shown.status_code == 200 and "1 game in progress is resigned" in shown.text
    assert client.head(path).status_code == 200
    assert player_id(svc, ANNA) == anna                     # opening it changed nothing
    assert client.post(path).status_code == 400             # no CSRF token: refused
    assert player_id(svc, ANNA) == anna
    done = post_form(client, path, page=path)
    assert done.status_code == 200 and "Your account is erased" in done.text
    assert player_id(svc, ANNA) is None
    assert client.get("/me").status_code == 302              # signed out: it is no more
    assert phone.get("/me").status_code == 302               # everywhere
    stale = phone.get(old_link)                              # her old emails' links
    assert stale.status_code == 403 and "previous player" in stale.text
    assert position(svc, game).row.status == "ended"         # resigned: Ben won
    again = post_form(client, path, page="/sign-in")
    assert again.status_code == 409 and "Nothing was changed" in again.text


def test_an_erasure_link_works_for_an_hour(app, client, clock):
    start_game(app, "trees", [ANNA, BEN])
    sign_in(client, app, ANNA)
    post_form(client, "/me/erase", page="/me")
    path = "/me/erase/" + text_of(latest_to(app, ANNA)).split("/me/erase/")[1].split()[0]
    clock.advance(minutes=61)
    late = client.get(path)
    assert late.status_code == 400 and "more than an hour old" in late.text
    assert post_form(client, path, page="/me").status_code == 409
    assert player_id(app.extensions["turnpost"], ANNA) is not None


def test_an_address_no_mail_reaches_is_told_to_ask_the_operator(app, client):
    start_game(app, "trees", [ANNA, BEN])
    sign_in(client, app, ANNA)
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as session:
        session.scalar(select(Player).where(Player.email == ANNA)).suppressed = True
    sent = len(mails(app))
    r = post_form(client, "/me/erase", page="/me")
    assert r.status_code == 400 and "operator to erase the account" in r.text
    assert len(mails(app)) == sent


def test_the_goodbye_refused_by_the_relay_leaves_no_trace(app, monkeypatch):
    """A goodbye the relay refuses for its address (550 5.1.1) is deleted, and the refusal is
    not kept as evidence about the address (which would keep the address)."""
    from service.mailwire.outbound import transports
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, BEN])

    def refuse(self, msg):
        if msg["To"] == ANNA:
            raise transports.SendRefused(f"recipient refused: {ANNA}: 550 5.1.1 no such user",
                                         recipient=True, answer="5.1.1 no such user")
        return real(self, msg)
    real = type(svc.transport).send
    monkeypatch.setattr(type(svc.transport), "send", refuse)
    erasure.erase(svc, ANNA)
    play.sweep(svc)
    assert scan(svc, ANNA) == []


def test_erasing_twice_or_nobody_is_refused_with_words(app):
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, BEN])
    anna = player_id(svc, ANNA)
    erasure.erase(svc, ANNA)
    with pytest.raises(play.PlayError, match="erased already"):
        erasure.erase_player(svc, anna)
    result = app.test_cli_runner().invoke(args=["players", "erase", ANNA, "--yes"])
    assert result.exit_code != 0 and "No player has the address" in result.output
    start_game(app, "trees", [BEN, "bot"])
    result = app.test_cli_runner().invoke(args=["players", "erase", "bot-normal-1@bots.invalid",
                                                "--yes"])
    assert result.exit_code != 0 and "is a bot, not a person" in result.output


def test_a_running_tournament_withdraws_an_erased_entrant(app, clock):
    svc = app.extensions["turnpost"]
    made = community.create(svc, "trees", "round-robin", None, [ANNA, BEN, CARL, DORA])
    erasure.erase(svc, ANNA)
    with svc.db.transaction() as session:
        entrants = {e.player_id: e.withdrawn_round for e in session.scalars(
            select(TournamentEntrant).where(TournamentEntrant.tournament_id == made.tournament_id))}
    assert entrants[player_id(svc, BEN)] is None
    assert [r for p, r in entrants.items() if p not in (player_id(svc, BEN),
                                                        player_id(svc, CARL),
                                                        player_id(svc, DORA))] == [1]


def test_a_reply_from_the_address_after_erasure_moves_nothing(app, clock):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN, CARL]).game_id
    ours = latest_to(app, ANNA)
    erasure.erase(svc, ANNA)
    before = position(svc, game).seq
    with app.app_context():
        row, _ = play.accept_mail(svc, reply_to(ours, "help"), "smtp")
    assert position(svc, game).seq == before
    clock.advance(timedelta(days=120))
    play.prune(svc)
    assert scan(svc, ANNA) == []          # kept no longer than any stranger's mail
