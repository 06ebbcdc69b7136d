"""The reply a mail client would send to an email of the dev outbox: what the outbox's "Reply"
form hands to the intake, so a reply tried in development takes the path of real mail."""
from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr


def reply_address(original: EmailMessage) -> str:
    """Where a client sends the reply: the Reply-To (the seat's play+ address), else From."""
    return str(original["Reply-To"] or original["From"] or "")


def compose(original: EmailMessage, text: str, now: datetime) -> bytes:
    """An RFC 5322 reply to `original` from its recipient, threaded to it (In-Reply-To,
    References), with `text` above the quoted original as a client writes it."""
    sender = str(original["To"] or "")
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = reply_address(original)
    subject = str(original["Subject"] or "")
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Date"] = format_datetime(now)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    reply["Message-ID"] = make_msgid("dev-reply", domain=domain)
    parent = str(original["Message-ID"] or "").strip()
    if parent:
        reply["In-Reply-To"] = parent
        reply["References"] = " ".join(
            part for part in (str(original["References"] or "").strip(), parent) if part)
    body = original.get_body(("plain",))
    quoted = "\n".join("> " + line if line else ">"
                       for line in (body.get_content() if body else "").splitlines())
    reply.set_content(f"{text.strip()}\n\nOn {original['Date']}, {original['From']} wrote:\n"
                      f"{quoted}\n")
    return reply.as_bytes()
