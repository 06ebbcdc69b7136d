"""Every word a player can write besides the engines' moves, registered once with its name,
what follows it, its help and its handler (after GNU Mailman's email commands). A reply email,
the game page's command box, the JSON API and `flask move` hand their lines to one runner
(service.play.moves.runner), which looks each line up here; a line that is no word here is a
move, read by the game's own engine.

Adding a word is one `register(Command(...))`: `help`, the reply, the page, the API, the CLI
and docs/commands.md (`make commands-doc`) follow. A word may have its own word in each of our
languages (`aliases`); the English word always works too, whatever the player's language."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import repository
from service.play.errors import Refused
from service.play.players import seatchanges
from service.play.services import Services
from service.play.time import extensions

from . import chat, notes, standingplans, tablewords, trying


@dataclass(frozen=True)
class Done:
    """What a word did: the words that tell the player, the emails it queued."""

    text: str
    outbox_ids: list[int] = field(default_factory=list)
    # the writer must hear this even by mail, from a word that is not answered by mail
    # (a message to the table that was not passed on)
    answered: bool = False


@dataclass(frozen=True)
class Context:
    svc: Services
    game_id: int
    seat: int
    # the transaction a word runs in (a batch's lines share one); None for words that keep
    # their own transactions (`own_transaction`)
    session: Session | None = None
    holder: int | None = None     # the seat's holder a page link was made for (None: any)
    source: str = ""              # the way in: email | web | api | cli (Intent.source)


Handler = Callable[[Context, str], Done]


@dataclass(frozen=True)
class Command:
    name: str
    arguments: str                # what may follow the name, as help shows it ("" for nothing)
    summary: str                  # one sentence for help and docs/commands.md
    # None: a word of the turn itself, handed to the engine's turn with the moves (`keep`)
    handler: Handler | None = None
    # acts on the player's clocks in every game, in transactions of its own after the batch
    # committed; `check` refuses beforehand, in the batch's transaction, what it would refuse
    own_transaction: bool = False
    check: Handler | None = None
    # the lines of one email with this word are run as one (`say`: one message to the table)
    joined: bool = False
    # a reply email gets its text back (`say` needs none: the message itself reaches the table)
    answered_by_mail: bool = True
    # the same word in another language, by language ({"de": "hilfe", "fr": "aide"})
    aliases: dict[str, str] = field(default_factory=dict)


COMMANDS: dict[str, Command] = {}
#: every word a line may start with, English and each language's, to its command's name
WORDS: dict[str, str] = {}


def register(command: Command) -> Command:
    for word in (command.name, *command.aliases.values()):
        if word in WORDS:
            raise ValueError(f"the word {word!r} is registered twice")
        WORDS[word] = command.name
    COMMANDS[command.name] = command
    return command


def _command(word: str) -> Command | None:
    name = WORDS.get(word)
    return COMMANDS[name] if name is not None else None


def find(line: str) -> tuple[Command, str] | None:
    """The word a line starts with and the rest of the line (a `say` line keeps its
    punctuation), or None: the line is a move (or a word of the turn, `keep`)."""
    tidied = tablewords.tidy(line, said=_says(line))
    # a word of two (`plans clear`) before its first word alone (`plans`)
    two = _command(" ".join(tidied.lower().split()[:2]))
    if two is not None and two.handler is not None:
        return two, " ".join(tidied.split()[2:])
    word = tablewords.command_word(line)
    command = _command(word) or _command(word + ":")     # `next:` with its colon
    if command is None or command.handler is None:
        return None
    return command, tidied.partition(" ")[2]


def is_word(line: str) -> bool:
    return find(line) is not None


def split(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the lines that are words here, the lines for the engine), each in order."""
    words = [ln for ln in lines if is_word(ln)]
    return words, [ln for ln in lines if not is_word(ln)]


def _says(line: str) -> bool:
    """Whether the line is a `say` or `note` line, in any language (its punctuation is the
    player's own words)."""
    command = _command(tablewords.command_word(line))
    return command is not None and command.name in tablewords.KEEP_PUNCTUATION


def words_list() -> str:
    return ", ".join(sorted(COMMANDS))


def help_text(engine, state, seat: int, limit: int = tablewords.HELP_LIMIT) -> str:
    """`help`: every move the seat can make now (from the engine), then every word here, in
    the current language (its own word first, the English one beside it)."""
    words = "\n".join(f"  {usage(c, catalogs.current())}: {_(c.summary)}"
                      for c in COMMANDS.values())
    others = _("Other words you can write:")
    return f"{tablewords.help_answer(engine, state, seat, limit)}\n\n{others}\n{words}"


def usage(command: Command, language: str = catalogs.DEFAULT) -> str:
    alias = command.aliases.get(language)
    word = f"{alias} ({command.name})" if alias else command.name
    return f"{word} {_(command.arguments) if command.arguments else ''}".strip()


