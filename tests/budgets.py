"""How much a property or random-play test tries: a budget it declares, the same on every run.

Hypothesis runs derandomized (tests/conftest.py's profile: each test's examples come from a
seed fixed by the test itself, and no example database carries one run into the next), and
random play draws from seeded `random.Random`s, so a failure is reproduced by running the test
again. `make test` runs each at its budget; `make test-deep` (CI runs it too) runs the tests
marked `deep` at DEEP_FACTOR times theirs, the first examples of which are the ones `make test`
tries."""
from __future__ import annotations

import os

DEEP_FACTOR = 5
DEEP = os.environ.get("TURNPOST_TEST_DEEP") == "1"


def examples(n: int) -> int:
    """A hypothesis test's `max_examples`: `n`, or DEEP_FACTOR times it in the deep run."""
    return n * DEEP_FACTOR if DEEP else n


def seeds(n: int, start: int = 0) -> range:
    """The seeds of a random-play test's games: `n` of them, more in the deep run."""
    return range(start, start + examples(n))
