"""What a change of address and an erasure share: the row a confirmation link names, the link's
checks (signed for its purpose, an hour old at most, used once), and the letters about an
account (service.play.mail.letters composes them from the row when they are sent, so no
bearer token and no address other than the recipient's is stored in the outbox)."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from service.linking.signer import Expired
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify
from service.play.errors import PlayError
from service.play.services import Services
from service.store.models import AccountChange, OutboxRow

LINK_LIFETIME = timedelta(hours=1)


class ChangeRefused(PlayError):
    title = N_("Nothing was changed")


def open_change(session: Session, svc: Services, purpose: str, token: str, *,
                lock: bool = False) -> AccountChange:
    """The change a confirmation link names, if the link may still be used. A damaged link,
    or one for something else, raises the signer's TokenError, which every adapter answers
    alike."""
    try:
        claims = svc.urls.signer.loads(purpose, token)
    except Expired:
        raise ChangeRefused(_(_TOO_OLD)) from None
    # a damaged or foreign link (TokenError) is answered as every link's is
    row = session.get(AccountChange, claims.game, with_for_update=lock)
    if row is None or row.kind != purpose:
        raise ChangeRefused(_("This link is for nothing we know of any more: the account may "
                              "have been erased, or the request withdrawn."))
    if row.used_at is not None:
        raise ChangeRefused(_("This link was used already; each works once. Nothing more was "
                              "changed."))
    if svc.clock.now() > row.expires_at:
        raise ChangeRefused(_(_TOO_OLD))
    return row


_TOO_OLD = N_("This link is more than an hour old. Sign in and ask again on your page (My "
              "games): a new link comes by email.")


def letter(session: Session, to: str, kind: str, now: datetime, **payload) -> OutboxRow:
    """An email about the account (service.play.mail.letters.ACCOUNT), queued now and sent once
    the unit of work commits (notify.letter)."""
    return notify.letter(session, to, kind, payload, now)

