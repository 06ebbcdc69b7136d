"""The SMTP receiver inside the web process (TURNPOST_INBOUND_SMTP_IN_WEB, which `make run`
turns on): on a laptop one process is the whole service, replies included.

It is the receiver of `flask inbound-smtp` (the same handler, so the same use case stores the
mail), run by aiosmtpd's Controller in a thread of its own. It starts with the process's first
request, never when the app is merely made: `flask sweep` or `flask init-db` must not bind the
port, and under Flask's reloader only the child that serves gets requests (the watching
parent makes the app too). A port already taken is logged once and the site goes on."""
from __future__ import annotations

import logging
import os
import threading

from aiosmtpd.controller import Controller
from flask import Flask, request_started

from service.mailwire.inbound import smtp_receiver

from . import cli_inbound

log = logging.getLogger(__name__)


class InWebReceiver:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.controller: Controller | None = None
        self._pid = 0                  # started in this process (a fork starts its own)
        self._lock = threading.Lock()

    def ensure_started(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self.controller = self._start()

    def _start(self) -> Controller | None:
        cfg = self.app.config
        host, port = cfg["TURNPOST_INBOUND_SMTP_HOST"], int(cfg["TURNPOST_INBOUND_SMTP_PORT"])
        svc = self.app.extensions["turnpost"]
        logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd's every command
        controller = Controller(cli_inbound.handler(svc), hostname=host, port=port,
                                **smtp_receiver.server_options(cfg["TURNPOST_INBOUND_MAX_BYTES"]))
        try:
            controller.start()
        except OSError as exc:
            log.warning("replies by SMTP are off in this process: %s:%s is taken (%s); "
                        "reply from /dev/outbox instead, or stop what holds the port",
                        host, port, exc)
            return None
        log.info("receiving replies for play+…@%s by SMTP on %s:%s", svc.urls.domain, host,
                 port)
        return controller

    def stop(self) -> None:
        with self._lock:
            if self.controller is not None and self._pid == os.getpid():
                self.controller.stop()
            self.controller = None
            self._pid = 0


def init_app(app: Flask) -> None:
    if not app.config.get("TURNPOST_INBOUND_SMTP_IN_WEB"):
        return
    receiver = app.extensions["turnpost.receiver"] = InWebReceiver(app)

    def started(_sender, **_) -> None:
        receiver.ensure_started()

    request_started.connect(started, app, weak=False)
