"""A player's webhooks as the outbox's other transport (issue 51; DESIGN "Webhooks are outbox
rows of another transport"): each delivery is an outbox row of kind `KIND`, queued in the
same unit of work as the move (or start, take-back, invitation) that calls for it, and sent
by the relay like an email, so it has the email's retries, parking, idempotency (a row is sent
once; its `message_id` is the `X-Turnpost-Delivery` id, the same at every try) and quiet hours.

* `along`: the hook deliveries a change of position calls for, beside its emails; a player
  whose hook is "webhook only" gets no "your turn" email (the game's end is still emailed).
* `invited`: an invitation's delivery, beside its email.
* `prepare`: what a delivery posts (for the relay), `went_through` and `failed`: what the
  relay tells of it. A hook failing for OFF_AFTER is switched off and its owner emailed.

The delivery row is addressed to the hook's owner (`to_addr`), so a change of address or an
erasure finds it as it finds their emails (service.play.players.personaldata)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.games import registry
from service.games.contract import Game
from service.hooks import bodies, sending
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.store.models import GameRow, OutboxRow, Player, Seat, Webhook
from service.store.statuses import OutboxStatus

from . import notify
from .services import Services

#: the outbox rows that are webhook deliveries
KIND = "webhook"
#: the events a hook may be told of; TURN is the default
TURN, GAME_OVER, INVITATION, TEST = "turn", "game_over", "invitation", "test"
EVENTS = (TURN, GAME_OVER, INVITATION)
#: what a chat message says of each event (service.hooks.bodies.SAID's words, translated)
SAID = {TURN: N_("Your turn"), GAME_OVER: N_("Game over"), INVITATION: N_("You are invited"),
        TEST: N_("A test from Turnpost")}
#: a test delivery's title (said in its owner's language when it is sent)
TEST_TITLE = N_("Turnpost webhook test")
#: failing this long (every try since the first failure), a hook is switched off
OFF_AFTER = timedelta(days=3)
#: the letter telling its owner a hook was switched off (service.play.mail.letters)
OFF_LETTER = "webhook_off"


def of_players(session: Session, player_ids: Iterable[int]) -> dict[int, list[Webhook]]:
    """The players' active hooks, by player id, in one statement (the clock sweep's batch
    reads its games' players' at once and hands them to `along`)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    found: dict[int, list[Webhook]] = {}
    for hook in session.scalars(select(Webhook).where(Webhook.player_id.in_(ids),
                                                      Webhook.active.is_(True))
                                .order_by(Webhook.id)):
        found.setdefault(hook.player_id, []).append(hook)
    return found


def _active(session: Session, player_ids: Iterable[int], event: str) -> dict[int, list[Webhook]]:
    """The players' active hooks told of `event`, by player id."""
    return _told_of(of_players(session, player_ids), event)


def _told_of(hooks: dict[int, list[Webhook]], event: str) -> dict[int, list[Webhook]]:
    return {player: [h for h in theirs if event in h.events.split(",")]
            for player, theirs in hooks.items()}


def event_for(engine: Game, before: Any, after: Any, seat: int) -> str | None:
    """What a change of position (`before` None: the game's start) is to a seat's hooks: the
    game's end, its turn beginning, or nothing: news while it watches, or while its turn goes
    on (a hook firing on every move floods a channel)."""
    if engine.outcome(after) is not None:
        return GAME_OVER if before is None or engine.outcome(before) is None else None
    if seat not in engine.to_act(after):
        return None
    return TURN if before is None or seat not in engine.to_act(before) else None


