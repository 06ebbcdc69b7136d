"""One ranking of a finished game (RULINGS P1): each seat's place, used by everything that
reads a result: the outcome's text in emails and pages, ratings, tournament points and
tie-breaks, ladders and profiles.

Every seat that left before the end (resigned, or forfeited on time) ranks below every seat
that stayed, whatever the scores, and is never among the winners; among those that left, the
first to leave ranks lowest. The seats that stayed are ranked by the game's own result: the
places the engine's rules give (`Outcome.places`, its tie-breaks applied), else its winners
first and the others by score; equal places are shared (1, 1, 3).

The ranking is made once, as the game ends (`result_of`, called by service.play.time.ending),
and stored in `games.result` with the text's sentence; `of_game` reads it back. A game that
ended before places were stored is ranked by `of_game` from what it stored, the seats'
leaving order included (migration 0032_seat_left_order)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from service.games.contract import N_, Outcome
from service.store.statuses import SeatStatus

LEFT = (SeatStatus.RESIGNED, SeatStatus.FORFEITED)

# how each way of leaving reads in the result's sentence ("{p2} resigned")
_LEFT_HOW = {SeatStatus.RESIGNED: "resigned", SeatStatus.FORFEITED: "ran out of time and forfeited"}
# ... and as service.display.seatview._ended says one in the reader's language: the seat's
# clause and the reader's own ("{player} resigned" is a seat change's history line too)
_LEFT_SAID = (N_("{player} resigned"), N_("you resigned"),
              N_("{player} ran out of time and forfeited"), N_("you ran out of time and forfeited"))


@dataclass(frozen=True)
class Ranking:
    """A finished game's places, by seat."""
    places: tuple[int, ...]      # 1 first; equal places shared, the next one skipped (1, 1, 3)
    winners: tuple[int, ...]     # the seats placed first: never one that left
    left: tuple[int, ...]        # the seats that left before the end, the first to leave first

    def against(self, a: int, b: int) -> float:
        """Seat a's result against seat b: 1 placed above, 1/2 level, 0 below."""
        pa, pb = self.places[a], self.places[b]
        return 1.0 if pa < pb else 0.5 if pa == pb else 0.0


def rank(seats: int, *, winners: Iterable[int], scores: Sequence[float] | None = None,
         rules_places: Sequence[int] | None = None, left: Sequence[int] = ()) -> Ranking:
    """The places at a table of `seats`: the game's own result (`rules_places` when the engine
    gives them, else `winners` first and the others by `scores`) among the seats that stayed,
    then the seats in `left` (first to leave first), the first to leave at the bottom."""
    gone = list(dict.fromkeys(left))
    stayed = [s for s in range(seats) if s not in gone]
    won = set(winners)

    def key(s: int) -> tuple:
        if rules_places:
            return (rules_places[s],)
        return (s not in won, -float(scores[s]) if scores else 0.0)

    places = [0] * seats
    for s in stayed:
        places[s] = 1 + sum(1 for t in stayed if key(t) < key(s))
    for n, s in enumerate(gone):
        places[s] = seats - n
    return Ranking(tuple(places), tuple(s for s in stayed if places[s] == 1), tuple(gone))


def left_in_order(seats: Iterable[Any]) -> tuple[int, ...]:
    """The seats (rows or records with `seat`, `status`, `left_order`) that left, first to
    leave first (a seat with no order known after those with one, by seat)."""
    gone = [r for r in seats if r.status in LEFT]
    gone.sort(key=lambda r: (getattr(r, "left_order", None) is None,
                             getattr(r, "left_order", None) or 0, r.seat))
    return tuple(r.seat for r in gone)


def leave(game: Any, row: Any, status: SeatStatus) -> None:
    """`row` leaves `game` (resigned or forfeited), after any seat that left before it. Under
    the game's lock, as every change of a seat."""
    before = [r.left_order for r in game.seats if r is not row and r.status in LEFT
              and getattr(r, "left_order", None) is not None]
    row.status = status
    row.left_order = max(before, default=0) + 1


def result_of(game: Any, outcome: Outcome | None) -> dict[str, Any]:
    """The result stored as the game ends (`games.result`): the engine's `outcome`, or None
    when the service ended the game because all but one left. Places, winners, who left (first
    first), the scores (None when the rules had not ended the game) and the sentence that says
    how it ended ("{p1} ended the game; {p2} resigned"), its seats as placeholders."""
    seats = sorted(game.seats, key=lambda r: r.seat)
    gone = left_in_order(seats)
    if outcome is not None:
        ranking = rank(len(seats), winners=outcome.winners, scores=outcome.scores,
                       rules_places=outcome.places or None, left=gone)
        scores: list[float] | None = list(outcome.scores)
        clauses = [outcome.how] if outcome.how else []
    else:
        ranking = rank(len(seats), winners=(), left=gone)
        scores, clauses = None, []
    status = {r.seat: r.status for r in seats}
    leaving = [f"{{p{s}}} {_LEFT_HOW[status[s]]}" for s in gone]
    if leaving:
        clauses.append(", then ".join(leaving))
    return {"winners": list(ranking.winners), "places": list(ranking.places),
            "left": list(ranking.left), "scores": scores, "how": "; ".join(clauses)}


def of_game(game: Any, outcome: Outcome | None = None) -> Ranking | None:
    """A finished game's places (`game` a GameRow or a record of one, with its seats): as
    stored at its end; for a game that ended before places were stored, made from what it
    stored (`result`, else `outcome`) or from the engine's `outcome` when the caller folded
    the log. None for a game with no result."""
    stored = game.result or {}
    if stored.get("places"):
        return Ranking(tuple(stored["places"]), tuple(stored["winners"]),
                       tuple(stored.get("left") or ()))
    if outcome is not None:
        return rank(len(game.seats), winners=outcome.winners, scores=outcome.scores,
                    rules_places=outcome.places or None, left=left_in_order(game.seats))
    found = stored or getattr(game, "outcome", None)
    if not found:
        return None
    return rank(len(game.seats), winners=found.get("winners") or (),
                scores=found.get("scores"), left=left_in_order(game.seats))
