"""The Flask app factory (Flask tutorial style): settings, the use cases' services as this
app's extension, Celery, blueprints, CLI. Everything per app lives in `app.extensions`, so two
apps in one process with different settings are independent."""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from flask import Flask
from flask.templating import Environment as FlaskEnvironment
from flask_wtf.csrf import CSRFError, CSRFProtect

from config import key_list, load
from service import play
from service.games import registry
from service.mailwire.outbound.catalogs import N_
from service.mailwire.outbound.templating import (
    FILTERS,
    GLOBALS,
    TEMPLATES,
    CompiledOnce,
    DictItemsFirst,
    make_env,
)
from workers.celery_app import celery_init_app, enqueue_for

from . import (
    accountpages,
    api,
    cards,
    cli,
    cli_admin,
    cli_community,
    cli_inbound,
    cli_leagues,
    cli_ratings,
    cli_tournaments,
    community,
    contests,
    dev,
    dev_receiver,
    errorpages,
    feeds,
    followpages,
    games,
    inbound,
    kicks,
    languages,
    leaguepages,
    limits,
    links,
    logs,
    metrics,
    pages,
    players,
    safety,
    seats,
    tokens,
    tournamentpages,
    urlrules,
    webhookforms,
)


class WebEnvironment(DictItemsFirst, FlaskEnvironment):
    """The pages' Jinja environment: Flask's, with the game views' items found first (the
    same partials render in the emails)."""


class TurnpostFlask(Flask):
    """Flask, with each URL rule's builder compiled once per process (urlrules says why)."""
    url_rule_class = urlrules.SharedBuilderRule


#: the pages' templates, compiled once per process (templating.CompiledOnce says why)
PAGE_CODE = CompiledOnce()


def create_app(overrides: dict | None = None) -> Flask:
    app = TurnpostFlask("turnpost", template_folder=str(TEMPLATES),
                static_folder=str(Path(__file__).resolve().parent / "static"))
    app.jinja_environment = WebEnvironment        # before anything makes app.jinja_env
    app.jinja_options = {**app.jinja_options, "bytecode_cache": PAGE_CODE}
    app.config.from_mapping(load().as_flask())   # a bad value: one line, exit
    if overrides:
        app.config.update(overrides)
    # refuses to start with a forgeable secret, or links to nowhere: one line, no traceback
    safety.check_production(app.config, {**os.environ, **(overrides or {})})
    app.config["SECRET_KEY"] = app.config["TURNPOST_SECRET_KEY"]
    fallbacks = key_list(app.config.get("TURNPOST_SECRET_KEY_FALLBACKS"))
    app.config["TURNPOST_SECRET_KEY_FALLBACKS"] = fallbacks
    app.config["SECRET_KEY_FALLBACKS"] = list(fallbacks)     # Flask's session cookie too
    # the session cookie carries the signed-in account: never to scripts, never cross-site
    # POSTs, and only over https when the service is served over https
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      SESSION_COOKIE_SECURE=app.config["TURNPOST_BASE_URL"].startswith("https:"),
                      PERMANENT_SESSION_LIFETIME=timedelta(days=30))

    celery_app = celery_init_app(app)
    enqueue = enqueue_for(app, celery_app)
    app.extensions["turnpost"] = play.from_settings(
        app.config, enqueue, clock=app.config.get("TURNPOST_CLOCK"),
        templates=make_env(auto_reload=app.debug))
    _page_environment(app)

    for blueprint in (links, inbound, games, players, seats, api, tokens, feeds, accountpages,
                      webhookforms, community, cards, contests, tournamentpages, leaguepages,
                      followpages):
        app.register_blueprint(blueprint.bp)
    if safety.dev_outbox_wanted(app.config):
        app.register_blueprint(dev.bp)
    init_csrf(app)
    kicks.init_app(app)
    limits.init_app(app)
    logs.init_app(app)
    metrics.init_app(app)
    cli.init_app(app)
    cli_admin.init_app(app)
    cli_inbound.init_app(app)
    cli_community.init_app(app)
    cli_ratings.init_app(app)
    app.cli.add_command(cli_tournaments.tournaments)
    app.cli.add_command(cli_leagues.leagues)
    dev_receiver.init_app(app)
    errorpages.init_app(app)
    safety.init_app(app)
    # every engine imported as the process starts (a gunicorn worker, a Celery worker before
    # it forks): not by the first move each kind of game makes in each process, a tenth of
    # the web's CPU in a short burst of cold moves (bench-scale's links, py-spy)
    registry.available()
    return app


def _page_environment(app: Flask) -> None:
    """The pages' filters and globals (the emails' own, and the pages'), and their language."""
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.filters["when"] = pages.when
    app.jinja_env.filters["card_alt"] = pages.card_alt
    app.jinja_env.globals.update(GLOBALS)
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True
    languages.init_app(app)          # the page's language: Flask-Babel, our catalogs


def init_csrf(app: Flask) -> None:
    """Every form POST carries the session's CSRF token, except those whose URL token is the
    credential and that must work without a session: a move link's button (/m/), RFC 8058
    one-click unsubscribing (/u/, posted by mail clients) and the inbound webhooks."""
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)   # as long as the session: slow games
    csrf = CSRFProtect(app)
    # the emailed links' one button: a move, unsubscribing, a follow digest's unfollow
    for one_click in (links.act, players.unsubscribe, followpages.unfollow):
        csrf.exempt(one_click)
    csrf.exempt(inbound.bp)
    csrf.exempt(api.bp)                  # bearer tokens, no cookies: nothing to forge
    csrf.exempt(seats.seat_action)       # the emailed links of the wait policy (/s/)
    csrf.exempt(seats.accept_invitation)  # taking over a seat, from the emailed link (/i/)

    @app.errorhandler(CSRFError)
    def stale_form(exc):
        # marked: the problem page says them in the page's language
        return pages.problem(N_("This form has expired"), N_(
            "The page the form came from is too old or was opened in another browser. Go back, "
            "reload the page and send it again."), 400)
