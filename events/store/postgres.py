"""The PostgreSQL store (psycopg 3): the same tables, guarantees and queries as SQLite's (events/store/sqlite.py), for
several server processes, or machines, on one database. `umpire serve --db postgresql://user@host/dbname`."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec
import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from events.store.rows import (
    CommandRow,
    NewEventRow,
    OutboxRow,
    StorageUnavailable,
    StoreConflict,
    StoreUnavailable,
    redacted,
)
from events.store.sql import HOOK_SCHEMA, INSERT_COMMAND, INSERT_EVENT_HEAD, Rows, SessionLocal, SQLStore

# what PostgreSQL answers when it cannot take a write now: the statement failed and its transaction was rolled back
_CANNOT_WRITE: tuple[tuple[type[Exception], str], ...] = (
    (psycopg.errors.DiskFull, "full"),
    (psycopg.errors.InsufficientResources, "full"),
    (psycopg.errors.ReadOnlySqlTransaction, "read-only"),
)


def cannot_write(e: Exception) -> StorageUnavailable | None:
    for kind, condition in _CANNOT_WRITE:
        if isinstance(e, kind):
            return StorageUnavailable(f"PostgreSQL cannot write ({condition}): {e}", condition)
    return None


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
CREATE TABLE IF NOT EXISTS creations (
    client TEXT NOT NULL, minute BIGINT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (client, minute));
""" + "".join(ddl + ";\n" for ddl in HOOK_SCHEMA) + """
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS pending INTEGER NOT NULL DEFAULT 0;
"""  # a database made before e-mail targets
log = logging.getLogger("umpire.store")
# what PostgreSQL says when it answered and will not take the URL as it is: no retry makes it answer otherwise
_REFUSED = ("does not exist", "authentication failed", "no pg_hba.conf entry", "permission denied")
_SCHEMA_LOCK = 4_242_1942  # an advisory lock: processes starting together create the schema one at a time


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


