"""The checks on settings that are about their combination, not one value. Where links reach
real people (a broker or an SMTP relay), TURNPOST_SECRET_KEY must be one nobody can guess,
since it signs every link and reply address, and TURNPOST_BASE_URL must be given, since every
link in every email starts with it. Every process applies them as it starts (gunicorn's
settings file before it listens, service.web.create_app for flask and celery), and so does
`python -m config check`: a refusal is one line and exit status 1, like a bad value."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import DEV_SECRET

#: Shortest secret accepted in production: 32 characters of token_urlsafe are 192 bits.
SECRET_MIN_LENGTH = 32
MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"


class UnsafeSettings(SystemExit):
    """Settings that would put forgeable or dead links in real people's mail. A SystemExit
    whose message is the operator's one line ("turnpost: ..."): raised by any process as it
    starts, it stops it with that line and no traceback (a bad value does the same,
    config.load)."""

    def __init__(self, line: str):
        super().__init__(f"turnpost: {line}")


def is_production(cfg: Mapping[str, Any]) -> bool:
    """Real workers or real mail: links reach real people."""
    return bool(cfg["TURNPOST_BROKER_URL"]) or cfg["TURNPOST_MAIL_TRANSPORT"] == "smtp"


def check_production(cfg: Mapping[str, Any], given: Mapping[str, Any]) -> None:
    """Raises UnsafeSettings for a forgeable secret, or for a base URL nobody gave, in
    production; the development defaults stay fine on the embedded setup. `given`: the
    settings set explicitly (the environment, and a process's own overrides), by variable:
    the base URL must be one of them, not the default nor what `make run` recorded in
    var/base-url for the processes of a laptop."""
    if not is_production(cfg):
        return
    check_secret(cfg["TURNPOST_SECRET_KEY"])
    if not str(given.get("TURNPOST_BASE_URL") or "").strip():
        raise UnsafeSettings(
            "TURNPOST_BASE_URL is not set while a broker or an SMTP relay is configured: "
            f"every link in every email would start with {cfg['TURNPOST_BASE_URL']}, which "
            "players cannot open. Set TURNPOST_BASE_URL to the address players open the "
            "service at, such as https://play.example.org.")


def check_secret(secret: str) -> None:
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
