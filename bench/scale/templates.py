"""The games the seed copies: a few hundred real games played through the use cases (a bot's
move for each seat in turn, a few hours apart on a manual clock, on a 3-day clock) in a scratch
SQLite database, their rows rendered once as PostgreSQL COPY text with placeholders for what
differs between copies: the game's id (@G@) and its seats' addresses (@A0@, @A1@).

Finished templates are played to their end; in-progress ones stop at a random point of a game
of the same kind, so their logs, snapshots, receipts, outbox rows and seat clocks are exactly
what the service left there."""
from __future__ import annotations

import json
import pickle
import random
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import select

from service import play
from service.play import repository
from service.play.clock import ManualClock
from service.store.migrate import upgrade
from service.store.models import EventRow, GameRow, OutboxRow, Seat, Snapshot, Submission
from service.web import create_app

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
#: the kinds of the seeded games and their shares (Aristocracy's 1,700-event logs are few)
KINDS = {"trees": 0.6, "suzerain": 0.2, "magnate": 0.15, "aristocracy": 0.05}
PEOPLE = ["Seat Zero <a0@example.org>", "Seat One <a1@example.org>"]
#: bumped when the rendering changes: a cached file of another version is rebuilt
VERSION = 4

# columns copied from each table (ids that are serial are left to the database)
GAME_COLUMNS = ("id", "kind", "options", "seq", "status", "created_at", "rules_version", "clock",
                "on_timeout", "result", "public_id", "public", "created_by", "rematch_of",
                "bots_due", "rated", "rest_days", "extensions", "tournament_id", "outcome")
SEAT_COLUMNS = ("game_id", "seat", "player_id", "muted", "clock", "deadline", "remind_at",
                "status", "on_timeout", "holder", "bot", "mail_held_since", "to_act")
EVENT_COLUMNS = ("game_id", "seq", "type", "data", "seat", "source", "created_at")
SNAPSHOT_COLUMNS = ("game_id", "seq", "format", "state")
SUBMISSION_COLUMNS = ("game_id", "key", "seat", "first_seq", "last_seq", "source", "created_at")
OUTBOX_COLUMNS = ("game_id", "seat", "to_addr", "kind", "seq", "since_seq", "payload",
                  "message_id", "status", "attempts", "next_try", "claimed_at", "sent_at",
                  "last_error", "created_at", "claim", "relay_id")
#: the instants inside a seat's clock (service.play.time.clocks.seat.clock_to_dict)
CLOCK_INSTANTS = ("turn_started", "deadline", "paused_since", "reminded_at", "moved_at")


@dataclass
class Template:
    kind: str
    finished: bool
    events: int
    moves: int
    ended_at: datetime              # the template's "now": its last move
    game: bytes                     # one COPY line, @G@ for the id
    seats: list[dict]               # each seat's columns (clocks shifted per copy)
    blocks: dict[str, bytes] = field(default_factory=dict)   # table -> COPY lines, @G@


def copy_text(value) -> str:
    """A value as PostgreSQL's COPY text format writes it."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).replace(tzinfo=None).isoformat(" ")
    if isinstance(value, bytes):
        return "\\\\x" + value.hex()
    if isinstance(value, dict | list):
        value = json.dumps(value, separators=(",", ":"))
    text = str(value)
    return (text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r"))


def line(values) -> str:
    return "\t".join(copy_text(v) for v in values) + "\n"


def shift_clock(clock: dict | None, by: timedelta) -> dict | None:
    """A seat clock's instants moved by `by` (its spans unchanged)."""
    if not clock:
        return clock
    out = dict(clock)
    for key in CLOCK_INSTANTS:
        if out.get(key):
            out[key] = (datetime.fromisoformat(out[key]) + by).isoformat()
    for key in ("last_turn", "clock"):
        if isinstance(out.get(key), dict):
            out[key] = shift_clock(out[key], by)
    return out


