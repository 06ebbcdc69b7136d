"""Where a player's data is: every table that names a player, how it names them, and what the
three rights do with it (issue 52): `export` (a player's data in one JSON file), `readdress`
(the account moves to a new address) and `erase` (the account goes, and the address with it).

This is the one map those three read (service.play.players.datarows runs it; .readdress and
.erasure are the use cases; service.play.reads.mydata is the export), so a table cannot be
remembered by one of them and forgotten by another. tests/play/players/test_personal_data_map.py
walks every table of the models and fails on one this map does not classify: a new table that
names a player (a player id, an address, a seat, a sender, an owner ...) gets its entry here, or
a line in NAMES_NOBODY saying why it names nobody.

How a column names a player:

* ID: a players.id (a seat's holder, a blocker, a tournament's maker ...);
* ADDRESS: an email address, lower case, exactly;
* RATER: a rated player's key, "player:<id>" (community.ratings);
* SEAT: a seat number beside the row's `game_id`: the player holding that seat now;
* IDS: a JSON list of player ids (cannot be searched; kept as they are, naming the anonymous
  player after an erasure);
* MENTIONS: the address somewhere inside (raw mail, its parsed JSON).

`free_text` columns are where anyone may have written an address (a chat line, a notice, the
relay's answer): an erasure replaces the address there wherever it is found, on every row kept.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Table

from service.store.statuses import OutboxStatus

ID = "player id"
ADDRESS = "address"
RATER = "rater"
SEAT = "seat"
IDS = "player ids"
MENTIONS = "mentions"
KINDS = (ID, ADDRESS, RATER, SEAT, IDS, MENTIONS)

#: what an erased address is replaced with in free text
ERASED = "(an erased address)"


# -- export ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rows:
    """The export lists the rows naming the player under the table's name: these columns (all
    when None), the rows named by the columns `by` (all naming columns when empty)."""
    columns: tuple[str, ...] | None = None
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """A part of the export built by the export itself (service.play.reads.mydata.PARTS):
    `profile` (the players row) or `games` (each game as that seat may see it)."""
    name: str


@dataclass(frozen=True)
class NotExported:
    why: str


# -- change of address ----------------------------------------------------------------------

def unsent(table: Table):
    """Outbox rows not sent yet (nor dropped): they go to the new address."""
    return table.c.status.not_in((OutboxStatus.SENT, OutboxStatus.SKIPPED))


@dataclass(frozen=True)
class Follow:
    """The old address is replaced by the new one (on the rows `when` selects, if given)."""
    why: str
    when: Callable[[Table], object] | None = None


@dataclass(frozen=True)
class Forget:
    """The rows naming the old address are deleted."""
    why: str


@dataclass(frozen=True)
class Same:
    """Nothing changes: the rows name the player by id, or record what happened before."""
    why: str


# -- erasure --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Delete:
    """The rows naming the player (by the columns `by`; all naming columns when empty) go."""
    why: str
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Anonymous:
    """The rows stay: an id names the anonymous player now, an address is replaced by the
    anonymous player's (erased-<id>@erased.invalid)."""
    why: str


@dataclass(frozen=True)
class Step:
    """Done by a named step of the erasure (service.play.players.erasure.STEPS) before the
    rows above are deleted or made anonymous."""
    name: str
    why: str


@dataclass(frozen=True)
class Holding:
    table: str
    names: dict[str, str]
    export: Rows | Part | NotExported
    readdress: Follow | Forget | Same
    erase: Delete | Anonymous | Step
    free_text: tuple[str, ...] = ()
    #: columns that look as if they named a player and do not, with why
    ignores: dict[str, str] = field(default_factory=dict)


BY_ID = "rows name the player by id, which an address change leaves as it is"
GAME_HISTORY = "what happened in a game, under the seat's number"

