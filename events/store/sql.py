"""The queries both stores share (SQLite's `events/store/sqlite.py`, PostgreSQL's `events/store/postgres.py`), written
with `?` placeholders; a subclass runs them.

- tables games (with the secret server seed), events (UNIQUE(game, seq)), commands (PRIMARY KEY(game, command_id))
  and snapshots (a game's state at a seq, a cache: any of them may be dropped);
- one command = one transaction: its events and its command row, or nothing;
- the UNIQUE constraints are the last line of defence behind the service's per-game lock: of two writers that
  decided on the same version, in one process or several, one appends and the other gets StoreConflict.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import msgspec

from events.store.rows import (
    Begins,
    CommandRow,
    EventRow,
    GameListRow,
    GameRow,
    HookRow,
    JobRow,
    NewEventRow,
    OutboxRow,
    StoreConflict,
)

_JOB_COLS = "id, game, kind, params, status, done, total, result, created_at, updated_at"
_EVENT_COLS = "global_position, game, seq, type, v, body, hash, command_id, actor, recorded_at, sealed"
_COMMAND_COLS = "game, command_id, seat, payload, first_seq, last_seq, recorded_at"
_GAME_COLS = "id, ruleset, ruleset_version, data_sha256, mode, server_seed, server_commit, tokens, created_at, bots"
# the columns of a new event are NewEventRow's fields, so a row and its INSERT cannot disagree on the order
INSERT_EVENT_HEAD = f"INSERT INTO events ({', '.join(NewEventRow.__struct_fields__)}) VALUES"
_INSERT_EVENT = f"{INSERT_EVENT_HEAD} ({','.join('?' * len(NewEventRow.__struct_fields__))})"
INSERT_COMMAND = f"INSERT INTO commands ({_COMMAND_COLS}) VALUES (?,?,?,?,?,?,?)"


def _command_values(c: CommandRow) -> tuple[object, ...]:
    return (c.game, c.command_id, c.seat, c.payload, c.first_seq, c.last_seq, c.recorded_at)
_INSERT_GAME = f"INSERT INTO games ({_GAME_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)"
_ENDED = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'GameEnded')"
_REVEALED = "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.type = 'ServerSeedRevealed')"


# Webhook registrations and their outbox (issue 33): operational tables, in both stores, never events nor bundles.
HOOK_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS webhooks (game TEXT NOT NULL, reader TEXT NOT NULL, url TEXT NOT NULL, "
    "secret TEXT NOT NULL, old_secret TEXT, old_until DOUBLE PRECISION, last_turn INTEGER NOT NULL DEFAULT 0, "
    "created_at TEXT NOT NULL, pending INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game, reader))",
    "CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, game TEXT NOT NULL, reader TEXT NOT NULL, "
    "kind TEXT NOT NULL, payload TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, due DOUBLE PRECISION NOT NULL, "
    "attempts INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, outcome TEXT, last_at DOUBLE PRECISION, "
    "lease_until DOUBLE PRECISION)",
    "CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, due)",
    "CREATE INDEX IF NOT EXISTS outbox_reader ON outbox (game, reader, created)",
    # an address's codes, counted at each registration of it (service/mail.py)
    "CREATE INDEX IF NOT EXISTS outbox_codes ON outbox (payload, created) WHERE kind = 'confirm'",
    # the settled rows by age, for the dispatcher's prune (prune_outbox): each batch a range read, not a scan
    "CREATE INDEX IF NOT EXISTS outbox_settled ON outbox (COALESCE(last_at, created)) WHERE status <> 'pending'",
    # the games with a turn clock (issue 33 item 4), for the sweepers to find; `running_since`: when the game had all
    # its seats (NULL while one waits for its player): no clock runs before
    "CREATE TABLE IF NOT EXISTS clocks (game TEXT PRIMARY KEY, running_since DOUBLE PRECISION)",
    # the streams open with each stream ticket (issue 34 item 5): one at a time, in every process serving the store
    "CREATE TABLE IF NOT EXISTS stream_leases (ticket TEXT PRIMARY KEY, holder TEXT NOT NULL, "
    "until DOUBLE PRECISION NOT NULL)",
]
_HOOK_COLS = "game, reader, url, secret, old_secret, old_until, last_turn, created_at, pending"
_OUTBOX_COLS = "id, game, reader, kind, payload, created, due, attempts, status, outcome, last_at"
_START_CLOCK = "UPDATE clocks SET running_since = ? WHERE game = ? AND running_since IS NULL"
UNVERSIONED = ("confirm", "ping")  # notifications that carry no game version (every other says `data.version`)
_INSERT_OUTBOX = f"INSERT INTO outbox ({_OUTBOX_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
HOOKS = 2  # what `_kept_or_read` reads: a game's registered readers


def _outbox_values(r: OutboxRow) -> tuple[Any, ...]:
    return (r.id, r.game, r.reader, r.kind, r.payload, r.created, r.due, r.attempts, r.status, r.outcome, r.last_at)


def _hooks_of(rows: Rows) -> dict[str, int]:
    return {reader: last_turn for reader, last_turn in rows}


Rows = list[tuple[Any, ...]]  # what a query answers
T = TypeVar("T")
TOKENS, HEAD = 0, 1  # what `_kept_or_read` reads


def _tokens_of(rows: Rows) -> dict[str, str] | None:
    return json.loads(rows[0][0]) if rows else None


def _head_of(rows: Rows) -> tuple[int, str] | None:
    return (rows[0][0], rows[0][1]) if rows else None


class SessionLocal(threading.local):
    """A thread's session (`SQLStore.session`), per store: how deep, and what its first statement found."""

    depth = 0
    checked = False  # SQLite: the session's `PRAGMA data_version` is made
    conn: Any = None  # PostgreSQL: the session's connection, once its first statement took one


