"""Standing challenges: "I'd play Trees, 3 days per move, rated, against 1400-1700,
reliability at least 80%". Posting one matches it at once with the first fitting open
challenge (oldest first) or open seat, and both players are told by email; otherwise it
stands, listed with the open seats, until someone fits or its player withdraws it. A listed
challenge is also taken in one press (`accept`) by a player its terms admit, on its terms.

Fitting goes both ways: each side's rating and reliability within the other's terms. Two
players kept apart by a block never meet. A challenge is taken by a conditional UPDATE
(open -> matched), so two matches at once take one challenge once: the loser of that race
looks further down the list."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.games import registry
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify
from service.play.errors import PlayError
from service.play.players import (
    BadInvitation,
    Entry,
    blocks,
    gamecap,
    open_game,
    take_open_seat,
)
from service.play.services import Services
from service.play.time import ClockError, clocks, deadlines
from service.store.models import Challenge, GameRow, Invitation, Player

from . import strength

#: the rating range a challenge may name (the ratings' scale: a newcomer stands at 1500)
LOWEST, HIGHEST = 0, 4000


class BadChallenge(PlayError):
    title = N_("The challenge was not posted")


@dataclass(frozen=True)
class Terms:
    kind: str
    clock: str                        # a time control as the lobby writes it: "3d"
    rated: bool = True
    min_rating: int | None = None
    max_rating: int | None = None
    min_reliability: int | None = None   # percent of turns moved in time


@dataclass(frozen=True)
class Posted:
    challenge_id: int
    game_id: int | None               # the game it started or joined, None while it stands
    opponent: str | None = None
    outbox_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    """An open challenge as the open seats page lists it."""
    id: int
    player: str
    kind: str
    title: str
    clock: str
    rated: bool
    min_rating: int | None
    max_rating: int | None
    min_reliability: int | None
    player_id: int = 0                # whose it is: the page offers its player Withdraw


def read_terms(kind: str, clock: str, rated: bool = True, min_rating=None, max_rating=None,
               min_reliability=None) -> Terms:
    """The terms as typed, checked; BadChallenge says what is wrong with them."""
    try:
        registry.get(kind)
    except registry.UnknownGame:
        raise BadChallenge(_("There is no game called %(kind)r.", kind=kind)) from None
    try:
        _rest, option, _policy = deadlines.read_options({"clock": clock or ""})
    except ClockError as exc:
        raise BadChallenge(str(exc)) from None
    if option is None:
        raise BadChallenge(_("A standing challenge needs a clock (for example 3d: three days "
                             "per move), so that the game it starts ends."))
    low, high = _number(min_rating, N_("lowest rating")), _number(max_rating,
                                                                N_("highest rating"))
    for value in (low, high):
        if value is not None and not LOWEST <= value <= HIGHEST:
            raise BadChallenge(_("A rating is between %(low)d and %(high)d; %(value)d is not.",
                                 low=LOWEST, high=HIGHEST, value=value))
    if low is not None and high is not None and low > high:
        raise BadChallenge(_("The rating range %(low)d-%(high)d is empty: the lowest rating "
                             "is above the highest.", low=low, high=high))
    reliability = _number(min_reliability, N_("reliability"))
    if reliability is not None and not 0 <= reliability <= 100:
        raise BadChallenge(_("Reliability is a percentage, 0 to 100; %(value)d is not.",
                             value=reliability))
    return Terms(kind, option, bool(rated), low, high, reliability)


def _number(value, what: str) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        # `what` is a marked name ("lowest rating"), said in the reader's language
        raise BadChallenge(_("The %(what)s must be a whole number, not %(value)r.",
                             what=_(what), value=value)) from None


def post(svc: Services, player_id: int, terms: Terms) -> Posted:
    """Post the challenge and match it if anything fits, in one transaction."""
    with svc.db.transaction() as session:
        return post_in(session, svc, player_id, terms)


def post_in(session: Session, svc: Services, player_id: int, terms: Terms) -> Posted:
    now = svc.clock.now()
    me = session.get(Player, player_id)
    own = session.scalar(select(Challenge.id).where(
        Challenge.player_id == player_id, Challenge.status == "open",
        Challenge.kind == terms.kind, Challenge.clock == terms.clock,
        Challenge.rated == terms.rated))
    if own is not None:
        raise BadChallenge(_("You already have a standing challenge for this game and clock "
                             "(#%(own)s); a second would only meet your own. Withdraw it "
                             "first.", own=own))
    mine = Challenge(player_id=player_id, kind=terms.kind, clock=terms.clock, rated=terms.rated,
                     min_rating=terms.min_rating, max_rating=terms.max_rating,
                     min_reliability=terms.min_reliability, status="open", created_at=now)
    session.add(mine)
    session.flush()
    apart = blocks.apart(session, player_id)
    matched = _match_challenge(session, svc, me, mine, terms, apart) or \
        _match_open_seat(session, svc, me, mine, terms, apart)
    return matched or Posted(mine.id, None)


def _match_challenge(session, svc, me: Player, mine: Challenge, terms: Terms,
                     apart: set[int]) -> Posted | None:
    now = svc.clock.now()
    candidates = session.scalars(select(Challenge).where(
        Challenge.status == "open", Challenge.kind == terms.kind,
        Challenge.clock == terms.clock, Challenge.rated == terms.rated,
        Challenge.player_id != me.id).order_by(Challenge.id)).all()
    for theirs in candidates:
        if theirs.player_id in apart:
            continue
        if not (fits(session, _terms_of(theirs), me.id) and fits(session, terms, theirs.player_id)):
            continue
        taken = session.execute(update(Challenge).where(
            Challenge.id == theirs.id, Challenge.status == "open").values(
            status="matched", matched_at=now).execution_options(synchronize_session=False))
        if taken.rowcount != 1:
            continue                 # another match took it first
        them = session.get(Player, theirs.player_id)
        options = {"clock": terms.clock, **strength.rated_option(terms.rated)}
        started = open_game(session, svc, terms.kind, [Entry(them.email, them.name),
                                                       Entry(me.email, me.name)], options)
        session.execute(update(Challenge).where(Challenge.id == theirs.id).values(
            game_id=started.game_id).execution_options(synchronize_session=False))
        mine.status, mine.matched_at, mine.game_id = "matched", now, started.game_id
        told = _tell(session, now, terms, [(me, them), (them, me)], started=True)
        return Posted(mine.id, started.game_id, them.name,
                      tuple(started.outbox_ids) + tuple(told))
    return None


def _match_open_seat(session, svc, me: Player, mine: Challenge, terms: Terms,
                     apart: set[int]) -> Posted | None:
    now = svc.clock.now()
    games = session.scalars(select(GameRow).where(
        GameRow.status == "forming", GameRow.kind == terms.kind, GameRow.clock == terms.clock,
        GameRow.public.is_(True)).order_by(GameRow.id)).all()
    for game in games:
        if strength.game_rated(game) != terms.rated:
            continue
        seated = [i.player_id for i in session.scalars(select(Invitation).where(
            Invitation.game_id == game.id, Invitation.status == "accepted"))]
        if me.id in seated or apart & set(seated):
            continue
        if not all(fits(session, terms, pid) for pid in seated):
            continue
        try:
            outcome, ids = take_open_seat(session, svc, me.id, game.id)
        except BadInvitation:
            continue                 # taken meanwhile
        mine.status, mine.matched_at, mine.game_id = "matched", now, game.id
        host = session.get(Player, game.created_by) if game.created_by else None
        pairs = [(me, host), (host, me)] if host is not None else []
        told = _tell(session, now, terms, pairs, started=outcome == "started")
        return Posted(mine.id, game.id, host.name if host else None, tuple(ids) + tuple(told))
    return None


def accept(svc: Services, player_id: int, challenge_id: int) -> Posted:
    """Take a listed challenge as it stands: its game starts at once, on its terms, between
    its player and this one, if its terms admit this player; both are told by email."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        theirs = session.get(Challenge, challenge_id)
        if theirs is None or theirs.status != "open":
            raise BadChallenge(_("That challenge is no longer open: someone took it, or its "
                                 "player withdrew it."))
        if theirs.player_id == player_id:
            raise BadChallenge(_("That is your own challenge; withdraw it, or wait for "
                                 "someone to take it."))
        if blocks.between(session, player_id, theirs.player_id):
            raise BadChallenge(_("You cannot take that challenge (one of you has blocked the "
                                 "other)."))
        gamecap.check(session, svc, player_id)
        terms = _terms_of(theirs)
        if not fits(session, terms, player_id):
            raise BadChallenge(_("Its terms do not admit you: %(terms)s.",
                                 terms=_terms_words(terms)))
        taken = session.execute(update(Challenge).where(
            Challenge.id == challenge_id, Challenge.status == "open").values(
            status="matched", matched_at=now).execution_options(synchronize_session=False))
        if taken.rowcount != 1:
            raise BadChallenge(_("That challenge was taken a moment ago by someone else."))
        me, them = session.get(Player, player_id), session.get(Player, theirs.player_id)
        options = {"clock": terms.clock, **strength.rated_option(terms.rated)}
        started = open_game(session, svc, terms.kind, [Entry(them.email, them.name),
                                                       Entry(me.email, me.name)], options)
        session.execute(update(Challenge).where(Challenge.id == challenge_id).values(
            game_id=started.game_id).execution_options(synchronize_session=False))
        told = _tell(session, now, terms, [(me, them), (them, me)], started=True)
        posted = Posted(challenge_id, started.game_id, them.name,
                        tuple(started.outbox_ids) + tuple(told))
    return posted


