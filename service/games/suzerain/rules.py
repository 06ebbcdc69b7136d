"""Suzerain's rules: options and setup, what is legal, the events each legal move makes, and
the move made for a seat whose time runs out.

Rules versions (docs/engines.md): version 2 plays S7 as amended; version 1 (logs whose first
event has no ``"rules"``) keeps the old Pawn/Court right, and every rule that changed asks
`state.rules`:

* version 1: a right is usable whenever its owner is to act, and never on the last hand card at
  a lead or a follow (the card must still be played).
* version 2: also right after claiming it ("including immediately"): a winner who sets a Pawn
  or Court aside is offered its right before the loser claims (phase ``right``). The last hand
  card may be removed whenever the owner's pile holds a card, since the pile refills the hand
  (S8): at cleanup, or at once when the owner must still lead or follow. The offer is made
  only when a hand card shares a suit with the card claimed, and closes by itself when none is
  left; the offer is public, so it told the loser about the winner's hidden hand.
* version 3 (the hidden-information table: hand, owner only): the offer hangs on public facts
  alone. It is made whatever the hand holds, unless the hand is empty or its last card may not
  be removed (sizes are public); a winner with no card sharing a suit can only decline it. It
  stays open until its right is used or declined, or until no removal is possible at all.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import combinations

from ..cards import decktet
from ..contract import Chance, CommandError, Event, IllegalMove, Move, Option, OptionError
from ..folding import Recorder
from ..shapes import Shapes, string, strings
from ..text import N_, all_of, any_of, match, phrase
from . import scoring
from .state import (
    CARDS,
    CLAIM,
    DISCARD,
    FOLLOW,
    LEAD,
    LOSER,
    MOON_SET,
    OVER,
    POOL,
    RIGHT,
    SEAT_CHOICES,
    WYRM_SET,
    State,
    acting,
    evolve,
    listing,
    ordered,
    to_act,
    value,
)

RULES_VERSION = 3

OPTIONS = {
    "deck": Option("", "Fix the deck order: all 32 cards of the pool, top first (the first "
                   "two are turned face up), as ids or names separated by commas. Empty: "
                   "shuffled.", label="Deck order"),
    "aces": Option("", "Fix the dealt Aces: six Aces, the first three to the first seat. "
                   "Empty: dealt at random (S2).", label="Dealt Aces"),
    "dealer": Option("random", "Who deals; the other seat leads first (S2).",
                     SEAT_CHOICES, label="Dealer"),
    "moon_set": Option("random", "Who starts with the Moon set (the Author, the Journey, "
                       "the Mountain); the other takes the Wyrm set (S2).",
                       SEAT_CHOICES, label="Moon set"),
}

# the move each phase expects (a Pawn/Court right is an extra move in any of them)
EXPECTED = {LEAD: "lead", FOLLOW: "play", CLAIM: "take", LOSER: "take", DISCARD: "discard",
            RIGHT: "decline"}
MOVE_TYPES = ("lead", "play", "take", "take_blind", "discard", "remove", "decline")
_CARD = ({"card": string}, {})
#: every move's keys (legal_moves lists the moves)
SHAPES = Shapes("Suzerain", {
    "lead": _CARD, "play": _CARD, "take": _CARD, "take_blind": ({}, {}),
    "discard": ({"cards": strings}, {}), "remove": ({"card": string, "with": string}, {}),
    "decline": ({}, {}),
})


# ----- options and setup (S1, S2, S14) ----------------------------------------------------


def validate(opts: dict) -> dict:
    """Options already checked one by one (contract.validate_options): the card orders."""
    opts["deck"] = ", ".join(_option_cards(opts["deck"], POOL, "deck"))
    opts["aces"] = ", ".join(_option_cards(opts["aces"], decktet.ACES, "aces"))
    return opts


def start(opts: Mapping, chance: Chance) -> list[Event]:
    """S2: dealer, Moon/Wyrm sets and three Aces each, the display of two; the rules version
    goes into the first event so the game is played to its end under it."""
    dealer = _seat(opts["dealer"], chance)
    moon = _seat(opts["moon_set"], chance)
    aces = opts["aces"].split(", ") if opts["aces"] else []
    if not aces:
        aces = list(decktet.ACES)
        chance.shuffle(aces)
    pool = opts["deck"].split(", ") if opts["deck"] else list(POOL)
    if not opts["deck"]:
        chance.shuffle(pool)
    sets = [list(MOON_SET), list(WYRM_SET)] if moon == 0 else [list(WYRM_SET), list(MOON_SET)]
    return [Event("Started", {"dealer": dealer, "moon": moon, "sets": sets,
                              "aces": [list(ordered(aces[:3])), list(ordered(aces[3:]))],
                              "display": pool[:2], "deck": pool[2:],
                              "rules": RULES_VERSION})]


def _seat(choice: str, chance: Chance) -> int:
    return chance.randint(0, 1) if choice == "random" else SEAT_CHOICES.index(choice) - 1


def _option_cards(text: str, allowed, option: str) -> list[str]:
    """An option's card order: every card of `allowed` once, as ids or names separated by
    commas (ids may also be separated by spaces). Empty text: none (dealt at random)."""
    text = text.strip()
    if not text:
        return []
    parts = re.split(r"\s*,\s*", text) if "," in text else text.split()
    spell = {c: decktet.aliases(c) for c in allowed}
    out: list[str] = []
    for part in parts:
        try:
            card = match(part, spell)
        except CommandError as err:
            why = phrase(err.template, **err.values)
            if err.suggestions:
                raise OptionError(N_("option {name}: {why} (did you mean {cards}?)"),
                                  name=repr(option), why=why,
                                  cards=", ".join(err.suggestions)) from None
            raise OptionError(N_("option {name}: {why}"), name=repr(option), why=why) from None
        if card in out:
            raise OptionError(N_("option {name} lists {card} twice"), name=repr(option),
                              card=decktet.name(card))
        out.append(card)
    if len(out) != len(allowed):
        missing = listing(c for c in allowed if c not in out)
        raise OptionError(N_("option {name} must list all {count} cards; missing: {missing}"),
                          name=repr(option), count=len(allowed), missing=missing)
    return out


# ----- legal moves ---------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    return _MOVES[state.phase](state, seat) + rights(state, seat)


def _lead_moves(state: State, seat: int) -> list[Move]:
    return [{"type": "lead", "card": c} for c in state.hands[seat]]


def _follow_moves(state: State, seat: int) -> list[Move]:
    return [{"type": "play", "card": c} for c in playable(state.hands[seat], state.table[0])]


def _claim_moves(state: State, seat: int) -> list[Move]:
    moves = [{"type": "take", "card": c} for c in ordered(state.display)]
    if state.phase == CLAIM and state.deck:
        moves.append({"type": "take_blind"})
    return moves


def _discard_moves(state: State, seat: int) -> list[Move]:
    hand = state.hands[seat]
    return ([{"type": "discard", "cards": []}]
            + [{"type": "discard", "cards": [c]} for c in hand]
            + [{"type": "discard", "cards": [a, b]} for a, b in combinations(hand, 2)])


def _right_moves(state: State, seat: int) -> list[Move]:
    return [{"type": "decline"}]


_MOVES = {LEAD: _lead_moves, FOLLOW: _follow_moves, CLAIM: _claim_moves, LOSER: _claim_moves,
          DISCARD: _discard_moves, RIGHT: _right_moves}


#: moves that turn up nothing their maker did not know: a card led or followed from its own
#: hand (the trick is decided by the two cards alone, S4). A take shows a card (blind, or the
#: display refilled from the deck) and a discard is a choice. A right declined is never
#: forced: from rules 3 the offer is made on public facts alone, and a decline played at
#: once would tell the loser that the winner held no card to use it on.
QUIET = frozenset({"lead", "play"})


def forced_move(state: State, seat: int) -> Move | None:
    """The seat's one legal move when making it shows the seat nothing new (the follow of
    its only card of the led suit, S3); None otherwise."""
    moves = legal_moves(state, seat)
    if len(moves) == 1 and moves[0]["type"] in QUIET:
        return moves[0]
    return None


def menu(state: State, seat: int) -> list[Move]:
    # discarding two cards is left to a reply: the pairs would swamp the email
    return [m for m in legal_moves(state, seat)
            if m["type"] != "discard" or len(m["cards"]) < 2]


def rights(state: State, seat: int) -> list[Move]:
    """S7: the removals open to `seat` now."""
    if _last_card_refusal(state, seat, "") is not None:
        return []
    hand = state.hands[seat]
    return [{"type": "remove", "card": c, "with": k}
            for k in state.kept[seat] if k not in state.used[seat]
            for c in hand if decktet.shares_suit(c, k)]


def _last_card_refusal(state: State, seat: int, card: str) -> IllegalMove | None:
    """Why `card` may not be removed as the last hand card, or None if it may.
    Version 1: never at a lead or follow, where it must still be played. Version 2 (S7
    amended): whenever the pile holds a card, as the pile refills the hand (S8)."""
    if len(state.hands[seat]) > 1:
        return None
    name = decktet.name(card) if card else phrase(N_("your last card"))
    if state.rules < 2:
        if state.phase in (LEAD, FOLLOW):
            return IllegalMove(N_("{card} is your last card and you must still play it"),
                               card=name)
        return None
    if not state.piles[seat]:
        return IllegalMove(N_("{card} is your last card and your discard pile is empty, so "
                              "nothing would refill your hand (S7, S8)"), card=name)
    return None


def playable(hand, led: str) -> list[str]:
    """S3: the cards sharing a suit with the led card, or the whole hand if none does."""
    follow = [c for c in hand if decktet.shares_suit(c, led)]
    return follow or list(hand)


# ----- decide ------------------------------------------------------------------------------


def decide(state: State, seat: int, move: Move, chance: Chance) -> list[Event]:
    if not isinstance(move, dict) or move.get("type") not in MOVE_TYPES:
        raise IllegalMove(N_("that is not a Suzerain move (lead, play, take, discard, remove)"))
    kind = SHAPES.check(move)
    if state.phase == OVER:
        raise IllegalMove(N_("the game is over"))
    if seat not in to_act(state):
        raise IllegalMove(N_("it is not your turn: your opponent must {task}"), task=_task(state))
    if kind != "remove" and kind.split("_")[0] != EXPECTED[state.phase]:
        raise IllegalMove(N_("you must {task} now"), task=_task(state))
    rec = Recorder(evolve, state)
    _DECIDE[kind](rec, seat, move)
    return rec.events


def _lead(rec: Recorder, seat: int, move: Move) -> None:
    state = rec.state
    card = _held(state, seat, move)
    rec.emit("Led", seat=seat, card=card, trick=state.trick)


def _follow(rec: Recorder, seat: int, move: Move) -> None:
    """S3/S4: follow a suit if able; the follower wins only by following higher; the higher
    rank leads next, the leader on equal ranks."""
    state = rec.state
    card = _held(state, seat, move)
    led = state.table[0]
    followers = playable(state.hands[seat], led)
    followed = decktet.shares_suit(card, led)
    if not followed and len(followers) < len(state.hands[seat]):
        raise IllegalMove(N_("you must follow {suits}: you hold {cards}"), suits=_suits(led),
                          cards=_all(followers))
    leader = state.leader
    winner = seat if followed and value(card) > value(led) else leader
    nxt = seat if value(card) > value(led) else leader
    rec.emit("Followed", seat=seat, card=card, followed=followed)
    rec.emit("TrickWon", trick=state.trick, winner=winner, loser=1 - winner,
             next_leader=nxt, followed=followed, cards=[led, card])


def _claim(rec: Recorder, seat: int, move: Move) -> None:
    """S5: the winner's claim (then, rules 2, the fresh right), or the loser's claim with the
    refill and what follows it."""
    state = rec.state
    card, blind = _claimed_card(state, move)
    kept = decktet.rank(card) in "PT"
    rec.emit("Claimed", seat=seat, card=card, blind=blind, kept=kept, trick=state.trick)
    if state.phase == LOSER:
        _after_losers_claim(rec, seat)
    elif kept and _offer_now(rec.state, seat, card):
        rec.emit("RightOffered", seat=seat, **{"with": card})


def _claimed_card(state: State, move: Move) -> tuple[str, bool]:
    if move["type"] == "take_blind":
        if state.phase == LOSER:
            raise IllegalMove(N_("the loser of the trick must take a face-up card: {cards}"),
                              cards=_all(ordered(state.display)))
        if not state.deck:
            raise IllegalMove(N_("the deck is empty: take a face-up card"))
        return state.deck[0], True
    card = _card_of(move)
    if card not in state.display:
        raise IllegalMove(N_("{card} is not face up; face up: {cards}"), card=_called(card),
                          cards=_all(ordered(state.display)))
    return card, False


def _offer_now(state: State, seat: int, card: str) -> bool:
    """Rules 2 (S7 "including immediately"): offer the right just claimed, before the loser's
    claim. Not when the loser's claim is bound to end the game (S9: one face-up card left, the
    deck empty): every card scores wherever it lies, so a removal then changes nothing and
    would only make the loser wait.
    Rules 2 offered it only when a hand card could be removed with it, which showed the loser
    whether the winner's hidden hand held such a card; rules 3 asks only what everyone sees."""
    if state.rules < 2 or (not state.deck and len(state.display) <= 1):
        return False
    if state.rules < 3:
        return any(m["with"] == card for m in rights(state, seat))
    return _may_remove_some_card(state, seat)


