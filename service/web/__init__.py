"""The Flask app factory (Flask tutorial style): settings, extensions, blueprints, CLI."""
from __future__ import annotations

import random

from flask import Flask

from config import DEV_SECRET, Settings
from service.links import Signer
from service.mail.mailer import Mailer
from service.mail.templating import FILTERS, TEMPLATES
from service.store.db import Database
from workers.celery_app import celery_init_app

db = Database()
mailer = Mailer()


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask("turnpost", template_folder=str(TEMPLATES))
    app.config.from_mapping(Settings().as_flask())
    if overrides:
        app.config.update(overrides)
    if app.config["TURNPOST_SECRET_KEY"] == DEV_SECRET and app.config["TURNPOST_BROKER_URL"]:
        app.logger.warning("TURNPOST_SECRET_KEY is the development default: links can be forged")
    app.config["SECRET_KEY"] = app.config["TURNPOST_SECRET_KEY"]
    app.extensions["turnpost.signer"] = Signer(app.config["TURNPOST_SECRET_KEY"],
                                               app.config["TURNPOST_LINK_MAX_AGE_DAYS"])
    # the service's chance: a CSPRNG; tests put a seeded Random here
    app.extensions.setdefault("turnpost.chance", app.config.get("TURNPOST_CHANCE") or
                              random.SystemRandom())
    db.init_app(app)
    mailer.init_app(app)
    celery_init_app(app)
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    from . import cli, cli_inbound, dev, games, inbound, links, players
    app.register_blueprint(links.bp)
    app.register_blueprint(inbound.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(players.bp)
    if app.config["TURNPOST_DEV_OUTBOX"] and app.config["TURNPOST_MAIL_TRANSPORT"] == "maildir":
        app.register_blueprint(dev.bp)
    cli.init_app(app)
    cli_inbound.init_app(app)

    @app.get("/healthz")
    def healthz():
        return {"ok": True}

    return app
