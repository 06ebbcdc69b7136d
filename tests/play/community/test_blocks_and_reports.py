"""Blocks keep two players apart both ways, and tell the blocked player nothing (issue 49,
item 7): an invitation to the blocker reads as any invitation not accepted (declined, no
email, as to an address that asked for no mail), the blocker's table as one just filled, and
neither sees or is mailed the other's chat (others still do). The blocker, who knows, is told
of their own block. Reports: a chat line its reader reports is listed for the operators,
once per reporter; a line one cannot read, or one's own, cannot be reported."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.play.community import BadReport, reports
from service.play.errors import PlayError
from service.play.moves import chat
from service.play.players import BadBlock, BadInvitation, blocks, invitations, start_game
from service.store.models import ChatMessage, GameRow, Invitation, OutboxRow, Player
from tests.play.community.helpers import player

ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"


def count(svc, model, *where):
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def read(svc, game_id, seat):
    with svc.db.transaction() as s:
        return [m.text for m in chat.messages(s, game_id, seat)]


def invited(svc, game_id, addr) -> tuple[str, int]:
    """What became of `addr`'s invitation to the game, and the emails it was sent."""
    with svc.db.transaction() as s:
        inv = s.scalars(select(Invitation).where(Invitation.game_id == game_id,
                                                 Invitation.email == addr)).one()
        mails = s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.game_id == game_id, OutboxRow.to_addr == addr))
        return inv.status, mails


def test_inviting_the_blocker_reads_as_an_invitation_that_was_not_accepted(services):
    """It answered "one of you has blocked the other", telling the blocked player. Now the
    game is made and the blocker's seat reads declined, with no email to them: the same as
    for an address that asked never to be mailed."""
    anna, ben = player(services, "Anna"), player(services, "Ben")
    with services.db.transaction() as s:        # Cleo asked never to be mailed
        invitations.never_mail(s, s.get(Player, player(services, "Cleo")), services.clock.now())
    blocks.block(services, ben, anna)
    to_ben = invitations.create_game(services, anna, "trees", [BEN]).game_id
    to_cleo = invitations.create_game(services, anna, "trees", [CLEO]).game_id
    assert invited(services, to_ben, BEN) == invited(services, to_cleo, CLEO) == ("declined", 0)
    # the blocker, who knows, is told why he cannot invite the player he blocked
    with pytest.raises(BadInvitation, match="You have blocked anna@example.org"):
        invitations.create_game(services, ben, "trees", [ANNA])
    assert count(services, GameRow) == 2
    blocks.unblock(services, ben, anna)
    again = invitations.create_game(services, anna, "trees", [BEN]).game_id
    assert invited(services, again, BEN) == ("pending", 1)


def declined_by_cleo(svc, creator: int) -> int:
    game_id = invitations.create_game(svc, creator, "trees", [CLEO]).game_id
    with svc.db.transaction() as s:
        s.scalars(select(Invitation).where(Invitation.game_id == game_id,
                                           Invitation.email == CLEO)).one().status = "declined"
    return game_id


def test_a_declined_seat_given_to_a_blocker_reads_declined_again(services):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    player(services, "Cleo")
    blocks.block(services, ben, anna)
    game_id = declined_by_cleo(services, anna)
    invitations.refill(services, anna, game_id, 1, BEN)
    assert invited(services, game_id, BEN) == ("declined", 0)
    with pytest.raises(BadInvitation, match="You have blocked anna@example.org"):
        invitations.refill(services, ben, declined_by_cleo(services, ben), 1, ANNA)


