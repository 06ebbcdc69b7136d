"""Replies have a Celery queue of their own (`inbound`), so that a reply is not stuck behind the
thousands of emails a fan-out queues: process_inbound and its retries go there, and the worker
as every start-up command here runs it (the Procfile, the fault harness, the benches) consumes
it beside the default queue."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import redis
from sqlalchemy import select

from service import play
from service.store.models import InboundMessage
from workers.celery_app import INBOUND_QUEUE

from ..replies.test_replies import ADDRS, mover, reply_to
from ..web.helpers import move_links, start_game
from .test_worker import redis_url, start_worker, wait_for  # noqa: F401 - a fixture

ROOT = Path(__file__).resolve().parents[2]
TASK = "workers.tasks.process_inbound"


def queue_of(celery_app, name: str, options: dict | None = None) -> str:
    return celery_app.amqp.router.route(dict(options or {}), name, (1,), {})["queue"].name


def test_a_reply_is_routed_to_the_inbound_queue_and_everything_else_is_not(app):
    celery_app = app.extensions["celery"]
    assert queue_of(celery_app, TASK) == INBOUND_QUEUE == "inbound"
    for other in ("deliver_outbox", "sweep_outbox", "sweep_timers", "sweep_shard",
                  "move_bots", "advance_tournament"):
        assert queue_of(celery_app, f"workers.tasks.{other}") == "celery"


def test_the_retry_of_a_reply_goes_back_to_the_inbound_queue(app):
    """Celery's retry publishes the task again from its request: with what Redis says it was
    delivered from, or with nothing (a task run from elsewhere)."""
    celery_app = app.extensions["celery"]
    task = celery_app.tasks[TASK]
    for delivered in ({"exchange": "inbound", "routing_key": "inbound", "priority": 0,
                       "redelivered": False}, {}):
        task.push_request(args=(7,), kwargs={}, id="a-reply", delivery_info=delivered)
        try:
            again = task.signature_from_request()
        finally:
            task.pop_request()
        assert queue_of(celery_app, TASK, again.options) == "inbound"


def test_each_queue_is_bound_by_its_own_name_so_a_task_reaches_one(app):
    queues = app.extensions["celery"].amqp.queues
    assert set(queues) == {"celery", "inbound"}
    assert {(q.exchange.name, q.routing_key) for q in queues.values()} == \
        {("celery", "celery"), ("inbound", "inbound")}


def test_no_worker_command_here_leaves_the_inbound_queue_out():
    """A worker consumes every queue of task_queues unless told which (-Q): none of the
    commands that start one here may name queues, or the replies would wait for ever."""
    starters = ["Procfile", "Makefile", "tools/faults.py", ".ci/prod_smoke.py",
                "bench/scale/stack.py", "bench/pg_bench.py", "bench/sweep_shards.py",
                "tests/workers/test_worker.py"]
    for path in starters:
        words = (ROOT / path).read_text()
        assert "--queues" not in words and "-Q" not in words, path


def procfile_worker() -> list[str]:
    line = next(ln for ln in (ROOT / "Procfile").read_text().splitlines()
                if ln.startswith("worker:"))
    command = shlex.split(line.partition(":")[2])
    assert command[0] == "celery"
    return [sys.executable, "-m", *command]


def test_the_procfiles_worker_applies_a_reply_kicked_to_the_inbound_queue(
        redis_url, pg_migrated, tmp_path, app_factory):  # noqa: F811 - the fixture
    maildir = tmp_path / "worker-outbox"
    # the Procfile's own command, in one process (solo) to keep the test light
    worker = start_worker(pg_migrated, redis_url, maildir,
                          command=[*procfile_worker(), "--pool=solo"])
    try:
        app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                          TURNPOST_MAILDIR=str(maildir))
        svc = app.extensions["turnpost"]
        start_game(app, "trees", ADDRS)
        assert wait_for(lambda: len(svc.transport.messages()) == 2), "the worker sent nothing"
        _, ours = mover(app)
        broker = redis.Redis.from_url(redis_url)
        with app.app_context():
            row_id, new = play.accept_mail(svc, reply_to(ours, move_links(ours)[0][0]), "smtp")
        assert new

        def status() -> str:
            with svc.db.transaction() as s:
                return s.scalar(select(InboundMessage.status)
                                .where(InboundMessage.id == row_id))
        assert wait_for(lambda: status() == "applied"), status()
        assert broker.llen("inbound") == 0
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert "process_inbound" in out
    assert "inbound" in out            # the worker's banner lists the queues it consumes
