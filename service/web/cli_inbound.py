"""`flask --app service.web inbound-smtp`: run the built-in SMTP receiver for reply mail."""
from __future__ import annotations

import logging

import click

from service import play
from service.mailwire.inbound import smtp_receiver

from .ext import services


def init_app(app) -> None:
    app.cli.add_command(inbound_smtp)


def handler(svc: play.Services) -> smtp_receiver.InboundHandler:
    """The receiver storing into these services' database (the use case `accept_mail`)."""
    return smtp_receiver.InboundHandler(lambda raw: play.accept_mail(svc, raw, "smtp"),
                                        svc.urls.domain, svc.urls.sender_address())


@click.command("inbound-smtp")
@click.option("--host", default=None, help="default: TURNPOST_INBOUND_SMTP_HOST (127.0.0.1)")
@click.option("--port", type=int, default=None, help="default: TURNPOST_INBOUND_SMTP_PORT (2525)")
def inbound_smtp(host, port):
    """Receive reply mail by SMTP and store it for the workers; runs until interrupted."""
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    svc = services()
    cfg = svc.settings
    host = host or cfg.INBOUND_SMTP_HOST
    port = int(port or cfg.INBOUND_SMTP_PORT)
    click.echo(f"receiving mail for play+…@{svc.urls.domain} on {host}:{port}")
    smtp_receiver.run(handler(svc), host, port, cfg.INBOUND_MAX_BYTES)