def _terms_words(terms: Terms) -> str:
    """What a challenge asks of its opponent, in words."""
    parts = []
    low, high = terms.min_rating, terms.max_rating
    if low is not None and high is not None:
        parts.append(_("a rating of %(low)s to %(high)s in this game", low=low, high=high))
    elif high is not None:      # one bound: a sentence each, as "any" reads badly translated
        parts.append(_("a rating of any to %(high)s in this game", high=high))
    elif low is not None:
        parts.append(_("a rating of %(low)s to any in this game", low=low))
    if terms.min_reliability is not None:
        parts.append(_("a reliability of at least %(percent)d%%",
                       percent=terms.min_reliability))
    if not parts:
        return _("nothing more")
    said = parts[0]
    for part in parts[1:]:
        said = _("%(some)s and %(last)s", some=said, last=part)
    return said


def fits(session: Session, terms: Terms, player_id: int) -> bool:
    """The player's rating in the game and reliability are within the terms. A player with
    no rating yet counts as a newcomer; one with no turns yet meets any reliability."""
    rating = strength.rating_of(session, player_id, terms.kind)
    rating = strength.NEWCOMER_RATING if rating is None else rating
    if terms.min_rating is not None and rating < terms.min_rating:
        return False
    if terms.max_rating is not None and rating > terms.max_rating:
        return False
    if terms.min_reliability is not None:
        reliability = strength.reliability_of(session, player_id)
        if reliability is not None and reliability * 100 < terms.min_reliability:
            return False
    return True


