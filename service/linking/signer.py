"""Signed tokens: the bearer credentials in every email (docs/architecture.md, "Players and identity").

* Link tokens (itsdangerous, one salt per purpose) for moves, views and unsubscribing. A move
  token is bound to game and seat, carries the move, and the mark of the position its seat saw
  when it was minted (service.linking.freshness): a link for a position that changed is stale.
* Reply tokens for `play+<token>@domain` addresses: lower-case base32 (mail systems lower-case
  addresses) of game and seat plus a truncated HMAC, short enough for any mail client.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from itsdangerous import (
    BadData,
    BadSignature,
    SignatureExpired,
    TimestampSigner,
    URLSafeTimedSerializer,
)
from itsdangerous.encoding import base64_encode, want_bytes
from itsdangerous.url_safe import URLSafeSerializerMixin

from service.mailwire.outbound.catalogs import N_, gettext

PURPOSES = ("move", "view", "unsubscribe", "invite", "seat", "sign_in", "tournament_invite",
            "readdress", "erase", "league_join", "unfollow")
DAY = 86400
HOUR = 3600
#: links that change an account (its address, or erasing it) last an hour, whatever the
#: links of a game may (TURNPOST_LINK_MAX_AGE_DAYS)
SHORT_LIVED = {"readdress": HOUR, "erase": HOUR}
#: how far ahead of this server's clock a link may have been signed (another server's clock
#: runs ahead) and still be taken
CLOCK_SKEW = 300
#: links that lead to a seat's game: an expired one can say which game to go to instead
_GAME_LINKS = ("move", "view")


class TokenError(Exception):
    """Why a token cannot be used, in words for the person who clicked it: `title` and
    `words` are marked for the catalogs and said in the reader's language where they are read
    (`detail`: service.web sets the request's language), never in Flask's terms here."""

    title = N_("This link does not work")
    words = N_("This link does not work.")

    def __init__(self, words: str = "", **values):
        self._words, self._values = words or self.words, values
        super().__init__(self._words % values if values else self._words)   # logs: English

    @property
    def detail(self) -> str:
        """The words in the language of the moment."""
        return gettext(self._words, **self._values)


class Tampered(TokenError):
    """The link is damaged or was changed: not made by Turnpost."""

    title = N_("This link is damaged")
    words = N_("The link is damaged or was changed: it was not made by Turnpost. Open the link "
               "from the email again (some mail apps break long links across lines), or use "
               "the game page.")


class Expired(TokenError):
    """A link older than its purpose allows."""

    title = N_("This link has expired")
    words = N_("The link is too old to use.")

    def __init__(self, words: str = "", game: int | None = None):
        super().__init__(words)
        self.game = game         # the game a move or game page link was for, if any


class NotYetValid(TokenError):
    """Signed a little in the future by our clocks: one of our servers runs ahead."""

    title = N_("This link is not valid yet")
    words = N_("The link was signed a little in the future by our clocks: one of our servers "
               "runs ahead. Try it again in a few minutes; nothing was changed.")


class WrongPurpose(TokenError):
    """A genuine link, for something else (an unsubscribe link used as a move)."""

    title = N_("This link is for something else")
    words = N_("This link is for something else (for example an unsubscribe link used as a "
               "move).")

    def __init__(self, link_for: str | None = None, used_for: str | None = None):
        """`link_for`: the purpose the link was made for; `used_for`: the one it was used as."""
        super().__init__()
        self.link_for, self.used_for = link_for, used_for
        if link_for and used_for:
            self.args = (f"This is a link to {_PURPOSE_WORDS[link_for]}, not to "
                         f"{_PURPOSE_WORDS[used_for]}.",)

    @property
    def detail(self) -> str:
        if not (self.link_for and self.used_for):
            return super().detail
        # each purpose's words in the same language as the sentence
        return gettext("This is a link to %(other)s, not to %(purpose)s.",
                       other=gettext(_PURPOSE_WORDS[self.link_for]),
                       purpose=gettext(_PURPOSE_WORDS[self.used_for]))


@dataclass(frozen=True)
class Claims:
    game: int
    seat: int | None
    mark: str | None = None      # the position as the seat saw it (service.linking.freshness)
    move: Any = None
    # who held the seat when the token was made (bumped when a seat is taken over): the old
    # holder's links stop acting. Tokens made before holders existed read as holder 0.
    holder: int = 0


class _KeptKeySigner(TimestampSigner):
    """itsdangerous's timed signer, each key derived once: itsdangerous hashes the salt and
    the secret again at every signature and every check, and /me alone signs 130 links."""

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        given = None if secret_key is None else want_bytes(secret_key)
        kept = self.__dict__.setdefault("_derived", {})
        if given not in kept:
            kept[given] = super().derive_key(given)
        return kept[given]


class _LinkSerializer(URLSafeTimedSerializer):
    """itsdangerous's URL-safe timed serializer, minus the zlib attempt on every token: it
    keeps the compressed payload only when shorter, which for a link's hundred-odd bytes of
    claims saves next to nothing, while a fresh compressor per token costs as much as the
    signing itself (a turn email signs a link per move it offers, a game page
    one per button). A token made either way loads the same, so links already sent work."""

    default_signer = _KeptKeySigner

    def dump_payload(self, obj: Any) -> bytes:
        # the JSON, then base64 as the mixin writes an uncompressed payload
        return base64_encode(super(URLSafeSerializerMixin, self).dump_payload(obj))

    def make_signer(self, salt: str | bytes | None = None) -> TimestampSigner:
        """One signer per salt, made once (itsdangerous makes one per token): a signer holds
        only its keys and settings, so one serves every thread."""
        kept = self.__dict__.setdefault("_signers", {})
        if salt not in kept:
            kept[salt] = super().make_signer(salt)
        return kept[salt]


class Signer:
    """Signs with `secret`; also accepts what was signed with any of `fallbacks` (older keys
    during a rotation: links already in players' mailboxes keep working)."""

    def __init__(self, secret: str, max_age_days: int = 90, fallbacks: tuple[str, ...] = ()):
        self.secret = secret
        self.max_age = max_age_days * DAY
        # itsdangerous verifies with every key and signs with the last one
        keys = [*reversed(fallbacks), secret]
        self._keys = [k.encode() for k in reversed(keys)]   # newest first, for reply tokens
        self._ser = {p: _LinkSerializer(keys, salt=f"turnpost.{p}") for p in PURPOSES}

    def max_age_of(self, purpose: str) -> int:
        """How long a link of this purpose works, in seconds."""
        return SHORT_LIVED.get(purpose, self.max_age)

    def dumps(self, purpose: str, claims: Claims) -> str:
        payload = {"g": claims.game, "s": claims.seat}
        if claims.mark is not None:
            payload["q"] = claims.mark
        if claims.holder:
            payload["h"] = claims.holder
        if claims.move is not None:
            payload["m"] = claims.move
            # a move link's token is its idempotency key: two links for the same move at the
            # same position (minted in the same second) must still be two different keys
            payload["n"] = secrets.token_urlsafe(6)
        return self._ser[purpose].dumps(payload)

    def loads(self, purpose: str, token: str) -> Claims:
        try:
            data = self._ser[purpose].loads(token, max_age=self.max_age_of(purpose))
        except SignatureExpired as exc:
            data = self._too_old_or_early(purpose, token, exc)
        except BadSignature as exc:
            for other in PURPOSES:
                if other != purpose and self._valid(other, token):
                    raise WrongPurpose(other, purpose) from exc
            raise Tampered() from exc
        if not isinstance(data, dict) or "g" not in data:
            raise Tampered()
        return Claims(data["g"], data.get("s"), data.get("q"), data.get("m"),
                      int(data.get("h", 0)))

    def _too_old_or_early(self, purpose: str, token: str, exc: SignatureExpired) -> Any:
        """A genuine link out of its time: signed by a server whose clock runs a little ahead
        (taken), further ahead (not valid yet), or too long ago (expired, saying its game)."""
        signed = exc.date_signed
        ahead = (signed - datetime.now(timezone.utc)).total_seconds() if signed else 0.0
        if 0 < ahead <= CLOCK_SKEW:
            return self._ser[purpose].loads(token)          # the signature is checked again
        if ahead > 0:
            raise NotYetValid() from exc
        game = None
        if purpose in _GAME_LINKS:
            try:
                data = self._ser[purpose].load_payload(exc.payload)
                game = data.get("g") if isinstance(data, dict) else None
            except BadData:
                pass
        raise Expired(game=game if isinstance(game, int) else None) from exc

    def _valid(self, purpose: str, token: str) -> bool:
        try:
            self._ser[purpose].loads(token)
            return True
        except BadSignature:
            return False

    # -- reply addresses ----------------------------------------------------------------
    def reply_token(self, game: int, seat: int) -> str:
        body = game.to_bytes(5, "big") + seat.to_bytes(1, "big")
        return _b32(body + self._mac(body))

    def read_reply_token(self, token: str) -> tuple[int, int]:
        try:
            raw = base64.b32decode(token.upper() + "=" * (-len(token) % 8))
        except (ValueError, TypeError) as exc:
            raise Tampered(N_("The reply address is not one of ours.")) from exc
        body, mac = raw[:6], raw[6:]
        if len(raw) != 16 or not any(hmac.compare_digest(mac, self._mac(body, key))
                                     for key in self._keys):
            raise Tampered(N_("The reply address is not one of ours."))
        return int.from_bytes(body[:5], "big"), body[5]

    def _mac(self, body: bytes, key: bytes | None = None) -> bytes:
        key = self._keys[0] if key is None else key
        return hmac.new(key, b"turnpost.reply:" + body, hashlib.sha256).digest()[:10]


_PURPOSE_WORDS = {"move": N_("make a move"), "view": N_("open a game page"),
                  "unsubscribe": N_("stop a game's emails"), "invite": N_("join a game"),
                  "seat": N_("change another player's clock"), "sign_in": N_("sign in"),
                  "tournament_invite": N_("enter a tournament"),
                  "league_join": N_("join a league"),
                  "readdress": N_("change an account's address"),
                  "erase": N_("erase an account"), "unfollow": N_("stop following a game")}


def _b32(raw: bytes) -> str:
    return base64.b32encode(raw).decode().rstrip("=").lower()
