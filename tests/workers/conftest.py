"""The worker tests' Redis: this machine's (CI's), a database of this test process's own."""
from __future__ import annotations

import pytest

from tests.conftest import REDIS_URL


@pytest.fixture
def redis_url():
    if not REDIS_URL:
        pytest.skip("TURNPOST_TEST_REDIS_URL not set")
    import redis
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    client.ping()       # unreachable Redis fails the test: CI must prove the real stack
    client.flushdb()
    return REDIS_URL
