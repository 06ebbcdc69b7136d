"""Pick and decode the text body of an inbound message (helper of ``parse.py``).

Everything here is defensive: the input is whatever a mail client, a forwarding service or an
attacker produced. Every function returns something and records what went wrong in
``problems`` instead of raising.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesParser

from ..parsedheaders import CachedHeaderRegistry
from .html import html_to_text

#: how incoming mail is read: policy.default, its headers parsed once per (name, value) (the
#: parser asks for a message's Content-Type four times while parsing it, the body's reading
#: twice more: each parse built a header class anew and was a third of reading a reply)
READING = policy.default.clone(header_factory=CachedHeaderRegistry())

MAX_TEXT_CHARS = 64 * 1024  # of body text we look at: a reply with moves is a few lines
MAX_HTML_CHARS = 4 * MAX_TEXT_CHARS  # HTML is verbose; cap before parsing it
MAX_MIME_PARTS = 200  # boundary lines parsed; the stdlib parser needs ~0.4 ms per part
_UNREADABLE_RATIO = 0.3  # share of replacement/control characters that makes text garbage


_HEADER_LINE = re.compile(rb"^(?:[!-9;-~]+[ \t]*:|[ \t])")
_HEADER_END = re.compile(rb"\r?\n\r?\n")


def _repair_header_block(data: bytes, problems: list[str]) -> bytes:
    """Drop lines amid the headers that are neither "Name: value" nor a continuation.

    The stdlib parser takes such a line as the end of the headers, so every header after it
    (often Content-Type) would land in the body. An mbox "From " line is dropped the same way.
    """
    match = _HEADER_END.search(data)
    head, rest = (data[: match.start()], data[match.start() :]) if match else (data, b"")
    lines = head.split(b"\n")
    is_header = [bool(_HEADER_LINE.match(line)) for line in lines]
    if True not in is_header:
        return data
    # Without a blank line after the headers, the lines after the last header are the body.
    last = len(is_header) - 1 - is_header[::-1].index(True) if not match else len(lines)
    good = [line for i, line in enumerate(lines) if is_header[i] or i > last]
    if len(good) == len(lines):
        return data
    problems.append(f"dropped {len(lines) - len(good)} malformed header line(s)")
    return b"\n".join(good) + rest


_DASH_LINE = re.compile(rb"^--", re.MULTILINE)


def _limit_parts(data: bytes, problems: list[str]) -> bytes:
    """Cut a message with thousands of MIME parts before the parser spends seconds on it.

    The text a person wrote comes first, so the first parts are the ones that matter.
    """
    for n, match in enumerate(_DASH_LINE.finditer(data)):
        if n == MAX_MIME_PARTS:
            problems.append(f"more than {MAX_MIME_PARTS} MIME parts; the rest ignored")
            return data[: match.start()]
    return data


def prepare_raw(data: bytes, problems: list[str]) -> bytes:
    """Make raw bytes safe and cheap to hand to the stdlib parser."""
    return _limit_parts(_repair_header_block(data, problems), problems)


@dataclass
class Body:
    text: str = ""
    readable: bool = False
    problems: list[str] = field(default_factory=list)


def decode_bytes(data: bytes, charset: str | None, problems: list[str], where: str) -> str:
    """Decode with the declared charset (ISO-8859-1 read as Windows-1252), then UTF-8, then
    Windows-1252 with replacement.

    Windows-1252 is the last resort because unlabeled 8-bit mail is most often from Windows
    clients, and it is a superset of Latin-1 for every printable character.
    """
    declared = (charset or "").strip().strip('"').lower() or None
    codec = None
    if declared:
        try:
            codec = codecs.lookup(declared).name
            # Guard against bytes-to-bytes codecs ("base64", "zlib") named as a charset.
            b"".decode(codec)
        except (LookupError, ValueError):
            problems.append(f"unknown charset {declared!r} in {where}; guessed")
            codec = None
    attempts: list[tuple[str, str]] = []
    if codec == "iso8859-1":
        # what Outlook and friends label ISO-8859-1 is most often Windows-1252: its curly
        # quotes and dashes are C1 control characters in Latin-1. Read it as browsers do
        # (WHATWG Encoding: the label means windows-1252); Latin-1 is left for the five
        # bytes Windows-1252 does not define.
        attempts.append(("cp1252", "strict"))
    if codec:
        attempts.append((codec, "strict"))
    attempts.append(("utf-8", "strict"))
    if codec in (None, "utf-8", "ascii"):
        # Latin bytes in a mail labelled UTF-8 or ASCII: a classic of old clients and
        # gateways. Elsewhere (Shift_JIS with one bad byte) replacing is the better guess.
        attempts.append(("cp1252", "strict"))
    if codec:
        attempts.append((codec, "replace"))
    attempts.append(("cp1252", "replace"))
    for name, errors in attempts:
        try:
            text = data.decode(name, errors)
        except (UnicodeDecodeError, LookupError):
            continue
        if codec and name != codec and not (codec == "iso8859-1" and name == "cp1252"):
            problems.append(f"{where} is not valid {declared}; decoded as {name}")
        elif codec and errors == "replace":
            problems.append(f"{where} has bytes invalid in {declared}; replaced")
        return text
    return data.decode("latin-1")  # cannot fail; unreachable in practice


def unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed soft line breaks (Thunderbird, Apple Mail).

    A line ending in a space continues on the next line of the same quote depth. Without this,
    a long typed line wrapped by the client would become two "commands".
    """
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for line in text.split("\n"):
        line = line.rstrip("\r")
        stripped = line.lstrip(">")
        depth = len(line) - len(stripped)
        if stripped.startswith(" "):
            stripped = stripped[1:]  # space-stuffing
        if pending is not None and pending[0] == depth:
            stripped = pending[1] + stripped
        elif pending is not None:
            out.append(pending)
        pending = None
        if stripped.endswith(" ") and stripped.rstrip() != "--":
            pending = (depth, stripped[:-1] if delsp else stripped)
        else:
            out.append((depth, stripped))
    if pending is not None:
        out.append(pending)
    return "\n".join(">" * d + (" " if d else "") + t if d else t for d, t in out)


