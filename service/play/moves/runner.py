"""The one command runner (GNU Mailman's runner and its results): a reply email, the game
page's command box, the JSON API and `flask move` hand it the lines a player wrote, and it
returns what each did, for the adapter to render (an answer email, a page's notes, JSON, the
terminal). Every way in therefore runs the same words the same way.

The rule of a batch, the same everywhere (docs/playing.md, "Several lines at once"):

1. The moves come first, as one turn (service.play.moves.submit), then the words in the order
   written (the lines of a `joined` word, `say`, as one message), all in ONE transaction
   under the game's lock. A line refused refuses the batch: nothing of it is stored (no move,
   no plan, no message, no request), and the refusal names that line.
2. `vacation` and `back` act on the player's clocks in every game, so they run after the
   batch commits, each in a transaction of its own; what they would refuse is refused in
   step 1 already (their `check`), so only a change in the meantime can still refuse one then.

The background work the batch calls for (its emails, the bots' answer) follows its commit
(service.play.aftercommit), whichever way it came in."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import _
from service.play import repository
from service.play.errors import PlayError, Refused
from service.play.services import Services

from . import tablewords, wordregistry
from .submit import Applied, Intent, RaceLost, apply


@dataclass(frozen=True)
class Answer:
    """What one word said, for the adapter to render."""

    line: str
    word: str
    text: str
    by_mail: bool = True          # a reply's answer email carries it (`say` needs none)


@dataclass(frozen=True)
class Ran:
    """What a batch did: its moves (None: it had none), each word's answer in order, and the
    game's position after it."""

    applied: Applied | None
    answers: list[Answer] = field(default_factory=list)
    seq: int = 0

    @property
    def texts(self) -> list[str]:
        return [a.text for a in self.answers if a.text]


#: called in the batch's transaction: before its lines (a check of the adapter's own), and
#: after them with what they did (a reply writes its outcome and its answer email there)
Before = Callable[[Session], None]
Within = Callable[[Session, "Ran"], None]


def run(svc: Services, intent: Intent, *, before: Before | None = None,
        within: Within | None = None) -> Ran:
    """Run the intent's lines (and move objects) as one batch; a refusal raises its
    PlayError, with the refused line's index and text, and nothing was stored. A move that
    loses a race with another writer is tried once more, its idempotency key looked up
    first (a double submission answers AlreadyDone)."""
    words, moves = wordregistry.split(intent.lines)
    intent = replace(intent, lines=moves)
    if not words and not moves and not intent.moves:
        raise Refused(_("Type a command first, one per line."))
    try:
        ran = _batch(svc, intent, words, before, within, key_first=False)
    except RaceLost:
        ran = _batch(svc, intent, words, before, within, key_first=True)
    return _own_transactions(svc, intent, ran)


def run_line(svc: Services, game_id: int, seat: int, line: str, *,
             holder: int | None = None, source: str = "web") -> wordregistry.Done:
    """One word on its own (a test, a benchmark, a button that is a word): its answer."""
    if not wordregistry.is_word(line):
        raise Refused(_("%(word)r is not one of the words %(words)s.",
                        word=tablewords.command_word(line), words=wordregistry.words_list()))
    ran = run(svc, Intent(game_id, seat, lines=[line], source=source, holder=holder))
    return wordregistry.Done(" ".join(ran.texts))


def _batch(svc: Services, intent: Intent, words: list[str], before: Before | None,
           within: Within | None, *, key_first: bool) -> Ran:
    with svc.db.transaction() as session:
        if before is not None:
            before(session)
        applied = None
        if intent.moves or intent.lines:
            applied = apply(session, svc, intent, key_first=key_first)   # locks the game
            # its writes went round the ORM (service.store.records): read the game afresh
            session.expire_all()
        else:
            repository.check_holder(repository.game_row(session, intent.game_id, lock=True),
                                   intent.seat, intent.holder)
        context = wordregistry.Context(svc, intent.game_id, intent.seat, session, intent.holder,
                                   intent.source)
        answers = [_word(context, command, rest, line, index)
                   for index, (command, rest, line) in enumerate(_grouped(words),
                                                                 start=len(intent.lines))]
        # the position after it: the move's last event, unless a word wrote events of its own
        seq = applied.last_seq if applied is not None and not answers else \
            repository.current_seq(session, intent.game_id)
        ran = Ran(applied, answers, seq)
        if within is not None:
            within(session, ran)
    return ran


def _grouped(words: list[str]) -> list[tuple[wordregistry.Command, str, str]]:
    """(command, what follows it, the line) for each word in order; the lines of a `joined`
    word (say) are one, at the place of its first line."""
    out: list[tuple[wordregistry.Command, str, str]] = []
    joined: dict[str, int] = {}
    for line in words:
        command, rest = wordregistry.find(line)
        if command.joined and rest.strip():
            if command.name in joined:
                at = joined[command.name]
                first = out[at]
                out[at] = (command, f"{first[1]}\n{rest.strip()}", f"{first[2]}\n{line}")
                continue
            joined[command.name] = len(out)
            rest = rest.strip()
        out.append((command, rest, line))
    return out


def _word(context: wordregistry.Context, command: wordregistry.Command, rest: str, line: str,
          index: int) -> Answer:
    """The word in the batch's transaction (a word of its own transactions: its check)."""
    try:
        if command.own_transaction:
            if command.check is not None:
                command.check(context, rest)
            return Answer(line, command.name, "", command.answered_by_mail)
        done = command.handler(context, rest)
    except PlayError as exc:
        raise _naming(exc, line, index) from None
    return Answer(line, command.name, done.text, command.answered_by_mail or done.answered)


def _own_transactions(svc: Services, intent: Intent, ran: Ran) -> Ran:
    """After the batch's commit: the words that act in transactions of their own (vacation,
    back), in order."""
    answers = list(ran.answers)
    for n, answer in enumerate(answers):
        command, rest = wordregistry.find(answer.line)
        if not command.own_transaction:
            continue
        context = wordregistry.Context(svc, intent.game_id, intent.seat, None, intent.holder,
                                   intent.source)
        try:
            text = command.handler(context, rest).text
        except PlayError as exc:     # changed since the batch's check: the rest stands
            text = _("Not done: \"%(line)s\": %(why)s", line=answer.line, why=exc.detail)
        answers[n] = replace(answer, text=text)
    return replace(ran, answers=answers)


def _naming(exc: PlayError, line: str, index: int) -> PlayError:
    """The refusal, with the line it refuses (an engine's refusal names it already)."""
    if not getattr(exc, "text", ""):
        exc.text, exc.index = line, index
    return exc
