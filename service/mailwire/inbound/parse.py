"""Inbound mail: raw MIME bytes -> a typed, cleaned ``InboundMail``.

Pure and framework-free: the SMTP receiver, the provider webhook and the IMAP poller all hand
their raw bytes to ``parse_message``; the result says who wrote, to which reply address, in
reply to what, whether a robot wrote it, and which lines are the player's commands.

``parse_message`` never raises. Whatever could not be read is listed in ``problems`` and the
rest is still filled in. Whether to act on a message is then the caller's decision, helped by
``rejection(mail)`` which returns one of the typed ``Rejection`` reasons (or None).

Quote stripping is our own small module (``quotes.py``), not ``mail-parser-reply``:
that library returns only the text above the first quote header, so bottom-posted replies
(mutt, Thunderbird) lose their commands, and its signature heuristics cut at lines such as
"Thanks," or "- ...". The module docstring of ``quotes`` has the details.

Module map: ``parse.py`` (this: API, headers, robots), ``body.py`` (MIME walk,
charsets, format=flowed), ``html.py`` (HTML -> text), ``quotes.py``
(what the player wrote).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass, field
from email.header import decode_header
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses

from .. import REPLY_MARKER
from .body import MAX_TEXT_CHARS, READING, decode_bytes, extract_body, prepare_raw
from .quotes import command_lines, extract_reply

__all__ = [
    "MAX_RAW_BYTES",
    "MAX_TEXT_CHARS",
    "REPLY_MARKER",
    "Automated",
    "InboundMail",
    "NoCommands",
    "NoGameAddress",
    "Rejection",
    "Unreadable",
    "parse_message",
    "rejection",
    "reply_tokens",
]

#: Bytes of raw message parsed. A reply with moves is a few KB; beyond this we only have
#: attachments, which we ignore anyway. The message-id hash still covers all the bytes.
MAX_RAW_BYTES = 4 * 1024 * 1024

# Where the reply address can hide, in the order reply_tokens reports them: the visible
# headers first, then what MTAs and forwarders add when the address was a Bcc or an alias.
RECIPIENT_HEADERS = (
    "To",
    "Cc",
    "Delivered-To",
    "X-Original-To",
    "Envelope-To",
    "X-Envelope-To",
    "X-Forwarded-To",
    "X-Original-Recipient",
    "Resent-To",
    "Resent-Cc",
    "Bcc",
)

_REPLY_ADDRESS = re.compile(r"^play\+([a-z0-9]+)@([a-z0-9.-]+)$")
_MSGID = re.compile(r"<([^<>\s]+)>")
# a Message-ID we keep as it is: printable ASCII, no spaces, short enough for a header
_PLAIN_ID = re.compile(r"^[!-;=?-~]{1,250}$")
# an address we would ever write to: no quotes, spaces, controls or brackets; an ASCII domain
_SENDABLE = re.compile(r"^[^\s\"<>()\[\]@,;:\\\x00-\x1f\x7f]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$")
#: References kept per message: a thread is never this deep, a hostile header may be
MAX_REFERENCES = 50


@dataclass(frozen=True)
class InboundMail:
    """One inbound message, parsed. Lists are plain lists (the dataclass is not hashable)."""

    message_id: str
    sender: str
    sender_name: str
    subject: str
    recipients: list[str]
    in_reply_to: list[str]
    references: list[str]
    automated: str | None
    body_text: str
    command_text: str
    command_lines: list[str]
    problems: list[str] = field(default_factory=list)
    #: the short closing below the commands ("Thanks!" + name; quotes.extract_reply): the
    #: lines of it that are commands count, the others are a sign-off
    closing_lines: list[str] = field(default_factory=list)
    #: False when no text body could be found or decoded (see ``Unreadable``).
    readable: bool = True

    def to_json(self) -> dict:
        """Stored with the raw bytes, so a message is parsed once (at intake)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> InboundMail:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


# -- rejections -------------------------------------------------------------------------------


class Rejection(Exception):
    """Why the pipeline will not act on a message. ``explain()`` is for a reply email."""

    code = "rejected"
    #: Whether answering the sender is appropriate; never for robots (mail loops).
    reply = True

    def explain(self) -> str:
        return "We could not use your email. Please reply to your latest turn email."

    def __str__(self) -> str:
        return self.explain()