def markdown() -> str:
    """docs/commands.md: the table of words, generated from the registry."""
    others = [lang for lang in catalogs.LANGUAGES if lang != catalogs.DEFAULT]
    rows = "\n".join(
        f"| `{usage(c)}` | " + " | ".join(f"`{c.aliases[lang]}`" if lang in c.aliases else ""
                                         for lang in others) + f" | {c.summary} |"
        for c in COMMANDS.values())
    heads = " | ".join(catalogs.LANGUAGES[lang] for lang in others)
    return ("# The words a player can write\n\n"
            "<!-- generated from service/play/moves/wordregistry.py by `make commands-doc`; a test "
            "checks it -->\n\n"
            "Besides the moves of each game (`help` lists them), these words work the same in "
            "a reply email, the game page's command box, the JSON API (`command`) and "
            "`flask move GAME SEAT WORDS`. Each has its word in German and French too; the "
            "English word works whatever the player's language, and the moves keep the words "
            "of their rule texts.\n\n"
            f"| Word | {heads} | What it does |\n|---|" + "---|" * len(others) + "---|\n"
            + rows + "\n")


# --- the words ----------------------------------------------------------------------------

def _help(ctx: Context, rest: str) -> Done:
    pos = repository.load(ctx.session, ctx.svc.states, ctx.game_id)
    return Done(help_text(pos.engine, pos.state, ctx.seat))


def _view(ctx: Context, rest: str) -> Done:
    return Done(_("Here is the game as it stands."))


def _say(ctx: Context, rest: str) -> Done:
    game = repository.game_row(ctx.session, ctx.game_id)
    if ctx.source == "email" and chat.said_lately(ctx.session, game.id, ctx.seat,
                                                  ctx.svc.clock.now()) >= chat.BY_MAIL_PER_HOUR:
        # counted under the game's lock, which the batch holds: replies processed at once
        # cannot each take the last place
        return Done(_("You sent %(n)s messages to the table in the last hour, so this one "
                      "was not passed on; please wait a while.", n=chat.BY_MAIL_PER_HOUR),
                    answered=True)
    said = chat.post(ctx.session, ctx.svc, game, ctx.seat, rest)
    return Done(_("Message sent to everyone."), said.outbox_ids)


def _undo(ctx: Context, rest: str) -> Done:
    done = tablewords.undo_in_session(ctx.session, ctx.svc, ctx.game_id, ctx.seat, rest)
    return Done(done.words, done.outbox_ids)


def _extend(ctx: Context, rest: str) -> Done:
    done = extensions.ask_in(ctx.session, ctx.svc, ctx.game_id, ctx.seat, rest, ctx.holder)
    return Done(done.words, done.outbox_ids)


def _answer_extension(word: str) -> Handler:
    def handler(ctx: Context, rest: str) -> Done:
        done = extensions.answer_in(ctx.session, ctx.svc, ctx.game_id, ctx.seat, word,
                                    ctx.holder)
        return Done(done.words, done.outbox_ids)
    return handler


def _resign(ctx: Context, rest: str) -> Done:
    return Done(seatchanges.resign_in(ctx.session, ctx.svc, ctx.game_id, ctx.seat, ctx.holder).words)


def _vacation(word: str) -> Handler:
    def handler(ctx: Context, rest: str) -> Done:
        player = seatchanges.player_of(ctx.svc, ctx.game_id, ctx.seat, ctx.holder)
        return Done(seatchanges.take_vacation(ctx.svc, player, f"{word} {rest}".strip()).text)
    return handler


def _vacation_check(word: str) -> Handler:
    def check(ctx: Context, rest: str) -> Done:
        player = seatchanges.holding_player(ctx.session, ctx.game_id, ctx.seat, ctx.holder)
        seatchanges.check_vacation(ctx.session, ctx.svc, player, f"{word} {rest}".strip())
        return Done("")
    return check


def _plan(kind: str) -> Handler:
    def handler(ctx: Context, rest: str) -> Done:
        return Done(standingplans.write(ctx.session, ctx.svc, ctx.game_id, ctx.seat, kind, rest))
    return handler


def _plans(ctx: Context, rest: str) -> Done:
    if rest.strip():
        raise Refused(_("Write plans to list your plans, or plans clear to drop them all."))
    return Done(standingplans.listing(ctx.session, ctx.svc, ctx.game_id, ctx.seat))


def _plans_clear(ctx: Context, rest: str) -> Done:
    return Done(standingplans.clear(ctx.session, ctx.game_id, ctx.seat))


def _try(ctx: Context, rest: str) -> Done:
    pos = repository.load(ctx.session, ctx.svc.states, ctx.game_id)
    return Done(trying.tried(pos.engine, pos.state, ctx.seat, rest.splitlines()).text)


def _writer(ctx: Context) -> int:
    """The player holding the seat, who writes (and alone reads) its notes."""
    return seatchanges.holding_player(ctx.session, ctx.game_id, ctx.seat, ctx.holder)


def _note(ctx: Context, rest: str) -> Done:
    return Done(notes.write(ctx.session, ctx.svc, ctx.game_id, ctx.seat, _writer(ctx), rest))


