"""The email package's header factory, without its waste: it parses the same headers of every
email again and again.

The standard `HeaderRegistry` makes a new class for every header it parses (`type(...)` on each
call), and parses the same values again and again: every email's Content-Type and
Content-Transfer-Encoding of each part, its MIME-Version, From, List-Id... This one makes each
header class once and keeps the parsed header of a recent (name, value). A parsed header is an
immutable `str` with read-only attributes, so one can stand in every message that would have
parsed the same text: the bytes sent are the same. It also remembers how it was folded
(`FoldsOnce`): a kept header is written out in every email that sets its value, and folding
its parse tree again each time would be wasted work.

`PlainHeadersPolicy` goes one step further for the values that vary from email to email (the
Subject, Reply-To, Date, Message-ID, List-Id...): one whose text would be written out
unchanged is kept as that text, as the package keeps the headers of a message it parsed. It
is parsed only if someone reads it back."""
from __future__ import annotations

import re
from datetime import datetime
from email.headerregistry import (
    Address,
    BaseHeader,
    DateHeader,
    HeaderRegistry,
    MessageIDHeader,
    UnstructuredHeader,
)
from email.policy import EmailPolicy
from email.utils import format_datetime


class FoldsOnce(BaseHeader):
    """A header that remembers its folded text for the last policy settings it was folded
    under. The text depends on nothing else: the header's name and parse tree are fixed when
    it is made, and of the policy folding reads the line length, the line separator and
    whether it may write UTF-8 (the rest is in the key to be safe). The generator clones its
    policy for each part, so the settings are compared, not the policy object."""

    def fold(self, *, policy) -> str:
        key = (type(policy), policy.linesep, policy.max_line_length,
               getattr(policy, "utf8", False), policy.cte_type,
               getattr(policy, "refold_source", None))
        kept = self.__dict__.get("_folded")
        if kept is not None and kept[0] == key:
            return kept[1]
        text = super().fold(policy=policy)
        self._folded = (key, text)
        return text


class CachedHeaderRegistry(HeaderRegistry):
    def __init__(self, size: int = 2048):
        super().__init__(base_class=FoldsOnce)
        self.size = size
        self._classes: dict[str, type] = {}
        self._parsed: dict[tuple[str, str], BaseHeader] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls

    def map_to_type(self, name: str, cls: type) -> None:
        super().map_to_type(name, cls)
        self._classes.clear()
        self._parsed.clear()

    def __call__(self, name: str, value) -> BaseHeader:
        if type(value) is not str:      # an Address, a header of another message...: as given
            return self[name](name, value)
        key = (name, value)
        header = self._parsed.get(key)
        if header is None:
            header = self[name](name, value)
            if len(self._parsed) >= self.size:
                self._parsed.clear()    # most values are one email's own: start again
            self._parsed[key] = header
        return header


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
