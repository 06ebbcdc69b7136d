"""A worker's claim takes the rows it was asked for first, then lapsed claims, then the rows
due longest, up to its batch (relay.claim_batch); and on PostgreSQL it reads only as far as
that batch whatever the backlog, even where the table's statistics say nothing is due, as
they do on a server whose outbox is mostly sent mail (issue 53: a claim read the whole
backlog once for each row it took, 60-70 ms of the database's CPU with 10,000 emails due).
Budget: under 5 s."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select, text, update

from service.play.mail import relay
from service.store.models import OutboxRow
from tests.mail.test_relay_fanout import queued


def due_ids(services) -> list[int]:
    with services.db.transaction() as s:
        return list(s.scalars(select(OutboxRow.id).order_by(OutboxRow.id)))


def test_the_rows_asked_for_come_first_then_lapsed_claims_then_those_due_longest(services):
    ids = queued(services, 4)                     # eight rows, all due
    now = services.clock.now()
    with services.db.transaction() as s:
        # two due longest (an hour and half an hour behind the rest), one whose worker's
        # claim lapsed, one sent already
        for row_id, behind in ((ids[5], 60), (ids[1], 30)):
            s.execute(update(OutboxRow).where(OutboxRow.id == row_id)
                      .values(next_try=now - timedelta(minutes=behind)))
        s.execute(update(OutboxRow).where(OutboxRow.id == ids[6])
                  .values(status="sending", claim="dead worker",
                          claimed_at=now - relay.CLAIM_TIMEOUT - timedelta(seconds=1)))
        s.execute(update(OutboxRow).where(OutboxRow.id == ids[0]).values(status="sent"))
    with services.db.transaction() as s:
        got = relay.claim_batch(s, [ids[3], ids[0]], now, "mine", fill=2)
    # asked for: ids[3] (ids[0] went already), then the lapsed claim and the two due longest
    assert got[0] == ids[3] and set(got[1:]) == {ids[6], ids[5], ids[1]}, got
    with services.db.transaction() as s:
        claims = dict(s.execute(select(OutboxRow.id, OutboxRow.claim)
                                .where(OutboxRow.id.in_(ids))).all())
    assert {i for i, c in claims.items() if c == "mine"} == set(got)


def outbox_scans(plan: dict) -> list[tuple[str, int]]:
    """Each plan node that read the outbox: its kind and the rows it produced, all loops."""
    found = []
    node = plan.get("Plan", plan)
    if node.get("Relation Name") == "outbox" and "Scan" in node["Node Type"]:
        found.append((node.get("Index Name", node["Node Type"]),
                      node["Actual Rows"] * node["Actual Loops"]))
    for child in node.get("Plans", []):
        found += outbox_scans(child)
    return found


def test_a_claim_reads_only_as_far_as_its_batch_whatever_the_statistics_say(services):
    if services.db.engine.dialect.name != "postgresql":
        pytest.skip("the plans are PostgreSQL's")
    ids = queued(services, 30)                    # sixty rows
    with services.db.transaction() as s:
        # the statistics of a server whose outbox is sent mail: none pending, then a backlog
        s.execute(update(OutboxRow).values(status="sent"))
        s.execute(text("ANALYZE outbox"))
        s.execute(update(OutboxRow).values(status="pending"))
    for asked in (ids[:2], []):             # a task's own rows; the sweep's claim of none
        plan, got = explained_claim(services, asked, fill=8)
        assert got[:len(asked)] == asked and len(got) == len(asked) + 8
        scans = outbox_scans(plan)
        # each read of the outbox at most the batch and the rows asked for, of a backlog of 60
        assert scans and all(rows <= 10 + 2 for _, rows in scans), (asked, scans)


def explained_claim(services, asked: list[int], fill: int) -> tuple[dict, list[int]]:
    """A claim's plan as PostgreSQL ran it (auto_explain, with the rows each node read) and
    what it claimed, in a transaction rolled back."""
    notices: list[str] = []
    session = services.db.session()
    try:
        session.begin()
        conn = session.connection()
        conn.connection.dbapi_connection.add_notice_handler(
            lambda diag: notices.append(diag.message_primary))
        # a server's outbox is millions of rows, which the planner reads by its indexes; these
        # sixty it would read whole, whatever it guessed of them
        for setting in ("SET LOCAL enable_seqscan = off", "LOAD 'auto_explain'",
                        "SET LOCAL auto_explain.log_min_duration = 0",
                        "SET LOCAL auto_explain.log_analyze = on",
                        "SET LOCAL auto_explain.log_format = json",
                        "SET LOCAL auto_explain.log_level = notice",
                        "SET LOCAL client_min_messages = notice"):
            conn.exec_driver_sql(setting)
        got = relay.claim_batch(session, asked, services.clock.now(), "mine", fill=fill)
    finally:
        session.rollback()
        session.close()
    (plan,) = [json.loads(n[n.index("{"):]) for n in notices if '"Plan"' in n]
    return plan, got
