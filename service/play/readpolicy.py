"""The one read policy: who may see what of a game. Every read of a game asks here, whatever
serves it (a page, a download, the JSON API, a feed, a tournament's page, the operator's
command line), so that no way in carries an access rule of its own.

Who asks is a `Reader`, made by the adapter from the credential it has verified:

- `Reader.at(game, seat, holder)`: a seat's signed link. It shows that seat's own view (its
  hand, its plans, its log) while the holder it was made for still holds the seat.
- `Reader.player(id)`: a signed-in account, or the holder of a personal API token. It sees the
  games it holds a seat in, as that seat.
- `Reader.spectator(public_id)`: whoever has a game's public page address. They see the game
  as a spectator does while its players keep that page on. The id is unguessable and listed
  only where the players put it (their pages, a tournament's page for its games).
- `Reader()`: no credential, so nothing of any game by its number.
- `OPERATOR`: the operator's command line, which sees everything, a game's file included.

Lists of a player's own games (My games, the API's list, the feed and the calendar) select
the seats that player holds, which is `is_player` by construction, so they ask no question per
game.

A game's number never shows the game to anyone but its players, whether its page is public
or private, in progress or finished: numbers are sequential, so a rule that let a number
through would list every game on the server. To a reader a game does not admit, it answers
exactly as a game that does not exist: one `NoSuchGame`, word for word, so a number tells a
stranger nothing, not even that it exists.

Each question is one function of a game's row (an ORM row or a plain record: `id`,
`public`, `public_id`, `status`, `created_by`, and `seats` with `seat`, `player_id` and
`holder`) and the reader. `admit` asks one of them and raises that `NoSuchGame`."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from service.mailwire.outbound.catalogs import N_, _
from service.store.statuses import GameStatus

from .errors import TAKEN_OVER, NoSuchGame, NotYourSeat

#: what a reader a game does not admit is told, and equally so for a game that does not exist
UNSEEN = N_("There is no such game, or it is not one you may see. Your own games are listed "
            "on My games (and by GET /api/v1/games); a game's public page is reached by the "
            "address its players share.")

Game = Any          # a game's row or record (see the module's docstring)
G = TypeVar("G")


@dataclass(frozen=True)
class Reader:
    """Who asks. Each field is one credential the adapter has verified; an empty Reader is
    anyone at all."""

    player_id: int | None = None    # a signed-in account, or a personal API token's holder
    game_id: int | None = None      # a seat's signed link: the game it was made for,
    seat: int | None = None         # its seat (None: the table, as spectators see it),
    holder: int | None = None       # the holder it was made for (None: whoever holds it)
    public_id: str | None = None    # the public page's id, as the address gave it
    operator: bool = False          # the operator's command line

    @classmethod
    def at(cls, game_id: int, seat: int | None, holder: int | None = None) -> Reader:
        """A seat's signed link for `game_id` (the adapter checked its signature)."""
        return cls(game_id=game_id, seat=seat, holder=holder)

    @classmethod
    def player(cls, player_id: int | None, public_id: str | None = None) -> Reader:
        """A signed-in account or an API token's holder (None: nobody signed in), with the
        public page's id when the request names one."""
        return cls(player_id=player_id, public_id=public_id or None)

    @classmethod
    def spectator(cls, public_id: str) -> Reader:
        """Whoever has the public page's address."""
        return cls(public_id=public_id)


OPERATOR = Reader(operator=True)


def admit(load: Callable[[], G], reader: Reader, may: Callable[[Game, Reader], bool],
          words: str = UNSEEN) -> G:
    """The game `load` reads, when the question `may` admits `reader` to it; otherwise, and
    when there is no such game, `hidden(words)`."""
    game = found(load, words)
    if not may(game, reader):
        raise hidden(words)
    return game


def found(load: Callable[[], G], words: str = UNSEEN) -> G:
    """The game `load` reads; for a number that is no game, `hidden(words)`, so a missing game
    is answered as a hidden one is."""
    try:
        return load()
    except NoSuchGame:
        raise hidden(words) from None


def hidden(words: str = UNSEEN) -> NoSuchGame:
    """The one answer, for a game that does not exist and a game the reader may not see, in
    the reader's language (`words` a marked message)."""
    return NoSuchGame(_(words))


