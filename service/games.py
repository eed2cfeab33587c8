"""Command handling: load -> decide -> append, with idempotency, optimistic concurrency and a state cache.

Every input to a game is a recorded command (creation, a seat's client seed, a ruleset command, the
reveal), so a bundle replays by feeding the commands in order to a fresh engine (service/replay.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from domain import engine
from domain.dice import EMPTY_CLIENT_SEED, client_seed_from_passphrase, faces_for, game_seed
from domain.engine import REFEREE, Game, Rejected
from events.canonical import GENESIS_HASH, canonical, chain_hash
from events.core import DiceRolled, GameCreated, ParentRef
from events.store import CommandRow, EventRow, EventStore, GameRow, StoreConflict
from events.vocabulary import Event
from service import ENGINE_VERSION
from service.bots import MAX_BOT_COMMANDS, bot_choose, bot_for, check_bots
from service.http import TooMany
from service.payloads import CREATOR, CreatePayload, creation_events_for
from service.records import body_of, event_from_body, event_out, sealed_beside, stored_event
from service.snapshots import restore_snapshot, snapshot_key, take_snapshot
from service.rulesets import RULESETS, Loaded
from service.models import CURSOR, CreateDice
from service.settings import Settings

COMMAND_ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
MAX_PAGE = 1000


class NotFound(Rejected):
    status = 404


class Unauthorized(Rejected):
    status = 401


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def render_view(view: engine.View, state: Any, reader: engine.Reader) -> dict[str, Any]:
    out = view.render(state, reader)
    return out if isinstance(out, dict) else msgspec.to_builtins(out)


def loaded_for(ruleset_id: str) -> Loaded:
    loaded = RULESETS.get(ruleset_id)
    if loaded is None:
        raise NotFound("unknown-ruleset", f"no ruleset {ruleset_id!r}; GET /rulesets lists {sorted(RULESETS)}")
    return loaded


@dataclass
class Cached:
    game: Game
    head: bytes
    row: GameRow  # tokens and server seed: fixed at creation
    lock: threading.Lock = field(default_factory=threading.Lock)


class GameService:
    """The unit of work of every write (load -> decide -> append) and the reads beside it.

    Game states are cached (the least recently used go first, `settings.cache_games`) and checked against the store's
    head before every read and write, so a state another process moved on is caught up first: any number of
    processes may serve one database. Cold loads start from the nearest snapshot."""

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], str] = now_iso,
        data_dir: str | None = None,
        settings: Settings | None = None,
    ):
        self.store = store
        self.settings = settings or Settings()
        self.data_dir = Path(data_dir or self.settings.data_dir)
        self.clock = clock
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._game_rows: OrderedDict[str, GameRow] = OrderedDict()
        self._cache_lock = threading.Lock()  # guards the dicts, never held while a game loads
        self._loading: dict[str, threading.Lock] = {}
        self._creations: dict[str, deque[float]] = {}

    # ---- loading ----

    def _row(self, game_id: str) -> GameRow:
        """The game's row (tokens, seed: fixed at creation), without loading its events."""
        row = self._game_rows.get(game_id)
        if row is None:
            row = self.store.game(game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
            if row is None:
                raise NotFound("unknown-game", f"no game {game_id!r} here; POST /games creates one")
            with self._cache_lock:
                self._game_rows[game_id] = row
                while len(self._game_rows) > 4 * max(1, self.settings.cache_games):
                    self._game_rows.popitem(last=False)
        return row

    def _cached(self, game_id: str) -> Cached:
        """The cached state, loading it if absent (one loader per game; other games do not wait)."""
        with self._cache_lock:
            c = self._cache.get(game_id)
            if c is not None:
                self._cache.move_to_end(game_id)
                return c
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:
            with self._cache_lock:
                c = self._cache.get(game_id)
            if c is None:
                c = self._load(game_id)
                with self._cache_lock:
                    self._cache[game_id] = c
                    while len(self._cache) > max(1, self.settings.cache_games):
                        self._cache.popitem(last=False)
            with self._cache_lock:
                self._loading.pop(game_id, None)
            return c

    @contextmanager
    def _game(self, game_id: str) -> Iterator[Cached]:
        """The game's state, locked and as fresh as the store (caught up with what other processes appended)."""
        c = self._cached(game_id)
        with c.lock:
            self._sync(c)
            yield c

    def _sync(self, c: Cached) -> None:
        """Catch a cached state up with the store's head (the caller holds its lock)."""
        head = self.store.head(c.row.id)
        if head is None or (head[0] == c.game.version and head[1] == c.head.hex()):
            return
        if head[0] < c.game.version:  # the store went back (restored from a backup): it is the truth
            fresh = self._load(c.row.id)
            c.game, c.head = fresh.game, fresh.head
            return
        for r in self.store.events(c.row.id, after=c.game.version):
            engine.evolve(c.game, stored_event(r))
            c.head = bytes.fromhex(r.hash)

    def _load(self, game_id: str, upto: int | None = None) -> Cached:
        """A game folded from its nearest snapshot (or its genesis) up to `upto` (default: the head)."""
        row = self._row(game_id)
        loaded = loaded_for(row.ruleset)
        genesis = self.store.events(game_id, upto=1)
        if not genesis:
            raise NotFound("unknown-game", f"game {game_id!r} has no events")
        created = event_from_body(msgspec.json.decode(genesis[0].body))
        game, head = None, bytes.fromhex(genesis[0].hash)
        snap = self.store.snapshot(game_id, upto if upto is not None else 2**62, snapshot_key(row))
        if snap is not None and snap[0] > 1:
            blank = engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, game_id, created)
            game = restore_snapshot(snap[1], blank)
            if game is not None:
                head = bytes.fromhex(self.store.events(game_id, after=snap[0] - 1, upto=snap[0])[0].hash)
        if game is None:
            game = self._genesis(loaded, game_id, created)
        for r in self.store.events(game_id, after=game.version, upto=upto):
            engine.evolve(game, stored_event(r))
            head = bytes.fromhex(r.hash)
        return Cached(game, head, row)

    def _genesis(self, loaded: Loaded, game_id: str, created: GameCreated) -> Game:
        """The game as its genesis starts it; a fork starts from its parent's state at the fork's seq."""
        if created.parent is None:
            return engine.start(loaded.ruleset, loaded.data, loaded.data_sha256, game_id, created)
        parent = self._load(created.parent.game, upto=created.parent.seq)
        if parent.game.version != created.parent.seq or parent.head.hex() != created.parent.hash:
            raise Rejected("fork-parent-changed", f"the parent of {game_id} is not what the fork recorded")
        return engine.start_fork(parent.game, game_id, created)

    def _snapshot_if_due(self, c: Cached, before: int) -> None:
        """Every `snapshot_every` events, the state is saved, so a cold load folds at most that many."""
        every = self.settings.snapshot_every
        if every > 0 and c.game.version // every > before // every:
            self.store.save_snapshot(c.row.id, c.game.version, snapshot_key(c.row), take_snapshot(c.game))

    INLINE_CATCH_UP = 100  # events another process may have appended for a write still to run on the loop

    def runs_inline(self, game_id: str) -> bool:
        """Whether a write may run on the event loop rather than in a thread: its state is cached, nobody holds it and
        it is at most a few events behind the store, it has no bot seats and the store answers without network round
        trips (SQLite). Such a command takes a fraction of a millisecond, less than the thread hop; a load, a long
        catch-up, a bot's turn or a PostgreSQL write go to a thread."""
        c = self._cache.get(game_id)
        if c is None or not getattr(self.store, "local", False) or c.row.bots or c.lock.locked():
            return False
        head = self.store.head(game_id)
        return head is not None and head[0] - c.game.version <= self.INLINE_CATCH_UP

    # ---- auth ----

    def seat_for(self, game_id: str, token: str | None) -> str:
        """The seat (or "referee") a token belongs to, from the game's row: nothing is loaded for a wrong token."""
        if not token:
            raise Unauthorized("missing-token", "send Authorization: Bearer <token> (from POST /games)")
        h = token_hash(token)
        for seat, stored in self._row(game_id).tokens.items():
            if hmac.compare_digest(stored, h):
                return seat
        raise Unauthorized("invalid-token", "this token belongs to no seat of this game")

    def reader_for(self, game_id: str, token: str | None) -> engine.Reader:
        """Who reads: None without a token (the public picture), else the token's seat or the referee (401 if the
        token is not one of this game's)."""
        return None if not token else self.seat_for(game_id, token)

    # ---- creating ----

    def create_from_request(self, req: Any, token: str | None, client: str) -> dict[str, Any]:
        """POST /games: the creation token and the per-client rate (settings), then `create`."""
        self._check_creation_token(token)
        self._count_creation(client)
        dice = req.dice or CreateDice()
        return self.create(
            req.ruleset,
            req.options,
            req.seats,
            dice.mode,
            dice.server_seed,
            dice.client_seeds,
            dice.beacon,
            bots=req.bots,
        )

    def fork_from_request(self, game_id: str, req: Any, token: str | None, client: str) -> dict[str, Any]:
        """POST /games/{id}/forks: a new game, so the creation token and rate apply."""
        self._check_creation_token(token)
        self._count_creation(client)
        dice = req.dice or CreateDice()
        return self.fork(game_id, req.at, dice.mode, dice.server_seed, dice.client_seeds, dice.beacon, req.bots)

    def _check_creation_token(self, token: str | None) -> None:
        want = self.settings.create_token
        if want is not None and not (token and hmac.compare_digest(token_hash(token), token_hash(want))):
            raise Unauthorized(
                "creation-token-required",
                "this server creates games only with its creation token: send Authorization: Bearer <token>",
            )

    def _count_creation(self, client: str) -> None:
        per_minute = self.settings.create_per_minute
        if per_minute <= 0:
            return
        now = time.monotonic()
        with self._cache_lock:
            seen = self._creations.setdefault(client, deque())
            while seen and seen[0] <= now - 60:
                seen.popleft()
            if len(seen) >= per_minute:
                wait = int(seen[0] + 60 - now) + 1
                raise TooMany(
                    "too-many-requests",
                    f"at most {per_minute} games a minute from one client; retry in {wait} s",
                    retry_after=wait,
                    limit=per_minute,
                )
            seen.append(now)
            if len(self._creations) > 10_000:  # forget the quiet ones
                for key in [k for k, v in self._creations.items() if not v or v[-1] <= now - 60]:
                    del self._creations[key]

    def create(
        self,
        ruleset_id: str,
        options: dict[str, Any] | None,
        seats: list[str] | None,
        mode: str,
        server_seed_hex: str | None,
        client_seeds: dict[str, str] | None,
        beacon: str | None,
        game_id: str | None = None,
        bots: list[str] | None = None,
    ) -> dict[str, Any]:
        """`game_id` is for scripts that need reproducible bundles; the API always makes a fresh one."""
        if ruleset_id not in RULESETS:
            raise engine.InvalidInput("unknown-ruleset", f"no ruleset {ruleset_id!r}; GET /rulesets lists {sorted(RULESETS)}")
        loaded = loaded_for(ruleset_id)
        options = self._inline_data_file(loaded, options or {})
        server_seed = _server_seed(mode, server_seed_hex)
        game_id = game_id or "g-" + secrets.token_hex(8)
        payload = {
            "type": "create_game",
            "ruleset": ruleset_id,
            "options": options or {},
            "seats": seats,
            "dice": {"mode": mode, "client_seeds": client_seeds or {}, "beacon": beacon},
        }
        if bots:
            payload["bots"] = list(bots)
        evs = creation_events_for(loaded, game_id, msgspec.convert(payload, CreatePayload), server_seed)
        check_bots(loaded, evs[0].seats, bots or [])
        return self._open(loaded, game_id, evs, payload, mode, server_seed, bots or [])

    def _open(
        self,
        loaded: Loaded,
        game_id: str,
        evs: list[Event],
        payload: dict[str, Any],
        mode: str,
        server_seed: bytes,
        bots: list[str],
    ) -> dict[str, Any]:
        """Store a new game (or fork): its row with fresh tokens, its opening events and the recorded input."""
        created: GameCreated = evs[0]  # type: ignore[assignment]
        tokens = {seat: secrets.token_urlsafe(24) for seat in created.seats}
        referee_token = secrets.token_urlsafe(24)
        stamp = self.clock()
        row = GameRow(
            id=game_id,
            ruleset=loaded.ruleset.id,
            ruleset_version=loaded.ruleset.version,
            data_sha256=created.ruleset.data_sha256,  # the default set's, or the game's own
            mode=mode,
            server_seed=server_seed.hex(),
            server_commit=created.dice.server_commit,
            # a bot seat gets a token nobody holds: the server acts for it
            tokens={**{s: token_hash(t) for s, t in tokens.items()}, REFEREE: token_hash(referee_token)},
            created_at=stamp,
            bots=list(bots),
        )
        command_id = "create"
        rows, outs, head = self._rows(game_id, 0, GENESIS_HASH, evs, command_id, CREATOR, stamp)
        cmd = CommandRow(game_id, command_id, CREATOR, canonical(payload).decode(), 1, len(rows), stamp)
        self.store.create_game(row, rows, cmd)
        self._play_bots(game_id)
        out = {
            "game_id": game_id,
            "ruleset": loaded.ruleset.id,
            "version": len(rows),
            "head": head.hex(),
            "dice": {"mode": mode, "server_commit": created.dice.server_commit, "beacon": created.dice.beacon},
            "seats": [
                {"seat": s, "token": None if s in row.bots else t, "bot": s in row.bots} for s, t in tokens.items()
            ],
            "referee_token": referee_token,
            "events": outs,
        }
        return out

    def fork(
        self,
        game_id: str,
        at: int,
        mode: str = "fair",
        server_seed_hex: str | None = None,
        client_seeds: dict[str, str] | None = None,
        beacon: str | None = None,
        bots: list[str] | None = None,
        fork_id: str | None = None,
    ) -> dict[str, Any]:
        """A new game whose state is `game_id`'s at seq `at`, with its own seats, tokens and dice. Nothing of the
        parent's future (events after `at`, its seed) goes into the fork."""
        parent_row = self._row(game_id)
        loaded = loaded_for(parent_row.ruleset)
        with self._game(game_id) as c:
            version = c.game.version
        if not 1 <= at <= version:
            raise engine.InvalidInput("invalid-at", f"at is a seq of the game, from 1 to {version}")
        ends = sorted(x.last_seq for x in self.store.commands(game_id))
        if at not in ends:
            before = max((x for x in ends if x < at), default=None)
            after = min((x for x in ends if x > at), default=None)
            raise engine.InvalidInput(
                "invalid-at",
                f"seq {at} is in the middle of a command's events; a fork starts where a command ended: "
                f"{before} or {after}",
            )
        parent = self._load(game_id, upto=at)
        server_seed = _server_seed(mode, server_seed_hex)
        fork_id = fork_id or "g-" + secrets.token_hex(8)
        ref = ParentRef(game=game_id, seq=at, hash=parent.head.hex())
        evs = engine.fork_events(parent.game, ref, fork_id, mode, server_seed, client_seeds, beacon)
        check_bots(loaded, parent.game.seats, bots or [])
        payload = {
            "type": "fork_game",
            "parent": msgspec.to_builtins(ref),
            "dice": {"mode": mode, "client_seeds": client_seeds or {}, "beacon": beacon},
        }
        if bots:
            payload["bots"] = list(bots)
        return self._open(loaded, fork_id, evs, payload, mode, server_seed, bots or [])

    def _inline_data_file(self, loaded: Loaded, options: dict[str, Any]) -> dict[str, Any]:
        """`options.data_file`: a data set file in this server's data folder, inlined as `options.data` so the
        game (and its bundle) carries the whole set."""
        name = options.get("data_file") if isinstance(options, dict) else None
        if name is None:
            return options
        option = loaded.ruleset.data_option
        if option is None:
            raise engine.InvalidInput("invalid-options", f"{loaded.ruleset.id} takes no data set of its own")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}(\.json)?", name):
            raise engine.InvalidInput(
                "invalid-options", "data_file is a file name like my-deck.json (letters, digits, - and _)"
            )
        path = self.data_dir / loaded.ruleset.id / (name if name.endswith(".json") else name + ".json")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise engine.InvalidInput(
                "unknown-data-file",
                f"no data set {path.name!r} for {loaded.ruleset.id} in {self.data_dir}/{loaded.ruleset.id}/",
            )
        except (ValueError, RecursionError) as e:
            raise engine.InvalidInput("invalid-data", f"{path.name} is not JSON: {e}")
        return {k: v for k, v in options.items() if k != "data_file"} | {option: data}

    # ---- writing ----

    def _rows(self, game_id, version, head, evs, command_id, actor, stamp):
        """The stored rows of new events, and the events as the API shows them (to the actor)."""
        rows, outs = [], []
        for i, e in enumerate(evs, start=version + 1):
            body = body_of(game_id, i, e, command_id)
            head = chain_hash(head, body)
            beside = sealed_beside(e)
            text = canonical(body).decode()
            roll_k = e.k if isinstance(e, DiceRolled) else None
            rows.append((game_id, i, body["type"], body["v"], text, head.hex(), command_id, actor, stamp, beside, roll_k))
            out = event_out(i, body, head.hex(), actor, stamp)
            if beside is not None and e.seat == actor:  # the sender reads its own sealed content
                out["sealed"] = msgspec.json.decode(beside)
            outs.append(out)
        return rows, outs, head

    def _submit(
        self,
        game_id: str,
        seat: str,
        payload: dict[str, Any],
        command_id: str | None,
        expected_version: int | None,
        decide: Callable[[Game], list[Event]],
        answer: bool = False,
    ) -> dict[str, Any]:
        """The one write path: idempotency, expected version, decide, append in one transaction, then evolve.
        `answer`: add what the sender may do now, read under the same lock (a game without bot seats: see _write)."""
        if command_id is not None and not (isinstance(command_id, str) and COMMAND_ID_RE.match(command_id)):
            raise engine.InvalidInput("invalid-command-id", "command_id matches [A-Za-z0-9._:-]{1,64}")
        if expected_version is not None and (
            not isinstance(expected_version, int) or isinstance(expected_version, bool)
        ):
            raise engine.InvalidInput("invalid-expected-version", "expected_version is an integer (the game's version)")
        payload_text = canonical(payload).decode()
        for attempt in range(3):
            with self._game(game_id) as cached:
                if command_id is not None:
                    prior = self.store.command(game_id, command_id)
                    if prior is not None:
                        if prior.payload != payload_text or prior.seat != seat:
                            raise Rejected(
                                "command-id-reused",
                                f"command_id {command_id!r} was used for another command; use a new id for a new one",
                            )
                        return self._with_awaiting(cached.game, seat, self._result(game_id, prior), answer)
                game = cached.game
                if expected_version is not None and expected_version != game.version:
                    raise Rejected(
                        "version-conflict",
                        f"expected version {expected_version}, the game is at {game.version}; "
                        "read GET /games/{id} and decide again",
                        version=game.version,
                    )
                evs = decide(game)
                cid = command_id or "c-" + secrets.token_hex(8)
                stamp = self.clock()
                before = game.version
                rows, outs, head = self._rows(game_id, before, cached.head, evs, cid, seat, stamp)
                cmd = CommandRow(game_id, cid, seat, payload_text, before + 1, before + len(rows), stamp)
                try:
                    self.store.append(rows, cmd)
                except StoreConflict:
                    # another process appended first: catch up and judge the command again on the new state
                    if expected_version is not None:
                        raise Rejected(
                            "version-conflict", "the game moved on; read GET /games/{id} and decide again"
                        ) from None
                    continue
                try:
                    for e in evs:
                        engine.evolve(game, e)
                    cached.head = head
                except Exception:
                    fresh = self._load(game_id)  # the store is the truth
                    cached.game, cached.head = fresh.game, fresh.head
                    raise
                self._snapshot_if_due(cached, before)
                result = {
                    "game_id": game_id,
                    "command_id": cid,
                    "version": game.version,
                    "head": head.hex(),
                    "replayed": False,
                    "events": outs,
                }
                return self._with_awaiting(game, seat, result, answer)
        raise Rejected("version-conflict", "the game is moving fast; read GET /games/{id} and decide again")

    def _result(self, game_id: str, cmd: CommandRow) -> dict[str, Any]:
        """The original result of a command retried with its command_id; nothing is appended."""
        rows = self.store.events(game_id, after=cmd.first_seq - 1, upto=cmd.last_seq)
        return {
            "game_id": game_id,
            "command_id": cmd.command_id,
            "version": cmd.last_seq,
            "head": rows[-1].hash,
            "replayed": True,
            "events": [self.event_row_out(r, cmd.seat) for r in rows],
        }

    @staticmethod
    def _with_awaiting(game: Game, seat: str, result: dict[str, Any], answer: bool = True) -> dict[str, Any]:
        if answer:
            result["awaiting"] = [msgspec.to_builtins(s) for s in engine.awaiting(game, seat)]
            result["waiting_for"] = engine.waiting_for(game)
        return result

    def _write(self, game_id: str, seat: str, payload, command_id, expected_version, decide) -> dict[str, Any]:
        """A write's answer: what it appended, then what the sender may do now. Without bot seats that is read under
        the write's own lock (one head check, one lock per command); with them, after the bots have moved."""
        if not self._row(game_id).bots:
            return self._submit(game_id, seat, payload, command_id, expected_version, decide, answer=True)
        result = self._submit(game_id, seat, payload, command_id, expected_version, decide)
        self._play_bots(game_id)
        with self._game(game_id) as c:
            return self._with_awaiting(c.game, seat, result)

    def command(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        if not isinstance(body, dict):
            raise engine.InvalidInput("invalid-command", "a command is a JSON object {'type': ..., ...arguments}")
        payload = {k: v for k, v in body.items() if k not in ("command_id", "expected_version")}
        row = self._row(game_id)
        ruleset = loaded_for(row.ruleset).ruleset
        self._refuse_other_rulesets_command(game_id, seat, ruleset, payload.get("type"))
        command = engine.parse_command(ruleset, payload)
        server_seed = bytes.fromhex(row.server_seed)
        return self._write(
            game_id,
            seat,
            payload,
            body.get("command_id"),
            body.get("expected_version"),
            lambda game: engine.decide_command(game, seat, command, server_seed),
        )

    def _refuse_other_rulesets_command(self, game_id: str, seat: str, ruleset: engine.Ruleset, kind: Any) -> None:
        """A well-formed command of another ruleset is refused by this game (409, with what it takes now), not by the
        API's schema, which lists every ruleset's commands."""
        if not isinstance(kind, str) or kind in ruleset.command_names:
            return
        owners = sorted(x.ruleset.id for x in RULESETS.values() if kind in x.ruleset.command_names)
        if owners:
            with self._game(game_id) as c:
                legal = [msgspec.to_builtins(s) for s in engine.awaiting(c.game, seat)]
            raise engine.IllegalCommand(
                f"{kind!r} is a command of {', '.join(owners)}; this game plays {ruleset.id}, whose commands are "
                f"{ruleset.command_names}",
                legal,
            )

    def contribute_seed(
        self,
        game_id: str,
        token: str | None,
        client_seed: str | None,
        passphrase: str | None,
        command_id: str | None = None,
    ) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        if seat == REFEREE:
            raise engine.Forbidden("not-a-seat", "client seeds come from the seats; use a seat's token")
        if (client_seed is None) == (passphrase is None):
            raise engine.InvalidInput("invalid-client-seed", "send exactly one of client_seed (64 hex) or passphrase")
        seed = client_seed if client_seed is not None else client_seed_from_passphrase(passphrase)
        payload = {"type": "contribute_seed", "client_seed": seed}
        return self._write(game_id, seat, payload, command_id, None, lambda g: engine.decide_seed(g, seat, seed))

    def reveal(self, game_id: str, token: str | None, command_id: str | None = None) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        if seat != REFEREE:
            raise engine.Forbidden("referee-only", "only the referee token may reveal the server seed")
        server_seed = bytes.fromhex(self._row(game_id).server_seed)
        payload = {"type": "reveal"}
        return self._write(game_id, seat, payload, command_id, None, lambda g: engine.decide_reveal(g, server_seed))

    def end(self, game_id: str, token: str | None, command_id: str | None = None) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        if seat != REFEREE:
            raise engine.Forbidden("referee-only", "only the referee token may end a game")
        return self._write(game_id, seat, {"type": "end"}, command_id, None, engine.decide_end)

    def _play_bots(self, game_id: str) -> None:
        """Seats the server plays (`bots` at creation) send their commands, each recorded as that seat's command,
        until no bot seat has anything to send. A bot reads only what its own seat may read."""
        row = self._row(game_id)
        if not row.bots:
            return
        loaded = loaded_for(row.ruleset)
        bot = bot_for(row.ruleset)
        server_seed = bytes.fromhex(row.server_seed)
        for _ in range(MAX_BOT_COMMANDS):
            with self._game(game_id) as c:
                game = c.game
                turn = next(
                    ((seat, legal) for seat in c.row.bots if (legal := engine.awaiting(game, seat)) and any(
                        seat in s.seats for s in legal)),
                    None,
                )
                if turn is None:
                    return
                seat, legal = turn
                mine = [s for s in legal if seat in s.seats]
                payload = bot_choose(bot, loaded.ruleset.redact, game.rules, mine, seat)
                version = game.version
            if payload is None:
                return
            command = engine.parse_command(loaded.ruleset, payload)
            self._submit(
                game_id,
                seat,
                payload,
                f"bot-{version + 1}",
                version,
                lambda g, seat=seat, command=command: engine.decide_command(g, seat, command, server_seed),
            )
        raise RuntimeError(f"the bot seats of {game_id} did not stop within {MAX_BOT_COMMANDS} commands")

    # ---- reading ----

    def status(self, game_id: str) -> dict[str, Any]:
        with self._game(game_id) as c:
            g = c.game
            return {"status": status_of(g), "version": g.version, "head": c.head.hex()}

    def summary(self, game_id: str, reader: engine.Reader = None) -> dict[str, Any]:
        with self._game(game_id) as c:
            row = c.row
            g, head = c.game, c.head.hex()
            public_seed = g.created.dice.mode == "public-seed"
            return {
                "game_id": game_id,
                "ruleset": {"id": row.ruleset, "version": row.ruleset_version, "data_sha256": row.data_sha256},
                "version": g.version,
                "head": head,
                "status": status_of(g),
                "seats": g.seats,
                "bots": list(row.bots),
                "options": g.created.options,
                "dice": {
                    "scheme": g.created.dice.scheme,
                    "mode": g.created.dice.mode,
                    "server_commit": row.server_commit,
                    "server_seed": g.revealed_seed,
                    "seed_locked": g.lock is not None,
                    "client_seeds": {s: g.client_seeds.get(s) for s in g.seats},
                    "beacon": g.created.dice.beacon,
                    "next_roll": g.next_roll,
                    "fairness": "public-seed: the creator chose the server seed; no fairness claim"
                    if public_seed
                    else "fair: the server committed to its seed before any client seed",
                    "secrecy": "public-seed: anyone who knows the seed can test guesses against sealed commitments; "
                    "no secrecy claim"
                    if public_seed
                    else "fair: sealed records stay secret until the rules reveal them",
                },
                "awaiting": [msgspec.to_builtins(s) for s in engine.awaiting(g, reader)],
                "waiting_for": engine.waiting_for(g),
                "ended": g.ended,
                "created_at": row.created_at,
            }

    def me(self, game_id: str, token: str | None) -> dict[str, Any]:
        seat = self.seat_for(game_id, token)
        with self._game(game_id) as c:
            g = c.game
            awaiting = [msgspec.to_builtins(s) for s in engine.awaiting(g, seat) if seat in s.seats]
            may = ["command"] if awaiting else []
            if seat != REFEREE and g.lock is None and seat not in g.client_seeds:
                may.append("seed")
            if seat == REFEREE and g.revealed_seed is None:
                may += (["end"] if not g.over else []) + ["reveal"]
            return {
                "game_id": game_id,
                "seat": seat,
                "referee": seat == REFEREE,
                "bot": seat in c.row.bots,
                "awaiting": awaiting,
                "waiting_for": engine.waiting_for(g),
                "may": may,
            }

    def list_games(self, ruleset: str | None, status: str | None, cursor: str | None, limit: int) -> dict[str, Any]:
        """Newest first. A cursor is `<created_at>~<game_id>` of the last game of the previous page: every such pair is a
        place in that order, so any cursor the pattern allows is a valid one."""
        before = None
        if cursor is not None:
            if not re.fullmatch(CURSOR, cursor):
                raise engine.InvalidInput("invalid-cursor", "cursor is the next_cursor of a previous page, unchanged")
            created_at, _, gid = cursor.rpartition("~")
            before = (created_at, gid)
        rows = self.store.list_games(ruleset, status, before, limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        nxt = f"{rows[-1].created_at}~{rows[-1].id}" if more else None
        return {
            "games": [
                {
                    "game_id": r.id,
                    "ruleset": r.ruleset,
                    "status": r.status,
                    "version": r.version,
                    "seats": r.seats,
                    "created_at": r.created_at,
                }
                for r in rows
            ],
            "next_cursor": nxt,
        }

    def events(self, game_id: str, after: int, limit: int, reader: engine.Reader = None) -> dict[str, Any]:
        with self._game(game_id) as c:  # 404 for an unknown game
            version, head = c.game.version, c.head.hex()
        rows = self.store.events(game_id, after=after, limit=limit) if after < version else []
        return {
            "game_id": game_id,
            "events": [self.event_row_out(r, reader) for r in rows],
            "next_after": rows[-1].seq if rows else min(after, version),
            "version": version,
            "head": head,
        }

    @staticmethod
    def event_row_out(r: EventRow, reader: engine.Reader = None) -> dict[str, Any]:
        body = msgspec.json.decode(r.body)
        out = event_out(r.seq, body, r.hash, r.actor, r.recorded_at)
        if r.sealed is not None and reader is not None and reader in (REFEREE, body["data"].get("seat")):
            out["sealed"] = msgspec.json.decode(r.sealed)
        return out

    def _game_seed(self, game_id: str) -> bytes | None:
        with self._game(game_id) as c:
            g = c.game
        if g.revealed_seed is None or g.lock is None:
            return None
        return game_seed(bytes.fromhex(g.revealed_seed), game_id, g.lock.client_seeds, g.lock.beacon)

    def _roll_out(self, r, seed: bytes | None) -> dict[str, Any]:
        body = msgspec.json.decode(r.body)
        d = body["data"]
        out = {"seq": r.seq, **{k: v for k, v in d.items() if v is not None}}
        if seed is None:
            out["verification"] = {"status": "pending", "detail": "verifiable once the server seed is revealed"}
        else:
            recomputed = faces_for(seed, d["k"], d["sides"])
            ok = recomputed == d["faces"]
            out["verification"] = {"status": "verified" if ok else "mismatch", "recomputed_faces": recomputed}
        return out

    def rolls(self, game_id: str, after: int, limit: int) -> dict[str, Any]:
        seed = self._game_seed(game_id)  # 404 for an unknown game
        rows = self.store.rolls(game_id, after_k=after, limit=limit)
        out = [self._roll_out(r, seed) for r in rows]
        return {"game_id": game_id, "rolls": out, "next_after": out[-1]["k"] if out else after}

    def roll(self, game_id: str, k: int) -> dict[str, Any]:
        seed = self._game_seed(game_id)  # 404 for an unknown game
        rows = self.store.rolls(game_id, k=k)
        if not rows:
            raise NotFound("unknown-roll", f"game {game_id} has no roll k={k} (yet)")
        return self._roll_out(rows[0], seed)

    def view(self, game_id: str, name: str, at: int | None, reader: engine.Reader = None) -> dict[str, Any]:
        row = self._row(game_id)
        views = loaded_for(row.ruleset).ruleset.views
        if name not in views:
            raise NotFound("unknown-view", f"{row.ruleset} has the views {sorted(views)}")
        kind = f"{row.ruleset}/{name}"
        with self._game(game_id) as c:
            if at is None or at >= c.game.version:
                data = render_view(views[name], c.game.rules, reader)
                return {"kind": kind, "view": name, "at": c.game.version, "data": data}
        game = self._load(game_id, upto=at).game  # from the nearest snapshot at or before `at`
        return {"kind": kind, "view": name, "at": at, "data": render_view(views[name], game.rules, reader)}

    def bundle(self, game_id: str, reader: engine.Reader = None, upto: int | None = None) -> dict[str, Any]:
        """The replay bundle (docs/spec/events.md), of the whole log or of its first `upto` events (a fork's parent).
        A sealed command's payload shows as {"sealed": commitment} until it is revealed, except to its own seat and
        the referee. A fork's bundle carries its parent's, up to the fork's seq."""
        with self._game(game_id) as c:
            row = c.row
            g = c.game
            rows = self.store.events(game_id, upto=upto)
            cmds = [x for x in self.store.commands(game_id) if upto is None or x.last_seq <= upto]
            unrevealed = dict(g.unrevealed)
        created: GameCreated = event_from_body(msgspec.json.decode(rows[0].body))  # type: ignore[assignment]
        lock = next((stored_event(r) for r in rows if r.type == "SeedLocked"), None)
        client_seeds = lock.client_seeds if lock else [g.client_seeds.get(s, EMPTY_CLIENT_SEED) for s in g.seats]
        hidden = {seq: e for seq, e in unrevealed.items() if reader not in (e.seat, REFEREE)}

        def payload(x: CommandRow) -> dict[str, Any]:
            p = msgspec.json.decode(x.payload)
            for seq in range(x.first_seq, x.last_seq + 1) if hidden else ():
                e = hidden.get(seq)
                if e is not None and e.seat == x.seat and e.kind == p.get("type"):
                    return {"sealed": e.commitment}
            return p

        out = {
            "format": "umpire-bundle/1",
            "engine": ENGINE_VERSION,
            "ruleset": {"id": row.ruleset, "version": row.ruleset_version, "data_sha256": row.data_sha256},
            "game": game_id,
            "dice": {
                "scheme": created.dice.scheme,
                "mode": row.mode,
                "server_commit": row.server_commit,
                "server_seed": g.revealed_seed,
                "client_seeds": client_seeds,
                "beacon": created.dice.beacon,
            },
            "commands": [
                {"command_id": x.command_id, "seat": x.seat, "payload": payload(x), "seqs": [x.first_seq, x.last_seq]}
                for x in cmds
            ],
            "events": [{"body": msgspec.json.decode(r.body), "hash": r.hash} for r in rows],
            "head": rows[-1].hash,
        }
        if created.parent is not None:
            out["parent"] = self.bundle(created.parent.game, None, upto=created.parent.seq)
        return out

    def bundle_bytes(self, game_id: str, reader: engine.Reader = None) -> bytes:
        """The bundle as served and exported: the same bytes from `GET /bundle` and `umpire export`."""
        return msgspec.json.encode(self.bundle(game_id, reader))

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
        sealed = RULESETS[row.ruleset].ruleset.sealed_commands if row.ruleset in RULESETS else frozenset()
        records = {}
        for x in self.store.commands(game_id):
            if x.last_seq <= seq:
                p = msgspec.json.decode(x.payload)
                records[x.command_id] = {
                    "seat": x.seat,
                    "payload": p,
                    "seqs": [x.first_seq, x.last_seq],
                    "sealed": p.get("type") in sealed,
                }
        return bytes.fromhex(row.server_seed), records


def _server_seed(mode: str, server_seed_hex: str | None) -> bytes:
    """Fair: a fresh secret. Public-seed: the creator's, which it must give."""
    if mode == "public-seed":
        if not server_seed_hex or not re.fullmatch(r"[0-9a-f]{64}", server_seed_hex):
            raise engine.InvalidInput("invalid-dice", "public-seed mode takes dice.server_seed: 64 lowercase hex characters")
        return bytes.fromhex(server_seed_hex)
    if server_seed_hex is not None:
        raise engine.InvalidInput(
            "invalid-dice", "dice.server_seed is for public-seed mode only; fair mode makes its own secret seed"
        )
    return secrets.token_bytes(32)


def status_of(g: Game) -> str:
    return "revealed" if g.revealed_seed else "over" if g.over else "open"