class Session:
    """`with store.session():` (a class, not a generator: a command opens two, and a generator's costs 10,000
    instructions to a class's 4,000)."""

    __slots__ = ("store",)

    def __init__(self, store: SQLStore):
        self.store = store

    def __enter__(self) -> None:
        self.store._sessions.depth += 1

    def __exit__(self, *exc: object) -> None:
        local = self.store._sessions
        local.depth -= 1
        if local.depth == 0:
            self.store._session_ended(local)


class SQLStore:
    """The queries both stores share; a subclass gives `_query` and `_transaction` (and its placeholder style)."""

    _sessions: SessionLocal  # each store its own (a subclass's __init__ makes it)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        raise NotImplementedError

    def _transaction(self, wait: bool = True) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _execute(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> None:
        raise NotImplementedError

    def _insert_many(self, conn: Any, sql: str, rows: list[Sequence[Any]]) -> None:
        raise NotImplementedError

    def _updated(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an UPDATE; how many rows it changed."""
        raise NotImplementedError

    def _is_conflict(self, e: Exception) -> bool:
        raise NotImplementedError

    def _kept_or_read(self, game_id: str, what: int, sql: str, parse: Callable[[Rows], T]) -> T:
        """A game's credentials (what=TOKENS) or head (what=HEAD) as stored now; a store that can tell that nothing
        changed since it last read them keeps them (SQLite); this one reads them every time."""
        return parse(self._query(sql, (game_id,)))

    def session(self) -> Session:
        """One command's reads and its write, seeing the store through one check of it: SQLite asks whether another
        connection committed once (`PRAGMA data_version`), not before every kept read; PostgreSQL runs them all on
        one connection, checked once, not on one checked connection each (issue 35 item 3). What is read stays as
        fresh as the command: the check comes after the request arrived, so a write acknowledged before it is seen.
        Nested sessions of a thread are one; a session never spans an await (another request would share it)."""
        return Session(self)

    def _session_ended(self, local: SessionLocal) -> None:
        """The thread's outermost session closed: forget its check (a subclass says how)."""

    def _wrote(self, game_id: str, head: tuple[int, str] | None = None) -> None:
        """Called inside the transaction of a write of this connection: the game's new head, or (None) that its row
        changed. For a store that keeps what `_kept_or_read` read."""

    # ---- reads ----

    def ping(self) -> None:
        """A trivial query: raises when the store cannot answer (GET /health/ready)."""
        self._query("SELECT 1")

    def game(self, game_id: str) -> GameRow | None:
        rows = self._query(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        r = list(rows[0])
        r[7] = json.loads(r[7])
        r[9] = json.loads(r[9] or "[]")
        return GameRow(*r)

    def tokens(self, game_id: str) -> dict[str, str] | None:
        """The game's credentials as stored now (seat or "referee" -> SHA-256 of its token, or "open:" + the SHA-256
        of the invitation of a seat nobody took yet): asked on every authenticated request, so a rotated token stops
        working at once in every process (SQLite answers from memory while no other connection has committed)."""
        stored = self._kept_or_read(game_id, TOKENS, "SELECT tokens FROM games WHERE id = ?", _tokens_of)
        return None if stored is None else dict(stored)  # a copy: what is kept is never handed out

    def replace_tokens(
        self, game_id: str, old: dict[str, str], new: dict[str, str], begins: Begins | None = None
    ) -> bool:
        """Compare-and-set the game's credentials: False (nothing changed) if they are no longer `old`. `begins`, when
        the last seat is taken: written in the same transaction, the turn clock running from `now` (unless it runs
        already) and the notifications queued (once each, by id), so the seat taken, its clock and its notifications
        are all written or none; and False too if the game's log has moved past `version`, what the notifications were
        made from (a referee's end or pause meanwhile), for them to be made again."""
        sql = "UPDATE games SET tokens = ? WHERE id = ? AND tokens = ?"
        params: tuple[Any, ...] = (json.dumps(new, sort_keys=True), game_id, json.dumps(old, sort_keys=True))
        if begins is not None:  # and the log is where the notifications were made from
            sql += " AND (SELECT MAX(seq) FROM events WHERE game = ?) = ?"
            params += (game_id, begins.version)
        with self._transaction() as conn:
            self._wrote(game_id)
            swapped = self._updated(conn, sql, params) == 1
            if swapped and begins is not None:
                self._updated(conn, _START_CLOCK, (begins.now, game_id))
                if begins.rows:
                    self._insert_outbox(conn, begins.rows, once=True)
            return swapped

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and head hash in the store: what a cached state is checked against."""
        return self._kept_or_read(
            game_id, HEAD, "SELECT seq, hash FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1", _head_of
        )

    def marks(self, game_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Each game's version and its credentials as stored, for several games at once (the live streams' fallback
        check, one query for them all: a new event, or a seat taken, changes what a stream says)."""
        out: dict[str, tuple[int, str]] = {}
        ids = list(game_ids)
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            marks = ",".join("?" * len(part))
            sql = (
                "SELECT g.id, (SELECT MAX(seq) FROM events WHERE game = g.id), g.tokens FROM games g "
                f"WHERE g.id IN ({marks})"
            )
            out.update({g: (v or 0, tokens) for g, v, tokens in self._query(sql, part)})
        return out

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT id FROM games ORDER BY created_at, id")]

    def list_games(
        self, ruleset: str | None, status: str | None, before: tuple[str, str] | None, limit: int
    ) -> list[GameListRow]:
        """Newest first; `before` is the (created_at, id) of the last game of the previous page."""
        sql = (
            "SELECT g.id, g.ruleset, g.ruleset_version, g.data_sha256, g.created_at, g.tokens, "
            "(SELECT MAX(seq) FROM events e WHERE e.game = g.id), "
            f"{_ENDED}, {_REVEALED}, g.bots FROM games g WHERE 1=1"
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
        for gid, rs, edition, data_sha256, created, tokens, version, ended, revealed, bots in self._query(sql, params):
            stored = json.loads(tokens)
            seats = [s for s in stored if s != "referee"]
            state = "revealed" if revealed else "over" if ended else "open"
            opened = [s for s in seats if stored[s].startswith("open:")]
            out.append(
                GameListRow(
                    gid, rs, edition, data_sha256, state, version or 0, seats, created, json.loads(bots or "[]"), opened
                )
            )
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

    # ---- a bundle's parts, put together by the database (service/bundles.py) ----
    # A bundle of 100,000 events made from rows would make several objects per row in this process: time with the
    # interpreter held, and garbage collections that stall every other request. The database writes the JSON instead
    # (the stored bodies and payloads are canonical JSON already), and hands back one string.

    def bundle_events(self, game_id: str, upto: int | None = None) -> str:
        """The log as a bundle's `events` carries it, without the brackets: `{"body":<body>,"hash":"<hash>"}` per
        event, in seq order, joined by commas: the bytes msgspec writes for the stored body and hash."""
        entry = "'{\"body\":' || body || ',\"hash\":\"' || hash || '\"}'"
        return self._joined(entry, "events", game_id, "seq", upto, "seq")

    def bundle_commands(self, game_id: str, upto: int | None = None) -> str:
        """Every command whose events are all within `upto` as a bundle's `commands` carries it (payloads as stored),
        without the brackets, in the order of their events."""
        entry = (
            f"'{{\"command_id\":' || {self._json_string('command_id')} || ',\"seat\":' || {self._json_string('seat')}"
            " || ',\"payload\":' || payload || ',\"seqs\":[' || first_seq || ',' || last_seq || ']}'"
        )
        return self._joined(entry, "commands", game_id, "last_seq", upto, "first_seq")

    def events_of_type(self, game_id: str, type_name: str, upto: int | None = None) -> list[EventRow]:
        sql = f"SELECT {_EVENT_COLS} FROM events WHERE game = ? AND type = ?"
        if upto is None:
            return [EventRow(*r) for r in self._query(sql + " ORDER BY seq", (game_id, type_name))]
        return [EventRow(*r) for r in self._query(sql + " AND seq <= ? ORDER BY seq", (game_id, type_name, upto))]

    @staticmethod
    def _json_string(column: str) -> str:
        """SQL for a text column as a JSON string (SQLite's JSON1; PostgreSQL overrides)."""
        return f"json_quote({column})"

    def _joined(self, entry: str, table: str, game_id: str, bound: str, upto: int | None, order: str) -> str:
        """`entry` of each of a game's rows in `table` (those with `bound` <= `upto`; all where None), in the order of
        `order`, joined by commas. SQLite aggregates in the order its ordered subquery yields (an aggregate's outer
        query is never flattened into a subquery with ORDER BY); PostgreSQL overrides with string_agg's ORDER BY."""
        where, params = ("game = ?", (game_id,)) if upto is None else (f"game = ? AND {bound} <= ?", (game_id, upto))
        rows = self._query(
            f"SELECT group_concat(x, ',') FROM (SELECT {entry} AS x FROM {table} WHERE {where} ORDER BY {order})",
            params,
        )
        return rows[0][0] or ""

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

    def create_game(
        self,
        game: GameRow,
        events: list[NewEventRow],
        command: CommandRow,
        clocked: bool = False,
        running_since: float | None = None,
        later: Sequence[CommandRow] = (),
    ) -> None:
        """A new game: its row, opening events and command in one transaction; `clocked`: it has a turn clock, which
        runs from `running_since` (None: once its open seats are taken, `start_clock`); `later`: the commands of the
        rest of `events`, written in the same transaction (an imported game, service/imported.py: whole or nothing)."""
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
                self._wrote(game.id)
                self._execute(conn, _INSERT_GAME, row)
                self._insert(conn, events, command)
                for cmd in later:
                    self._execute(conn, INSERT_COMMAND, _command_values(cmd))
                if clocked:
                    self._execute(
                        conn, "INSERT INTO clocks (game, running_since) VALUES (?, ?)", (game.id, running_since)
                    )
        except Exception as e:
            if self._is_conflict(e):
                raise StoreConflict(f"game {game.id} exists or was written concurrently") from e
            raise

    def append(
        self, events: list[NewEventRow], command: CommandRow, wait: bool = True, outbox: list[OutboxRow] | None = None
    ) -> None:
        """One command's events and its row in one transaction, with the notifications they cause (`outbox`: the
        outbox pattern: they exist exactly when the events do). `wait=False`: raise WouldBlock at once rather than
        wait for a write lock another writer holds (a caller on an event loop must never wait)."""
        try:
            with self._transaction(wait) as conn:
                self._insert(conn, events, command)
                if outbox:
                    self._insert_outbox(conn, outbox)
        except Exception as e:
            if self._is_conflict(e):
                raise StoreConflict(str(e)) from e
            raise

    def _insert(self, conn: Any, events: list[NewEventRow], command: CommandRow) -> None:
        self._insert_many(conn, _INSERT_EVENT, [msgspec.structs.astuple(e) for e in events])
        if events:
            self._wrote(command.game, (events[-1].seq, events[-1].hash))
        self._execute(conn, INSERT_COMMAND, _command_values(command))

    def _insert_outbox(self, conn: Any, rows: list[OutboxRow], once: bool = False) -> None:
        """`once`: a row whose id is queued already is left as it is (several processes may send one)."""
        sql = _INSERT_OUTBOX + (" ON CONFLICT (id) DO NOTHING" if once else "")
        self._insert_many(conn, sql, [_outbox_values(r) for r in rows])
        for r in rows:
            if r.kind not in UNVERSIONED:  # its `since` was from the last one: the next reads on from this one
                version = json.loads(r.payload)["data"]["version"]
                self._execute(
                    conn,
                    "UPDATE webhooks SET last_turn = ? WHERE game = ? AND reader = ? AND last_turn < ?",
                    (version, r.game, r.reader, version),
                )
        self._wrote(rows[0].game)  # the kept registrations' last_turn moved

    # ---- webhooks and their outbox (service/webhooks.py) ----

    def moved_on(self, game_id: str, reader: str, version: int) -> str | None:
        """Why a turn's notice to `reader` written at `version` is out of date: the game ended since, or the reader
        sent a command since (its turn taken, by itself or by the turn clock); None while it may still hold."""
        ended = "SELECT 1 FROM events WHERE game = ? AND seq > ? AND type = 'GameEnded' LIMIT 1"
        if self._query(ended, (game_id, version)):
            return "the game ended since"
        # a client seed is no move (a seat may send it before the first roll, its turn still owed); payloads are
        # canonical JSON, keys sorted, so its type is its last key
        sent = "SELECT 1 FROM commands WHERE game = ? AND seat = ? AND first_seq > ? AND payload NOT LIKE ? LIMIT 1"
        if self._query(sent, (game_id, reader, version, '%"type":"contribute_seed"}')):
            return f"{reader} has sent a command since"
        return None

    def hooks(self, game_id: str) -> dict[str, int]:
        """The readers of a game with a webhook, each with its last your-turn version; {} for most games. Kept
        between writes where the store can tell nothing changed (SQLite), so a game without hooks costs no query."""
        return self._kept_or_read(
            game_id, HOOKS, "SELECT reader, last_turn FROM webhooks WHERE game = ?", _hooks_of
        )

    def hook(self, game_id: str, reader: str) -> HookRow | None:
        rows = self._query(f"SELECT {_HOOK_COLS} FROM webhooks WHERE game = ? AND reader = ?", (game_id, reader))
        if not rows:
            return None
        game, reader, url, secret, old_secret, old_until, last_turn, created_at, pending = rows[0]
        return HookRow(game, reader, url, secret, old_secret, old_until, last_turn, created_at, bool(pending))

    def put_hook(self, hook: HookRow) -> None:
        """Register or replace a reader's target (a new secret; its last_turn stays)."""
        with self._transaction() as conn:
            self._upsert_hook(conn, hook)

    def _upsert_hook(self, conn: Any, hook: HookRow) -> None:
        self._execute(
            conn,
            f"INSERT INTO webhooks ({_HOOK_COLS}) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (game, reader) DO UPDATE "
            "SET url = excluded.url, secret = excluded.secret, old_secret = NULL, old_until = NULL, "
            "created_at = excluded.created_at, pending = excluded.pending",
            (
                hook.game, hook.reader, hook.url, hook.secret, None, None, hook.last_turn, hook.created_at,
                int(hook.pending),
            ),
        )
        self._wrote(hook.game)

    _ADDRESS_LOCK = ""  # PostgreSQL's: an advisory lock, so two registrations never both pass the counts

    def put_address(
        self, hook: HookRow, code: OutboxRow, since: float, per_mailbox: int, per_reader: int
    ) -> str | None:
        """An e-mail address registered and its code queued, in one transaction, only while fewer than
        `per_mailbox` codes went to its mailbox since `since` (the code's payload names it; in any game; those its
        owner confirmed do not count) and fewer than `per_reader` were queued by this reader; a code the reader
        queued earlier and not sent yet is dropped (only the newest goes). None, or the limit that refused it
        (`mailbox`, `reader`: nothing written)."""
        with self._transaction() as conn:
            if self._ADDRESS_LOCK:
                self._execute(conn, self._ADDRESS_LOCK)
            [(to_it,)] = self._rows_in(
                conn,
                "SELECT count(*) FROM outbox o WHERE o.kind = 'confirm' AND o.payload = ? AND o.created >= ? "
                "AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.game = o.game AND w.reader = o.reader "
                "AND w.pending = 0 AND lower(w.url) = ?)",
                (code.payload, since, hook.url.lower()),
            )
            [(by_it,)] = self._rows_in(
                conn,
                "SELECT count(*) FROM outbox WHERE game = ? AND reader = ? AND kind = 'confirm' AND created >= ?",
                (hook.game, hook.reader, since),
            )
            if to_it >= per_mailbox or by_it >= per_reader:
                return "mailbox" if to_it >= per_mailbox else "reader"
            self._upsert_hook(conn, hook)  # the registration's row locked before its outbox rows, as delete_hook does
            self._execute(
                conn,
                "UPDATE outbox SET status = 'dropped', outcome = 'a newer code replaced it' WHERE game = ? "
                "AND reader = ? AND kind = 'confirm' AND status = 'pending'",
                (hook.game, hook.reader),
            )
            self._insert_outbox(conn, [code], once=True)
        return None

    def rotate_hook(self, game_id: str, reader: str, secret: str, old_until: float) -> bool:
        with self._transaction() as conn:
            n = self._updated(
                conn,
                "UPDATE webhooks SET old_secret = secret, old_until = ?, secret = ? WHERE game = ? AND reader = ?",
                (old_until, secret, game_id, reader),
            )
        return n > 0

    def confirm_hook(self, game_id: str, reader: str, secret: str) -> bool:
        """An address's code came back: it is pending no more (only if its code is still `secret`: a PUT since then
        mailed another)."""
        with self._transaction() as conn:
            n = self._updated(
                conn,
                "UPDATE webhooks SET pending = 0 WHERE game = ? AND reader = ? AND secret = ? AND pending = 1",
                (game_id, reader, secret),
            )
        return n > 0

    def delete_hook(self, game_id: str, reader: str, secret: str | None = None) -> bool:
        """Remove the target (only while its secret is still `secret`, when given: a mail's stop link); what was still
        pending for it is dropped (never delivered)."""
        with self._transaction() as conn:
            n = self._updated(
                conn,
                "DELETE FROM webhooks WHERE game = ? AND reader = ?" + (" AND secret = ?" if secret else ""),
                (game_id, reader, secret) if secret else (game_id, reader),
            )
            if not n and secret:  # a stale link: the newer registration's rows stay
                return False
            self._execute(
                conn,
                "UPDATE outbox SET status = 'dropped' WHERE game = ? AND reader = ? AND status = 'pending'",
                (game_id, reader),
            )
            self._wrote(game_id)
        return n > 0

    def enqueue(self, row: OutboxRow) -> None:
        """A notification no append causes; a row with an id queued already is left as it is (a deadline-warning
        that several processes send has one id). A your-turn moves its reader's `last_turn`, as in an append."""
        with self._transaction() as conn:
            self._insert_outbox(conn, [row], once=True)

    PRUNE_BATCH = 1000  # rows one prune deletes per transaction: a long table goes in short locks

    def prune_outbox(self, before: float) -> int:
        """Delete up to PRUNE_BATCH settled notifications (delivered, failed, dropped) last touched before `before`
        (a dropped one: queued); how many. One short transaction: the caller calls again while batches come back full.
        A deadline-warning stays while its game's clock runs: its id is what tells a later sweep it went out, and a
        turn (up to a year, extended) may outlast any keeping time."""
        with self._transaction() as conn:
            return self._updated(
                conn,
                "DELETE FROM outbox WHERE id IN (SELECT o.id FROM outbox o WHERE o.status <> 'pending' "
                "AND COALESCE(o.last_at, o.created) < ? AND (o.kind <> 'deadline-warning' "
                "OR NOT EXISTS (SELECT 1 FROM clocks c WHERE c.game = o.game) OR EXISTS (SELECT 1 FROM events e "
                "WHERE e.game = o.game AND e.type = 'GameEnded')) LIMIT ?)",
                (before, self.PRUNE_BATCH),
            )

    def outbox_pending(self) -> int:
        """Notifications not delivered yet (GET /metrics)."""
        return int(self._query("SELECT count(*) FROM outbox WHERE status = 'pending'")[0][0])

    # ---- stream tickets: one stream at a time ----

    def lease_ticket(self, key: str, holder: str, until: float, now: float) -> bool:
        """Take the ticket `key` for the stream `holder` until `until` (its expiry); False if another stream holds it
        (leases past their time are dropped first: a process that died with a stream open frees its tickets so)."""
        with self._transaction() as conn:
            self._execute(conn, "DELETE FROM stream_leases WHERE until < ?", (now,))
            return self._updated(
                conn,
                "INSERT INTO stream_leases (ticket, holder, until) VALUES (?, ?, ?) ON CONFLICT (ticket) DO NOTHING",
                (key, holder, until),
            ) == 1

    def release_ticket(self, key: str, holder: str) -> None:
        with self._transaction() as conn:
            self._execute(conn, "DELETE FROM stream_leases WHERE ticket = ? AND holder = ?", (key, holder))

    # ---- turn clocks ----

    def clocks(self) -> list[tuple[str, float | None]]:
        """The games with a turn clock that have not ended: (game, running_since)."""
        return [
            (g, since)
            for g, since in self._query(
                "SELECT c.game, c.running_since FROM clocks c WHERE NOT EXISTS "
                "(SELECT 1 FROM events e WHERE e.game = c.game AND e.type = 'GameEnded') ORDER BY c.game"
            )
        ]

    def clock_since(self, game_id: str) -> tuple[bool, float | None]:
        """Whether the game has a turn clock, and since when it runs (None: a seat still waits for its player)."""
        rows = self._query("SELECT running_since FROM clocks WHERE game = ?", (game_id,))
        return (True, rows[0][0]) if rows else (False, None)

    def start_clock(self, game_id: str, now: float) -> float:
        """The game has all its seats: its clock runs from `now`, unless another process started it first; when."""
        with self._transaction() as conn:
            self._updated(conn, _START_CLOCK, (now, game_id))
        return self.clock_since(game_id)[1] or now

    _CLAIM_LOCK = ""  # PostgreSQL: FOR UPDATE SKIP LOCKED

    def claim(self, now: float, lease: float, limit: int) -> list[OutboxRow]:
        """Up to `limit` notifications due now and not leased, leased to the caller until `now + lease`: each is in
        flight in one process at a time (a lease that runs out, its process dead, lets another take it)."""
        with self._transaction() as conn:
            return [
                OutboxRow(*r)
                for r in self._rows_in(
                    conn,
                    f"UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id IN (SELECT id FROM outbox "
                    "WHERE status = 'pending' AND due <= ? AND (lease_until IS NULL OR lease_until < ?) "
                    f"ORDER BY due LIMIT ?{self._CLAIM_LOCK}) RETURNING {_OUTBOX_COLS}",
                    (now + lease, now, now, limit),
                )
            ]

    def settle(self, row_id: str, status: str, outcome: str, now: float, due: float | None) -> None:
        """An attempt's outcome: delivered, failed (given up), or pending again at `due` (a retry)."""
        with self._transaction() as conn:
            self._execute(
                conn,
                "UPDATE outbox SET status = ?, outcome = ?, last_at = ?, due = COALESCE(?, due), lease_until = NULL "
                "WHERE id = ? AND status = 'pending'",
                (status, outcome, now, due, row_id),
            )

    def deliveries(self, game_id: str, reader: str, limit: int = 10) -> list[OutboxRow]:
        rows = self._query(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game = ? AND reader = ? ORDER BY created DESC LIMIT ?",
            (game_id, reader, limit),
        )
        return [OutboxRow(*r) for r in rows]

    def count_creation(self, client: str, now: float, per_minute: int) -> int:
        """Count one game created by `client` against `per_minute`, across every process on this store. 0 when it is
        allowed (and counted), else the seconds to wait. A sliding minute, estimated from two fixed ones: the
        current minute's count plus the previous minute's weighted by how much of it the sliding minute still covers."""
        minute = int(now // 60)
        with self._transaction() as conn:
            self._execute(conn, "DELETE FROM creations WHERE minute < ?", (minute - 1,))
            self._execute(
                conn,
                "INSERT INTO creations (client, minute, n) VALUES (?, ?, 1) "
                "ON CONFLICT (client, minute) DO UPDATE SET n = creations.n + 1",
                (client, minute),
            )
            counts: dict[int, int] = dict(self._rows_in(conn, "SELECT minute, n FROM creations WHERE client = ?", (client,)))
            current, previous = counts.get(minute, 0), counts.get(minute - 1, 0)
            weight = 1 - (now / 60 - minute)
            if current + previous * weight <= per_minute:
                return 0
            self._execute(conn, "UPDATE creations SET n = n - 1 WHERE client = ? AND minute = ?", (client, minute))
        elapsed = now - minute * 60
        if current > per_minute or not previous:
            wait = 60 - elapsed  # the next minute
        else:  # until the previous minute's weighted share leaves room for one more
            wait = 60 * (1 - (per_minute - current) / previous) - elapsed
        return max(1, int(wait) + 1)

    def _rows_in(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> Rows:
        raise NotImplementedError

    def save_snapshot(self, game_id: str, seq: int, engine: str, state: bytes, wait: bool = True) -> None:
        try:
            with self._transaction(wait) as conn:
                self._execute(
                    conn, "INSERT INTO snapshots (game, seq, engine, state) VALUES (?,?,?,?)", (game_id, seq, engine, state)
                )
        except Exception as e:
            if not self._is_conflict(e):  # another process snapshotted the same seq: the same state
                raise
