"""The tables. Events are the truth; everything else is bookkeeping around them.

`events` has PRIMARY KEY (game_id, seq): two writers appending at the same position collide on
the key, so one of them loses with a conflict instead of overwriting (the eventsourcing
library's concurrency control). `submissions` remembers each accepted intent by its
idempotency key, so a double click or a retried delivery is answered "already done".
"""
from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    and_,
    false,
    or_,
    true,
)
from sqlalchemy import text as sql
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .statuses import GameStatus, InboundStatus, OutboxStatus, SeatStatus
from .types import UTCDateTime


class Base(DeclarativeBase):
    pass


def handle_stem(name: str) -> str:
    """The lower-case ASCII words of a display name joined by hyphens ("Ana María" ->
    "ana-maria"), the start of a public handle; "player" when nothing is left."""
    ascii_name = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:30] or "player"


def _new_handle(context) -> str:
    # a player's public handle, never their address: the name plus a random number (the
    # migration numbered the players before it in order; a clash fails the unique key)
    name = context.get_current_parameters().get("name") or ""
    return f"{handle_stem(name)}-{secrets.randbelow(90000) + 10000}"


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(100))          # the display name others see
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    zone: Mapped[str | None] = mapped_column(String(64), nullable=True)   # IANA, e.g. Europe/Paris
    # turn: only when it is my move (and the end) | every: every change | digest: once a day
    mail_mode: Mapped[str] = mapped_column(String(12), default="turn", server_default="turn")
    digest_hour: Mapped[int | None] = mapped_column(Integer, nullable=True)   # local hour
    digest_sent_on: Mapped[str | None] = mapped_column(String(10), nullable=True)  # local date
    # "never email me from this service": nothing is ever sent to this address again
    suppressed: Mapped[bool] = mapped_column(default=False, server_default=false())
    # a hard bounce: the address is dead, every game's mail to it stops
    bounced_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # the profile's address, /players/<handle>: public, unlike the email address
    handle: Mapped[str] = mapped_column(String(48), unique=True, default=_new_handle)
    # the player asked for no public profile: /players/<handle> answers as for nobody
    profile_hidden: Mapped[bool] = mapped_column(default=False, server_default=false())
    # their own calendar (service.play.time.calendar): days their clocks stand still ("sat,sun"),
    # hours nobody mails them ("22-08"), reminder offsets ("24h,4h,1h"); all in `zone`
    rest_days: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rest_days_changed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    quiet_hours: Mapped[str | None] = mapped_column(String(16), nullable=True)
    reminders: Mapped[str | None] = mapped_column(String(80), nullable=True)
    # a clock that runs out takes one of the player's vacation days instead, while any is left
    auto_vacation: Mapped[bool] = mapped_column(default=True, server_default=true())
    # a seat's one legal move that shows it nothing new is played for it (service.play.moves.tablebots)
    forced_moves: Mapped[bool] = mapped_column(default=True, server_default=true())
    # the language of everything sent to them and of their pages: en, de or fr (None: not
    # chosen yet, English; service.mailwire.outbound.catalogs); first set from the browser at sign-in
    language: Mapped[str | None] = mapped_column(String(5), nullable=True)
    # the last out-of-office reply answered with a vacation offer (at most one a week)
    away_offered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    @property
    def unmailable(self) -> bool:
        return refuses_mail(self)


def refuses_mail(player) -> bool:
    """No mail goes to the player's address: it hard-bounced, or they asked never to be
    mailed. Takes a Player or its plain record (service.store.records)."""
    return bool(player.suppressed or player.bounced_at is not None)


