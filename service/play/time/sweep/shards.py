"""The clock sweep split in shards, so that any number of worker processes share one pass: a
shard is the seats of the games whose id leaves `shard` divided by `of`. Beat's pass
(`hand_out`) runs what is not per game (vacations that ended, held turn emails), finds in one
statement which shards have a reminder or a deadline due, and asks for one `timers_shard` job
each; each job is service.play.time.sweep.timeouts.run over its shard alone.

A shard's job is only a second look when it runs twice (two beats, a beat restarted mid-pass,
a job redelivered after its worker was killed): every seat is claimed under its game's row lock
and re-checked there, exactly as between two whole sweepers. One shard is everything."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, bindparam, select, union
from sqlalchemy.orm import Session

from service.store.models import Seat


@dataclass(frozen=True)
class Shard:
    shard: int = 0
    of: int = 1

    def __post_init__(self) -> None:
        if self.of < 1 or not 0 <= self.shard < self.of:
            raise ValueError(f"no shard {self.shard} of {self.of}")

    @property
    def whole(self) -> bool:
        return self.of == 1

    @property
    def params(self) -> dict[str, int]:
        """The parameters of a statement `kept` to a shard: this one's (none for the whole)."""
        return {} if self.whole else {"shard_of": self.of, "shard": self.shard}


def kept(query: Select) -> Select:
    """`query` (over Seat) kept to the games of the shard its parameters name (`Shard.params`):
    for a statement built once, whatever the shard."""
    return query.where(Seat.game_id % bindparam("shard_of") == bindparam("shard"))


WHOLE = Shard()


def due(session: Session, now: datetime, of: int) -> list[int]:
    """The shards with a timeout or a reminder due (as the sweep's own two queries find them),
    by the deadline and reminder indexes."""
    part = Seat.game_id % of
    found = union(select(part).where(Seat.deadline <= now),
                  select(part).where(Seat.remind_at <= now, Seat.deadline > now))
    return sorted(session.scalars(select(found.subquery().c[0])))
