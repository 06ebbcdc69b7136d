"""An email's HTML with its lines under SMTP's limit, so that the part goes as it is (7bit or
8bit) rather than quoted-printable: the email package picks quoted-printable as soon as one
line passes 998 bytes, and CSS inlining makes long lines (a run of cards, each with its
styles written out, is one line of a few thousand characters). Quoted-printable makes the part
larger and its encoding is pure Python, slow for every email.

A line is broken only where HTML does not care: between two attributes of a tag, where any
whitespace is the same. Text is never touched, so nothing a reader sees changes. A line with
no such place (a long run of plain text) stays long, and that part goes quoted-printable, as
before.

The HTML is the inliner's output (css_inline serialises it): an attribute's value is always
in double quotes, with any double quote inside written `&quot;`, and a `<` in text is written
`&lt;`, so a `<` followed by a letter outside a value opens a tag."""
from __future__ import annotations

import re

#: SMTP's longest line, less its CRLF (RFC 5321, 4.5.3.1.6)
LIMIT = 998

# a start tag, its attributes' values in double quotes (a value may hold ">"); HTML's own
# whitespace, ASCII only. Matched in the UTF-8 bytes: their offsets are what the limit counts,
# and a break at an ASCII space never splits a character.
_TAG = re.compile(rb'<[a-zA-Z][^ \t\r\f/>]*(?:[ \t\r\f]+[^ \t\r\f"\'=<>/]+(?:="[^"]*")?)*'
                  rb'[ \t\r\f]*/?>')


def fold(html: str, limit: int = LIMIT) -> str:
    """`html` with each line longer than `limit` bytes (UTF-8, as the email package counts)
    broken between attributes where it can be."""
    lines = html.split("\n")
    if all(len(line) <= limit // 4 or len(line.encode()) <= limit for line in lines):
        return html
    return "\n".join(part.decode() for line in lines
                     for part in _fold_line(line.encode(), limit))


def _gaps(tag: re.Match) -> tuple[int, ...]:
    """Where this tag may be broken: after its name, and before its last attribute with a
    value (the inliner's style="...", mostly). A value holds no bare double quote, so `="`
    is always where a value starts, and the space before its name is between attributes
    (the inliner writes one space there)."""
    text, at = tag.group(), tag.start()
    first = text.find(b" ")
    if first < 0:
        return ()
    last = text.rfind(b" ", 0, text.rfind(b'="'))
    return (at + first,) if last <= first else (at + first, at + last)


def _fold_line(line: bytes, limit: int) -> list[bytes]:
    if len(line) <= limit:
        return [line]
    parts, start = [], 0
    best = None                 # the last gap that fits the piece
    for at in (at for tag in _TAG.finditer(line) for at in _gaps(tag)):
        if at - start > limit:
            if best is not None:
                parts.append(line[start:best])
                start, best = best + 1, None     # the space becomes the line break
            if at - start > limit:              # no gap near enough: this piece stays long
                parts.append(line[start:at])
                start = at + 1
                continue
        best = at
    if len(line) - start > limit and best is not None:
        parts.append(line[start:best])
        start = best + 1
    parts.append(line[start:])
    return parts
