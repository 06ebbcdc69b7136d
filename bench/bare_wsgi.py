"""The floor's bare insert route as a WSGI app for gunicorn (`make bench BENCH_ARGS=--pg`):
BENCH_DATABASE_URL names the database."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import bare_app  # noqa: E402

app, _db = bare_app(os.environ["BENCH_DATABASE_URL"])
