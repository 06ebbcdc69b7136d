"""One ranking of a finished game (RULINGS P1: "Every seat that left a game before its end
(resigned, or forfeited on time) ranks below every seat that stayed, whatever the scores; among
those that left, the one that left first ranks lowest. A seat that left is never among the
winners ... The outcome's text, ratings, tournament points and tie-breaks, ladders, leagues and
profiles all use these places.")

At tables of 2 to 5 with nobody, one and two seats leaving (by resigning, or on time), the
leavers holding the best scores: the result's text, the rating changes, the tournament's points
and standings, and a ladder say the same places."""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from sqlalchemy import select, update

from service import play
from service.display.seatview import result_line
from service.games import aristocracy, magnate, registry, trees
from service.games.contract import Outcome, places_by, replay
from service.mailwire.outbound.compose import Envelope, compose_turn
from service.play import community, ranking
from service.play.community import ladders
from service.play.players import seatchanges
from service.play.reads import seatpage
from service.play.time import ending
from service.play.time.sweep import timeouts
from service.store.models import GameRow, LadderGame, RatingChange, Seat
from tests.display import test_endings
from tests.display.render import ENV, URLS, WHEN, readable
from tests.play.time.helpers import position

# the scores the game's own rules give each seat: the seats that leave (0, then 1) hold the
# best, and the last two seats tie at four and five seats
SCORES = {2: [10, 9], 3: [10, 9, 8], 4: [10, 9, 8, 8], 5: [10, 9, 8, 7, 7]}
# the places RULINGS P1 gives them: (seats, how many left) -> place by seat
PLACES = {
    (2, 0): [1, 2], (2, 1): [2, 1],
    (3, 0): [1, 2, 3], (3, 1): [3, 1, 2], (3, 2): [3, 2, 1],
    (4, 0): [1, 2, 3, 3], (4, 1): [4, 1, 2, 2], (4, 2): [4, 3, 1, 1],
    (5, 0): [1, 2, 3, 4, 4], (5, 1): [5, 1, 2, 3, 3], (5, 2): [5, 4, 1, 2, 2],
}
NAMES = ["ann", "ben", "cleo", "dan", "eve"]


# --- the ranking itself ------------------------------------------------------------------

@pytest.mark.parametrize("size, gone", list(PLACES))
def test_those_who_left_rank_below_those_who_stayed_the_first_to_leave_lowest(size, gone):
    scores = SCORES[size]
    ranked = ranking.rank(size, winners=(0,), scores=scores, left=list(range(gone)))
    assert list(ranked.places) == PLACES[(size, gone)]
    assert set(ranked.winners) == {s for s in range(size) if PLACES[(size, gone)][s] == 1}
    assert not set(ranked.winners) & set(range(gone))     # never a winner, whatever the score


def test_the_rules_places_rank_those_who_stayed_with_their_tie_breaks():
    # four seats, two tied on points whom the rules' tie-break (Trees T8: more Aces) parts;
    # the winner by the rules resigned, so the tie-break decides who wins now
    rules = places_by([(5, 1), (3, 2), (3, 1), (1, 0)])
    assert rules == (1, 2, 3, 4)
    ranked = ranking.rank(4, winners=(0,), scores=[5, 3, 3, 1], rules_places=rules, left=[0])
    assert ranked.places == (4, 1, 2, 3) and ranked.winners == (1,)
    # scores alone would share the first place between seats 1 and 2
    assert ranking.rank(4, winners=(0,), scores=[5, 3, 3, 1], left=[0]).winners == (1, 2)


def test_trees_places_below_the_winner_by_points_then_aces():
    # RULINGS T8: "Most points wins; tie: more Aces"; the same keys place the others
    state = {"ended": "harvested", "seats": 4, "turn": 40, "scores": [3, 5, 3, 1],
             "aces": [["1M"], ["1S"], ["1V", "1L"], ["1Y", "1K"]]}
    assert trees.views.outcome(state).places == (3, 1, 2, 4)


def test_magnate_places_below_the_winner_by_districts_developed_value_then_tokens():
    # RULINGS M13: most points; tie: higher developed value; tie: more tokens; still tied: shared
    recorded = {"scores": [1, 2, 1], "winners": [1], "how": "most districts",
                "detail": {"developed": [30, 40, 30], "tokens": [4, 9, 6], "leaders": [],
                           "totals": []}}
    assert magnate.views.outcome(SimpleNamespace(outcome=recorded)).places == (3, 1, 2)
    recorded["detail"]["tokens"] = [6, 9, 6]
    assert magnate.views.outcome(SimpleNamespace(outcome=recorded)).places == (2, 1, 2)


