"""`GET /metrics` in the Prometheus text format (issue 34 item 3; docs/operations.md "Metrics" lists the series).

prometheus-client's own values: in one process its registry; under `uvicorn service.asgi:app --workers N` with
PROMETHEUS_MULTIPROC_DIR set (an empty directory, made before the server starts), every worker writes its values
there and any worker's /metrics sums them (prometheus-client's multiprocess mode). What a scrape reads from the
store (the webhook outbox's depth, the games on a clock) is asked at scrape time, once, whichever worker answers.

The command path pays one labelled counter and one histogram observation per command, the children looked up once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from domain.engine import Forbidden
from service.credentials import Unauthorized, is_operator_token

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
if MULTIPROCESS and not os.path.isdir(os.environ["PROMETHEUS_MULTIPROC_DIR"]):
    # checked before the first metric is made below (it opens its file there): else every worker dies with a
    # FileNotFoundError, and its replacement again, for ever
    raise SystemExit(
        f"umpire: PROMETHEUS_MULTIPROC_DIR={os.environ['PROMETHEUS_MULTIPROC_DIR']} is not a directory: make it "
        "(empty) before the server starts, or unset it for one process (docs/operations.md \"Metrics\")"
    )
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)  # seconds: a command is ~0.2-20 ms

COMMANDS = Counter("umpire_commands", "Commands sent, by ruleset and outcome (ok, refused, unavailable, error)", ["ruleset", "outcome"])
COMMAND_SECONDS = Histogram("umpire_command_seconds", "Time from a command's body read to its answer", buckets=_FAST)
APPEND_SECONDS = Histogram("umpire_append_seconds", "Time the store takes to append one command", buckets=_FAST)
VERIFY_SECONDS = Histogram(
    "umpire_verify_seconds", "Time to verify an uploaded bundle (POST /bundles/verify)", buckets=(0.01, 0.1, 1, 10, 60)
)
CACHE_GAMES = Gauge("umpire_cache_games", "Game states held in memory", multiprocess_mode="livesum")
CACHE_EVICTIONS = Counter("umpire_cache_evictions", "Game states dropped from memory to stay within the cache's bounds")
STREAMS_OPEN = Gauge("umpire_streams_open", "Live event streams open now", multiprocess_mode="livesum")
DELIVERIES = Counter("umpire_webhook_deliveries", "Webhook delivery attempts, by outcome", ["outcome"])

_children: dict[tuple[str, str], Any] = {}



def scraper_may(token: str | None, sent: str | None) -> None:
    """A scrape needs the server's metrics token (UMPIRE_METRICS_TOKEN): the series count every game's commands, the
    refused ones too, and the streams open, so an open /metrics told a player when the other seat was online and
    sending; off while no token is set."""
    if token is None:
        raise Forbidden(
            "metrics-off",
            "this server serves GET /metrics only when started with UMPIRE_METRICS_TOKEN; scrape with "
            "Authorization: Bearer <that token> (docs/operations.md \"Metrics\")",
        )
    if not is_operator_token(sent, token):
        raise Unauthorized("metrics-token-required", "send Authorization: Bearer <the server's UMPIRE_METRICS_TOKEN>")


def command_done(ruleset: str, outcome: str, seconds: float) -> None:
    """One command's count and time (the labelled child made once per pair)."""
    child = _children.get((ruleset, outcome))
    if child is None:
        child = _children[(ruleset, outcome)] = COMMANDS.labels(ruleset, outcome)
    child.inc()
    COMMAND_SECONDS.observe(seconds)


class FromStore:
    """What a scrape asks the store: notifications waiting in the outbox, games whose turn clock runs."""

    def __init__(self, outbox_pending: Callable[[], int], clocks: Callable[[], int]):
        self.outbox_pending, self.clocks = outbox_pending, clocks

    def collect(self):
        try:
            pending, clocked = self.outbox_pending(), self.clocks()
        except Exception:  # noqa: BLE001 - the store away: the scrape still answers the process's own series
            return
        yield GaugeMetricFamily("umpire_webhook_outbox_pending", "Webhook notifications not delivered yet", value=pending)
        yield GaugeMetricFamily("umpire_deadlines_pending", "Games whose turn clock runs (not over)", value=clocked)


def exposition(store_series: FromStore) -> tuple[bytes, str]:
    """The text a scrape answers, and its content type."""
    registry = CollectorRegistry()
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY

        registry = REGISTRY
    registry.register(store_series)
    try:
        return generate_latest(registry), CONTENT_TYPE_LATEST
    finally:
        registry.unregister(store_series)


def process_ended() -> None:
    """A worker going away takes its live gauges with it (multiprocess mode)."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


