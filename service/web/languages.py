"""Which language a page speaks (Flask-Babel's locale selector): a signed-in player's own
(their preference, /me), else the switcher's choice for this browser (`?lang=de` on any
page, kept in the session), else the browser's Accept-Language; English when none is ours.

The words come from the one set of catalogs (service.mailwire.outbound.catalogs): the pages'
templates get its callables, and the request speaks the page's language for the use cases'
answers and refusals it shows."""
from __future__ import annotations

from flask import Flask, g, request, session
from flask_babel import Babel, get_locale

from service.mailwire.outbound import catalogs

from .signedin import current_account

#: the session key of the switcher's choice (a signed-out browser's)
CHOSEN = "lang"


def page_language() -> str:
    if "page_language" not in g:
        g.page_language = _choose()
    return g.page_language


def _choose() -> str:
    asked = catalogs.known(request.args.get("lang"))
    if asked is not None:
        session[CHOSEN] = asked           # the switcher: this browser keeps it
    player = _signed_in_language()
    if player is not None:
        return player
    return asked or catalogs.known(session.get(CHOSEN)) or \
        catalogs.negotiate(request.headers.get("Accept-Language"))


def _signed_in_language() -> str | None:
    """A signed-in player's chosen language (None: nobody signed in, or none chosen), from
    the request's one read of their account."""
    account = current_account()
    return account.chosen_language if account is not None else None


def browser_language() -> str:
    """The language this browser asked for (the switcher's, else its Accept-Language): what
    a player who has chosen none is given at sign-in."""
    return catalogs.known(session.get(CHOSEN)) or \
        catalogs.negotiate(request.headers.get("Accept-Language"))


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=page_language,
          default_translation_directories=str(catalogs.CATALOGS))
    catalogs.install(app.jinja_env)      # the one loader's words, in the request's language

    @app.before_request
    def speak_the_page_language():
        # what a use case says in this request (a refusal, a word's answer) is in it too
        g.speaking = catalogs.speaking(str(get_locale()))
        g.speaking.__enter__()

    @app.teardown_request
    def stop_speaking(exc=None):
        speaking = g.pop("speaking", None)
        if speaking is not None:
            speaking.__exit__(None, None, None)

    @app.context_processor
    def languages():
        return {"page_language": str(get_locale()), "languages": catalogs.LANGUAGES}

    @app.after_request
    def content_language(response):
        response.headers.setdefault("Content-Language", str(get_locale()))
        response.vary.add("Accept-Language")
        return response
