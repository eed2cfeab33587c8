"""Command handling: load -> decide -> append, with idempotency and optimistic concurrency; bot seats' turns.

`GameService` is the unit of work, and it holds the service's parts, which the routes call themselves: the states
(`cache`, service/cache.py), the credentials (`credentials`, service/credentials.py), the reads (`reads`,
service/reads.py), the bundles and ETags (`bundles`, service/bundles.py) and creation (`creation`,
service/creation.py, which writes through this unit of work).

Every input to a game is a recorded command (creation, a seat's client seed, a ruleset command, the
reveal), so a bundle replays by feeding the commands in order to a fresh engine (service/replay.py).
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from domain import engine
from domain.dice import client_seed_from_passphrase
from domain.engine import REFEREE, Game, Rejected
from events.bodies import body_of, sealed_beside
from events.canonical import canonical, link
from events.core import DiceRolled
from events.store import (
    Begins,
    CommandRow,
    EventStore,
    NewEventRow,
    StorageUnavailable,
    StoreConflict,
    StoreUnavailable,
    WouldBlock,
)
from events.vocabulary import Event
from service.bots import MAX_BOT_COMMANDS, bot_choose
from service.bundles import Bundles
from service.cache import Cached, GameCache, on_event_loop
from service.creation import Creation
from service.credentials import Credentials
from service.deadlines import Clocks
from service.http import check_command_extras
from service.logs import STORAGE_LOG
from service.mail import Mailer
from service.metrics import APPEND_SECONDS
from service.notify import Notifier
from service.payloads import DeadlinesPayload
from service.reads import Reads
from service.records import event_out, event_row_out
from service.rulesets import RULESETS, Loaded, playable
from service.settings import Settings
from service.webhooks import Allow, Dispatcher, Webhooks


class InPlace(NamedTuple):
    """A write's decide that applies its events to the cached game as it judges (engine.decide_in_place, no copy of
    the state): `_submit` never evolves them again, and reads the game again from the store when they are not
    appended (a refusal after a change: `restore`; a lost race, a store that failed)."""

    judge: Callable[[Game, Callable[[], Game]], list[Event]]


def judged_in_place(seat: str, command: Any, server_seed: bytes, begun: Callable[[], None] | None = None) -> InPlace:
    """`begun` refuses a command to a game still waiting for its players, asked only until the seed locks: the first
    command locks it, and no command is taken before every seat is (a game that began earlier plays on). Bots ask
    first themselves (`play_bots`)."""

    def judge(game: Game, restore: Callable[[], Game]) -> list[Event]:
        if begun is not None and game.lock is None:
            begun()
        return engine.decide_in_place(game, seat, command, server_seed, restore)

    return InPlace(judge)


class Busy(Rejected):
    """503: try again (`retry_after` seconds); `outcome-unknown` says with which command_id."""

    status = 503


STORAGE_RETRY = 30  # seconds a client is told to wait when the store cannot write


def unavailable(e: StoreUnavailable, command_id: str | None = None) -> Busy:
    """What the store's failure means to the client: nothing appended (send it again), or an unknown outcome (send it
    again with the same command_id: a command is applied at most once), or a store that cannot write now (a full disk,
    read-only: send it again later)."""
    if isinstance(e, StorageUnavailable):
        STORAGE_LOG.warn(
            f"storage-{e.condition}",
            f"the store cannot write ({e.condition}): every write answers 503 storage-unavailable until it can; "
            f"reads go on. {e}",
        )
        return Busy(
            "storage-unavailable",
            f"the server's storage cannot take writes now ({e.condition}); nothing was appended: send it again in "
            f"{STORAGE_RETRY} s. Reads still answer.",
            retry_after=STORAGE_RETRY,
        )
    if e.written is None and command_id is not None:
        return Busy(
            "outcome-unknown",
            f"the store's answer was lost after the command was sent, so it may or may not have been appended; send "
            f"it again with command_id {command_id!r}: it is applied at most once, and a command already appended "
            "answers with its result",
            retry_after=1,
            command_id=command_id,
        )
    return Busy("store-unavailable", f"the store is unavailable ({e}); nothing was appended: send it again", retry_after=1)


log = logging.getLogger("umpire.games")
_SECOND: tuple[int, str] = (-1, "")  # the last second formatted (one tuple: threads read it whole)


def _seed_of(client_seed: str | None, passphrase: str | None) -> str | None:
    """A seat's client seed from what it sent: `client_seed`, or the SHA-256 of `passphrase`; None if neither (422
    if both)."""
    if client_seed is not None and passphrase is not None:
        raise engine.InvalidInput("invalid-client-seed", "send one of client_seed (64 hex) or passphrase, not both")
    return client_seed if passphrase is None else client_seed_from_passphrase(passphrase)


def _seed_write(seat: str, seed: str, command_id: str | None) -> tuple[dict, str | None, None, Callable]:
    """A seat's client seed as a write's payload, command id, expected version (none) and decide. Never after the
    game's end (no event follows GameEnded but the reveal); judged here, not in engine.decide_seed, so a record made
    before this check replays as it was made."""
    payload = {"type": "contribute_seed", "client_seed": seed}

    def decide(g: engine.Game) -> list:
        engine.ensure_open(g, "the game is over; a client seed would count for no roll")
        return engine.decide_seed(g, seat, seed)

    return payload, command_id, None, decide


def now_iso() -> str:
    """UTC now as `2026-12-02T18:11:59.385339Z`: the second formatted once a second (a command takes ~0.2 ms)."""
    global _SECOND
    s, us = divmod(time.time_ns() // 1000, 1_000_000)
    second = _SECOND
    if second[0] != s:
        second = _SECOND = (s, datetime.fromtimestamp(s, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{second[1]}.{us:06d}Z"


class GameService:
    """The unit of work of every write (load -> decide -> append): commands, seeds, the reveal and the end, and the
    bot seats' turns. It holds the service's other parts (`cache`, `credentials`, `reads`, `bundles`, `creation`),
    whose owners answer the routes directly.

    Game states come from its `cache` (service/cache.py), caught up with the store before every read and write."""

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], str] = now_iso,
        data_dir: str | None = None,
        settings: Settings | None = None,
        rulesets: Mapping[str, Loaded] | None = None,
    ):
        """`rulesets`: the rulesets this service plays (id -> Loaded), by default those service/rulesets.py serves."""
        self.store = store
        self.rulesets = RULESETS if rulesets is None else rulesets
        self.settings = settings or Settings()
        self.data_dir = Path(data_dir or self.settings.data_dir)
        self.clock = clock
        self.cache = GameCache(store, self.settings, self.rulesets)
        self.notifier = Notifier(store, self.settings.stream_check)  # wakes live streams after an append
        self.credentials = Credentials(store)
        self.bundles = Bundles(self.cache, self.credentials)
        self.clocks = Clocks(self, self.settings.deadline_poll)  # turn clocks: reads and the sweeper
        self.reads = Reads(self.cache, self.credentials, self.clocks)
        self.creation = Creation(self)
        allow = Allow(self.settings.webhook_allow)
        try:
            mailer = Mailer.from_settings(self.settings.smtp, self.settings.mail_from, self.settings.public_url)
        except ValueError as e:
            raise SystemExit(str(e)) from None
        self.webhooks = Webhooks(store, allow, mailer=mailer)
        self.dispatcher = Dispatcher(
            store,
            allow,
            self.settings.webhook_backoff,
            self.settings.webhook_poll,
            self.settings.webhook_concurrency,
            self.settings.webhook_lease,
            mailer=mailer,
            keep_days=self.settings.outbox_keep_days,
        )
        self.webhooks.wake = self.dispatcher.wake
        self.webhooks.deadline_at = self.clocks.deadline_at
        self.webhooks.clock_runs = lambda game_id: self.clocks.running_since(game_id) is not None

    RETRY_SECONDS = 5.0  # how long a command without expected_version is judged again after losing races
    INLINE_CATCH_UP = 100  # events another process may have appended for a write still to run on the loop

    def runs_inline(self, game_id: str, note: bool = False) -> bool:
        """Whether a write may run on the event loop rather than in a thread: its state is cached, nobody holds it and
        it is at most a few events behind the store, it has no bot seats and the store answers without network round
        trips (SQLite). Such a command takes a fraction of a millisecond, less than the thread hop; a load, a long
        catch-up, a bot's turn or a PostgreSQL write go to a thread."""
        c = self.cache.states.get(game_id)
        if c is None or not getattr(self.store, "local", False) or c.row.bots or c.lock.locked():
            return False
        head = self.store.head(game_id)
        if note and head is not None and head[0] == c.game.version and head[1] == c.head.hex():
            # the command that follows at once on this thread need not ask again (its caller clears this after it)
            self.cache.checked = (threading.get_ident(), game_id, c.game.version, c.head)
        return head is not None and head[0] - c.game.version <= self.INLINE_CATCH_UP

    # ---- writing ----

    @staticmethod
    def new_rows(game_id, version, head, evs, command_id, actor, stamp):
        """The stored rows of new events, and the events as the API shows them (to the actor)."""
        rows, outs = [], []
        for i, e in enumerate(evs, start=version + 1):
            body = body_of(game_id, i, e, command_id)
            encoded = canonical(body)
            head = link(head, encoded)
            h = head.hex()
            beside = sealed_beside(e)
            roll_k = e.k if isinstance(e, DiceRolled) else None
            rows.append(  # positional, in the columns' order: a keyword per field costs more
                NewEventRow(game_id, i, body["type"], body["v"], encoded.decode(), h, command_id, actor, stamp, beside, roll_k)
            )
            out = event_out(i, body, h, actor, stamp)
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
        decide: Callable[[Game], list[Event]] | InPlace,
        answer: bool = False,
        raw: bool = False,
    ) -> dict[str, Any]:
        """The one write path: idempotency, expected version, decide, append in one transaction, then evolve.
        `answer`: add what the sender may do now, read under the same lock (a game without bot seats: see _write)."""
        extras = {"command_id": command_id, "expected_version": expected_version}
        check_command_extras({k: v for k, v in extras.items() if v is not None})  # None: not sent
        payload_text = canonical(payload).decode()
        wait = not on_event_loop()  # on the loop a write never waits for a lock: WouldBlock sends it to a thread
        deadline = time.monotonic() + self.RETRY_SECONDS
        cid = command_id or "c-" + secrets.token_hex(8)  # the id an unknown outcome is retried with
        for attempt in itertools.count():
            if attempt:  # lost a race to another process: let it finish before judging again on the new state
                if time.monotonic() > deadline:
                    raise Busy(
                        "busy",
                        f"the game kept moving for {self.RETRY_SECONDS} s while this command was judged again; "
                        "nothing was appended: send it again",
                        retry_after=1,
                    )
                time.sleep(random.uniform(0, min(0.05, 0.001 * 2**attempt)))
            with self.cache.game(game_id, raw) as cached:
                if command_id is not None:
                    prior = self.store.command(game_id, command_id)
                    if prior is not None:
                        if prior.payload != payload_text or prior.seat != seat:
                            raise Rejected(
                                "command-id-reused",
                                f"command_id {command_id!r} was used for another command; use a new id for a new one",
                            )
                        return self._with_awaiting(cached, seat, self._result(game_id, prior), answer)
                game = cached.game
                if expected_version is not None and expected_version != game.version:
                    raise Rejected(
                        "version-conflict",
                        f"expected version {expected_version}, the game is at {game.version}; "
                        "read GET /games/{id} and decide again",
                        version=game.version,
                    )
                before, was_over = game.version, game.over
                seen = self.webhooks.before(game_id, game)  # None (most games): no registrations, nothing to do
                if isinstance(decide, InPlace):  # its events are in the state already (`applied`): never evolved twice
                    evs, applied = decide.judge(game, lambda: self._reload(cached)), True
                else:
                    evs, applied = decide(game), False
                try:
                    stamp = self.clock()
                    rows, outs, head = self.new_rows(game_id, before, cached.head, evs, cid, seat, stamp)
                    cmd = CommandRow(game_id, cid, seat, payload_text, before + 1, before + len(rows), stamp)
                except Exception:
                    if applied:
                        self._stale(cached)
                    raise
                ahead = seen is not None or applied  # the cached state holds the events before they are appended
                outbox = None
                if seen is not None:  # the state after the events decides who is notified: apply them first
                    try:
                        if not applied:
                            for event in evs:
                                engine.evolve(game, event)
                        engine.next_turns(game, seat, stamp)
                        outbox = self.webhooks.notifications(game, seen, was_over, evs)
                    except Exception:
                        self._reload(cached)
                        raise
                try:
                    appending = time.perf_counter()
                    self.store.append(rows, cmd, wait=wait, outbox=outbox)
                    APPEND_SECONDS.observe(time.perf_counter() - appending)
                    self.notifier.appended(game_id)
                    if outbox:
                        self.webhooks.wake()
                except StoreConflict:
                    if ahead:  # back to the truth
                        self._stale(cached)
                    # another process appended first: catch up and judge the command again on the new state
                    if expected_version is not None:
                        raise Rejected(
                            "version-conflict", "the game moved on; read GET /games/{id} and decide again"
                        ) from None
                    continue
                except WouldBlock:
                    if ahead:
                        self._stale(cached)
                    raise
                except StoreUnavailable as e:
                    if ahead:
                        self._stale(cached)
                    if e.written is None:  # it may be in the log: streams look (they read the store, not this answer)
                        self.notifier.appended(game_id)
                    raise unavailable(e, cid) from e
                except Exception:  # any other failure of the store (an I/O error): nothing was appended
                    if ahead:
                        self._stale(cached)
                    raise
                try:
                    if seen is None:
                        if not applied:
                            for event in evs:
                                engine.evolve(game, event)
                        engine.next_turns(game, seat, stamp)
                    cached.head = head
                except Exception:
                    self._reload(cached)
                    raise
                self.cache.snapshot_if_due(cached, before)
                result = {
                    "game_id": game_id,
                    "command_id": cid,
                    "version": game.version,
                    "head": head.hex(),
                    "replayed": False,
                    "events": outs,
                }
                return self._with_awaiting(cached, seat, result, answer)
        raise AssertionError("unreachable: the loop returns or raises")

    def _result(self, game_id: str, cmd: CommandRow) -> dict[str, Any]:
        """The original result of a command retried with its command_id; nothing is appended."""
        rows = self.store.events(game_id, after=cmd.first_seq - 1, upto=cmd.last_seq)
        return {
            "game_id": game_id,
            "command_id": cmd.command_id,
            "version": cmd.last_seq,
            "head": rows[-1].hash,
            "replayed": True,
            "events": [event_row_out(r, self.reads.reads_as(game_id, cmd.seat)) for r in rows],
        }

    def _stale(self, cached: Cached) -> None:
        """A cached state that went ahead of the store (its events not appended) is read again before its next use,
        not now: the store that just failed may not answer a read either, and the client's answer must say what
        happened to its command (`outcome-unknown`), not that a read failed."""
        self.webhooks.forget(cached.game.game_id)
        cached.stale = True

    def _reload(self, cached: Cached) -> Game:
        """The store is the truth: a cached state that went ahead of it (or failed midway) is read again; if the
        store cannot answer now, the state is marked to be read again at its next use (`Cached.stale`)."""
        self.webhooks.forget(cached.game.game_id)
        self.cache.reload(cached)
        return cached.game

    @staticmethod
    def _with_awaiting(c: Cached, seat: str, result: dict[str, Any], answer: bool = True) -> dict[str, Any]:
        if answer:
            result["awaiting"] = c.awaiting(seat)
            result["waiting_for"] = engine.waiting_for(c.game)
        return result

    def _write(self, game_id: str, seat: str, payload, command_id, expected_version, decide, raw=False) -> dict[str, Any]:
        """A write's answer: what it appended, then what the sender may do now. Without bot seats that is read under
        the write's own lock (one head check, one lock per command); with them, after the bots have moved. `raw`: a
        write that needs no rules (reveal, end), which a game of an edition not run takes too."""
        if not self.cache.row(game_id).bots:
            return self._submit(game_id, seat, payload, command_id, expected_version, decide, answer=True, raw=raw)
        result = self._submit(game_id, seat, payload, command_id, expected_version, decide, raw=raw)
        self.play_bots(game_id)
        with self.cache.game(game_id, raw) as c:
            # the version and head its `awaiting` is of, the bots' moves after its events included: what the sender
            # sends next as expected_version
            result["version"], result["head"] = c.game.version, c.head.hex()
            return self._with_awaiting(c, seat, result)

    def command(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        with self.store.session():  # its credentials, head, webhooks and append: one check of the store
            return self._command(game_id, token, body)

    def _command(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        seat = self.credentials.seat_for(game_id, token)
        if not isinstance(body, dict):
            raise engine.InvalidInput("invalid-command", "a command is a JSON object {'type': ..., ...arguments}")
        payload = {k: v for k, v in body.items() if k not in ("command_id", "expected_version")}
        row = self.cache.row(game_id)
        ruleset = playable(self.rulesets, row.ruleset, row.ruleset_version).ruleset
        self._refuse_other_rulesets_command(game_id, seat, ruleset, payload.get("type"))
        command = engine.parse_command(ruleset, payload)
        server_seed = bytes.fromhex(row.server_seed)
        return self._write(
            game_id,
            seat,
            payload,
            body.get("command_id"),
            body.get("expected_version"),
            judged_in_place(seat, command, server_seed, lambda: self.credentials.all_taken(game_id)),
        )

    def _refuse_other_rulesets_command(self, game_id: str, seat: str, ruleset: engine.Ruleset, kind: Any) -> None:
        """A well-formed command of another ruleset is refused by this game (409, with what it takes now), not by the
        API's schema, which lists every ruleset's commands."""
        if not isinstance(kind, str) or kind in ruleset.command_by_tag:
            return
        owners = sorted(x.ruleset.id for x in self.rulesets.values() if kind in x.ruleset.command_names)
        if owners:
            with self.cache.game(game_id) as c:
                raise engine.refusal(
                    c.game,
                    seat,
                    f"{kind!r} is a command of {', '.join(owners)}; this game plays {ruleset.id}, whose commands are "
                    f"{ruleset.command_names}",
                )

    def contribute_seed(
        self,
        game_id: str,
        token: str | None,
        client_seed: str | None,
        passphrase: str | None,
        command_id: str | None = None,
    ) -> dict[str, Any]:
        seat = self.credentials.seat_for(game_id, token)
        if seat == REFEREE:
            raise engine.Forbidden("not-a-seat", "client seeds come from the seats; use a seat's token")
        seed = _seed_of(client_seed, passphrase)
        if seed is None:
            raise engine.InvalidInput("invalid-client-seed", "send exactly one of client_seed (64 hex) or passphrase")
        return self._write(game_id, seat, *_seed_write(seat, seed, command_id))

    def reveal(self, game_id: str, token: str | None, command_id: str | None = None) -> dict[str, Any]:
        seat = self.credentials.seat_for(game_id, token)
        if seat != REFEREE:
            raise engine.Forbidden("referee-only", "only the referee token may reveal the server seed")
        server_seed = bytes.fromhex(self.cache.row(game_id).server_seed)
        payload = {"type": "reveal"}
        return self._write(
            game_id, seat, payload, command_id, None, lambda g: engine.decide_reveal(g, server_seed), raw=True
        )

    def end(self, game_id: str, token: str | None, command_id: str | None = None) -> dict[str, Any]:
        seat = self.credentials.seat_for(game_id, token)
        if seat != REFEREE:
            raise engine.Forbidden("referee-only", "only the referee token may end a game")
        return self._write(game_id, seat, {"type": "end"}, command_id, None, engine.decide_end, raw=True)

    def rotate_token(self, game_id: str, token: str | None) -> dict[str, Any]:
        """POST /games/{id}/token: a new token for the seat; the old one's streams close now, and the seat's
        notification target goes, for whoever held a leaked token may have registered it (it would go on receiving the
        seat's own `awaiting`)."""
        out = self.credentials.rotate(game_id, token)
        try:  # the new token is the answer's, whatever follows: the old one is void already
            out["notifications_removed"] = self.store.delete_hook(game_id, out["seat"])
        except Exception:  # noqa: BLE001 - said (null) and logged; DELETE …/notifications with the new token removes it
            log.exception("game %s: %s's token rotated, its notification target not removed", game_id, out["seat"])
            out["notifications_removed"] = None
        self.notifier.appended(game_id)  # its streams look at their tickets again: the old token's close at once
        return out

    def join(
        self, game_id: str, invitation: str, client_seed: str | None = None, passphrase: str | None = None
    ) -> dict[str, Any]:
        """A player takes an open seat, with its client seed if sent; with the last one taken, a game's turn clock
        starts running and its bots move (they wait for every seat, so that each player may have a say in the dice
        before the first command locks them).

        The seed is written first, while the seat is still open: nothing can lock the dice before every seat is taken
        (commands are `seats-open`, bots wait), so it always counts, and a refusal (a seed given already) leaves the
        invitation unspent. A join retried after an unknown outcome finds its seed written and does not write it
        twice. Once the seat is taken its token is answered, whatever the work after it meets."""
        seed = _seed_of(client_seed, passphrase)
        if seed is not None:
            seat = self.credentials.invited(game_id, invitation)
            with self.cache.game(game_id) as c:
                written = c.game.client_seeds.get(seat) == seed
                over = c.game.over  # an ended game records no seed (no event after GameEnded): the seat is still taken
            if over:
                seed = None
            elif not written:
                self._submit(game_id, seat, *_seed_write(seat, seed, None))
        out = self.credentials.join(game_id, invitation, lambda: self._begins(game_id))
        out["client_seed"] = seed
        try:
            self.notifier.appended(game_id)  # no event, but its streams tell their readers the seat is taken
            if not self.credentials.open_seats(game_id):
                self.webhooks.wake()
                self.play_bots(game_id)
        except Exception:  # noqa: BLE001 - the bots move again after the next command; the seat is taken
            log.exception("game %s: after %s's join (its token is answered)", game_id, out["seat"])
        return out

    def _begins(self, game_id: str) -> Begins:
        """The last seat is being taken: its turn clock runs from now, and each seat the rules await now that has a
        webhook hears `your-turn` (it joined earlier and has waited; it was awaited before, so no command's
        notification says so), queued once per seat before the bots move (a seat their moves make awaited hears it
        from their commands). Written with the seat taken, in its transaction (`Credentials.join`): a join answered is
        never without them, and they are made again if the log moved meanwhile."""
        now = self.clocks.clock()
        hooks = self.store.hooks(game_id)
        with self.cache.game(game_id) as c:
            if not hooks:
                return Begins(now, c.game.version, [])
            ends = self.clocks.ends(c.game, now)
            return Begins(now, c.game.version, [
                self.webhooks.row(c.game, seat, "your-turn", hooks[seat], ends.get(seat), f"msg_begun_{game_id}_{seat}")
                for seat in engine.awaited_seats(c.game)
                if seat in hooks
            ])

    def set_deadlines(
        self, game_id: str, token: str | None, change: DeadlinesPayload, command_id: str | None = None
    ) -> dict[str, Any]:
        """The referee changes the turn clock (`POST /games/{id}/deadlines`): recorded, like every input."""
        seat = self.credentials.seat_for(game_id, token)
        if seat != REFEREE:
            raise engine.Forbidden("referee-only", "only the referee token changes the deadlines")
        return self._write(
            game_id,
            seat,
            msgspec.to_builtins(change),
            command_id,
            None,
            lambda g: engine.decide_deadlines(g, change.turn_seconds, change.on_expiry, change.paused, change.extend),
        )

    def play_bots(self, game_id: str) -> tuple[int, str] | None:
        """Seats the server plays (`bots` at creation) send their commands, each recorded as that seat's command,
        until no bot seat has anything to send. A bot reads only what its own seat may read. The game's version and
        head after the last bot's command, None if none sent one."""
        row = self.cache.row(game_id)
        if not row.bots or self.credentials.open_seats(game_id):  # a seat still to be taken: the game waits for it
            return None
        try:
            loaded = playable(self.rulesets, row.ruleset, row.ruleset_version)
        except Rejected:
            return None  # a game of an edition not run has no bots playing here (it can only be ended or revealed)
        server_seed = bytes.fromhex(row.server_seed)
        moved = None
        for _ in range(MAX_BOT_COMMANDS):
            with self.cache.game(game_id) as c:
                game = c.game
                turn = next(
                    ((seat, legal) for seat in c.row.bots if (legal := engine.awaiting(game, seat)) and any(
                        seat in s.seats for s in legal)),
                    None,
                )
                if turn is None:
                    return moved
                seat, legal = turn
                mine = [s for s in legal if seat in s.seats]
                payload = bot_choose(loaded.ruleset, game.state, mine, seat)
                version = game.version
            if payload is None:
                return moved
            command = engine.parse_command(loaded.ruleset, payload)
            try:
                done = self._submit(
                    game_id,
                    seat,
                    payload,
                    f"bot-{version + 1}",
                    version,
                    judged_in_place(seat, command, server_seed),
                )
            except Rejected as e:
                if e.code not in ("version-conflict", "command-id-reused"):
                    raise
                continue  # another writer moved the game (a join's seed, another caller's bots): look again
            moved = done["version"], done["head"]
        raise RuntimeError(f"the bot seats of {game_id} did not stop within {MAX_BOT_COMMANDS} commands")
