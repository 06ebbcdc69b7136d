"""The store's contract tests run against every back end (tests/conftest.py's `db_url`)."""
from __future__ import annotations

import pytest

from service.store import Database


@pytest.fixture
def db(db_url):
    """A bare database handle on the back end under test."""
    database = Database(db_url)
    yield database
    database.dispose()
