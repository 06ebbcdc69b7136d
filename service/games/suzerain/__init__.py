"""Suzerain (seed 004, RULINGS.md S1-S14): a two-player Decktet trick-taking game.

Modules: `state` (zones, State, evolve), `rules` (legal moves, decide, outcome), `engine` (the
`GAME` object: options, setup, zones and secrets), `commands` (parse/describe), `views`
(view/redact), `scoring` (S10-S13), `bots` ("random", "greedy").

Zones (every one of the 44 cards is in exactly one; the Excuse is out of the game, S1):

* ``deck``      the face-down pool, top first. Nobody knows its order.
* ``display``   up to two face-up cards (public).
* ``table``     the card led to the current trick, while the follower decides (public).
* ``hand:s``    seat s's hand (owner only; size public).
* ``pile:s``    seat s's own *private discard pile*, face down, which the owner may look at any
                time (owner only; size public). Into it go, at once: the card the seat played to
                a trick (when the trick is decided, S4), every card it claims (S5) other than a
                Pawn or Court, and the loser's 0-2 discards (S6). When the hand is empty at
                cleanup the pile becomes the new hand (S8). Every card in it is owned and scores.
* ``kept:s``    Pawns and Courts the seat claimed, set aside face up, never in hand or pile
                (public, with whether each one-time right is used, S7).
* ``removed:s`` hand cards set aside secretly with a Pawn/Court right (owner only; count
                public). They score at the end (S7).

What a seat may know (RULINGS.md, hidden information): a card's owner is public once the card
was seen as theirs: the Moon and Wyrm starting sets, played cards, face-up claims, Pawns and
Courts. Dealt Aces and blind claims are private until played; discards and removals never say
which card. `State.public` is that set; `secrets()` is everything else the seat does not own.

Flow of a trick (`phase`, and the one seat in `to_act`):

1. ``lead``   the leader leads a hand card.
2. ``follow`` the other seat plays a card sharing a suit with it if able (S3); the trick is
   decided at once (S4): the follower wins only by following with a higher rank; whoever played
   the higher rank leads next, the leader on equal ranks. Both played cards go to their players'
   piles.
3. ``claim``  the winner takes a face-up card or the top of the deck blind (S5).
4. ``loser``  the loser takes a face-up card (S5); the display is refilled to two. If deck and
   display are now empty the game ends here (S9, no discard).
5. ``discard`` the loser discards 0, 1 or 2 hand cards into their pile (S6), skipped when the
   loser's hand is empty. Cleanup: each seat with an empty hand takes up its pile (S8); the next
   leader leads the next trick.

A Pawn/Court right (``remove X with the Consul``) is an extra move for its owner whenever the
owner is to act; it does not end the decision. At ``lead``/``follow`` it may not remove the last
hand card (the seat still has to play one). Judgment calls beyond the rulings:

* A Pawn or Court claimed blind is still set aside face up (S7 and the hidden-information list
  make Pawns and Courts public; a right must be checkable), so it is revealed.
* A winner who claims a Pawn or Court has no decision left in that trick, so its right is first
  usable at the owner's next decision point (the loser may use a fresh one at its discard).
"""
from .engine import Suzerain

GAME = Suzerain()

__all__ = ["GAME", "Suzerain"]
