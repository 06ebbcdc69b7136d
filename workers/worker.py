"""Worker entry point: `celery -A workers.worker worker` (and `... beat`). A worker process
that stops closes its kept connection to the mail relay."""
import gc

from celery import signals

from service import play
from service.web import create_app

from .celery_app import close_relay

# not named `app`: `celery -A` would take it for the Celery app
_flask_app = create_app()
celery_app = _flask_app.extensions["celery"]

# templates compiled and card faces drawn once, here, before the pool forks: every child
# starts with them (the freeze below keeps those pages shared)
play.prepare_to_render(_flask_app.extensions["turnpost"])

# what is built so far lives as long as the process: frozen, the collector no longer scans it
# in every full collection (a clock sweep's batch allocates enough to run one or two, each
# scanning all of it: bench/sweep_bench.py measures it), and a prefork child shares these pages
# with its parent instead of copying them (the gc module's docs, gc.freeze)
gc.freeze()


@signals.worker_process_shutdown.connect     # each child of the prefork pool
@signals.worker_shutdown.connect             # the worker itself (the solo and thread pools)
def _close_relay(**_) -> None:
    close_relay(_flask_app)
