"""Per-client rates over a sliding window (a minute unless said), in this process (docs/operations.md "Public work is
bounded")."""

from __future__ import annotations

import threading
import time
from collections import deque

from service.http import TooMany


class PerWindow:
    """At most `limit` events per client in any `window` seconds (0: no limit); `take` raises 429 with Retry-After
    beyond."""

    def __init__(self, limit: int, what: str, window: float = 60.0):
        self.limit = limit
        self.what = what
        self.window = window
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        if self.limit <= 0:
            return
        now = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(client, deque())
            while seen and seen[0] <= now - self.window:
                seen.popleft()
            if len(seen) >= self.limit:
                wait = int(seen[0] + self.window - now) + 1
                raise TooMany(
                    "too-many-requests",
                    f"at most {self.limit} {self.what} {'a minute' if self.window == 60 else f'in {self.window:g} s'} "
                    f"from one client; retry in {wait} s",
                    retry_after=wait,
                    limit=self.limit,
                )
            seen.append(now)
            if len(self._seen) > 10_000:  # forget the quiet ones
                for key in [k for k, v in self._seen.items() if not v or v[-1] <= now - self.window]:
                    del self._seen[key]

    def give_back(self, client: str) -> None:
        """The last `take` of `client` did nothing after all (what it was for was refused): it counts no more."""
        with self._lock:
            seen = self._seen.get(client)
            if seen:
                seen.pop()