# -- the questions ---------------------------------------------------------------------------

def is_player(game: Game, reader: Reader) -> bool:
    """Whether `reader` plays this game. That means an account that holds one of its seats, or
    a link made for this game. A previous holder's link counts too; `seat_shown` then refuses
    it with the reason, as its owner was once at the table."""
    if reader.operator:
        return True
    if reader.game_id is not None:
        return reader.game_id == game.id
    return reader.player_id is not None and any(
        s.player_id == reader.player_id for s in game.seats)


def spectates(game: Game, reader: Reader) -> bool:
    """Whether `reader` came by the game's public page while its players keep it on."""
    return (reader.public_id is not None and bool(game.public_id) and game.public
            and reader.public_id[:40] == game.public_id)


def sees_table(game: Game, reader: Reader) -> bool:
    """The game as spectators see it: the players' names, the spectator's view, the history as
    no seat may read it (the public page, the API's record). Its players see it, and so does
    the public page's audience while the page is on."""
    return is_player(game, reader) or spectates(game, reader)


def sees_file(game: Game, reader: Reader) -> bool:
    """A game's file (`flask games export`) holds every hidden card and every player's email
    address, so only the operator may read it."""
    return reader.operator


def sees_whole_log(game: Game, reader: Reader) -> bool:
    """Every event as recorded, hidden cards and all. The table's audience may download it,
    but only once the game is over (`whole_log_open`); until then that audience is told to
    wait, and everyone else is told the game does not exist."""
    return sees_table(game, reader)


def whole_log_open(game: Game, over: bool) -> bool:
    """Whether the whole log may be read yet: once the game has ended, or its engine has
    an outcome."""
    return game.status == GameStatus.ENDED or over


def seat_shown(game: Game, reader: Reader) -> int | None:
    """The seat whose private view `reader` is shown: a link's seat, or the seat an account
    holds (the first, should it hold several). None means the table, as spectators see it.
    A link whose seat has since changed hands shows nothing: `NotYourSeat` says why."""
    if reader.game_id is not None:
        if reader.seat is not None and reader.holder is not None:
            row = next((s for s in game.seats if s.seat == reader.seat), None)
            if row is not None and row.holder != reader.holder:
                raise NotYourSeat(_(TAKEN_OVER))
        return reader.seat
    if reader.player_id is not None:
        return next((s.seat for s in game.seats if s.player_id == reader.player_id), None)
    return None


def seats_held(game: Game, reader: Reader) -> list[int]:
    """The seats an account or token holder holds in the game, in seat order (one address
    may hold several, e.g. a table of one person and bots)."""
    if reader.player_id is None:
        return []
    return [s.seat for s in game.seats if s.player_id == reader.player_id]


def own_seat(load: Callable[[], G], reader: Reader, seat: int | None = None):
    """The seat an account or token holder acts or reads for in the game `load` reads (`seat`:
    which of theirs; None: their first). A game they do not play, and a seat that is not
    theirs, are `hidden()`, in the words of a game that does not exist, so a token cannot
    probe which games exist: the API's reads and writes alike ask here."""
    game = admit(load, reader, is_player)
    held = seats_held(game, reader)
    if seat is not None and seat not in held:
        raise hidden()
    chosen = held[0] if seat is None else seat
    return next(s for s in game.seats if s.seat == chosen)


def public_page(game: Game) -> str | None:
    """The public page's id when spectators may follow the game (its players keep the page
    on), else None. A player's page, My games and a tournament's page link it only then."""
    return game.public_id if game.public and game.public_id else None


def sees_open_seat(game: Game, open_seat: bool) -> bool:
    """A forming game with an open seat is offered to everyone. Open seats lists it, with its
    maker's name and the seats taken, and anyone signed in may take the seat. This holds
    whether the public page is on or off, because an open seat invites anyone."""
    return game.status == GameStatus.FORMING and open_seat


def fills_seats(game: Game, reader: Reader) -> bool:
    """Only a forming game's maker may give its declined seats to someone else; to anyone
    else the game does not exist."""
    return reader.player_id is not None and game.created_by == reader.player_id
