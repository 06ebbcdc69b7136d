"""The built-in SMTP receiver (Procfile ``inbound``): an MX for the reply addresses.

It only takes ``play+<token>@<TURNPOST_MAIL_DOMAIN>`` recipients (and the bounce addresses, and
the address our emails come From, which a client replying to From rather than Reply-To uses:
such a reply still answers one of our emails), stores each message with the
``accept`` it is given (the use case ``play.accept_mail``) and answers 250 only once the row is
committed. If storing fails it answers a temporary 451, so the sending MTA keeps the message and
retries: nothing is lost, and a message that arrives twice is stored once (Message-ID
de-duplication).

Run it with ``flask --app service.web inbound-smtp`` (Procfile ``inbound``).
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable

from aiosmtpd.smtp import SMTP

log = logging.getLogger(__name__)
Accept = Callable[[bytes], tuple[int, bool]]


class InboundHandler:
    """aiosmtpd handler: takes mail for the reply addresses of `domain` and hands the raw
    bytes to `accept` (which stores them and queues their processing)."""

    def __init__(self, accept: Accept, domain: str, sender: str | None = None) -> None:
        self.accept = accept
        self.domain = domain
        # reply addresses, the bounce addresses (VERP) that delivery reports come back to,
        # and our From address (processing finds the game by the email replied to, and acts
        # only when that is one of ours: service.play.mail.replies.find_target)
        local = re.escape(sender.partition("@")[0].lower()) if sender else None
        self._ours = re.compile(
            rf"^(play\+[a-z0-9]+|bounce\+[a-z0-9.]+{'|' + local if local else ''})"
            rf"@{re.escape(domain.strip().lower())}$")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        # Refusing here, not after DATA, means mail for anyone else never gets stored and the
        # sender learns at once that the address is wrong.
        if not self._ours.match(address.strip().lower()):
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = with_recipients(envelope.original_content or envelope.content, envelope.rcpt_tos)
        try:
            # accept_mail talks to the database: keep it off the event loop so one slow
            # commit does not stall every other connection.
            row_id, new = await asyncio.get_running_loop().run_in_executor(None, self.accept, raw)
        except Exception:  # noqa: BLE001 - any failure to store must become a retry, not a loss
            log.exception("could not store an inbound message; asked the sender to retry")
            return "451 4.3.0 try again later"
        log.info("inbound message stored as %s%s", row_id, "" if new else " (duplicate)")
        # A duplicate also gets 250: we have it already, the sender must stop retrying.
        return "250 OK"


def with_recipients(raw: bytes, rcpt_tos: list[str]) -> bytes:
    """Prepend an X-Original-To header per envelope recipient, as Postfix does on delivery.

    When the reply address was a Bcc, or the message was forwarded, the play+ address is in the
    envelope only; the parser reads X-Original-To, so processing can still find the token.
    The same envelope gives the same bytes, so a retried delivery still de-duplicates.
    """
    first_line = raw.split(b"\n", 1)[0]
    eol = b"\r\n" if first_line.endswith(b"\r") else b"\n"   # keep the message's line ends
    return b"".join(b"X-Original-To: " + r.encode("utf-8", "replace") + eol
                    for r in rcpt_tos) + raw


def server_options(max_bytes: int) -> dict:
    """Keyword arguments for aiosmtpd's ``SMTP`` (and its ``Controller``)."""
    return {"data_size_limit": int(max_bytes),  # over it: 552
            "enable_SMTPUTF8": True, "ident": "Turnpost inbound"}


async def serve(handler: InboundHandler, host: str, port: int, max_bytes: int) -> None:
    options = server_options(max_bytes)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, **options), host, port)
    log.info("inbound SMTP receiver listening on %s:%s for play+…@%s", host, port,
             handler.domain)
    async with server:
        await server.serve_forever()


def run(handler: InboundHandler, host: str, port: int, max_bytes: int) -> None:
    """Serve until interrupted."""
    # aiosmtpd logs every SMTP command at INFO; we log each stored message ourselves
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    try:
        asyncio.run(serve(handler, host, port, max_bytes))
    except KeyboardInterrupt:
        log.info("inbound SMTP receiver stopped")
