"""Suzerain bots: "easy" (any legal move) and "normal" (a one-trick lookahead on the score);
"random" and "greedy" are their older names, kept for stored games and golden files.

The greedy bot plays from what its seat knows: its own cards, the cards publicly seen as the
opponent's, and the opponent's Aces by elimination (all six are dealt, three each). It values a
position by the score difference it would give, the majorities (S10) counted as expected points
if the cards of that rank still unowned split evenly. It claims the card that leaves the best
position after the opponent's best reply, wins tricks when the display is worth winning (and
ducks cheaply when not), uses its rights and discards on its lowest cards to reach its pile,
where the claimed cards wait, sooner.
"""
from __future__ import annotations

from functools import cache
from math import comb

from ..cards import decktet
from .rules import legal_moves, playable
from .scoring import MAJORITY_RANKS, RANK_SIZE, shared
from .state import CARDS, CLAIM, DISCARD, LEAD, LOSER, RIGHT, ordered, value


def random_bot(state, seat: int, chance):
    return chance.choice(legal_moves(state, seat))


@cache
def _majority(a: int, b: int, size: int) -> float:
    """Expected S10 points of the seat holding a (minus the other's, holding b), the rest of
    the rank's cards split at random."""
    rest = size - a - b
    total = 0.0
    for k in range(rest + 1):
        p = comb(rest, k) / 2 ** rest
        mine, theirs = a + k, b + rest - k
        pts = 3 if mine == size else (1 if mine > theirs else 0)
        opp = 3 if theirs == size else (1 if theirs > mine else 0)
        total += p * (pts - opp)
    return total


def _seat_points(cards) -> tuple[dict, float]:
    ranks = {r: 0 for r in MAJORITY_RANKS}
    aces, pawns, courts, low = [], [], [], []
    for c in cards:
        r = decktet.rank(c)
        if r in ranks:
            ranks[r] += 1
        elif r == "1":
            aces.append(c)
        elif r == "P":
            pawns.append(c)
        elif r == "T":
            courts.append(c)
        elif r in "234":
            low.append(c)
    pts = sum(1 for a in aces for p in pawns if shared(a, p))
    pts += sum(shared(x, t) for x in low for t in courts)
    pts += 0.05 * ranks["5"]   # S13's tie-break, just enough to prefer a 5 on a tie
    return ranks, pts


def evaluate(mine, theirs) -> float:
    """My expected final score minus the opponent's, from what is owned so far."""
    rm, pm = _seat_points(mine)
    rt, pt = _seat_points(theirs)
    return pm - pt + sum(_majority(rm[r], rt[r], RANK_SIZE[r]) for r in MAJORITY_RANKS)


class Knowledge:
    """What `seat` knows: its own cards, the opponent's known cards and the unseen ones."""

    def __init__(self, state, seat: int):
        self.seat, self.opp = seat, 1 - seat
        self.mine = list(state.owned(seat))
        mine = set(self.mine)
        theirs = {c for c in state.owned(self.opp) if c in state.public}
        theirs |= {a for a in decktet.ACES if a not in mine}
        self.theirs = list(theirs)
        seen = mine | theirs | set(state.display) | set(state.table)
        self.unseen = [c for c in CARDS if c not in seen]

    def best_reply(self, display, mine, theirs) -> float:
        """The loser takes the face-up card best for them: my value afterwards."""
        if not display:
            return evaluate(mine, theirs)
        return min(evaluate(mine, theirs + [y]) for y in display)

    def win_options(self, state) -> list[tuple[float, dict]]:
        """(value, move) for each claim open to me as the winner."""
        out = []
        for x in state.display:
            rest = [y for y in state.display if y != x]
            out.append((self.best_loser_reply_to_me(rest, self.mine + [x]),
                        {"type": "take", "card": x}))
        if state.deck and self.unseen:
            vals = [self.best_loser_reply_to_me(list(state.display), self.mine + [u])
                    for u in self.unseen]
            out.append((sum(vals) / len(vals), {"type": "take_blind"}))
        return out

    def best_loser_reply_to_me(self, display, mine) -> float:
        return self.best_reply(display, mine, self.theirs)

    def my_loser_value(self, display, theirs) -> float:
        return max(evaluate(self.mine + [y], theirs) for y in display) if display else \
            evaluate(self.mine, theirs)

    def trick_worth(self, state) -> float:
        """How much better winning this trick is than losing it."""
        win = max(v for v, _ in self.win_options(state))
        lose = []
        for x in state.display:
            rest = [y for y in state.display if y != x]
            lose.append(self.my_loser_value(rest, self.theirs + [x]))
        if state.deck and self.unseen:
            vals = [self.my_loser_value(list(state.display), self.theirs + [u])
                    for u in self.unseen[:12]]
            lose.append(sum(vals) / len(vals))
        return win - min(lose)

    def beat_chance(self, state, card: str) -> float:
        """Rough chance the opponent cannot follow `card` with a higher rank."""
        opp = self.opp
        hand, total = len(state.hands[opp]), len(state.owned(opp)) - len(state.kept[opp])
        p_known = hand / total if total else 0.0
        blind = state.blind[opp]
        p_unseen = p_known * blind / len(self.unseen) if self.unseen else 0.0
        p = 1.0
        for c in self.theirs:
            if decktet.rank(c) not in "PT" and decktet.shares_suit(c, card) and value(c) > value(card):
                p *= 1 - p_known
        for c in self.unseen:
            if decktet.rank(c) not in "PT" and decktet.shares_suit(c, card) and value(c) > value(card):
                p *= 1 - p_unseen
        return p


LOW = 4   # cards of this rank or lower are the ones to shed


def greedy_bot(state, seat: int, chance):
    moves = legal_moves(state, seat)
    rights = [m for m in moves if m["type"] == "remove"]
    if rights:
        best = min(rights, key=lambda m: (value(m["card"]), m["card"]))
        if value(best["card"]) <= LOW - 1:
            return best
    if state.phase == RIGHT:       # no low card to shed with the fresh right: keep it
        return {"type": "decline"}
    know = Knowledge(state, seat)
    if state.phase == CLAIM:
        return max(know.win_options(state), key=lambda vm: vm[0])[1]
    if state.phase == LOSER:
        return max(({"type": "take", "card": y} for y in ordered(state.display)),
                   key=lambda m: evaluate(know.mine + [m["card"]], know.theirs))
    if state.phase == DISCARD:
        hand = state.hands[seat]
        shed = [c for c in hand if value(c) <= LOW][:2]
        if len(shed) == len(hand):       # keep a card so the pile comes back a trick later
            shed = shed[:-1] if len(hand) > 1 else shed
        return {"type": "discard", "cards": list(ordered(shed))}
    hand = [m["card"] for m in moves if m["type"] in ("lead", "play")]
    worth = know.trick_worth(state)
    if state.phase == LEAD:
        if worth > 0.05:
            return {"type": "lead", "card": max(hand, key=lambda c: (know.beat_chance(state, c),
                                                                     -value(c)))}
        return {"type": "lead", "card": min(hand, key=value)}
    led = state.table[0]
    winning = [c for c in hand if decktet.shares_suit(c, led) and value(c) > value(led)]
    if winning and worth > 0.05:
        return {"type": "play", "card": min(winning, key=value)}
    legal = playable(state.hands[seat], led)
    return {"type": "play", "card": min(legal, key=value)}


BOTS = {"easy": random_bot, "normal": greedy_bot,
        "random": random_bot, "greedy": greedy_bot}
