"""The tables. Events are the truth; everything else is bookkeeping around them.

`events` has PRIMARY KEY (game_id, seq): two writers appending at the same position collide on
the key, so one of them loses with a conflict instead of overwriting (the eventsourcing
library's concurrency control). `submissions` remembers each accepted intent by its
idempotency key, so a double click or a retried delivery is answered "already done".
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .types import UTCDateTime


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))          # registry id: "trees", ...
    options: Mapped[dict] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer, default=0)   # last event's seq (a read cache)
    status: Mapped[str] = mapped_column(String(20), default="active")  # active | ended
    # the engine's rules_version when the game started: a game plays to its end under it
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    seats: Mapped[list[Seat]] = relationship(order_by="Seat.seat", lazy="selectin")


class Seat(Base):
    __tablename__ = "seats"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    muted: Mapped[bool] = mapped_column(default=False)    # unsubscribed from this game's mail
    player: Mapped[Player] = relationship(lazy="joined")


class EventRow(Base):
    __tablename__ = "events"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(60))
    data: Mapped[dict] = mapped_column(JSON)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)   # who caused it
    source: Mapped[str] = mapped_column(String(20))       # start|link|web|email|bot|timer|cli
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Snapshot(Base):
    """A game's state after event `seq`, pickled: a cache beside the log (service.store.
    snapshots), never the truth. `format` names the rules version and the engine code that
    folded it; a snapshot in any other format is ignored."""

    __tablename__ = "snapshots"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    format: Mapped[str] = mapped_column(String(40))
    state: Mapped[bytes] = mapped_column(LargeBinary)


class Submission(Base):
    __tablename__ = "submissions"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    first_seq: Mapped[int] = mapped_column(Integer)
    last_seq: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OutboxRow(Base):
    """One email to send. Rendered by the worker from the game log at `seq`, so the row is
    small and the email shows exactly the position it was queued for."""

    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)  # None: notice
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_addr: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(20))  # turn | refusal | answer | message | notice
    seq: Mapped[int] = mapped_column(Integer)              # the position shown
    since_seq: Mapped[int] = mapped_column(Integer, default=0)  # news after this seq
    payload: Mapped[dict] = mapped_column(JSON, default=dict)
    # the local part of the email's Message-ID: random, so that a reply's In-Reply-To proves
    # its writer saw this email, and so ids count nothing (a row number would)
    message_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(12), default="pending")
    # pending -> sending -> sent; failures go back to pending with a later next_try, then parked
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[datetime] = mapped_column(UTCDateTime())
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_outbox_due", "status", "next_try"),
                      Index("ix_outbox_game_seat", "game_id", "seat"),
                      UniqueConstraint("message_id", name="uq_outbox_message_id"))


class InboundMessage(Base):
    """Raw mail as received, stored before anything else happens; Message-ID de-duplicates."""

    __tablename__ = "inbound"
    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998))
    raw: Mapped[bytes] = mapped_column()
    # what the raw bytes were parsed into when stored (InboundMail.to_json): parsed once
    parsed: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    via: Mapped[str] = mapped_column(String(20))           # smtp | webhook | imap
    status: Mapped[str] = mapped_column(String(20), default="received")
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    __table_args__ = (UniqueConstraint("message_id", name="uq_inbound_message_id"),)
