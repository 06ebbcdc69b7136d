"""Acting on a stored reply email (Discourse's receiver): find the game and seat, check the
sender, hand the lines to the one command runner (service.play.moves.runner, as the page, the
API and the CLI do), and answer every refusal in the game's thread. Automated mail
(auto-replies, bounces, lists) is recorded and never answered.

Each way a message can fail is one outcome with its own reply; a reply's lines are one batch,
all or none (nothing is stored unless every line is accepted).

Answers are bounded: one answer mail per message at most (refusal, help and notes in it), at
most MAX_COMMAND_LINES lines read, the say lines of one message are one message to the table,
and ANSWERS_PER_HOUR per seat. Only a seat's own address is ever answered: mail for no game,
or from an address that is not the seat's, gets no mail at all (no backscatter), but for one
answer to an address its player moved away from, saying where to write now (once ever:
service.play.players.readdress.answer_once)."""
from __future__ import annotations

import difflib
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from service.games.contract import CommandError
from service.linking.signer import Signer, TokenError
from service.mailwire.inbound.parse import (
    Automated,
    InboundMail,
    NoCommands,
    NoGameAddress,
    clean_text,
    parse_message,
    rejection,
    reply_tokens,
)
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import _
from service.play import notify, repository
from service.play.errors import AlreadyDone, PlayError
from service.play.moves import Intent, runner, wordregistry
from service.play.players import readdress
from service.play.services import Services
from service.store import inboundrows, records
from service.store.models import GameRow, InboundMessage, OutboxRow
from service.store.statuses import InboundStatus
from service.store.transient import DatabaseUnavailable, is_transient, why

from . import answercap, awayoffers, bounces, retry

log = logging.getLogger(__name__)
#: Command lines read per email; the answer says when there were more.
MAX_COMMAND_LINES = 20
#: Answers (refusals, help, view) per seat and hour; then one "I will stop" and silence.
ANSWERS_PER_HOUR = 10
#: Lines of one answer: a reply of thousands of "help" lines gets one short answer.
ANSWER_MAX_LINES = 300
#: How often a seat's owner hears by mail of attempts from other addresses.
WARN_EVERY = timedelta(days=1)
KEPT_FOR_DIAGNOSIS = timedelta(days=7)
#: The status of a message for a seat from an address that is not the seat's.
STRANGER = InboundStatus.STRANGER
# lines that are fragments of our own wrapped links, quoted back without ">" by some clients
_LINK_FRAGMENT = re.compile(r"(https?://|^\S{40,}$)")
_ROOT_ID = re.compile(r"^game-(\d{1,12})@")
# what became of mail nobody is answered about (no backscatter), in words for whoever looks
# (the dev outbox lists them; so does `flask inbound --status ignored`)
NO_SENDER = ("its From address is missing or is none we could write to (root@localhost has "
             "no domain); nothing was done: write from the address the game's emails come to")
NO_GAME = ("it came to no game's reply address (play+…), nor answered one of our emails; "
           "nothing was done: use Reply on a turn email")


@dataclass
class Result:
    status: str                      # applied | refused | answered | ignored | stranger ...
    outbox_ids: list[int] = field(default_factory=list)
    detail: str = ""
    game_id: int | None = None
    seat: int | None = None
    # written down already, in the transaction that did it (a move and nothing else)
    recorded: bool = False


@dataclass
class Target:
    game_id: int
    seat: int | None
    seq: int | None                  # position of the email replied to, if we know it
    proven: bool = True              # a reply token or one of our random Message-IDs
    # the game with its seats and players as find_target read it, plain records
    # (service.store.records), kept so the session need not read it again
    row: SimpleNamespace | None = field(default=None, repr=False, compare=False)


# processing takes well under a second; a claim older than this belongs to a dead worker (the
# idempotency key of the message's moves makes a second run harmless)
CLAIM_TIMEOUT = timedelta(minutes=2)


def waiting(session: Session, now: datetime) -> list[int]:
    """Stored messages still unprocessed (their kick was lost, or the database stopped them
    and their next attempt is due): the sweep takes them."""
    due = or_(InboundMessage.status != retry.RETRYING,
              InboundMessage.next_attempt_at <= now)
    claimable = inboundrows.claimable(now - CLAIM_TIMEOUT)
    return list(session.scalars(select(InboundMessage.id).where(claimable, due)
                                .order_by(InboundMessage.id).limit(200)))


