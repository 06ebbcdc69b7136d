"""Where composed mail goes: an SMTP relay in production, a Maildir on a laptop (and in tests,
where an autouse fixture forbids real SMTP)."""
from __future__ import annotations

import mailbox
import os
import re
import smtplib
import ssl
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from . import pipelining


class SendFailed(Exception):
    """A send that may work if tried again later (connection refused, 4xx, timeout...)."""


class SendRefused(SendFailed):
    """The relay refused this message (a 5xx answer to its recipient or its data). Whose
    fault that is, the relay's answer says: `about_address` only for a refusal of the
    recipient with an RFC 3463 5.1.x code (no such mailbox, bad destination); any other 5xx
    (a 5.7.x policy refusal, "500 Error" without a code) may be the relay's own bad minute."""

    def __init__(self, text: str, *, recipient: bool = False, answer: str = ""):
        super().__init__(text)
        self.recipient = recipient
        self.enhanced = enhanced_code(answer)

    @property
    def about_address(self) -> bool:
        return self.recipient and self.enhanced is not None and self.enhanced.startswith("5.1.")


_ENHANCED = re.compile(r"^\s*([245]\.\d{1,3}\.\d{1,3})(?!\S)")


def enhanced_code(answer: str) -> str | None:
    """The RFC 3463 status code an SMTP answer's text starts with ("5.1.1 <x>: User
    unknown" -> "5.1.1"), or None."""
    match = _ENHANCED.match(answer)
    return match.group(1) if match else None


class RelayUnreachable(SendFailed):
    """No connection to the relay could be made (refused, timed out, TLS or login failed):
    the other emails of a batch are not tried until the next attempt."""


class Handover:
    """A message handed to the relay whose answer may still be on its way
    (SMTPTransport.hand_over): `answer()` gives the relay's words, the proof it took the
    message, or raises the SendFailed its answer means. `done`: the answer is in (reading it
    then waits for nothing)."""

    def __init__(self, collect: Callable[[Handover], None] | None = None):
        self._collect = collect
        self.done = False
        self._words = ""
        self._error: SendFailed | None = None

    @classmethod
    def answered(cls, words: str) -> Handover:
        handover = cls()
        handover.settle(words=words)
        return handover

    def settle(self, *, words: str = "", error: SendFailed | None = None) -> None:
        self._words, self._error, self.done = words, error, True

    def answer(self) -> str:
        if not self.done and self._collect is not None:
            self._collect(self)
        if self._error is not None:
            raise self._error
        return self._words


def hand_over(transport, msg: EmailMessage) -> Handover:
    """Give `msg` to the transport: SMTP's answer may follow while the caller composes the
    next message (SMTPTransport.hand_over); any other transport is done when it returns."""
    own = getattr(transport, "hand_over", None)
    if own is not None:
        return own(msg)
    return Handover.answered(transport.send(msg))


class MaildirTransport:
    name = "maildir"

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def send(self, msg: EmailMessage) -> str:
        """Write the message; returns its Maildir key."""
        try:
            # mailbox creates cur/new/tmp only for a folder it makes itself: an existing empty
            # folder (a fresh mount, a mkdtemp) needs them made here
            for sub in ("cur", "new", "tmp"):
                (self.path / sub).mkdir(parents=True, exist_ok=True)
            box = mailbox.Maildir(self.path, create=False)
            return box.add(msg.as_bytes())
        except OSError as exc:
            raise SendFailed(f"cannot write to {self.path}: {exc}") from exc

    def messages(self) -> list[tuple[str, bytes]]:
        """(key, raw bytes) oldest first: the dev outbox page and the tests read this."""
        if not (self.path / "cur").exists():
            return []
        box = mailbox.Maildir(self.path, create=False)
        items = []
        for key in box.keys():
            path = self.path / ("new" if (self.path / "new" / key).exists() else "cur") / key
            items.append((path.stat().st_mtime_ns, key, box.get_bytes(key)))
        return [(k, raw) for _, k, raw in sorted(items)]