def _may_remove_some_card(state: State, seat: int) -> bool:
    """Whether a right could remove some hand card, judged by public facts alone (hand and
    pile sizes), so asking it reveals nothing of the hand (rules 3)."""
    return bool(state.hands[seat]) and _last_card_refusal(state, seat, "") is None


def offer_usable(state: State, seat: int) -> bool:
    """Whether a hand card of `seat`'s shares a suit with the right offered now (phase
    ``right``): for its owner's eyes only. From rules 3 an offer may have none (decline only)."""
    return any(m["type"] == "remove" and m["with"] == state.offer
               for m in rights(state, seat))


def _after_losers_claim(rec: Recorder, seat: int) -> None:
    """S5 refill, then S9 end or the S6 discard (skipped, with cleanup, for an empty hand)."""
    state = rec.state
    fill = list(state.deck[:2 - len(state.display)])
    if fill:
        rec.emit("DisplayRefilled", cards=fill)
    if not rec.state.display:
        _end(rec)
    elif not rec.state.hands[seat]:
        _auto_discard(rec, seat)


def _auto_discard(rec: Recorder, seat: int) -> None:
    rec.emit("Discarded", seat=seat, cards=[], auto=True)
    _cleanup(rec)


def _discard(rec: Recorder, seat: int, move: Move) -> None:
    """S6: 0, 1 or 2 hand cards into the own pile; then cleanup (S8)."""
    state = rec.state
    cards = move.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalMove(N_("say which cards to discard, or 'discard none'"))
    if len(cards) > 2:
        raise IllegalMove(N_("you may discard at most 2 cards, not {count}"), count=len(cards))
    if len(set(cards)) != len(cards):
        raise IllegalMove(N_("name each card to discard once"))
    missing = [c for c in cards if c not in state.hands[seat]]
    if missing:
        raise IllegalMove(N_("you do not hold {card}"), card=_called(missing[0]))
    rec.emit("Discarded", seat=seat, cards=list(ordered(cards)))
    _cleanup(rec)


