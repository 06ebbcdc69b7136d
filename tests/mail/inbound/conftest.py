"""Fixtures for the intake paths. Processing is not ours to test here: the processing kick is
replaced by a recorder, and the tests look at the stored InboundMessage rows."""
from __future__ import annotations

from email import policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from service.play import Services
from service.store.models import InboundMessage

DOMAIN = "turnpost.test"
REPLY_TO = f"play+abc234xyz@{DOMAIN}"


@pytest.fixture
def kicked(monkeypatch):
    """Row ids whose processing was kicked; nothing is processed (in any app of the test)."""
    calls: list[int] = []

    def kick(self, job, *args):
        if job == "process_inbound":
            calls.append(args[0])

    monkeypatch.setattr(Services, "kick", kick)
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
    with app.extensions["turnpost"].db.transaction() as session:
        rows = list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))
        session.expunge_all()
        return rows
