"""Shared fixtures. The suite runs anywhere on SQLite and a Maildir; with
TURNPOST_TEST_DATABASE_URL / TURNPOST_TEST_REDIS_URL set (CI sets both) the store, play, web
and worker tests also run against real PostgreSQL and Redis, and fail if those are down."""
from __future__ import annotations

import os
import random
import shutil
import smtplib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

from service.play import Services, from_settings
from service.play.clock import ManualClock
from service.store.migrate import upgrade
from service.store.models import Base

# Property tests try a budget they declare (tests/budgets.py), from a seed fixed by each test:
# the same examples on every run and every machine, nothing carried over from a last run
settings.register_profile("turnpost", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.load_profile("turnpost")

# Each test's files (its SQLite copy, its Maildir) in memory where the machine has a tmpfs: the
# store fsyncs every commit and the Maildir every message, as they must for real players, and on
# this machine's disk an fsync costs 2-9 ms, a fifth of the suite's time. pytest's own numbered
# directories and their clean-up still apply (PYTEST_DEBUG_TEMPROOT, pytest's documented root
# for them); a run given --basetemp or its own root keeps it.
MEMORY_DISK = Path("/dev/shm")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if (config.option.basetemp is None and "PYTEST_DEBUG_TEMPROOT" not in os.environ
            and MEMORY_DISK.is_dir() and os.access(MEMORY_DISK, os.W_OK)):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_DISK)


# pytest-xdist names each worker process (gw0, gw1, ...); each gets a PostgreSQL database and a
# Redis database of its own, so two workers never empty each other's tables or queues
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _per_worker_database(url: str) -> str:
    """The test database named by the setting, suffixed by the worker (`test_gw0`; `test_main`
    without xdist): created and dropped by the suite, so the named one is never emptied."""
    if not url:
        return url
    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{WORKER or 'main'}").render_as_string(
        hide_password=False)


def _per_worker_redis(url: str) -> str:
    """The Redis database after the named one for each worker (named 0: gw0 gets 1, gw1 2;
    named 14: 15, 16), so two runs given different databases never flush each other's."""
    if not url or not WORKER:
        return url
    base, _, named = url.rpartition("/")
    db = int(named or 0) + 1 + int(WORKER.removeprefix("gw"))
    if db > 15:
        raise pytest.UsageError(f"TURNPOST_TEST_REDIS_URL names database {named}: this worker "
                                f"would need database {db}, past Redis's default 16; name a "
                                f"lower one")
    return f"{base}/{db}"


PG_URL = _per_worker_database(os.environ.get("TURNPOST_TEST_DATABASE_URL", ""))
REDIS_URL = _per_worker_redis(os.environ.get("TURNPOST_TEST_REDIS_URL", ""))
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
# long enough for production settings (a broker), which refuse a short one (config.production)
TEST_SECRET = "test-secret-long-enough-for-production-settings"


@pytest.fixture(autouse=True)
def no_real_smtp(monkeypatch):
    """No test may talk to a mail server other than one it started on this machine."""
    real_connect = smtplib.SMTP.connect

    def connect(self, host="localhost", port=0, source_address=None):
        if host not in LOCAL_HOSTS:
            raise AssertionError(f"a test tried to send real mail through {host}:{port}")
        return real_connect(self, host, port, source_address)

    monkeypatch.setattr(smtplib.SMTP, "connect", connect)


BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """An SQLite file migrated once per session (per xdist worker): each test copies it, which
    takes a fraction of a millisecond where migrating takes most of a second.
    tests/store/test_schema.py migrates an empty database on its own."""
    path = tmp_path_factory.getbasetemp() / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def pg_migrated():
    """This worker's PostgreSQL database, created afresh and migrated once for the session.
    Its commits do not wait for the disk (`synchronous_commit = off`: a crash of this machine
    may lose the last commits of a scratch database, which nothing here asserts on; atomicity and
    isolation are PostgreSQL's as ever), and it holds the function that empties it between
    tests (_EMPTY_FUNCTION)."""
    if not PG_URL:
        pytest.skip("TURNPOST_TEST_DATABASE_URL not set")
    target = make_url(PG_URL)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            # WITH (FORCE): a worker process left over from an interrupted run lets go of it
            conn.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
            conn.execute(text(f'ALTER DATABASE "{target.database}" SET synchronous_commit = off'))
    finally:
        admin.dispose()
    upgrade(PG_URL)
    engine = create_engine(PG_URL, poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(text(_EMPTY_FUNCTION))
    engine.dispose()
    return PG_URL


#: Empties what the last test wrote, in one round trip: each table holding rows, children
#: before parents, by DELETE (TRUNCATE makes new files for each table: 0.5 s after a test that
#: played two games, DELETE of the same rows a few ms), then the sequences it drew from, so game
#: numbers start at 1 again. Alembic's comparison of the schema ignores functions.
_EMPTY_FUNCTION = """
CREATE FUNCTION turnpost_test_empty(tables text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    name text;
    holding boolean;
BEGIN
    FOREACH name IN ARRAY tables LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', name) INTO holding;
        IF holding THEN
            EXECUTE format('DELETE FROM %I', name);
        END IF;
    END LOOP;
    FOR name IN SELECT sequencename FROM pg_sequences
                WHERE schemaname = current_schema() AND last_value IS NOT NULL LOOP
        EXECUTE format('ALTER SEQUENCE %I RESTART', name);
    END LOOP;
END $$"""


@pytest.fixture(scope="session")
def pg_emptier(pg_migrated):
    """One connection for the session that empties the database before each test using it
    (pre-pinged: a test may terminate every backend of its database on purpose)."""
    engine = create_engine(pg_migrated, pool_size=1, pool_pre_ping=True)
    children_first = [t.name for t in reversed(Base.metadata.sorted_tables)]

    def empty():
        with engine.begin() as conn:
            conn.execute(text("SELECT turnpost_test_empty(:tables)"), {"tables": children_first})

    yield empty
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    if request.param == "sqlite":
        path = tmp_path / "turnpost.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    request.getfixturevalue("pg_emptier")()
    return request.getfixturevalue("pg_migrated")


def test_settings(db_url: str, tmp_path, **overrides) -> dict:
    cfg = {"TURNPOST_DATABASE_URL": db_url, "TURNPOST_MAILDIR": str(tmp_path / "outbox"),
           "TURNPOST_SECRET_KEY": TEST_SECRET, "TURNPOST_BROKER_URL": "",
           "TURNPOST_BACKGROUND": "inline",   # mail is in the Maildir when a request returns
           "TURNPOST_BASE_URL": "http://turnpost.test",
           "TURNPOST_MAIL_DOMAIN": "turnpost.test",
           "TURNPOST_CHANCE": random.Random(1234), "TURNPOST_BOT_DELAY_SECONDS": 0,
           # tests read the mail at /dev/outbox on either database
           "TURNPOST_DEV_OUTBOX": "1",
           # the timeout tests are about timeouts: a vacation day taken instead of one is
           # turned on by the tests of that rule (tests/play/time/test_vacation_days.py)
           "TURNPOST_AUTO_VACATION": "false",
           "TESTING": True}
    cfg.update(overrides)
    return cfg


@pytest.fixture
def app_factory(db_url, tmp_path):
    from service.web import create_app
    made = []

    def make(**overrides):
        app = create_app(test_settings(db_url, tmp_path, **overrides))
        made.append(app)
        return app

    yield make
    for app in made:
        background = app.extensions.get("turnpost.background")
        if background is not None:     # TURNPOST_BACKGROUND=thread: let its work finish
            background.stop()
        app.extensions["turnpost"].dispose()


@pytest.fixture
def app(app_factory):
    return app_factory()


@pytest.fixture
def client(app):
    return app.test_client()


T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def services(db_url, tmp_path) -> Services:
    """The use cases' collaborators without any web or worker: a manual clock standing at T0,
    seeded chance, mail to a Maildir, background work left to explicit calls."""
    from config import Settings
    cfg = Settings().as_flask() | test_settings(db_url, tmp_path)
    svc = from_settings(cfg, clock=ManualClock(T0), chance=random.Random(1234))
    yield svc
    svc.dispose()


def pytest_collection_modifyitems(config, items):
    """The browser tests share one server and one Chromium (tests/browser/conftest.py): xdist
    (`--dist loadgroup`, as `make test` runs it) keeps them together on one worker."""
    browser = Path(__file__).parent / "browser"
    for item in items:
        if browser in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.xdist_group("browser"))
