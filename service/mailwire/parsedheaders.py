"""The email package's header factory, without its waste: it parses the same headers of every
message again and again, both the emails we write (service.mailwire.outbound) and the replies
we read (service.mailwire.inbound.parse, whose parser itself asks for a message's
Content-Type four times while parsing it, and the body's reading twice more).

The standard `HeaderRegistry` makes a new class for every header it parses (`type(...)` on each
call), and parses the same values again and again: every email's Content-Type and
Content-Transfer-Encoding of each part, its MIME-Version, From, List-Id... This one makes each
header class once and keeps the parsed header of a recent (name, value). A parsed header is an
immutable `str` with read-only attributes (its defects included), so one can stand in every
message that would have parsed the same text: what is read and what is sent are the same. It
also remembers how it was folded (`FoldsOnce`): a kept header is written out in every email
that sets its value, and folding its parse tree again each time would be wasted work."""
from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry


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
