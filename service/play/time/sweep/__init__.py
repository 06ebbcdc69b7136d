"""The periodic sweep: reminders and timeouts that are due, replies waiting, stalled bots, mail to send."""

from . import timeouts
from .periodic import sweep, timers

__all__ = ["sweep", "timeouts", "timers"]
