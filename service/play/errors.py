"""Every way a submitted intent can be turned down, each with words for the player.

These are answers, not crashes: the web shows them on a page, the email receiver in a reply."""
from __future__ import annotations

from service.games.contract import Refusal
from service.mailwire.outbound.catalogs import N_, spoken


class PlayError(Exception):
    title = N_("That did not work")

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class NoSuchGame(PlayError):
    title = N_("No such game")


class GameOver(PlayError):
    title = N_("The game is over")


class NotYourSeat(PlayError):
    title = N_("Not your game")


#: a link of a seat's previous player, whose seat was taken over (NotYourSeat's words)
TAKEN_OVER = N_("This link belonged to the seat's previous player; the seat has been taken "
                "over since.")


class Refused(PlayError):
    """The engine refused a move (illegal) or could not read a command. Nothing was applied."""

    title = N_("That move is not allowed")

    def __init__(self, detail: str, *, index: int = 0, text: str = "",
                 suggestions: list[str] | None = None):
        super().__init__(detail)
        self.index = index            # which of the submitted moves failed
        self.text = text              # the command as the player wrote it, if any
        self.suggestions = suggestions or []


def reason(refusal: Refusal) -> str:
    """An engine's refusal (IllegalMove, CommandError) in the language of the moment: the
    reader's on a page, the writer's in a reply's answer, English for an API client that
    asked for no other."""
    return spoken(refusal.template, refusal.values)


class PositionChanged(PlayError):
    """The position moved on since the link or email was made (or another move won a race)."""

    title = N_("The game has moved on")

    def __init__(self, detail: str, current_seq: int):
        super().__init__(detail)
        self.current_seq = current_seq


class AlreadyDone(PlayError):
    """The same submission (same idempotency key) was applied before: a double click or a
    retried delivery. Nothing changes."""

    title = N_("Already done")

    def __init__(self, detail: str, first_seq: int, last_seq: int):
        super().__init__(detail)
        self.first_seq = first_seq
        self.last_seq = last_seq
