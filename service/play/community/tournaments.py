"""Correspondence tournaments: Swiss (any table size) or round robin (two-player games).

All games of a round start together; when the last of them ends (a hook in service.play.time.ending marks the
tournament due, the services kick `advance`, and the sweep catches a lost kick) the next round
starts, or the tournament ends. `advance` locks the tournament's row and the round's row has the
key (tournament, round): two workers finishing a round's last games at once start the next
round exactly once. An entrant who resigns a game withdraws: their later games are forfeits
(not paired in a Swiss; a win for the opponent in a round robin). A tournament's end calls
the hooks of the families built on it (`when_a_tournament_ends`: a league's season) in the
transaction that ends it."""
from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.display import rulebook
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play import aftercommit
from service.play.errors import NoSuchGame, PlayError
from service.play.players import (
    BadStart,
    Entry,
    bot_entries,
    find_player,
    fit_seats,
    open_game,
    parse_entry,
)
from service.play.services import Services
from service.play.time import ClockError, deadlines
from service.store.models import GameRow, Tournament, TournamentEntrant, TournamentRound

from . import pairing, standings, strength
from .tournamentletters import tell_entrants

FORMATS = ("swiss", "round-robin")
MAX_ROUNDS = 30
#: the service's own options of a tournament, taken out before each game starts: the table's
#: size, and the league whose season's division it is (service.play.community.leagues)
SERVICE_OPTIONS = ("seats", "league")

#: what must follow a tournament's end in the transaction that ends it (a league's season)
Ended = Callable[[Session, Services, Tournament], None]
_ENDED: list[Ended] = []


def when_a_tournament_ends(hook: Ended) -> Ended:
    """Families built on tournaments (leagues) hear of one's end in its transaction."""
    _ENDED.append(hook)
    return hook


class BadTournament(PlayError):
    title = N_("The tournament could not be made")


class NoSuchTournament(NoSuchGame):
    title = N_("No such tournament")


@dataclass(frozen=True)
class Created:
    tournament_id: int
    public_id: str
    games: list[int]


def table_size(engine, fmt: str, asked: int | None = None) -> int:
    """Players at each table: two unless a Swiss asks for more (or the game needs more)."""
    counts = registry.player_counts(engine, {})
    if fmt == "round-robin":
        if 2 not in counts or asked not in (None, 2):
            raise BadTournament(_("A round robin is for two-player games; %(title)s is for "
                                  "%(players)s. Make it a Swiss.", title=engine.title,
                                  players=rulebook.players_wording(engine, {})))
        return 2
    if asked is None:
        return 2 if 2 in counts else counts.start
    if asked not in counts:
        raise BadTournament(_("%(title)s is for %(players)s; a table of %(n)s cannot be "
                              "seated.", title=engine.title,
                              players=rulebook.players_wording(engine, {}), n=asked))
    return asked


def rounds_of(fmt: str, rounds: int | None, entrants: int) -> int:
    if fmt == "round-robin":
        complete = pairing.round_robin_rounds(entrants)
        if rounds not in (None, complete):
            raise BadTournament(_("A round robin of %(entrants)s plays %(complete)s rounds "
                                  "(everyone meets everyone once), not %(rounds)s.",
                                  entrants=entrants, complete=complete, rounds=rounds))
        return complete
    if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
        raise BadTournament(_("A Swiss needs a number of rounds from 1 to %(most)s.",
                              most=MAX_ROUNDS))
    return rounds


@dataclass(frozen=True)
class Checked:
    """A tournament's terms, checked: nothing is written until every one of them is right."""
    kind: str
    fmt: str
    rounds: int
    options: dict[str, Any]
    entries: list[Entry]


