"""gunicorn's settings for the Procfile's web process (`gunicorn -c config/gunicorn.py`):
address and workers from TURNPOST_WEB_*, checked like every setting, and prometheus_client's
multiprocess bookkeeping when PROMETHEUS_MULTIPROC_DIR is set (`make prod` sets it).

The settings are checked here, as gunicorn reads this file, before it listens: settings a
process refuses (config.production) stop gunicorn with their one line. Left to the app, each
worker refused them as it booted, after the arbiter had bound the port: four tracebacks, and
the port held for about ten seconds until the arbiter gave up."""
from __future__ import annotations

import os

from prometheus_client import multiprocess

from config import load
from config.production import check_production

_settings = load()
check_production(_settings.as_flask(), os.environ)
bind = _settings.WEB_BIND
workers = _settings.WEB_WORKERS
accesslog = "-"
forwarded_allow_ips = "127.0.0.1,::1"     # the TLS proxy in front, on this machine
# gunicorn's most (its default is 4094): a request line up to it reaches the app, which
# refuses a long URL itself with a 414 that carries the security headers (service.web.safety)
# instead of gunicorn's bare one
limit_request_line = 8190


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
