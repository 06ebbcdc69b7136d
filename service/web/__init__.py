"""The Flask app factory (Flask tutorial style): settings, the use cases' services as this
app's extension, Celery, blueprints, CLI. Everything per app lives in `app.extensions`, so two
apps in one process with different settings are independent."""
from __future__ import annotations

from flask import Flask

from config import Settings, key_list
from service import play
from service.games import registry
from service.mail.outbound.templating import FILTERS, TEMPLATES, make_env
from workers.celery_app import celery_init_app, enqueue_for

from . import cli, cli_inbound, dev, errors, games, inbound, links, players, safety


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask("turnpost", template_folder=str(TEMPLATES))
    app.config.from_mapping(Settings().as_flask())
    if overrides:
        app.config.update(overrides)
    safety.check_secret(app.config)     # refuses to start with a forgeable secret
    app.config["SECRET_KEY"] = app.config["TURNPOST_SECRET_KEY"]
    fallbacks = key_list(app.config.get("TURNPOST_SECRET_KEY_FALLBACKS"))
    app.config["TURNPOST_SECRET_KEY_FALLBACKS"] = fallbacks
    app.config["SECRET_KEY_FALLBACKS"] = list(fallbacks)     # Flask's session cookie too
    app.config["SESSION_COOKIE_SECURE"] = app.config["TURNPOST_BASE_URL"].startswith("https:")

    celery_app = celery_init_app(app)
    enqueue = enqueue_for(celery_app, embedded=not app.config["TURNPOST_BROKER_URL"])
    app.extensions["turnpost"] = play.from_settings(
        app.config, enqueue, clock=app.config.get("TURNPOST_CLOCK"), templates=make_env())
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals["players_wording"] = registry.players_wording
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    app.register_blueprint(links.bp)
    app.register_blueprint(inbound.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(players.bp)
    if safety.dev_outbox_wanted(app.config):
        app.register_blueprint(dev.bp)
    cli.init_app(app)
    cli_inbound.init_app(app)
    errors.init_app(app)
    safety.init_app(app)
    return app
