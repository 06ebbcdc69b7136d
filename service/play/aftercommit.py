"""The one seam after a commit (eventsourcing's notification after `Repository.save`): the
background work a unit of work calls for is declared inside it, in its `session.info`, by the
code that wrote what calls for it, and run once it commits by `Services.committed`, which
`Database.transaction` hands the info after the commit. A unit of work that rolls back runs
nothing.

What is declared where:

- `deliver`: outbox rows, by whatever queues or requeues them (`notify.queue`,
  `notify.queue_many`, a move's write in `moves.submit.record`, the clock sweep's batch);
- `bots`: a game left with a bot's move, or a person's forced move, to play
  (`notify.turns_changed`, used by every write that changes whose turn it is);
- `tournament`: a tournament one of whose games ended (its next round may be due);
- `inbound`: a stored email to process; `timers_shard`: a shard of the clocks' pass.

No use case and no adapter kicks background work itself: every way in (a link, the page, a
reply, the API, the CLI, the sweep, a tournament's start) gets the same work after its commit.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

#: session.info's key: the work declared in this unit of work, in the order declared
FOLLOWING = "turnpost.after_commit"
#: the job that sends outbox rows: run first, once, with every row of the unit of work
DELIVER = "deliver"


def later(session: Session, job: str, *args: Any) -> None:
    """Declare `job(*args)` to run once this unit of work commits (each distinct job once)."""
    session.info.setdefault(FOLLOWING, []).append((job, args))


def deliver(session: Session, rows) -> None:
    """Send these outbox rows once the unit of work commits: ids, or rows of the ORM whose id
    the flush before the commit assigns."""
    if rows:
        session.info.setdefault(FOLLOWING, []).append((DELIVER, tuple(rows)))


def bots(session: Session, game_id: int) -> None:
    """A bot, or a person's forced move, is to play in this game."""
    later(session, "bots", game_id)


def tournament(session: Session, tournament_id: int) -> None:
    """A game of this tournament ended: its next round may be due."""
    later(session, "tournament", tournament_id)


def inbound(session: Session, row_id: int) -> None:
    """A stored email waits to be processed."""
    later(session, "process_inbound", row_id)


def due(info: dict) -> list[tuple[str, tuple]]:
    """The jobs the committed unit of work declared (taken out of `info`): one `deliver` of
    all its rows first (its emails go out before a bot answers the move), then every other
    job once, in the order first declared."""
    declared = info.pop(FOLLOWING, [])
    rows: list[int] = []
    jobs: list[tuple[str, tuple]] = []
    for job, args in declared:
        if job == DELIVER:
            rows += [_row_id(r) for r in args]
        elif (job, args) not in jobs:
            jobs.append((job, args))
    rows = [r for r in dict.fromkeys(rows) if r is not None]
    return ([(DELIVER, (rows,))] if rows else []) + jobs


def _row_id(row) -> int | None:
    return row if isinstance(row, int) else getattr(row, "id", None)
