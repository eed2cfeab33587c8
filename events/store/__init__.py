"""The event store: SQLite by default (`sqlite.py`), PostgreSQL where several servers share one database
(`postgres.py`). Both keep the same guarantees behind the same interface (`rows.EventStore`), with the queries they
share in `sql.py`. What the service imports is re-exported here."""

from __future__ import annotations

from events.store.rows import (
    Begins,
    CommandRow,
    EventRow,
    EventStore,
    GameListRow,
    GameRow,
    HookRow,
    JobRow,
    NewEventRow,
    OutboxRow,
    StorageUnavailable,
    StoreConflict,
    StoreUnavailable,
    WouldBlock,
)
from events.store.sqlite import SQLiteStore

__all__ = [
    "Begins",
    "CommandRow",
    "EventRow",
    "EventStore",
    "GameListRow",
    "GameRow",
    "HookRow",
    "JobRow",
    "NewEventRow",
    "OutboxRow",
    "SQLiteStore",
    "StoreConflict",
    "StorageUnavailable",
    "StoreUnavailable",
    "WouldBlock",
    "open_store",
]


def open_store(url: str, sqlite_sync: str = "normal", start_wait: float = 300.0) -> EventStore:
    """The store a URL names: a SQLite file path (the default), or postgresql://… (events/store/postgres.py), waiting up to
    `start_wait` seconds for a PostgreSQL server that does not answer yet."""
    if url.startswith(("postgresql://", "postgres://")):
        from events.store.postgres import PostgresStore

        return PostgresStore(url, start_wait=start_wait)
    return SQLiteStore(url, synchronous=sqlite_sync)
