"""One POST to one webhook endpoint, safely:

* http and https only;
* the host is resolved now, at send time, and every address it resolves to is checked: a
  loopback, private, link-local, reserved, multicast or unspecified one is refused (server-side
  request forgery: a hook must not make the service call its own network), unless
  `allow_private` (TURNPOST_WEBHOOK_ALLOW_PRIVATE=1, for development and tests);
* the connection goes to the address that was checked, not to a second lookup of the name (a
  name that answers a public address to the check and a private one to the connection gets
  nothing), with TLS still checking the certificate against the name;
* TIMEOUT seconds to connect and to answer; a redirect is not followed (a 3xx is a failure);
  any 2xx is a delivery, anything else a failure the outbox retries.

The standard library only (http.client): no redirects to turn off, no pool to share."""
from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from urllib.parse import urlsplit

TIMEOUT = 5.0


class HookFailed(Exception):
    """The endpoint did not take the delivery: tried again as the outbox's schedule says."""


class HookRefused(HookFailed):
    """The address is not one the service posts to (its scheme, or a private address)."""


def post(url: str, raw: bytes, headers: dict[str, str], *, allow_private: bool = False,
         timeout: float = TIMEOUT) -> str:
    """POST `raw` to `url`; returns the endpoint's answer ("HTTP 204") or raises HookFailed."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HookRefused(f"{url[:100]} is not an http or https address")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = checked_address(parts.hostname, port, allow_private)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection = _Pinned(parts.scheme, parts.hostname, port, address, timeout)
    try:
        connection.request("POST", path, body=raw, headers={
            "Content-Type": "application/json", "User-Agent": "Turnpost-Webhook/1", **headers})
        answer = connection.getresponse()
        status = answer.status
        answer.read(4096)
    except (OSError, http.client.HTTPException) as exc:
        raise HookFailed(f"{parts.hostname}: {type(exc).__name__}: {exc}") from None
    finally:
        connection.close()
    if not 200 <= status < 300:
        why = " (redirects are not followed)" if 300 <= status < 400 else ""
        raise HookFailed(f"{parts.hostname} answered HTTP {status}{why}")
    return f"HTTP {status}"


def checked_address(host: str, port: int, allow_private: bool) -> str:
    """The address to connect to: the host's first address, once every address it resolves
    to is found public (or `allow_private`)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise HookFailed(f"{host} could not be resolved: {exc}") from None
    addresses = [info[4][0] for info in found]
    if not addresses:
        raise HookFailed(f"{host} could not be resolved")
    if not allow_private:
        for text in addresses:
            if not public(text):
                raise HookRefused(f"{host} resolves to {text}, a private address: webhooks "
                                  "go to public addresses only")
    return addresses[0]


def public(text: str) -> bool:
    ip = ipaddress.ip_address(text.split("%", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_reserved
                or ip.is_multicast or ip.is_unspecified or not ip.is_global)


class _Pinned:
    """An HTTP(S) connection to `address`, speaking to `host` (Host header, TLS name)."""

    def __init__(self, scheme: str, host: str, port: int, address: str, timeout: float):
        self.address = address
        if scheme == "https":
            self.conn = http.client.HTTPSConnection(host, port, timeout=timeout,
                                                    context=ssl.create_default_context())
        else:
            self.conn = http.client.HTTPConnection(host, port, timeout=timeout)
        self.conn._create_connection = self._to_checked_address   # noqa: SLF001

    def _to_checked_address(self, where, timeout=None, source_address=None):
        return socket.create_connection((self.address, where[1]), timeout, source_address)

    def request(self, *args, **kwargs) -> None:
        self.conn.request(*args, **kwargs)

    def getresponse(self):
        return self.conn.getresponse()

    def close(self) -> None:
        self.conn.close()
