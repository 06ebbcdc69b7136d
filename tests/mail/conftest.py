"""Fixtures of the mail tests."""
from __future__ import annotations

import smtplib

import pytest


@pytest.fixture
def writes(monkeypatch):
    """What the client wrote to the relay, one entry per write (pipelining: how many round
    trips a message took)."""
    seen: list[bytes] = []
    real = smtplib.SMTP.send

    def send(conn, data):
        seen.append(data if isinstance(data, bytes) else data.encode("ascii"))
        return real(conn, data)

    monkeypatch.setattr(smtplib.SMTP, "send", send)
    return seen