def process(svc: Services, inbound_id: int, claimant: str | None = None) -> Result:
    """Process one stored message once, then send its answer. A transient database error
    (service.store.transient) hands the message back to be tried again (inbound_retry) and
    raises DatabaseUnavailable; a message whose processing raises anything else is a bug,
    marked `failed` with the error for an operator (`flask inbound retry` runs it again).
    `claimant`: who takes the message (a worker's task id, the same in its retries)."""
    now = svc.clock.now()
    try:
        # the claim commits as it runs (no BEGIN or COMMIT round trip): what follows in this
        # unit of work only reads
        with svc.db.autocommit() as session:
            taken, parsed = inboundrows.claim(session.connection(), inbound_id, now,
                                                now - CLAIM_TIMEOUT, claimant)
            if not taken:
                return Result("already processed")
            # parsed once, at intake; rows stored before that was kept are parsed here
            mail = InboundMail.from_json(parsed) if parsed else \
                parse_message(session.get(InboundMessage, inbound_id).raw)
            bounce = bounces.token_of(mail, svc.urls.domain)
            # a reply's game and seat are read in the claim's own unit of work (issue 53: it
            # was a unit of work of its own, a pool checkout, BEGIN and COMMIT more); a bug
            # reading them is the message's failure below
            target = _target_or_failure(session, svc, mail) if not bounce else None
    except Exception as exc:
        if not is_transient(exc):
            raise
        svc.outages.failed("database", why(exc))
        raise DatabaseUnavailable(f"inbound message {inbound_id} not taken: {why(exc)}") \
            from exc
    try:
        # a delivery report to one of our bounce+ addresses, or a player's reply
        if bounce:
            status, detail = bounces.handle(svc, _raw(svc, inbound_id), bounce)
            if status == "ignored":   # an out-of-office reply to the return path (RFC 3834)
                status, detail = awayoffers.consider(
                    svc, mail, *awayoffers.seat_of_bounce_token(svc, bounce)) or (status, detail)
            result = Result(status, detail=detail)
        else:
            if isinstance(target, Exception):
                raise target
            result = _decide(svc, mail, now, inbound_id, target)
    except Exception as exc:
        if is_transient(exc):
            _stopped_by_database(svc, inbound_id, now, exc)
        log.exception("processing inbound message %s failed", inbound_id)
        result = Result(InboundStatus.FAILED, detail=f"{type(exc).__name__}: {exc}")

    recorded = result.recorded or retry.through_blips(
        svc, lambda session: _write_outcome(session, inbound_id, result, now))
    svc.note("inbound", event=result.status)
    if not recorded:
        # done but not written down: its claim lapses and a second run finds the move made
        raise DatabaseUnavailable(f"inbound message {inbound_id} was {result.status}, but "
                                  "the database went away before that was recorded")
    return result


def _write_outcome(session: Session, inbound_id: int, result: Result, now: datetime) -> None:
    """What became of the message, in the caller's transaction."""
    inboundrows.write_outcome(
        session.connection(), inbound_id, result.status, now,
        clean_text(result.detail)[:2000], result.game_id, result.seat,
        now + KEPT_FOR_DIAGNOSIS if result.status == STRANGER else None)


def _stopped_by_database(svc: Services, inbound_id: int, claimed_at: datetime,
                         exc: BaseException) -> None:
    """Hand the message back to be tried again, by the caller's retry (a worker's) or the
    sweep. Its moves are one transaction: a run after they committed finds them made (their
    idempotency key), never makes them twice."""
    svc.outages.failed("database", why(exc))
    svc.note("inbound", event=retry.RETRYING)
    if retry.release(svc, inbound_id, claimed_at, exc):
        raise DatabaseUnavailable(f"inbound message {inbound_id} waits to be tried again: "
                                  f"{why(exc)}") from exc
    raise DatabaseUnavailable(f"inbound message {inbound_id} keeps its claim for its "
                              f"claimant's retry, or until it lapses (the database stayed "
                              f"away): {why(exc)}") from exc


