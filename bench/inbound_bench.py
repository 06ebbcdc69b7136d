"""Inbound parsing throughput: every fixture in tests/mail/fixtures, N rounds.

Run: .venv/bin/python bench/inbound_bench.py [rounds]   (prints figures, asserts nothing)
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.mailwire.inbound.parse import parse_message  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "mail" / "fixtures"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    messages = [p.read_bytes() for p in sorted(FIXTURES.glob("*.eml"))]
    size = sum(len(m) for m in messages)
    for raw in messages:  # warm-up: imports, regex compilation
        parse_message(raw)
    start = time.perf_counter()
    for _ in range(rounds):
        for raw in messages:
            parse_message(raw)
    elapsed = time.perf_counter() - start
    count = rounds * len(messages)
    print(f"fixtures: {len(messages)} ({size / 1024:.1f} KiB in total)")
    print(f"parsed {count} messages in {elapsed:.2f} s: {count / elapsed:,.0f} messages/s")

    big = b"From: a@b.c\r\nTo: play+x@t.e\r\n\r\nsell sailor\r\n" + b"# filler\r\n" * 400_000
    start = time.perf_counter()
    parse_message(big)
    print(f"one {len(big) / 1e6:.1f} MB message: {(time.perf_counter() - start) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