MAP: tuple[Holding, ...] = (
    Holding("players", {"id": ID, "email": ADDRESS},
            Part("profile"),
            Follow("the account is known by the new address from now on; a hard bounce of "
                   "the old one no longer holds its mail"),
            Step("anonymize", "the row stays as the anonymous player: 'former player N', "
                 "no address, a new handle, no profile, never mailed, every preference back "
                 "to its default; seats, ratings and tournaments still need a player to name")),
    Holding("seats", {"player_id": ID},
            Part("games"), Same(BY_ID),
            Step("resign", "each game in progress is resigned through the resignation use "
                 "case (two players: the other wins; more: the seat is played by the default "
                 "move from then on); every seat stays, held by the anonymous player"),
            ignores={"seat": "the seat's own number; the row names its player by player_id"}),
    Holding("games", {"created_by": ID},
            Part("games"), Same(BY_ID),
            Step("forming", "a game still forming that they made is called off (its "
                 "invitations and their emails go); their seat in another forming game reads "
                 "declined; a started game keeps its maker, the anonymous player")),
    Holding("invitations", {"email": ADDRESS, "player_id": ID},
            Rows(("game_id", "seat", "status", "created_at", "expires_at", "answered_at")),
            Follow("an invitation to the old address is answered from the new one"),
            Anonymous("the seat's history; in a game still forming it reads declined (step "
                      "forming)"),
            ignores={"seat": "a seat of a game not dealt yet; the row names its player by "
                     "email and player_id"}),
    Holding("ratings", {"player_id": ID, "rater": RATER},
            Rows(), Same(BY_ID),
            Anonymous("ratings keep their numbers under the anonymous player: every rated "
                      "game moved the others' numbers too")),
    Holding("rating_changes", {"player_id": ID, "rater": RATER, "seat": SEAT},
            Rows(), Same(BY_ID),
            Anonymous("the history of the numbers above, one row per rated game")),
    Holding("vacations", {"player_id": ID},
            Rows(), Same(BY_ID), Delete("only their own clocks read them")),
    Holding("seat_changes", {"player_id": ID, "seat": SEAT},
            Part("games"), Same(GAME_HISTORY),
            Anonymous(GAME_HISTORY + ": the seat is the former player's now; a take-over's "
                      "line loses their old name (step anonymize)"),
            free_text=("text",)),
    Holding("events", {"seat": SEAT},
            Part("games"), Same(GAME_HISTORY),
            Anonymous("the game's log names seats and cards, never people")),
    Holding("chat_messages", {"from_seat": SEAT, "to_seat": SEAT},
            Part("games"), Same(GAME_HISTORY),
            Anonymous("the table's conversation stays, its lines by 'former player N'"),
            free_text=("text",)),
    Holding("undo_requests", {"seat": SEAT},
            NotExported("a take-back's bookkeeping; the log shows what it did"),
            Same(GAME_HISTORY), Anonymous(GAME_HISTORY)),
    Holding("plans", {"seat": SEAT, "other": SEAT},
            Part("games"), Same(GAME_HISTORY),
            Delete("moves they wrote ahead, for a seat they no longer play (another seat's "
                   "plan that names their seat stays)", by=("seat",)),
            free_text=("text",)),
    Holding("notes", {"player_id": ID, "seat": SEAT},
            Part("games"), Same(BY_ID),
            Delete("their private notes on a game: nobody else ever read them", by=("player_id",)),
            free_text=("text",)),
    Holding("follows", {"player_id": ID},
            Rows(("game_id", "tournament_id", "created_at", "sent_until")), Same(BY_ID),
            Delete("the games and tournaments they follow: no more digests")),
    Holding("extension_requests", {"seat": SEAT},
            NotExported("a deadline's bookkeeping; the history shows what it did"),
            Same(GAME_HISTORY), Anonymous(GAME_HISTORY)),
    Holding("submissions", {"seat": SEAT},
            NotExported("a move's receipt (its idempotency key); the log holds the move"),
            Same(GAME_HISTORY), Anonymous(GAME_HISTORY)),
    Holding("outbox", {"to_addr": ADDRESS, "seat": SEAT},
            NotExported("copies of the emails they were sent: their games and letters, which "
                        "the export holds"),
            Follow("mail not sent yet goes to the new address; sent mail stays as it was "
                   "sent, until its retention", when=unsent),
            Delete("every email to them (the goodbye's own row too, once it is sent: "
                   "mail.relay); their seat's emails to its earlier holders stay theirs",
                   by=("to_addr",)),
            free_text=("payload", "last_error")),
    Holding("address_refusals", {"address": ADDRESS},
            Rows(("day", "refused_at", "answer")),
            Same("evidence about the old address, not about the player"),
            Delete("what the relay said about their address"),
            free_text=("answer",)),
    Holding("inbound", {"raw": MENTIONS, "parsed": MENTIONS},
            NotExported("the mail they sent us, which they have; what it did is in the "
                        "game logs"),
            Same("mail as it was received, until its retention"),
            Delete("every stored email that names the address (theirs, and others' that "
                   "quote it)"),
            ignores={"seat": "the seat a stored email was for, whoever wrote it: one naming "
                     "the address is found by raw and parsed"}),
    Holding("api_tokens", {"player_id": ID},
            Rows(("id", "scope", "label", "created_at", "revoked_at")), Same(BY_ID),
            Delete("API, calendar and feed tokens stop working")),
    # the secret is left out of the export: the file is a copy kept and handed around, and
    # whoever holds the secret can sign deliveries the hook's endpoint will trust; its owner
    # was shown it once, and deleting the hook and adding it again makes a new one
    Holding("webhooks", {"player_id": ID},
            Rows(("id", "url", "kind", "events", "instead_of_email", "active", "created_at",
                  "failing_since", "last_error", "switched_off_at")),
            Same(BY_ID),
            Delete("their webhooks stop; deliveries not sent yet go with their emails"),
            free_text=("last_error",),
            ignores={"instead_of_email": "a yes or no (\"webhook only\"), not an address"}),
    Holding("sign_ins", {"email": ADDRESS},
            Rows(("created_at", "expires_at", "used_at")),
            Forget("a sign-in link asked for the old address signs nobody in any more"),
            Delete("sign-in links, used or not")),
    Holding("account_changes", {"player_id": ID, "old_email": ADDRESS, "new_email": ADDRESS},
            Rows(("kind", "old_email", "new_email", "created_at", "used_at")),
            Same("the change itself is written here"),
            Delete("their changes of address and this erasure's request")),
    Holding("challenges", {"player_id": ID},
            Rows(), Same(BY_ID), Delete("their standing challenges are withdrawn")),
    Holding("ladder_rungs", {"player_id": ID},
            Rows(), Same(BY_ID),
            Delete("off every ladder; the players below step up (community's erasure hook)")),
    Holding("ladder_games", {"challenger_id": ID, "defender_id": ID},
            Rows(), Same(BY_ID), Anonymous("which ladder game was whose challenge")),
    Holding("ladder_challenges", {"challenger_id": ID, "defender_id": ID},
            Rows(), Same(BY_ID),
            Delete("their ladder challenges, made or received: those still waiting are void "
                   "once they step off the ladder, and a started one's game is in "
                   "ladder_games")),
    Holding("blocks", {"blocker_id": ID, "blocked_id": ID},
            Rows(by=("blocker_id",)), Same(BY_ID),
            Delete("blocks they made and blocks against them")),
    Holding("chat_reports", {"reporter_id": ID},
            Rows(("message_id", "reason", "created_at")), Same(BY_ID),
            Delete("the chat lines they reported"), free_text=("reason",)),
    Holding("tournaments", {"created_by": ID},
            Rows(("id", "kind", "format", "rounds", "status", "created_at", "ended_at")),
            Same(BY_ID),
            Anonymous("one they made and that has not started is called off (community's "
                      "erasure hook); the others keep their maker, the anonymous player")),
    Holding("tournament_invites", {"email": ADDRESS},
            Rows(("tournament_id", "status", "created_at", "answered_at")),
            Follow("an invitation to the old address is answered from the new one"),
            Anonymous("a pending one is declined (community's erasure hook)")),
    Holding("tournament_entrants", {"player_id": ID},
            Rows(), Same(BY_ID),
            Anonymous("withdrawn from a tournament still running (community's erasure "
                      "hook), and out of one still forming; kept for the standings")),
    Holding("tournament_rounds", {"byes": IDS},
            NotExported("a round's byes; the tournament's page shows them"),
            Same(BY_ID), Anonymous("a bye names the anonymous player now")),
    Holding("league_members", {"player_id": ID},
            Part("leagues"), Same(BY_ID),
            Anonymous("they leave each league (community's erasure hook): no later season "
                      "enters them; kept, as the anonymous player, for the seasons played")),
)

#: tables that name nobody, and why
NAMES_NOBODY: dict[str, str] = {
    "snapshots": "a cache of a game's state, rebuilt from its log; states name seats",
    "leagues": "a league's terms and the season it plays; its members are league_members",
    "league_seasons": "when a league's seasons started and ended",
    "league_divisions": "which tournament is which division of a season; its entrants are "
                        "tournament_entrants",
}

BY_TABLE: dict[str, Holding] = {h.table: h for h in MAP}


def holding(table: str) -> Holding:
    return BY_TABLE[table]
