"""A process finishes its own background work before it exits (issue 49, item 1). The
README's `flask start-game` and `flask move` on the embedded default exited while their email
was being sent: `RuntimeError: cannot schedule new futures after interpreter shutdown`, the
outbox row left `sending`, and the row composed and sent again when its claim lapsed. Run as
the README runs them, as processes of their own, then an hour later a sweep: every email is in
the Maildir exactly once."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import select

from config import Settings
from service import play
from service.mailwire.outbound.transports import MaildirTransport
from service.play import from_settings, notify
from service.play.clock import ManualClock
from service.store.models import OutboxRow
from tests import conftest

ROOT = Path(__file__).resolve().parents[2]


def flask(db_url: str, maildir: Path, *args: str) -> subprocess.CompletedProcess:
    """`flask --app service.web ARGS` on the embedded default: background work in a thread
    of the process (TURNPOST_BACKGROUND=thread, the default), mail to the Maildir."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNPOST_")}
    env |= {"TURNPOST_DATABASE_URL": db_url, "TURNPOST_MAILDIR": str(maildir),
            "TURNPOST_BASE_URL": "http://turnpost.test", "TURNPOST_MAIL_DOMAIN": "turnpost.test"}
    run = subprocess.run([sys.executable, "-m", "flask", "--app", "service.web", *args],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "RuntimeError" not in run.stderr, run.stderr
    return run


def rows(svc) -> list[OutboxRow]:
    with svc.db.transaction() as s:
        return list(s.scalars(select(OutboxRow).order_by(OutboxRow.id)))


def test_cli_start_game_and_move_then_a_sweep_an_hour_later_send_each_email_once(db_url,
                                                                                 tmp_path):
    maildir = tmp_path / "outbox"
    started = flask(db_url, maildir, "start-game", "trees", "anna@example.org",
                    "ben@example.org")
    assert "started trees game 1" in started.stdout
    flask(db_url, maildir, "move", "1", "0", "say", "good luck")

    # every row the processes queued went out before they exited
    cfg = Settings().as_flask() | conftest.test_settings(db_url, tmp_path)
    svc = from_settings(cfg, clock=ManualClock(datetime.now(timezone.utc) + timedelta(hours=1)),
                        chance=random.Random(1))
    try:
        queued = rows(svc)
        assert len(queued) >= 2
        assert {r.status for r in queued} == {"sent"}
        play.timers(svc)                    # an hour later, what beat or `make run` would do
        play.sweep(svc)
        sent = MaildirTransport(maildir).messages()
        ids = Counter(notify.row_message_id(_message_id(raw)) for _, raw in sent)
        assert ids == Counter({r.message_id: 1 for r in rows(svc)})
    finally:
        svc.dispose()


def _message_id(raw: bytes) -> str:
    line = next(h for h in raw.split(b"\r\n\r\n", 1)[0].splitlines()
                if h.lower().startswith(b"message-id:"))
    return line.split(b"<", 1)[1].split(b"@", 1)[0].decode()