def along(session: Session, game: GameRow, engine: Game, before: Any, after: Any,
          emails: list[dict[str, Any]], now: datetime, *,
          known: dict[int, list[Webhook]] | None = None) -> list[dict[str, Any]]:
    """The outbox rows' values a change of position from `before` (None: the game's start) to
    `after` queues (`emails`, notify.changed_views'), with its hook deliveries added
    (`event_for`) and the turn emails of "webhook only" players taken out. One statement, for
    the players mailed; none when the caller read their hooks already (`known`,
    `of_players`)."""
    seats = {s.seat: s for s in game.seats}
    acting = frozenset() if engine.outcome(after) is not None else engine.to_act(after)
    told, turn_emails = {}, []
    for row in emails:
        if row["kind"] != "turn" or row["seat"] not in seats:
            continue
        if row["seat"] in acting:
            turn_emails.append(row)         # "webhook only" drops it, told or not
        event = event_for(engine, before, after, row["seat"])
        if event is not None:
            told[row["seat"]] = (row, event)
    players = {seats[r["seat"]].player_id for r in turn_emails} | {
        seats[seat].player_id for seat in told}
    if not players:
        return emails
    if known is None:
        known = of_players(session, players)
    hooks = {event: _told_of(known, event) for event in (TURN, GAME_OVER)}
    deliveries = []
    for seat, (row, event) in told.items():
        seat_row = seats[seat]
        deliveries += [_values(hook, seat_row.player.email, event, now, game.id, seat,
                               row["seq"], seat_row=seat_row)
                       for hook in hooks[event].get(seat_row.player_id, [])]
    replaced = {id(r) for r in turn_emails
                if any(h.instead_of_email
                       for h in hooks[TURN].get(seats[r["seat"]].player_id, []))}
    return [r for r in emails if id(r) not in replaced] + deliveries


def queue_event(session: Session, game: GameRow, seats: Iterable[int], event: str,
                now: datetime) -> list[int]:
    """Deliveries of `event` to the hooks of these seats' players (the service ended the game:
    a resignation or forfeit), queued and sent after the commit."""
    rows = event_values(session, game, seats, event, now)
    return notify.queue_many(session, rows) if rows else []


def event_values(session: Session, game: GameRow, seats: Iterable[int], event: str,
                 now: datetime, *, known: dict[int, list[Webhook]] | None = None
                 ) -> list[dict[str, Any]]:
    """`queue_event`'s outbox rows' values, for a caller that writes them with the rest (the
    clock sweep's batch, which read the players' hooks already: `known`)."""
    by_seat = {s.seat: s for s in game.seats if s.bot is None}
    wanted = [by_seat[s] for s in seats if s in by_seat]
    if known is None:
        known = of_players(session, (s.player_id for s in wanted))
    hooks = _told_of(known, event)
    return [_values(hook, s.player.email, event, now, game.id, s.seat, game.seq, seat_row=s)
            for s in wanted for hook in hooks.get(s.player_id, [])]


def invited(session: Session, email: str, game_id: int | None,
            title: str | Callable[[], str], now: datetime, *, seat: int | None = None
            ) -> list[int]:
    """An invitation's deliveries to the hooks of the player of `email` (none for an address
    that is nobody's yet), beside its email. `title` may be built (called) in that player's
    language: an invitation to no game (a tournament's) keeps the title it is queued with."""
    player = session.scalar(select(Player).where(Player.email == email.lower()))
    if player is None:
        return []
    if callable(title):
        with catalogs.speaking(player.language):
            title = title()
    rows = [_values(hook, player.email, INVITATION, now, game_id, seat, 0, title=title)
            for hook in _active(session, [player.id], INVITATION).get(player.id, [])]
    return notify.queue_many(session, rows) if rows else []


def test(session: Session, hook: Webhook, now: datetime) -> int:
    """A test delivery to one hook (its owner's Test button), sent at once."""
    owner = session.get(Player, hook.player_id)
    return notify.queue_many(session, [_values(hook, owner.email, TEST, now, None, None, 0,
                                               title=TEST_TITLE)])[0]


def _values(hook: Webhook, email: str, event: str, now: datetime, game_id: int | None,
            seat: int | None, seq: int, *, seat_row: Seat | None = None,
            title: str = "") -> dict[str, Any]:
    status, next_try = OutboxStatus.PENDING, now
    if seat_row is not None:
        # inside the player's quiet hours it waits for their end, as their email would
        status, next_try = notify.hold(seat_row, KIND, status, now)
    return {"game_id": game_id, "seat": seat, "to_addr": email, "kind": KIND,
            "message_id": notify.new_message_id(), "seq": seq, "since_seq": 0,
            "payload": {"hook": hook.id, "event": event, **({"title": title} if title else {})},
            "status": status, "attempts": 0, "next_try": next_try, "created_at": now}


