"""The outgoing emails' headers, without the email package's waste: the header factory that
parses each (name, value) once (service.mailwire.parsedheaders, which the incoming mail's
parsing shares) and remembers how a header was folded.

`PlainHeadersPolicy` goes one step further for the values that vary from email to email (the
Subject, Reply-To, Date, Message-ID, List-Id...): one whose text would be written out
unchanged is kept as that text, as the package keeps the headers of a message it parsed. It
is parsed only if someone reads it back."""
from __future__ import annotations

import re
from datetime import datetime
from email.headerregistry import Address, DateHeader, MessageIDHeader, UnstructuredHeader
from email.policy import EmailPolicy
from email.utils import format_datetime

from service.mailwire.parsedheaders import CachedHeaderRegistry, FoldsOnce

__all__ = ["CachedHeaderRegistry", "FoldsOnce", "PlainHeadersPolicy"]


# printable ASCII and spaces, not empty: nothing a header would have to encode or could break a
# line on ("=?" aside: an unstructured value holding it is read as an encoded word)
_PLAIN = re.compile(r"[\x20-\x7e]+")
# RFC 5322's msg-id in its dot-atom form, the only one we write
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_MSG_ID = re.compile(f"<{_ATOM}@{_ATOM}>")


class PlainHeadersPolicy(EmailPolicy):
    """Keeps a header value as its text, as parsing a message does, when writing that text out
    is exactly what the stock policy would write after parsing it: an unstructured value of
    plain ASCII, an address made as an `Address` (its text is well-formed by construction), a
    date given as a datetime, a Message-ID of dot-atoms; and when it fits on one line. The
    stock policy parses every value set (the address parser is slow) only to write the same
    text back out. Anything else is parsed
    as before; a value kept as text is parsed if someone reads it back."""

    def header_store_parse(self, name, value):
        text = self._plain_text(name, value)
        if text is not None and len(name) + 2 + len(text) <= self.max_line_length:
            return (name, text)
        return super().header_store_parse(name, value)

    def _plain_text(self, name: str, value) -> str | None:
        if isinstance(value, Address):
            text = str(value)
        elif isinstance(value, datetime):
            return format_datetime(value) if issubclass(self.header_factory[name],
                                                        DateHeader) else None
        elif type(value) is str:
            cls = self.header_factory[name]
            if issubclass(cls, MessageIDHeader):
                return value if _MSG_ID.fullmatch(value) else None
            if not issubclass(cls, UnstructuredHeader):
                return None
            text = value
        else:
            return None
        return text if _PLAIN.fullmatch(text) and "=?" not in text else None
