"""Tournaments run by their games' ends: the next round when a round's last game ends, the
standings and their tie-breaks, the refusals that make nothing."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service import play
from service.play import community
from service.store.models import GameRow, OutboxRow, Tournament


def background(svc):
    """The workers' jobs, run in process in the order they were asked for."""
    jobs: list = []
    svc.enqueue = lambda job, *args: jobs.append((job, args))

    def drain(limit: int = 5000) -> None:
        while jobs and limit:
            limit -= 1
            job, args = jobs.pop(0)
            if job == "bots":
                play.move_bots(svc, *args)
            elif job == "tournament":
                play.advance_tournament(svc, *args)
    return drain


def test_a_tournament_of_bots_runs_to_its_end_by_itself(services):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 3,
                            ["bot:easy", "bot:normal", "bot:easy", "bot:normal"])
    assert len(made.games) == 2
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended" and view.round == 3
    assert [len(r.tables) for r in view.played] == [2, 2, 2]
    assert all(table.over for r in view.played for table in r.tables)
    # four entrants, three rounds: everyone met everyone once
    pairs = [frozenset(t.players) for r in view.played for t in r.tables]
    assert len(set(pairs)) == 6
    assert sum(line.points for line in view.standings) == 6
    assert all(line.played == 3 for line in view.standings)
