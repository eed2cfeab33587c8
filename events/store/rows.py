"""What the stores hold and answer, and what they raise: one row type per table, the new-event row the service
writes, and `EventStore`, the interface the service needs (SQLite and PostgreSQL both provide it)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import msgspec


class StoreConflict(Exception):
    """Another writer appended first (a seq or a command id is taken); nothing was written."""


class StoreUnavailable(Exception):
    """The store did not answer. `written` is False when it surely wrote nothing (no connection could be had, the
    write lock was not taken), None when the outcome is unknown (the connection was lost after the write was sent:
    it may have committed)."""

    def __init__(self, detail: str, written: bool | None = False):
        super().__init__(detail)
        self.written = written


class StorageUnavailable(StoreUnavailable):
    """The store answered, but cannot write: its disk is full (`condition` "full") or it is read-only ("read-only").
    The write was rolled back: nothing was written. It passes by itself when space or write access comes back."""

    def __init__(self, detail: str, condition: str):
        super().__init__(detail, written=False)
        self.condition = condition


class WouldBlock(StoreUnavailable):
    """A write asked not to wait (`wait=False`) found the write lock taken: nothing was written; do it where waiting
    is harmless (a thread)."""


class EventRow(msgspec.Struct, frozen=True):
    """A stored event. A Struct, not a dataclass: a read of 100,000 events makes its rows in a tenth of the time."""

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


class CommandRow(msgspec.Struct, frozen=True):
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
    ruleset_version: str  # its edition
    data_sha256: str
    status: str
    version: int
    seats: list[str]
    created_at: str
    bots: list[str] = field(default_factory=list)
    open_seats: list[str] = field(default_factory=list)  # seats whose invitation nobody accepted yet


class NewEventRow(msgspec.Struct, frozen=True):
    """A new event as it is inserted; the INSERT's columns are these fields, in this order (events/store/sql.py)."""

    game: str
    seq: int
    type: str
    v: int
    body: str  # canonical JSON of the hashed body
    hash: str
    command_id: str | None
    actor: str | None
    recorded_at: str
    sealed: str | None  # a SubmissionSealed's canonical {"content", "salt"}: beside the body, never public
    roll_k: int | None  # a DiceRolled's k: the index the rolls are read by


class EventStore(Protocol):
    """What the service needs of a store (SQLite and PostgreSQL both provide it)."""

    path: str  # where it lives: a file, ":memory:" or a postgresql:// URL
    PRUNE_BATCH: int  # settled notifications prune_outbox deletes at most per call

    def ping(self) -> None: ...  # a trivial query: raises when the store cannot answer
    def session(self) -> AbstractContextManager[None]: ...  # one command's reads and write: one check of the store
    def game(self, game_id: str) -> GameRow | None: ...
    def tokens(self, game_id: str) -> dict[str, str] | None: ...
    def replace_tokens(
        self, game_id: str, old: dict[str, str], new: dict[str, str], begins: Begins | None = None
    ) -> bool: ...
    def head(self, game_id: str) -> tuple[int, str] | None: ...
    def events(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[EventRow]: ...
    def rolls(self, game_id: str, after_k: int = -1, limit: int = 100, k: int | None = None) -> list[EventRow]: ...
    def command(self, game_id: str, command_id: str) -> CommandRow | None: ...
    def commands(self, game_id: str) -> list[CommandRow]: ...
    def bundle_events(self, game_id: str, upto: int | None = None) -> str: ...
    def bundle_commands(self, game_id: str, upto: int | None = None) -> str: ...
    def events_of_type(self, game_id: str, type_name: str, upto: int | None = None) -> list[EventRow]: ...
    def list_games(
        self, ruleset: str | None, status: str | None, before: tuple[str, str] | None, limit: int
    ) -> list[GameListRow]: ...
    def create_game(
        self,
        game: GameRow,
        events: list[NewEventRow],
        command: CommandRow,
        clocked: bool = False,
        running_since: float | None = None,
        later: Sequence[CommandRow] = (),
    ) -> None: ...
    def append(
        self, events: list[NewEventRow], command: CommandRow, wait: bool = True, outbox: list[OutboxRow] | None = None
    ) -> None: ...
    def hooks(self, game_id: str) -> dict[str, int]: ...
    def hook(self, game_id: str, reader: str) -> HookRow | None: ...
    def put_hook(self, hook: HookRow) -> None: ...
    def rotate_hook(self, game_id: str, reader: str, secret: str, old_until: float) -> bool: ...
    def delete_hook(self, game_id: str, reader: str, secret: str | None = None) -> bool: ...
    def moved_on(self, game_id: str, reader: str, version: int) -> str | None: ...
    def confirm_hook(self, game_id: str, reader: str, secret: str) -> bool: ...
    def put_address(
        self, hook: HookRow, code: OutboxRow, since: float, per_mailbox: int, per_reader: int
    ) -> str | None: ...
    def enqueue(self, row: OutboxRow) -> None: ...
    def clocks(self) -> list[tuple[str, float | None]]: ...
    def lease_ticket(self, key: str, holder: str, until: float, now: float) -> bool: ...
    def outbox_pending(self) -> int: ...
    def prune_outbox(self, before: float) -> int: ...
    def release_ticket(self, key: str, holder: str) -> None: ...
    def clock_since(self, game_id: str) -> tuple[bool, float | None]: ...
    def start_clock(self, game_id: str, now: float) -> float: ...
    def claim(self, now: float, lease: float, limit: int) -> list[OutboxRow]: ...
    def settle(self, row_id: str, status: str, outcome: str, now: float, due: float | None) -> None: ...
    def deliveries(self, game_id: str, reader: str, limit: int = 10) -> list[OutboxRow]: ...
    def save_snapshot(self, game_id: str, seq: int, engine: str, state: bytes, wait: bool = True) -> None: ...
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


@dataclass(frozen=True)
class HookRow:
    """A reader's notification target (operational data, never an event, never in a bundle): a webhook URL, or a
    `mailto:` address. A webhook's `old_secret` still signs until `old_until` (a rotation's overlap); an address's
    `secret` is the code mailed to it, and it is `pending` (nothing but that mail is sent) until the code comes back;
    `last_turn` is the version of the reader's last `your-turn`."""

    game: str
    reader: str
    url: str
    secret: str
    old_secret: str | None
    old_until: float | None
    last_turn: int
    created_at: str
    pending: bool = False


@dataclass(frozen=True)
class OutboxRow:
    """A notification to deliver: written in the transaction of the events that caused it, then claimed (a lease)
    by one process's dispatcher at a time until delivered or given up. `status`: pending | delivered | failed |
    dropped (its registration was removed)."""

    id: str
    game: str
    reader: str
    kind: str
    payload: str  # the JSON body, fixed at enqueue so every retry sends the same bytes
    created: float
    due: float
    attempts: int = 0
    status: str = "pending"
    outcome: str | None = None  # the last attempt's HTTP status or error
    last_at: float | None = None


class Begins(NamedTuple):
    """What the last join writes with its seat (`replace_tokens`): the turn clock's start, the game's version the
    notifications were made from, and the notifications."""

    now: float
    version: int
    rows: list[OutboxRow]


def redacted(url: str) -> str:
    """A database URL (or a command holding one) without its password, for logs and what the CLI prints."""
    return re.sub(r"(://[^:/@\s]+):[^@\s]*@", r"\1:***@", url)
