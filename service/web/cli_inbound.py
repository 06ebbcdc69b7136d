"""`flask --app service.web inbound-smtp`: run the built-in SMTP receiver for reply mail."""
from __future__ import annotations

import click
from flask import current_app


def init_app(app) -> None:
    app.cli.add_command(inbound_smtp)


@click.command("inbound-smtp")
@click.option("--host", default=None, help="default: TURNPOST_INBOUND_SMTP_HOST (127.0.0.1)")
@click.option("--port", type=int, default=None, help="default: TURNPOST_INBOUND_SMTP_PORT (2525)")
def inbound_smtp(host, port):
    """Receive reply mail by SMTP and store it for the workers; runs until interrupted."""
    import logging

    from service.mail import smtp_receiver
    logging.basicConfig(level=logging.INFO)
    app = current_app._get_current_object()
    click.echo(f"receiving mail for play+…@{app.config['TURNPOST_MAIL_DOMAIN']} on "
               f"{host or app.config['TURNPOST_INBOUND_SMTP_HOST']}:"
               f"{port or app.config['TURNPOST_INBOUND_SMTP_PORT']}")
    smtp_receiver.run(app, host, port)
