"""Acting on a stored reply email (Mailman's command runner, Discourse's receiver): find the
game and seat, check the sender, run the commands, and answer every refusal in the game's
thread. Automated mail (auto-replies, bounces, lists) is recorded and never answered.

Each way a message can fail is one outcome with its own reply; nothing is applied unless all of
the message's move lines are."""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from service.links import Signer, TokenError
from service.mail.inbound.parse import (
    Automated,
    InboundMail,
    NoCommands,
    NoGameAddress,
    parse_message,
    rejection,
    reply_tokens,
)
from service.store.models import GameRow, InboundMessage, OutboxRow

from . import notify, positions
from .errors import AlreadyDone, PlayError, Refused
from .services import Services
from .submit import Intent, apply

log = logging.getLogger(__name__)
HELP_LIMIT = 60
# lines that are fragments of our own wrapped links, quoted back without ">" by some clients
_LINK_FRAGMENT = re.compile(r"(https?://|^\S{40,}$)")
_ROOT_ID = re.compile(r"^game-(\d+)@")


@dataclass
class Result:
    status: str                      # applied | refused | answered | ignored | duplicate ...
    outbox_ids: list[int] = field(default_factory=list)
    detail: str = ""


@dataclass
class Target:
    game_id: int
    seat: int | None
    seq: int | None                  # position of the email replied to, if we know it
    proven: bool = True              # a reply token or one of our random Message-IDs
    # the game's row as find_target read it (kept so the session need not read it again)
    row: GameRow | None = field(default=None, repr=False, compare=False)


CLAIM_TIMEOUT = timedelta(minutes=10)


def _claimable(now: datetime):
    # received and never taken, or taken by a worker that died more than CLAIM_TIMEOUT ago
    return or_(InboundMessage.status == "received",
               and_(InboundMessage.status == "processing",
                    InboundMessage.processed_at < now - CLAIM_TIMEOUT))


def waiting(session: Session, now: datetime) -> list[int]:
    """Stored messages still unprocessed (their kick was lost): the sweep takes them."""
    return list(session.scalars(select(InboundMessage.id).where(_claimable(now))
                                .order_by(InboundMessage.id).limit(200)))


