"""The schema the migrations build is the schema the models describe, on every back end.

Every other test copies a database migrated once per session (tests/conftest.py): these are
the tests that still migrate, from nothing, so a migration that fails on an empty database,
or a model changed without its migration, is caught here."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, make_url, text
from sqlalchemy.pool import NullPool

from service.store.migrate import upgrade
from service.store.models import Base


def _differences(url: str) -> list:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()


def test_the_migrated_schema_equals_the_models(db_url):
    """Alembic's autogenerate, asked what a new migration would hold, finds nothing."""
    assert _differences(db_url) == []


@pytest.fixture
def empty_database(db_url, tmp_path):
    """A database with no table at all, on the back end under test."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    target = make_url(db_url)
    name = f"{target.database}_empty"
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT",
                          poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield target.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_an_empty_database_migrates_to_the_models(empty_database):
    upgrade(empty_database)
    engine = create_engine(empty_database, poolclass=NullPool)
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert {t.name for t in Base.metadata.sorted_tables} <= tables
    assert _differences(empty_database) == []
