"""The event store: SQLite by default (sqlite-utils, WAL, synchronous=NORMAL, one file, zero setup), PostgreSQL where
several servers share one database (events/store_pg.py). Both keep the same guarantees behind the same interface:

- tables games (with the secret server seed), events (UNIQUE(game, seq)), commands (PRIMARY KEY(game, command_id))
  and snapshots (a game's state at a seq, a cache: any of them may be dropped);
- one command = one transaction: its events and its command row, or nothing;
- the UNIQUE constraints are the last line of defence behind the service's per-game lock: of two writers that
  decided on the same version, in one process or several, one appends and the other gets StoreConflict.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import sqlite_utils


class StoreConflict(Exception):
    """Another writer appended first (a seq or a command id is taken); nothing was written."""


@dataclass(frozen=True)
class EventRow:
    global_position: int
    game: str
    seq: int
    type: str
    v: int
    body: str  # canonical JSON of the hashed body
    hash: str
    command_id: str | None
    actor: str | None
    recorded_at: str
    sealed: str | None = None  # a SubmissionSealed's canonical {"content", "salt"}: beside the body, never public


@dataclass(frozen=True)
class CommandRow:
    game: str
    command_id: str
    seat: str
    payload: str  # canonical JSON
    first_seq: int
    last_seq: int
    recorded_at: str


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    ruleset_version: str
    data_sha256: str
    mode: str
    server_seed: str  # hex; secret until revealed
    server_commit: str
    tokens: dict[str, str]  # seat (or "referee") -> SHA-256 of its bearer token
    created_at: str
    bots: list[str] = field(default_factory=list)  # seats the server plays


@dataclass(frozen=True)
class GameListRow:
    id: str
    ruleset: str
    status: str
    version: int
    seats: list[str]
    created_at: str


# A new event row: (game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed, roll_k)
NewEvent = tuple


class EventStore(Protocol):
    """What the service needs of a store (SQLite and PostgreSQL both provide it)."""

    def game(self, game_id: str) -> GameRow | None: ...
    def head(self, game_id: str) -> tuple[int, str] | None: ...
    def events(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[EventRow]: ...
    def rolls(self, game_id: str, after_k: int = -1, limit: int = 100, k: int | None = None) -> list[EventRow]: ...
    def command(self, game_id: str, command_id: str) -> CommandRow | None: ...
    def commands(self, game_id: str) -> list[CommandRow]: ...
    def list_games(
        self, ruleset: str | None, status: str | None, before: tuple[str, str] | None, limit: int
    ) -> list[GameListRow]: ...
    def create_game(self, game: GameRow, events: list[NewEvent], command: CommandRow) -> None: ...
    def append(self, events: list[NewEvent], command: CommandRow) -> None: ...
    def save_snapshot(self, game_id: str, seq: int, engine: str, state: bytes) -> None: ...
    def snapshot(self, game_id: str, upto: int, engine: str) -> tuple[int, bytes] | None: ...
    def create_job(self, job: JobRow) -> None: ...
    def update_job(self, job_id: str, status: str, done: int, result: str | None, updated_at: str) -> None: ...
    def job(self, job_id: str) -> JobRow | None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class JobRow:
    """A bounded background job (the odds from a position): its progress and, once done, its result (JSON)."""

    id: str
    game: str
    kind: str
    params: str  # canonical JSON
    status: str  # running | done | failed
    done: int
    total: int
    result: str | None
    created_at: str
    updated_at: str


_JOB_COLS = "id, game, kind, params, status, done, total, result, created_at, updated_at"
_EVENT_COLS = "global_position, game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed"
_COMMAND_COLS = "game, command_id, seat, payload, first_seq, last_seq, recorded_at"
_GAME_COLS = "id, ruleset, ruleset_version, data_sha256, mode, server_seed, server_commit, tokens, created_at, bots"
_INSERT_EVENT = (
    "INSERT INTO events (game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed, roll_k) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_COMMAND = f"INSERT INTO commands ({_COMMAND_COLS}) VALUES (?,?,?,?,?,?,?)"
_INSERT_GAME = f"INSERT INTO games ({_GAME_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)"
_ENDED = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'GameEnded')"
_REVEALED = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'ServerSeedRevealed')"


class SQLStore:
    """The queries both stores share; a subclass gives `_query` and `_transaction` (and its placeholder style)."""

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        raise NotImplementedError

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        raise NotImplementedError

    def _execute(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> None:
        raise NotImplementedError

    def _insert_many(self, conn: Any, sql: str, rows: list[Sequence[Any]]) -> None:
        raise NotImplementedError

    def _is_conflict(self, e: Exception) -> bool:
        raise NotImplementedError

    # ---- reads ----

    def game(self, game_id: str) -> GameRow | None:
        rows = self._query(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        r = list(rows[0])
        r[7] = json.loads(r[7])
        r[9] = json.loads(r[9] or "[]")
        return GameRow(*r)

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and head hash in the store: what a cached state is checked against."""
        rows = self._query("SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", (game_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT id FROM games ORDER BY created_at, id")]

    def list_games(
        self, ruleset: str | None, status: str | None, before: tuple[str, str] | None, limit: int
    ) -> list[GameListRow]:
        """Newest first; `before` is the (created_at, id) of the last game of the previous page."""
        sql = (
            "SELECT g.id, g.ruleset, g.created_at, g.tokens, (SELECT MAX(seq) FROM events e WHERE e.game = g.id), "
            f"{_ENDED}, {_REVEALED} FROM games g WHERE 1=1"
        )
        params: list[Any] = []
        if ruleset is not None:
            sql += " AND g.ruleset = ?"
            params.append(ruleset)
        if before is not None:
            sql += " AND (g.created_at < ? OR (g.created_at = ? AND g.id < ?))"
            params += [before[0], before[0], before[1]]
        if status is not None:
            sql += {
                "open": f" AND NOT {_ENDED}",
                "over": f" AND {_ENDED} AND NOT {_REVEALED}",
                "revealed": f" AND {_REVEALED}",
            }[status]
        sql += " ORDER BY g.created_at DESC, g.id DESC LIMIT ?"
        params.append(limit)
        out = []
        for gid, rs, created, tokens, version, ended, revealed in self._query(sql, params):
            seats = [s for s in json.loads(tokens) if s != "referee"]
            state = "revealed" if revealed else "over" if ended else "open"
            out.append(GameListRow(gid, rs, state, version or 0, seats, created))
        return out

    def events(self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None) -> list[EventRow]:
        sql = f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND seq > ?"
        params: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [EventRow(*r) for r in self._query(sql, params)]

    def rolls(self, game_id: str, after_k: int = -1, limit: int = 100, k: int | None = None) -> list[EventRow]:
        if k is not None:
            return [EventRow(*r) for r in self._query(
                f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND roll_k = ?", (game_id, k)
            )]
        sql = f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND roll_k > ? ORDER BY roll_k LIMIT ?"
        return [EventRow(*r) for r in self._query(sql, (game_id, after_k, limit))]

    def command(self, game_id: str, command_id: str) -> CommandRow | None:
        rows = self._query(f"SELECT {_COMMAND_COLS} FROM commands WHERE game = ? AND command_id = ?", (game_id, command_id))
        return CommandRow(*rows[0]) if rows else None

    def commands(self, game_id: str) -> list[CommandRow]:
        rows = self._query(f"SELECT {_COMMAND_COLS} FROM commands WHERE game = ? ORDER BY first_seq", (game_id,))
        return [CommandRow(*r) for r in rows]

    def snapshot(self, game_id: str, upto: int, engine: str) -> tuple[int, bytes] | None:
        """The latest snapshot at or before `upto` made by this engine (other engines' are ignored)."""
        rows = self._query(
            "SELECT seq, state FROM snapshots WHERE game = ? AND seq <= ? AND engine = ? ORDER BY seq DESC LIMIT 1",
            (game_id, upto, engine),
        )
        return (rows[0][0], bytes(rows[0][1])) if rows else None

    def job(self, job_id: str) -> JobRow | None:
        rows = self._query(f"SELECT {_JOB_COLS} FROM jobs WHERE id = ?", (job_id,))
        return JobRow(*rows[0]) if rows else None

    # ---- writes ----

    def create_job(self, job: JobRow) -> None:
        with self._transaction() as conn:
            self._execute(
                conn,
                f"INSERT INTO jobs ({_JOB_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (job.id, job.game, job.kind, job.params, job.status, job.done, job.total, job.result,
                 job.created_at, job.updated_at),
            )

    def update_job(self, job_id: str, status: str, done: int, result: str | None, updated_at: str) -> None:
        with self._transaction() as conn:
            self._execute(
                conn,
                "UPDATE jobs SET status = ?, done = ?, result = ?, updated_at = ? WHERE id = ?",
                (status, done, result, updated_at, job_id),
            )

    def create_game(self, game: GameRow, events: list[NewEvent], command: CommandRow) -> None:
        row = (
            game.id,
            game.ruleset,
            game.ruleset_version,
            game.data_sha256,
            game.mode,
            game.server_seed,
            game.server_commit,
            json.dumps(game.tokens, sort_keys=True),
            game.created_at,
            json.dumps(game.bots),
        )
        try:
            with self._transaction() as conn:
                self._execute(conn, _INSERT_GAME, row)
                self._insert(conn, events, command)
        except Exception as e:
            if self._is_conflict(e):
                raise StoreConflict(f"game {game.id} exists or was written concurrently") from e
            raise

    def append(self, events: list[NewEvent], command: CommandRow) -> None:
        try:
            with self._transaction() as conn:
                self._insert(conn, events, command)
        except Exception as e:
            if self._is_conflict(e):
                raise StoreConflict(str(e)) from e
            raise

    def _insert(self, conn: Any, events: list[NewEvent], command: CommandRow) -> None:
        self._insert_many(conn, _INSERT_EVENT, events)
        self._execute(
            conn,
            _INSERT_COMMAND,
            (
                command.game,
                command.command_id,
                command.seat,
                command.payload,
                command.first_seq,
                command.last_seq,
                command.recorded_at,
            ),
        )

    def save_snapshot(self, game_id: str, seq: int, engine: str, state: bytes) -> None:
        try:
            with self._transaction() as conn:
                self._execute(
                    conn, "INSERT INTO snapshots (game, seq, engine, state) VALUES (?,?,?,?)", (game_id, seq, engine, state)
                )
        except Exception as e:
            if not self._is_conflict(e):  # another process snapshotted the same seq: the same state
                raise


class Store(SQLStore):
    """SQLite, one file; WAL so reads never wait for the writer. The file (and its WAL) are created 0600: it holds
    unrevealed server seeds."""

    local = True  # no network round trips: a short write may run on the server's event loop

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:" and not os.path.exists(path):
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db = sqlite_utils.Database(conn)
        self._write = threading.Lock()  # single writer in this process; other processes wait on SQLite's lock
        self._local = threading.local()
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        with self._write:
            self._create_schema()

    def _create_schema(self) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")  # two processes starting on a new file: one creates, the other sees it
        try:
            tables = set(db.table_names())
            if "games" not in tables:
                db["games"].create(
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
            elif "bots" not in db["games"].columns_dict:  # a database made before bot seats
                db.execute("ALTER TABLE games ADD COLUMN bots TEXT")
            if "events" not in tables:
                db["events"].create(
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
                db["events"].create_index(["game", "seq"], unique=True)
                db["events"].create_index(["game", "type", "seq"])
            else:  # a database made before sealed inputs or the roll index
                columns = db["events"].columns_dict
                if "sealed" not in columns:
                    db.execute("ALTER TABLE events ADD COLUMN sealed TEXT")
                if "roll_k" not in columns:
                    db.execute("ALTER TABLE events ADD COLUMN roll_k INTEGER")
                    db.execute(
                        "UPDATE events SET roll_k = json_extract(body, '$.data.k') WHERE type = 'DiceRolled'"
                    )
            db.execute("CREATE INDEX IF NOT EXISTS events_roll ON events (game, roll_k) WHERE roll_k IS NOT NULL")
            if "commands" not in tables:
                db["commands"].create(
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
                db["jobs"].create(
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
            if "snapshots" not in tables:
                db["snapshots"].create(
                    {"game": str, "seq": int, "engine": str, "state": bytes},
                    pk=("game", "seq", "engine"),
                    not_null={"state"},
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # each thread has its own connection, so reads never wait for the writer (WAL)
    def _reader(self) -> sqlite3.Connection:
        if self.path == ":memory:":
            return self.db.conn
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
            self._local.conn = conn
        return conn

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        if self.path == ":memory:":
            with self._write:
                return self.db.conn.execute(sql, params).fetchall()
        return self._reader().execute(sql, params).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._write:
            conn = self.db.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _execute(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> None:
        conn.execute(sql, params)

    def _insert_many(self, conn: sqlite3.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
        conn.executemany(sql, rows)

    def _is_conflict(self, e: Exception) -> bool:
        return isinstance(e, sqlite3.IntegrityError)

    def close(self) -> None:
        self.db.conn.close()



def open_store(url: str) -> EventStore:
    """The store a URL names: a SQLite file path (the default), or postgresql://… (events/store_pg.py)."""
    if url.startswith(("postgresql://", "postgres://")):
        from events.store_pg import PostgresStore

        return PostgresStore(url)
    return Store(url)