def process(svc: Services, inbound_id: int) -> Result:
    """Process one stored message once, then send its answers. A message whose processing
    raises is marked `failed` with the error for an operator, not retried forever."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        claimed = session.execute(update(InboundMessage)
                                  .where(InboundMessage.id == inbound_id, _claimable(now))
                                  .values(status="processing", processed_at=now)
                                  .returning(InboundMessage.parsed)).first()
        if claimed is None:
            return Result("already processed")
        # parsed once, at intake; rows stored before that was kept are parsed here
        mail = InboundMail.from_json(claimed.parsed) if claimed.parsed else \
            parse_message(session.get(InboundMessage, inbound_id).raw)
    try:
        result = _decide(svc, mail, now)
    except Exception as exc:
        log.exception("processing inbound message %s failed", inbound_id)
        result = Result("failed", detail=f"{type(exc).__name__}: {exc}")
    with svc.db.transaction() as session:
        session.execute(update(InboundMessage).where(InboundMessage.id == inbound_id)
                        .values(status=result.status, outcome=result.detail[:2000],
                                processed_at=now))
    svc.kick("deliver", result.outbox_ids)
    return result


def _decide(svc: Services, mail: InboundMail, now: datetime) -> Result:
    db, domain = svc.db, svc.urls.domain
    why = rejection(mail, domain)
    if isinstance(why, Automated):
        return Result("ignored", detail=why.explain())   # never answer a robot: no mail loops
    if not mail.sender:
        return Result("ignored", detail="no sender to answer")
    with db.transaction() as session:
        target = find_target(session, svc.urls.signer, mail, domain)
        if target is None:
            ids = _notice(session, mail, now, "We could not tell which game your email is "
                          "for. Please reply to the latest email of your game, keeping its "
                          "reply address (it starts with play+).")
            return Result("refused", ids, "no game address")
        game = target.row or session.get(GameRow, target.game_id)
        seat = _seat_of(game, mail.sender, target.seat)
        if seat is None:
            ids = _notice(session, mail, now, f"The address {mail.sender} is not playing in "
                          f"{game.kind.title()} game {game.id}. Please send your moves from "
                          "the address the game's emails go to.")
            return Result("refused", ids, "sender not in game")
        if why is not None and not isinstance(why, (NoCommands, NoGameAddress)):
            return _refuse(session, svc, game, seat, mail, now, why.explain())
        if not target.proven:
            # a From header is easy to forge: without the reply address or one of our own
            # Message-IDs nothing is applied (the answer goes to the player's own address)
            return _refuse(session, svc, game, seat, mail, now, "Your email did not come back to "
                           "the game's reply address (play+…), so we cannot be sure it is "
                           "from you. Please reply to your latest email from this game.")
    lines = [ln for ln in mail.command_lines if not _LINK_FRAGMENT.search(ln)]
    if not lines:
        with db.transaction() as session:
            game = session.get(GameRow, target.game_id)
            return _refuse(session, svc, game, seat, mail, now, NoCommands().explain())
    return _run(svc, mail, target, seat, lines, now)


def _run(svc: Services, mail: InboundMail, target: Target, seat: int, lines: list[str],
         now: datetime) -> Result:
    db = svc.db
    special = [ln for ln in lines if _word(ln) in ("help", "view", "say")]
    moves = [ln for ln in lines if _word(ln) not in ("help", "view", "say")]
    ids: list[int] = []
    status = "answered"
    if moves:
        # the lines of one reply are one whole turn (M9: "keep" as the last line keeps it open)
        intent = Intent(target.game_id, seat, lines=moves, expected_seq=target.seq,
                        source="email", key=f"mail:{mail.message_id}"[:128], whole_turn=True)
        try:
            with db.transaction() as session:
                applied = apply(session, svc, intent)
            ids += applied.outbox_ids
            status = "applied"
        except AlreadyDone:
            return Result("duplicate", detail="already applied")
        except Refused as exc:
            with db.transaction() as session:
                game = session.get(GameRow, target.game_id)
                return _refuse(session, svc, game, seat, mail, now, exc.detail, exc.text,
                               exc.suggestions)
        except PlayError as exc:    # the game moved on, or is over
            with db.transaction() as session:
                game = session.get(GameRow, target.game_id)
                return _refuse(session, svc, game, seat, mail, now, exc.detail)
    if special:
        with db.transaction() as session:
            game = session.get(GameRow, target.game_id)
            for line in special:
                ids += _special(session, svc, game, seat, line, mail, now)
    return Result(status, ids, f"{len(moves)} move lines, {len(special)} other")


def _special(session: Session, svc: Services, game: GameRow, seat: int, line: str,
             mail: InboundMail, now: datetime) -> list[int]:
    word, _, rest = line.strip().partition(" ")
    pos = positions.load(session, svc.states, game.id)
    word = word.lower()
    if word == "say":
        if not rest.strip():
            return _refuse(session, svc, game, seat, mail, now, "Write the message after the word "
                           "say, e.g. \"say good luck!\"", line).outbox_ids
        name = next(s.player.name for s in game.seats if s.seat == seat)
        rows = [notify.queue(session, game, s.seat, "message", pos.seq, now,
                             {"said": {"name": name, "text": rest.strip()[:2000]}})
                for s in game.seats if s.seat != seat]
    elif word == "help":
        moves = pos.engine.legal_moves(pos.state, seat) if pos.engine.outcome(pos.state) is None else []
        texts = [pos.engine.describe(m) for m in moves]
        shown = texts[:HELP_LIMIT]
        more = f"\n…and {len(texts) - HELP_LIMIT} more (the game page lists them all)." \
            if len(texts) > HELP_LIMIT else ""
        answer = ("Every move you can make now, one per line:\n" + "\n".join(shown) + more
                  if shown else "You have no move to make right now; you will get an email "
                  "when it is your turn.")
        rows = [_reply_row(session, game, seat, "answer", pos.seq, now, mail, {"answer": answer})]
    else:   # view
        rows = [_reply_row(session, game, seat, "answer", pos.seq, now, mail,
                           {"answer": "Here is the game as it stands."})]
    session.flush()
    return [r.id for r in rows]


def _refuse(session: Session, svc: Services, game: GameRow, seat: int, mail: InboundMail,
            now: datetime, why: str, line: str = "",
            suggestions: list[str] | None = None) -> Result:
    pos = positions.load(session, svc.states, game.id)
    row = _reply_row(session, game, seat, "refusal", pos.seq, now, mail,
                     {"refusal": {"why": why, "line": line, "suggestions": suggestions or []}})
    session.flush()
    return Result("refused", [row.id], why)


def _reply_row(session, game, seat, kind, seq, now, mail: InboundMail, payload) -> OutboxRow:
    row = notify.queue(session, game, seat, kind, seq, now,
                       dict(payload, in_reply_to=mail.message_id))
    row.since_seq = seq     # an answer carries no news; the turn emails do that
    return row


def _notice(session: Session, mail: InboundMail, now: datetime, why: str) -> list[int]:
    """A reply outside any game (we do not know which, or the sender is not its player)."""
    row = OutboxRow(game_id=None, seat=None, to_addr=mail.sender, kind="notice", seq=0,
                    message_id=notify.new_message_id(),
                    since_seq=0, status="pending", attempts=0, next_try=now, created_at=now,
                    payload={"why": why, "subject": mail.subject, "in_reply_to": mail.message_id})
    session.add(row)
    session.flush()
    return [row.id]


def find_target(session: Session, signer: Signer, mail: InboundMail, domain: str) -> Target | None:
    """Game and seat from the reply address; failing that, from the email replied to."""
    replied = _replied_row(session, mail, domain)
    for token in reply_tokens(mail, domain):
        try:
            game_id, seat = signer.read_reply_token(token)
        except TokenError:
            continue
        game = session.get(GameRow, game_id)
        if game is None:
            continue
        seq = replied.seq if replied and (replied.game_id, replied.seat) == (game_id, seat) else None
        return Target(game_id, seat, seq, row=game)
    if replied is not None:
        return Target(replied.game_id, replied.seat, replied.seq)
    for ref in [*mail.in_reply_to, *mail.references]:
        m = _ROOT_ID.match(ref)
        if m and ref.endswith("@" + domain) and session.get(GameRow, int(m.group(1))):
            # the thread root is guessable: it names the game but proves nothing
            return Target(int(m.group(1)), None, None, proven=False)
    return None


def _replied_row(session: Session, mail: InboundMail, domain: str) -> OutboxRow | None:
    """The email of ours this one answers. Our Message-IDs are random, so a match shows the
    writer had that email (unlike the guessable thread root, which only names the game)."""
    for ref in [*mail.in_reply_to, *reversed(mail.references)]:
        local, _, host = ref.partition("@")
        if host == domain and local.startswith("tp."):
            row = session.scalar(select(OutboxRow).where(OutboxRow.message_id == local))
            if row is not None and row.game_id is not None:
                return row
    return None


def _seat_of(game: GameRow, sender: str, seat: int | None) -> int | None:
    """The seat the sender plays: the addressed one must be theirs."""
    mine = [s.seat for s in game.seats if s.player.email == sender.lower()]
    if seat is None:
        return mine[0] if len(mine) == 1 else None
    return seat if seat in mine else None


def _word(line: str) -> str:
    return line.strip().split(" ", 1)[0].lower()
