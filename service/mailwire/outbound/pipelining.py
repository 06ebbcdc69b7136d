"""One message over an smtplib connection in two round trips instead of four, for a relay that
offers PIPELINING (RFC 2920; Postfix, Exim and the hosted relays do): MAIL FROM, RCPT TO and
DATA go in one write and their answers are read together, then the data (`hand_over`) and,
once the caller is ready for it, its answer (`data_answer`).

smtplib has no pipelining; this sends through its connection (`send`, `getreply`) and raises
the same exceptions its `sendmail` does for the same answers, so the caller handles both
paths alike. Everything a relay might answer is read before anything else is sent, so the
line never falls out of step: on any refusal the transaction is reset (RSET) as smtplib
does, or the line closed after a 421."""
from __future__ import annotations

import email.generator
import email.utils
import io
import smtplib
from collections.abc import Callable
from email.message import EmailMessage


def flatten(msg: EmailMessage) -> bytes:
    """The message's bytes as SMTP carries them (CRLF line ends), as the stdlib's
    BytesGenerator writes them, with a body line that starts "From " left as written.
    smtplib's `send_message` escapes such a line as ">From " for an ASCII envelope (its
    generator's default, made for mbox files): a player's chat line "From now on..." reached the
    table as ">From now on...". SMTP carries the line as it is (RFC 5321 has no such rule); a
    mailbox that stores mail as mbox escapes it itself, and unescapes it when it reads."""
    flat = io.BytesIO()
    WholeLinesGenerator(flat, mangle_from_=False).flatten(msg, linesep="\r\n")
    return flat.getvalue()


class WholeLinesGenerator(email.generator.BytesGenerator):
    """The stdlib's BytesGenerator, writing a part's text in one write with its line ends
    turned into the generator's, where the stdlib writes each line and each line end apart:
    the same bytes (tests/mail/test_pipelining.py compares the two), in two calls where a
    turn email's HTML, text and picture took some 900: flattening one 0.81-0.89 -> 0.70 ms of
    CPU (bench/email_cpu.py, issue 53). It overrides a method the stdlib keeps private; the
    comparison test says at once if a Python release changes what it writes."""

    def _write_lines(self, lines: str) -> None:
        # the stdlib splits on a line end as it reads one (email.generator.NLCRE: CRLF, CR or
        # LF) and writes each piece followed by the line end but the last (an empty last piece
        # is a trailing line end): every line end made the generator's says the same. Three
        # passes of str.replace (CRLF, then a lone CR, to LF; LF to ours) scan a part several
        # times faster than that expression's substitution
        if lines:
            self.write(lines.replace("\r\n", "\n").replace("\r", "\n").replace("\n", self._NL))


def envelope(msg: EmailMessage, from_addr: str | None) -> tuple[str, list[str]] | None:
    """The envelope's sender (`from_addr`, else the message's Sender or From) and recipients,
    when the message needs nothing smtplib's own `send_message` does for it: no Bcc to strip,
    no Resent- headers, plain ASCII addresses (else SMTPUTF8). None: send it smtplib's way."""
    if any(h in msg for h in ("Bcc", "Resent-Bcc", "Resent-Date")):
        return None
    sender = from_addr if from_addr is not None else email.utils.getaddresses(
        [msg["Sender"] or msg["From"] or ""])[0][1]
    fields = [str(f) for f in (msg["To"], msg["Cc"]) if f is not None]
    recipients = [addr for _, addr in email.utils.getaddresses(fields)]
    if not (sender.isascii() and all(a.isascii() for a in recipients)):
        return None
    return sender, recipients


def hand_over(conn: smtplib.SMTP, msg: EmailMessage, from_addr: str, to_addrs: list[str],
              mail_options: tuple[str, ...], data_started: Callable[[], None]) -> None:
    """Send `msg` with the envelope `envelope` gave, up to the relay's answer to its data,
    which `data_answer` reads: meanwhile the relay takes the message in and the sender may
    compose its next one. That answer must be read before the line carries anything else.
    `data_started` is called just before the message's data goes over (until then the relay
    cannot have taken it)."""
    data = flatten(msg)
    # the size first, as smtplib writes it: a relay with a limit refuses at MAIL FROM
    options = [f"SIZE={len(data)}"] if conn.has_extn("size") else []
    options += mail_options
    commands = [f"MAIL FROM:{smtplib.quoteaddr(from_addr)}{_options(options)}"]
    commands += [f"RCPT TO:{smtplib.quoteaddr(addr)}" for addr in to_addrs]
    commands.append("DATA")
    # one write: separate small writes would each wait on the relay's delayed ACK (Nagle)
    conn.send("".join(f"{c}\r\n" for c in commands))
    mail = conn.getreply()
    rcpts = [conn.getreply() for _ in to_addrs]
    go_ahead = conn.getreply()
    refused = {addr: answer for addr, answer in zip(to_addrs, rcpts, strict=True)
               if answer[0] not in (250, 251)}
    if mail[0] != 250 or len(refused) == len(to_addrs) or go_ahead[0] != 354:
        if go_ahead[0] == 354:
            # a relay that took DATA despite refusing the rest gets an empty message ended,
            # and the reset below drops it
            conn.send(b".\r\n")
            conn.getreply()
        _abandon(conn, mail, *rcpts, go_ahead)
        if mail[0] != 250:
            raise smtplib.SMTPSenderRefused(mail[0], mail[1], from_addr)
        if len(refused) == len(to_addrs):
            raise smtplib.SMTPRecipientsRefused(refused)
        raise smtplib.SMTPDataError(*go_ahead)
    data_started()
    body = _dot_stuffed(data)
    if not body.endswith(b"\r\n"):
        body += b"\r\n"
    conn.send(body + b".\r\n")


def data_answer(conn: smtplib.SMTP) -> tuple[int, bytes]:
    """The relay's answer to the data `hand_over` sent; a refusal resets the transaction."""
    answer = conn.getreply()
    if answer[0] != 250:
        _abandon(conn, answer)
        raise smtplib.SMTPDataError(*answer)
    return answer


def _dot_stuffed(data: bytes) -> bytes:
    """Every line that starts with a dot gets a second one (RFC 5321 4.5.2), as smtplib's
    regular expression does; bytes.replace finds them much faster in an email's many lines
    (the picture's base64 lines)."""
    body = data.replace(b"\n.", b"\n..")
    return b"." + body if body.startswith(b".") else body


def _options(options: list[str]) -> str:
    return "".join(f" {o}" for o in options)


def _abandon(conn: smtplib.SMTP, *answers: tuple[int, bytes]) -> None:
    """After a refusal: hang up if the relay said it is closing (421), else reset."""
    if any(code == 421 for code, _ in answers):
        conn.close()
        return
    try:
        conn.rset()
    except smtplib.SMTPServerDisconnected:
        pass            # the line is gone: the caller sees it closed and drops it
