"""The reads of a game: its summary, a seat's own picture, the list of games, pages of its log, what happened since a
version (with the ruleset's digest), its rolls (verified once the seed is revealed) and its views, now or at an
earlier seq (`?at=`). Each takes the state from the cache,
caught up with the store; none writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from domain import engine
from domain.dice import faces_for, game_seed
from domain.engine import REFEREE, Game
from service.cache import GameCache
from service.credentials import Credentials, NotFound
from service.deadlines import Clocks
from service.models import CURSOR
from service.records import event_as_read, event_row_out
from service.rulesets import playable
from service.simulate import labelled

MAX_PAGE = 1000
SINCE_PAGE = 500  # events in one answer of GET /since (its `limit`'s ceiling and default): `more` says there are more


def render_view(view: engine.View, state: Any, reader: engine.Reader, history: Callable[[], Any]) -> dict[str, Any]:
    out = engine.render(view, state, reader, history)
    return out if isinstance(out, dict) else msgspec.to_builtins(out)


def seat_out(
    seat: str, bot: bool, open_: bool, token: str | None = None, invitation: str | None = None
) -> dict[str, Any]:
    """A seat, the one shape every answer gives (models.Seat); `token` and `invitation` set only in a creation answer."""
    return {"seat": seat, "bot": bot, "open": open_, "token": token, "invitation": invitation}


def ruleset_out(row: Any) -> dict[str, Any]:
    """A game's ruleset, the one shape every answer gives (models.RulesetRef): its id, the edition it plays and its
    data set's hash."""
    return {"id": row.ruleset, "version": row.ruleset_version, "data_sha256": row.data_sha256}


def secrecy(g: Game) -> str:
    """The summary's `dice.secrecy` of a fair game: what its edition keeps hidden, or what it publishes that its
    later editions keep hidden (`Editions.leaks`; such an edition makes no new game)."""
    leaks = g.ruleset.editions.leaks(g.created.ruleset.version, g.created.options) if g.ruleset is not None else []
    if not leaks:
        return "fair: sealed records stay secret until the rules reveal them"
    ids = ", ".join(c.id for c in leaks)
    return (
        "fair, but this edition publishes some of what the rules keep hidden, which later editions keep hidden "
        f"({ids}; GET /rulesets/{g.created.ruleset.id} says what each does); the other sealed records stay secret "
        "until the rules reveal them"
    )


def status_of(g: Game) -> str:
    return "revealed" if g.revealed_seed else "over" if g.over else "open"


def result_of(g: engine.Game) -> dict[str, int | str] | None:
    """How a finished game came out: the figures its ruleset reports (those `umpire simulate` and the odds count), a
    category by its label, `undecided` where the game ended before its rules decided it (a referee's end: a winner
    "not over"). Null while the game runs; a game over has opened every seal, so they are everyone's."""
    if not g.over or g.ruleset is None or g.ruleset.outcomes is None:
        return None
    return {name: "undecided" if v == "not over" else v for name, v in labelled(g).items()}


