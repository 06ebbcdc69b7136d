"""HTML mail body -> plain text, for the inbound parser (``parse.py``).

Built on the stdlib ``html.parser`` tokenizer rather than regexes: mail HTML is rarely
well-formed (Outlook's ``<o:p>``, unclosed ``<p>``, comments holding CSS), and a tokenizer
copes with all of it while a regex stripper breaks on the first ``>`` inside an attribute.

Two choices matter for what comes after (``quotes.py``):

- Block elements and ``<br>`` become line breaks, because players type one command per line
  and clients put each typed line in its own ``<div>`` or ``<p>`` (or after a ``<br>``).
- ``<blockquote>`` content comes out prefixed with ``> `` per nesting level, and ``<hr>`` as a
  line of underscores. HTML quotes then look exactly like plain-text quotes, so a single
  quote stripper handles both.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements whose boundaries are line boundaries. Inline elements (a, b, span, font...) are not.
_BLOCK = frozenset(
    """address article aside blockquote body center dd div dl dt fieldset figcaption figure
    footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section table tbody td
    tfoot th thead tr ul""".split()
)
# Elements whose text is never shown to the reader.
_INVISIBLE = frozenset({"style", "script", "title", "template", "head", "xml"})
_SEPARATOR = "_" * 32
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


class _TextBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []  # (blockquote depth, text)
        self._line: list[str] = []
        self._line_depth = 0
        self._depth = 0  # current blockquote nesting
        self._hidden = 0  # inside style/script/...: count, because they can nest in bad HTML
        self._pre = 0

    # -- line assembly -------------------------------------------------------------------
    def _break(self) -> None:
        text = "".join(self._line)
        self.lines.append((self._line_depth, text))
        self._line = []
        self._line_depth = self._depth

    def _soft_break(self) -> None:
        """A block boundary: end the current line unless it is already empty."""
        if "".join(self._line).strip():
            self._break()
        else:
            self._line = []
            self._line_depth = self._depth

    def _write(self, text: str) -> None:
        if not self._line:
            self._line_depth = self._depth
        self._line.append(text)

    # -- parser callbacks ----------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _INVISIBLE:
            # <head> is left by <body> even when </head> is missing (seen in the wild).
            self._hidden += 1
            return
        if tag == "body" and self._hidden:
            self._hidden = 0
        if tag == "br":
            self._break()
        elif tag == "hr":
            self._soft_break()
            self._write(_SEPARATOR)
            self._break()
        elif tag in _BLOCK:
            self._soft_break()
            if tag == "blockquote":
                self._depth += 1
                self._line_depth = self._depth
            elif tag == "pre":
                self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _INVISIBLE:
            self._hidden = max(0, self._hidden - 1)
            return
        if tag in _BLOCK:
            self._soft_break()
            if tag == "blockquote":
                self._depth = max(0, self._depth - 1)
                self._line_depth = self._depth
            elif tag == "pre":
                self._pre = max(0, self._pre - 1)
            elif tag == "p":
                # A paragraph ends with a blank line, as the reader sees it.
                self._break()

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._pre:
            parts = data.split("\n")
            for i, part in enumerate(parts):
                if i:
                    self._break()
                self._write(part)
            return
        text = _SPACES.sub(" ", data)
        if not self._line or not "".join(self._line).strip():
            text = text.lstrip()
        if text:
            self._write(text)

    def close(self) -> None:
        super().close()
        if self._line:
            self._break()


def html_to_text(html: str) -> str:
    """Render mail HTML as plain text, one visual line per line, quotes as ``> ``."""
    builder = _TextBuilder()
    try:
        builder.feed(html)
        builder.close()
    except Exception:  # the tokenizer is lenient; this is a last line of defence
        if builder._line:
            builder._break()
    out: list[str] = []
    for depth, text in builder.lines:
        text = text.replace("\xa0", " ").rstrip()
        out.append(("> " * depth + text).rstrip() if depth else text)
    result = "\n".join(out)
    # Nested empty blocks pile up blank lines; two in a row are enough for a reader.
    return re.sub(r"\n{3,}", "\n\n", result).strip("\n")
