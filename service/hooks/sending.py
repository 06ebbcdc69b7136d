"""One POST to one webhook endpoint, safely:

* http and https only;
* the host is resolved now, at send time, and every address it resolves to is checked: a
  loopback, private, link-local, reserved, multicast or unspecified one is refused (server-side
  request forgery: a hook must not make the service call its own network), unless
  `allow_private` (TURNPOST_WEBHOOK_ALLOW_PRIVATE=1, for development and tests);
* the connection goes to an address that was checked, not to a second lookup of the name (a
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
    addresses = checked_addresses(parts.hostname, port, allow_private)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection = _pinned(parts.scheme, parts.hostname, port, addresses, timeout)
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


def checked_addresses(host: str, port: int, allow_private: bool) -> list[str]:
    """The addresses to connect to, in the resolver's order, once every address the host
    resolves to is found public (or `allow_private`)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise HookFailed(f"{host} could not be resolved: {exc}") from None
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    if not addresses:
        raise HookFailed(f"{host} could not be resolved")
    if not allow_private:
        for text in addresses:
            if not public(text):
                raise HookRefused(f"{host} resolves to {text}, a private address: webhooks "
                                  "go to public addresses only")
    return addresses


def public(text: str) -> bool:
    ip = ipaddress.ip_address(text.split("%", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_reserved
                or ip.is_multicast or ip.is_unspecified or not ip.is_global)


def _pinned(scheme: str, host: str, port: int, addresses: list[str],
            timeout: float) -> http.client.HTTPConnection:
    """An HTTP(S) connection speaking to `host` (its Host header, its TLS name and
    certificate) that connects to the first of `addresses` that answers: those checked,
    whatever the name says now."""
    if scheme == "https":
        conn = http.client.HTTPSConnection(host, port, timeout=timeout,
                                           context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)

    def to_checked_address(where, timeout=None, source_address=None):
        failed: OSError | None = None
        for address in addresses:
            try:
                return socket.create_connection((address, where[1]), timeout, source_address)
            except OSError as exc:
                failed = exc
        raise failed

    conn._create_connection = to_checked_address     # noqa: SLF001 - http.client's own seam
    return conn
