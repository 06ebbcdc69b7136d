"""gunicorn's settings for the Procfile's web process (`gunicorn -c config/gunicorn.py`):
address and workers from TURNPOST_WEB_*, checked like every setting, and prometheus_client's
multiprocess bookkeeping when PROMETHEUS_MULTIPROC_DIR is set (`make prod` sets it)."""
from __future__ import annotations

import os

from prometheus_client import multiprocess

from config import load

_settings = load()
bind = _settings.WEB_BIND
workers = _settings.WEB_WORKERS
accesslog = "-"
forwarded_allow_ips = "127.0.0.1,::1"     # the TLS proxy in front, on this machine


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