def play_one(svc, clock: ManualClock, kind: str, rng: random.Random, stop: int | None) -> int:
    """A game of `kind` between two people, bots choosing their moves, `stop` moves long
    (None: to its end)."""
    game_id = play.start_game(svc, kind, PEOPLE, {"clock": "3d"}).game_id
    for n in range(stop if stop is not None else 10**6):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        clock.advance(minutes=rng.randint(20, 30 * 60))     # a correspondence pace
        play.submit(svc, play.Intent(game_id, seat, [move], expected_seq=pos.seq,
                                     source=rng.choice(("link", "email")), key=f"k{n}"))
    return game_id


def render(session, game_id: int, kind: str, finished: bool, moves: int,
           ended_at: datetime) -> Template:
    game = session.get(GameRow, game_id)
    game_values = {c: getattr(game, c) for c in GAME_COLUMNS}
    game_values.update(id="@G@", public_id="s@G@")
    seats = [{c: getattr(s, c) for c in SEAT_COLUMNS}
             for s in session.scalars(select(Seat).where(Seat.game_id == game_id))]
    blocks = {}
    for table, model, columns in (("events", EventRow, EVENT_COLUMNS),
                                  ("snapshots", Snapshot, SNAPSHOT_COLUMNS),
                                  ("submissions", Submission, SUBMISSION_COLUMNS),
                                  ("outbox", OutboxRow, OUTBOX_COLUMNS)):
        if finished and table in ("submissions", "outbox"):
            continue        # what the seed leaves out of finished games (bench/scale/seed.py)
        text = []
        for n, row in enumerate(session.scalars(select(model).where(model.game_id == game_id))):
            values = {c: getattr(row, c) for c in columns}
            values["game_id"] = "@G@"
            if table == "outbox":
                values["message_id"] = f"s@G@-{n}"
                values["to_addr"] = f"@A{row.seat}@" if row.seat is not None else "@A0@"
                # sent long ago (the templates' relay never ran): no sweep sends them again
                values.update(status="sent", attempts=1, sent_at=row.created_at)
            text.append(line(values[c] for c in columns))
        blocks[table] = "".join(text).encode()
    return Template(kind, finished, game.seq, moves, ended_at,
                    line(game_values[c] for c in GAME_COLUMNS).encode(), seats, blocks)


def build(per_kind: int = 40, seed: int = 11, say=print) -> list[Template]:
    """`per_kind` finished and `per_kind` in-progress templates of each kind."""
    rng = random.Random(seed)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'templates.db'}"
        upgrade(url)
        clock = ManualClock(T0)
        app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": f"{tmp}/out",
                          "TURNPOST_CHANCE": random.Random(seed), "TURNPOST_CLOCK": clock,
                          "TURNPOST_BACKGROUND": "inline", "TURNPOST_AUTO_VACATION": False})
        svc = app.extensions["turnpost"]
        svc.enqueue = play.services.run_nothing
        for kind in KINDS:
            lengths = []
            for _ in range(per_kind):
                game_id = play_one(svc, clock, kind, rng, None)
                with svc.db.transaction() as s:
                    moves = len(s.scalars(select(Submission.key).where(
                        Submission.game_id == game_id)).all())
                    out.append(render(s, game_id, kind, True, moves, clock.now()))
                lengths.append(moves)
            for _ in range(per_kind):
                stop = rng.randint(1, max(1, rng.choice(lengths) - 1))
                game_id = play_one(svc, clock, kind, rng, stop)
                with svc.db.transaction() as s:
                    out.append(render(s, game_id, kind, False, stop, clock.now()))
            say(f"templates: {kind}, {per_kind} finished and {per_kind} in progress")
        svc.dispose()
    return out


def load_or_build(cache: Path, say=print) -> list[Template]:
    """The templates from `cache` if it holds this version's, else built and kept there."""
    if cache.exists():
        try:
            version, templates = pickle.loads(cache.read_bytes())  # noqa: S301 - our own file
            if version == (VERSION, repository._engine_code()):
                return templates
        except Exception:  # noqa: BLE001 - an unreadable cache is rebuilt
            pass
    templates = build(say=say)
    cache.parent.mkdir(parents=True, exist_ok=True)
    # the snapshots' format names the engines' code: another code's are useless
    cache.write_bytes(pickle.dumps(((VERSION, repository._engine_code()), templates)))
    return templates