def _raw(svc: Services, inbound_id: int) -> bytes:
    with svc.db.transaction() as session:
        return session.get(InboundMessage, inbound_id).raw


def _target_or_failure(session: Session, svc: Services, mail: InboundMail
                       ) -> Target | Exception | None:
    """The game and seat the message is for (find_target), or the bug that stopped reading
    them; a transient database error is raised (the claim is kept: the worker's retry, the
    same claimant, takes the message again, or the sweep once the claim lapses)."""
    try:
        return find_target(session, svc.urls.signer, mail, svc.urls.domain)
    except Exception as exc:   # noqa: BLE001 - a bug: the message fails, once, with it
        if is_transient(exc):
            raise
        return exc


def _decide(svc: Services, mail: InboundMail, now: datetime, inbound_id: int,
            target: Target | None) -> Result:
    """What to do with a reply whose game and seat (`target`) were read with its claim. The
    usual reply needs nothing more of the database here (the session below then opens no
    connection): its game came with the target, and its lines are its own."""
    db, domain = svc.db, svc.urls.domain
    why = rejection(mail, domain)
    if isinstance(why, Automated):
        # never answered as a move; an out-of-office reply may bring its player an offer
        offered = awayoffers.consider(svc, mail, target.game_id, target.seat) if target \
            else None
        status, detail = offered or (InboundStatus.IGNORED, why.explain())
        return Result(status, detail=detail)   # never answer a robot: no mail loops
    if not mail.sender:
        return Result(InboundStatus.IGNORED, detail=NO_SENDER)
    with db.transaction() as session:
        if target is None:
            # no game: nobody we know to answer (a From can name anyone: no backscatter)
            return Result(InboundStatus.IGNORED, detail=NO_GAME)
        game = target.row or records.read_one(session.connection(), target.game_id)
        seat = _seat_of(game, mail.sender, target.seat)
        if seat is None:
            return _stranger(session, svc, game, target, mail, now)
        answer = Answer(svc, game.id, seat, mail, now)
        # the seat's player is answered in their language: refusals, `help`, every word
        language = next(s.player.language for s in game.seats if s.seat == seat)
        with catalogs.speaking(language):
            if why is not None and not isinstance(why, (NoCommands, NoGameAddress)):
                return answer.refuse(session, why.explain())
            if not target.proven:
                # a From header is easy to forge: without the reply address or one of our own
                # Message-IDs nothing is applied (the answer goes to the player's own address)
                return answer.refuse(session, _(
                    "Your email did not come back to the game's reply address (play+…), so "
                    "we cannot be sure it is from you. Please reply to your latest email "
                    "from this game."))
            lines = _command_lines(session, svc, game, seat, mail)
    with catalogs.speaking(language):
        if not lines:
            with db.transaction() as session:
                return answer.refuse(session, NoCommands(_example(session, svc, game.id,
                                                                  seat)).explain())
        return _run(svc, answer, target, lines, inbound_id)


def _example(session: Session, svc: Services, game_id: int, seat: int) -> str:
    """A line that would work for this seat now: its first legal move, else `help`."""
    pos = repository.load(session, svc.states, game_id)
    if pos.engine.outcome(pos.state) is None:
        for move in pos.engine.legal_moves(pos.state, seat)[:1]:
            return pos.engine.describe(move)
    return "help"


def _command_lines(session: Session, svc: Services, game: GameRow, seat: int,
                   mail: InboundMail) -> list[str]:
    """The lines to run: the reply's own, then those of its closing block that are commands
    ("Thanks for waiting!" above "harvest moons": quotes.extract_reply cannot tell, the game
    can). A last line that is only the writer's name is a signature, not a move; so is a
    last line set apart by a blank line that reads as a name ("Zoe", "Al"), is no command and
    looks like none of the game's words (a mistyped `harvset` is still refused, saying so)."""
    lines = [ln for ln in mail.command_lines if not _LINK_FRAGMENT.search(ln)]
    closing = [ln for ln in mail.closing_lines if not _LINK_FRAGMENT.search(ln)]
    names = _names(game, seat, mail)
    apart = _signed_apart(mail.command_text, lines)
    if not closing and not (lines and (_plain(lines[-1]) in names or apart)):
        return lines                                # the usual reply: no need of the game
    pos = repository.load(session, svc.states, game.id)

    def is_command(line: str) -> bool:
        if wordregistry.is_word(line):
            return True
        try:
            pos.engine.parse(pos.state, seat, line)
        except CommandError:
            return False
        return True

    if apart and not closing and not is_command(lines[-1]) \
            and not _like_a_word(lines[-1], pos.engine, pos.state, seat):
        return lines[:-1]                           # a nickname under the moves
    lines += [ln for ln in closing if is_command(ln)]
    if lines and _plain(lines[-1]) in names and not is_command(lines[-1]):
        lines.pop()
    return lines