def _describe(part: Message) -> str:
    name = None
    try:
        name = part.get_filename()
    except Exception:
        pass
    return f"{part.get_content_type()}" + (f" {name!r}" if name else "")


def _is_attachment(part: Message) -> bool:
    try:
        disposition = part.get_content_disposition()
        filename = part.get_filename()
    except Exception:
        return True
    return disposition == "attachment" or (bool(filename) and disposition != "inline")


_MAX_DEPTH = 12  # MIME nesting we follow; real mail uses 3 or 4 levels


Leaf = tuple[str, Message]  # (content type, part): the type is parsed once, it is not cheap


def _collect(part: Message, problems: list[str], depth: int = 0) -> list[Leaf]:
    """The text leaves (text/plain or text/html) a reader sees, in order.

    multipart/alternative shows ONE of its children: we take the first whose text is plain
    and not blank, else the first with any text. Other multiparts show all children, which
    matters for iPhone mail: text, photo, more text.
    """
    ctype = part.get_content_type()
    if depth > _MAX_DEPTH:
        problems.append("MIME nesting too deep; inner parts ignored")
        return []
    if ctype.startswith("message/") and depth:
        # An attached, forwarded or bounced message: its text is not the sender's reply.
        problems.append(f"attachment ignored: {_describe(part)}")
        return []
    if part.is_multipart():
        payload = part.get_payload()
        children = payload if isinstance(payload, list) else []
    elif ctype.startswith("multipart/"):
        # Boundary never found: the parser left the whole body as one string.
        children = _recover_parts(part, problems)
    elif ctype in ("text/plain", "text/html") and not _is_attachment(part):
        return [(ctype, part)]
    else:
        problems.append(f"attachment ignored: {_describe(part)}")
        return []
    if ctype != "multipart/alternative":
        leaves: list[Leaf] = []
        for child in children:
            leaves.extend(_collect(child, problems, depth + 1))
        return leaves
    options = []
    for child in children:
        own: list[str] = []  # problems of alternatives not chosen are not problems
        options.append((_collect(child, own, depth + 1), own))
    ranked = (
        [o for o in options if _has_text(o[0], ("text/plain",))]
        + [o for o in options if _has_text(o[0], ("text/plain", "text/html"))]
        + [o for o in options if o[0]]
    )
    if not ranked:
        return []
    problems.extend(ranked[0][1])
    return ranked[0][0]