def test_aristocracy_places_every_seat_by_points_coins_hand_value_then_herald_order():
    # RULINGS A19: "Ties go to more coins, then the higher value of the hand, then Herald order"
    result = {"how": "cap", "by": None, "winner": 3, "points": [4, 4, 4, 6],
              "coins": [2, 3, 2, 0], "hand_value": [5, 1, 5, 0]}
    herald_at_2 = SimpleNamespace(result=result, n=4, order=lambda: [2, 3, 0, 1])
    # seats 0 and 2 level to the hand value: the Herald (seat 2) comes first
    assert aristocracy.views.outcome(herald_at_2).places == (4, 2, 3, 1)


@pytest.mark.parametrize("kind", sorted(registry.available()))
def test_each_engines_places_follow_its_winners_and_scores(kind):
    """Outcome.places, where an engine gives them: the seats placed first are its winners,
    and no seat is placed above one that scored more."""
    engine = registry.get(kind)
    for size in engine.seats:
        rng = random.Random(size)
        # Magnate's table of three is the Roller rules' own layout (M21); Aristocracy is
        # kept short by its round cap (A19)
        options = {("magnate", 3): {"ruleset": "modern", "three": True}}.get(
            (kind, size), {"round_cap": 2} if kind == "aristocracy" else {})
        state = replay(engine, engine.start(size, engine.validate_options(size, options),
                                            rng))
        for _ in range(20000):
            if engine.outcome(state) is not None:
                break
            seat = rng.choice(sorted(engine.to_act(state)))
            move = rng.choice(engine.legal_moves(state, seat))
            state = replay(engine, engine.decide(state, seat, move, rng), state)
        outcome = engine.outcome(state)
        assert outcome is not None
        if not outcome.places:
            continue
        assert {s for s in range(size) if outcome.places[s] == 1} == set(outcome.winners)
        for a in range(size):
            for b in range(size):
                if outcome.scores[a] > outcome.scores[b]:
                    assert outcome.places[a] < outcome.places[b], (kind, size, outcome)


# --- every reader agrees -----------------------------------------------------------------

CASES = [(2, ()), (2, ("resign",)), (2, ("forfeit",)),
         (3, ()), (3, ("resign",)), (3, ("resign", "resign")), (3, ("forfeit", "resign")),
         (4, ()), (4, ("resign",)), (4, ("resign", "resign")), (4, ("resign", "forfeit")),
         (5, ()), (5, ("resign",)), (5, ("resign", "resign"))]


def _tournament_game(svc, size: int) -> tuple[int, int]:
    """A one-round Swiss of Aristocracy (2 to 5 at a table) on a day's clock: its one game."""
    made = community.create(svc, "aristocracy", "swiss", 1,
                            [f"{n}@example.org" for n in NAMES[:size]], clock="1d",
                            table=size)
    (game_id,) = made.games
    with svc.db.transaction() as s:
        players = [r.player_id for r in s.get(GameRow, game_id).seats]
    assert len(players) == size
    return made.tournament_id, game_id


def _forfeit(svc, game_id: int, seat: int) -> None:
    """`seat` runs out of time with the forfeit policy (the others' clocks play for them)."""
    assert seat in position(svc, game_id).engine.to_act(position(svc, game_id).state)
    with svc.db.transaction() as s:
        s.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == seat)
                  .values(on_timeout="forfeit"))
    svc.clock.advance(days=1, minutes=1)
    timeouts.run(svc)
    with svc.db.transaction() as s:
        assert s.get(Seat, (game_id, seat)).status == "forfeited"


def _ladder(svc, game_id: int) -> dict[int, int]:
    """The two-player game made a ladder game as well: seat 1 challenges seat 0, one place
    above it. Returns the ladder's players by seat."""
    with svc.db.transaction() as s:
        by_seat = {r.seat: r.player_id for r in s.get(GameRow, game_id).seats}
    for seat in (0, 1):
        ladders.join(svc, by_seat[seat], "aristocracy")
    with svc.db.transaction() as s:
        s.add(LadderGame(game_id=game_id, kind="aristocracy", challenger_id=by_seat[1],
                         defender_id=by_seat[0], settled=False, created_at=svc.clock.now()))
    return by_seat


@pytest.mark.parametrize("size, leaving", CASES,
                         ids=[f"{n}-{'-'.join(w) or 'none'}" for n, w in CASES])