def _terms_of(row: Challenge) -> Terms:
    return Terms(row.kind, row.clock, row.rated, row.min_rating, row.max_rating,
                 row.min_reliability)


def _tell(session: Session, now, terms: Terms, pairs, *, started: bool) -> list[int]:
    """The "your challenge is matched" email to each (player, opponent)."""
    rows = []
    title = registry.get(terms.kind).title
    for player, opponent in pairs:
        if player.unmailable or player.email.endswith(".invalid"):
            continue
        with catalogs.speaking(player.language):     # the clock in the letter's language
            words = clocks.describe(clocks.parse_clock(terms.clock))
        rows.append(notify.letter(
            session, player.email, "challenge",
            {"title": title, "opponent": opponent.name, "clock": words,
             "rated": terms.rated, "started": started}, now))
    return [r.id for r in rows]


def withdraw(svc: Services, player_id: int, challenge_id: int) -> None:
    with svc.db.transaction() as session:
        done = session.execute(update(Challenge).where(
            Challenge.id == challenge_id, Challenge.player_id == player_id,
            Challenge.status == "open").values(status="withdrawn")
            .execution_options(synchronize_session=False))
        if done.rowcount != 1:
            raise BadChallenge(_("That challenge is not an open one of yours (matched or "
                                 "withdrawn already?)."))


def standing(svc: Services, *, kind: str | None = None, clock: str | None = None,
             rated: bool | None = None, rating: int | None = None,
             min_reliability: int | None = None, viewer_id: int | None = None) -> list[Standing]:
    """The open challenges, oldest first, filtered by the same terms: the game, the clock,
    rated or not, a rating their range admits, and their player's least reliability. The
    viewer does not see challenges of players kept apart from them by a block."""
    with svc.db.transaction() as session:
        q = select(Challenge, Player.name).join(Player, Player.id == Challenge.player_id).where(
            Challenge.status == "open")
        if kind:
            q = q.where(Challenge.kind == kind)
        if clock:
            q = q.where(Challenge.clock == clock)
        if rated is not None:
            q = q.where(Challenge.rated == rated)
        apart = blocks.apart(session, viewer_id) if viewer_id is not None else set()
        out = []
        for row, name in session.execute(q.order_by(Challenge.id).limit(200)):
            if row.player_id in apart:
                continue
            if rating is not None and not (
                    (row.min_rating is None or row.min_rating <= rating)
                    and (row.max_rating is None or rating <= row.max_rating)):
                continue
            if min_reliability is not None:
                theirs = strength.reliability_of(session, row.player_id)
                if theirs is not None and theirs * 100 < min_reliability:
                    continue
            out.append(Standing(row.id, name, row.kind, _title(row.kind), row.clock, row.rated,
                                row.min_rating, row.max_rating, row.min_reliability,
                                row.player_id))
        return out


def _title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except registry.UnknownGame:
        return kind
