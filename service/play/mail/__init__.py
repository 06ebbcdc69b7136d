"""Mail in (intake, replies, bounces) and out (the relay, letters, digests)."""

from . import awayoffers, digest, intake, relay, replies, rerun
from .intake import accept_mail
from .relay import deliver, prepare_to_render, requeue
from .replies import process

__all__ = [
    "awayoffers",
    "accept_mail",
    "deliver",
    "digest",
    "intake",
    "prepare_to_render",
    "process",
    "relay",
    "replies",
    "requeue",
    "rerun",
]
