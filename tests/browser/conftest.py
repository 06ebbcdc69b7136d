"""The browser fixtures (a server process and a Chromium page, test_browser.py) for every
browser test here."""
from .test_browser import page, server  # noqa: F401 - fixtures, shared
