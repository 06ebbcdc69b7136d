"""The templates' rows as PostgreSQL's binary COPY, cut at each row's game id: a copy of a
template for game `gid` is the id's four bytes joined between the pieces (one bytes.join),
and the server stores it without parsing a timestamp, a number or a bytea's hex again.

The binary rows are made once per seeding run by PostgreSQL itself (the templates' text rows
copied into a scratch table, then copied out in binary), so they hold exactly what the text
rows would have stored. Only for tables whose first column is the game id and whose other
columns are the same in every copy (events, snapshots, receipts)."""
from __future__ import annotations

import struct

#: PGCOPY's signature, its flags (none) and its header extension's length (none)
HEADER = b"PGCOPY\n\xff\r\n\x00" + b"\x00\x00\x00\x00" * 2
TRAILER = b"\xff\xff"
_INT16, _INT32 = struct.Struct(">h"), struct.Struct(">i")


def game_id(gid: int) -> bytes:
    return _INT32.pack(gid)


def pieces(conn, table: str, columns: tuple[str, ...], blocks: list[bytes]
           ) -> list[list[bytes]]:
    """For each text block (rows with @G@ for the game id), the pieces its binary rows fall
    into around the game id."""
    cols = ", ".join(columns)
    scratch = f"bench_scale_bin_{table}"
    conn.execute(f"CREATE TEMP TABLE {scratch} AS SELECT {cols} FROM {table} WITH NO DATA")
    with conn.cursor().copy(f"COPY {scratch} ({cols}) FROM STDIN") as cp:
        for n, block in enumerate(blocks):
            cp.write(block.replace(b"@G@", str(n + 1).encode()))   # the block's number
    out = bytearray()
    with conn.cursor().copy(f"COPY (SELECT {cols} FROM {scratch} ORDER BY ctid) "
                            "TO STDOUT (FORMAT binary)") as cp:
        for data in cp:
            out += data
    conn.execute(f"DROP TABLE {scratch}")
    return split(bytes(out), len(blocks))


def split(data: bytes, count: int) -> list[list[bytes]]:
    """A binary COPY stream whose rows start with the int4 block number, as pieces per block
    (the rows' first field's length, the id's 4 bytes left out, the rest of the row)."""
    assert data.startswith(HEADER), "not a binary COPY stream without header extension"
    parts: list[list[bytes]] = [[b""] for _ in range(count)]
    at = len(HEADER)
    while True:
        fields = _INT16.unpack_from(data, at)[0]
        if fields == -1:
            break
        start, cursor = at, at + 2
        for _ in range(fields):
            size = _INT32.unpack_from(data, cursor)[0]
            cursor += 4 + max(size, 0)
        assert _INT32.unpack_from(data, start + 2)[0] == 4, "the first field is not an int4"
        block = _INT32.unpack_from(data, start + 6)[0] - 1
        parts[block][-1] += data[start:start + 6]       # field count, the id's length
        parts[block].append(data[start + 10:cursor])    # the rest of the row
        at = cursor
    return parts