def test_text_ratings_tournament_points_and_ladder_agree(services, size, leaving):
    svc = services
    tournament_id, game_id = _tournament_game(svc, size)
    by_seat = _ladder(svc, game_id) if size == 2 else {}
    for seat, how in enumerate(leaving):       # seat 0 leaves first, then seat 1
        if how == "resign":
            svc.clock.advance(hours=1)
            seatchanges.resign(svc, game_id, seat)
        else:
            _forfeit(svc, game_id, seat)
    with svc.db.transaction() as s:
        game = s.get(GameRow, game_id)
        if game.status != "ended":       # more than one stayed: the rules end it, scoring
            scores = SCORES[size]       # the ones who left best
            ending.finish(s, game, svc.clock.now(), outcome=Outcome(
                tuple(float(x) for x in scores), (0,), "most points",
                places=places_by(scores)))
    places = PLACES[(size, len(leaving))]
    winners = [NAMES[s] for s in range(size) if places[s] == 1]
    gone = [NAMES[s] for s in range(len(leaving))]

    # the text everyone reads at the end, in the emails and on the pages
    table = play.Reader.at(game_id, None)      # the table, as a spectator's link shows it
    text = result_line(play.read_game(svc, game_id, table, with_history=False).page)
    head = text.split(".")[0].split(" (")[0]
    assert head == (f"{winners[0]} won" if len(winners) == 1
                    else "Shared win: " + ", ".join(winners)), text
    assert not any(name in head for name in gone), text
    if size > 2:
        listed = text.split("Places: ")[1].split(".")[0].split(", ")
        assert [part.split(" ")[1] for part in listed] == \
            sorted(NAMES[:size], key=lambda n: (places[NAMES.index(n)], NAMES.index(n)))
        assert [int(part.split(" ")[0][:-2]) for part in listed] == sorted(places)

    # the ratings: each seat rated at its place (all new, so all start level), the first to
    # leave losing (how much a shared place gives is openskill's: see docs/architecture.md)
    with svc.db.transaction() as s:
        seated = {r.player_id: r.seat for r in s.get(GameRow, game_id).seats}
        change = {seated[c.player_id]: (c.rank, c.mu - c.mu_before) for c in s.scalars(
            select(RatingChange).where(RatingChange.game_id == game_id))}
    assert {seat: rank for seat, (rank, _) in change.items()} == dict(enumerate(places))
    if leaving:
        assert change[0][1] < 0

    # the tournament: each seat's share of the tablemates it finished above, and the order
    view = community.show(svc, tournament_id)
    (table,) = view.played[0].tables
    expected = [sum(1.0 if places[a] < places[b] else 0.5 if places[a] == places[b] else 0.0
                    for b in range(size) if b != a) / (size - 1) for a in range(size)]
    assert table.points == pytest.approx(expected)
    top = {line.name for line in view.standings if line.points == pytest.approx(max(expected))}
    assert top == set(winners)

    # the ladder (two seats): the challenger (seat 1) climbs exactly when it is the winner
    if size == 2:
        order = [r.player_id for r in ladders.view(svc, "aristocracy").rungs]
        climbed = order[0] == by_seat[1]
        assert climbed == (winners == [NAMES[1]])


def test_two_resignations_at_a_table_of_three_the_first_loses_most(services):
    """The defect reported: the first of two resigners gained rating (+43) and the second
    lost (-215), as only the resignation that ended the game was stored as last. Now the
    first is third and loses most; the second, second (it outlasted the first: RULINGS P1)."""
    _, game_id = _tournament_game(services, 3)
    seatchanges.resign(services, game_id, 0)
    services.clock.advance(hours=1)
    seatchanges.resign(services, game_id, 1)
    with services.db.transaction() as s:
        change = {c.seat: c.mu - c.mu_before for c in s.scalars(
            select(RatingChange).where(RatingChange.game_id == game_id))}
        result = s.get(GameRow, game_id).result
    assert change[0] < 0 and change[0] < change[1] < change[2]
    assert result["left"] == [0, 1] and result["winners"] == [2]
    assert result["how"] == "{p0} resigned, then {p1} resigned"


def test_a_seat_that_takes_over_a_resigned_seat_stays_in_the_ranking(services):
    """A replacement plays the seat again: it is no longer among those who left."""
    _, game_id = _tournament_game(services, 3)
    seatchanges.resign(services, game_id, 0)
    with services.db.transaction() as s:
        assert s.get(Seat, (game_id, 0)).left_order == 1
    token = services.urls.signer.dumps(
        "invite", seatchanges._invite_claims(game_id, 0, 0, "fay@example.org"))
    seatchanges.accept_replacement(services, token)
    with services.db.transaction() as s:
        game = s.get(GameRow, game_id)
        assert game.seats[0].left_order is None
        ending.finish(s, game, services.clock.now(),
                      outcome=Outcome((10.0, 9.0, 8.0), (0,), "most points"))
        assert game.result["places"] == [1, 2, 3] and game.result["left"] == []


