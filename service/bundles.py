"""Replay bundles as the API serves them (docs/spec/events.md): built from the stored log, sealed commands not yet
revealed shown as their commitments, whoever asks (a bundle is a file that travels: EVENTS.md "Sealed inputs" 1 and
5), encoded once per (game, head) and kept; the ETags of every read.

A bundle needs no rules: a game of an edition this engine does not run has its bundle too.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import msgspec

from domain import engine
from domain.dice import EMPTY_CLIENT_SEED
from events.bodies import event_from_body, stored_event
from events.bundle import envelope
from events.core import SeedLocked, as_genesis
from events.store import CommandRow
from service import ENGINE_VERSION
from service.cache import GameCache
from service.credentials import Credentials
from service.payloads import command_kind


class Bundles:
    """The bundles of a service's games, and the ETags of its reads (the routes call it)."""

    def __init__(self, cache: GameCache, credentials: Credentials):
        self.cache = cache
        self.store = cache.store
        self.rulesets = cache.rulesets
        self.credentials = credentials
        self.lock = threading.Lock()  # guards the dicts
        self._bundles: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # (game, etag) -> the encoded bundle
        self._bundle_bytes = 0
        self._parents: dict[str, str | None] = {}  # game -> the game it was forked from
        self._building: dict[tuple[str, str], threading.Lock] = {}  # (game, etag) -> held while its bundle is built

    BUNDLE_CACHE_BYTES = 64 * 1024 * 1024  # encoded bundles kept, least recently used out first

    def bundle(self, game_id: str, upto: int | None = None) -> dict[str, Any]:
        """The replay bundle (docs/spec/events.md) as data: `encoded`, decoded."""
        return msgspec.json.decode(self.encoded(game_id, upto))

    def encoded(self, game_id: str, upto: int | None = None) -> bytes:
        """The replay bundle (docs/spec/events.md), of the whole log or of its first `upto` events (a fork's parent).
        A sealed command's payload shows as {"sealed": commitment} until it is revealed, whoever asks. A fork's bundle
        carries its parent's, up to the fork's seq. It needs no rules: a game of an edition this engine does not run
        has its bundle too. The events and payloads are spliced in as stored (canonical JSON), so nothing is decoded
        that the bundle does not change."""
        with self.cache.game(game_id, raw=True) as c:
            row = c.row
            g = c.game
            last = g.version if upto is None else upto  # another process may append meanwhile: the state's version
            events = self.store.bundle_events(game_id, last)
            if g.unrevealed:
                commands = self._commands_hiding(game_id, last, g.unrevealed)
            else:
                commands = self.store.bundle_commands(game_id, last)
            head = self.store.events(game_id, after=last - 1, upto=last)[0].hash
            locks = self.store.events_of_type(game_id, "SeedLocked", last)
        created = g.created
        lock = stored_event(locks[0]) if locks else None
        client_seeds = lock.client_seeds if isinstance(lock, SeedLocked) else [g.client_seeds.get(s, EMPTY_CLIENT_SEED) for s in g.seats]
        dice = {
            "scheme": created.dice.scheme,
            "mode": row.mode,
            "server_commit": row.server_commit,
            "server_seed": g.revealed_seed,
            "client_seeds": client_seeds,
            "beacon": created.dice.beacon,
        }
        parent = created.parent
        return msgspec.json.encode(
            envelope(
                ENGINE_VERSION,
                {"id": row.ruleset, "version": row.ruleset_version, "data_sha256": row.data_sha256},
                game_id,
                dice,
                msgspec.Raw(f"[{commands}]".encode()),
                msgspec.Raw(f"[{events}]".encode()),
                head,
                None if parent is None else msgspec.Raw(self.encoded(parent.game, upto=parent.seq)),
            )
        )

    def _commands_hiding(self, game_id: str, last: int, hidden: dict[int, Any]) -> str:
        """The bundle's commands (as `store.bundle_commands`) where some are still sealed: each of those shows its
        commitment in place of its payload."""

        def payload(x: CommandRow) -> Any:
            for seq in range(x.first_seq, x.last_seq + 1):
                e = hidden.get(seq)
                if e is not None and e.seat == x.seat and e.kind == command_kind(msgspec.json.decode(x.payload)):
                    return {"sealed": e.commitment}
            return msgspec.Raw(x.payload.encode())

        cmds = [
            {"command_id": x.command_id, "seat": x.seat, "payload": payload(x), "seqs": [x.first_seq, x.last_seq]}
            for x in self.store.commands(game_id)
            if x.last_seq <= last
        ]
        return msgspec.json.encode(cmds)[1:-1].decode()

    def etag(self, game_id: str, reader: engine.Reader = None, what: str = "bundle") -> str:
        """The entity tag of a read of this game: `"<version>-<digest>"` of the game's head (one indexed query), who
        reads and what is read (path and query), which are all a read depends on; the summary's also covers which
        seats are still open (a join moves no head), a bundle's the heads of every game it was forked from (a parent
        revealed later shows its seed in the fork's bundle). A command's If-Match takes any of them: its version
        leads."""
        self.cache.row(game_id)  # 404 for an unknown game
        head = self.store.head(game_id)
        heads, at = [], self._parent_of(game_id) if what.startswith("bundle") else None
        while at is not None:
            up = self.store.head(at)
            heads.append(f"{at}@{up[1] if up else ''}")
            at = self._parent_of(at)
        extra = ",".join(sorted(self.credentials.open_seats(game_id))) if what.startswith("summary") else ""
        text = "\n".join([game_id, head[1] if head else "", str(reader), what, extra, *heads])
        return f'"{head[0] if head else 0}-{hashlib.sha256(text.encode()).hexdigest()[:24]}"'

    def bundle_etag(self, game_id: str) -> str:
        return self.etag(game_id, None, "bundle")

    def _parent_of(self, game_id: str) -> str | None:
        """The game a fork was made from (its genesis says; fixed for good), or None."""
        if game_id not in self._parents:
            genesis = self.store.events(game_id, upto=1)
            created = as_genesis(event_from_body(msgspec.json.decode(genesis[0].body))) if genesis else None
            parent = created.parent.game if created is not None and created.parent is not None else None
            with self.lock:
                self._parents[game_id] = parent
        return self._parents[game_id]

    def bundle_bytes(self, game_id: str) -> bytes:
        """The bundle as served and exported: the same bytes from `GET /bundle` and `umpire export`. Kept per (game,
        head), so an unchanged game's bundle is built once however often it is fetched."""
        key = (game_id, self.bundle_etag(game_id))
        with self.lock:
            hit = self._kept(key)
            if hit is not None:
                return hit
            building = self._building.setdefault(key, threading.Lock())
        # one build per key at a time: requests that arrive while it runs wait for it (a lock, not the interpreter)
        # and take its bytes, instead of each building the same bundle beside it
        with building:
            with self.lock:
                hit = self._kept(key)
            if hit is not None:
                return hit
            try:
                out = self.encoded(game_id)
            except BaseException:
                with self.lock:
                    self._unmark(key, building)
                raise
            with self.lock:  # kept and no longer marked in one step: a request in between would build it again
                self._unmark(key, building)
                self._bundles[key] = out
                self._bundle_bytes += len(out)
                while self._bundle_bytes > self.BUNDLE_CACHE_BYTES and len(self._bundles) > 1:
                    self._bundle_bytes -= len(self._bundles.popitem(last=False)[1])
        return out

    def _kept(self, key: tuple[str, str]) -> bytes | None:
        """A kept bundle, now the most recently used (the caller holds `self.lock`)."""
        hit = self._bundles.get(key)
        if hit is not None:
            self._bundles.move_to_end(key)
        return hit

    def _unmark(self, key: tuple[str, str], building: threading.Lock) -> None:
        """The key is no longer being built by this build (a newer build's mark stays; the caller holds the lock)."""
        if self._building.get(key) is building:
            del self._building[key]

    def server_inputs_if_stored(
        self, game_id: str, seq: int, hash_at_seq: str
    ) -> tuple[bytes, dict[str, dict[str, Any]]] | None:
        """The stored server seed and this server's record of every command up to `seq` (seat, payload, seqs and
        whether it is sealed, by command id), only for a bundle that is a prefix of this store's log. The replay of
        an unrevealed game runs only these commands: a command the caller made up, run with the secret seed, could
        tell what is still hidden (a sealed order, the outcome of a command not yet sent)."""
        row = self.store.game(game_id) if isinstance(game_id, str) else None
        if row is None or seq < 1:
            return None
        at = self.store.events(game_id, after=seq - 1, upto=seq)
        if not at or at[0].hash != hash_at_seq:
            return None
        sealed = self.rulesets[row.ruleset].ruleset.sealed_commands if row.ruleset in self.rulesets else frozenset()
        records = {}
        for x in self.store.commands(game_id):
            if x.last_seq <= seq:
                p = msgspec.json.decode(x.payload)
                records[x.command_id] = {
                    "seat": x.seat,
                    "payload": p,
                    "seqs": [x.first_seq, x.last_seq],
                    "sealed": command_kind(p) in sealed,
                }
        return bytes.fromhex(row.server_seed), records
