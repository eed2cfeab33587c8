"""The SQLite store (sqlite-utils, WAL, synchronous=NORMAL, one file, zero setup): the default."""

from __future__ import annotations

import itertools
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

import sqlite_utils

from events.store.rows import StorageUnavailable, StoreUnavailable, WouldBlock
from events.store.sql import HOOK_SCHEMA, Rows, SessionLocal, SQLStore, T

_UNREAD = object()
# SQLite's primary result codes that mean the file cannot take a write now, whatever the statement
_CANNOT_WRITE = {sqlite3.SQLITE_FULL: "full", sqlite3.SQLITE_READONLY: "read-only"}


def cannot_write(e: sqlite3.Error) -> StorageUnavailable | None:
    """The disk is full or the store read-only (`e` is SQLITE_FULL or SQLITE_READONLY, any extended code of them)."""
    condition = _CANNOT_WRITE.get((getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF)
    if condition is None:
        return None
    return StorageUnavailable(f"the SQLite store is {condition}: {e}", condition)


class SQLiteStore(SQLStore):
    """SQLite, one file; WAL so reads never wait for the writer. The file (and its WAL) are created 0600: it holds
    unrevealed server seeds."""

    local = True  # no network round trips: a short write may run on the server's event loop
    BUSY_MS = 30_000  # how long a waiting write waits for another process's write lock

    def __init__(self, path: str, synchronous: str = "normal"):
        """`synchronous`: "normal" (the default) keeps every acknowledged command across a crash of the process, not
        across a power loss or an OS crash; "full" syncs the WAL to disk at every commit, which keeps them across
        those too, at about a millisecond per command (docs/operations.md "What an acknowledgement guarantees")."""
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous is normal or full, not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous
        if path != ":memory:" and not os.path.exists(path):
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        # The writer connection. Two rules keep `_kept_or_read` true: a statement on it is read to its end (an open
        # cursor holds its snapshot, and data_version stops moving), and games' tokens and events are written only by
        # the methods that call `_wrote` (its own commits never move its data_version).
        self.db = sqlite_utils.Database(conn)
        self._write = threading.Lock()  # single writer in this process; other processes wait on SQLite's lock
        self._local = threading.local()  # conn: this thread's reader connection
        self._sessions = SessionLocal()
        self._kept: dict[str, list[Any]] = {}  # game -> [tokens, head, hooks] as last read (see _kept_or_read)
        self._kept_mark: int | None = None
        self._closed = False
        try:
            if path != ":memory:":
                self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as e:  # a PostgreSQL dump, a bundle, any other file named as the database
            conn.close()
            raise SystemExit(
                f"umpire: {path} is not a SQLite database ({e}): name the server's database file, or restore a "
                "PostgreSQL backup with pg_restore first (docs/operations.md \"Backups and restore\")"
            ) from None
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        with self._write:
            self._create_schema()
        # From here the writer never lets SQLite wait for the lock: `_begin` waits itself when the write may wait,
        # so a write that may not (one on the event loop) costs no statement to turn the wait off and on again.
        self.db.execute("PRAGMA busy_timeout=0")

    def _create_schema(self) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")  # two processes starting on a new file: one creates, the other sees it
        try:
            tables = set(db.table_names())
            if "games" not in tables:
                db.table("games").create(
                    {
                        "id": str,
                        "ruleset": str,
                        "ruleset_version": str,
                        "data_sha256": str,
                        "mode": str,
                        "server_seed": str,
                        "server_commit": str,
                        "tokens": str,
                        "created_at": str,
                        "bots": str,
                    },
                    pk="id",
                    not_null={"ruleset", "ruleset_version", "data_sha256", "mode", "server_seed", "server_commit"},
                )
            elif "bots" not in db.table("games").columns_dict:  # a database made before bot seats
                db.execute("ALTER TABLE games ADD COLUMN bots TEXT")
            if "events" not in tables:
                db.table("events").create(
                    {
                        "global_position": int,
                        "game": str,
                        "seq": int,
                        "type": str,
                        "v": int,
                        "body": str,
                        "hash": str,
                        "command_id": str,
                        "actor": str,
                        "recorded_at": str,
                        "sealed": str,
                        "roll_k": int,
                    },
                    pk="global_position",
                    not_null={"game", "seq", "type", "v", "body", "hash", "recorded_at"},
                    foreign_keys=[("game", "games", "id")],
                )
                db.table("events").create_index(["game", "seq"], unique=True)
                db.table("events").create_index(["game", "type", "seq"])
            else:  # a database made before sealed inputs or the roll index
                columns = db.table("events").columns_dict
                if "sealed" not in columns:
                    db.execute("ALTER TABLE events ADD COLUMN sealed TEXT")
                if "roll_k" not in columns:
                    db.execute("ALTER TABLE events ADD COLUMN roll_k INTEGER")
                    db.execute(
                        "UPDATE events SET roll_k = json_extract(body, '$.data.k') WHERE type = 'DiceRolled'"
                    )
            db.execute("CREATE INDEX IF NOT EXISTS events_roll ON events (game, roll_k) WHERE roll_k IS NOT NULL")
            if "commands" not in tables:
                db.table("commands").create(
                    {
                        "game": str,
                        "command_id": str,
                        "seat": str,
                        "payload": str,
                        "first_seq": int,
                        "last_seq": int,
                        "recorded_at": str,
                    },
                    pk=("game", "command_id"),
                    not_null={"seat", "payload", "first_seq", "last_seq"},
                )
            if "jobs" not in tables:
                db.table("jobs").create(
                    {
                        "id": str,
                        "game": str,
                        "kind": str,
                        "params": str,
                        "status": str,
                        "done": int,
                        "total": int,
                        "result": str,
                        "created_at": str,
                        "updated_at": str,
                    },
                    pk="id",
                )
            db.execute(
                "CREATE TABLE IF NOT EXISTS creations (client TEXT NOT NULL, minute INTEGER NOT NULL, "
                "n INTEGER NOT NULL, PRIMARY KEY (client, minute))"
            )
            for ddl in HOOK_SCHEMA:
                db.execute(ddl)
            if "pending" not in db.table("webhooks").columns_dict:  # a database made before e-mail targets
                db.execute("ALTER TABLE webhooks ADD COLUMN pending INTEGER NOT NULL DEFAULT 0")
            if "snapshots" not in tables:
                db.table("snapshots").create(
                    {"game": str, "seq": int, "engine": str, "state": bytes},
                    pk=("game", "seq", "engine"),
                    not_null={"state"},
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # each thread has its own connection, so reads never wait for the writer (WAL); ":memory:" reads on the writer
    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
            self._local.conn = conn
        return conn

    def _query(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        if self.path == ":memory:":
            with self._write:
                return self._writer().execute(sql, params).fetchall()
        return self._reader().execute(sql, params).fetchall()

    # A game's credentials and head are read once and kept until another connection (another process, another
    # SQLiteStore) commits: the writer connection's `PRAGMA data_version` moves then, and never for its own writes,
    # which update what is kept themselves (`_wrote`). Both are read under the write lock, so no write of this process
    # falls between the check and the read. Two SELECTs of every command become one pragma (P1: 25 of 240 us).
    KEPT_GAMES = 4096

    def _kept_or_read(self, game_id: str, what: int, sql: str, parse: Callable[[Rows], T]) -> T:
        if not self._write.acquire(blocking=False):  # a write under way may wait 30 s for another process's lock
            return parse(self._query(sql, (game_id,)))
        try:
            conn = self._writer()
            # in a session, its first kept read checks for all (`SQLStore.session`): what is kept is never older than
            # the last check of any thread, and this process's own writes update it
            session = self._sessions
            if not session.checked:
                mark = conn.execute("PRAGMA data_version").fetchone()[0]
                if mark != self._kept_mark:
                    self._kept.clear()
                    self._kept_mark = mark
                session.checked = session.depth > 0
            kept = self._kept.get(game_id)
            if kept is None:
                if len(self._kept) >= self.KEPT_GAMES:
                    self._kept.clear()
                kept = self._kept[game_id] = [_UNREAD, _UNREAD, _UNREAD]
            if kept[what] is _UNREAD:
                kept[what] = parse(conn.execute(sql, (game_id,)).fetchall())
            return cast(T, kept[what])  # kept[TOKENS] and kept[HEAD] are what their own parse made
        except sqlite3.OperationalError as e:  # busy (the writer does not wait): read it as any read is, waiting
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY:
                raise
            self._kept.pop(game_id, None)
            return parse(self._query(sql, (game_id,)))
        finally:
            self._write.release()

    def _session_ended(self, local: SessionLocal) -> None:
        local.checked = False

    def _wrote(self, game_id: str, head: tuple[int, str] | None = None) -> None:
        kept = self._kept.get(game_id)
        if kept is None:
            return
        if head is not None and kept[1] is not _UNREAD:
            kept[1] = head
        else:
            del self._kept[game_id]

    # SQLite's own busy handler's steps (sqlite3.c sqliteDefaultBusyCallback), then 0.1 s each
    _BUSY_STEPS = (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05, 0.1)

    def _begin(self, conn: sqlite3.Connection, wait: bool) -> None:
        """BEGIN IMMEDIATE: at once, or WouldBlock if another process holds the write lock and `wait` is false; else
        retried as SQLite's busy handler would for up to BUSY_MS, then StoreUnavailable."""
        waited = 0.0
        for step in itertools.count():
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if getattr(e, "sqlite_errorcode", sqlite3.SQLITE_BUSY) != sqlite3.SQLITE_BUSY:
                    raise
                if not wait:
                    raise WouldBlock(f"the database's write lock is held elsewhere: {e}") from e
                if waited * 1000 >= self.BUSY_MS:
                    raise StoreUnavailable(f"the database's write lock was not had in {self.BUSY_MS} ms: {e}") from e
                pause = self._BUSY_STEPS[min(step, len(self._BUSY_STEPS) - 1)]
                time.sleep(pause)
                waited += pause

    def _transaction(self, wait: bool = True) -> Transaction:
        return Transaction(self, wait)

    def _execute(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> None:
        conn.execute(sql, params)

    def _updated(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> int:
        return conn.execute(sql, params).rowcount

    def _insert_many(self, conn: sqlite3.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
        conn.executemany(sql, rows)

    def _rows_in(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Rows:
        return conn.execute(sql, params).fetchall()

    def _is_conflict(self, e: Exception) -> bool:
        return isinstance(e, sqlite3.IntegrityError)

    def _writer(self) -> sqlite3.Connection:
        """The writer connection, to a caller holding `_write`; StoreUnavailable once the store is closed."""
        if self._closed:
            raise StoreUnavailable("this SQLite store is closed", written=False)
        return self.db.conn

    def close(self) -> None:
        """Closes the writer connection once no statement of this process runs on it: a thread still at work then gets
        StoreUnavailable. (CPython's sqlite3 crashes the process when a connection closes under a statement another
        thread is running: the closing thread clears it while the other, its statement done, still reads its counts.)"""
        with self._write:
            self._closed = True
            self.db.conn.close()


class Transaction:
    """`with store._transaction(wait) as conn:` the writer connection in a BEGIN IMMEDIATE transaction (`_begin`),
    committed at the end of the block; rolled back if the block or the commit fails (what `_wrote` noted forgotten),
    a full disk or read-only file raised as StorageUnavailable (nothing written). A class, not a generator: every
    command opens one (a generator's costs about 1 us more, counted)."""

    __slots__ = ("store", "wait", "conn")

    def __init__(self, store: SQLiteStore, wait: bool):
        self.store, self.wait = store, wait

    def __enter__(self) -> sqlite3.Connection:
        store = self.store
        if not store._write.acquire(blocking=self.wait):
            raise WouldBlock("another write of this process is under way")
        try:
            conn = self.conn = store._writer()
            if conn.in_transaction:  # a rollback that failed (`_abort`) left it open: nothing in it was committed
                self._abort(None)
            store._begin(conn, self.wait)
            return conn
        except BaseException as e:
            store._write.release()
            _raise_unwritable(e)
            raise

    def __exit__(self, kind: type[BaseException] | None, e: BaseException | None, tb: Any) -> None:
        try:
            if kind is None:
                try:
                    self.conn.execute("COMMIT")
                except BaseException as failed:
                    self._abort(failed)  # inside the handler: an error of the rollback is chained to the commit's
                    raise
            else:
                self._abort(e)
        finally:
            self.store._write.release()

    def _abort(self, e: BaseException | None) -> None:
        """Roll back what the block or its COMMIT left, forget what `_wrote` noted, and raise a full disk or read-only
        file as StorageUnavailable (else the caller raises `e` itself)."""
        self.store._kept.clear()
        try:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except sqlite3.Error as rollback:
            _raise_unwritable(rollback)
            raise
        _raise_unwritable(e)


def _raise_unwritable(e: BaseException | None) -> None:
    """A full disk or read-only file (`cannot_write`) raised as StorageUnavailable: rolled back, nothing written."""
    if isinstance(e, sqlite3.Error):
        full = cannot_write(e)
        if full is not None:
            raise full from e
