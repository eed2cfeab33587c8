"""Turn clocks (issue 33 item 4; docs/api.md "Deadlines"): when each awaited seat's time runs out, the warning before
it, and the sweeper that records what the game's `on_expiry` makes act for a seat whose time ran out.

- The engine keeps who is on the clock since which version (`Game.turns`, set after every command from the command's
  recorded time); the clock runs once the game has all its seats (the store's `clocks` table says since when).
- Any process may find a turn run out: the expiry is appended as the seat's command `deadline_expired`, with the
  command id `deadline-<seat>-<since>` and the version it was judged at expected, so of several processes exactly
  one appends it and the others find it done. The record holds the command chosen for the seat, so a replay needs no
  clock and is byte-identical.
- A `deadline-warning` webhook goes out once a fifth of the turn is left (its id names the turn and its extra
  seconds: several processes queue it once, and an extension warns again).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import msgspec

from domain import engine
from domain.engine import Game, Rejected, Turn
from events.store import StoreUnavailable
from service.bots import bot_choose
from service.logs import STORAGE_LOG, Every
from service.payloads import ExpiryPayload
from service.rulesets import playable
from service.webhooks import iso

log = logging.getLogger("umpire.deadlines")
SWEEP_FAILURES = Every(600)  # a game whose sweep keeps failing: a line every 10 minutes, not a traceback each poll


def epoch(stamp: str) -> float:
    """A stored `recorded_at` (`2026-12-02T18:11:59.385339Z`) as seconds since the epoch."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def ends_at(game: Game, turn: Turn, running_since: float) -> float:
    """When a turn's time runs out: from the later of its start and the clock's start, the rule's seconds and the
    referee's extra."""
    assert game.deadlines is not None
    return max(epoch(turn.stamp), running_since) + game.deadlines.turn_seconds + turn.extra


def warn_before(game: Game) -> float:
    """Seconds before the end that the warning goes out: a fifth of the turn."""
    assert game.deadlines is not None
    return game.deadlines.turn_seconds / 5


def on_expiry(
    ruleset: engine.AnyRuleset, game: Game, seat: str, first: bool = True
) -> tuple[str, dict[str, Any] | None]:
    """What acts for `seat` whose time ran out, by the game's rule: ("concede", …) where the rule is forfeit, the seat
    may concede now and its time ran out `first` (before every other seat's on this turn: of two seats whose time ran
    out at the same instant, neither concedes, as neither was later), ("default", …) where it is default and an entry
    has one, else ("bot", the bot's pick for the seat from what it may read; None when it has nothing to send)."""
    assert game.deadlines is not None
    mine = [s for s in engine.awaiting(game, seat) if seat in s.seats]
    rule = game.deadlines.on_expiry
    if rule == "forfeit" and first and any(s.type == "concede" for s in mine):
        return "concede", {"type": "concede"}
    if rule == "default":
        spec = next((s for s in mine if s.default is not None and s.type not in ruleset.always_open), None)
        if spec is not None:
            return "default", {"type": spec.type, **(spec.default or {})}
    return "bot", bot_choose(ruleset, game.state, [s for s in mine if s.type not in ruleset.always_open], seat)


