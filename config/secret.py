"""The one check on settings that is about their combination, not one value: where links
reach real people (a broker or an SMTP relay), TURNPOST_SECRET_KEY must be one nobody can
guess, since it signs every link and reply address. Every process applies it as it starts
(service.web.create_app), and so does `python -m config check`."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import DEV_SECRET

#: Shortest secret accepted in production: 32 characters of token_urlsafe are 192 bits.
SECRET_MIN_LENGTH = 32
MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"


class UnsafeSettings(RuntimeError):
    """Settings that would let anyone forge links to other players' seats."""


def is_production(cfg: Mapping[str, Any]) -> bool:
    """Real workers or real mail: links reach real people."""
    return bool(cfg["TURNPOST_BROKER_URL"]) or cfg["TURNPOST_MAIL_TRANSPORT"] == "smtp"


def check_secret(cfg: Mapping[str, Any]) -> None:
    """Raises UnsafeSettings (one line for the operator) for a forgeable secret in
    production; the development default stays fine on the embedded setup."""
    if not is_production(cfg):
        return
    secret = cfg["TURNPOST_SECRET_KEY"]
    if not secret:
        what = "empty"
    elif secret == DEV_SECRET:
        what = "the public development default"
    elif len(secret) < SECRET_MIN_LENGTH:
        what = f"only {len(secret)} characters long (at least {SECRET_MIN_LENGTH} are needed)"
    else:
        return
    raise UnsafeSettings(
        f"TURNPOST_SECRET_KEY is {what} while a broker or an SMTP relay is configured: "
        "anyone could sign links to any player's seat. Set TURNPOST_SECRET_KEY to a long "
        f"random value, made with {MAKE_ONE} (to rotate, move the old one to "
        "TURNPOST_SECRET_KEY_FALLBACKS).")
