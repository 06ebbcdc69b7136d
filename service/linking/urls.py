"""Every link and address the service hands out, minted in one place for the web pages, the
emails and the CLI: move links, game pages, unsubscribe links, reply addresses, and the
Message-IDs that thread a game's emails. Tokens come from `service.linking.signer.Signer`."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .signer import Claims, Signer


@dataclass(frozen=True)
class Urls:
    signer: Signer
    base_url: str            # "https://turnpost.example": absolute links in emails
    domain: str              # mail domain: reply addresses and Message-IDs

    # -- paths (relative, for pages of the service itself) ---------------------------------
    def move_path(self, game: int, seat: int | None, mark: str | None, move,
                  holder: int = 0) -> str:
        return "/m/" + self.signer.dumps("move", Claims(game, seat, mark, move, holder))

    def game_path(self, game: int, seat: int | None, holder: int = 0) -> str:
        return "/g/" + self.signer.dumps("view", Claims(game, seat, holder=holder))

    def seat_action_path(self, game: int, seat: int, holder: int, act: str,
                         target: int) -> str:
        """A player's action on another seat's clock (`wait`: extend once, or play the
        default move from now on)."""
        return "/s/" + self.signer.dumps("seat", Claims(game, seat, move={"act": act,
                                                                         "target": target},
                                                        holder=holder))

    def unsubscribe_path(self, game: int, seat: int | None) -> str:
        return "/u/" + self.signer.dumps("unsubscribe", Claims(game, seat))

    def public_game_path(self, public_id: str) -> str:
        # an unguessable id, never the row number: a game's page is found through its players
        return f"/games/{public_id}"

    def sign_in_path(self, sign_in_id: int) -> str:
        return "/sign-in/" + self.signer.dumps("sign_in", Claims(sign_in_id, None))

    def readdress_path(self, change_id: int) -> str:
        # a purpose of its own, an hour long (signer.SHORT_LIVED): the new address's link
        return "/me/address/" + self.signer.dumps("readdress", Claims(change_id, None))

    def unfollow_path(self, follow_id: int) -> str:
        """A follow's one-click stop, in its digest (service.play.community.follows)."""
        return "/follows/" + self.signer.dumps("unfollow", Claims(follow_id, None))

    def erase_path(self, change_id: int) -> str:
        return "/me/erase/" + self.signer.dumps("erase", Claims(change_id, None))

    def invitation_path(self, game: int, seat: int, invitation_id: int, answer: str) -> str:
        token = self.signer.dumps("invite", Claims(game, seat, str(invitation_id)))
        return f"/invitations/{token}/{answer}"        # accept | decline | never

    def tournament_invitation_path(self, tournament: int, invite_id: int, answer: str) -> str:
        # a purpose of its own: a game invitation's token never answers a tournament's
        token = self.signer.dumps("tournament_invite", Claims(tournament, None, str(invite_id)))
        return f"/tournaments/invitations/{token}/{answer}"      # accept | decline | never

    def league_join_path(self, league: int) -> str:
        # a purpose of its own: no other link joins a league, and this one joins only that one
        token = self.signer.dumps("league_join", Claims(league, None))
        return f"/leagues/join/{token}"

    # -- absolute, for emails and the CLI ----------------------------------------------------
    def absolute(self, path: str) -> str:
        return self.base_url.rstrip("/") + path

    def reply_address(self, game: int, seat: int) -> str:
        return f"play+{self.signer.reply_token(game, seat)}@{self.domain}"

    def bounce_address(self, message_id: str) -> str:
        # VERP: each email's own return path, so a bounce names the email that failed
        return f"bounce+{message_id.lower()}@{self.domain}"

    def sender_address(self) -> str:
        return f"turnpost@{self.domain}"

    def thread_root(self, game: int) -> str:
        # one root per game: every email of a game threads under it
        return f"<game-{game}@{self.domain}>"

    def message_id(self, local: str) -> str:
        # one per rendering of an outbox row's email (play.notify.rendering_id)
        return f"<{local}@{self.domain}>"

    def list_id(self, title: str, game: int) -> str:
        return f"{title} game {game} <game-{game}.{self.domain}>"

    def for_seat(self, game: int, seat: int | None, mark: str | None = None,
                 holder: int = 0) -> SeatLinks:
        return SeatLinks(self, game, seat, mark, holder)


@dataclass(frozen=True)
class SeatLinks:
    """The absolute links of one seat of one game at one position: what a turn email needs
    (templates call `links.move(m)`, `links.game()`, `links.unsubscribe()`)."""

    urls: Urls
    game_id: int
    seat: int | None
    mark: str | None
    holder: int = 0

    @property
    def domain(self) -> str:
        return self.urls.domain

    def move(self, move) -> str:
        return self.urls.absolute(self.urls.move_path(self.game_id, self.seat, self.mark, move,
                                                     self.holder))

    # an email names its game page and unsubscribe link in its headers, its text and its HTML:
    # each is signed once per email, not once per mention
    def game(self) -> str:
        return self._game

    def unsubscribe(self) -> str:
        return self._unsubscribe

    @cached_property
    def _game(self) -> str:
        return self.urls.absolute(self.urls.game_path(self.game_id, self.seat, self.holder))

    @cached_property
    def _unsubscribe(self) -> str:
        return self.urls.absolute(self.urls.unsubscribe_path(self.game_id, self.seat))

    def reply_address(self) -> str:
        return self.urls.reply_address(self.game_id, self.seat)