def _decline(rec: Recorder, seat: int, move: Move) -> None:
    """Rules 2: the winner keeps the fresh right for a later decision; the loser claims."""
    rec.emit("OfferClosed", seat=seat, used=False, **{"with": rec.state.offer})


def _remove(rec: Recorder, seat: int, move: Move) -> None:
    """S7: one hand card sharing a suit with an unused Pawn/Court of the seat's, set aside.
    It does not end the decision, except where nothing is left to decide (below)."""
    state = rec.state
    card, by = _card_of(move), move.get("with")
    _check_right(state, seat, by)
    card = _held(state, seat, move)
    if not decktet.shares_suit(card, by):
        raise IllegalMove(N_("{card} shares no suit with {under} ({suits})"),
                          card=decktet.name(card), under=decktet.name(by), suits=_suits(by))
    refusal = _last_card_refusal(state, seat, card)
    if refusal:
        raise refusal
    rec.emit("Removed", seat=seat, card=card, **{"with": by})
    _after_removal(rec, seat)


def _check_right(state: State, seat: int, by) -> None:
    if not isinstance(by, str) or by not in state.kept[seat]:
        mine = [k for k in state.kept[seat] if k not in state.used[seat]]
        if mine:
            raise IllegalMove(N_("you have no Pawn or Court {card}; your unused rights: {cards}"),
                              card=_called(by), cards=_all(mine))
        raise IllegalMove(N_("you have no Pawn or Court with an unused right"))
    if by in state.used[seat]:
        raise IllegalMove(N_("you have already used {card}"), card=decktet.name(by))


