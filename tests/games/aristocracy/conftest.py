"""The 100-game bot test is marked slow: it runs with TURNPOST_SLOW=1 or `-m slow`."""
import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("TURNPOST_SLOW") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: set TURNPOST_SLOW=1 or run with -m slow")
    for item in items:
        if "slow" in item.keywords and "aristocracy" in str(item.fspath):
            item.add_marker(skip)