#: a game not over (forming or in progress): its index holds these alone (migration 0040), for
#: /me's games in progress; a query names the condition as written here to use it
UNENDED = f"status != '{GameStatus.ENDED}'"


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))          # registry id: "trees", ...
    options: Mapped[dict] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer, default=0)   # last event's seq (a read cache)
    status: Mapped[str] = mapped_column(String(20), default=GameStatus.ACTIVE)
    # the engine's rules_version when the game started: a game plays to its end under it
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    # time control (service.play.time.clocks.option_text; None = no clock) and the timeout policy
    clock: Mapped[str | None] = mapped_column(String(40), nullable=True)
    on_timeout: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # extensions each player may ask of the others (`extensions=N`); None: the default, 1
    extensions: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a result the service decided (a resignation or forfeit ended the game), not the engine
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # the engine's outcome (Outcome.to_json) of a game its rules ended, written as it ends:
    # lists and feeds show a finished game's result from the row, without folding its log
    # (a `result` the service decided, when there is one, is the one shown)
    outcome: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # a bot seat is to act (set with every move): the sweep finds bots whose kick was lost
    bots_due: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # the public page is /games/<public_id>: an unguessable id, and `public` can turn it off
    public_id: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    public: Mapped[bool] = mapped_column(default=True, server_default=true())
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)   # a player id
    rematch_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the end changes its players' ratings (the option `rated`; practice games never are)
    rated: Mapped[bool] = mapped_column(default=True, server_default=true())
    # `rest_days=sat,sun`: every seat's clock stands still on those days (their own zones)
    rest_days: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # a tournament's game: its round starts the next when the last of them ends
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"),
                                                      nullable=True, index=True)
    seats: Mapped[list[Seat]] = relationship(order_by="Seat.seat", lazy="selectin")
    __table_args__ = (Index("ix_games_unended", "id", postgresql_where=sql(UNENDED),
                            sqlite_where=sql(UNENDED)),)


class Rating(Base):
    """A rated player's standing in one game (kind): a person ("player:<id>") or a bot level
    ("bot:normal"). The fold of its RatingChange rows, kept for the leaderboards; locked
    while a game's end changes it."""

    __tablename__ = "ratings"
    kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    rater: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_ratings_player", "player_id"),)


class RatingChange(Base):
    """What one rated game did to one player's rating: one row per game and rater (the
    unique key), so a game is rated once however often its end is recorded. `id` is the
    order the changes were made in, which a rebuild from the logs follows."""

    __tablename__ = "rating_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    rater: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)          # 1 = first; shared places share it
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)          # the rater's rated games, this one in
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("game_id", "rater", name="uq_rating_changes_game_rater"),
                      Index("ix_rating_changes_rater", "kind", "rater", "id"))


class Seat(Base):
    __tablename__ = "seats"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    # indexed with the game (ix_seats_player_game): a player's games (/me, the API, vacations)
    # are found by it, newest first
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    muted: Mapped[bool] = mapped_column(default=False)    # unsubscribed from this game's mail
    # the seat's clock (service.play.time.clocks.clock_to_dict); `deadline` and `remind_at` repeat its
    # next instants, indexed, so the sweep finds what is due without loading games
    clock: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    remind_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(20), default=SeatStatus.ACTIVE,
                                        server_default=SeatStatus.ACTIVE.value)
    on_timeout: Mapped[str | None] = mapped_column(String(20), nullable=True)  # seat override
    # bumped when another player takes the seat over: links minted for an earlier holder fail
    holder: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # a bot's level ("easy" | "normal") when a bot plays this seat: never mailed
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # the seat's turn email bounced or was never accepted: its clock is paused since then
    mail_held_since: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # the seat is to act now (the engine's to_act; never in an ended game), written with every
    # change of whose move it is (service.play.repository.mark_turns, time.ending.finish):
    # /me and the API's list read whose move it is here, without folding each game's log
    to_act: Mapped[bool] = mapped_column(default=False, server_default=false())
    # the seat resigned or forfeited as the n-th to leave its game (1 first), None while it
    # plays: the first to leave ranks lowest (RULINGS P1, service.play.ranking)
    left_order: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player: Mapped[Player] = relationship(lazy="joined")
    __table_args__ = (Index("ix_seats_player_game", "player_id", "game_id"),)


