"""Making games: a new game from POST /games (or a script), a fork of one at a seq, each stored with fresh
credentials, its opening events and the recorded input, behind the creation token and the per-client rate.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from typing import Any, Callable, Mapping, Protocol

import msgspec

from domain import engine
from events.canonical import GENESIS_HASH, canonical
from events.core import GameCreated, ParentRef, as_genesis
from events.store import CommandRow, GameRow
from events.vocabulary import Event
from service.bots import check_bots
from service.credentials import Unauthorized, is_operator_token, stored_for_new_game
from service.deadlines import epoch
from service.http import TooMany
from service.models import CreateDice
from service.payloads import CREATOR, CreatePayload, creation_events_for
from service.reads import ruleset_out, seat_out
from service.rulesets import Loaded, loaded_for, playable


class WritePath(Protocol):
    """What creation needs of the service it belongs to (service/games.py's GameService): its store, cache, settings
    and rulesets, and its write path for the new game's rows and its bot seats. Named here so creation does not
    import the module that composes it."""

    store: Any
    cache: Any
    bundles: Any  # the public bundle, for where a refused fork can start instead
    clock: Callable[[], str]
    data_dir: Any
    rulesets: Mapping[str, Loaded]
    settings: Any

    def new_rows(self, game_id: str, version: int, head: bytes, evs: list, command_id: str, actor: str, stamp: str):
        ...

    def play_bots(self, game_id: str) -> tuple[int, str] | None:
        ...


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


class Creation:
    """Creation and forks (the routes call it as `GameService.creation`); a new game is stored, then its bot seats play
    through the service's write path."""

    def __init__(self, service: WritePath):
        self.service = service

    def create_from_request(self, req: Any, token: str | None, client: str) -> dict[str, Any]:
        """POST /games: the creation token and the per-client rate (settings), then `create`."""
        self._check_creation_token(token)
        self._count_creation(client)
        if req.edition is not None:
            self._refuse_withdrawn(req.ruleset, req.edition, req.options)
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
            edition=req.edition,
            open_seats=req.open_seats,
            umpired=req.umpired,
            deadlines=None if req.deadlines is None else msgspec.to_builtins(req.deadlines),
        )

    def _refuse_withdrawn(self, ruleset_id: str, edition: str, options: Any, fork: bool = False) -> None:
        """An edition that publishes what the rules keep hidden of a game with these options (a later edition's
        `Change.hides`) makes no new game over the API, nor a fork (a fork is a new game, played on); its games play
        on and replay as they were, and scripts may still make one (`create`). `options`: as sent (or recorded)."""
        loaded = self.service.rulesets.get(ruleset_id)
        if loaded is None or loaded.ruleset.editions.named(edition) is None:
            return  # `create` says what is wrong with the ruleset or the edition
        try:
            recorded = msgspec.to_builtins(engine.new_game_options(loaded.ruleset, options or {}))
        except engine.InvalidInput:  # `create` will say what is wrong with them; judged as sent meanwhile
            recorded = options if isinstance(options, dict) else {}
        editions = loaded.ruleset.editions
        leaks = editions.leaks(edition, recorded)
        if leaks:
            ok = editions.for_new_games(recorded)
            what = "no fork of its games is made" if fork else "no new game with these options is made under it"
            raise engine.InvalidInput(
                "edition-withdrawn",
                f"{ruleset_id} {edition} publishes what the rules keep hidden, which later editions keep hidden "
                f"({', '.join(c.id for c in leaks)}; GET /rulesets/{ruleset_id} says what each does), so {what}: "
                + ("fork a game of a later edition" if fork else f"name one of {', '.join(ok)}, or leave edition out"),
                editions=ok,
            )

    def fork_from_request(self, game_id: str, req: Any, token: str | None, client: str) -> dict[str, Any]:
        """POST /games/{id}/forks: a new game, so the creation token and rate apply."""
        self._check_creation_token(token)
        self._count_creation(client)
        parent = self.service.cache.cached(game_id).game.created
        self._refuse_withdrawn(parent.ruleset.id, parent.ruleset.version, parent.options, fork=True)
        dice = req.dice or CreateDice()
        return self.fork(game_id, req.at, dice.mode, dice.server_seed, dice.client_seeds, dice.beacon, req.bots)

    def _check_creation_token(self, token: str | None) -> None:
        want = self.service.settings.create_token
        if want is not None and not is_operator_token(token, want):
            raise Unauthorized(
                "creation-token-required",
                "this server creates games only with its creation token: send Authorization: Bearer <token>",
            )

    def _count_creation(self, client: str) -> None:
        """UMPIRE_CREATE_PER_MINUTE games a minute per client, counted in the store: every process serving it shares
        the count (a sliding minute, events/store/sql.py `count_creation`)."""
        per_minute = self.service.settings.create_per_minute
        if per_minute <= 0:
            return
        wait = self.service.store.count_creation(client, time.time(), per_minute)
        if wait:
            raise TooMany(
                "too-many-requests",
                f"at most {per_minute} games a minute from one client; retry in {wait} s",
                retry_after=wait,
                limit=per_minute,
            )

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
        edition: str | None = None,
        open_seats: bool = False,
        umpired: bool = True,
        deadlines: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """`game_id` is for scripts that need reproducible bundles; the API always makes a fresh one. `edition` pins
        one the engine runs (recorded in the create_game command, so the replay makes the same genesis).
        `open_seats`: each seat a person plays gets an invitation instead of a token (see `join`). `umpired: false`:
        the referee token reads no seat's sealed content early (recorded, like `edition`, only when not the default)."""
        if ruleset_id not in self.service.rulesets:
            raise engine.InvalidInput(
                "unknown-ruleset", f"no ruleset {ruleset_id!r}; GET /rulesets lists {sorted(self.service.rulesets)}"
            )
        loaded = loaded_for(self.service.rulesets, ruleset_id)
        options = self._inline_data_file(loaded, options or {})
        server_seed = _server_seed(mode, server_seed_hex)
        game_id = game_id or "g-" + secrets.token_hex(8)
        payload: dict[str, Any] = {
            "type": "create_game",
            "ruleset": ruleset_id,
            "options": options or {},
            "seats": seats,
            "dice": {"mode": mode, "client_seeds": client_seeds or {}, "beacon": beacon},
        }
        if bots:
            payload["bots"] = list(bots)
        if edition is not None:
            payload["edition"] = edition
        if not umpired:
            payload["umpired"] = False
        if deadlines is not None:
            payload["deadlines"] = deadlines
        evs = creation_events_for(loaded, game_id, msgspec.convert(payload, CreatePayload), server_seed)
        check_bots(loaded, as_genesis(evs[0]).seats, bots or [])
        return self._open(loaded, game_id, evs, payload, mode, server_seed, bots or [], open_seats)

    def _open(
        self,
        loaded: Loaded,
        game_id: str,
        evs: list[Event],
        payload: dict[str, Any],
        mode: str,
        server_seed: bytes,
        bots: list[str],
        open_seats: bool = False,
    ) -> dict[str, Any]:
        """Store a new game (or fork): its row with fresh credentials, its opening events and the recorded input."""
        created: GameCreated = evs[0]  # type: ignore[assignment]
        stored, tokens, invitations, referee_token = stored_for_new_game(list(created.seats), bots, open_seats)
        stamp = self.service.clock()
        row = GameRow(
            id=game_id,
            ruleset=loaded.ruleset.id,
            ruleset_version=created.ruleset.version,  # its edition
            data_sha256=created.ruleset.data_sha256,  # the default set's, or the game's own
            mode=mode,
            server_seed=server_seed.hex(),
            server_commit=created.dice.server_commit,
            tokens=stored,
            created_at=stamp,
            bots=list(bots),
        )
        command_id = "create"
        rows, outs, head = self.service.new_rows(game_id, 0, GENESIS_HASH, evs, command_id, CREATOR, stamp)
        cmd = CommandRow(game_id, command_id, CREATOR, canonical(payload).decode(), 1, len(rows), stamp)
        clocked = created.deadlines is not None
        self.service.store.create_game(row, rows, cmd, clocked, None if open_seats or not clocked else epoch(stamp))
        # the game's version and head now: its bots may have moved (their commands follow its events in the log)
        version, head_hex = self.service.play_bots(game_id) or (len(rows), head.hex())
        out = {
            "game_id": game_id,
            "ruleset": ruleset_out(row),
            "umpired": created.umpired,
            "version": version,
            "head": head_hex,
            "dice": {"mode": mode, "server_commit": created.dice.server_commit, "beacon": created.dice.beacon},
            "seats": [
                seat_out(s, s in row.bots, s in invitations, token=tokens.get(s), invitation=invitations.get(s))
                for s in created.seats
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
        parent_row = self.service.cache.row(game_id)
        loaded = playable(self.service.rulesets, parent_row.ruleset, parent_row.ruleset_version)
        with self.service.cache.game(game_id) as c:
            version = c.game.version
        if not 1 <= at <= version:
            raise engine.InvalidInput("invalid-at", f"at is a seq of the game, from 1 to {version}")
        ends = sorted(x.last_seq for x in self.service.store.commands(game_id))
        if at not in ends:
            before = max((x for x in ends if x < at), default=None)
            after = min((x for x in ends if x > at), default=None)
            raise engine.InvalidInput(
                "invalid-at",
                f"seq {at} is in the middle of a command's events; a fork starts where a command ended: "
                f"{before} or {after}",
            )
        parent = self.service.cache.load(game_id, upto=at)
        server_seed = _server_seed(mode, server_seed_hex)
        fork_id = fork_id or "g-" + secrets.token_hex(8)
        ref = ParentRef(game=game_id, seq=at, hash=parent.head.hex())
        if parent.game.unrevealed:  # refused as `umpire fork` refuses it, naming where a fork can start instead
            from events.bundle import decode_bundle
            from service.whatif import sealed_refusal

            public = decode_bundle(self.service.bundles.bundle_bytes(game_id))
            raise engine.Rejected("fork-sealed", sealed_refusal(public, at, sorted(parent.game.unrevealed)))
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
        path = self.service.data_dir / loaded.ruleset.id / (name if name.endswith(".json") else name + ".json")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise engine.InvalidInput(
                "unknown-data-file",
                f"no data set {path.name!r} for {loaded.ruleset.id} in {self.service.data_dir}/{loaded.ruleset.id}/",
            )
        except (ValueError, RecursionError) as e:
            raise engine.InvalidInput("invalid-data", f"{path.name} is not JSON: {e}")
        return {k: v for k, v in options.items() if k != "data_file"} | {option: data}