# a name as people sign: one to three words of letters ("Zoe", "Al", "Mary-Jo", "J.")
_NAME = re.compile(r"^[^\W\d_]+\.?(?:[ '-][^\W\d_]+\.?){0,2}$")
_NAME_CHARS = 30


def _signed_apart(command_text: str, lines: list[str]) -> bool:
    """Whether the reply's last line stands below its moves after a blank line, and reads as
    a name: a sign-off, unless the game reads it (the caller asks)."""
    if len(lines) < 2:
        return False            # a name alone is no reply: "We found no move" says so
    written = [ln.strip() for ln in command_text.split("\n")]
    while written and not written[-1]:
        written.pop()
    if len(written) < 3 or written[-2] or written[-1] != lines[-1].strip():
        return False
    name = _plain(lines[-1])
    return len(name) <= _NAME_CHARS and bool(_NAME.match(name))


def _like_a_word(line: str, engine, state, seat: int) -> bool:
    """Whether a word of the line is, or is spelt nearly as, a word of the game's: one a
    move or a command starts with, or one its refusal of the line names ("harvest <tree>"):
    then the line was meant as a move, and is refused with suggestions, not dropped as a
    name."""
    known = {word.split(" ", 1)[0] for word in wordregistry.WORDS}      # every language's
    if engine.outcome(state) is None:
        known |= {engine.describe(m).split(" ", 1)[0].lower()
                  for m in engine.legal_moves(state, seat)}
    try:
        engine.parse(state, seat, line)
    except CommandError as exc:
        known |= set(_WORD.findall(" ".join([exc.why, *exc.suggestions]).lower()))
    return any(difflib.get_close_matches(word, known, n=1, cutoff=0.75)
               for word in _WORD.findall(_plain(line)))


_WORD = re.compile(r"[^\W\d_]{2,}")


def _names(game: GameRow, seat: int, mail: InboundMail) -> set[str]:
    """What a player signs with: their name here, the name their mail client sends, either's
    first word, their address's local part."""
    player = next(s.player for s in game.seats if s.seat == seat)
    found = {mail.sender.partition("@")[0]}
    for name in (player.name or "", mail.sender_name or ""):
        found |= {_plain(name), _plain(name.split(" ", 1)[0])}
    return found - {""}


def _plain(line: str) -> str:
    return line.strip().strip("-–—~,.!").strip().lower()


def _stranger(session: Session, svc: Services, game: GameRow, target: Target,
              mail: InboundMail, now: datetime) -> Result:
    """Mail for a seat from an address that is not the seat's: no mail goes to that address
    (it may be forged: backscatter). The seat's owner sees the attempt on the game page, and
    hears of it by mail at most once a day."""
    if target.seat is None:
        return Result(InboundStatus.IGNORED,
                      detail=f"{mail.sender} is not playing in game {game.id}; nothing was "
                      "done: write from the address the game's emails come to",
                      game_id=game.id)
    ids = []
    seat_row = next(s for s in game.seats if s.seat == target.seat)
    moved = readdress.answer_once(session, mail.sender, seat_row.player_id, now,
                                  mail.message_id)
    if moved is not None:
        # the seat's own player, from the address they moved away from: told once where to
        # write now (their new address is told only to the old one), and the seat not warned
        return Result(STRANGER, [moved], f"{mail.sender} is seat {target.seat}'s former "
                      "address: answered once with where to write now",
                      game_id=game.id, seat=target.seat)
    if not seat_row.muted and not _recent(session, game.id, target.seat, "warning",
                                          now - WARN_EVERY):
        pos = repository.load(session, svc.states, game.id)
        row = notify.queue(session, game, target.seat, "warning", pos.seq, now,
                           {"answer": f"Someone wrote to your reply address for this game from "
                            f"{mail.sender}, which is not your address, so nothing was done. "
                            "If it was you, write from the address this email came to. "
                            "The game page lists every such attempt."})
        row.since_seq = pos.seq
        session.flush()
        ids.append(row.id)
    return Result(STRANGER, ids, f"{mail.sender} is not the address of seat {target.seat + 1} "
                  f"({seat_row.player.name}); nothing was done: write from the address the "
                  "seat's emails come to", game_id=game.id, seat=target.seat)