class Vacation(Base):
    """A player's vacation: calendar days in their zone, both ends included. `open` while the
    clocks are stopped for it; `resumes_at` is when they restart by themselves."""

    __tablename__ = "vacations"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    resumes_at: Mapped[datetime] = mapped_column(UTCDateTime())
    open: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_vacations_open_resumes", "open", "resumes_at"),)


class SeatChange(Base):
    """What happened to a seat outside the rules (resigned, forfeited, absent, replaced,
    extended, switched to bot): service bookkeeping the engines never see, shown in the
    history after the event `seq`."""

    __tablename__ = "seat_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    seq: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_seat_changes_game", "game_id", "seq"),)


class EventRow(Base):
    __tablename__ = "events"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(60))
    data: Mapped[dict] = mapped_column(JSON)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)   # who caused it
    source: Mapped[str] = mapped_column(String(20))       # start|link|web|email|bot|timer|cli
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ChatMessage(Base):
    """A message written at the table: to everyone (`to_seat` None) or privately to one seat.
    Not an engine event, so not in `events`."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    from_seat: Mapped[int] = mapped_column(Integer)
    to_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    seq: Mapped[int] = mapped_column(Integer)             # the game's position when written
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_chat_game", "game_id", "id"),)


class UndoRequest(Base):
    """A seat asks to take back its last move (events after `back_to`). Valid only while the
    game is still at `at_seq`: the next move expires it."""

    __tablename__ = "undo_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    back_to: Mapped[int] = mapped_column(Integer)
    at_seq: Mapped[int] = mapped_column(Integer)
    answers: Mapped[dict] = mapped_column(JSON, default=dict)   # {"1": true, ...} by seat
    status: Mapped[str] = mapped_column(String(12), default="open")  # open|done|refused|expired
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_undo_game", "game_id", "status"),)
class Plan(Base):
    """A seat's move written ahead, private to it until played (service.play.moves.standingplans):
    `if` answers the named seat's next move when it is exactly `condition`; `next` plays when
    the seat's turn comes. A dropped plan waits (`status` dropped, `told` false) until the
    writer's next turn email says why."""

    __tablename__ = "plans"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))                  # if | next
    other: Mapped[int | None] = mapped_column(Integer, nullable=True)   # the named seat
    condition: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    reply: Mapped[dict] = mapped_column(JSON)
    text: Mapped[str] = mapped_column(Text)                       # the line as written
    written_seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), default="standing")  # standing|dropped
    why: Mapped[str | None] = mapped_column(Text, nullable=True)
    told: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_plans_game", "game_id", "status"),)


#: a game's plans a move must follow or tell of: those standing, and those dropped but not told
#: yet (service.play.moves.planplay; the lock read of a move asks whether any exists)
PLANS_WAITING = or_(Plan.status == "standing", and_(Plan.status == "dropped", Plan.told.is_(False)))


class Note(Base):
    """A private note a player keeps on a game (issue 50, `note ...`): shown to its writer
    alone, and only while they hold the seat they wrote it at (service.play.moves.notes)."""

    __tablename__ = "notes"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))   # the writer
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_notes_game_seat", "game_id", "seat"),
                      Index("ix_notes_player", "player_id"))


class Follow(Base):
    """A signed-in player follows a public game, or a whole tournament (issue 50): one digest
    email a day of the moves made, as spectators see them (service.play.community.follows).
    `sent_until`: the digest has told the moves up to then."""

    __tablename__ = "follows"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"),
                                                      nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    sent_until: Mapped[datetime] = mapped_column(UTCDateTime())

    # one follow per player and game or tournament is kept by service.play.community.follows
    __table_args__ = (Index("ix_follows_player", "player_id"),
                      Index("ix_follows_game", "game_id"),
                      Index("ix_follows_tournament", "tournament_id"))


class ExtensionRequest(Base):
    """A seat asks the others to move its deadline later by `days`; it moves once every other
    seat has agreed (`answers`: {"1": true, ...} by seat)."""

    __tablename__ = "extension_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    holder: Mapped[int] = mapped_column(Integer)
    days: Mapped[int] = mapped_column(Integer)
    answers: Mapped[dict] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(12), default="open")  # open|done|expired
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_extension_game", "game_id", "seat"),)


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


