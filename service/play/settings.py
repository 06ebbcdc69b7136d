"""Building the `Services` from the TURNPOST_* settings: the typed `config.Settings` the use
cases read (one default per setting, the one documented in config/), the signer, the URLs,
the mail transport and the clock."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from jinja2 import Environment

from config import Settings, key_list, variable
from service.clock import SystemClock
from service.games.contract import Chance
from service.links import Signer
from service.mail.outbound import transports
from service.mail.outbound.templating import make_env
from service.store.db import Database
from service.urls import Urls

from .services import Clock, Enqueue, Services, run_nothing


def typed(cfg: Mapping[str, Any]) -> Settings:
    """The settings as given (by the environment, the app's config, a test's overrides), each
    missing one at its documented default."""
    given = {f.name: cfg[variable(f)] for f in fields(Settings) if variable(f) in cfg}
    return Settings(**given)


def from_settings(cfg: Mapping[str, Any], enqueue: Enqueue = run_nothing, *,
                  clock: Clock | None = None, chance: Chance | None = None,
                  templates: Environment | None = None) -> Services:
    """Build the services from TURNPOST_* settings (config.Settings().as_flask())."""
    settings = typed(cfg)
    signer = Signer(settings.SECRET_KEY, settings.LINK_MAX_AGE_DAYS,
                    key_list(settings.SECRET_KEY_FALLBACKS))
    return Services(
        db=Database(settings.DATABASE_URL),
        clock=clock or SystemClock(),
        # the service's chance is a CSPRNG; tests hand in a seeded Random
        chance=chance or cfg.get("TURNPOST_CHANCE") or random.SystemRandom(),
        urls=Urls(signer, settings.BASE_URL, settings.MAIL_DOMAIN),
        transport=transports.from_settings(cfg),
        templates=templates or make_env(),
        from_name=settings.MAIL_FROM_NAME,
        retry_schedule=tuple(settings.RETRY_SCHEDULE),
        enqueue=enqueue,
        settings=settings,
    )
