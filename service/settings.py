"""The server's settings, in one place: read from the environment once, overridden by `umpire serve` flags."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not an integer") from None


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
    verify_concurrency: int = 1  # bundles verified at once; more wait their turn or get 429
    cache_games: int = 1000  # game states kept in memory (least recently used first out)
    snapshot_every: int = 1000  # a snapshot of a game's state every N events
    create_token: str | None = None  # when set, POST /games needs `Authorization: Bearer <it>`
    create_per_minute: int = 120  # games one client may create per minute (0: no limit)

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        base = cls(
            db=os.environ.get("UMPIRE_DB", cls.db),
            cors_origins=_list("UMPIRE_CORS_ORIGINS"),
            data_dir=os.environ.get("UMPIRE_DATA_DIR", cls.data_dir),
            max_body=_int("UMPIRE_MAX_BODY", cls.max_body),
            max_bundle_body=_int("UMPIRE_MAX_BUNDLE_BODY", cls.max_bundle_body),
            max_bundle_events=_int("UMPIRE_MAX_BUNDLE_EVENTS", cls.max_bundle_events),
            max_dice_per_roll=_int("UMPIRE_MAX_DICE_PER_ROLL", cls.max_dice_per_roll),
            verify_concurrency=_int("UMPIRE_VERIFY_CONCURRENCY", cls.verify_concurrency),
            cache_games=_int("UMPIRE_CACHE_GAMES", cls.cache_games),
            snapshot_every=_int("UMPIRE_SNAPSHOT_EVERY", cls.snapshot_every),
            create_token=os.environ.get("UMPIRE_CREATE_TOKEN") or None,
            create_per_minute=_int("UMPIRE_CREATE_PER_MINUTE", cls.create_per_minute),
        )
        return dataclasses.replace(base, **{k: v for k, v in overrides.items() if v is not None})
