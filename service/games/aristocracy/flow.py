"""What happens by itself between decisions (A20): phases, draws, royal events, reveals, the
choice of the next active player, the end of a phase. `advance` emits events until somebody
has to decide something."""
from __future__ import annotations

from collections import Counter

from ..contract import Chance, Event
from ..folding import Recorder
from .state import SEALED, State, evolve, value


def recorder(state: State | None) -> Recorder:
    """`decide`'s scratch pad for this game: each emitted event folds at once."""
    return Recorder(evolve, state)


def draw_ready(run: Recorder, k: int, chance: Chance) -> list[str]:
    """The next k cards of the deck; A13: an empty deck is refilled by shuffling the whole
    discard pile (placed under whatever is left, which is the same as drawing those first)."""
    s = run.state
    if len(s.deck) < k and s.discard:
        order = list(s.discard)
        chance.shuffle(order)
        run.emit("Reshuffled", order=order)
    return list(run.state.deck[:k])


def stall_value(s: State, seat: int) -> int:
    return sum(value(c) for c in s.stalls[seat])


def advance(run: Recorder, chance: Chance) -> list[Event]:
    while True:
        s = run.state
        st = s.stage
        if st == "phase":
            _begin_phase(run, chance)
        elif st == "stalls":
            _start_stalls(run)
        elif st in SEALED and not s.waiting:
            _reveal(run, chance)
        elif st == "declare" and len(s.auction["declared"]) == len(s.auction["tied"]):
            _settle(run)
        elif st == "turns":
            _next_turn(run)
        elif st == "turn" and s.actions <= 0:
            run.emit("TurnEnded", seat=s.active, passed=False)
        elif st == "closing":
            _closing(run, chance)
        else:
            return run.events


def _begin_phase(run: Recorder, chance: Chance) -> None:
    s = run.state
    run.emit("PhaseBegan", round=s.round, royal=s.royal)
    cards = draw_ready(run, 2, chance)
    if cards:
        run.emit("MarketDrawn", cards=cards)
    if not (s.round == 1 and s.royal == "K"):      # no draw in the very first King phase
        cards = draw_ready(run, s.n, chance)
        drawn = [None] * s.n
        for j, seat in enumerate(s.order()[:len(cards)]):
            drawn[seat] = cards[j]
        run.emit("CardsDrawn", cards=drawn)
    s = run.state
    order = s.order()
    if s.royal == "K":
        over = [x for x in order if len(s.hands[x]) > s.hand_limit(x)]
        if over:
            run.emit("SealedBegan", kind="tax", seats=over)
            return
    elif s.royal == "Q":
        seats = [x for x in order if s.hands[x]]
        if seats:
            run.emit("SealedBegan", kind="ball", seats=seats)
            return
    else:
        cards = draw_ready(run, 1, chance)
        if cards:
            run.emit("MarketDrawn", cards=cards)
        if _open_auction(run):
            return
    _start_stalls(run)


def _open_auction(run: Recorder) -> bool:
    """A16: sealed bids on the market. Version 1 left coinless players out; since version 2
    (A16 as amended) every player bids, and a player without coins bids 0 at once (it is
    their only bid, and coins are public), so nobody waits on them."""
    s = run.state
    if s.rules >= 2:
        seats = s.order()
    else:
        seats = [x for x in s.order() if s.coins[x] > 0]
    if not (seats and s.market):
        return False
    run.emit("SealedBegan", kind="bid", seats=seats)
    for x in seats:
        if s.coins[x] == 0:
            run.emit("ChoiceMade", kind="bid", seat=x, choice=0, auto=True)
    return True


def _start_stalls(run: Recorder) -> None:
    s = run.state
    seats = [x for x in s.order() if s.hands[x]]
    if seats:
        run.emit("SealedBegan", kind="stall", seats=seats)
    else:
        run.emit("StallsRevealed", stalls=[[] for _ in range(s.n)])


def _reveal(run: Recorder, chance: Chance) -> None:
    """A3: every sealed choice is revealed together once the last one is in."""
    s = run.state
    ch = s.choices
    if s.stage == "stall":
        run.emit("StallsRevealed", stalls=[list(ch.get(x, [])) for x in range(s.n)])
    elif s.stage == "tax":
        run.emit("TaxPaid", discards=[list(ch.get(x, [])) for x in range(s.n)])
    elif s.stage == "bid":
        run.emit("BidsRevealed", bids=[ch.get(x) if x in s.sealed_seats else None
                                       for x in range(s.n)])
    else:  # A15: the ball
        given = [list(ch.get(x, [])) for x in range(s.n)]
        pool = [c for x in s.order() for c in given[x]] + list(s.market)
        chance.shuffle(pool)
        returns = [[] for _ in range(s.n)]
        for x in s.order():
            returns[x], pool = pool[:len(given[x])], pool[len(given[x]):]
        run.emit("BallHeld", given=given, returns=returns, market=pool,
                 reveal=s.options["ball_reveal"])


def _settle(run: Recorder) -> None:
    """A16: a card declared by exactly one tied bidder goes to them for the top bid; a card
    declared by several is discarded and they pay nothing."""
    a = run.state.auction
    counts = Counter(card for _, card in a["declared"])
    awards = [[x, c] for x, c in a["declared"] if counts[c] == 1]
    discarded = sorted(c for c, k in counts.items() if k > 1)
    run.emit("DeclarationsSettled", awards=awards, discarded=discarded, price=a["price"])


def _next_turn(run: Recorder) -> None:
    """A4/A5: the lowest stall value among those still to act (recomputed now), ties in
    Herald order; an empty stall takes no turn."""
    s = run.state
    order = s.order()
    left = [x for x in order if x not in s.turned and s.stalls[x]]
    if left:
        seat = min(left, key=lambda x: (stall_value(s, x), order.index(x)))
        run.emit("TurnBegan", seat=seat, actions=len(s.stalls[seat]))
        return
    if s.market:
        run.emit("MarketCleared", cards=list(s.market))
    run.emit("StallsReturned")


def _closing(run: Recorder, chance: Chance) -> None:
    s = run.state
    if s.royal == "K" and s.rules >= 4:
        # A19 amended: nobody is asked; the first in Herald order who qualifies and has not
        # chosen to play on ends the game
        enders = [x for x in s.order() if x not in s.play_on and s.may_end(x)]
        if enders:
            run.emit("GameEnded", how="ended", by=enders[0])
            return
    elif s.royal == "K" and not s.offered:
        seats = [x for x in s.order() if s.may_end(x)]
        if seats:
            run.emit("EndOffered", seats=seats)
            return
    if s.royal == "J" and s.round >= s.options["round_cap"]:
        run.emit("GameEnded", how="round cap")
        return
    income = [0] * s.n
    production = []
    if s.royal == "Q":   # A18
        income = [sum(1 for b in s.buildings[x] if s.level(b) >= 1) for x in range(s.n)]
    elif s.royal == "J":  # A17
        farms = [(x, b.address) for x in s.order() for b in s.buildings[x]
                 if s.level(b) == 0 and b.production is None]
        cards = draw_ready(run, len(farms), chance)
        # a deck short even after a reshuffle feeds the first farms only
        production = [[x, a, c] for (x, a), c in zip(farms, cards, strict=False)]
    run.emit("PhaseEnded", royal=s.royal, income=income, production=production)