class PostgresStore(SQLStore):
    def __init__(self, url: str, max_connections: int = 10, start_wait: float = 300.0):
        self.path = url
        self._sessions = SessionLocal()
        self._wait_for_server(url, start_wait)
        # every connection is checked as it is handed out (one round trip), so a restarted or terminated backend
        # costs a reconnect, never a request
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True},
            check=ConnectionPool.check_connection,
            timeout=10,
            open=True,
        )
        try:
            with self.pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                conn.execute(SCHEMA)
        except psycopg.errors.InsufficientPrivilege as e:  # a role that may not create or alter the server's tables
            self.pool.close()
            raise SystemExit(
                f"umpire: the role in {redacted(url)} may not create or change the server's tables "
                f"({str(e).splitlines()[0]}). Make it the "
                "owner of the database and of its tables (createdb -O <role> <database>; for a database another role "
                "created or restored: ALTER DATABASE … OWNER TO <role>, ALTER SCHEMA public OWNER TO <role> and ALTER "
                "TABLE … OWNER TO <role> for each of its tables), as docs/operations.md \"Several processes\" and "
                "\"Backups and restore\" say"
            ) from None
        except psycopg.errors.ReadOnlySqlTransaction:  # a read-only database (a standby, a locked-down role)
            with self.pool.connection() as conn:
                found = [conn.execute("SELECT to_regclass(%s)", (t,)).fetchone() for t in ("games", "events", "commands")]
                missing = [row for row in found if row is None or row[0] is None]
            if missing:
                raise
            # its schema is there: reads are served and writes answer 503 storage-unavailable until it takes them
            log.warning("PostgreSQL at %s is read-only: writes answer 503 storage-unavailable", redacted(url))

    @staticmethod
    def _wait_for_server(url: str, start_wait: float) -> None:
        """At start the database may not be up yet (a container started beside it, a failover): try again with
        backoff (0.5 s doubling to 15 s), saying so in the log each time, for up to `start_wait` seconds (0: no wait;
        negative: for ever). Then give up with what PostgreSQL last said."""
        deadline = None if start_wait < 0 else time.monotonic() + start_wait
        delay, tries = 0.5, 0
        where = redacted(url)
        while True:
            tries += 1
            try:
                psycopg.connect(url, connect_timeout=5).close()
                if tries > 1:
                    log.warning("PostgreSQL at %s answers (after %d attempts)", where, tries)
                return
            except psycopg.OperationalError as e:
                reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                if any(words in str(e) for words in _REFUSED):  # it answered: waiting changes nothing
                    raise SystemExit(
                        f"umpire: PostgreSQL at {where} refused the connection: {reason}. Check the URL's database, "
                        "role and password (docs/operations.md \"Several processes\")"
                    ) from None
                if deadline is not None and time.monotonic() + delay > deadline:
                    raise SystemExit(
                        f"umpire: PostgreSQL at {where} did not answer within {start_wait:.0f} s "
                        f"({tries} attempt{'s' if tries > 1 else ''}; UMPIRE_DB_START_WAIT sets how long to wait): "
                        f"{reason}"
                    ) from None
                log.warning("PostgreSQL at %s unreachable (%s); retrying in %.1f s", where, reason, delay)
                time.sleep(delay)
                delay = min(delay * 2, 15.0)

    def notify(self, channel: str, payloads: Sequence[str]) -> None:
        """NOTIFY the live streams of every process (service/notify.py): one statement for several games."""
        with self.pool.connection() as conn:
            conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (channel, list(payloads)))

    def listen(self, channel: str) -> psycopg.Connection:
        """A connection of its own (not the pool's) LISTENing on `channel`; the caller closes it."""
        conn = psycopg.connect(self.path, autocommit=True, connect_timeout=5)
        conn.execute(f"LISTEN {channel}")
        return conn

    def _rows_in(self, conn: psycopg.Connection, sql: str, params: Sequence[Any] = ()) -> Rows:
        return conn.execute(_pg(sql), params).fetchall()

    def _session_ended(self, local: SessionLocal) -> None:
        """A session's statements all ran on one connection, taken (and checked) by its first (`SQLStore.session`): a
        command's reads and its append cost one check's round trip, not four, and a session that runs none takes
        nothing. A backend lost during it fails that command as one lost between a check and its statement did
        (StoreUnavailable), and the pool replaces it."""
        conn, local.conn = local.conn, None
        if conn is not None:
            self.pool.putconn(conn)  # a broken one is discarded, not handed out again

    def _checked_out(self) -> psycopg.Connection:
        """A checked connection from the pool; none to be had is StoreUnavailable (nothing was sent)."""
        try:
            return self.pool.getconn()
        except (PoolTimeout, psycopg.OperationalError) as e:
            raise StoreUnavailable(f"no connection to PostgreSQL: {e}", written=False) from e

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        """A checked connection: the session's, if this thread has one open, else one for this statement alone."""
        local = self._sessions
        if local.depth:
            if local.conn is None:
                local.conn = self._checked_out()
            yield local.conn
            return
        conn = self._checked_out()
        try:
            yield conn
        finally:
            self.pool.putconn(conn)  # a broken one is discarded, not handed out again

    def _query(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        with self._connection() as conn:
            try:
                return conn.execute(_pg(sql), params).fetchall()
            except psycopg.OperationalError as e:
                raise StoreUnavailable(f"PostgreSQL did not answer: {e}", written=False) from e

    @contextmanager
    def _transaction(self, wait: bool = True) -> Iterator[psycopg.Connection]:
        with self._connection() as conn:
            try:
                with conn.transaction():
                    yield conn
            except (psycopg.OperationalError, psycopg.InternalError) as e:
                full = cannot_write(e)
                if full is not None:  # the transaction was rolled back: nothing written
                    raise full from e
                if isinstance(e, psycopg.InternalError):
                    raise
                raise StoreUnavailable(f"the connection to PostgreSQL was lost: {e}", written=None) from e

    def _execute(self, conn: psycopg.Connection, sql: str, params: Sequence[Any] = ()) -> None:
        conn.execute(_pg(sql), params)

    def _updated(self, conn: psycopg.Connection, sql: str, params: Sequence[Any] = ()) -> int:
        return conn.execute(_pg(sql), params).rowcount

    def _insert_many(self, conn: psycopg.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(_pg(sql), rows)

    _ADDRESS_LOCK = "SELECT pg_advisory_xact_lock(42421943)"  # e-mail registrations, one at a time (put_address)
    _CLAIM_LOCK = " FOR UPDATE SKIP LOCKED"  # two dispatchers claiming at once take different rows

    def append(
        self, events: list[NewEventRow], command: CommandRow, wait: bool = True, outbox: list[OutboxRow] | None = None
    ) -> None:
        """A command's events and its command row in one statement (a data-modifying WITH): one round trip, and one
        transaction as every single statement is. A taken seq or command id fails the whole statement. With
        notifications to write, one transaction of several statements (the shared one)."""
        if outbox or not 0 < len(events) <= 1000:  # the statement's parameters stay well under PostgreSQL's limit
            return super().append(events, command, outbox=outbox)
        row = "(" + ",".join(["%s"] * len(NewEventRow.__struct_fields__)) + ")"
        values = ",".join([row] * len(events))
        sql = f"WITH e AS ({_pg(INSERT_EVENT_HEAD)} {values}) {_pg(INSERT_COMMAND)}"
        params = [x for e in events for x in msgspec.structs.astuple(e)]
        params += [command.game, command.command_id, command.seat, command.payload]
        params += [command.first_seq, command.last_seq, command.recorded_at]
        with self._connection() as conn:
            try:
                conn.execute(sql, params)
            except psycopg.errors.UniqueViolation as e:
                raise StoreConflict(str(e)) from e
            except (psycopg.errors.DiskFull, psycopg.errors.InsufficientResources, psycopg.errors.ReadOnlySqlTransaction) as e:
                raise cannot_write(e) or StoreUnavailable(str(e)) from e  # the statement failed whole: nothing written
            except psycopg.OperationalError as e:  # the statement was sent: it may have committed
                raise StoreUnavailable(f"the connection to PostgreSQL was lost: {e}", written=None) from e

    def _is_conflict(self, e: Exception) -> bool:
        return isinstance(e, psycopg.errors.UniqueViolation)

    @staticmethod
    def _json_string(column: str) -> str:
        return f"to_json({column})::text"

    def _joined(self, entry: str, table: str, game_id: str, bound: str, upto: int | None, order: str) -> str:
        where, params = ("game = ?", (game_id,)) if upto is None else (f"game = ? AND {bound} <= ?", (game_id, upto))
        rows = self._query(f"SELECT string_agg({entry}, ',' ORDER BY {order}) FROM {table} WHERE {where}", params)
        return rows[0][0] or ""

    def close(self) -> None:
        self.pool.close()

