"""The periodic sweep: reminders and timeouts that are due, replies waiting, stalled bots, mail to send."""

from . import timeouts
from .periodic import sweep, timers, timers_shard

__all__ = ["sweep", "timeouts", "timers", "timers_shard"]
