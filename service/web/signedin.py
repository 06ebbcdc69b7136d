"""Who is signed in, read once per request: the account is asked for by the page's language
(before the view runs), by `signed_in` and by the views and their templates, and each asking
was a unit of work of its own reading the same player's row."""
from __future__ import annotations

from flask import g, session

from service.play.players import accounts

from .ext import services


def current_account() -> accounts.Account | None:
    """The signed-in account, if any. A cookie Flask cannot verify was never ours: Flask
    drops it, so a forged session is simply anonymous. Kept for the request against the
    session's player, so signing in or out within it reads afresh."""
    player_id = session.get("player")
    kept = g.get("signed_in")
    if kept is not None and kept[0] == player_id:
        return kept[1]
    account = accounts.account(services(), player_id)
    g.signed_in = (player_id, account)
    return account