def _notes(ctx: Context, rest: str) -> Done:
    if rest.strip():
        raise notes.NoteRefused(_("Write notes to list your notes, or note and your text to "
                                  "keep one."))
    return Done(notes.listing(ctx.session, ctx.game_id, ctx.seat, _writer(ctx)))


def _notes_clear(ctx: Context, rest: str) -> Done:
    if rest.strip():
        raise notes.NoteRefused(_("note clear removes all your notes on this game and takes "
                                  "nothing after it."))
    return Done(notes.clear(ctx.session, ctx.game_id, ctx.seat, _writer(ctx)))


register(Command("help", "", N_("Lists every move you can make now, and these words."), _help,
                 aliases={"de": "hilfe", "fr": "aide"}))
register(Command("view", "", N_("Sends (or shows) the game as it stands."), _view,
                 aliases={"de": "ansicht", "fr": "voir"}))
register(Command("say", N_("MESSAGE"), N_("Writes MESSAGE to everyone at the table."), _say,
                 joined=True, answered_by_mail=False, aliases={"de": "sag", "fr": "dis"}))
register(Command("undo", N_("[accept / refuse]"), N_(
    "Asks the others to let you take back your last move; undo accept / undo refuse answers "
    "another player's request."), _undo, aliases={"de": "rückgängig", "fr": "annuler"}))
register(Command(extensions.WORD, N_("DAYS (e.g. 2d)"), N_(
    "Asks the other players to move your deadline DAYS later (1 to 14 days; once a game "
    "unless the game allows more); it moves when all agree."), _extend,
    aliases={"de": "verlängern", "fr": "prolonger"}))
register(Command(extensions.AGREE, "", N_(
    "Agrees to the extension another player asked for (`extend`): their deadline moves when "
    "everyone has agreed."), _answer_extension(extensions.AGREE),
    aliases=extensions.ANSWER_ALIASES[extensions.AGREE]))
register(Command(extensions.DECLINE, "", N_(
    "Declines the extension another player asked for: their deadline stays."),
    _answer_extension(extensions.DECLINE),
    aliases=extensions.ANSWER_ALIASES[extensions.DECLINE]))
register(Command("resign", "", N_(
    "Gives up this game (with two players the other wins; with more your turns are played "
    "for you and you rank last); a tournament's game also withdraws you from the "
    "tournament."), _resign, aliases={"de": "aufgeben", "fr": "abandon"}))
register(Command("vacation", N_("DAYS / until YYYY-MM-DD"), N_(
    "Stops your clocks in every game for that many days, or to that day."),
    _vacation("vacation"), own_transaction=True, check=_vacation_check("vacation"),
    aliases={"de": "urlaub", "fr": "vacances"}))
register(Command("back", "", N_("Ends your vacation: your clocks run again."), _vacation("back"),
                 own_transaction=True, check=_vacation_check("back"),
                 aliases={"de": "zurück", "fr": "retour"}))
# keep, if and next: are words of the turn and of a plan's own grammar (`if ... then ...`):
# English only, as the moves are
register(Command("keep", "", N_(
    "As the last line of a reply, keeps a turn that may go on open (RULINGS M9); otherwise "
    "the reply's moves are your whole turn.")))
register(Command("if", N_("THEIR MOVE then MY MOVE"), N_(
    "A plan: when they (or the player named) next make exactly that move, yours is played "
    "at once (or when your turn comes), if still allowed; e.g. if they lead the Mill then "
    "play the Savage. Only you see it."), _plan("if")))
register(Command("next:", N_("MY MOVE"), N_(
    "A plan: your move, played when your turn comes if still allowed; e.g. next: take "
    "blind."), _plan("next")))
register(Command("plans", "", N_("Lists your plans in this game (nobody else sees them)."),
                 _plans, aliases={"de": "pläne"}))
register(Command("plans clear", "", N_("Drops all your plans in this game."), _plans_clear,
                 aliases={"de": "pläne löschen", "fr": "plans effacer"}))
# the summary is a catalog message, so it names notes' bounds as numbers
# (tests/web/test_desk.py holds them to notes.MAX_NOTES and MAX_CHARS)
register(Command("note", N_("TEXT"), N_(
    "Keeps TEXT as a private note on this game: only you see it, on your game page and in "
    "your emails (at most 20 notes of 500 characters)."), _note,
    aliases={"de": "notiz"}))
register(Command("notes", "", N_("Lists your notes on this game."), _notes,
                 aliases={"de": "notizen"}))
register(Command("note clear", "", N_("Removes all your notes on this game."), _notes_clear,
                 aliases={"de": "notizen löschen", "fr": "note effacer"}))
register(Command("try", N_("MOVE (one line or several)"), N_(
    "Shows your view after MOVE without making it: nothing is played and nobody is told; a "
    "card you would draw shows as unknown. Several try lines are tried in order."), _try,
    joined=True, aliases={"de": "probier", "fr": "essayer"}))