def _after_removal(rec: Recorder, seat: int) -> None:
    """Rules 2 and later (in version 1 none of these positions can arise):
    * the fresh right used, or (rules 2) left without a card to remove, or (rules 3) left
      with no removal possible by public facts (`_offer_stays_open`): the loser claims;
    * the last card removed at a lead or follow: the pile is the new hand at once (S8), as the
      seat must still play;
    * the last card removed at the discard: nothing is left to discard, cleanup follows."""
    state = rec.state
    if state.rules < 2:
        return
    if state.phase == RIGHT and not _offer_stays_open(state, seat):
        rec.emit("OfferClosed", seat=seat, used=state.offer in state.used[seat],
                 **{"with": state.offer})
    if state.hands[seat]:
        return
    if state.phase in (LEAD, FOLLOW):
        rec.emit("PileTakenUp", seat=seat)
    elif state.phase == DISCARD:
        _auto_discard(rec, seat)


def _offer_stays_open(state: State, seat: int) -> bool:
    """After a removal while the fresh right is offered (with it or with an older right).
    Rules 2 closed the offer as soon as no hand card shared a suit with it, which told the
    loser so; rules 3 keeps it open until it is used or declined, unless the hand is empty or
    its last card may not go (public facts)."""
    if state.offer in state.used[seat]:
        return False
    if state.rules < 3:
        return offer_usable(state, seat)
    return _may_remove_some_card(state, seat)


