"""Reading an email address someone typed: email-validator's syntax rules (lengths included),
lower-cased, and no DNS lookups (a test, a laptop and a slow resolver must all give the same
answer)."""
from __future__ import annotations

import re

from email_validator import EmailNotValidError, validate_email

from service.mailwire.outbound.catalogs import DEFAULT, N_, _, current
from service.play.errors import PlayError

#: an erased player's address is erased-<id>@ this domain: RFC 2606 reserves .invalid, so it
#: is never mailed, and address() refuses it, so nobody signs in or is seated under it
ERASED_DOMAIN = "erased.invalid"


def erased(addr: str) -> bool:
    """Whether this is an erased player's made-up address (service.play.players.erasure)."""
    return addr.endswith("@" + ERASED_DOMAIN)


class BadAddress(PlayError):
    title = N_("That is not an email address")


#: email-validator's reasons for the common failures (no @, nothing before or after it, a
#: domain written wrong or one that takes no mail), in its own English word for word, so each
#: can be said in the reader's language; a `%(name)s` stands for what the reason names
REASONS = [
    N_("An email address must have an @-sign."),
    N_("There must be something before the @-sign."),
    N_("There must be something after the @-sign."),
    N_("The part after the @-sign is not valid. It should have a period."),
    N_("The part after the @-sign is not valid. It is not within a valid top-level domain."),
    N_("The part after the @-sign is a special-use or reserved name that cannot be used "
       "with email."),
    N_("The part after the @-sign contains invalid characters: %(chars)s."),
    N_("The email address contains invalid characters before the @-sign: %(chars)s."),
    N_("An email address cannot have two periods in a row."),
    N_("An email address cannot end with a period."),
    N_("An email address cannot have a period immediately before the @-sign."),
    N_("An email address cannot have a hyphen immediately after the @-sign."),
    N_("The email address is too long after the @-sign (%(count)s characters too many)."),
    N_("more than 64 characters before the @"),
]
_READ = [(re.compile(re.sub(r"%\\\((\w+)\\\)s", r"(?P<\1>.+?)", re.escape(r))), r)
         for r in REASONS]
#: any other reason, said in German and French (in English, email-validator's own words)
OTHER = N_("it is not written as an email address is")


def reason(why: str) -> str:
    """email-validator's reason in the language of the moment."""
    for pattern, template in _READ:
        found = pattern.fullmatch(why)
        if found:
            return _(template, **found.groupdict())
    return why if current() == DEFAULT else _(OTHER)


def address(text: str) -> str:
    text = text.strip()
    try:
        valid = validate_email(text, check_deliverability=False)
        if len(valid.local_part) > 64:     # RFC 5321: email-validator lets longer ones by
            raise EmailNotValidError(REASONS[-1])
    except EmailNotValidError as exc:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise BadAddress(_("%(shown)r is not an email address: %(why)s", shown=shown,
                           why=reason(str(exc)))) from None
    return valid.normalized.lower()


def default_name(addr: str) -> str:
    """A display name for a new player: the local part, never the whole address."""
    return addr.split("@")[0][:40]