def check(svc: Services, kind: str, fmt: str, rounds: int | None, entrants: list[str], *,
          clock: str | None = None, table: int | None = None) -> Checked:
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        raise BadTournament(_("There is no game called %(kind)r.", kind=kind)) from None
    if fmt not in FORMATS:
        raise BadTournament(_("A tournament is a swiss or a round-robin, not %(format)r.",
                              format=fmt))
    table = table_size(engine, fmt, table)
    try:
        entries = bot_entries([parse_entry(e, svc.urls.domain) for e in entrants])
    except BadStart as exc:
        raise BadTournament(exc.detail) from None
    addrs = [e.addr for e in entries]
    if len(set(addrs)) != len(addrs):
        raise BadTournament(_("Each entrant needs a different email address."))
    if len(entries) < table:
        raise BadTournament(_("%(title)s needs %(table)s players at a table; only %(n)s "
                              "entered.", title=engine.title, table=table, n=len(entries)))
    rounds = rounds_of(fmt, rounds, len(entries))
    options: dict[str, Any] = {"clock": clock} if clock else {}
    options["seats"] = table        # the service's; taken out before each game starts
    try:
        deadlines.read_options(dict(options))
        fit_seats(engine, table, {})
    except (ClockError, BadStart) as exc:
        raise BadTournament(getattr(exc, "detail", str(exc))) from None
    return Checked(kind, fmt, rounds, options, entries)


def create(svc: Services, kind: str, fmt: str, rounds: int | None, entrants: list[str], *,
           clock: str | None = None, rated: bool = True, no_vacation: bool = False,
           table: int | None = None) -> Created:
    """Enter the given players at once (addresses, or bot:easy / bot:normal) and start the
    first round. Everything is checked before anything is written."""
    checked = check(svc, kind, fmt, rounds, entrants, clock=clock, table=table)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        t = new_tournament(session, checked, rated, no_vacation, "running", now)
        for n, e in enumerate(checked.entries):
            enter(session, t, e, n, now)
        session.flush()
        games = first_round(session, svc, t)
    return Created(t.id, t.public_id, games)


def new_tournament(session: Session, checked: Checked, rated: bool, no_vacation: bool,
                   status: str, now, created_by: int | None = None) -> Tournament:
    t = Tournament(kind=checked.kind, format=checked.fmt, rounds=checked.rounds,
                   options=checked.options, rated=rated, no_vacation=no_vacation, status=status,
                   round=0, due=False, public_id=secrets.token_urlsafe(12), created_at=now,
                   created_by=created_by)
    session.add(t)
    session.flush()
    return t


def enter(session: Session, t: Tournament, e: Entry, entry: int, now) -> TournamentEntrant:
    player = find_player(session, e.addr, e.name, now)
    row = TournamentEntrant(tournament_id=t.id, player_id=player.id, entry=entry, bot=e.bot)
    session.add(row)
    return row


def first_round(session: Session, svc: Services, t: Tournament) -> list[int]:
    try:
        return start_round(session, svc, t, 1)
    except BadStart as exc:
        raise BadTournament(exc.detail) from None


def start_round(session: Session, svc: Services, t: Tournament, number: int) -> list[int]:
    """Seat round `number` and start its games, in the caller's transaction (which holds the
    tournament's row); their emails and their bots' first moves follow its commit. Returns
    the games' ids."""
    entrants = {e.player_id: e for e in entrants_of(session, t.id)}
    playing = [pid for pid, e in entrants.items() if e.withdrawn_round is None]
    byes: list[int] = []
    if t.format == "round-robin":
        schedule = pairing.round_robin(sorted(entrants, key=lambda p: entrants[p].entry))
        planned = schedule[number - 1]
        tables, byes = [], list(planned.byes)
        for a, b in planned.tables:
            if a in playing and b in playing:
                tables.append([a, b] if number % 2 else [b, a])
            else:           # a withdrawn entrant forfeits: the other scores as for a bye
                byes += [p for p in (a, b) if p in playing]
    else:
        table = t.options.get("seats", 2)
        if len(playing) < table:
            return []
        board = standings.compute(session, svc, t)
        order = [line.player_id for line in board if line.player_id in playing]
        met, had_bye = standings.history(session, t.id)
        paired = pairing.swiss(order, met, had_bye, table)
        tables, byes = paired.tables, paired.byes
    session.add(TournamentRound(tournament_id=t.id, round=number, byes=byes, games=[],
                                started_at=svc.clock.now()))
    session.flush()     # the key (tournament, round): a second start of this round fails here
    games = []
    for seated in tables:
        people = [Entry(entrants[p].player.email, entrants[p].player.name, entrants[p].bot)
                  for p in seated]
        # an --unrated tournament's games are unrated: the flag is the tournament's
        options = {**{k: v for k, v in t.options.items() if k not in SERVICE_OPTIONS},
                   **strength.rated_option(t.rated)}
        games.append(open_game(session, svc, t.kind, people, options,
                               tournament_id=t.id).game_id)
    row = session.get(TournamentRound, (t.id, number))
    row.games = games
    t.round = number
    tell_entrants(session, svc, t, "tournament_round", entrants.values())
    return games