_DECIDE = {"lead": _lead, "play": _follow, "take": _claim, "take_blind": _claim,
           "discard": _discard, "remove": _remove, "decline": _decline}


def _cleanup(rec: Recorder) -> None:
    """S8: every seat with an empty hand takes up its pile."""
    for s in (0, 1):
        if not rec.state.hands[s]:
            rec.emit("PileTakenUp", seat=s)


def _end(rec: Recorder) -> None:
    """S9-S13: the end right after the last claims, with the score."""
    after = rec.state
    parts = scoring.breakdown([after.owned(s) for s in (0, 1)])
    won, how = scoring.winners(parts)
    rec.emit("Ended", scores=[p["total"] for p in parts], winners=list(won), how=how,
             owned=[list(ordered(after.owned(s))) for s in (0, 1)])


# ----- timeouts ----------------------------------------------------------------------------


def timeout_move(state: State, seat: int) -> Move | None:
    """The move made for `seat` when its time to choose runs out; None when it is not to act.
    It plays the least it can on the seat's behalf and never spends a right (S7 rights are
    optional and one-time, so they are kept for the owner):

    * lead: the lowest hand card (rank, then suit order);
    * follow: the lowest card the seat may play (S3);
    * winner's claim: the top card blind if the deck has one (no preference shown between the
      face-up cards, both left to the loser), else the lowest face-up card;
    * loser's claim: the lowest face-up card;
    * discard: none (S6 makes it optional; every card scores wherever it lies);
    * a fresh right offered (rules 2 and later): declined, kept for later (the only move
      when no hand card shares a suit with it, rules 3).
    """
    if acting(state) != seat:
        return None
    return _TIMEOUT[state.phase](state, seat)


