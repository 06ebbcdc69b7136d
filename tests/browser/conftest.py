"""The browser tests' one server and one Chromium.

The whole folder shares one `flask run` process (served as `make run` serves: pages, background
work and the SMTP receiver in one process, over an SQLite file and a Maildir) and one Chromium;
each test gets fresh browser contexts and addresses of its own (`addr`), so no test sees
another's games or mail. Both start with the first browser test and stop as soon as the last
one is done (the tests of this folder run one after the other on one xdist worker: the root
conftest groups them), and the server runs in a process group of its own that is killed with
its children, so nothing outlives the suite.

Skipped on a laptop without Chromium; CI sets TURNPOST_TEST_BROWSER=1, which makes a missing
browser a failure instead."""
from __future__ import annotations

import itertools
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser.helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    Served,
    flask_run,
    free_port,
    need_browser,
)


class _Shared:
    """Started by the first browser test that asks, stopped after the last (see the module)."""

    def __init__(self) -> None:
        self._server = None
        self.served: Served | None = None
        self._playwright = None
        self.chromium = None

    def serve(self) -> Served:
        if self.served is None:
            folder = Path(tempfile.mkdtemp(prefix="turnpost-browser-"))
            port, smtp_port = free_port(), free_port()
            self._server = flask_run(folder, port, TURNPOST_INBOUND_SMTP_IN_WEB="1",
                                     TURNPOST_INBOUND_SMTP_PORT=str(smtp_port))
            self.served = Served(self._server.__enter__(), smtp_port, folder)
        return self.served

    def browser(self):
        if self.chromium is None:
            from playwright.sync_api import sync_playwright
            self._playwright = sync_playwright().start()
            self.chromium = self._playwright.chromium.launch(executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS)
        return self.chromium

    def close(self) -> None:
        if self.chromium is not None:
            self.chromium.close()
            self._playwright.stop()
            self.chromium = self._playwright = None
        if self._server is not None:
            folder = self.served.folder
            self._server.__exit__(None, None, None)
            self._server = self.served = None
            shutil.rmtree(folder, ignore_errors=True)


SHARED = _Shared()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Stop the server and Chromium once the next test is not a browser test (or none is),
    after this test's own fixtures are gone: Playwright's loop must not meet the other tests'
    own event loops."""
    yield
    if nextitem is None or Path(str(nextitem.path)).parent != Path(__file__).parent:
        SHARED.close()


def pytest_sessionfinish(session, exitstatus):
    SHARED.close()


@pytest.fixture
def served() -> Served:
    need_browser()
    return SHARED.serve()


@pytest.fixture
def server(served) -> str:
    """The shared server's base URL."""
    return served.base


@pytest.fixture
def browser(served):
    return SHARED.browser()


@contextmanager
def _context(browser, **options):
    context = browser.new_context(**options)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def page(browser):
    """A phone-sized page in a fresh context: no cookie of another test."""
    with _context(browser, viewport=PHONE) as context:
        yield context.new_page()


@pytest.fixture
def checkable_page(browser):
    """A phone-sized page that may inject axe-core: the service's Content-Security-Policy
    forbids inline scripts, as it should, so the checker's context bypasses it (Playwright's
    own switch for this; the pages under test are unchanged)."""
    with _context(browser, viewport=PHONE, bypass_csp=True) as context:
        yield context.new_page()


@pytest.fixture
def second_page(browser):
    """Another person's browser, desktop-sized, beside `page`."""
    with _context(browser) as context:
        yield context.new_page()


_TESTS = itertools.count(1)


@pytest.fixture
def addr():
    """Addresses of this test's own people on the shared server: addr("anna") is
    anna.t7@example.org in the seventh test to ask."""
    n = next(_TESTS)
    return lambda name: f"{name}.t{n}@example.org"


