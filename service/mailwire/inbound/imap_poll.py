"""Inbound mail by IMAP polling, for a setup with only a mailbox somewhere (no MX, no webhook).

Each poll reads the oldest UNSEEN messages of one folder (``BODY.PEEK[]`` leaves them unseen),
stores each with ``accept``, and only then marks it ``\\Seen``. A crash between the two reads
the message again next time; the Message-ID de-duplication makes that harmless. So: use a
mailbox nobody reads by hand, or a person marking mail as read would hide it from us.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from imapclient import IMAPClient

log = logging.getLogger(__name__)

SEEN = b"\\Seen"
FLAGGED = b"\\Flagged"
#: Messages per poll: a backlog drains over several polls instead of one endless task.
BATCH = 50


@dataclass(frozen=True)
class Account:
    host: str
    user: str
    password: str
    port: int = 0               # 0: the standard port, 993 with SSL, 143 without
    folder: str = "INBOX"
    ssl: bool = True
    max_bytes: int = 10 * 1024 * 1024
    timeout: float = 30.0

    @classmethod
    def from_config(cls, config: Mapping) -> Account:
        return cls(host=config["TURNPOST_IMAP_HOST"], user=config["TURNPOST_IMAP_USER"],
                   password=config["TURNPOST_IMAP_PASSWORD"],
                   port=int(config["TURNPOST_IMAP_PORT"] or 0),
                   folder=config["TURNPOST_IMAP_FOLDER"] or "INBOX",
                   ssl=bool(config["TURNPOST_IMAP_SSL"]),
                   max_bytes=int(config["TURNPOST_INBOUND_MAX_BYTES"]))


@dataclass
class PollResult:
    seen: int = 0          # unseen messages in the folder when we looked
    stored: int = 0        # new rows
    duplicates: int = 0    # already stored (an earlier poll crashed before marking \Seen)
    oversize: int = 0      # left in the mailbox, flagged for an operator
    failed: int = 0        # not stored; still unseen, so the next poll tries again


def poll(account: Account, accept: Callable[[bytes], tuple[int, bool]],
         batch: int = BATCH) -> PollResult:
    result = PollResult()
    port = account.port or (993 if account.ssl else 143)
    client = IMAPClient(account.host, port=port, ssl=account.ssl, timeout=account.timeout)
    try:
        client.login(account.user, account.password)
        client.select_folder(account.folder)
        uids = sorted(client.search(["UNSEEN"]))
        result.seen = len(uids)
        uids = uids[:batch]
        sizes = client.fetch(uids, ["RFC822.SIZE"]) if uids else {}
        for uid in uids:
            size = sizes.get(uid, {}).get(b"RFC822.SIZE", 0)
            if size > account.max_bytes:
                # Same limit as the SMTP receiver. Marking it \Seen stops refetching it on every
                # poll; \Flagged and the log tell an operator it is there, unread by us.
                log.warning("IMAP message %s is %s bytes, over the limit; flagged, not stored",
                            uid, size)
                client.add_flags([uid], [SEEN, FLAGGED])
                result.oversize += 1
                continue
            # one at a time: a batch of large messages would otherwise sit in memory at once
            raw = client.fetch([uid], ["BODY.PEEK[]"]).get(uid, {}).get(b"BODY[]")
            if raw is None:
                continue        # expunged by someone else since the search
            try:
                _, new = accept(raw)
            except Exception:  # noqa: BLE001 - most likely the database is down: stop, retry later
                log.exception("could not store IMAP message %s; it stays unseen", uid)
                result.failed += 1
                break
            client.add_flags([uid], [SEEN])
            if new:
                result.stored += 1
            else:
                result.duplicates += 1
    finally:
        try:
            client.logout()
        except Exception:  # noqa: BLE001 - the connection may already be gone
            log.debug("IMAP logout failed", exc_info=True)
    return result