class Reads:
    """Every read of a game (the routes call it), from the states of `cache`, and who reads: a token's reader."""

    def __init__(self, cache: GameCache, credentials: Credentials, clocks: Clocks):
        self.clocks = clocks  # the turn clocks' reads (service/deadlines.py)
        self.cache = cache
        self.store = cache.store
        self.rulesets = cache.rulesets
        self.credentials = credentials

    # ---- who reads ----

    def reader_for(self, game_id: str, token: str | None) -> engine.Reader:
        """Who reads: None without a token (the public picture), else whom the token's seat reads as (401 if the
        token is not one of this game's)."""
        return None if not token else self.reads_as(game_id, self.credentials.seat_for(game_id, token))

    def reads_as(self, game_id: str, seat: str) -> engine.Reader:
        """Whom a token's seat reads as (domain/engine.py `reads_as`): the referee of a game created unumpired reads
        what the public reads. Every per-seat read (summary, events, since, stream, views, bundle) takes its reader here."""
        if seat != REFEREE:
            return seat
        return engine.reads_as(self.cache.cached(game_id).game, seat)  # the genesis: fixed for good, read unlocked

    def invitation(self, game_id: str, invitation: str) -> dict[str, Any]:
        """What an invitation offers, before it is accepted (nothing is spent): the seat, the game's ruleset, whether
        its referee token reads sealed content (`umpired`) and its turn clock (a player sees a 30-second turn before
        taking the seat)."""
        row = self.cache.row(game_id)  # 404 for an unknown game
        seat = self.credentials.invited(game_id, invitation)
        game = self.cache.cached(game_id).game
        clock = self.clocks.summary(game_id, game)
        return {"game_id": game_id, "seat": seat, "ruleset": ruleset_out(row), "umpired": game.created.umpired,
                "deadlines": clock}

    # ---- the game ----

    def status(self, game_id: str) -> dict[str, Any]:
        with self.cache.game(game_id, raw=True) as c:
            g = c.game
            return {"status": status_of(g), "version": g.version, "head": c.head.hex()}

    def summary(self, game_id: str, reader: engine.Reader = None) -> dict[str, Any]:
        with self.cache.game(game_id) as c:
            row = c.row
            g, head = c.game, c.head.hex()
            public_seed = g.created.dice.mode == "public-seed"
            return {
                "game_id": game_id,
                "ruleset": ruleset_out(row),
                "umpired": g.created.umpired,
                "version": g.version,
                "head": head,
                "status": status_of(g),
                "seats": self._seats(game_id, g.seats, row.bots),
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
                    else secrecy(g),
                },
                "awaiting": c.awaiting(reader),
                "waiting_for": engine.waiting_for(g),
                "ended": g.ended,
                "created_at": row.created_at,
                "deadlines": self.clocks.summary(game_id, g) if g.deadlines is not None else None,
                "parent": msgspec.to_builtins(g.created.parent),
                "result": result_of(g),
            }

    def _seats(self, game_id: str, seats: list[str], bots: list[str]) -> list[dict[str, Any]]:
        open_now = self.credentials.open_seats(game_id)
        return [seat_out(s, s in bots, s in open_now) for s in seats]

    def stream_state(self, game_id: str, reader: engine.Reader) -> dict[str, Any]:
        """What the stream tells a reader once it has sent every event up to `version`: that reader's `awaiting`, the
        seats still owing a sealed submission, and the game's status."""
        with self.cache.game(game_id, raw=True) as c:
            g = c.game
            return {
                "message": "state",
                "version": g.version,
                "head": c.head.hex(),
                "status": status_of(g),
                "awaiting": c.awaiting(reader) if g.runs else [],  # the entries every read answers
                "waiting_for": engine.waiting_for(g) if g.runs else [],
                "open_seats": self.credentials.open_seats(game_id),
            }

    def me(self, game_id: str, token: str | None) -> dict[str, Any]:
        seat = self.credentials.seat_for(game_id, token)
        with self.cache.game(game_id) as c:
            g = c.game
            awaiting = [s for s in c.awaiting(seat) if seat in s["seats"]]
            open_seats = self.credentials.open_seats(game_id)
            may = ["command"] if awaiting and not (open_seats and g.lock is None) else []  # a begun game plays on
            if seat != REFEREE and g.lock is None and seat not in g.client_seeds and not g.over:
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
                "open_seats": open_seats,
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
        # a typo, not "no games": a ruleset not served, with no game of it in the store (whatever the page and status)
        unknown = ruleset is not None and ruleset not in self.rulesets
        if not rows and unknown and not self.store.list_games(ruleset, None, None, 1):
            listed = f"GET /rulesets lists {sorted(self.rulesets)}"
            raise NotFound("unknown-ruleset", f"no ruleset {ruleset!r} here, nor any game of one; {listed}")
        more = len(rows) > limit
        rows = rows[:limit]
        nxt = f"{rows[-1].created_at}~{rows[-1].id}" if more else None
        return {
            "games": [
                {
                    "game_id": r.id,
                    "ruleset": ruleset_out(r),
                    "status": r.status,
                    "version": r.version,
                    "seats": [seat_out(s, s in r.bots, s in r.open_seats) for s in r.seats],
                    "created_at": r.created_at,
                }
                for r in rows
            ],
            "next_cursor": nxt,
        }

    def events(self, game_id: str, after: int, limit: int, reader: engine.Reader = None) -> dict[str, Any]:
        with self.cache.game(game_id, raw=True) as c:  # 404 for an unknown game
            version, head = c.game.version, c.head.hex()
        rows = self.store.events(game_id, after=after, limit=limit) if after < version else []
        return {
            "game_id": game_id,
            "events": [event_row_out(r, reader) for r in rows],
            "next_after": rows[-1].seq if rows else min(after, version),
            "version": version,
            "head": head,
        }

    def events_upto(self, game_id: str, after: int, upto: int, reader: engine.Reader = None) -> list[dict[str, Any]]:
        """The events after `after` up to `upto` (at most a page), as `reader` may read them."""
        rows = self.store.events(game_id, after=after, upto=upto, limit=MAX_PAGE) if after < upto else []
        return [event_row_out(r, reader) for r in rows]

    def _dice(self, game_id: str) -> tuple[bytes | None, int]:
        """The game's seed once revealed (else None), and the k of its last roll (-1 before any)."""
        with self.cache.game(game_id, raw=True) as c:
            g = c.game
            last_k = g.next_roll - 1
        if g.revealed_seed is None or g.lock is None:
            return None, last_k
        return game_seed(bytes.fromhex(g.revealed_seed), game_id, g.lock.client_seeds, g.lock.beacon), last_k

    def _roll_out(self, r, seed: bytes | None) -> dict[str, Any]:
        body = msgspec.json.decode(r.body)
        d = body["data"]
        out = {"seq": r.seq, **{k: v for k, v in d.items() if v is not None}}
        out["command"], out["sent_by"] = r.command_id, r.actor  # public: the event's own, as GET /events shows them
        if seed is None:
            out["verification"] = {"status": "pending", "detail": "verifiable once the server seed is revealed"}
        else:
            recomputed = faces_for(seed, d["k"], d["sides"])
            ok = recomputed == d["faces"]
            out["verification"] = {"status": "verified" if ok else "mismatch", "recomputed_faces": recomputed}
        return out

    def rolls(self, game_id: str, after: int, limit: int) -> dict[str, Any]:
        seed, last_k = self._dice(game_id)  # 404 for an unknown game
        rows = self.store.rolls(game_id, after_k=after, limit=limit)
        out = [self._roll_out(r, seed) for r in rows]
        # past the last roll, as /events past the head: the last k there is (a k the game has not rolled is not echoed)
        return {"game_id": game_id, "rolls": out, "next_after": out[-1]["k"] if out else min(after, last_k)}

    def roll(self, game_id: str, k: int) -> dict[str, Any]:
        seed, _ = self._dice(game_id)  # 404 for an unknown game
        rows = self.store.rolls(game_id, k=k)
        if not rows:
            raise NotFound("unknown-roll", f"game {game_id} has no roll k={k} (yet)")
        return self._roll_out(rows[0], seed)

    def view(self, game_id: str, name: str, at: int | None, reader: engine.Reader = None) -> dict[str, Any]:
        row = self.cache.row(game_id)
        views = playable(self.rulesets, row.ruleset, row.ruleset_version).ruleset.views
        if name not in views:
            raise NotFound("unknown-view", f"{row.ruleset} has the views {sorted(views)}")
        kind = f"{row.ruleset}/{name}"
        view = views[name]
        with self.cache.game(game_id) as c:
            now = c.game.version
            if at is not None and at > now:
                raise engine.InvalidInput("invalid-at", f"at is a seq of the game, from 1 to {now} (its version now)")
            if c.game.over and at is not None and at < now:  # every seal opened at the end, to everyone alike: a
                reader = REFEREE  # past position of the game is read open too (its redaction was for a game in play)
            if (at is None or at == now) and not view.history:
                data = render_view(view, c.game.state, reader, lambda: None)  # asks no history
                return {"kind": kind, "view": name, "at": now, "data": data}
        # the past, or a view that shows the game's history (folded from the whole log): not under the game's lock,
        # which commands wait for
        upto = now if at is None else at
        game = self.cache.load(game_id, upto=upto).game  # from the nearest snapshot at or before `upto`
        data = render_view(view, game.state, reader, lambda: self.cache.history(game_id, upto))
        return {"kind": kind, "view": name, "at": upto, "data": data}

    def since(self, game_id: str, version: int, limit: int, reader: engine.Reader = None) -> dict[str, Any]:
        """What happened after `version` (the last one the reader saw), as `reader` may read it: the events (each as
        GET /events shows it to that reader, `event_row_out`) and the ruleset's digest of them, built from those same
        events and the state at `version` (docs/api.md "Since my last turn"). At most `limit` events: `upto` is the
        last one's seq, and `more` says the game went on beyond it (ask again with `version=upto`)."""
        with self.cache.game(game_id, raw=True) as c:  # 404 for an unknown game
            g, head = c.game, c.head.hex()
            now, status, ruleset = g.version, status_of(g), g.ruleset  # ruleset None: an edition not run here
        if version > now:
            raise engine.InvalidInput(
                "invalid-version",
                f"version is a version this game has been at, 0 to {now} (its version now): send the last version "
                "you saw (a summary's, a command answer's or a webhook's `version`)",
            )
        rows = self.store.events(game_id, after=version, upto=now, limit=limit) if version < now else []
        events = [event_row_out(r, reader) for r in rows]
        digest: list[str] = []
        if rows and ruleset is not None and ruleset.digest is not None:
            # the state the reader last saw (after the genesis for 0), folded from the nearest snapshot
            before = self.cache.load(game_id, upto=max(version, 1)).game.state
            digest = ruleset.digest(before, [event_as_read(r, e) for r, e in zip(rows, events)], reader)
        upto = rows[-1].seq if rows else version
        return {
            "game_id": game_id,
            "since": version,
            "upto": upto,
            "more": upto < now,
            "version": now,
            "head": head,
            "status": status,
            "digest": digest,
            "events": events,
        }
