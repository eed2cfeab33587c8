"""Live streams wake on a notification, not by polling (issue 19, D6).

The write path calls `Notifier.appended(game_id)` once an append has committed. That wakes:

- the streams of this process at once (an in-process fan-out: one `call_soon_threadsafe` per event loop, whatever
  the number of subscribers);
- on PostgreSQL, the streams of every other process too: a sender thread `NOTIFY`s channel `umpire_events`
  (coalesced, one statement for the games appended since the last one) and each process with subscribers keeps one
  connection that `LISTEN`s on it;
- on SQLite, another process's streams are woken by a fallback check: while any stream is open, one thread of each
  process reads the heads and the credentials of the games streamed (one query for them all) every `stream_check`
  seconds (1 s) and wakes those that moved (a join appends no event, but changes what a stream's state says). On PostgreSQL the same check runs every 15 s while the listener is up (a safety net), and
  every `stream_check` seconds while it is down.

A wake-up only says "look again": the stream reads the store after it, so a spurious or coalesced wake-up costs one
read and a lost one is caught by the fallback check. Subscribe before reading, so an append between the read and
the wait is not missed (the subscription remembers it).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading
import time
import weakref
from typing import Any

log = logging.getLogger("umpire.notify")
CHANNEL = "umpire_events"
PG_SAFETY_CHECK = 15.0  # seconds between head checks on PostgreSQL while LISTEN works
_NOTIFIERS: weakref.WeakSet[Notifier] = weakref.WeakSet()  # this process's, for `shutting_down`


def shutting_down() -> None:
    """The server is stopping (its HTTP protocol says so as it begins a graceful shutdown: service/server.py): every
    stream of this process ends, else the shutdown would wait for clients that never leave. Each client reconnects
    (after the `retry:` the stream gave, resuming with Last-Event-ID) to another process or the restarted one."""
    for notifier in list(_NOTIFIERS):
        notifier.close_streams()


class Subscription:
    """One stream's interest in one game. `wait` runs on the stream's event loop; `_wake` is scheduled onto it."""

    __slots__ = ("game", "loop", "_future", "_woken")

    def __init__(self, game: str, loop: asyncio.AbstractEventLoop):
        self.game, self.loop = game, loop
        self._future: asyncio.Future | None = None
        self._woken = False

    def _wake(self) -> None:
        self._woken = True
        f = self._future
        if f is not None and not f.done():
            f.set_result(None)

    async def wait(self, timeout: float) -> bool:
        """True when the game may have moved since the last wait (or since subscribing), False after `timeout`."""
        if not self._woken:
            self._future = self.loop.create_future()
            try:
                async with asyncio.timeout(max(0.0, timeout)):
                    await self._future
            except TimeoutError:
                return False
            finally:
                self._future = None
        self._woken = False
        return True


def _wake_all(subs: list[Subscription]) -> None:
    for s in subs:
        s._wake()


class Notifier:
    """Who is streaming which game in this process, and how they are woken (the module's docstring)."""

    def __init__(self, store: Any, check_every: float = 1.0):
        self.store = store
        self.check_every = max(0.05, check_every)
        self.tag = f"{os.getpid()}.{secrets.token_hex(4)}"  # our own NOTIFYs come back to our listener: skip them
        self._subs: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._remote = hasattr(store, "notify") and hasattr(store, "listen")  # PostgreSQL
        self._pending: set[str] = set()
        self._pending_ready = threading.Event()
        self._sender: threading.Thread | None = None
        self._checker: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        self.listening = False  # the LISTEN connection is up
        self.sent = 0  # NOTIFY statements sent (tests, benchmarks)
        self.closing = False  # the server is stopping: streams end (`shutting_down`)
        _NOTIFIERS.add(self)

    # ---- the write path ----

    def appended(self, game_id: str) -> None:
        """An append to `game_id` committed (or a seat was taken, which changes what its streams' state says): wake its
        streams here, and (PostgreSQL) tell the other processes.
        Cheap when nobody streams (a dict lookup; on PostgreSQL a set add for the sender thread). Any thread."""
        self.wake(game_id)
        if self._remote:
            with self._lock:
                self._pending.add(game_id)
                if self._sender is None:
                    self._sender = self._thread(self._send_loop, "umpire-notify-send")
            self._pending_ready.set()

    def flush(self) -> None:
        """Send the NOTIFY of what is pending now, in this thread: at shutdown, before the store's connections close
        (else the sender thread finds them closed, and the other processes learn of the last appends only at their
        next check)."""
        with self._lock:
            games, self._pending = sorted(self._pending), set()
        if games:
            self._send(games)

    def _send(self, games: list[str]) -> bool:
        """One NOTIFY naming `games`; False when it failed (the other processes' fallback check still finds them)."""
        try:
            self.store.notify(CHANNEL, [f"{self.tag} {g}" for g in games])
            self.sent += 1
            return True
        except Exception as e:  # noqa: BLE001
            log.warning("NOTIFY failed (other processes' streams will see the events at their next check): %s", e)
            return False

    def wake(self, game_id: str) -> None:
        with self._lock:
            subs = list(self._subs.get(game_id) or ())
        if subs:
            self._wake(subs)

    def close_streams(self) -> None:
        """Every stream of this notifier ends at its next wake-up, which this is (`shutting_down`)."""
        self.closing = True
        with self._lock:
            subs = [s for group in self._subs.values() for s in group]
        self._wake(subs)

    @staticmethod
    def _wake(subs: list[Subscription]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for s in subs:
            by_loop.setdefault(s.loop, []).append(s)
        for loop, group in by_loop.items():
            try:
                loop.call_soon_threadsafe(_wake_all, group)
            except RuntimeError:  # that loop is closed: its streams are gone
                pass

    # ---- streams ----

    def subscribe(self, game_id: str) -> Subscription:
        """Called on the stream's event loop, before its first read."""
        sub = Subscription(game_id, asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
            if self._checker is None:
                self._checker = self._thread(self._check_loop, "umpire-notify-check")
            if self._remote and self._listener is None:
                self._listener = self._thread(self._listen_loop, "umpire-notify-listen")
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.game)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game]

    def subscribers(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subs.values())

    # ---- threads ----

    @staticmethod
    def _thread(target, name: str) -> threading.Thread:
        t = threading.Thread(target=target, name=name, daemon=True)
        t.start()
        return t

    def _games(self) -> list[str]:
        with self._lock:
            return list(self._subs)

    def _check_loop(self) -> None:
        """The fallback check: the heads and credentials of the streamed games (`marks`), one query every
        `check_every` seconds; exits when no stream is left (the next subscription starts it again)."""
        known: dict[str, tuple[int, str]] = {}
        last = 0.0
        while True:
            time.sleep(self.check_every)
            games = self._games()
            if not games:
                with self._lock:
                    if not self._subs:
                        self._checker = None
                        return
                continue
            every = PG_SAFETY_CHECK if self._remote and self.listening else self.check_every
            if time.monotonic() - last < every:
                continue
            last = time.monotonic()
            try:
                marks = self.store.marks(games)
            except Exception as e:  # noqa: BLE001 - a closed or unreachable store: try again at the next check
                log.debug("stream head check failed: %s", e)
                continue
            for g in games:
                mark = marks.get(g, (0, ""))
                if known.get(g) != mark:  # moved, or first seen (it may have moved before we looked): look again
                    known[g] = mark
                    self.wake(g)
            streamed = set(games)
            for g in [g for g in known if g not in streamed]:
                del known[g]

    def _send_loop(self) -> None:
        """PostgreSQL: NOTIFY the games appended since the last round, in one statement; exits after a quiet minute
        (the next append starts it again)."""
        while True:
            if not self._pending_ready.wait(timeout=60):
                with self._lock:
                    if not self._pending:
                        self._sender = None
                        return
            with self._lock:
                self._pending_ready.clear()
                games, self._pending = sorted(self._pending), set()
            if games and not self._send(games):
                time.sleep(0.5)

    def _listen_loop(self) -> None:
        """PostgreSQL: one connection LISTENing for the other processes' appends; reconnects with backoff (waking
        every stream once it is back, as something may have been missed); exits when no stream is left."""
        backoff = 0.5
        while True:
            if not self._games():
                with self._lock:
                    if not self._subs:
                        self._listener = None
                        self.listening = False
                        return
            try:
                conn = self.store.listen(CHANNEL)
            except Exception as e:  # noqa: BLE001
                self.listening = False
                log.warning(
                    "LISTEN %s failed, streams fall back to a check every %.1f s: %s", CHANNEL, self.check_every, e
                )
                time.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
                continue
            backoff = 0.5
            self.listening = True
            for g in self._games():
                self.wake(g)
            try:
                with conn:
                    while True:
                        for n in conn.notifies(timeout=1.0):
                            tag, _, game = n.payload.partition(" ")
                            if tag != self.tag:
                                self.wake(game)
                        if not self._games():
                            break
            except Exception as e:  # noqa: BLE001
                log.warning("the LISTEN connection was lost, reconnecting: %s", e)
            self.listening = False
