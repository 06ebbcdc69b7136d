"""Players made directly in the store, and the workers' jobs run in process, for the
community's use-case tests."""
from __future__ import annotations

from sqlalchemy import select

from service import play
from service.play.players import start
from service.store.models import OutboxRow


def player(svc, name: str) -> int:
    with svc.db.transaction() as s:
        return start.find_player(s, f"{name.lower()}@example.org", name, svc.clock.now()).id


def letters_to(svc, name: str, kind: str = "challenge") -> list[dict]:
    with svc.db.transaction() as s:
        return [r.payload for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == kind, OutboxRow.to_addr == f"{name.lower()}@example.org"))]


def background(svc, jobs_at_most: int = 5000):
    """The workers' jobs (the bots' moves, a tournament's next round), run in process in the
    order the seam asked for them: returns `drain`, which runs them until none is left (or
    `jobs_at_most` ran, so a loop that never ends fails instead of hanging)."""
    jobs: list = []
    svc.enqueue = lambda job, *args: jobs.append((job, args))

    def drain(limit: int = jobs_at_most) -> None:
        while jobs and limit:
            limit -= 1
            job, args = jobs.pop(0)
            if job == "bots":
                play.move_bots(svc, *args)
            elif job == "tournament":
                play.advance_tournament(svc, *args)
    return drain
