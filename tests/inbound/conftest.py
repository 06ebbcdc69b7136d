"""Fixtures for the intake paths. Processing is not ours to test here: the processing kick is
replaced by a recorder, and the tests look at the stored InboundMessage rows."""
from __future__ import annotations

import types
from email import policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from service.store.models import InboundMessage

DOMAIN = "turnpost.test"
REPLY_TO = f"play+abc234xyz@{DOMAIN}"


@pytest.fixture
def kicked(monkeypatch):
    """Row ids whose processing was kicked; nothing is processed."""
    import workers.tasks
    calls: list[int] = []
    # the module attribute, not the task's: the task is a proxy to whichever Celery app the
    # latest create_app made, and accept_mail looks the name up on each call
    monkeypatch.setattr(workers.tasks, "process_inbound", types.SimpleNamespace(delay=calls.append))
    return calls


def message(message_id: str | None = "<reply-1@example.org>", *, to: str = REPLY_TO,
            body: str = "sell sailor\n", size: int = 0) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Anna <anna@example.org>"
    msg["To"] = to
    msg["Subject"] = "Re: your turn"
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content(body + ("x" * 76 + "\n") * (size // 77))
    return msg.as_bytes(policy=policy.SMTP)     # CRLF line ends, as on the wire


def stored(app) -> list[InboundMessage]:
    with app.extensions["turnpost.db"].transaction() as session:
        rows = list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))
        session.expunge_all()
        return rows
