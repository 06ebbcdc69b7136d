"""kill -9 inside a fast batch (issue 40): each email is marked sent in its own commit as soon
as the relay's answer to it is in, before the next goes over, so a worker killed at any moment
sends again (composed anew, when its claims lapse: `tp.x.2`, counted as row `tp.x`'s) at
most the one email in flight.

The worker is a child process sending a batch to a local relay; the relay itself kills it
with SIGKILL at a chosen moment of a chosen email, as an operator's kill -9 would land."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from service import play
from service.mailwire.outbound.transports import SMTPTransport
from tests.mail.test_relay_fanout import Sink, message_ids, queued, relay_at, rows

ROOT = Path(__file__).resolve().parents[2]

WORKER = textwrap.dedent("""
    import random, sys
    from pathlib import Path
    from config import Settings
    from service.play.clock import ManualClock
    from service.mailwire.outbound.transports import SMTPTransport
    from service.play import deliver, from_settings
    from tests.conftest import T0, test_settings

    db_url, tmp, port, *ids = sys.argv[1:]
    cfg = Settings().as_flask() | test_settings(db_url, Path(tmp))
    svc = from_settings(cfg, clock=ManualClock(T0), chance=random.Random(1))
    svc.transport = SMTPTransport("127.0.0.1", int(port))
    deliver(svc, [int(i) for i in ids])
    print("finished without being killed", flush=True)
""")


class Killing(Sink):
    """A relay that kills the sending worker with SIGKILL when the Nth message comes: at its
    MAIL FROM (the one before it answered and maybe marked) or at its data (taken in full,
    not yet answered)."""

    def __init__(self, pipelining: bool, at: int, moment: str):
        super().__init__(pipelining)
        self.at, self.moment, self.worker = at, moment, None

    def _kill(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            os.kill(self.worker.pid, signal.SIGKILL)   # it is waiting for our answer

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.moment == "mail" and self.mails + 1 == self.at:
            await asyncio.get_running_loop().run_in_executor(None, self._kill)
        return await super().handle_MAIL(server, session, envelope, address, mail_options)

    async def handle_DATA(self, server, session, envelope):
        answer = await super().handle_DATA(server, session, envelope)
        if self.moment == "data" and len(self.messages) == self.at:
            await asyncio.get_running_loop().run_in_executor(None, self._kill)
        return answer


@pytest.mark.parametrize("pipelining", [False, True], ids=["one at a time", "pipelined"])
@pytest.mark.parametrize("moment", ["mail", "data"])
def test_a_worker_killed_mid_batch_sends_at_most_the_one_email_in_flight_again(
        services, db_url, tmp_path, pipelining, moment):
    ids = queued(services, 10)              # 20 emails in one batch
    handler = Killing(pipelining, at=12, moment=moment)
    with relay_at(handler) as controller:
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, db_url, str(tmp_path), str(controller.port),
             *map(str, ids)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        handler.worker = worker
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == -signal.SIGKILL, (out, err)
        taken_before = len(handler.messages)
        assert taken_before >= 11

        # the worker's claims lapse; the sweep sends what was not marked sent
        services.clock.advance(seconds=61)
        services.transport = SMTPTransport("127.0.0.1", controller.port)
        try:
            play.sweep(services)
        finally:
            services.transport.close()

    assert set(rows(services, ids).values()) <= {("sent", 0)}
    sent = Counter(handler.message_ids())
    assert set(sent) == set(message_ids(services, ids).values())     # none lost
    doubled = [m for m, n in sent.items() if n > 1]
    assert len(doubled) <= 1, f"{len(doubled)} emails sent twice: {doubled}"