def _lowest(cards) -> str:
    return ordered(cards)[0]


_TIMEOUT = {
    LEAD: lambda s, seat: {"type": "lead", "card": _lowest(s.hands[seat])},
    FOLLOW: lambda s, seat: {"type": "play", "card": _lowest(playable(s.hands[seat],
                                                                      s.table[0]))},
    CLAIM: lambda s, seat: ({"type": "take_blind"} if s.deck
                            else {"type": "take", "card": _lowest(s.display)}),
    LOSER: lambda s, seat: {"type": "take", "card": _lowest(s.display)},
    DISCARD: lambda s, seat: {"type": "discard", "cards": []},
    RIGHT: lambda s, seat: {"type": "decline"},
}


# ----- words -------------------------------------------------------------------------------


def _task(state: State) -> dict:
    """What the phase asks for, as a phrase of a refusal ("you must {task} now")."""
    if state.phase == FOLLOW and state.table:
        return phrase(N_("play a card to {card}"), card=decktet.name(state.table[0]))
    if state.phase == RIGHT and state.offer:
        return phrase(N_("use the right of {card} or keep it for later ('remove nothing')"),
                      card=decktet.name(state.offer))
    return phrase(TASKS.get(state.phase, N_("wait")))


#: what each phase asks for (a phrase; the two that name a card are `_task`'s)
TASKS = {LEAD: N_("lead a card"), FOLLOW: N_("play a card"),
         CLAIM: N_("take a face-up card or take blind"), LOSER: N_("take a face-up card"),
         DISCARD: N_("discard 0, 1 or 2 cards ('discard none' for none)"),
         RIGHT: N_("decide on a right")}


def _all(cards) -> dict | str:
    """Cards as one parameter of a refusal ("the Mill, the Sailor and the Savage")."""
    return all_of([decktet.name(c) for c in cards])


def _suits(card: str) -> dict | str:
    """A card's suits as one parameter of a refusal ("Moons or Leaves")."""
    return any_of([decktet.SUIT_NAMES[s] for s in decktet.suits(card)])


def _held(state: State, seat: int, move: Move) -> str:
    card = _card_of(move)
    if card not in state.hands[seat]:
        raise IllegalMove(N_("you do not hold {card}"), card=_called(card))
    return card


def _card_of(move: Move) -> str:
    card = move.get("card")
    if not isinstance(card, str) or card not in CARDS:
        raise IllegalMove(N_("there is no card {card} in Suzerain"), card=repr(card))
    return card


def _called(card) -> str:
    return decktet.name(card) if isinstance(card, str) and card in CARDS else repr(card)


#: events that draw chance or turn up hidden cards (the display refilled from the deck, a pile taken up): a move whose events
#: include one of them cannot be taken back (the service's undo by agreement)
NO_TAKING_BACK = frozenset({"DisplayRefilled", "PileTakenUp"})


def can_take_back(state_before, events) -> bool:
    """Whether a move that produced `events` from `state_before` may be taken back by
    agreement: not if it drew chance or turned up anything hidden. (The service also checks
    that no seat learnt a card it did not know.)"""
    # a blind claim takes a face-down card into the hand: its owner now knows it
    if any(e.type == "Claimed" and e.data.get("blind") for e in events):
        return False
    return not any(e.type in NO_TAKING_BACK for e in events)