def test_leaving_order_survives_a_batch_of_the_sweep(services):
    """Two seats of a table of four forfeit in one pass of the batched sweep: each gets its
    own place in the leaving order (the one handled first left first)."""
    _, game_id = _tournament_game(services, 4)
    with services.db.transaction() as s:
        s.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat.in_([1, 2]))
                  .values(on_timeout="forfeit"))
    services.clock.advance(days=1, minutes=1)
    timeouts.run(services, bulk=True)
    with services.db.transaction() as s:
        rows = {r.seat: r for r in s.get(GameRow, game_id).seats}
        assert {rows[1].status, rows[2].status} == {"forfeited"}
        assert sorted([rows[1].left_order, rows[2].left_order]) == [1, 2]
        assert rows[0].left_order is None and rows[3].left_order is None
        game = s.get(GameRow, game_id)
        first = min((1, 2), key=lambda seat: rows[seat].left_order)
        ending.finish(s, game, services.clock.now(),
                      outcome=Outcome((1.0, 9.0, 8.0, 2.0), (1,), "most points"))
        assert game.result["places"][first] == 4 and game.result["winners"] == [3]


def test_the_rules_end_as_emails_and_pages_show_it_never_names_a_leaver_the_winner():
    """Aristocracy at three, played to its end by the bots; its winner by the rules had
    resigned before the end (its seat played on for it). The turn email, drawn from the
    engine's view and the game's result, names the winner the ranking names."""
    sample = test_endings.finished("aristocracy", 3, {})
    names = test_endings.NAMES
    outcome = sample.engine.outcome(sample.state)
    (gone,) = outcome.winners
    rows = [SimpleNamespace(seat=s, player=SimpleNamespace(name=names[s], zone=None),
                            clock=None, holder=0, status="resigned" if s == gone else "active",
                            left_order=1 if s == gone else None) for s in range(3)]
    game = SimpleNamespace(id=1, kind="aristocracy", seats=rows, clock=None, rest_days=None,
                           status="ended", result=None)
    game.result = ranking.result_of(game, outcome)
    (winner,) = game.result["winners"]
    assert winner != gone
    pos = SimpleNamespace(engine=sample.engine, state=sample.state, seq=sample.seq)
    reader = next(s for s in range(3) if s not in (gone, winner))
    page = seatpage.build(game, pos, reader, WHEN, news=sample.events[-3:])
    msg = compose_turn(ENV, page, URLS.for_seat(1, reader, page.mark),
                       Envelope("tp.look", "p@example.org", "Turnpost", WHEN))
    text = readable(msg.get_body(("plain",)).get_content())
    over = next(line for line in text.splitlines() if line.startswith("GAME OVER"))
    assert over.startswith(f"GAME OVER: {names[winner]} ") and " wins (" in over, over
    assert f"{names[gone]} resigned" in over
    assert not re.search(rf"\b{names[gone]}( \(p\d\))? (won|wins)\b", text), text


def test_a_game_ranked_before_places_were_stored_reads_right_and_a_rebuild_rates_it_so(
        services):
    """A game that ended before this ranking kept the result the service wrote then (only the
    last to resign stored as last) and ratings that placed the first to resign second. Read
    now, its places come from its seats' leaving order; `flask ratings rebuild` ranks it
    again, stores its places and rates it by them."""
    _, game_id = _tournament_game(services, 3)
    seatchanges.resign(services, game_id, 0)
    services.clock.advance(hours=1)
    seatchanges.resign(services, game_id, 1)
    with services.db.transaction() as s:                 # as the service wrote it before
        s.get(GameRow, game_id).result = {"winners": [2], "last": [1], "how": "{p1} resigned",
                                          "scores": None}
    with services.db.transaction() as s:
        assert community.places(s.get(GameRow, game_id)) == {0: 3, 1: 2, 2: 1}
    assert community.rebuild(services, "aristocracy") == 1
    with services.db.transaction() as s:
        game = s.get(GameRow, game_id)
        assert game.result["places"] == [3, 2, 1] and game.result["left"] == [0, 1]
        seated = {r.player_id: r.seat for r in game.seats}
        ranks = {seated[c.player_id]: c.rank for c in s.scalars(
            select(RatingChange).where(RatingChange.game_id == game_id))}
    assert ranks == {0: 3, 1: 2, 2: 1}


def test_a_three_player_end_page_shows_every_place(app):
    """Issue 49 item 18: a game of three that ended by two resignations showed "Carla won.
    Ben resigned." and no places; the page (and the last email) now lists them."""
    svc = app.extensions["turnpost"]
    game_id = play.start_game(svc, "trees", ["Anna <anna@example.org>", "Ben <ben@example.org>",
                                             "Carla <carla@example.org>"], {}).game_id
    seatchanges.resign(svc, game_id, 0)
    seatchanges.resign(svc, game_id, 1)
    page = app.test_client().get(svc.urls.game_path(game_id, 0)).get_data(as_text=True)
    assert ("Game over. Carla won. Places: 1st Carla, 2nd Ben (left the game), "
            "3rd you (left the game). You resigned, then Ben resigned.") in " ".join(page.split())
