"""Outgoing webhooks, the transport beside email (issue 51): the body each kind of endpoint
takes and its signature (`bodies`), and one POST to one endpoint, refused toward private
addresses (`sending`). Knows nothing of games, players or the store: the use cases
(service.play.webhooks) say what to send, the outbox relay sends it."""

from .bodies import KINDS, body, signature
from .sending import HookFailed, HookRefused, post

__all__ = ["KINDS", "HookFailed", "HookRefused", "body", "post", "signature"]