class NoCommands(Rejection):
    code = "no-commands"

    def __init__(self, example: str = "help") -> None:
        super().__init__(example)
        self.example = example      # a line that works in the writer's game, now

    def explain(self) -> str:
        also = "" if self.example == "help" else ", or help for every move you can make now"
        return (
            "We found no move in your email. Write each move on its own line at the top of "
            f"your reply, above the quoted turn email, for example: {self.example}{also}"
        )


class Automated(Rejection):
    code = "automated"
    reply = False

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def explain(self) -> str:
        return (
            f"This looks like an automatic message ({self.reason}), so it was recorded and "
            "not acted on. If you wrote it yourself, reply again without the auto-reply."
        )


class NoGameAddress(Rejection):
    code = "no-game-address"

    def explain(self) -> str:
        return (
            "Your email did not reach a game address. Use Reply on your latest turn email so "
            "it goes to its play+… address, and do not change the To line."
        )


class Unreadable(Rejection):
    code = "unreadable"

    def explain(self) -> str:
        return (
            "We could not read the text of your email. Please reply again in plain text, with "
            "your moves typed into the message rather than attached."
        )


def rejection(mail: InboundMail, domain: str | None = None) -> Rejection | None:
    """The first reason not to act on ``mail``, or None. Robots first: they get no answer."""
    if mail.automated:
        return Automated(mail.automated)
    if not mail.readable:
        return Unreadable()
    if not reply_tokens(mail, domain):
        return NoGameAddress()
    if not mail.command_lines:
        return NoCommands()
    return None


# -- headers ----------------------------------------------------------------------------------


def _raw_headers(msg: Message) -> dict[str, list[str]]:
    """Header name (lower-case) -> raw values, undecoded, in message order.

    We read raw values and decode them ourselves because the rich header objects of
    ``policy.default`` can raise on hostile input when accessed; this path cannot.
    """
    out: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        out.setdefault(str(name).strip().lower(), []).append(str(value))
    return out


def _unsurrogate(value: str) -> str:
    """Raw 8-bit header bytes arrive as surrogate escapes; most often they are UTF-8. A
    damaged header can hold real non-ASCII characters beside them: those go back as UTF-8
    (as ASCII, the same bytes as before for the rest)."""
    if not any("\udc80" <= c <= "\udcff" for c in value):
        return value
    data = value.encode("utf-8", "surrogateescape")
    return decode_bytes(data, "utf-8", [], "header")


def _decode(value: str) -> str:
    """Decode RFC 2047 encoded words, surviving unknown charsets and broken encodings."""
    value = _unsurrogate(value)
    try:
        chunks = decode_header(value)
    except Exception:
        return " ".join(value.split())
    words = []
    for chunk, charset in chunks:
        if isinstance(chunk, bytes):
            words.append(decode_bytes(chunk, charset, [], "header"))
        else:
            words.append(chunk)
    # A header is one logical line: unfold it and normalize the whitespace.
    return " ".join("".join(words).split())


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    """(decoded display name, lower-cased addr-spec) pairs; junk without an @ is skipped."""
    pairs = []
    try:
        parsed = getaddresses([_unsurrogate(v) for v in values])
    except Exception:
        parsed = []
    for name, addr in parsed:
        addr = addr.strip().strip("<>").lower()
        if "@" in addr and " " not in addr:
            pairs.append((_decode(name) if name else "", addr))
    return pairs


def _message_ids(values: list[str]) -> list[str]:
    ids: list[str] = []
    for value in values:
        found = _MSGID.findall(value) or value.split()
        for mid in found:
            mid = clean_id(mid)
            if mid not in ids:
                ids.append(mid)
    return ids[:MAX_REFERENCES]


def clean_id(mid: str) -> str:
    """A Message-ID safe to store, compare and write back into a header. One that is not
    plain printable ASCII (8-bit bytes, NUL, CR/LF) becomes a hash of its bytes: the same
    bytes give the same key, so de-duplication still works, and nothing odd reaches a header."""
    if _PLAIN_ID.match(mid):
        return mid
    data = mid.encode("utf-8", "surrogateescape")
    return "sha256-" + hashlib.sha256(data).hexdigest()[:40] + "@turnpost.invalid"


