"""P17 (issue 33): what webhooks cost a command, and how soon a notification leaves after its commit.

- `commands(db, hooks, n)`: the callgrind worker (benchmarks/instructions.py). `n` aa1942 raid commands of one game
  counted inside the window, after a warm-up of as many; with `hooks` > 0, every reader of the measured game has a
  target and other games carry the rest, `hooks` in all, so the write path does all its webhook work (the state
  after the events, the awaited seats before and after).
- `latencies(n)`: seconds from a command's commit to its `your-turn` at a local receiver, through the dispatcher of
  an in-process service (SQLite).
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from benchmarks.instructions import window
from events.store import SQLiteStore
from service.games import GameService
from service.settings import Settings
from service.webhooks import Allow, Webhooks

URL = "http://127.0.0.1:9/hook"  # never contacted: no dispatcher runs in the worker
SEED = "17" * 32


def _raid_game(svc: GameService) -> tuple[str, str]:
    """benchmarks/run.py's raid game with dice of a public seed, so that two runs roll alike and count alike."""
    from benchmarks.run import raid_game

    return raid_game(svc, public_seed=SEED)


def commands(db: str, hooks: str, n: str) -> None:
    """Both runs make the same games with the same dice (a public seed): only the registrations differ."""
    from benchmarks.run import ENEMY_ZONES

    count, total = int(n), int(hooks)
    svc = GameService(SQLiteStore(db))
    svc.webhooks = Webhooks(svc.store, Allow("127.0.0.1"))
    gid, tok = _raid_game(svc)
    with svc.cache.game(gid) as c:
        seats = [*c.game.seats, "referee"]
    others = [
        svc.creation.create("corvette-command", {}, None, "public-seed", SEED, None, None)["game_id"]
        for _ in range(100 - len(seats))
    ]
    if total:
        for seat in seats:
            svc.webhooks.put(gid, seat, {"url": URL})
        for other in others[: total - len(seats)]:
            svc.webhooks.put(other, "referee", {"url": URL})
    zones = iter([z for z in ENEMY_ZONES for _ in range(99)])

    def send(k: int) -> None:
        for _ in range(k):
            svc.command(gid, tok, {"type": "raid", "sz": next(zones)})

    send(count)  # warm-up: caches, the kept registrations, the first snapshot
    window(send, count)


class _Receiver(BaseHTTPRequestHandler):
    seen: dict[str, float] = {}
    cond = threading.Condition()

    def do_POST(self) -> None:
        import json

        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        with self.cond:
            self.seen[body["data"]["game_id"]] = time.perf_counter()
            self.cond.notify_all()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def latencies(db: str, n: int) -> list[float]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings = Settings(webhook_allow="127.0.0.1", webhook_poll=1.0)
    svc = GameService(SQLiteStore(db), settings=settings)
    svc.dispatcher.start()
    url = f"http://127.0.0.1:{server.server_port}/hook"
    committed: dict[str, float] = {}
    append = svc.store.append

    def timed_append(events, command, wait=True, outbox=None):  # the moment of the commit, for the latency
        append(events, command, wait=wait, outbox=outbox)
        committed[command.game] = time.perf_counter()

    svc.store.append = timed_append  # type: ignore[method-assign]
    out = []
    try:
        for _ in range(n):
            made = svc.creation.create("battlefleet-1900", {"scenario": "yellow-sea-1904"}, None, "fair", None, None, None)
            gid, tok = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
            svc.webhooks.put(gid, "japan", {"url": url})
            svc.command(gid, tok["japan"], {"type": "start", "ships": []})
            svc.command(gid, tok["russia"], {"type": "start", "ships": []})  # commits Japan's your-turn
            with _Receiver.cond:
                _Receiver.cond.wait_for(lambda g=gid: g in _Receiver.seen, timeout=30)
            out.append(_Receiver.seen[gid] - committed[gid])
    finally:
        svc.dispatcher.stop()
        server.shutdown()
    return out
