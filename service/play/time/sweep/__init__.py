"""The periodic sweep: reminders and timeouts that are due, replies waiting, stalled bots, mail to
send; and, daily, the rows past their retention."""

from . import timeouts
from .periodic import sweep, timers, timers_shard
from .retention import Pruned, prune

__all__ = ["Pruned", "prune", "sweep", "timeouts", "timers", "timers_shard"]
