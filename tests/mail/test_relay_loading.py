"""The relay loads GROUP rows at a time (issue 15's fan-out): six statements for the group
whatever its size, and each row's email exactly as when it is loaded alone, its own news
included, when several rows of one game at different positions share a group."""
from __future__ import annotations

import random

from sqlalchemy import select

from service import play
from service.play import repository
from service.play.mail import relay
from service.store.models import GameRow, Note, OutboxRow, Snapshot
from tests.mail.test_relay_fanout import LINK, queued
from tests.play.moves.test_costs import next_move, statements


def reads(seen: list[str]) -> list[str]:
    """The SELECTs among the statements sent (a transaction's BEGIN and COMMIT aside)."""
    return [sql for sql in seen if sql.lstrip().upper().startswith(("SELECT", "WITH"))]


def load(svc, row_ids: list[int]) -> dict:
    svc.states.clear()          # as a worker that has never seen these games
    return relay._Sending(svc, "t", probe=False)._load(row_ids)


def test_a_group_is_loaded_in_four_statements_whatever_its_size(services):
    ids = queued(services, 5)           # five games, two seats mailed each
    assert len(ids) == relay.GROUP == 10
    with statements(services) as one:
        drafts = load(services, ids[:1])
    with statements(services) as ten:
        drafts |= load(services, ids)
    # the rows with their news' start, the games, the news, and the readers' games waiting
    # elsewhere (issue 50). Whether a reader's address bounced is in their seat's record, and
    # whether any note is kept on a game in the game's (issue 53: a statement each before)
    assert len(reads(one)) == len(reads(ten)) == 4, ten
    assert all(callable(drafts[i][0]) for i in ids)
    # a note kept on one of the group's games: its notes are read, and only then
    with services.db.transaction() as s:
        row = s.get(OutboxRow, ids[0])
        holder = next(x.player_id for x in s.get(GameRow, row.game_id).seats
                      if x.seat == row.seat)
        s.add(Note(game_id=row.game_id, seat=row.seat, player_id=holder, text="mind the Mill",
                   created_at=services.clock.now()))
    with statements(services) as noted:
        drafts = load(services, ids)
    assert len(reads(noted)) == 5, noted
    assert "mind the Mill" in drafts[ids[0]][0]().get_body(("plain",)).get_content()


def test_games_far_into_play_are_loaded_in_five_statements_whatever_their_length(
        services, monkeypatch):
    """Games far into play, a snapshot behind each and each seat's news starting after it:
    the group reads the snapshots it needs in one statement, and the events from each
    snapshot on with the news, so the emails fold and read nothing more (issue 53: two
    statements a game before); each email is the one its row loads alone."""
    monkeypatch.setattr(repository, "SNAPSHOT_EVERY", 3)    # a snapshot every few events
    ids = queued(services, 5)
    with services.db.transaction() as s:
        game_ids = sorted({s.get(OutboxRow, i).game_id for i in ids})
    rng = random.Random(11)
    for game_id in game_ids:
        for _ in range(6):
            _, seat, move = next_move(services, game_id, rng)
            play.submit(services, play.Intent(game_id, seat, source="email",
                                              whole_turn=True, moves=[move]))
    with services.db.transaction() as s:
        latest = {}
        for row_id, game_id, seat in s.execute(
                select(OutboxRow.id, OutboxRow.game_id, OutboxRow.seat)
                .where(OutboxRow.game_id.in_(game_ids)).order_by(OutboxRow.id)):
            latest[game_id, seat] = row_id
        snapshotted = set(s.scalars(select(Snapshot.game_id)
                                    .where(Snapshot.game_id.in_(game_ids))))
    assert snapshotted == set(game_ids), "each game has a snapshot to start from"
    group = sorted(latest.values())
    assert len(group) == relay.GROUP
    with statements(services) as seen:
        together = load(services, group)
    # the rows, the games, the snapshots, the events with the news, the readers' desks
    assert len(reads(seen)) == 5, "\n\n".join(s[:300] for s in reads(seen))
    for row_id in group:
        alone = load(services, [row_id])[row_id]
        assert _parts(together[row_id][0]()) == _parts(alone[0]()), row_id


def _parts(msg) -> tuple[str, ...]:
    """What an email says, links aside: each is signed with the time of signing, and each
    move link carries a fresh nonce (its idempotency key)."""
    return tuple(LINK.sub("LINK", text) for text in (
        msg["Subject"], msg.get_body(("plain",)).get_content(),
        msg.get_body(("html",)).get_content()))


def test_rows_of_one_game_at_different_positions_each_tell_their_own_news(services):
    """Moves made while nothing is sent leave one game several turn emails, each at its own
    position with its own news (since that seat's previous turn email): loaded in one group
    (one read of the game's events), each is the email it is when loaded alone."""
    game_id = play.start_game(services, "trees", ["anna@example.org", "ben@example.org"],
                              {}).game_id
    rng = random.Random(3)
    for _ in range(4):
        _, seat, move = next_move(services, game_id, rng)
        play.submit(services, play.Intent(game_id, seat, source="email", whole_turn=True,
                                          moves=[move]))
    with services.db.transaction() as s:
        rows = s.execute(select(OutboxRow.id, OutboxRow.seq).where(
            OutboxRow.game_id == game_id).order_by(OutboxRow.id)).all()
    ids = [row_id for row_id, _ in rows]
    assert len({seq for _, seq in rows}) >= 3, "the rows show different positions"
    together = load(services, ids)
    for row_id in ids:
        alone = load(services, [row_id])[row_id]
        assert _parts(together[row_id][0]()) == _parts(alone[0]()), row_id
        assert together[row_id][1] == alone[1]          # the bounce address


def test_a_row_whose_game_went_missing_fails_alone(services, monkeypatch):
    """A row the group cannot find its game for is that row's failure (it retries); the
    group's other rows load as ever."""
    ids = queued(services, 2)
    real = relay.records.read_many
    with services.db.transaction() as s:
        lost = s.get(OutboxRow, ids[0]).game_id
    monkeypatch.setattr(relay.records, "read_many",
                        lambda session, game_ids: {k: v for k, v in real(session, game_ids).items()
                                                   if k != lost})
    monkeypatch.setattr(relay.records, "read_one", lambda session, game_id, **_: None)
    drafts = load(services, ids)
    with services.db.transaction() as s:
        lost_rows = [i for i in ids if s.get(OutboxRow, i).game_id == lost]
    assert lost_rows and all(isinstance(drafts[i], Exception) for i in lost_rows)
    assert all(callable(drafts[i][0]) for i in ids if i not in lost_rows)
