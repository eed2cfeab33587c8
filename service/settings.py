"""The server's settings, in one place: read from the environment once, overridden by `umpire serve` flags."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass


def _int(name: str, default: int, least: int = 0, what: str = "") -> int:
    """A whole number of at least `least` (every count and limit here: none is negative; 0 is "no limit" for the
    limits that say so, and a concurrency of 0 would serve nothing); `what` ends a refusal, saying what it counts."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not an integer{what}") from None
    if value < least:
        raise SystemExit(f"{name}={value} must be {least} or more{what}")
    return value


def _choice(name: str, default: str, allowed: tuple[str, ...]) -> str:
    raw = (os.environ.get(name) or default).lower()
    if raw not in allowed:
        raise SystemExit(f"{name}={raw!r} must be one of: {', '.join(allowed)}")
    return raw


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not a number") from None


def _webhook_allow(name: str) -> str:
    raw = os.environ.get(name, "")
    from service.webhooks import Allow  # its one parser (at start only)

    try:
        Allow(raw)
    except ValueError as e:
        raise SystemExit(f"{name}: {e}; give comma-separated host names, addresses or CIDR ranges") from None
    return raw


def _list(name: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in os.environ.get(name, "").split(",") if x.strip())


@dataclass(frozen=True)
class Settings:
    db: str = "umpire.db"  # a SQLite file, or postgresql://… (docs/operations.md)
    cors_origins: tuple[str, ...] = ()
    data_dir: str = "data-sets"  # where options.data_file is looked up: <dir>/<ruleset>/<name>.json
    max_body: int = 256 * 1024  # request bodies, bytes
    max_bundle_body: int = 64 * 1024 * 1024  # POST /bundles/verify, bytes
    max_bundle_events: int = 200_000  # events in a bundle sent to POST /bundles/verify
    max_dice_per_roll: int = 64  # dice in one roll of a bundle sent to POST /bundles/verify
    max_bundle_commands: int = 100_000  # commands in a bundle sent to POST /bundles/verify
    verify_concurrency: int = 1  # bundles verified at once (worker processes); more wait their turn or get 429
    verify_queue_seconds: int = 20  # how long a bundle waits for a worker before 429
    verify_cpu_seconds: int = 30  # CPU time one verification may take in its worker (413 beyond; 0: no limit)
    verify_memory_mb: int = 2048  # address space of a verification worker (413 beyond; 0: no limit)
    cache_games: int = 1000  # game states kept in memory (least recently used first out)
    snapshot_every: int = 1000  # a snapshot of a game's state every N events
    create_token: str | None = None  # when set, POST /games needs `Authorization: Bearer <it>`
    metrics_token: str | None = None  # GET /metrics answers only `Authorization: Bearer <it>` (off when unset)
    create_per_minute: int = 120  # games one client may create per minute, counted in the store (0: no limit)
    trusted_proxies: tuple[str, ...] = ()  # addresses whose X-Forwarded-For is believed (none by default)
    header_timeout: float = 10.0  # seconds a request's head (request line and headers) may take to arrive
    body_timeout: float = 30.0  # seconds a request's body may take to arrive (4x for POST /bundles/verify)
    max_connections: int = 2000  # open connections per process; beyond, a new one gets 503 and is closed (0: no cap)
    stream_check: float = 1.0  # seconds between live streams' fallback checks of the store (another process)
    cache_mb: int = 512  # estimated memory of the cached game states, MiB (beside cache_games)
    db_start_wait: float = 300.0  # seconds to keep trying an unreachable PostgreSQL at start (negative: for ever)
    large_answers_per_minute: int = 30  # bundles over 1 MiB one client may fetch per minute (0: no limit)
    sqlite_sync: str = "normal"  # SQLite: normal (survives a process crash) or full (also power loss; ~1 ms/command)
    webhook_allow: str = ""  # hosts, addresses or CIDR ranges webhooks may reach although private (docs/operations.md)
    webhook_backoff: float = 10.0  # seconds before a failed webhook's first retry; doubled each time, capped at 1 h
    webhook_poll: float = 1.0  # seconds between the dispatcher's looks for due retries and other processes' rows
    webhook_concurrency: int = 8  # webhook deliveries in flight at once, per process
    webhook_lease: float = 60.0  # seconds a claimed webhook is its process's; then another may take it (crash)
    outbox_keep_days: int = 30  # days a settled notification is kept (GET …/notifications); 0: kept for ever
    smtp: str = ""  # the SMTP server e-mail notifications go through: smtp://, smtp+starttls://, smtps:// (off unset)
    mail_from: str = ""  # the address those mails come from (needed with smtp)
    public_url: str = ""  # the server's address as players reach it, for links in mails (none unset)
    log_format: str = "text"  # the server's log lines: text, or json (one object per line; docs/operations.md "Logs")
    deadline_poll: float = 2.0  # seconds between a process's looks for turn clocks run out (docs/api.md "Deadlines")
    telemetry: str = "auto"  # FastAPI's OpenTelemetry: on, off, or auto (on when OpenTelemetry is set up at start)

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        base = cls(
            db=os.environ.get("UMPIRE_DB", cls.db),
            cors_origins=_list("UMPIRE_CORS_ORIGINS"),
            data_dir=os.environ.get("UMPIRE_DATA_DIR", cls.data_dir),
            max_body=_int("UMPIRE_MAX_BODY", cls.max_body, least=1),
            max_bundle_body=_int("UMPIRE_MAX_BUNDLE_BODY", cls.max_bundle_body, least=1),
            max_bundle_events=_int("UMPIRE_MAX_BUNDLE_EVENTS", cls.max_bundle_events),
            max_dice_per_roll=_int("UMPIRE_MAX_DICE_PER_ROLL", cls.max_dice_per_roll),
            max_bundle_commands=_int("UMPIRE_MAX_BUNDLE_COMMANDS", cls.max_bundle_commands),
            verify_concurrency=_int("UMPIRE_VERIFY_CONCURRENCY", cls.verify_concurrency, least=1),
            verify_queue_seconds=_int("UMPIRE_VERIFY_QUEUE_SECONDS", cls.verify_queue_seconds),
            verify_cpu_seconds=_int("UMPIRE_VERIFY_CPU_SECONDS", cls.verify_cpu_seconds),
            verify_memory_mb=_int("UMPIRE_VERIFY_MEMORY_MB", cls.verify_memory_mb),
            cache_games=_int("UMPIRE_CACHE_GAMES", cls.cache_games),
            snapshot_every=_int("UMPIRE_SNAPSHOT_EVERY", cls.snapshot_every),
            create_token=os.environ.get("UMPIRE_CREATE_TOKEN") or None,
            metrics_token=os.environ.get("UMPIRE_METRICS_TOKEN") or None,
            create_per_minute=_int("UMPIRE_CREATE_PER_MINUTE", cls.create_per_minute),
            trusted_proxies=_list("UMPIRE_TRUSTED_PROXIES"),
            header_timeout=_float("UMPIRE_HEADER_TIMEOUT", cls.header_timeout),
            body_timeout=_float("UMPIRE_BODY_TIMEOUT", cls.body_timeout),
            max_connections=_int("UMPIRE_MAX_CONNECTIONS", cls.max_connections),
            stream_check=_float("UMPIRE_STREAM_CHECK", cls.stream_check),
            cache_mb=_int("UMPIRE_CACHE_MB", cls.cache_mb),
            db_start_wait=db_start_wait(),
            large_answers_per_minute=_int("UMPIRE_LARGE_ANSWERS_PER_MINUTE", cls.large_answers_per_minute),
            sqlite_sync=_choice("UMPIRE_SQLITE_SYNC", cls.sqlite_sync, ("normal", "full")),
            webhook_allow=_webhook_allow("UMPIRE_WEBHOOK_ALLOW"),
            webhook_backoff=_float("UMPIRE_WEBHOOK_BACKOFF", cls.webhook_backoff),
            webhook_poll=_float("UMPIRE_WEBHOOK_POLL", cls.webhook_poll),
            deadline_poll=_float("UMPIRE_DEADLINE_POLL", cls.deadline_poll),
            smtp=os.environ.get("UMPIRE_SMTP", cls.smtp),
            mail_from=os.environ.get("UMPIRE_MAIL_FROM", cls.mail_from),
            public_url=os.environ.get("UMPIRE_PUBLIC_URL", cls.public_url),
            log_format=_choice("UMPIRE_LOG_FORMAT", cls.log_format, ("text", "json")),
            webhook_concurrency=_int("UMPIRE_WEBHOOK_CONCURRENCY", cls.webhook_concurrency, least=1),
            webhook_lease=_float("UMPIRE_WEBHOOK_LEASE", cls.webhook_lease),
            outbox_keep_days=_int(
                "UMPIRE_OUTBOX_KEEP_DAYS", cls.outbox_keep_days, what=": a number of days (0: kept for ever)"
            ),
            telemetry=_choice("UMPIRE_TELEMETRY", cls.telemetry, ("auto", "on", "off")),
        )
        return dataclasses.replace(base, **{k: v for k, v in overrides.items() if v is not None})


def db_start_wait() -> float:
    """UMPIRE_DB_START_WAIT, which the command line's store commands (`umpire verify --db`, `export`, …) heed too."""
    return _float("UMPIRE_DB_START_WAIT", Settings.db_start_wait)
