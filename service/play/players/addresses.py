"""Reading an email address someone typed: email-validator's syntax rules (lengths included),
lower-cased, and no DNS lookups (a test, a laptop and a slow resolver must all give the same
answer)."""
from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from service.mailwire.outbound.catalogs import N_, _
from service.play.errors import PlayError

#: an erased player's address is erased-<id>@ this domain: RFC 2606 reserves .invalid, so it
#: is never mailed, and address() refuses it, so nobody signs in or is seated under it
ERASED_DOMAIN = "erased.invalid"


def erased(addr: str) -> bool:
    """Whether this is an erased player's made-up address (service.play.players.erasure)."""
    return addr.endswith("@" + ERASED_DOMAIN)


class BadAddress(PlayError):
    title = N_("That is not an email address")


def address(text: str) -> str:
    text = text.strip()
    try:
        valid = validate_email(text, check_deliverability=False)
        if len(valid.local_part) > 64:     # RFC 5321: email-validator lets longer ones by
            raise EmailNotValidError("more than 64 characters before the @")
    except EmailNotValidError as exc:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise BadAddress(_("%(shown)r is not an email address: %(why)s", shown=shown,
                           why=exc)) from None
    return valid.normalized.lower()


def default_name(addr: str) -> str:
    """A display name for a new player: the local part, never the whole address."""
    return addr.split("@")[0][:40]
