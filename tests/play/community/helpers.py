"""Players made directly in the store, for the community's use-case tests."""
from __future__ import annotations

from sqlalchemy import select

from service.play.players import start
from service.store.models import OutboxRow


def player(svc, name: str) -> int:
    with svc.db.transaction() as s:
        return start.find_player(s, f"{name.lower()}@example.org", name, svc.clock.now()).id


def letters_to(svc, name: str, kind: str = "challenge") -> list[dict]:
    with svc.db.transaction() as s:
        return [r.payload for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == kind, OutboxRow.to_addr == f"{name.lower()}@example.org"))]
