"""An email's HTML with its lines under SMTP's limit, so that the part goes as it is (7bit or
8bit) rather than quoted-printable: the email package picks quoted-printable as soon as one
line passes 998 characters, and CSS inlining makes long lines (a run of cards, each with its
styles written out, is one line of a few thousand characters). Quoted-printable made the part
larger and its pure-Python encoding was a tenth of composing a turn email (issue 15).

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

# a start tag, its attributes' values in double quotes (a value may hold ">")
_TAG = re.compile(r'<[a-zA-Z][^\s/>]*(?:\s+[^\s"\'=<>/]+(?:="[^"]*")?)*\s*/?>')
# inside a tag: a quoted value (skipped) or the whitespace between two attributes
_GAP = re.compile(r'"[^"]*"|(\s)')


def fold(html: str, limit: int = LIMIT) -> str:
    """`html` with each line longer than `limit` bytes (UTF-8, as the email package counts)
    broken between attributes where it can be."""
    lines = html.split("\n")
    if all(len(line) <= limit // 4 or _size(line) <= limit for line in lines):
        return html
    return "\n".join(part for line in lines for part in _fold_line(line, limit))


def _size(text: str) -> int:
    return len(text.encode())


def _fold_line(line: str, limit: int) -> list[str]:
    if _size(line) <= limit:
        return [line]
    gaps = [tag.start() + gap.start(1) for tag in _TAG.finditer(line)
            for gap in _GAP.finditer(tag.group()) if gap.group(1)]
    parts, start, best = [], 0, None       # best: the last gap that fits this piece
    for at in gaps:
        if _size(line[start:at]) > limit:
            if best is not None:
                parts.append(line[start:best])
                start, best = best + 1, None    # the whitespace becomes the line break
            if _size(line[start:at]) > limit:   # no gap near enough: this piece stays long
                parts.append(line[start:at])
                start = at + 1
                continue
        best = at
    if _size(line[start:]) > limit and best is not None:
        parts.append(line[start:best])
        start = best + 1
    parts.append(line[start:])
    return parts
