"""The Flask app factory (Flask tutorial style): settings, the use cases' services as this
app's extension, Celery, blueprints, CLI. Everything per app lives in `app.extensions`, so two
apps in one process with different settings are independent."""
from __future__ import annotations

from flask import Flask

from config import DEV_SECRET, Settings
from service import play
from service.games import registry
from service.mail.outbound.templating import FILTERS, GLOBALS, TEMPLATES, make_env
from workers.celery_app import celery_init_app, enqueue_for

from . import cards, cli, cli_inbound, dev, games, inbound, links, players


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask("turnpost", template_folder=str(TEMPLATES))
    app.config.from_mapping(Settings().as_flask())
    if overrides:
        app.config.update(overrides)
    if app.config["TURNPOST_SECRET_KEY"] == DEV_SECRET and app.config["TURNPOST_BROKER_URL"]:
        app.logger.warning("TURNPOST_SECRET_KEY is the development default: links can be forged")
    app.config["SECRET_KEY"] = app.config["TURNPOST_SECRET_KEY"]

    celery_app = celery_init_app(app)
    enqueue = enqueue_for(celery_app, embedded=not app.config["TURNPOST_BROKER_URL"])
    app.extensions["turnpost"] = play.from_settings(
        app.config, enqueue, clock=app.config.get("TURNPOST_CLOCK"), templates=make_env())
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.update(GLOBALS)
    app.jinja_env.globals["players_wording"] = registry.players_wording
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    app.register_blueprint(links.bp)
    app.register_blueprint(inbound.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(cards.bp)
    if app.config["TURNPOST_DEV_OUTBOX"] and app.config["TURNPOST_MAIL_TRANSPORT"] == "maildir":
        app.register_blueprint(dev.bp)
    cli.init_app(app)
    cli_inbound.init_app(app)

    @app.get("/healthz")
    def healthz():
        return {"ok": True}

    return app