#: an outbox row's email is not done with: its due index holds these alone (PostgreSQL)
UNSENT = "status NOT IN ('sent', 'skipped')"


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
    # news after this seq; None: after the seat's previous turn email, worked out when the
    # email is composed (play.notify.since), so a move does not look it up
    since_seq: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    payload: Mapped[dict] = mapped_column(JSON, default=dict)
    # the local part of the email's Message-ID: random, so that a reply's In-Reply-To proves
    # its writer saw this email, and so ids count nothing (a row number would)
    message_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(12), default=OutboxStatus.PENDING)
    # pending -> sending -> sent; failures go back to pending with a later next_try, then parked
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[datetime] = mapped_column(UTCDateTime())
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # the sending worker's claim (random): its heartbeat renews claimed_at under it, and a
    # late failure of a claim that was taken over changes nothing
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # what the relay answered to DATA ("2.0.0 Ok: queued as 4Xb1..."): proof it was sent
    relay_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # how many times its email has been composed to go out (each claim composes it anew):
    # the n-th carries its own Message-ID (play.notify.rendering_id), the first `message_id`
    renderings: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    # on PostgreSQL the rows not done with only (migration 0030): a sent row's updates add no
    # entry to it
    __table_args__ = (Index("ix_outbox_due", "status", "next_try", postgresql_where=sql(UNSENT)),
                      Index("ix_outbox_game_seat", "game_id", "seat"),
                      UniqueConstraint("message_id", name="uq_outbox_message_id"))


class AddressRefusal(Base):
    """A day the relay refused an address with a per-recipient permanent code (5.1.x): the
    evidence that mutes an address when it comes from two separate days (play.refusals)."""

    __tablename__ = "address_refusals"
    address: Mapped[str] = mapped_column(String(320), primary_key=True)   # lower case
    day: Mapped[date] = mapped_column(Date, primary_key=True)             # UTC
    refused_at: Mapped[datetime] = mapped_column(UTCDateTime())
    answer: Mapped[str] = mapped_column(Text)          # what the relay said, for an operator


class InboundMessage(Base):
    """Raw mail as received, stored before anything else happens; Message-ID de-duplicates."""

    __tablename__ = "inbound"
    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998))
    raw: Mapped[bytes] = mapped_column()
    # what the raw bytes were parsed into when stored (InboundMail.to_json): parsed once
    parsed: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    via: Mapped[str] = mapped_column(String(20))           # smtp | webhook | imap
    status: Mapped[str] = mapped_column(String(20), default=InboundStatus.RECEIVED)
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # the game and seat it was for, once processing found them (attempts from other
    # addresses are shown to the seat's owner)
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # mail for no reply address of ours is kept until then, for diagnosis; None: for good
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # processing stopped by a transient database error (status "retrying"): how often it was
    # tried, and when the sweep takes it again
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # who holds the processing claim (a worker's task id): its own retry may take it back
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)

    __table_args__ = (UniqueConstraint("message_id", name="uq_inbound_message_id"),
                      Index("ix_inbound_game_seat", "game_id", "seat"),
                      Index("ix_inbound_expires_at", "expires_at"))


