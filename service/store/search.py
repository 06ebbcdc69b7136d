"""Finding a string anywhere in a column, in any case: text, JSON and raw bytes alike. An
erasure looks for an address in what people wrote (a chat line, a stored email, an answer the
relay gave), where no index can help; the rows are few, the search is rare, and each database
is asked in its own words:

* SQLite: `instr(lower(CAST(col AS TEXT)), needle)`. LIKE would stop at a NUL byte in raw mail;
  instr counts bytes and does not.
* PostgreSQL: `strpos(lower(col::text), needle)`; raw bytes through `encode(col, 'escape')`,
  which leaves printable ASCII as it is and writes every other byte as a backslash and three
  octal digits, so a needle is written the same way (`escaped`).

A JSON column is stored as its JSON text, in which a character beyond ASCII is a \\uXXXX escape
(SQLAlchemy's serializer), so a needle is looked for in that spelling as well."""
from __future__ import annotations

import json

from sqlalchemy import JSON, LargeBinary, Text, cast, func, or_
from sqlalchemy.sql.elements import ColumnElement


def json_spelling(needle: str) -> str:
    """The needle as it is written inside a JSON string."""
    return json.dumps(needle)[1:-1]


def escaped(needle: str) -> str:
    """The needle as PostgreSQL's encode(bytes, 'escape') writes its UTF-8 bytes."""
    return "".join(chr(b) if 32 <= b < 127 and b != 92 else f"\\{b:03o}"
                   for b in needle.encode())


def spellings(column, needle: str, dialect: str) -> list[str]:
    """Every way `needle` (lower case) may appear in the column's text as the database reads it."""
    if isinstance(column.type, JSON):
        found = [needle, json_spelling(needle)]
    elif isinstance(column.type, LargeBinary) and dialect == "postgresql":
        found = [escaped(needle)]
    else:
        found = [needle]
    return list(dict.fromkeys(s.lower() for s in found))


def as_text(column, dialect: str):
    if isinstance(column.type, LargeBinary) and dialect == "postgresql":
        return func.encode(column, "escape")
    if isinstance(column.type, (JSON, LargeBinary)):
        return cast(column, Text)
    return column


def mentions(column, needle: str, dialect: str) -> ColumnElement[bool]:
    """The rows whose `column` holds `needle` somewhere, in any case."""
    text = func.lower(as_text(column, dialect))
    find = func.strpos if dialect == "postgresql" else func.instr
    return or_(*[find(text, spelled) > 0 for spelled in spellings(column, needle.lower(),
                                                                 dialect)])
