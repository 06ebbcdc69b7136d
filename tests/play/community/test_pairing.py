"""Swiss and round-robin pairing, as pure functions: properties over random histories."""
from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.play.community.pairing import pair_key, round_robin, swiss
from tests.budgets import examples


def partitions(people: list, table: int):
    """Every way to seat `people` at tables of `table` (a brute force, for the check)."""
    if not people:
        yield []
        return
    head, rest = people[0], people[1:]
    for mates in combinations(rest, table - 1):
        left = [p for p in rest if p not in mates]
        for more in partitions(left, table):
            yield [[head, *mates], *more]


def avoidable(people: list, met: set, had_bye: set, table: int) -> bool:
    """A seating without a repeated pair exists, with byes only to entrants without one
    (while enough have none)."""
    count = len(people) % table
    fresh = [p for p in people if p not in had_bye]
    pool = fresh if len(fresh) >= count else people
    for byes in combinations(pool, count):
        left = [p for p in people if p not in byes]
        for tables in partitions(left, table):
            if not any(pair_key(a, b) in met for t in tables for a, b in combinations(t, 2)):
                return True
    return False


@pytest.mark.deep
@settings(max_examples=examples(120), deadline=None)
@given(n=st.integers(2, 8), table=st.integers(2, 4), rounds=st.integers(1, 6),
       seed=st.integers(0, 10_000))
def test_swiss_repeats_no_pair_while_avoidable_and_gives_byes_at_most_once(n, table,
                                                                             rounds, seed):
    if n < table:
        return
    chance = random.Random(seed)
    people = list(range(n))
    met: set = set()
    byes: list = []
    for _ in range(rounds):
        chance.shuffle(people)                     # any standings: results are random
        could = avoidable(people, met, set(byes), table)
        paired = swiss(people, met, set(byes), table)
        seated = [p for t in paired.tables for p in t]
        assert sorted(seated + paired.byes) == sorted(people)
        assert all(len(t) == table for t in paired.tables)
        assert len(paired.byes) == n % table
        pairs = [pair_key(a, b) for t in paired.tables for a, b in combinations(t, 2)]
        if could:
            assert not any(p in met for p in pairs)
        if len(byes) + len(paired.byes) <= n:
            assert not set(paired.byes) & set(byes), "a second bye while avoidable"
        met.update(pairs)
        byes.extend(paired.byes)


def test_swiss_seats_the_first_round_by_standing():
    paired = swiss(["a", "b", "c", "d", "e"], set(), set(), 2)
    assert paired.tables == [["a", "b"], ["c", "d"]] and paired.byes == ["e"]


@given(n=st.integers(2, 12))
def test_round_robin_is_complete_every_pair_once_and_each_bye_once(n):
    schedule = round_robin(list(range(n)))
    pairs = [pair_key(*t) for r in schedule for t in r.tables]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    byes = [b for r in schedule for b in r.byes]
    assert len(byes) == len(set(byes)) == (n if n % 2 else 0)
    for r in schedule:                 # nobody twice in a round
        seated = [p for t in r.tables for p in t] + r.byes
        assert sorted(seated) == list(range(n))
