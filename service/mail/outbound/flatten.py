"""An email's bytes, as the email package's `BytesGenerator` writes them, with fewer calls.

The generator writes a part's body one line at a time, each line and each line break a call
of its own that encodes and appends a few dozen bytes: the table picture's base64 alone is
some 350 lines, some 500 pairs a turn email. Here a body's complete lines go in one write,
joined with the same line break: the same characters, encoded the same way, appended in the
same order, so the same bytes (tests/mail/test_rendered_golden.py compares both generators
on every email it renders). Flattening a turn email: 0.39 -> 0.34 ms of CPU
(docs/performance.md, "An email")."""
from __future__ import annotations

import io
from email.generator import NLCRE, BytesGenerator
from email.message import Message


class LinesAtOnce(BytesGenerator):
    """`BytesGenerator`, with `_write_lines` (the standard library's, 3.11 to 3.13: split
    the text at any line break, write each line followed by the policy's, then the last
    piece when not empty) writing the lines in one piece."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        pieces = NLCRE.split(lines)
        if len(pieces) > 1:
            self.write(self._NL.join(pieces[:-1]) + self._NL)
        if pieces[-1]:
            self.write(pieces[-1])


def as_bytes(msg: Message) -> bytes:
    """What `msg.as_bytes()` gives: under the message's own policy, no From mangling."""
    out = io.BytesIO()
    LinesAtOnce(out, mangle_from_=False, policy=msg.policy).flatten(msg)
    return out.getvalue()


def for_smtp(msg: Message) -> bytes:
    """What smtplib's `send_message` writes for a message it need not change: CRLF line
    breaks, the generator's defaults otherwise."""
    out = io.BytesIO()
    LinesAtOnce(out).flatten(msg, linesep="\r\n")
    return out.getvalue()
