"""Tournaments made in the lobby: the maker and bots are entered at once, each address by its
emailed link; round 1 starts when every invitation is accepted, or when the maker starts it
with at least a table; an answered, expired, closed or tampered link changes nothing."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from service.linking.signer import Tampered, WrongPurpose
from service.play import community
from service.play.community import invites
from service.play.players import blocks
from service.store.models import (
    OutboxRow,
    Tournament,
    TournamentEntrant,
    TournamentInvite,
    TournamentRound,
)
from tests.play.community.helpers import player

BEN, CY = "ben@example.org", "cy@example.org"


def tokens(svc, tournament_id):
    """Each invited address's accept-link token, as its email's link carries it."""
    with svc.db.transaction() as s:
        rows = s.scalars(select(TournamentInvite).where(
            TournamentInvite.tournament_id == tournament_id)).all()
        return {r.email: svc.urls.tournament_invitation_path(tournament_id, r.id, "accept")
                .split("/")[-2] for r in rows}


def entered(svc, tournament_id):
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(TournamentEntrant).where(
            TournamentEntrant.tournament_id == tournament_id))


@pytest.fixture
def made(services):
    ann = player(services, "Ann")
    return ann, invites.make(services, ann, "trees", "swiss", 2, [BEN, CY, "bot:easy"],
                             clock="3d")


def test_the_maker_and_bots_are_entered_and_each_address_gets_one_invitation(services, made):
    ann, m = made
    assert not m.started and entered(services, m.tournament_id) == 2
    with services.db.transaction() as s:
        sent = s.execute(select(OutboxRow.to_addr, OutboxRow.kind).where(
            OutboxRow.kind.like("tournament%"))).all()
    assert sorted(sent) == [(BEN, "tournament_invite"), (CY, "tournament_invite")]
    view = community.show(services, m.tournament_id)
    assert view.status == "forming" and view.created_by == ann
    assert [(i.email, i.status) for i in view.invited] == [(BEN, "pending"), (CY, "pending")]


def test_the_last_acceptance_starts_round_one(services, made):
    _, m = made
    links = tokens(services, m.tournament_id)
    assert invites.answer(services, links[BEN], "accept") == "accepted"
    assert community.show(services, m.tournament_id).status == "forming"
    assert invites.answer(services, links[CY], "accept") == "started"
    view = community.show(services, m.tournament_id)
    assert view.status == "running" and view.round == 1 and len(view.played[0].tables) == 2
    with services.db.transaction() as s:
        told = s.scalars(select(OutboxRow.to_addr).where(
            OutboxRow.kind == "tournament_round")).all()
    assert sorted(told) == ["ann@example.org", BEN, CY]


def test_a_link_answered_already_changes_nothing(services, made):
    _, m = made
    links = tokens(services, m.tournament_id)
    invites.answer(services, links[BEN], "accept")
    with pytest.raises(community.InviteClosed, match="answered already"):
        invites.answer(services, links[BEN], "decline")
    assert entered(services, m.tournament_id) == 3


def test_a_declined_invitation_leaves_the_start_to_the_maker(services, made):
    ann, m = made
    links = tokens(services, m.tournament_id)
    assert invites.answer(services, links[BEN], "decline") == "declined"
    invites.answer(services, links[CY], "accept")
    assert community.show(services, m.tournament_id).status == "forming"
    with pytest.raises(community.BadTournament, match="Only the player who made"):
        invites.start(services, player(services, "Cy"), m.tournament_id)
    assert invites.start(services, ann, m.tournament_id) == 1      # ann, cy, the bot: a bye
    view = community.show(services, m.tournament_id)
    assert view.status == "running" and len(view.standings) == 3
    with pytest.raises(community.BadTournament, match="started already"):
        invites.start(services, ann, m.tournament_id)


def test_an_invitation_still_open_closes_when_the_maker_starts(services, made):
    ann, m = made
    links = tokens(services, m.tournament_id)
    invites.start(services, ann, m.tournament_id)         # ann and the bot: one table
    with pytest.raises(community.InviteClosed, match="started without"):
        invites.answer(services, links[BEN], "accept")
    assert invites.look(services, links[CY]).status == "closed"
    assert entered(services, m.tournament_id) == 2


def test_an_expired_invitation_is_refused_and_reads_expired(services, made):
    _, m = made
    links = tokens(services, m.tournament_id)
    services.clock.advance(invites.INVITE_LIFETIME + timedelta(minutes=1))
    assert invites.look(services, links[BEN]).status == "expired"
    with pytest.raises(community.InviteClosed, match="expired"):
        invites.answer(services, links[BEN], "accept")
    assert entered(services, m.tournament_id) == 2


def test_a_tampered_or_foreign_link_is_refused(services, made):
    _, m = made
    token = tokens(services, m.tournament_id)[BEN]
    with pytest.raises(Tampered):
        invites.answer(services, token[:-3] + "xyz", "accept")
    # a game invitation's token is for something else, whatever its numbers say
    game_token = services.urls.invitation_path(m.tournament_id, 1, 1, "accept").split("/")[-2]
    with pytest.raises(WrongPurpose, match="join a game"):
        invites.answer(services, game_token, "accept")
    assert entered(services, m.tournament_id) == 2


def test_too_few_entered_is_refused_and_nothing_starts(services):
    ann = player(services, "Ann")
    m = invites.make(services, ann, "trees", "swiss", 2, [BEN])
    with pytest.raises(community.BadTournament, match="only 1 have accepted"):
        invites.start(services, ann, m.tournament_id)
    assert community.show(services, m.tournament_id).status == "forming"


def test_a_maker_with_bots_only_starts_at_once(services):
    ann = player(services, "Ann")
    m = invites.make(services, ann, "trees", "round-robin", None, ["bot:easy", "bot:normal"])
    assert m.started
    view = community.show(services, m.tournament_id)
    assert view.status == "running" and view.rounds == 3


def test_a_round_robin_plays_the_rounds_of_those_who_accepted(services):
    ann = player(services, "Ann")
    m = invites.make(services, ann, "trees", "round-robin", None, [BEN, CY, "bot:easy"])
    assert community.show(services, m.tournament_id).rounds == 3
    assert community.show(services, m.tournament_id).rounds == 3    # four invited
    invites.answer(services, tokens(services, m.tournament_id)[BEN], "decline")
    invites.start(services, ann, m.tournament_id)
    assert community.show(services, m.tournament_id).rounds == 1    # ann and the bot


@pytest.mark.parametrize("entrants, says", [
    ([], "only 1 entered"),
    (["ann@example.org"], "different email"),
    (["bot:hard"], "no bot called"),
    (["not an address"], ""),
])
def test_bad_lobby_tournaments_make_nothing_and_send_nothing(services, entrants, says):
    ann = player(services, "Ann")
    with pytest.raises(community.BadTournament) as refused:
        invites.make(services, ann, "trees", "swiss", 2, entrants)
    assert says in refused.value.detail
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Tournament)) == 0
        assert s.scalar(select(func.count()).select_from(OutboxRow)) == 0


def test_an_address_blocking_the_maker_reads_declined_and_is_not_mailed(services):
    """Issue 49, item 7: refusing ("one of you has blocked the other") told the maker of
    the block. The blocker's invitation reads declined at once, as one to an address that
    asked for no mail; the maker may still start with those who accept. The blocker, making
    one, is told of their own block."""
    ann, ben = player(services, "Ann"), player(services, "Ben")
    blocks.block(services, ben, ann)
    made = invites.make(services, ann, "trees", "swiss", 2, [BEN, CY])
    with services.db.transaction() as s:
        status = dict(s.execute(select(TournamentInvite.email, TournamentInvite.status).where(
            TournamentInvite.tournament_id == made.tournament_id)).all())
        to = set(s.scalars(select(OutboxRow.to_addr).where(
            OutboxRow.kind == "tournament_invite")))
    assert status == {BEN: "declined", CY: "pending"} and to == {CY}
    with pytest.raises(community.BadTournament, match="You have blocked ann@example.org"):
        invites.make(services, ben, "trees", "swiss", 2, ["ann@example.org"])


def test_the_last_two_accepting_at_once_start_round_one_once(services, made):
    """Each answer locks the tournament's row: the second to commit sees the field full."""
    _, m = made
    links = tokens(services, m.tournament_id)
    barrier = threading.Barrier(3)
    answers: list = []
    failures: list = []

    def run(work):
        try:
            barrier.wait()
            answers.append(work())
        except Exception as exc:  # noqa: BLE001 - a thread's failure fails the test below
            failures.append(exc)

    ann = community.show(services, m.tournament_id).created_by
    threads = [threading.Thread(target=run, args=(lambda a=a: invites.answer(
        services, links[a], "accept"),)) for a in (BEN, CY)]
    # and the maker pressing Start at the same moment: one of them starts it, once
    threads.append(threading.Thread(target=run, args=(lambda: invites.start(
        services, ann, m.tournament_id),)))
    [t.start() for t in threads]
    [t.join() for t in threads]
    with services.db.transaction() as s:
        rounds = s.scalars(select(TournamentRound.round).where(
            TournamentRound.tournament_id == m.tournament_id)).all()
    assert rounds == [1]
    started = answers.count("started") + sum(isinstance(a, int) for a in answers)
    refused = [str(f) for f in failures]
    assert started == 1 and len(answers) + len(failures) == 3, (answers, refused)
    assert all("started" in r for r in refused)


def test_the_maker_calls_off_a_tournament_that_has_not_started(services, made):
    ann, m = made
    links = tokens(services, m.tournament_id)
    invites.answer(services, links[BEN], "accept")
    with pytest.raises(community.BadTournament, match="Only the player who made"):
        invites.cancel(services, player(services, "Ben"), m.tournament_id)
    invites.cancel(services, ann, m.tournament_id)
    assert community.show(services, m.tournament_id).status == "cancelled"
    assert invites.look(services, links[CY]).status == "cancelled"
    with pytest.raises(community.InviteClosed, match="called this tournament off"):
        invites.answer(services, links[CY], "accept")
    with pytest.raises(community.BadTournament, match="was called off"):
        invites.start(services, ann, m.tournament_id)
    assert community.advance(services, m.tournament_id) == "over"
    assert invites.waiting_for(services, ann) == []
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(TournamentRound)) == 0


def test_a_started_tournament_is_not_called_off(services, made):
    ann, m = made
    invites.start(services, ann, m.tournament_id)
    with pytest.raises(community.BadTournament, match="plays to its end"):
        invites.cancel(services, ann, m.tournament_id)
