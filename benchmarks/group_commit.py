"""Group commit, measured (issue 35 item 3): 16 clients, each appending a raid's rows to its own game as fast as its
appends are acknowledged, through the store (the rules, HTTP and the answer left out, so the store's share is all
there is: any gain is an upper bound of the gain per command served).

- `single`: each client's `store.append`, one transaction per command (what the server does);
- `grouped`: the clients hand their appends to a committer thread, which writes every append waiting into one
  transaction (SQLite: BEGIN IMMEDIATE, the rows, COMMIT; PostgreSQL: the same statement as a single append, each in
  the transaction, pipelined) and acknowledges each only after that COMMIT. No savepoint per command: a real one
  needs one, so that a conflict fails its own command, not the group; so the grouped figure is its best case.

Prints commands/s and the process's CPU per command for each variant, run alternately in one sitting.
`python -m benchmarks.group_commit [postgresql://...] [--rounds 2] [--per-client 150] [--sync full]`
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from typing import Any

import msgspec

from benchmarks.run import raid_game
from events.store import CommandRow, NewEventRow, SQLiteStore, open_store
from service.games import GameService

SEED = "35" * 32
CLIENTS = 16


def raid_rows(n: int) -> list[tuple[list[NewEventRow], CommandRow]]:
    """The rows of `n` raids of one game played in memory (moved onto other games by `onto`)."""
    svc = GameService(SQLiteStore(":memory:"))
    gid, tok = raid_game(svc, public_seed=SEED)
    zones = [z for z in (3, 7, 8, 10, 23, 34, 35, 45, 2, 11, 18, 22) for _ in range(99)]
    for z in zones[:n]:
        svc.command(gid, tok, {"type": "raid", "sz": z})
    events = {e.seq: e for e in svc.store.events(gid)}
    out = []
    for c in [c for c in svc.store.commands(gid) if '"type":"raid"' in c.payload][-n:]:
        evs = []
        for seq in range(c.first_seq, c.last_seq + 1):
            e = events[seq]
            k = msgspec.json.decode(e.body)["data"].get("k") if e.type == "DiceRolled" else None
            evs.append(NewEventRow(gid, seq, e.type, e.v, e.body, e.hash, e.command_id, e.actor, e.recorded_at, e.sealed, k))
        out.append((evs, c))
    return out


def onto(rows: list, game: str, at: int) -> list[tuple[list[NewEventRow], CommandRow]]:
    """The same rows as appends to `game`, whose head is at `at`."""
    out = []
    for evs, c in rows:
        moved = []
        for e in evs:
            at += 1
            moved.append(msgspec.structs.replace(e, game=game, seq=at))
        out.append((moved, msgspec.structs.replace(c, game=game, first_seq=moved[0].seq, last_seq=at)))
    return out


class Committer:
    """One thread writing every append waiting into one transaction; each caller returns after its COMMIT."""

    def __init__(self, store: Any):
        self.store = store
        self.waiting: list[tuple[list[NewEventRow], CommandRow, threading.Event]] = []
        self.cond = threading.Condition()
        self.groups = 0
        self.done = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def append(self, events: list[NewEventRow], command: CommandRow) -> None:
        acked = threading.Event()
        with self.cond:
            self.waiting.append((events, command, acked))
            self.cond.notify()
        acked.wait()

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.waiting and not self.done:
                    self.cond.wait()
                if self.done and not self.waiting:
                    return
                group, self.waiting = self.waiting, []
            self._write([(e, c) for e, c, _ in group])
            self.groups += 1
            for _, _, acked in group:
                acked.set()  # after the COMMIT: nothing acknowledged is unwritten

    def _write(self, group: list) -> None:
        store = self.store
        if isinstance(store, SQLiteStore):
            with store._transaction() as conn:
                for events, command in group:
                    store._insert(conn, events, command)
            return
        from events.store.postgres import _pg
        from events.store.sql import INSERT_COMMAND, INSERT_EVENT_HEAD

        with store._connection() as conn, conn.transaction(), conn.pipeline():
            for events, command in group:
                row = "(" + ",".join(["%s"] * len(NewEventRow.__struct_fields__)) + ")"
                sql = f"WITH e AS ({_pg(INSERT_EVENT_HEAD)} {','.join([row] * len(events))}) {_pg(INSERT_COMMAND)}"
                params = [x for e in events for x in msgspec.structs.astuple(e)] + list(msgspec.structs.astuple(command))
                conn.execute(sql, params)

    def close(self) -> None:
        with self.cond:
            self.done = True
            self.cond.notify()
        self.thread.join()


def run(url: str, variant: str, work: list[list], sync: str = "normal") -> dict[str, float]:
    store = open_store(url, sqlite_sync=sync)
    committer = Committer(store) if variant == "grouped" else None
    send = committer.append if committer else (lambda e, c: store.append(e, c))

    def client(appends: list) -> None:
        for events, command in appends:
            send(events, command)

    threads = [threading.Thread(target=client, args=(w,)) for w in work]
    cpu, wall = time.process_time(), time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    n = sum(len(w) for w in work)
    out = {"rate": n / wall, "cpu_ms": 1000 * cpu / n}
    if committer:
        committer.close()
        out["per_group"] = n / max(1, committer.groups)
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url", nargs="?", help="a postgresql:// URL (default: a SQLite file in a temporary directory)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--per-client", type=int, default=150)
    ap.add_argument("--sync", default="normal", help="SQLite's synchronous: normal (the default) or full")
    args = ap.parse_args()
    rows = raid_rows(args.per_client * 2 * args.rounds)
    with tempfile.TemporaryDirectory() as d:
        url = args.url or os.path.join(d, "group.db")
        svc = GameService(open_store(url))
        games = [raid_game(svc, public_seed=SEED)[0] for _ in range(CLIENTS)]
        heads = {g: svc.store.head(g)[0] for g in games}  # type: ignore[index]
        svc.store.close()
        chunks = iter(range(0, len(rows), args.per_client))
        results: dict[str, list[dict[str, float]]] = {"single": [], "grouped": []}
        for _ in range(args.rounds):
            for variant in ("single", "grouped"):
                start = next(chunks)
                work = []
                for g in games:
                    part = onto(rows[start : start + args.per_client], g, heads[g])
                    heads[g] = part[-1][1].last_seq
                    work.append(part)
                results[variant].append(run(url, variant, work, args.sync))
                print(variant, json.dumps(results[variant][-1]), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