def _has_text(leaves: list[Leaf], types: tuple[str, ...]) -> bool:
    """Whether any leaf of these types has a non-blank payload (cheap: no charset decoding)."""
    for ctype, leaf in leaves:
        if ctype in types:
            try:
                if (leaf.get_payload(decode=True) or b"").strip():
                    return True
            except Exception:
                pass
    return False


_BOUNDARY_LINE = re.compile(rb"^--([^\s]{1,70}?)(?:--)?[ \t]*\r?$", re.MULTILINE)


def _recover_parts(part: Message, problems: list[str]) -> list[Message]:
    """Re-parse a multipart body whose declared boundary does not occur in it.

    Seen with clients and gateways that rewrite the header but not the body. We guess the
    boundary from the first ``--something`` line; failing that the body is plain text.
    """
    raw = part.get_payload(decode=False)
    data = raw.encode("ascii", "surrogateescape") if isinstance(raw, str) else b""
    match = _BOUNDARY_LINE.search(data)
    if match:
        boundary = match.group(1).decode("ascii", "replace")
        head = f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n'.encode()
        reparsed = BytesParser(policy=READING).parsebytes(head + data)
        if reparsed.is_multipart() and reparsed.get_payload():
            problems.append(f"broken MIME boundary; recovered parts using {boundary!r}")
            return list(reparsed.get_payload())
    problems.append("broken MIME boundary; body read as plain text")
    fallback = BytesParser(policy=READING).parsebytes(
        b"Content-Type: text/plain\r\n\r\n" + data
    )
    return [fallback]


def _decode_part(part: Message, where: str, problems: list[str]) -> str | None:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if data is None:
        problems.append(f"could not decode {where} transfer encoding")
        return None
    if isinstance(data, str):  # not expected, but get_payload has odd corners
        data = data.encode("utf-8", "surrogateescape")
    limit = MAX_HTML_CHARS if where == "text/html" else MAX_TEXT_CHARS
    if len(data) > 4 * limit:  # 4 bytes per character at most in UTF-8
        data = data[: 4 * limit]
    try:
        params = {str(k).lower(): str(v) for k, v in part.get_params(failobj=[]) or []}
    except Exception:
        params = {}
    charset = params.get("charset")
    text = decode_bytes(data, charset, problems, where)
    if len(text) > limit:
        problems.append(f"{where} truncated to {limit} characters")
        text = text[:limit]
    if where == "text/plain":
        if params.get("format", "").lower() == "flowed":
            text = unflow(text.replace("\r\n", "\n"), params.get("delsp", "").lower() == "yes")
    return text


def _garbage(text: str) -> bool:
    if not text.strip():
        return False
    bad = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\r\n\t\f"))
    return bad / len(text) > _UNREADABLE_RATIO


def extract_body(msg: Message) -> Body:
    """The text a reader would see, decoded, HTML rendered as text, capped in size."""
    body = Body()
    problems = body.problems
    try:
        leaves = _collect(msg, problems)
    except Exception as exc:  # a parser corner we have not met; keep going without a body
        problems.append(f"could not walk MIME structure: {type(exc).__name__}")
        leaves = []
    texts: list[str] = []
    decoded_any = False
    for ctype, leaf in leaves:
        text = _decode_part(leaf, ctype, problems)
        if text is None:
            continue
        decoded_any = True
        if ctype == "text/html":
            text = html_to_text(text)
        if text.strip():
            texts.append(text.replace("\r\n", "\n").replace("\r", "\n").strip("\n"))
    if not leaves:
        problems.append("no text body")
    body.text = "\n\n".join(texts)[:MAX_TEXT_CHARS]
    if _garbage(body.text):
        problems.append("body text is not readable in any charset")
        body.readable = False
    else:
        body.readable = decoded_any
    return body