class ApiToken(Base):
    """A player's personal credential for the JSON API (scope "api") or for their calendar and
    feed URLs (scope "feed"). Only a hash is kept: the token itself is shown once."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    token_hash: Mapped[str] = mapped_column(String(64))     # sha256 hex of the token
    scope: Mapped[str] = mapped_column(String(10), default="api")   # api | feed
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    player: Mapped[Player] = relationship(lazy="joined")

    __table_args__ = (UniqueConstraint("token_hash", name="uq_api_tokens_hash"),
                      Index("ix_api_tokens_player", "player_id"))
class AccountChange(Base):
    """A player's own change to their account, asked for on /me and confirmed by a signed,
    single-use link that lasts an hour (service.play.players.readdress, .erasure): a change of
    address (`readdress`: from `old_email` to `new_email`) or an erasure (`erase`). A confirmed
    change of address is kept for a while after (`used_at`): a reply from the old address is
    answered once (`answered_at`) with where to write now."""

    __tablename__ = "account_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))                # readdress | erase
    old_email: Mapped[str] = mapped_column(String(320), index=True)
    new_email: Mapped[str | None] = mapped_column(String(320), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Webhook(Base):
    """A player's endpoint told of their games by a signed POST (issue 51): each delivery is
    an outbox row of kind "webhook" (service.play.webhooks), sent by the relay like an email.
    The secret signs each body (HMAC-SHA256); it is kept as it is because signing needs it,
    and shown to the player once, when the hook is made."""

    __tablename__ = "webhooks"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    url: Mapped[str] = mapped_column(String(2000))
    kind: Mapped[str] = mapped_column(String(10), default="json")      # json | discord | slack
    secret: Mapped[str] = mapped_column(String(64))
    # the events it is told of, comma-separated: turn, game_over, invitation
    events: Mapped[str] = mapped_column(String(80), default="turn")
    # "webhook only": the events it is told of are no longer emailed to the player
    instead_of_email: Mapped[bool] = mapped_column(default=False, server_default=false())
    active: Mapped[bool] = mapped_column(default=True, server_default=true())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # the first failure since its last delivery that went through: three days of them and
    # the hook is switched off (`switched_off_at`) and its owner told by email
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    switched_off_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class SignIn(Base):
    """A one-time sign-in link (its signed token names this row): it lasts 15 minutes, works
    once, and only in the browser that asked for it (`browser_hash`, from a nonce in that
    browser's session)."""

    __tablename__ = "sign_ins"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320))
    browser_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Invitation(Base):
    """One seat of a forming game: the creator's (accepted), an invited address (pending until
    it accepts or declines), or an open seat anyone signed in may take."""

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    email: Mapped[str | None] = mapped_column(String(320), nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # pending | accepted | declined | open | replaced (a declined seat given to another address)
    status: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    player: Mapped[Player | None] = relationship(lazy="joined")

    __table_args__ = (Index("ix_invitations_game", "game_id", "seat"),)



class Challenge(Base):
    """A standing challenge: "I'd play this game, on this clock, rated or not, against these
    ratings and this reliability". `open` until matched (with the game it started) or
    withdrawn; matching takes an open row with a conditional UPDATE, so it is taken once."""

    __tablename__ = "challenges"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    clock: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean)
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    min_reliability: Mapped[int | None] = mapped_column(Integer, nullable=True)  # percent
    status: Mapped[str] = mapped_column(String(12))          # open | matched | withdrawn
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    matched_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    __table_args__ = (Index("ix_challenges_open", "status", "kind"),)


class LadderRung(Base):
    """A player's place on a game's ladder: 1 is the top; no two players share a place."""

    __tablename__ = "ladder_rungs"
    kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    place: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("kind", "place", name="uq_ladder_rungs_place"),)


class LadderGame(Base):
    """A ladder challenge's game: `settled` once its winner has taken the higher place."""

    __tablename__ = "ladder_games"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    defender_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    settled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_ladder_games_open", "kind", "settled"),)


class LadderChallenge(Base):
    """A ladder challenge before its game: `waiting` for the defender, who accepts it (or the
    ladder's stated time, `answer_by`, lapses); then `started` with its game, else
    `withdrawn` by the challenger or `void` (one of them left the ladder, or blocked the
    other, meanwhile). Taken from `waiting` by a conditional UPDATE, so it starts once."""

    __tablename__ = "ladder_challenges"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    defender_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    answer_by: Mapped[datetime] = mapped_column(UTCDateTime())
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)

    __table_args__ = (Index("ix_ladder_challenges_waiting", "status", "answer_by"),)


