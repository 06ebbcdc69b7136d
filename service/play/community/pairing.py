"""Who plays whom in a round: pure functions of the standings and the history, no database.

Swiss, for tables of any size: the entrants who have had no bye yet take the round's byes from
the bottom of the standings up; the rest are seated by standing, top first, and no two sit at
one table again while another seating avoids it (a search over the standing order, so the
first seating found is the one closest to the standings). Round robin, for two-player games:
the circle method, every pair exactly once."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

#: how many seatings the search tries before it settles for the fewest repeated pairs
SEARCH_LIMIT = 20_000


@dataclass(frozen=True)
class Round:
    tables: list[list[Hashable]]    # each table's entrants, by standing
    byes: list[Hashable]


def pair_key(a: Hashable, b: Hashable) -> frozenset:
    return frozenset((a, b))


def swiss(standing: Sequence[Hashable], met: set[frozenset], had_bye: set[Hashable],
          table: int) -> Round:
    """`standing`: the entrants in the round, best first; `met`: the pairs that have shared a
    table; `had_bye`: who has had a bye; `table`: the game's table size."""
    if table < 2 or len(standing) < table:
        raise ValueError(f"{len(standing)} entrants cannot fill a table of {table}")
    order = list(standing)
    bye_count = len(order) % table
    fresh = [e for e in reversed(order) if e not in had_bye]
    again = [e for e in reversed(order) if e in had_bye]
    # byes go to the lowest entrants without one; each choice is tried in turn so that a
    # seating without repeats is found whenever one exists with byes to new entrants
    candidates = fresh + again
    best: Round | None = None
    best_repeats = None
    for byes in _bye_choices(candidates, bye_count, len(fresh)):
        left = [e for e in order if e not in byes]
        tables = _seat(left, met, table)
        if tables is not None:
            return Round(tables, list(byes))
        if best is None:
            tables = _greedy(left, met, table)
            best, best_repeats = Round(tables, list(byes)), repeats(tables, met)
    assert best is not None and best_repeats is not None
    return best


def _bye_choices(candidates: list, count: int, fresh: int):
    """Sets of `count` byes, the lowest first; while enough entrants have had none, only
    from them (byes at most once each comes before avoiding a repeat)."""
    if count == 0:
        yield ()
        return
    pool = candidates[:fresh] if fresh >= count else candidates
    tried = 0
    for combo in combinations(pool, count):
        yield combo
        tried += 1
        if tried >= 200:
            return


def _seat(left: list, met: set[frozenset], table: int) -> list[list] | None:
    """Tables without a repeated pair, by standing order (depth first), or None."""
    budget = [SEARCH_LIMIT]

    def fill(rest: list) -> list[list] | None:
        if not rest:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        head, others = rest[0], rest[1:]
        for mates in combinations(others, table - 1):
            group = [head, *mates]
            if any(pair_key(a, b) in met for a, b in combinations(group, 2)):
                continue
            after = fill([e for e in others if e not in mates])
            if after is not None:
                return [group, *after]
        return None

    return fill(left)


def _greedy(left: list, met: set[frozenset], table: int) -> list[list]:
    """Top down, each seat the best-standing entrant who repeats the fewest pairs."""
    rest, tables = list(left), []
    while rest:
        group = [rest.pop(0)]
        while len(group) < table:
            pick = min(rest, key=lambda e: (sum(pair_key(e, g) in met for g in group),
                                            rest.index(e)))
            rest.remove(pick)
            group.append(pick)
        tables.append(group)
    return tables


def repeats(tables: list[list], met: set[frozenset]) -> int:
    return sum(pair_key(a, b) in met for t in tables for a, b in combinations(t, 2))


def round_robin(entrants: Sequence[Hashable]) -> list[Round]:
    """Every pair once (two-player games): the circle method, one bye a round when odd."""
    people: list = list(entrants)
    if len(people) < 2:
        raise ValueError("a round robin needs two entrants")
    if len(people) % 2:
        people.append(None)
    n = len(people)
    out = []
    for _ in range(n - 1):
        pairs = [(people[i], people[n - 1 - i]) for i in range(n // 2)]
        tables = [[a, b] for a, b in pairs if a is not None and b is not None]
        byes = [a if b is None else b for a, b in pairs if a is None or b is None]
        out.append(Round(tables, byes))
        people = [people[0], people[-1], *people[1:-1]]
    return out


def round_robin_rounds(entrants: int) -> int:
    return entrants - 1 if entrants % 2 == 0 else entrants