def _run(svc: Services, answer: Answer, target: Target, lines: list[str],
         inbound_id: int) -> Result:
    """The reply's lines, one batch through the command runner (service.play.moves.runner:
    the moves as one whole turn, M9, `keep` as the last line keeping it open; then the words;
    all or none), its refusal or its answers told in the one answer email. Without a word of
    its own transactions (vacation, back), the message's outcome and its answer are written
    in the batch's own transaction: a commit fewer, and a worker killed after it leaves
    nothing to run again (the Result says it is recorded)."""
    if len(lines) > MAX_COMMAND_LINES:
        answer.note(_("Your email had %(n)s lines; I read only the first %(max)s. Send the "
                      "rest in another reply.", n=len(lines), max=MAX_COMMAND_LINES))
        lines = lines[:MAX_COMMAND_LINES]
    words, moves = wordregistry.split(lines)
    detail = f"{len(moves)} move lines, {len(words)} other"
    status = InboundStatus.APPLIED if moves else InboundStatus.ANSWERED
    later = any(wordregistry.find(w)[0].own_transaction for w in words)
    intent = Intent(target.game_id, answer.seat, lines=lines, expected_seq=target.seq,
                    source="email", key=f"mail:{answer.mail.message_id}"[:128], whole_turn=True)
    done: list[Result] = []

    def within(session: Session, ran: runner.Ran) -> None:
        if later:
            return
        _answers(answer, ran)
        ids = (ran.applied.outbox_ids if ran.applied else []) + answer.send(session)
        done.append(Result(status, ids, detail, game_id=target.game_id, seat=answer.seat,
                           recorded=True))
        _write_outcome(session, inbound_id, done[0], answer.now)

    try:
        ran = runner.run(svc, intent, within=within)
    except AlreadyDone:
        # the key is this message's own Message-ID, and intake keeps one row per
        # Message-ID: an earlier run of this very message made its batch and died before
        # writing that down (a worker killed, the database gone). The batch stands, made
        # once; this message applied it.
        return Result(InboundStatus.APPLIED, [], detail + "; the move was made by an earlier "
                      "attempt at this message", game_id=target.game_id, seat=answer.seat)
    except PlayError as exc:     # a line refused, the game moved on, or it is over
        with svc.db.transaction() as session:
            return answer.refuse(session, exc.detail, getattr(exc, "text", ""),
                                 getattr(exc, "suggestions", None))
    if done:
        return done[0]
    _answers(answer, ran)
    ids = list(ran.applied.outbox_ids) if ran.applied else []
    if answer.notes:                 # a plain move needs no answer
        with svc.db.transaction() as session:
            ids += answer.send(session)
    return Result(status, ids, detail, game_id=target.game_id, seat=answer.seat)


def _answers(answer: Answer, ran: runner.Ran) -> None:
    """Each word's answer into the one answer email (`say` needs none: the message itself
    reaches the table)."""
    for said in ran.answers:
        if said.by_mail and said.text:
            answer.note(said.text)


