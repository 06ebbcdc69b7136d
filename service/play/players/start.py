"""Starting a game: players by address (or bots), seats in the order given, the engine's
opening events, every seat's clock, and everybody's first email — one transaction, after which
the emails go out and a bot to act plays (service.play.aftercommit).

A lobby game forms first (service.play.players.invitations: nobody is mailed before accepting) and is
dealt here once every seat is taken; `flask start-game` and practice games start at once."""
from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from service.display import rulebook
from service.games import registry
from service.games.contract import OptionError, replay
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, repository, webhooks
from service.play.errors import PlayError, reason
from service.play.services import Services
from service.play.time import ClockError, calendar, deadlines, ending, extensions
from service.store import eventstore
from service.store.models import GameRow, Player, Seat
from service.store.statuses import GameStatus

from .addresses import BadAddress, address, default_name

#: the bot levels every engine has (each engine's `bots` maps them to its bots)
BOT_LEVELS = ("easy", "normal")
#: how to write a bot, and the levels named, said in the reader's language where refused
BOT_WORDING = N_("bot, bot:easy or bot:normal")
BOT_LEVELS_SAID = N_("easy and normal")
#: A display name longer than this is refused (it goes into every email of the game).
MAX_NAME = 64


class BadStart(PlayError):
    title = N_("The game could not be started")


@dataclass(frozen=True)
class Started:
    game_id: int
    seq: int
    outbox_ids: list[int]
    public_id: str = ""
    bots_next: bool = False      # a bot is to act (its job follows the commit)


def parse_player(text: str) -> tuple[str, str]:
    """"Anna <anna@example.org>" or "anna@example.org" -> (address, display name)."""
    text = text.strip()
    m = re.match(r"^(.*?)\s*<([^>]+)>$", text)
    name, addr = (m.group(1).strip(' "'), m.group(2).strip()) if m else ("", text)
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        addr = address(addr)         # email-validator: RFC 5321 syntax and lengths
    except BadAddress as exc:
        raise BadStart(exc.detail) from None
    if len(name) > MAX_NAME:
        raise BadStart(_("The name %(name)r is longer than %(most)d characters; please "
                         "shorten it.", name=shown, most=MAX_NAME))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in name):
        raise BadStart(_("The name %(name)r has control characters in it.", name=shown))
    return addr, name or default_name(addr)


@dataclass(frozen=True)
class Entry:
    """One seat as the starter wrote it: a person (address, name) or a bot (its level)."""
    addr: str
    name: str
    bot: str | None = None


def is_bot_entry(text: str) -> bool:
    word = text.strip().lower()
    return word == "bot" or word.startswith("bot:")


def parse_entry(text: str, domain: str) -> Entry:
    """"bot", "bot:easy", "bot:normal", or a person's address (parse_player). A bot has no
    address, and no person can have one of the bots' made-up addresses."""
    word = text.strip().lower()
    if is_bot_entry(word):
        level = word.partition(":")[2].strip() or "normal"
        if "@" in level or "<" in level:
            raise BadStart(_("%(written)r: a bot has no email address; write %(bots)s.",
                             written=text.strip(), bots=_(BOT_WORDING)))
        if level not in BOT_LEVELS:
            raise BadStart(_("There is no bot called %(level)r; write %(bots)s.", level=level,
                             bots=_(BOT_WORDING)))
        return Entry("", "", level)
    addr, name = parse_player(text)
    if addr.endswith(".invalid") or addr.endswith("@" + domain.lower()):
        raise BadStart(_("%(address)s cannot receive this game's mail. For a bot, write "
                         "%(bots)s.", address=addr, bots=_(BOT_WORDING)))
    return Entry(addr, name)


def public_id() -> str:
    """The public page's id: unguessable, so a game's page is found only through its players."""
    return secrets.token_urlsafe(12)


def start_game(svc: Services, kind: str, players: Sequence[str | Entry],
               options: dict[str, Any], *, mail: bool = True) -> Started:
    """`mail=False` (a practice game): the people's seats start muted, nobody is mailed."""
    with svc.db.transaction() as session:
        return open_game(session, svc, kind, players, options, mail=mail)


