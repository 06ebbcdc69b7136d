"""The plain floor (bench.bare_app: a bare Flask app on its own `create_engine`, one Core
INSERT and COMMIT) as a WSGI app for gunicorn (`make bench BENCH_ARGS=--pg`, `make
bench-scale`): BENCH_DATABASE_URL names the database."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import bare_app  # noqa: E402

app, _engine = bare_app(os.environ["BENCH_DATABASE_URL"])
