"""This app's use-case services (built in `create_app`, kept in `app.extensions`)."""
from __future__ import annotations

from flask import current_app

from service.play import Services


def services() -> Services:
    return current_app.extensions["turnpost"]