class SMTPTransport:
    """The relay over SMTP. One connection per process, opened at the first send and kept for
    the next: a batch of emails (and the next batch, within `keepalive` seconds) goes out over
    it, instead of a new TCP (+ TLS + login) per email. It is closed after `keepalive` idle
    seconds, on any error that leaves its state unknown, and by `close()` (a worker's exit)."""

    name = "smtp"

    def __init__(self, host: str, port: int, security: str = "none", user: str = "",
                 password: str = "", timeout: float = 30.0, keepalive: float = 30.0):
        if security not in ("none", "starttls", "ssl"):
            raise ValueError(f"SMTP security must be none, starttls or ssl, not {security!r}")
        self.host, self.port, self.security = host, port, security
        self.user, self.password, self.timeout = user, password, timeout
        self.keepalive = keepalive
        self._kept: smtplib.SMTP | None = None
        self._pid = 0                   # the process that opened it (a fork's child must not share it)
        self._used = 0.0                # monotonic time of its last use
        self._lock = threading.Lock()   # one message at a time on the one connection
        self._closing = threading.Event()
        self._reaper: threading.Thread | None = None
        self._answers: list[tuple[int, bytes]] = []     # the relay's answers to DATA
        self._data_started = False
        # a message whose data went over and whose answer is not read yet (hand_over): it is
        # read before the line carries anything else
        self._owed: Handover | None = None

    def send(self, msg: EmailMessage) -> str:
        """Send; returns the relay's answer to the message data ("2.0.0 Ok: queued as
        4Xb1..."), the proof it was taken. Raises SendRefused on a permanent refusal of this
        message, RelayUnreachable when no connection could be made, SendFailed on anything
        else that may work later."""
        return self.hand_over(msg).answer()

    def hand_over(self, msg: EmailMessage) -> Handover:
        """`send`, without waiting for the relay's answer to the data where the relay
        pipelines: the relay reads the message in while the caller composes its next one
        (the relay's own time per message, otherwise waited for). What `send` raises before
        the data went over, this raises; the answer, and a failure after the data, come
        through the Handover."""
        # the envelope sender is the email's own bounce address (VERP), if it has one
        return_path = (msg["Return-Path"] or "").strip("<> ") or None
        del msg["Return-Path"]       # the receiving server writes its own
        with self._lock:
            self._collect_owed()
            for last in (False, True):
                reused = self._open_for_use()
                try:
                    return self._send(msg, return_path)
                except _LineDead as dead:
                    # a kept connection that died meanwhile (the relay's idle timeout, a
                    # restart) before this message went over: once more, on a new one
                    if not reused or last:
                        raise dead.failure from dead.failure.__cause__
        raise AssertionError("not reached")   # pragma: no cover

    def close(self) -> None:
        """Say goodbye to the relay now (a worker's shutdown, a benchmark's end)."""
        with self._lock:
            self._drop()
        self._closing.set()

    def _answer_of(self, handover: Handover) -> None:
        with self._lock:
            # an answer not read yet is the line's only owed one: anything that used the line
            # since read it first
            if handover is self._owed:
                self._collect_owed()
            if not handover.done:       # cannot happen; if it did, the message is tried again
                handover.settle(error=SendFailed("the relay's answer to it was never read"))

    def _collect_owed(self) -> None:
        """Read the relay's answer to the message handed over last, if not read yet."""
        owed, self._owed = self._owed, None
        if owed is None:
            return
        if self._pid != os.getpid():    # the parent's, inherited by fork: its line, not ours
            owed.settle(error=SendFailed("handed over by the parent process"))
            return
        conn = self._kept
        try:
            if conn is None:
                raise smtplib.SMTPServerDisconnected("the line closed before the relay answered")
            answer = pipelining.data_answer(conn)
        except (smtplib.SMTPException, OSError) as exc:
            owed.settle(error=self._failure(conn, exc))
            return
        self._used = time.monotonic()
        owed.settle(words=_words(answer[1]))

    # -- the kept connection -------------------------------------------------------------

    def _open_for_use(self) -> bool:
        """Make sure a connection is open; True when it is one kept from before."""
        if self._kept is not None and self._pid != os.getpid():
            self._kept = None           # the parent's, inherited by fork: leave it alone
        if self._kept is not None and time.monotonic() - self._used > self.keepalive:
            self._drop()                # idle too long (the reaper has not run yet)
        if self._kept is not None:
            return True
        try:
            conn = self._connect()
        except (smtplib.SMTPException, OSError) as exc:
            raise RelayUnreachable(f"{type(exc).__name__}: {exc}") from exc
        data = conn.data

        def kept_data(content):         # smtplib drops the relay's answer to DATA: keep it
            self._data_started = True
            answer = data(content)
            self._answers.append(answer)
            return answer

        conn.data = kept_data
        self._kept, self._pid, self._used = conn, os.getpid(), time.monotonic()
        self._watch()
        return False

    def _send(self, msg: EmailMessage, return_path: str | None) -> Handover:
        conn = self._kept
        self._answers, self._data_started = [], False
        try:
            conn.ehlo_or_helo_if_needed()
            # parts go as 8bit when they can (mailwire.outbound.htmllines): say so to a relay that
            # takes it (RFC 6152; smtplib would only for an international address), and
            # encode them for one that does not
            options = ("BODY=8BITMIME",) if conn.has_extn("8bitmime") else ()
            if not options:
                msg = seven_bit(msg)
            plain = pipelining.envelope(msg, return_path)
            if plain is not None and conn.has_extn("pipelining"):
                pipelining.hand_over(conn, msg, *plain, options, self._started)
                self._used = time.monotonic()
                self._owed = Handover(self._answer_of)
                return self._owed
            if plain is not None:
                # the same bytes as the pipelined path: send_message would write a line
                # that starts "From " as ">From " (pipelining.flatten says why not)
                conn.sendmail(*plain, pipelining.flatten(msg), options)
            else:
                # Bcc, Resent- or an address beyond ASCII: smtplib's own way (SMTPUTF8), whose
                # generator then follows the message's policy and leaves "From " lines be
                conn.send_message(msg, from_addr=return_path, mail_options=options)
        except (smtplib.SMTPException, OSError) as exc:
            failure = self._failure(conn, exc)
            if self._kept is conn:
                raise failure from exc          # refused, and the line goes on
            if self._answers and self._answers[-1][0] == 250:
                # taken; only what followed failed
                return Handover.answered(_words(self._answers[-1][1]))
            if not self._data_started:
                raise _LineDead(failure) from exc    # nothing of this message went over
            raise failure from exc
        self._used = time.monotonic()
        return Handover.answered(_words(self._answers[-1][1]) if self._answers else "")

    def _failure(self, conn: smtplib.SMTP | None, exc: Exception) -> SendFailed:
        """What an error on the line means for the message being sent (or whose answer was
        owed), the line dropped unless it can go on: it can after the relay answered 4xx/5xx,
        unless smtplib hung up on a 421 (the relay closing it, as on its idle timeout); after
        anything else its state is unknown and it is never used again."""
        if isinstance(exc, (smtplib.SMTPRecipientsRefused, smtplib.SMTPResponseException)):
            failure = _answered(exc)
            failure.__cause__ = exc
            self._used = time.monotonic()
            if conn is not None and conn.sock is not None:
                return failure
        else:
            failure = _failed(exc)
        self._drop()
        return failure

    def _started(self) -> None:
        self._data_started = True

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                    context=ssl.create_default_context())
        else:
            conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        try:
            if self.security == "starttls":
                conn.starttls(context=ssl.create_default_context())
            if self.user:
                conn.login(self.user, self.password)
        except BaseException:
            conn.close()
            raise
        return conn

    def _drop(self) -> None:
        if self._owed is not None:
            self._collect_owed()        # the relay's answer to the last message, before QUIT
        conn, self._kept = self._kept, None
        if conn is not None:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                conn.close()

    def _watch(self) -> None:
        """Close the connection once it has been idle for `keepalive` seconds."""
        self._closing.clear()
        if self._reaper is not None and self._reaper.is_alive():
            return
        self._reaper = threading.Thread(target=self._reap, daemon=True,
                                        name=f"smtp-keepalive-{self.host}:{self.port}")
        self._reaper.start()

    def _reap(self) -> None:
        while True:
            with self._lock:
                if self._kept is None or self._pid != os.getpid():
                    return
                left = self._used + self.keepalive - time.monotonic()
                if left <= 0:
                    self._drop()
                    return
            self._closing.wait(left)    # close() wakes it early