class Block(Base):
    """The blocker takes no invitations from, is never matched with, and does not see the chat
    of the blocked player."""

    __tablename__ = "blocks"
    blocker_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ChatReport(Base):
    """A chat line a player reported to the operators (`flask reports list`); once each."""

    __tablename__ = "chat_reports"
    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("message_id", "reporter_id",
                                       name="uq_chat_reports_once"),)
class Tournament(Base):
    """A Swiss or round-robin event: its rounds' games start together, the next round when
    the last game of the one before ends (service.play.community.tournaments)."""
    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    format: Mapped[str] = mapped_column(String(20))            # "swiss" | "round-robin"
    rounds: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSON)                # each game's (clock=, rated ...)
    no_vacation: Mapped[bool] = mapped_column(default=False, server_default=false())
    rated: Mapped[bool] = mapped_column(default=True, server_default=true())
    # forming (a lobby tournament's invitations out) | running | ended | cancelled (never started)
    status: Mapped[str] = mapped_column(String(20), default="running")
    round: Mapped[int] = mapped_column(Integer, default=0)     # the round being played
    # a game of the current round ended: the next round may be due (the sweep's catch-up)
    due: Mapped[bool] = mapped_column(default=False, server_default=false())
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # the signed-in player who made it in the lobby (None: the operator's `flask tournaments`)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)


class TournamentInvite(Base):
    """An address invited to a tournament made in the lobby: pending until it accepts (then it
    is an entrant) or declines; a pending one past `expires_at` reads as expired."""
    __tablename__ = "tournament_invites"
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    email: Mapped[str] = mapped_column(String(320))
    entry: Mapped[int] = mapped_column(Integer)                # its place in the maker's list
    status: Mapped[str] = mapped_column(String(12))            # pending | accepted | declined
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class TournamentEntrant(Base):
    __tablename__ = "tournament_entrants"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer)                # order of entry: the first seed
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    withdrawn_round: Mapped[int | None] = mapped_column(Integer, nullable=True)  # resigned in
    player: Mapped[Player] = relationship(lazy="joined")


class TournamentRound(Base):
    """One row per round started: the key (tournament, round) is what makes two workers
    that finish a round's last games at once start the next round only once."""
    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list] = mapped_column(JSON)                   # player ids given a bye
    games: Mapped[list] = mapped_column(JSON)                  # the round's game ids
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())


class League(Base):
    """Seasons that repeat, in divisions, with promotion and relegation
    (service.play.community.leagues): each season's division is a round-robin tournament, and
    the season ends when the last of them does."""
    __tablename__ = "leagues"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    divisions: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer)                 # players in each division
    season_days: Mapped[int] = mapped_column(Integer)          # sizes each game's clock
    promote: Mapped[int] = mapped_column(Integer)              # up and down at a season's end
    # forming (taking members until the divisions are full) | running | closing (the season
    # being played is its last) | closed
    status: Mapped[str] = mapped_column(String(12), default="forming")
    season: Mapped[int] = mapped_column(Integer, default=0)    # the season being played
    # a division of the season ended: the season's end may be due (the sweep's catch-up)
    due: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class LeagueMember(Base):
    """A player in a league: their division for the season being played (None while they wait
    for a place), until they leave."""
    __tablename__ = "league_members"
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer)                # order of joining
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    division: Mapped[int | None] = mapped_column(Integer, nullable=True)   # 1 is the top
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime())
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    player: Mapped[Player] = relationship(lazy="joined")


class LeagueSeason(Base):
    """One row per season started: the key (league, season) is what makes two workers that
    end a season's last divisions at once start the next season only once."""
    __tablename__ = "league_seasons"
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), primary_key=True)
    season: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class LeagueDivision(Base):
    """A season's division: the round-robin tournament its members play."""
    __tablename__ = "league_divisions"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"))
    season: Mapped[int] = mapped_column(Integer)
    division: Mapped[int] = mapped_column(Integer)             # 1 is the top
    __table_args__ = (UniqueConstraint("league_id", "season", "division",
                                       name="uq_league_divisions_season_division"),)
