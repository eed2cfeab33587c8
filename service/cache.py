"""The game states a server holds: a cache of folded games, caught up with the store's head before every use (other
processes may have appended), loaded cold from the nearest snapshot, and snapshots saved every N events.

service/games.py (the unit of work), service/reads.py and service/bundles.py take their states from here.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain import engine
from domain.engine import Game, Rejected
from events.bodies import event_from_body, stored_event
from events.core import GameCreated, as_genesis
from events.store import EventStore, GameRow, StoreUnavailable
from service.credentials import NotFound
from service.http import Encoded
from service.metrics import CACHE_EVICTIONS, CACHE_GAMES
from service.rulesets import Loaded, playable
from service.settings import Settings
from service.snapshots import restore_snapshot, snapshot_key, take_snapshot


def on_event_loop() -> bool:
    """Whether this code runs on an asyncio event loop's thread (a route called inline), where it must never wait.
    (`get_running_loop` says no by raising, which costs a command in a thread ~1 us; this asks without raising.)"""
    return asyncio._get_running_loop() is not None


def fold_stored(game: Game, rows) -> bytes | None:
    """Fold stored rows (whole commands) into `game`; the hash of the last one. A game of an edition not run folds only
    the core's events (its ruleset's may be of types this engine does not even know). A game with a turn clock sets
    its turns after each command, as the write did (`engine.next_turns`)."""
    head = None
    clocked = game.deadlines is not None and game.runs
    for i, r in enumerate(rows):
        if game.runs or r.type in engine.CORE_EVENTS:
            engine.evolve(game, stored_event(r))
        else:
            game.version += 1
        head = r.hash
        if clocked and (i + 1 == len(rows) or rows[i + 1].command_id != r.command_id):
            engine.next_turns(game, r.actor or "", r.recorded_at)
    return None if head is None else bytes.fromhex(head)


@dataclass
class Cached:
    game: Game
    head: bytes
    row: GameRow  # tokens and server seed: fixed at creation
    lock: threading.Lock = field(default_factory=threading.Lock)
    # ((version, head), reader -> its `awaiting`): the answers of one version, dropped when the game moves on
    answers: tuple[tuple[int, bytes], dict] = field(default_factory=lambda: ((0, b""), {}))
    stale: bool = False  # went ahead of the store and could not be read again then: read again before any use

    def awaiting(self, reader: engine.Reader) -> Encoded:
        """`awaiting` as `reader` may see it, built once per version and reader, with its JSON: each entry's as its
        spec keeps it (engine.answered). The caller holds the lock; the list is shared: nobody mutates it."""
        at, by_reader = self.answers
        if at != (self.game.version, self.head):
            by_reader = {}
            self.answers = ((self.game.version, self.head), by_reader)
        out = by_reader.get(reader)
        if out is None:
            made = [engine.answered(s) for s in engine.awaiting(self.game, reader)]
            out = by_reader[reader] = Encoded([e for e, _ in made], [j for _, j in made])
        return out


class GameCache:
    """Game states, cached (the least recently used go first, `settings.cache_games`) and checked against the store's
    head before every read and write, so a state another process moved on is caught up first: any number of
    processes may serve one database. Cold loads start from the nearest snapshot."""

    def __init__(self, store: EventStore, settings: Settings, rulesets: Mapping[str, Loaded]):
        self.store = store
        self.settings = settings
        self.rulesets = rulesets
        self.states: OrderedDict[str, Cached] = OrderedDict()
        # (thread, game, version, head): the state a write about to run on this thread was just checked at, so its
        # own sync asks the store once, not twice (`GameService.runs_inline`; cleared by the next sync, or its caller)
        self.checked: tuple[int, str, int, bytes] | None = None
        self.game_rows: OrderedDict[str, GameRow] = OrderedDict()
        self.lock = threading.Lock()  # guards the dicts, never held while a game loads
        self._loading: dict[str, threading.Lock] = {}

    def row(self, game_id: str) -> GameRow:
        """The game's row (tokens, seed: fixed at creation), without loading its events."""
        row = self.game_rows.get(game_id)
        if row is None:
            row = self.store.game(game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
            if row is None:
                raise NotFound("unknown-game", f"no game {game_id!r} here; POST /games creates one")
            with self.lock:
                self.game_rows[game_id] = row
                while len(self.game_rows) > 4 * max(1, self.settings.cache_games):
                    self.game_rows.popitem(last=False)
        return row

    def cached(self, game_id: str) -> Cached:
        """The cached state, loading it if absent (one loader per game; other games do not wait)."""
        with self.lock:
            c = self.states.get(game_id)
            if c is not None:
                self.states.move_to_end(game_id)
                return c
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:
            with self.lock:
                c = self.states.get(game_id)
            if c is None:
                c = self.load(game_id)
                with self.lock:
                    self.states[game_id] = c
                    self._evict()
                    CACHE_GAMES.set(len(self.states))
            with self.lock:
                self._loading.pop(game_id, None)
            return c

    # What a cached state holds, estimated from its length: P10 measured 11.7 KB for a new aa1942 game and 7.7 MB at
    # 110k events (70 bytes an event, the ruleset's data set shared), 19 KB at 100k since its sheet left the state
    # (issue 35 item 4: so long aa1942 games are now over-estimated). A corvette campaign of 13,462 events holds
    # 0.23 MB (tracemalloc), estimated 0.98 MB: on the safe side. uboat-leader's and battlefleet's are not measured.
    STATE_BASE_BYTES = 12 * 1024
    STATE_BYTES_PER_EVENT = 72

    def estimated_bytes(self, c: Cached) -> int:
        return self.STATE_BASE_BYTES + self.STATE_BYTES_PER_EVENT * c.game.version

    def _evict(self) -> None:
        """Keep at most `cache_games` states and `cache_mb` MiB of them (estimated), the least recently used going
        first; the one just loaded stays, however large. Checked when a state is loaded (the caller holds the lock)."""
        while len(self.states) > max(1, self.settings.cache_games):
            self.states.popitem(last=False)
            CACHE_EVICTIONS.inc()
        budget = self.settings.cache_mb * 2**20
        if budget <= 0:
            return
        total = sum(self.estimated_bytes(c) for c in self.states.values())
        while total > budget and len(self.states) > 1:
            _, gone = self.states.popitem(last=False)
            total -= self.estimated_bytes(gone)
            CACHE_EVICTIONS.inc()

    def game(self, game_id: str, raw: bool = False) -> Locked:
        """`with cache.game(id) as c:` the game's state, locked and as fresh as the store (caught up with what other
        processes appended). Only `raw` uses (the log, the rolls, the bundle, reveal and end) take a game whose edition
        this engine does not run; every other answers 409 edition-not-run."""
        return Locked(self, game_id, raw)

    def sync(self, c: Cached) -> None:
        """Catch a cached state up with the store's head (the caller holds its lock)."""
        checked, self.checked = self.checked, None
        if c.stale:
            self.reload(c)
            return
        if checked == (threading.get_ident(), c.row.id, c.game.version, c.head):
            return  # this thread found the store at this very state a moment ago (GameService.runs_inline)
        head = self.store.head(c.row.id)
        if head is None or (head[0] == c.game.version and head[1] == c.head.hex()):
            return
        if head[0] <= c.game.version:  # the store went back (restored from a backup), or holds other events at this
            self.reload(c)  # version than the cache does: it is the truth
            return
        c.head = fold_stored(c.game, self.store.events(c.row.id, after=c.game.version)) or c.head

    def reload(self, c: Cached) -> None:
        """The store is the truth: read the cached game again (the caller holds its lock). If the store cannot answer
        now, the game stays marked to be read again at its next use (`Cached.stale`)."""
        try:
            fresh = self.load(c.row.id)
        except BaseException:
            c.stale = True
            raise
        c.game, c.head, c.stale = fresh.game, fresh.head, False

    def load(self, game_id: str, upto: int | None = None) -> Cached:
        """A game folded from its nearest snapshot (or its genesis) up to `upto` (default: the head)."""
        row = self.row(game_id)
        genesis = self.store.events(game_id, upto=1)
        if not genesis:
            raise NotFound("unknown-game", f"game {game_id!r} has no events")
        created = as_genesis(event_from_body(msgspec.json.decode(genesis[0].body)))
        game, head = None, bytes.fromhex(genesis[0].hash)
        try:
            loaded = playable(self.rulesets, row.ruleset, created.ruleset.version)
        except Rejected:  # an edition not run: its core alone, for the raw reads
            game = engine.start_unrun(game_id, created)
            loaded = None
        snap = self.store.snapshot(game_id, upto if upto is not None else 2**62, snapshot_key(row)) if loaded else None
        if snap is not None and loaded is not None and snap[0] > 1:
            blank = loaded.start(game_id, created)
            game = restore_snapshot(snap[1], blank)
            if game is not None:
                head = bytes.fromhex(self.store.events(game_id, after=snap[0] - 1, upto=snap[0])[0].hash)
        if game is None:
            assert loaded is not None  # else the game is its core's (start_unrun)
            game = self._genesis(loaded, game_id, created)
        rows = self.store.events(game_id, after=game.version, upto=upto)
        first = genesis[0]
        if game.version == 1 and game.deadlines is not None and (not rows or rows[0].command_id != first.command_id):
            engine.next_turns(game, first.actor or "", first.recorded_at)  # the creation was the genesis alone
        head = fold_stored(game, rows) or head
        return Cached(game, head, row)

    HISTORY_PAGE = 10_000  # events read at a time while a history is folded: the log is never all in memory at once

    def history(self, game_id: str, upto: int) -> Any:
        """The game's history at seq `upto` (its ruleset's `History`: what views show of the past and the rules never
        read), folded from its log, never kept: a fork's goes on from its parent's at the fork's seq. A read of
        the log's length, asked only by the views that show the past (`engine.render`)."""
        genesis = self.store.events(game_id, upto=1)[0]
        created = as_genesis(event_from_body(msgspec.json.decode(genesis.body)))
        loaded = playable(self.rulesets, self.row(game_id).ruleset, created.ruleset.version)
        kept = loaded.ruleset.history
        if kept is None:
            raise TypeError(f"{loaded.ruleset.id} keeps no history, yet one of its views shows it")
        history = kept.start() if created.parent is None else self.history(created.parent.game, created.parent.seq)
        after = 1
        while after < upto:
            rows = self.store.events(game_id, after=after, upto=upto, limit=self.HISTORY_PAGE)
            for r in rows:
                kept.evolve(history, stored_event(r))
            after = rows[-1].seq if rows else upto
        return history

    def _genesis(self, loaded: Loaded, game_id: str, created: GameCreated) -> Game:
        """The game as its genesis starts it; a fork starts from its parent's state at the fork's seq."""
        if created.parent is None:
            return loaded.start(game_id, created)
        parent = self.load(created.parent.game, upto=created.parent.seq)
        if parent.game.version != created.parent.seq or parent.head.hex() != created.parent.hash:
            raise Rejected("fork-parent-changed", f"the parent of {game_id} is not what the fork recorded")
        return engine.start_fork(parent.game, game_id, created)

    def snapshot_if_due(self, c: Cached, before: int) -> None:
        """Every `snapshot_every` events, the state is saved, so a cold load folds at most that many."""
        every = self.settings.snapshot_every
        if every > 0 and c.game.runs and c.game.version // every > before // every:
            args = (c.row.id, c.game.version, snapshot_key(c.row), take_snapshot(c.game))
            if on_event_loop():  # the write may wait for the lock: not on the loop (it is a cache; a failure loses nothing)
                threading.Thread(target=self._save_snapshot, args=args, daemon=True).start()
            else:
                self._save_snapshot(*args)

    def _save_snapshot(self, *args) -> None:
        try:
            self.store.save_snapshot(*args)
        except StoreUnavailable:
            pass  # a snapshot is a cache: the next one is taken N events on


class Locked:
    """`GameCache.game`: a class, not a generator (every command and read opens one; a generator's costs about 1 us
    more, counted)."""

    __slots__ = ("cache", "game_id", "raw", "c")

    def __init__(self, cache: GameCache, game_id: str, raw: bool):
        self.cache, self.game_id, self.raw = cache, game_id, raw

    def __enter__(self) -> Cached:
        cache = self.cache
        if not self.raw:
            row = cache.row(self.game_id)
            playable(cache.rulesets, row.ruleset, row.ruleset_version)
        c = self.c = cache.cached(self.game_id)
        c.lock.acquire()
        try:
            cache.sync(c)
        except BaseException:
            c.lock.release()
            raise
        return c

    def __exit__(self, *exc: object) -> None:
        self.c.lock.release()
