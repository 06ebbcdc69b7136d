"""The email package's header factory, without its waste: parsing headers was about a fifth of
composing a turn email (issue 15's fan-out).

The standard `HeaderRegistry` makes a new class for every header it parses (`type(...)` on each
call), and parses the same values again and again: every email's Content-Type and
Content-Transfer-Encoding of each part, its MIME-Version, From, List-Id... This one makes each
header class once and keeps the parsed header of a recent (name, value). A parsed header is an
immutable `str` with read-only attributes, so one can stand in every message that would have
parsed the same text: the bytes sent are the same."""
from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry


class CachedHeaderRegistry(HeaderRegistry):
    def __init__(self, size: int = 2048):
        super().__init__()
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
