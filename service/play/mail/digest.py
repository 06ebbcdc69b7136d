"""The daily digest: a player who chose "a daily digest at HH:00" has its turn emails held
(notify.status_for) and released once a day at that hour of its own time zone: per game, the
latest held email goes out with the news of all the held ones; the older ones are dropped. The
periodic sweep runs this."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select

from service.play.notify import since
from service.play.services import Services
from service.store.models import OutboxRow, Player
from service.store.statuses import OutboxStatus


def release_due(svc: Services) -> list[int]:
    now = svc.clock.now()
    released: list[int] = []
    with svc.db.transaction() as session:
        players = session.scalars(select(Player).where(Player.mail_mode == "digest")).all()
        for player in players:
            today = _due_today(player, now)
            if today is None:
                continue
            held = session.scalars(select(OutboxRow).where(
                OutboxRow.to_addr == player.email, OutboxRow.status == OutboxStatus.HELD)
                .order_by(OutboxRow.id)).all()
            by_game: dict[int | None, list[OutboxRow]] = {}
            for row in held:
                by_game.setdefault(row.game_id, []).append(row)
            for rows in by_game.values():
                latest = rows[-1]
                latest.since_seq = since(session, rows[0])   # all the news since the oldest
                latest.status, latest.next_try = OutboxStatus.PENDING, now
                for older in rows[:-1]:
                    older.status = OutboxStatus.SKIPPED
                released.append(latest.id)
            player.digest_sent_on = today
        session.flush()
    return released


def _due_today(player: Player, now: datetime) -> str | None:
    """The player's local date if its digest hour has come today and not been served."""
    local = now.astimezone(ZoneInfo(player.zone or "UTC"))
    if player.digest_hour is None or local.hour < player.digest_hour:
        return None
    today = local.date().isoformat()
    return None if player.digest_sent_on == today else today