def open_game(session: Session, svc: Services, kind: str, players: Sequence[str | Entry],
              options: dict[str, Any], *, mail: bool = True,
              tournament_id: int | None = None) -> Started:
    """The game's rows, first events and first emails, in the caller's transaction. A
    tournament's game may seat bots only (its entrants are drawn, not chosen)."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        raise BadStart(_("There is no game called %(kind)r.", kind=kind)) from None
    entries = [p if isinstance(p, Entry) else parse_entry(p, svc.urls.domain) for p in players]
    if entries and all(e.bot for e in entries) and tournament_id is None:
        raise BadStart(_("A game needs at least one person: bots only play against people."))
    people = bot_entries(entries)
    addrs = [e.addr for e in people]
    if len(set(addrs)) != len(addrs):
        raise BadStart(_("Each seat needs a different email address."))
    # clock=, on_timeout= and rest_days= are the service's options, not the engine's
    try:
        rest_days = calendar.game_rest_days(options)
        options, allowed_extensions = extensions.read_option(options)
        options, clock, on_timeout = deadlines.read_options(options)
    except ClockError as exc:
        raise BadStart(str(exc)) from None
    try:
        options, rated = read_rated(options)    # the service's option too
        options = fit_seats(engine, len(people), options)
    except OptionError as exc:
        raise BadStart(reason(exc)) from None
    now = svc.clock.now()
    game = new_game_row(session, engine, kind, options, GameStatus.ACTIVE, now, clock=clock,
                        on_timeout=on_timeout, rated=rated, rest_days=rest_days,
                        extensions=allowed_extensions, tournament_id=tournament_id)
    for seat, entry in enumerate(people):
        player = find_player(session, entry.addr, entry.name, now)
        session.add(Seat(game_id=game.id, seat=seat, player_id=player.id, bot=entry.bot,
                         muted=not mail and entry.bot is None))
    return deal(session, svc, game)


def lobby_name(engine, options: dict[str, Any]) -> tuple[str, dict]:
    """The lobby's name of a game of this engine with these options, and that lobby entry's
    preset: "Magnate (Roller rules)" for Magnate with `ruleset=modern` (registry.LOBBY)."""
    for _entry, label, game, preset in registry.lobby():
        if game.id == engine.id and all(str(options.get(k)) == str(v)
                                        for k, v in preset.items()):
            return label, preset
    return engine.title, {}


def fit_seats(engine, seats: int, options: dict[str, Any], asked: str = "") -> dict[str, Any]:
    """The options for a table of `seats` players, as a player expects them, validated by the
    engine (OptionError when they cannot be):

    * a count the game (with the options chosen) does not allow is refused in the game's own
      words ("Magnate is for 2 players; you asked for 3"), not in a variant's;
    * a count the game allows only with one of its variants turns that variant on when it was
      left alone: three at a Magnate table with the Roller rules is its `three` variant (M21),
      the only three-player Magnate there is.

    Other combinations the engine refuses with its own words."""
    counts = registry.player_counts(engine, options)
    if seats not in counts:
        label, preset = lobby_name(engine, options)
        narrowed = counts != registry.player_counts(engine, preset)
        players = rulebook.players_wording(engine, options)
        if narrowed:
            raise BadStart(_("%(game)s is for %(players)s with the options chosen; you asked "
                             "for %(asked)s.", game=label, players=players, asked=asked or seats))
        raise BadStart(_("%(game)s is for %(players)s; you asked for %(asked)s.", game=label,
                         players=players, asked=asked or seats))
    try:
        return engine.validate_options(seats, options)
    except OptionError:
        for name, opt in engine.options.items():
            if opt.default is not False or name in options:
                continue                 # only a variant the player left alone (off)
            try:
                return engine.validate_options(seats, {**options, name: True})
            except OptionError:
                continue
        raise


def new_game_row(session: Session, engine, kind: str, options: dict, status: str, now,
                 **more) -> GameRow:
    game = GameRow(kind=kind, options=options, seq=0, status=status, created_at=now,
                   rules_version=getattr(engine, "rules_version", 1), public_id=public_id(),
                   **more)
    session.add(game)
    session.flush()
    return game


def deal(session: Session, svc: Services, game: GameRow) -> Started:
    """A game whose seats are all taken begins: the engine's opening events, every seat's
    clock and everybody's first email, in the caller's transaction."""
    session.flush()
    session.refresh(game)
    engine = registry.get(game.kind)
    now = svc.clock.now()
    game.status = GameStatus.ACTIVE
    events = engine.start(len(game.seats), game.options, svc.chance)
    eventstore.append(session, game, events, seat=None, source="start", now=now)
    state = replay(engine, events)
    outcome = engine.outcome(state)
    if outcome is not None:
        ending.finish(session, game, now, outcome=outcome)   # over as dealt: rated too
    deadlines.open_clocks(session, game, now)
    deadlines.track(session, game, engine, state, now)
    repository.mark_turns(game, engine, state)
    forced = notify.forced_seats(game, engine, state)
    # the seats' emails and their players' webhooks (service.play.webhooks)
    outbox_ids = notify.queue_many(session, webhooks.along(
        session, game, engine, None, state,
        notify.changed_views(game, engine, None, state, game.seq, now, forced=forced), now))
    notify.turns_changed(session, game, engine, state, forced, "start")
    session.flush()
    return Started(game.id, game.seq, outbox_ids, game.public_id or "",
                   game.bots_due)


def start_practice(svc: Services, kind: str, seats: int, level: str, options: dict[str, Any],
                   address: str = "", mail: bool = False) -> tuple[Started, int]:
    """A game against bots for one person, who takes the first seat: "Play against bots".
    Without an address the person is a guest known only by the seat link (an address that can
    never be mailed); mail goes out only when asked for. Returns the game and the seat."""
    if level not in BOT_LEVELS:
        raise BadStart(_("There is no bot called %(level)r; the bots are %(levels)s.",
                         level=level, levels=_(BOT_LEVELS_SAID)))
    if address.strip():
        me = parse_entry(address, svc.urls.domain)
        if me.bot:
            raise BadStart(_("Your own seat needs your email address (or none at all)."))
    elif mail:
        raise BadStart(_("To be mailed your turns, give your email address."))
    else:
        me = Entry(f"guest-{secrets.token_hex(8)}@guests.invalid", "You")
    if seats < 2:
        raise BadStart(_("A practice game needs at least one bot: choose two or more "
                         "players."))
    # the practice form offers no variants: a player count that needs one gets it
    # (open_game's fit_seats: three at Magnate with the Roller rules, M21)
    players = [me] + [f"bot:{level}"] * (seats - 1)
    # practice: never rated, whatever the options say
    return start_game(svc, kind, players, {**options, "rated": "off"}, mail=mail), 0


BOT_ADDRESS = re.compile(r"^bot-([a-z]+)-\d+@bots\.invalid$")


def bot_level(addr: str | None) -> str | None:
    """The level of a bot's made-up address ("bot-normal-1@bots.invalid"), None for a person."""
    found = BOT_ADDRESS.match(addr or "")
    return found.group(1) if found and found.group(1) in BOT_LEVELS else None


