"""Where composed mail goes: an SMTP relay in production, a Maildir on a laptop (and in tests,
where an autouse fixture forbids real SMTP)."""
from __future__ import annotations

import mailbox
import smtplib
import ssl
import threading
import time
from email.message import EmailMessage
from pathlib import Path


class SendFailed(Exception):
    """A send that may work if tried again later (connection refused, 4xx, timeout...)."""


class SendRefused(SendFailed):
    """The relay refused this message for good (a 5xx answer to its recipient or its data):
    trying again cannot help."""


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

    def send_many(self, msgs: list[EmailMessage]) -> list[Exception | None]:
        """Each message's outcome: None (sent) or the SendFailed (the relay's batches)."""
        return [_outcome(self.send, msg) for msg in msgs]

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
    name = "smtp"

    def __init__(self, host: str, port: int, security: str = "none", user: str = "",
                 password: str = "", timeout: float = 30.0, keepalive: float = 30.0):
        if security not in ("none", "starttls", "ssl"):
            raise ValueError(f"SMTP security must be none, starttls or ssl, not {security!r}")
        self.host, self.port, self.security = host, port, security
        self.user, self.password, self.timeout = user, password, timeout
        # send_many's connection is kept this long after its last use, for the next batch
        self.keepalive = keepalive
        self._kept: smtplib.SMTP | None = None
        self._kept_used = 0.0
        self._kept_lock = threading.Lock()

    def send(self, msg: EmailMessage) -> str:
        """Send; returns the relay's answer to the message data ("2.0.0 Ok: queued as
        4Xb1..."), the proof it was taken. Raises SendRefused on a permanent refusal,
        SendFailed on anything that may work later."""
        answers: list[bytes] = []
        try:
            if self.security == "ssl":
                conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                        context=ssl.create_default_context())
            else:
                conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            with conn:
                if self.security == "starttls":
                    conn.starttls(context=ssl.create_default_context())
                if self.user:
                    conn.login(self.user, self.password)
                data = conn.data
                conn.data = lambda m: _kept(answers, data(m))   # smtplib drops the answer
                # the envelope sender is the email's own bounce address (VERP), if it has one
                return_path = (msg["Return-Path"] or "").strip("<> ") or None
                del msg["Return-Path"]       # the receiving server writes its own
                conn.send_message(msg, from_addr=return_path)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            kind = SendRefused if codes and min(codes) >= 500 else SendFailed
            raise kind(f"recipient refused: {_words(exc.recipients)}") from exc
        except smtplib.SMTPDataError as exc:
            kind = SendRefused if exc.smtp_code >= 500 else SendFailed
            raise kind(f"message refused: {exc.smtp_code} {_words(exc.smtp_error)}") from exc
        except (smtplib.SMTPException, OSError) as exc:
            if answers and answers[-1][0] == 250:
                return _words(answers[-1][1])   # taken; only the goodbye failed: not resent
            raise SendFailed(f"{type(exc).__name__}: {exc}") from exc
        return _words(answers[-1][1]) if answers else ""


    # -- batches: one connection for many messages, kept open a while ----------------------
    def send_many(self, msgs: list[EmailMessage]) -> list[Exception | None]:
        """Send over one connection (the relay's batches: a new TCP + TLS + login per email
        costs more than the email). Each message's outcome: None (sent) or a SendFailed."""
        with self._kept_lock:
            return [self._send_kept(msg) for msg in msgs]

    def close(self) -> None:
        with self._kept_lock:
            self._drop()

    def _send_kept(self, msg: EmailMessage) -> Exception | None:
        for fresh in (False, True):
            try:
                reused = self._kept is not None and not fresh
                # the envelope sender is the email's own bounce address (VERP), if it has one
                return_path = (msg["Return-Path"] or "").strip("<> ") or None
                del msg["Return-Path"]
                self._connection(fresh).send_message(msg, from_addr=return_path)
                self._kept_used = time.monotonic()
                return None
            except smtplib.SMTPRecipientsRefused as exc:
                codes = [code for code, _ in exc.recipients.values()]
                kind = SendRefused if codes and min(codes) >= 500 else SendFailed
                return kind(f"recipient refused: {_words(exc.recipients)}")
            except smtplib.SMTPResponseException as exc:
                # the server answered (4xx/5xx) for this message; the connection is fine.
                # A 5xx is permanent: the relay parks it at once
                self._kept_used = time.monotonic()
                if exc.smtp_code >= 500:
                    return SendRefused(f"refused: {exc.smtp_code} {_words(exc.smtp_error)}")
                return _failed(exc)
            except (smtplib.SMTPException, OSError) as exc:
                self._drop()
                if not reused:
                    return _failed(exc)
                # a kept connection the server has closed meanwhile: once more, on a new one
        return None   # pragma: no cover - the loop always returns

    def _connection(self, fresh: bool) -> smtplib.SMTP:
        idle = time.monotonic() - self._kept_used
        if self._kept is not None and (fresh or idle > self.keepalive):
            self._drop()
        if self._kept is None:
            self._kept = self._connect()
        return self._kept

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                    context=ssl.create_default_context())
        else:
            conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        if self.security == "starttls":
            conn.starttls(context=ssl.create_default_context())
        if self.user:
            conn.login(self.user, self.password)
        return conn

    def _drop(self) -> None:
        conn, self._kept = self._kept, None
        if conn is not None:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                conn.close()


def _kept(answers: list, answer):
    answers.append(answer)
    return answer


def _words(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, dict):
        return ", ".join(f"{a}: {c} {_words(m)}" for a, (c, m) in value.items())
    return str(value)


def _failed(exc: Exception) -> SendFailed:
    failure = SendFailed(f"{type(exc).__name__}: {exc}")
    failure.__cause__ = exc
    return failure


def _outcome(send, msg: EmailMessage) -> Exception | None:
    try:
        send(msg)
    except SendFailed as exc:
        return exc
    return None


def from_settings(cfg: dict):
    kind = cfg["TURNPOST_MAIL_TRANSPORT"]
    if kind == "maildir":
        return MaildirTransport(cfg["TURNPOST_MAILDIR"])
    if kind == "smtp":
        return SMTPTransport(cfg["TURNPOST_SMTP_HOST"], cfg["TURNPOST_SMTP_PORT"],
                             cfg["TURNPOST_SMTP_SECURITY"], cfg["TURNPOST_SMTP_USER"],
                             cfg["TURNPOST_SMTP_PASSWORD"], cfg["TURNPOST_SMTP_TIMEOUT"])
    raise ValueError(f"TURNPOST_MAIL_TRANSPORT must be maildir or smtp, not {kind!r}")
