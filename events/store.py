"""The event store: SQLite through sqlite-utils (WAL, synchronous=NORMAL), one file, zero setup.

Tables: games (with the secret server seed), events (UNIQUE(game, seq)), commands (PRIMARY KEY(game,
command_id)). One command = one transaction: its events and its command row, or nothing. The UNIQUE
constraints are the last line of defence behind the service's per-game lock.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

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


_EVENT_COLS = "global_position, game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed"


class Store:
    def __init__(self, path: str):
        self.path = path
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db = sqlite_utils.Database(conn)
        self._write = threading.Lock()  # single writer
        self._local = threading.local()
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self._create_schema()

    def _create_schema(self) -> None:
        db = self.db
        if "games" not in db.table_names():
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
        if "events" not in db.table_names():
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
                },
                pk="global_position",
                not_null={"game", "seq", "type", "v", "body", "hash", "recorded_at"},
                foreign_keys=[("game", "games", "id")],
            )
            db["events"].create_index(["game", "seq"], unique=True)
            db["events"].create_index(["game", "type", "seq"])
        elif "sealed" not in db["events"].columns_dict:  # a database made before sealed inputs
            db.execute("ALTER TABLE events ADD COLUMN sealed TEXT")
        if "commands" not in db.table_names():
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

    # ---- reads: each thread has its own connection, so reads never wait for the writer (WAL) ----

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

    def game(self, game_id: str) -> GameRow | None:
        rows = self._query(
            "SELECT id, ruleset, ruleset_version, data_sha256, mode, server_seed, server_commit, tokens, created_at, "
            "bots FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            return None
        r = list(rows[0])
        r[7] = json.loads(r[7])
        r[9] = json.loads(r[9] or "[]")
        return GameRow(*r)

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT id FROM games ORDER BY created_at, id")]

    def list_games(
        self, ruleset: str | None, status: str | None, before: tuple[str, str] | None, limit: int
    ) -> list[GameListRow]:
        """Newest first; `before` is the (created_at, id) of the last game of the previous page."""
        sql = (
            "SELECT g.id, g.ruleset, g.created_at, g.tokens, "
            "(SELECT MAX(seq) FROM events e WHERE e.game = g.id), "
            "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'GameEnded'), "
            "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'ServerSeedRevealed') "
            "FROM games g WHERE 1=1"
        )
        params: list[Any] = []
        if ruleset is not None:
            sql += " AND g.ruleset = ?"
            params.append(ruleset)
        if before is not None:
            sql += " AND (g.created_at < ? OR (g.created_at = ? AND g.id < ?))"
            params += [before[0], before[0], before[1]]
        if status is not None:
            ended = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'GameEnded')"
            revealed = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'ServerSeedRevealed')"
            sql += {
                "open": f" AND NOT {ended}",
                "over": f" AND {ended} AND NOT {revealed}",
                "revealed": f" AND {revealed}",
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
            sql = f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND type = 'DiceRolled' AND json_extract(body, '$.data.k') = ?"
            return [EventRow(*r) for r in self._query(sql, (game_id, k))]
        sql = (
            f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND type = 'DiceRolled' "
            "AND json_extract(body, '$.data.k') > ? ORDER BY seq LIMIT ?"
        )
        return [EventRow(*r) for r in self._query(sql, (game_id, after_k, limit))]

    def command(self, game_id: str, command_id: str) -> CommandRow | None:
        rows = self._query(
            "SELECT game, command_id, seat, payload, first_seq, last_seq, recorded_at FROM commands "
            "WHERE game = ? AND command_id = ?",
            (game_id, command_id),
        )
        return CommandRow(*rows[0]) if rows else None

    def commands(self, game_id: str) -> list[CommandRow]:
        rows = self._query(
            "SELECT game, command_id, seat, payload, first_seq, last_seq, recorded_at FROM commands "
            "WHERE game = ? ORDER BY first_seq",
            (game_id,),
        )
        return [CommandRow(*r) for r in rows]

    # ---- writes ----

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

    def create_game(self, game: GameRow, events: list[tuple], command: CommandRow) -> None:
        with self._transaction() as conn:
            try:
                conn.execute(
                    "INSERT INTO games (id, ruleset, ruleset_version, data_sha256, mode, server_seed, server_commit, "
                    "tokens, created_at, bots) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
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
                    ),
                )
            except sqlite3.IntegrityError as e:
                raise StoreConflict(f"game {game.id} exists") from e
            self._insert(conn, events, command)

    def append(self, events: list[tuple], command: CommandRow) -> None:
        """events: (game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed) tuples."""
        with self._transaction() as conn:
            self._insert(conn, events, command)

    @staticmethod
    def _insert(conn: sqlite3.Connection, events: list[tuple], command: CommandRow) -> None:
        try:
            conn.executemany(
                "INSERT INTO events (game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)",
                events,
            )
            conn.execute(
                "INSERT INTO commands (game, command_id, seat, payload, first_seq, last_seq, recorded_at) "
                "VALUES (?,?,?,?,?,?,?)",
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
        except sqlite3.IntegrityError as e:
            raise StoreConflict(str(e)) from e

    def close(self) -> None:
        self.db.conn.close()


def open_store(url: str) -> Store:
    """The store a URL names: a SQLite file path (the default), or postgresql://… ."""
    return Store(url)