def bot_entries(entries: list[Entry]) -> list[Entry]:
    """Each bot seat gets a player of its own with an address that can never be delivered
    (RFC 2606 reserves .invalid) and a name that tells the bots apart."""
    levels = [e.bot for e in entries if e.bot]
    out, counted = [], {}
    for e in entries:
        if e.bot is None or e.addr:          # a person, or a bot already named (a tournament's)
            out.append(e)
            continue
        counted[e.bot] = counted.get(e.bot, 0) + 1
        n = counted[e.bot]
        several = levels.count(e.bot) > 1
        name = f"{e.bot.title()} bot" + (f" {n}" if several else "")
        out.append(Entry(f"bot-{e.bot}-{n}@bots.invalid", name, e.bot))
    return out


def find_player(session: Session, addr: str, name: str, now) -> Player:
    """The player of that address, made if new. An upsert: twenty lobby posts naming the same
    new address at once all succeed (a plain INSERT would fail all but one on the unique key)."""
    player = session.scalars(select(Player).where(Player.email == addr)).first()
    if player is not None:
        return player
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(dialect.insert(Player).values(email=addr, name=name, created_at=now)
                    .on_conflict_do_nothing(index_elements=["email"]))
    return session.scalars(select(Player).where(Player.email == addr)).one()


RATED_WORDS = {"on": True, "yes": True, "true": True, "1": True,
               "off": False, "no": False, "false": False, "0": False}


def read_rated(options: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Split the service's option `rated` (on unless "off") off a game's options."""
    rest = {k: v for k, v in options.items() if k != "rated"}
    word = str(options.get("rated", "on")).strip().lower()
    if word not in RATED_WORDS:
        raise OptionError(N_("option 'rated' is on or off, not {value}"),
                          value=repr(options["rated"]))
    return rest, RATED_WORDS[word]
