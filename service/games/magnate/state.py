"""Magnate state and its pure fold (`evolve`).

The state is made of frozen dataclasses holding tuples, so `replace` copies only what changes and
equality compares by value (the invariant suite compares replayed and live states). Every chance
outcome (deck order, dice) arrives inside an event; `evolve` never draws anything.

Token vectors are 6-tuples in suit order M S V L Y K (RULINGS: suit order everywhere).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from ..cards import decktet
from ..folding import Fold, started_version

SUITS = decktet.SUITS
MODES = ("always", "never", "ask")          # M16 standing choice
# M16 amended (rules 3): the choice starts at "never", which has no tell; before, at "ask"
DEFAULT_ACES = {1: "ask", 2: "ask"}
SI = {s: i for i, s in enumerate(SUITS)}
ZERO = (0,) * 6


@cache
def info(card_id: str) -> tuple[str, str]:
    """(rank character, suit letters) of a card id, copy suffix ignored."""
    return decktet.rank(card_id), decktet.suits(card_id)


def vec(pay: dict) -> tuple[int, ...]:
    return tuple(int(pay.get(s, 0)) for s in SUITS)


def unvec(v) -> dict:
    return {s: n for s, n in zip(SUITS, v, strict=True) if n}


def add(a, b, sign: int = 1) -> tuple[int, ...]:
    return tuple(x + sign * y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Prop:
    """A card in a player's column: developed (`on` is None) or a deed with tokens on it."""

    card: str
    on: tuple[int, ...] | None = None

    @property
    def developed(self) -> bool:
        return self.on is None


@dataclass(frozen=True)
class Player:
    tokens: tuple[int, ...]
    hand: tuple[str, ...]
    crowns: tuple[str, ...]
    columns: tuple[tuple[Prop, ...], ...]      # one per district, empty where not contested
    prefs: tuple[tuple[str, str], ...] = ()    # (deed card, suit): hidden standing choice, M19
    aces: str = "ask"                          # M16 standing choice: always / never / ask

    def pref(self, card: str) -> str | None:
        for c, s in self.prefs:
            if c == card:
                return s
        return None

    def deed_in(self, d: int) -> Prop | None:
        col = self.columns[d]
        return col[-1] if col and not col[-1].developed else None


@dataclass(frozen=True)
class State:
    options: dict
    n: int
    districts: tuple[str, ...]              # Pawn / Excuse id; "" = a plain district (M15)
    contest: tuple[tuple[int, ...], ...]    # seats contesting each district (M21)
    players: tuple[Player, ...]
    draw: tuple[str, ...]                   # top card first
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()           # mega: the second Excuse (M20)
    pile: int = 1                           # which pile is being drawn from
    piles: int = 2                          # M12: 2 piles, 3 with three players (M21)
    turn: int = 0
    phase: str = "play"                     # play / open / draw / ask / over
    # "open" (rules 2, M9 amended): the card play is made, the turn stays open for trades and
    # deed additions until its player ends it (or nothing more is possible).
    plays_left: int = 0
    draws_left: int = 0
    asked: str | None = None                # the Ace awaiting keep/replace (M16 "ask")
    final_left: int | None = None           # final turns not yet begun, once the end is near
    turns: int = 0
    last_roll: dict | None = None
    outcome: dict | None = None
    recycled: frozenset = frozenset()      # cards once public, shuffled back into a pile
    rules: int = 1                          # the rules version the game started under

    @property
    def modern(self) -> bool:
        return self.options["ruleset"] == "modern"

    @property
    def per_turn(self) -> int:
        return 2 if self.options["mega"] else 1


def _player(st: State, seat: int, **changes) -> tuple[Player, ...]:
    ps = list(st.players)
    ps[seat] = replace(ps[seat], **changes)
    return tuple(ps)


