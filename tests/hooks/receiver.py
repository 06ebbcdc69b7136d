"""A real HTTP endpoint for the webhook tests: http.server on 127.0.0.1 in a thread, keeping
every request's path, headers and raw body, answering with the status it is told."""
from __future__ import annotations

import hashlib
import hmac
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    raw: bytes


@dataclass
class Endpoint:
    url: str
    got: list[Received] = field(default_factory=list)
    status: int = 204
    location: str = ""

    def verifies(self, secret: str, delivery: Received) -> bool:
        """The receiver's check: the HMAC-SHA256 of the raw body, compared in constant time."""
        want = "sha256=" + hmac.new(secret.encode(), delivery.raw, hashlib.sha256).hexdigest()
        return hmac.compare_digest(want, delivery.headers.get("X-Turnpost-Signature", ""))


class Receiver:
    """`with Receiver() as endpoint:` an endpoint at endpoint.url until the block ends."""

    def __enter__(self) -> Endpoint:
        endpoint = None

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):   # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                endpoint.got.append(Received(self.path, dict(self.headers.items()), raw))
                self.send_response(endpoint.status)
                if endpoint.location:
                    self.send_header("Location", endpoint.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        endpoint = Endpoint(f"http://127.0.0.1:{self.server.server_port}/hook")
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return endpoint

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
