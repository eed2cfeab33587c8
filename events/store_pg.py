"""The PostgreSQL store (psycopg 3): the same tables, guarantees and queries as SQLite's (events/store.py), for
several server processes, or machines, on one database. `umpire serve --db postgresql://user@host/dbname`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from events.store import _INSERT_COMMAND, CommandRow, NewEvent, SQLStore, StoreConflict

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, ruleset_version TEXT NOT NULL, data_sha256 TEXT NOT NULL,
    mode TEXT NOT NULL, server_seed TEXT NOT NULL, server_commit TEXT NOT NULL, tokens TEXT NOT NULL,
    created_at TEXT NOT NULL, bots TEXT);
CREATE TABLE IF NOT EXISTS events (
    global_position BIGSERIAL PRIMARY KEY, game TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL,
    type TEXT NOT NULL, v INTEGER NOT NULL, body TEXT NOT NULL, hash TEXT NOT NULL, command_id TEXT, actor TEXT,
    recorded_at TEXT NOT NULL, sealed TEXT, roll_k BIGINT, UNIQUE (game, seq));
CREATE INDEX IF NOT EXISTS events_type ON events (game, type, seq);
CREATE INDEX IF NOT EXISTS events_roll ON events (game, roll_k) WHERE roll_k IS NOT NULL;
CREATE TABLE IF NOT EXISTS commands (
    game TEXT NOT NULL, command_id TEXT NOT NULL, seat TEXT NOT NULL, payload TEXT NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, recorded_at TEXT, PRIMARY KEY (game, command_id));
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL,
    done INTEGER NOT NULL, total INTEGER NOT NULL, result TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    game TEXT NOT NULL, seq INTEGER NOT NULL, engine TEXT NOT NULL, state BYTEA NOT NULL,
    PRIMARY KEY (game, seq, engine));
"""
_SCHEMA_LOCK = 4_242_1942  # an advisory lock: processes starting together create the schema one at a time


_INSERT_EVENT_HEAD = (
    "INSERT INTO events (game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed, roll_k) VALUES"
)


def _pg(sql: str) -> str:
    return re.sub(r"\?", "%s", sql)


class PostgresStore(SQLStore):
    def __init__(self, url: str, max_connections: int = 10):
        self.path = url
        self.pool = ConnectionPool(url, min_size=1, max_size=max_connections, kwargs={"autocommit": True}, open=True)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(SCHEMA)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self.pool.connection() as conn:
            return conn.execute(_pg(sql), params).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection]:
        with self.pool.connection() as conn, conn.transaction():
            yield conn

    def _execute(self, conn: psycopg.Connection, sql: str, params: Sequence[Any] = ()) -> None:
        conn.execute(_pg(sql), params)

    def _insert_many(self, conn: psycopg.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(_pg(sql), rows)

    def append(self, events: list[NewEvent], command: CommandRow) -> None:
        """A command's events and its command row in one statement (a data-modifying WITH): one round trip, and one
        transaction as every single statement is. A taken seq or command id fails the whole statement."""
        if not 0 < len(events) <= 1000:  # the statement's parameters stay well under PostgreSQL's limit
            return super().append(events, command)
        values = ",".join(["(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"] * len(events))
        sql = f"WITH e AS ({_pg(_INSERT_EVENT_HEAD)} {values}) {_pg(_INSERT_COMMAND)}"
        params = [x for e in events for x in e]
        params += [command.game, command.command_id, command.seat, command.payload]
        params += [command.first_seq, command.last_seq, command.recorded_at]
        try:
            with self.pool.connection() as conn:
                conn.execute(sql, params)
        except psycopg.errors.UniqueViolation as e:
            raise StoreConflict(str(e)) from e

    def _is_conflict(self, e: Exception) -> bool:
        return isinstance(e, psycopg.errors.UniqueViolation)

    def close(self) -> None:
        self.pool.close()
