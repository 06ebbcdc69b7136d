"""One POST to one endpoint (service.hooks.sending): the addresses a webhook may reach, a name
resolved when it is sent, an endpoint that never answers."""
from __future__ import annotations

import socket
import time

import pytest

from service.hooks import HookFailed, HookRefused, sending
from tests.hooks.receiver import Receiver


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.8", "172.16.5.4", "192.168.1.1",
                                     "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1",
                                     "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1",
                                     "240.0.0.1"])
def test_loopback_private_link_local_and_reserved_addresses_are_not_public(address):
    assert not sending.public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "162.159.135.232", "2606:4700::1111"])
def test_public_addresses_are(address):
    assert sending.public(address)


def test_a_name_is_resolved_when_sent_and_refused_for_its_loopback_address():
    with Receiver() as endpoint:
        port = endpoint.url.split(":")[2].split("/")[0]
        with pytest.raises(HookRefused, match="resolves to .*private address"):
            sending.post(f"http://localhost:{port}/hook", b"{}", {})
        assert endpoint.got == []
        assert sending.post(f"http://localhost:{port}/hook", b"{}", {},
                            allow_private=True) == "HTTP 204"
        assert len(endpoint.got) == 1


def test_only_http_and_https_are_posted_to():
    for url in ("ftp://example.org/x", "file:///etc/passwd", "gopher://example.org/",
                "http:///nohost"):
        with pytest.raises(HookRefused):
            sending.post(url, b"{}", {}, allow_private=True)


def test_an_endpoint_that_never_answers_fails_within_the_timeout():
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    try:
        started = time.monotonic()
        with pytest.raises(HookFailed, match="timed out"):
            sending.post(f"http://127.0.0.1:{silent.getsockname()[1]}/", b"{}", {},
                         allow_private=True, timeout=0.5)
        assert time.monotonic() - started < 3
    finally:
        silent.close()
    assert sending.TIMEOUT == 5.0