def _remove(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _set_column(p: Player, d: int, col: tuple[Prop, ...]) -> tuple:
    cols = list(p.columns)
    cols[d] = col
    return tuple(cols)


def _to_draw(st: State) -> State:
    draws = st.per_turn if st.final_left is None else 0   # M12: final turns draw nothing
    return replace(st, plays_left=0, phase="draw", draws_left=draws)


def _after_play(st: State) -> State:
    left = st.plays_left - 1
    if left > 0:
        return replace(st, plays_left=left)
    if st.rules >= 2:   # M9 amended: the turn stays open after the card play
        return replace(st, plays_left=0, phase="open", draws_left=0)
    return _to_draw(st)


# ---------------------------------------------------------------- the fold, one handler per event

def _started(_st: None, d) -> State:
    n = d["seats"]
    nd = len(d["districts"])
    rules = started_version(d)
    players = tuple(
        Player(tokens=tuple(sum(1 for c in d["crowns"][s] if info(c)[1] == x) for x in SUITS),
               hand=tuple(d["hands"][s]), crowns=tuple(d["crowns"][s]), columns=((),) * nd,
               aces=DEFAULT_ACES.get(rules, "never"))
        for s in range(n))
    return State(options=dict(d["options"]), n=n, districts=tuple(d["districts"]),
                 contest=tuple(tuple(c) for c in d["contest"]), players=players,
                 draw=tuple(d["draw"]), removed=tuple(d["removed"]),
                 piles=d["piles"], turn=d["first"], phase="draw", draws_left=0,
                 final_left=None, rules=rules)


def _rolled(st: State, d) -> State:
    seat = d["seat"]
    ps = tuple(replace(p, tokens=add(add(p.tokens, d["lost"][s], -1), d["income"][s]))
               for s, p in enumerate(st.players))
    final = st.final_left - 1 if st.final_left is not None else None
    plays = min(st.per_turn, len(ps[seat].hand))
    nxt = replace(st, players=ps, turn=seat, phase="play", plays_left=plays,
                  draws_left=0, final_left=final, turns=st.turns + 1, last_roll=dict(d))
    if plays == 0:   # an empty hand cannot play (never happens in a normal game)
        nxt = replace(nxt, phase="open") if st.rules >= 2 else _to_draw(nxt)
    return nxt


def _placed(st: State, d, prop: Prop) -> State:
    seat, di = d["seat"], d["district"] - 1
    p = st.players[seat]
    st = replace(st, players=_player(
        st, seat, hand=_remove(p.hand, d["card"]), tokens=add(p.tokens, vec(d["pay"]), -1),
        columns=_set_column(p, di, p.columns[di] + (prop,))))
    return _after_play(st)


def _bought(st: State, d) -> State:
    return _placed(st, d, Prop(d["card"]))


def _deed_bought(st: State, d) -> State:
    return _placed(st, d, Prop(d["card"], ZERO))


def _deed_added(st: State, d) -> State:
    seat, di = d["seat"], d["district"] - 1
    p = st.players[seat]
    col = p.columns[di]
    on = add(col[-1].on, vec(d["pay"]))
    prop = Prop(col[-1].card, None if d["completed"] else on)
    prefs = p.prefs
    if d["completed"]:   # M19: a developed card has no income choice left
        prefs = tuple(x for x in prefs if x[0] != prop.card)
    return replace(st, players=_player(
        st, seat, tokens=add(p.tokens, vec(d["pay"]), -1), prefs=prefs,
        columns=_set_column(p, di, col[:-1] + (prop,))))


def _sold(st: State, d) -> State:
    seat = d["seat"]
    p = st.players[seat]
    st = replace(st, discard=st.discard + (d["card"],), players=_player(
        st, seat, hand=_remove(p.hand, d["card"]), tokens=add(p.tokens, vec(d["gain"]))))
    return _after_play(st)


def _traded(st: State, d) -> State:
    seat = d["seat"]
    tok = list(st.players[seat].tokens)
    tok[SI[d["give"]]] -= 3
    tok[SI[d["get"]]] += 1
    return replace(st, players=_player(st, seat, tokens=tuple(tok)))


def _preference_set(st: State, d) -> State:
    p = st.players[d["seat"]]
    prefs = tuple(x for x in p.prefs if x[0] != d["card"]) + ((d["card"], d["suit"]),)
    return replace(st, players=_player(st, d["seat"], prefs=tuple(sorted(prefs))))


def _ace_setting_set(st: State, d) -> State:
    return replace(st, players=_player(st, d["seat"], aces=d["mode"]))


def _reshuffled(st: State, d) -> State:
    return replace(st, draw=tuple(d["order"]), discard=(), pile=d["pile"],
                   recycled=st.recycled | frozenset(d["order"]))


def _turn_ended(st: State, _d) -> State:
    return _to_draw(st)


def _drew(st: State, d) -> State:
    p = st.players[d["seat"]]
    assert st.draw[0] == d["card"]
    st = replace(st, draw=st.draw[1:], draws_left=st.draws_left - 1,
                 players=_player(st, d["seat"], hand=p.hand + (d["card"],)))
    if d.get("ask"):
        st = replace(st, phase="ask", asked=d["card"])
    return st


def _end_triggered(st: State, _d) -> State:
    return replace(st, final_left=st.n, draws_left=0)


def _ace_kept(st: State, _d) -> State:
    return replace(st, phase="draw", asked=None)


def _ace_replaced(st: State, d) -> State:
    card = d["card"]
    ps = list(st.players)
    ps[d["seat"]] = replace(ps[d["seat"]], hand=_remove(ps[d["seat"]].hand, card))
    gain = vec({info(card)[1]: 1})
    ps = [replace(p, tokens=add(p.tokens, gain)) for p in ps]
    again = 1 if st.final_left is None else 0
    return replace(st, players=tuple(ps), discard=st.discard + (card,), phase="draw",
                   asked=None, draws_left=st.draws_left + again)


def _game_ended(st: State, d) -> State:
    # M12: hands are discarded unscored; M7: incomplete deeds and their tokens too.
    gone = list(st.discard)
    ps = []
    for p in st.players:
        gone.extend(p.hand)
        gone.extend(x.card for col in p.columns for x in col if not x.developed)
        cols = tuple(tuple(x for x in col if x.developed) for col in p.columns)
        ps.append(replace(p, hand=(), columns=cols, prefs=()))
    return replace(st, players=tuple(ps), discard=tuple(gone), phase="over",
                   outcome=dict(d["outcome"]), draws_left=0, plays_left=0)


evolve = Fold("magnate", "GameStarted", {
    "GameStarted": _started,
    "Rolled": _rolled,
    "Bought": _bought,
    "DeedBought": _deed_bought,
    "DeedAdded": _deed_added,
    "Sold": _sold,
    "Traded": _traded,
    "PreferenceSet": _preference_set,
    "AceSettingSet": _ace_setting_set,
    "TurnEnded": _turn_ended,
    "Reshuffled": _reshuffled,
    "Drew": _drew,
    "EndTriggered": _end_triggered,
    "AceKept": _ace_kept,
    "AceReplaced": _ace_replaced,
    "GameEnded": _game_ended,
})