# -- the relay's side ----------------------------------------------------------------------

@dataclass(frozen=True)
class Delivery:
    """One POST, ready to go: what `post` sends (the body is signed as it is)."""
    hook_id: int
    url: str
    raw: bytes
    headers: dict[str, str]


class HookGone(LookupError):
    """The delivery's hook was deleted or switched off since it was queued."""


def prepare(session: Session, svc: Services, row: OutboxRow) -> Callable[[], Delivery]:
    """What the delivery of one outbox row posts: the event, the game named by its title and
    the seat's own link (a signed link to its page, as its turn email has)."""
    payload = row.payload or {}
    hook = session.get(Webhook, payload.get("hook", 0))
    if hook is None or not hook.active:
        raise HookGone(f"outbox row {row.id}: its webhook was deleted or switched off")
    urls = svc.urls
    event = payload.get("event", TURN)
    owner = session.get(Player, hook.player_id)
    with catalogs.speaking(owner.language if owner is not None else None):
        # the title and the chat message's words in the owner's language, as their emails
        title = payload.get("title", "")
        if event == TEST:
            title = _(TEST_TITLE)
        elif row.game_id is not None:
            game = session.get(GameRow, row.game_id)
            title = _("%(title)s game %(id)s", title=registry.title(game.kind, game.options),
                      id=game.id)
        if row.game_id is not None and row.seat is not None:
            seat = session.get(Seat, (row.game_id, row.seat))
            url = urls.absolute(urls.game_path(row.game_id, row.seat, seat.holder))
        else:
            url = urls.absolute("/me")      # an invitation is answered there, or by its email
        said = _("%(event)s:", event=_(SAID[event]) if event in SAID else event)
        raw = bodies.body(hook.kind, event, row.game_id, title, url, said=said)
    delivery = Delivery(hook.id, hook.url, raw, {
        "X-Turnpost-Signature": bodies.signature(hook.secret, raw),
        "X-Turnpost-Delivery": row.message_id,
        "X-Turnpost-Event": event})
    return lambda: delivery


def post(svc: Services, delivery: Delivery) -> str:
    """Send it (service.hooks.sending): the endpoint's answer, or HookFailed."""
    return sending.post(delivery.url, delivery.raw, delivery.headers,
                          allow_private=svc.settings.WEBHOOK_ALLOW_PRIVATE)


def went_through(svc: Services, hook_id: int) -> None:
    """A delivery went through: the hook is failing no more."""
    with svc.db.transaction() as session:
        session.execute(update(Webhook).where(Webhook.id == hook_id,
                                              Webhook.failing_since.is_not(None))
                        .values(failing_since=None, last_error=None))


def failed(session: Session, row: OutboxRow, reason: str, now: datetime) -> bool:
    """A delivery failed (the relay retries it as its schedule says): noted on its hook. When
    the hook has failed for OFF_AFTER it is switched off and its owner emailed; True then
    (the row is parked, not retried), as when the hook is gone already."""
    hook = session.get(Webhook, (row.payload or {}).get("hook", 0))
    if hook is None or not hook.active:
        return True
    hook.last_error = reason[:2000]
    if hook.failing_since is None:
        hook.failing_since = now
    if now - hook.failing_since < OFF_AFTER:
        return False
    # its other deliveries still waiting find it off when their turn comes (HookGone)
    hook.active, hook.switched_off_at = False, now
    owner = session.get(Player, hook.player_id)
    notify.letter(session, owner.email, OFF_LETTER,
                  {"hook": hook.id, "url": shown(hook.url),
                   "since": hook.failing_since.isoformat(), "why": reason[:300]}, now)
    return True


def shown(url: str) -> str:
    """A hook's address as an email names it: its host, not its path, which for Discord and
    Slack is the credential that lets anyone post to the channel (an email is kept and
    forwarded; the owner's page shows it whole)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/…"