def _from_address(msg: Message) -> tuple[str, str]:
    """(address, display name) of the first From address, read by ``policy.default``: the
    address part only, never an address-like display name ("victim@example.net" <x@evil>)."""
    try:
        addresses = msg["From"].addresses if msg["From"] is not None else ()
        first = addresses[0]
        addr, name = first.addr_spec.strip().lower(), first.display_name
    except Exception:   # a header beyond policy.default's reading: nobody to answer
        return "", ""
    if not _SENDABLE.match(addr) or any("\udc80" <= c <= "\udcff" for c in addr):
        return "", ""
    return addr, clean_text(_decode(name) if name else "")


def clean_text(value: str) -> str:
    """Text fit for the database and for our templates: undecodable bytes (surrogate
    escapes) become U+FFFD and NULs are dropped (PostgreSQL text cannot hold them)."""
    if value.isascii() and "\x00" not in value:
        return value
    value = value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return value.replace("\x00", "")


def _cleaned(mail: InboundMail) -> InboundMail:
    def fix(value):
        if isinstance(value, str):
            return clean_text(value)
        if isinstance(value, list):
            return [fix(v) for v in value]
        return value
    return InboundMail(**{f.name: fix(getattr(mail, f.name)) for f in dataclasses.fields(mail)})


# -- robots -----------------------------------------------------------------------------------

_AUTO_SUBJECT = re.compile(
    r"^\s*(?:out of (?:the )?office|automatic reply|auto[- ]?reply|autoreply|auto[- ]?response"
    r"|abwesenheitsnotiz|automatische antwort|r[ée]ponse automatique|absence du bureau"
    r"|respuesta autom[áa]tica|fuera de la oficina|automatisch antwoord|afwezig"
    r"|risposta automatica|fuori sede|delivery status notification|undeliverable"
    r"|undelivered mail|mail delivery (?:failed|failure|subsystem))\b",
    re.IGNORECASE,
)
# senders that are machines: their mail is never answered (mail loops, backscatter)
_ROBOT_SENDER = re.compile(r"^(mailer-daemon|postmaster|no[-_.]?reply|do[-_.]?not[-_.]?reply)"
                           r"(?:[-+._].*)?$")


def _automated(h: dict[str, list[str]], ctype: str, sender: str, subject: str) -> str | None:
    """Why this message was written by a machine, or None. First match wins."""

    def first(name: str) -> str:
        return " ".join(h.get(name, [""])[0].split()).lower()

    if ctype == "multipart/report":
        return "delivery report (multipart/report)"
    if any(v.strip() == "<>" for v in h.get("return-path", [])):
        return "bounce (empty Return-Path)"
    if _ROBOT_SENDER.match(sender.split("@")[0]):
        return f"sent by {sender.split('@')[0]}"
    auto = first("auto-submitted")
    if "auto-submitted" in h and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    for name in ("x-autoreply", "x-autorespond", "x-autogenerated", "x-mail-autoreply"):
        if name in h and first(name) not in ("no", "false", "0"):
            return f"{name} header"
    if first("precedence") in ("bulk", "junk", "list", "auto_reply", "auto-reply"):
        return f"Precedence: {first('precedence')}"
    suppress = {t.strip() for t in first("x-auto-response-suppress").split(",")}
    if suppress & {"all", "oof"}:
        return "X-Auto-Response-Suppress: " + first("x-auto-response-suppress")
    if "list-id" in h or "list-unsubscribe" in h:
        return "mailing list message"
    if _AUTO_SUBJECT.match(subject):
        return f"auto-reply subject {subject[:60]!r}"
    return None


# -- the entry points -------------------------------------------------------------------------


