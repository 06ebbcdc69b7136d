"""The one builder of a seat's page, for the turn email, the game page, a player's games and
the JSON API alike: the engine's side (service.display.seatview: the view, whose move, the moves)
and the service's side (every seat's clock, the seat's holder, a result the service decided)
from the game, the position and the time."""
from __future__ import annotations

from datetime import datetime

from service.display.seatview import SeatPage, seat_page
from service.games import registry
from service.games.contract import Event
from service.play.repository import Position
from service.play.time import clocks, deadlines
from service.store.models import GameRow
from service.store.statuses import GameStatus


def build(game: GameRow, pos: Position, seat: int | None, now: datetime, *,
          news: list[tuple[int, Event]] | None = None, every_move: bool = False,
          with_menu: bool = True) -> SeatPage:
    """`seat` None is a spectator. `news`: the events told as news (an email's); see
    presenting.seat_page for `every_move` and `with_menu`."""
    names = [s.player.name for s in game.seats]
    page = seat_page(pos.engine, game.id, game.kind, pos.state, pos.seq, seat, names,
                     news or [], every_move=every_move, with_menu=with_menu,
                     title=registry.title(game.kind, getattr(game, "options", None)))
    _service_side(page, game, now)
    return page


def _service_side(page: SeatPage, game: GameRow, now: datetime) -> None:
    """Every seat's clock, the reader's holder, and the game's places and result as the
    service ranked them (service.play.ranking). Every deadline is written in the reader's time
    zone, and says which (a spectator reads UTC)."""
    tc = deadlines.control(game)
    zone = deadlines.seat_row(game, page.me).player.zone if page.me is not None else None
    words = clocks.describe(tc)
    if game.rest_days and tc.kind != "none":
        days = " and ".join(", ".join(d.capitalize() for d in game.rest_days.split(","))
                            .rsplit(", ", 1))
        words += f"; no clock runs on {days}, in the time zone of each player"
    page.clocks = []
    for row in game.seats:
        view = clocks.clock_view(tc, deadlines.get_clock(row), now, zone)
        view.update(seat=row.seat, name=row.player.name, status=row.status,
                    clock_words=words)
        page.clocks.append(view)
    if page.me is not None:
        page.holder = deadlines.seat_row(game, page.me).holder
    if game.result:
        page.outcome = game.result
        told = page.view.get("outcome")
        if told and game.result.get("places"):
            # the rules' end as the service ranked it (service.play.ranking): a seat that
            # left is never among the winners, and the sentence says who left
            page.view = {**page.view, "outcome": {**told, "winners": game.result["winners"],
                                                  "how": game.result["how"]}}
    if game.status == GameStatus.ENDED:
        page.your_turn, page.menu, page.all_moves, page.to_act = False, [], [], []
