"""Blocks: the blocker takes no invitation from the blocked player (nor the other way), no
open seat at their table, and does not see or get mailed their chat (others still do).
Reports: a chat line its reader reports is listed for the operators, once per reporter; a
line one cannot read, or one's own, cannot be reported."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.play.community import BadReport, reports
from service.play.moves import chat
from service.play.players import BadBlock, BadInvitation, blocks, invitations, start_game
from service.store.models import ChatMessage, GameRow, Invitation, OutboxRow

from .helpers import player

ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"


def count(svc, model, *where):
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def read(svc, game_id, seat):
    with svc.db.transaction() as s:
        return [m.text for m in chat.messages(s, game_id, seat)]


def test_a_blocked_player_cannot_invite_the_blocker_and_nothing_is_made(services):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    blocks.block(services, ben, anna)
    with pytest.raises(BadInvitation, match="cannot be invited by you"):
        invitations.create_game(services, anna, "trees", [BEN])
    # nor the blocker the one they blocked: they are kept apart both ways
    with pytest.raises(BadInvitation, match="cannot be invited by you"):
        invitations.create_game(services, ben, "trees", [ANNA])
    assert count(services, GameRow) == 0
    blocks.unblock(services, ben, anna)
    invitations.create_game(services, anna, "trees", [BEN])


def test_a_declined_seat_is_not_given_to_a_blocker(services):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    player(services, "Cleo")
    formed = invitations.create_game(services, anna, "trees", [CLEO])
    with services.db.transaction() as s:        # Cleo declined
        inv = s.scalars(select(Invitation).where(Invitation.email == CLEO)).one()
        inv.status = "declined"
    blocks.block(services, ben, anna)
    with pytest.raises(BadInvitation, match="cannot be invited"):
        invitations.refill(services, anna, formed.game_id, 1, BEN)


def test_a_blocked_player_cannot_take_an_open_seat_at_the_blockers_table(services):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    formed = invitations.create_game(services, anna, "trees", [], open_seats=1)
    blocks.block(services, anna, ben)
    with pytest.raises(BadInvitation, match="blocked"):
        invitations.join_open_seat(services, ben, formed.game_id)
    with services.db.transaction() as s:
        assert s.get(GameRow, formed.game_id).status == "forming"


def test_the_blocked_players_chat_is_hidden_from_the_blocker_only(services):
    game = start_game(services, "trees", [ANNA, BEN, CLEO], {}).game_id
    anna, ben = player(services, "Anna"), player(services, "Ben")
    chat.say(services, game, 1, "from ben")
    chat.say(services, game, 2, "from cleo")
    blocks.block(services, anna, ben)
    chat.say(services, game, 1, "more from ben")
    assert read(services, game, 0) == ["from cleo"]
    assert read(services, game, 2) == ["from ben", "from cleo", "more from ben"]
    assert read(services, game, None) == ["from ben", "from cleo", "more from ben"]
    # and nobody mails Anna Ben's line after the block
    with services.db.transaction() as s:
        mailed = [r.payload["said"]["text"] for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "message", OutboxRow.to_addr == ANNA))]
    assert mailed == ["from ben", "from cleo"]


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