def test_the_blockers_table_is_to_the_blocked_player_as_one_just_filled(services):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    cleo = player(services, "Cleo")
    formed = invitations.create_game(services, anna, "trees", [], open_seats=1)
    full = invitations.create_game(services, cleo, "trees", [], open_seats=1)
    invitations.join_open_seat(services, player(services, "Dan"), full.game_id)
    blocks.block(services, anna, ben)
    with pytest.raises(PlayError) as at_the_blockers:
        invitations.join_open_seat(services, ben, formed.game_id)
    with pytest.raises(PlayError) as at_a_full_one:
        invitations.join_open_seat(services, ben, full.game_id)
    assert type(at_the_blockers.value) is type(at_a_full_one.value)
    assert at_the_blockers.value.detail == at_a_full_one.value.detail
    assert "block" not in at_the_blockers.value.detail
    with services.db.transaction() as s:
        assert s.get(GameRow, formed.game_id).status == "forming"
    # the blocker is told of her own block at the blocked player's table
    mine = invitations.create_game(services, ben, "trees", [], open_seats=1)
    with pytest.raises(BadInvitation, match="You have blocked Ben"):
        invitations.join_open_seat(services, anna, mine.game_id)


def test_chat_between_a_blocker_and_the_blocked_player_is_hidden_both_ways(services):
    """One rule, both ways: the blocked player's lines vanished for the blocker alone while
    the blocker could still write to them. Now neither reads, nor is mailed, the other's
    lines written after the block; the others read both; nobody is told."""
    game = start_game(services, "trees", [ANNA, BEN, CLEO], {}).game_id
    anna, ben = player(services, "Anna"), player(services, "Ben")
    chat.say(services, game, 1, "from ben")
    chat.say(services, game, 2, "from cleo")
    blocks.block(services, anna, ben)
    chat.say(services, game, 1, "more from ben")
    chat.say(services, game, 0, "from anna")
    chat.say(services, game, 0, "psst, ben", to_seat=1)
    assert read(services, game, 0) == ["from cleo", "from anna", "psst, ben"]
    assert read(services, game, 1) == ["from ben", "from cleo", "more from ben"]
    assert read(services, game, 2) == ["from ben", "from cleo", "more from ben", "from anna"]
    assert read(services, game, None) == ["from ben", "from cleo", "more from ben",
                                          "from anna"]
    with services.db.transaction() as s:
        mailed = {addr: [r.payload["said"]["text"] for r in s.scalars(
            select(OutboxRow).where(OutboxRow.kind == "message", OutboxRow.to_addr == addr)
            .order_by(OutboxRow.id))] for addr in (ANNA, BEN)}
    assert mailed == {ANNA: ["from ben", "from cleo"], BEN: ["from cleo"]}


def test_blocking_oneself_or_nobody_is_refused(services):
    anna = player(services, "Anna")
    with pytest.raises(BadBlock, match="yourself"):
        blocks.block(services, anna, anna)
    with pytest.raises(BadBlock, match="no such player"):
        blocks.block(services, anna, 9999)
    assert blocks.block(services, anna, player(services, "Ben"))
    assert not blocks.block(services, anna, player(services, "Ben"))


def test_a_reported_line_is_listed_once(services):
    game = start_game(services, "trees", [ANNA, BEN], {}).game_id
    anna = player(services, "Anna")
    line = chat.say(services, game, 1, "you are a cheat").message_id
    first = reports.report(services, anna, line, "insult")
    assert reports.report(services, anna, line, "again") == first
    [listed] = reports.reports(services)
    assert (listed.game_id, listed.reporter, listed.writer, listed.text, listed.reason) == \
        (game, "anna", "ben", "you are a cheat", "insult")


def test_a_line_one_cannot_read_or_ones_own_cannot_be_reported(services):
    game = start_game(services, "trees", [ANNA, BEN, CLEO], {}).game_id
    anna, cleo = player(services, "Anna"), player(services, "Cleo")
    private = chat.say(services, game, 1, "psst", to_seat=2).message_id
    with pytest.raises(BadReport, match="no such chat line"):
        reports.report(services, anna, private, "")
    with pytest.raises(BadReport, match="no such chat line"):
        reports.report(services, anna, 9999, "")
    own = chat.say(services, game, 0, "hello").message_id
    with pytest.raises(BadReport, match="your own"):
        reports.report(services, anna, own, "")
    reports.report(services, cleo, private, "")
    assert len(reports.reports(services)) == 1
    assert count(services, ChatMessage) == 2