class Clocks:
    """The service's side of the turn clocks: what the summary and the your-turn webhook show, and the sweeper."""

    def __init__(self, svc: Any, poll: float, clock: Callable[[], float] = time.time):
        """`svc`: the GameService (its store, cache, credentials, webhooks and write path), which holds this."""
        self.svc, self.poll, self.clock = svc, poll, clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---- reads ----

    def running_since(self, game_id: str) -> float | None:
        """When the game's clock started (None: it has none, or a seat still waits for its player)."""
        clocked, since = self.svc.store.clock_since(game_id)
        if clocked and since is None and not self.svc.credentials.open_seats(game_id):
            since = self.svc.store.start_clock(game_id, self.clock())  # the last seat was taken: it runs from now
        return since

    def ends(self, game: Game, running_since: float | None) -> dict[str, float]:
        """Each awaited seat's end of turn (none while paused, before the clock runs or once the game is over)."""
        if game.deadlines is None or game.deadlines_paused or game.over or running_since is None:
            return {}
        return {seat: ends_at(game, turn, running_since) for seat, turn in (game.turns or {}).items()}

    def summary(self, game_id: str, game: Game) -> dict[str, Any] | None:
        """The summary's `deadlines`: the rule, paused or not, and each awaited seat's `deadline_at`."""
        if game.deadlines is None:
            return None
        ends = self.ends(game, self.running_since(game_id))
        return {
            "turn_seconds": game.deadlines.turn_seconds,
            "on_expiry": game.deadlines.on_expiry,
            "paused": game.deadlines_paused,
            "deadline_at": {seat: iso(t) for seat, t in ends.items()},
        }

    def deadline_at(self, game: Game, seat: str) -> str | None:
        """`seat`'s end of turn as ISO 8601 UTC (the your-turn webhook's `deadline_at`), or None."""
        if game.deadlines is None:
            return None
        t = self.ends(game, self.running_since(game.game_id)).get(seat)
        return None if t is None else iso(t)

    # ---- the sweeper ----

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="deadline-sweeper", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.sweep()
            except StoreUnavailable as e:  # the store away or unable to write: one line now and then, no traceback
                STORAGE_LOG.warn(f"sweeper-{type(e).__name__}", f"deadline sweeper: the store cannot be used now: {e}")
            except Exception:  # noqa: BLE001 - anything else: said, and looked at again at the next poll
                log.exception("deadline sweeper: a sweep failed")
            self._stop.wait(self.poll)

    def sweep(self) -> int:
        """One look at every clocked game: warnings due are queued, turns run out are expired; how many expired. A game
        whose sweep fails is logged and looked at again at the next poll; the games after it are swept all the same
        (one game's failing expiry stopped every later game's clock)."""
        expired = 0
        for game_id, since in self.svc.store.clocks():
            try:
                expired += self.sweep_game(game_id, since)
            except Rejected:  # an edition not run, a game gone: nothing to do for it here
                continue
            except StoreUnavailable:  # the store away: no other game can be swept either (`_run` says so)
                raise
            except Exception as e:  # noqa: BLE001 - this game's fault, not the others'
                said = f"deadline sweeper: game {game_id} could not be swept: {type(e).__name__}: {e}"
                said += "; its turns wait: pause its clock while it is mended"
                if SWEEP_FAILURES.warn(f"sweep-{game_id}", said):
                    log.debug("the failure's traceback", exc_info=True)
        return expired

    def sweep_game(self, game_id: str, running_since: float | None) -> int:
        now = self.clock()
        if running_since is None:
            if self.svc.credentials.open_seats(game_id):
                return 0
            running_since = self.svc.store.start_clock(game_id, now)
        due: list[tuple[float, str, int]] = []
        with self.svc.cache.game(game_id) as c:
            game = c.game
            for seat, end in self.ends(game, running_since).items():
                turn = (game.turns or {})[seat]
                if end <= now:
                    due.append((end, seat, turn.since))
                elif end - warn_before(game) <= now:
                    self._warn(game, seat, turn, end)
        # the first out of time first, whatever the seat order (forfeit: the first out concedes, `expire`)
        return sum(self.expire(game_id, seat, since) for _, seat, since in sorted(due))

    def _warn(self, game: Game, seat: str, turn: Turn, end: float) -> None:
        hooks = self.svc.store.hooks(game.game_id)
        if seat not in hooks:
            return
        msg_id = f"msg_dw_{game.game_id}_{seat}_{turn.since}_{turn.extra}"
        self.svc.webhooks.notify(game, seat, "deadline-warning", hooks[seat], end, msg_id)

    def _expired_with(self, game: Game, seat: str, turn: Turn) -> bool:
        """Whether another seat's time already ran out on this turn (its DeadlineExpired since the same version: a
        simultaneous step's seats start together, and they are expired in the order their time ran out)."""
        for row in self.svc.store.events(game.game_id, after=turn.since):
            if row.type == "DeadlineExpired":
                data = msgspec.json.decode(row.body)["data"]
                if data["seat"] != seat and data["since"] == turn.since:
                    return True
        return False

    def expire(self, game_id: str, seat: str, since: int) -> int:
        """Record that `seat`'s turn since `since` ran out, with what acts for it; 1 if this process appended it."""
        svc = self.svc
        row = svc.cache.row(game_id)
        loaded = playable(svc.rulesets, row.ruleset, row.ruleset_version)
        with svc.cache.game(game_id) as c:
            game = c.game
            turn = (game.turns or {}).get(seat)
            if turn is None or turn.since != since:
                return 0  # the seat moved, or another process expired it
            first = True  # forfeit: whether this seat's time ran out before every other seat's on this turn
            if game.deadlines is not None and game.deadlines.on_expiry == "forfeit":
                ends = self.ends(game, self.running_since(game_id))  # none while paused: decide_expiry refuses
                mine = ends.get(seat, float("-inf"))
                before = [end for other, end in ends.items() if other != seat and end <= mine]
                if any(end < mine for end in before):
                    return 0  # a seat out of time before this one goes first (another sweep, another process: in order)
                first = seat in ends and not before and not self._expired_with(game, seat, turn)
            action, then = on_expiry(loaded.ruleset, game, seat, first)
            version = game.version
        payload = msgspec.to_builtins(ExpiryPayload(seat=seat, since=since, action=action, then=then))
        command = None if then is None else engine.parse_command(loaded.ruleset, then)
        server_seed = bytes.fromhex(row.server_seed)
        try:
            result = svc._submit(
                game_id,
                seat,
                payload,
                f"deadline-{seat}-{since}",
                version,
                lambda g: engine.decide_expiry(g, seat, since, action, command, server_seed),
            )
        except Rejected as e:  # the game moved on (judged again next sweep), or the pick was refused
            if e.code not in ("version-conflict", "command-id-reused"):
                log.warning("deadline of %s in %s: %s (%s)", seat, game_id, e.code, e.detail)
            return 0
        svc.play_bots(game_id)
        return 0 if result["replayed"] else 1