def seven_bit(msg: EmailMessage) -> EmailMessage:
    """The message with each 8bit text part quoted-printable instead, for a relay that does
    not take 8-bit data (RFC 6152); the same text once decoded."""
    for part in msg.walk():
        if not part.is_multipart() and part["Content-Transfer-Encoding"] == "8bit":
            part.set_content(part.get_content(), subtype=part.get_content_subtype(),
                             cte="quoted-printable")
    return msg


class _LineDead(Exception):
    """A kept connection failed before the message's data was sent: nothing was handed over."""

    def __init__(self, failure: SendFailed):
        super().__init__(str(failure))
        self.failure = failure


def _words(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, dict):
        return ", ".join(f"{a}: {c} {_words(m)}" for a, (c, m) in value.items())
    return str(value)


def _answered(exc: smtplib.SMTPException) -> SendFailed:
    """What the relay's 4xx/5xx answer means for the message: a 5xx to its recipient or its
    data refuses it for good; an answer about the sender or the session (a 5xx there would
    park every email) and any 4xx may pass later."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        text = f"recipient refused: {_words(exc.recipients)}"
        if codes and min(codes) >= 500:
            # our emails have one recipient each: its answer is the email's
            answers = [_words(m) for _, m in exc.recipients.values()]
            return SendRefused(text, recipient=True, answer=answers[0])
        return SendFailed(text)
    if isinstance(exc, smtplib.SMTPDataError):
        text = f"message refused: {exc.smtp_code} {_words(exc.smtp_error)}"
        if exc.smtp_code >= 500:
            return SendRefused(text, answer=_words(exc.smtp_error))
        return SendFailed(text)
    return _failed(exc)


def _failed(exc: Exception) -> SendFailed:
    failure = SendFailed(f"{type(exc).__name__}: {exc}")
    failure.__cause__ = exc
    return failure


def from_settings(cfg: dict):
    kind = cfg["TURNPOST_MAIL_TRANSPORT"]
    if kind == "maildir":
        return MaildirTransport(cfg["TURNPOST_MAILDIR"])
    if kind == "smtp":
        return SMTPTransport(cfg["TURNPOST_SMTP_HOST"], cfg["TURNPOST_SMTP_PORT"],
                             cfg["TURNPOST_SMTP_SECURITY"], cfg["TURNPOST_SMTP_USER"],
                             cfg["TURNPOST_SMTP_PASSWORD"], cfg["TURNPOST_SMTP_TIMEOUT"],
                             cfg["TURNPOST_SMTP_KEEPALIVE"])
    raise ValueError(f"TURNPOST_MAIL_TRANSPORT must be maildir or smtp, not {kind!r}")