class Answer:
    """The one answer mail an inbound message may get: refusals, help and notes gathered,
    each text once, capped at ANSWER_MAX_LINES lines, and sent only while the seat has had
    fewer than ANSWERS_PER_HOUR answers in the last hour (then once: "I will stop")."""

    def __init__(self, svc: Services, game_id: int, seat: int, mail: InboundMail,
                 now: datetime):
        self.svc, self.game_id, self.seat, self.mail, self.now = svc, game_id, seat, mail, now
        self.notes: list[str] = []
        self.refusal: dict | None = None

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def refuse(self, session: Session, why: str, line: str = "",
               suggestions: list[str] | None = None) -> Result:
        self.refusal = {"why": why, "line": line[:300], "suggestions": (suggestions or [])[:10]}
        return Result(InboundStatus.REFUSED, self.send(session), why, game_id=self.game_id,
                      seat=self.seat)

    def send(self, session: Session) -> list[int]:
        if self.refusal is None and not self.notes:
            return []
        answered = answercap.answers_in_the_last_hour(session, self.game_id, self.seat,
                                                       self.now)
        if answered > ANSWERS_PER_HOUR:
            return []          # the seat was told we stopped; its moves still count
        game = session.get(GameRow, self.game_id)
        pos = repository.load(session, self.svc.states, game.id)
        notes = list(self.notes)
        if answered == ANSWERS_PER_HOUR:
            # the last answer for a while still says what it was asked (a refusal above
            # all: the writer must learn that this move did not go in), and that it is the last
            notes.append(_("You have had %(n)s answers from me in the last hour, so I will "
                           "not answer again for an hour. Moves that can be applied still "
                           "count and turn emails still come, but until then a line I cannot "
                           "apply gets no answer: the game page shows whether your move went "
                           "in.", n=ANSWERS_PER_HOUR))
        payload = {"answer": _capped("\n\n".join(notes))} if notes else {}
        if self.refusal is not None:
            payload["refusal"] = self.refusal
        kind = "refusal" if "refusal" in payload else "answer"
        row = notify.queue(session, game, self.seat, kind, pos.seq, self.now,
                           dict(payload, in_reply_to=self.mail.message_id))
        row.since_seq = pos.seq     # an answer carries no news; the turn emails do that
        session.flush()
        return [row.id]


def _capped(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= ANSWER_MAX_LINES:
        return text
    return "\n".join(lines[:ANSWER_MAX_LINES]) + "\n…(the rest is on the game page)"


def _recent(session: Session, game_id: int, seat: int, kinds, since: datetime) -> int:
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    return session.scalar(select(func.count()).select_from(OutboxRow).where(
        OutboxRow.game_id == game_id, OutboxRow.seat == seat, OutboxRow.kind.in_(kinds),
        OutboxRow.created_at >= since)) or 0



def find_target(session: Session, signer: Signer, mail: InboundMail, domain: str) -> Target | None:
    """Game and seat from the reply address; failing that, from the email replied to."""
    replied = _replied_row(session, mail, domain)
    for token in reply_tokens(mail, domain):
        try:
            game_id, seat = signer.read_reply_token(token)
        except TokenError:
            continue
        # plain records, one prebuilt statement (the ORM's objects are costly on every reply)
        game = records.read_one(session.connection(), game_id) \
            if 0 < game_id <= repository.MAX_GAME_ID else None
        if game is None:
            continue
        seq = replied.seq if replied and (replied.game_id, replied.seat) == (game_id, seat) else None
        return Target(game_id, seat, seq, row=game)
    if replied is not None:
        return Target(replied.game_id, replied.seat, replied.seq)
    for ref in [*mail.in_reply_to, *mail.references]:
        m = _ROOT_ID.match(ref)
        if m and ref.endswith("@" + domain) and 0 < int(m.group(1)) <= repository.MAX_GAME_ID \
                and session.get(GameRow, int(m.group(1))):
            # the thread root is guessable: it names the game but proves nothing
            return Target(int(m.group(1)), None, None, proven=False)
    return None


def _replied_row(session: Session, mail: InboundMail, domain: str) -> OutboxRow | None:
    """The email of ours this one answers. Our Message-IDs are random, so a match shows the
    writer had that email (unlike the guessable thread root, which only names the game)."""
    for ref in [*mail.in_reply_to, *reversed(mail.references)]:
        local, _, host = ref.partition("@")
        if host == domain and local.startswith("tp."):
            row = session.scalar(select(OutboxRow).where(
                OutboxRow.message_id == notify.row_message_id(local)))
            if row is not None and row.game_id is not None:
                return row
    return None


def _seat_of(game: GameRow, sender: str, seat: int | None) -> int | None:
    """The seat the sender plays: the addressed one must be theirs."""
    mine = [s.seat for s in game.seats if s.player.email == sender.lower()]
    if seat is None:
        return mine[0] if len(mine) == 1 else None
    return seat if seat in mine else None

