"""`POST /bundles/verify` off the server process: each bundle is decoded, capped and verified in a worker process
with a CPU-time and a memory limit, so however large or crafted a bundle is, the server's own process never stalls
(docs/operations.md "Public work is bounded"). Clients take turns: one bundle at a time per client, the others wait
their turn in order for a while, then get 429.

The worker opens the server's store itself (read only) to look up a held game's seed and records
(`Bundles.server_inputs_if_stored`); an in-memory store (tests) cannot be shared, so its bundles are verified in
a thread of the server's process instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import multiprocessing
import resource
import signal
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from domain.engine import InvalidInput, Rejected
from events.bundle import body_data, decode_bundle, why_not
from service.http import TooLarge, TooMany, whole_numbers
from service.metrics import VERIFY_SECONDS
from service.rulesets import serve_the_same, what_a_worker_serves
from service.settings import Settings

if TYPE_CHECKING:
    from service.rulesets import Loaded

_worker_store: dict[str, Any] = {}


def check_caps(bundle, settings: Settings) -> None:
    """The documented caps of what this server verifies (413 bundle-too-large names the cap; `umpire verify` has
    none). Checked on the decoded bundle, in the worker."""
    counted = (("events", len(bundle.events), settings.max_bundle_events),
               ("commands", len(bundle.commands), settings.max_bundle_commands))
    for what, n, cap in counted:
        if n > cap:
            raise TooLarge(
                "bundle-too-large",
                f"this server verifies bundles of at most {cap} {what}; this one has {n}: verify it offline with "
                "`umpire verify`",
                limit=cap,
                cap=what,
            )
    for e in bundle.events:
        if e.body.get("type") == "DiceRolled":
            sides = body_data(e.body).get("sides")
            if isinstance(sides, list) and len(sides) > settings.max_dice_per_roll:
                raise TooLarge(
                    "bundle-too-large",
                    f"roll at seq {e.body.get('seq')} has {len(sides)} dice; this server checks at most "
                    f"{settings.max_dice_per_roll} per roll: verify it offline with `umpire verify`",
                    limit=settings.max_dice_per_roll,
                    cap="dice per roll",
                )


def read_bundle(raw: bytes):
    """The uploaded bundle. A `seqs` entry written `2.0` is the integer its schema allows (in a fork's parents too);
    the event bodies are read as they are, since their bytes are what the chain hashes."""
    try:
        return decode_bundle(raw)
    except msgspec.ValidationError:
        data = part = msgspec.json.decode(raw)
        while isinstance(part, dict):
            commands = part.get("commands")
            for c in commands if isinstance(commands, list) else []:
                if isinstance(c, dict) and "seqs" in c:
                    c["seqs"] = whole_numbers(c["seqs"])
            part = part.get("parent")
        return decode_bundle(data)


def verify_body(raw: bytes, settings: Settings, seed_lookup, rulesets: Mapping[str, Loaded]) -> dict[str, Any]:
    """Decode, cap and verify one uploaded bundle (in a worker, or in a thread for an in-memory store)."""
    from service.replay import verify

    try:
        bundle = read_bundle(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as e:
        raise InvalidInput("invalid-bundle", f"the body is {why_not(raw, e)} (docs/bundles.md)")
    check_caps(bundle, settings)
    return verify(bundle, seed_lookup, rulesets)


def _init_worker(memory_mb: int) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the server stops its workers itself (Verifier.close), so
    # a worker does not die of it with a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _in_worker(
    raw: bytes, settings: Settings, store_url: str, served: list[str], changed: dict
) -> tuple[str, Any]:
    """One verification in a worker: ("ok", report) or ("rejected", (status, code, detail, extra))."""
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    try:
        # the worker's own set-up first, outside any budget (a fresh worker imports the service and opens the store
        # here; the last bundle's limit still stands), so that the bundle's budget is the bundle's
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
        rulesets = serve_the_same(served, changed)
        store = _worker_store.get(store_url)
        if store is None:
            from events.store import open_store

            store = _worker_store[store_url] = open_store(store_url)
        from service.games import GameService

        lookup = GameService(store, settings=settings, rulesets=rulesets).bundles.server_inputs_if_stored
        if settings.verify_cpu_seconds > 0:  # this bundle's budget, on top of what the worker has used so far
            used = resource.getrusage(resource.RUSAGE_SELF)
            spent = math.ceil(used.ru_utime + used.ru_stime)  # RLIMIT_CPU counts whole seconds: never less than given
            resource.setrlimit(resource.RLIMIT_CPU, (spent + settings.verify_cpu_seconds, hard))
        return "ok", verify_body(raw, settings, lookup, rulesets)
    except Rejected as e:
        return "rejected", (e.status, e.code, e.detail, e.extra)
    except MemoryError:
        return "rejected", (
            413,
            "bundle-too-large",
            f"verifying this bundle needs more than the {settings.verify_memory_mb} MiB this server gives one "
            "verification: verify it offline with `umpire verify`",
            {"cap": "memory", "limit": settings.verify_memory_mb},
        )


class Verifier:
    """The worker pool and the queue in front of it."""

    def __init__(self, settings: Settings, store_url: str, seed_lookup, rulesets: Mapping[str, Loaded]):
        self.settings = settings
        self.rulesets = rulesets  # what the bundles are replayed with: the service's
        self.store_url = store_url  # the worker opens the store the server uses
        self.seed_lookup = seed_lookup  # for an in-memory store, verified in a thread here
        self.in_process = store_url == ":memory:"
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(max(1, settings.verify_concurrency))
        self._clients: set[str] = set()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=max(1, self.settings.verify_concurrency),
                mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded server
                initializer=_init_worker,
                initargs=(self.settings.verify_memory_mb,),
            )
        return self._pool

    async def verify(self, raw: bytes, client: str) -> dict[str, Any]:
        if client in self._clients:
            raise TooMany(
                "too-many-requests", "this client has a bundle being verified; send the next when it is done",
                retry_after=2,
            )
        self._clients.add(client)
        try:
            try:
                await asyncio.wait_for(self._slots.acquire(), self.settings.verify_queue_seconds)
            except TimeoutError:
                raise TooMany(
                    "too-many-requests", "the server is verifying other clients' bundles; retry in a few seconds",
                    retry_after=5,
                ) from None
            started = time.perf_counter()
            try:
                return await self._run(raw)
            finally:
                self._slots.release()
                VERIFY_SECONDS.observe(time.perf_counter() - started)
        finally:
            self._clients.discard(client)

    async def _run(self, raw: bytes) -> dict[str, Any]:
        if self.in_process:
            return await asyncio.to_thread(verify_body, raw, self.settings, self.seed_lookup, self.rulesets)
        loop = asyncio.get_running_loop()
        try:
            status, out = await loop.run_in_executor(
                self._executor(), _in_worker, raw, self.settings, self.store_url, *what_a_worker_serves(self.rulesets)
            )
        except concurrent.futures.process.BrokenProcessPool:  # the CPU limit ended the worker (SIGXCPU)
            self._pool = None
            raise TooLarge(
                "bundle-too-large",
                f"verifying this bundle takes more than the {self.settings.verify_cpu_seconds} CPU seconds this "
                "server gives one verification: verify it offline with `umpire verify`",
                cap="cpu seconds",
                limit=self.settings.verify_cpu_seconds,
            ) from None
        if status == "ok":
            return out
        code_status, code, detail, extra = out
        e = Rejected(code, detail, **extra)
        e.status = code_status
        raise e

    def close(self) -> None:
        """Stop the workers (the app's shutdown): a verification under way is abandoned, not waited for (its client
        is gone with the server), so stopping never waits out a bundle's CPU budget.

        Then wait for the pool's manager thread: it holds the pool's two queues, whose five semaphores are released
        (unlinked) only when the last reference to them goes. uvicorn ends a SIGTERM'd server by raising the signal
        again as soon as the shutdown is over, which skips exit handlers: a thread still winding down then (a loaded
        machine) left them to the resource tracker, which warned of "5 leaked semaphore objects"."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # no public way to these before Python 3.14's terminate_workers
        workers = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for w in workers:
            w.terminate()
        for w in workers:
            w.join(5)
        if manager is not None:
            manager.join(5)  # its workers are gone: it only closes the queues and ends
