"""Log lines that a failing store repeats: at most one per condition every few seconds, never a traceback per request."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("umpire.store")


class Every:
    """A log line per condition at most every `seconds`: a full disk answers every write, and a line (never a
    traceback) per request would bury the log (issue 34: 1,369 tracebacks in 8 s)."""

    def __init__(self, seconds: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.seconds, self.clock = seconds, clock
        self.last: dict[str, float] = {}
        self.quiet: dict[str, int] = {}
        self.lock = threading.Lock()

    def warn(self, condition: str, message: str) -> bool:
        """Log `message` unless `condition` was logged less than `seconds` ago; whether it was logged."""
        now = self.clock()
        with self.lock:
            if now - self.last.get(condition, -1e18) < self.seconds:
                self.quiet[condition] = self.quiet.get(condition, 0) + 1
                return False
            self.last[condition] = now
            held = self.quiet.pop(condition, 0)
        more = f" ({held} more since the last line)" if held else ""
        log.error("%s%s", message, more)
        return True


STORAGE_LOG = Every()  # the store cannot write (a full disk, read-only), or does not answer: requests and loops alike