def advance(svc: Services, tournament_id: int) -> str:
    """A game of the tournament ended: when it was the round's last, start the next round or
    end the tournament. Returns what happened ("waiting", "started", "ended", "over")."""
    with svc.db.transaction() as session:
        t = session.scalars(select(Tournament).where(Tournament.id == tournament_id)
                            .with_for_update()).one_or_none()
        if t is None or t.status in ("ended", "cancelled"):
            return "over"
        if t.status == "forming":       # a lobby tournament's invitations are still out
            return "waiting"
        t.due = False
        current = session.get(TournamentRound, (t.id, t.round))
        ids = current.games if current else []
        games = session.scalars(select(GameRow).where(GameRow.id.in_(ids))).all()
        if any(g.status != "ended" for g in games):
            return "waiting"
        withdraw(session, t, games)
        games_started: list[int] = []
        number = t.round
        # a round robin's round of forfeits only is scored and passed over at once
        while number < t.rounds and not games_started:
            number += 1
            games_started = start_round(session, svc, t, number)
        if not games_started:
            t.status, t.ended_at = "ended", svc.clock.now()
            tell_entrants(session, svc, t, "tournament_end", entrants_of(session, t.id))
            for hook in _ENDED:
                hook(session, svc, t)
    return "ended" if not games_started else "started"


def withdraw(session: Session, t: Tournament, games: list[GameRow]) -> None:
    """Whoever resigned a game of the round leaves the tournament."""
    resigned = {r.player_id for g in games for r in g.seats if r.status == "resigned"}
    for e in entrants_of(session, t.id):
        if e.player_id in resigned and e.withdrawn_round is None:
            e.withdrawn_round = t.round


def advance_due(svc: Services) -> int:
    """The sweep's catch-up: tournaments whose kick was lost."""
    with svc.db.transaction() as session:
        due = session.scalars(select(Tournament.id).where(Tournament.due.is_(True),
                                                          Tournament.status == "running")).all()
    for tournament_id in due:
        advance(svc, tournament_id)
    return len(due)


def entrants_of(session: Session, tournament_id: int) -> list[TournamentEntrant]:
    return list(session.scalars(select(TournamentEntrant)
                                .where(TournamentEntrant.tournament_id == tournament_id)
                                .order_by(TournamentEntrant.entry)))


def tournament_of(session: Session, tournament_id: int) -> Tournament:
    t = session.get(Tournament, tournament_id)
    if t is None:
        raise NoSuchTournament(_("There is no tournament %(id)s.", id=tournament_id))
    return t


def mark_due(session, game, now, outcome=None) -> None:
    """The hook on a game's end: a tournament's game marks its tournament due in the same
    transaction, and its next round follows the commit (service.play.aftercommit; the sweep
    catches one that was lost)."""
    tournament = getattr(game, "tournament_id", None)
    if tournament is not None and session is not None:
        session.execute(update(Tournament).where(Tournament.id == tournament).values(due=True))
        aftercommit.tournament(session, tournament)