def parse_message(raw: bytes) -> InboundMail:
    """Parse raw RFC 5322 bytes. Never raises; see ``problems`` on the result."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raw = str(raw).encode("utf-8", "surrogateescape")
    raw = bytes(raw)
    problems: list[str] = []
    data = raw
    if len(data) > MAX_RAW_BYTES:
        data = data[:MAX_RAW_BYTES]
        problems.append(f"message truncated to {MAX_RAW_BYTES} bytes before parsing")
    data = prepare_raw(data, problems)
    try:
        msg = BytesParser(policy=READING).parsebytes(data)
    except Exception as exc:  # not seen with policy.default, but the contract is "never raises"
        problems.append(f"unparseable message: {type(exc).__name__}")
        msg = BytesParser(policy=READING).parsebytes(b"\r\n\r\n")

    h = _raw_headers(msg)
    mids = _message_ids(h.get("message-id", [])[:1])
    if mids and not mids[0].startswith("sha256-"):
        message_id = mids[0]
    elif mids:
        message_id = mids[0]
        problems.append("a Message-ID that is not plain ASCII; using a hash of it")
    else:
        # the same message delivered again must get the same id, so de-duplication still
        # works: the hash leaves out what relays add on the way (Received, X-Original-To...)
        message_id = "sha256-" + _stable_digest(raw, h)[:40] + "@turnpost.invalid"
        problems.append("no Message-ID; using a hash of the message")

    sender, sender_name = _from_address(msg)
    if not sender:
        problems.append("no From address")
    subject = _decode(h.get("subject", [""])[0])

    recipients: list[str] = []
    for name in RECIPIENT_HEADERS:
        for _, addr in _addresses(h.get(name.lower(), [])):
            if addr not in recipients:
                recipients.append(addr)

    try:
        ctype = msg.get_content_type()
    except Exception:
        ctype = "text/plain"
    automated = _automated(h, ctype, sender, subject)

    body = extract_body(msg)
    problems.extend(body.problems)
    defects = _defects(msg)
    if defects:
        problems.append("malformed MIME: " + ", ".join(defects))

    body.text = clean_text(body.text)     # a NUL is no line of a command
    command_text, closing = extract_reply(body.text)
    return _cleaned(InboundMail(
        message_id=message_id,
        sender=sender,
        sender_name=sender_name,
        subject=subject,
        recipients=recipients,
        in_reply_to=_message_ids(h.get("in-reply-to", [])),
        references=_message_ids(h.get("references", [])),
        automated=automated,
        body_text=body.text,
        command_text=command_text,
        command_lines=command_lines(command_text),
        closing_lines=command_lines(closing),
        problems=problems,
        readable=body.readable,
    ))


#: what the writer's client set, as opposed to the trace headers each hop adds
_STABLE_HEADERS = ("from", "to", "cc", "date", "subject", "in-reply-to", "references")


def _stable_digest(raw: bytes, headers: dict[str, list[str]]) -> str:
    """A hash of a message that is the same for every delivery of it: its writer's own
    headers and its body (line ends made alike), not the headers relays add in transit."""
    digest = hashlib.sha256()
    for name in _STABLE_HEADERS:
        for value in headers.get(name, []):
            digest.update(f"{name}:{' '.join(value.split())}\n".encode("utf-8",
                                                                       "surrogateescape"))
    data = raw.replace(b"\r\n", b"\n")
    _, gap, body = data.partition(b"\n\n")
    digest.update(b"\n" + (body if gap else b""))
    return digest.hexdigest()


def _defects(msg: Message) -> list[str]:
    names: list[str] = []
    try:
        for part in msg.walk():
            for defect in getattr(part, "defects", []):
                name = type(defect).__name__
                if name not in names:
                    names.append(name)
    except Exception:
        names.append("UnwalkableStructure")
    return names


def reply_tokens(mail: InboundMail, domain: str | None = None) -> list[str]:
    """Tokens of ``play+<token>@domain`` recipients, in header order, without duplicates.

    Only extraction: ``links.py`` decides whether a token is genuine and whose seat it is.
    """
    want = domain.lower().strip() if domain else None
    tokens: list[str] = []
    for addr in mail.recipients:
        match = _REPLY_ADDRESS.match(addr.lower())
        if match and (want is None or match.group(2) == want) and match.group(1) not in tokens:
            tokens.append(match.group(1))
    return tokens
