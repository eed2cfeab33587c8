"""Instructions per command (issue 35), counted by callgrind: figures that other work on the machine does not move.

`python -m benchmarks.counts` (and `make bench`, as its I rows) counts each path below in its own process under
callgrind (benchmarks/instructions.py; PYTHONHASHSEED=0, public-seed dice and fixed game ids, so two runs of one
tree send the same commands and count alike), and prints them with their ratio to the floor of their kind:

- through the ASGI app in-process (`POST /games/{id}/commands` as a client sends it, the answer encoded; no socket):
  an aa1942 raid, a corvette `detect`, a uboat-leader command and a battlefleet-1900 command (each ruleset's bot picks
  them outside the window);
- the floors: a bare FastAPI endpoint answering as many bytes through the same call; raw sqlite3 writing a raid's
  rows (its command and events, one transaction); one HMAC die.

Counts repeat on one machine and one set of versions, not across them (OpenSSL and glibc pick CPU-specific code;
Python and libraries differ). So the guard compares with a base commit counted in the same run (`--base REV`: a
temporary worktree), or else with `benchmarks/counts.json` when its recorded machine (CPU, Python, packages) is this
one; a count more than 5% above fails. Under CI=true a missing valgrind fails rather than skips.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.instructions import available, per_command, window

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "benchmarks" / "counts.json"
SEED = "35" * 32
RISE = 0.05  # a count more than this above its reference fails
PACKAGES = ("fastapi", "starlette", "msgspec", "pydantic", "uvicorn", "sqlite-utils", "psycopg")

# ---- the measured programs (each runs under callgrind; only what `window` runs is counted) ----


class Asgi:
    """An ASGI app called in-process as a server would call it for one request: scope, body, the answer's bytes."""

    def __init__(self, app: Any):
        self.app = app
        self.loop = asyncio.new_event_loop()

    def post(self, path: str, body: dict[str, Any], token: str | None) -> tuple[int, bytes]:
        raw = json.dumps(body).encode()
        headers = [(b"host", b"bench"), (b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        return self.loop.run_until_complete(self._call("POST", path, raw, headers))

    async def _call(self, method: str, path: str, raw: bytes, headers: list) -> tuple[int, bytes]:
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
        }  # fmt: skip
        pending = [{"type": "http.request", "body": raw, "more_body": False}]
        status, chunks = 0, []

        async def receive() -> dict[str, Any]:
            return pending.pop() if pending else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


def _app(db: str) -> tuple[Any, Any]:
    from service.app import create_app
    from service.settings import Settings

    app = create_app(settings=Settings(db=db, create_per_minute=0))  # no lifespan: no dispatcher or sweeper thread
    return app, app.state.service


def _send(client: Asgi, gid: str, token: str | None, payload: dict[str, Any]) -> bytes:
    status, body = client.post(f"/games/{gid}/commands", payload, token)
    if status != 200:
        raise RuntimeError(f"{payload} answered {status}: {body[:300]!r}")
    return body


def raid(db: str, n: str) -> None:
    """`n` aa1942 raids through the ASGI app, after a warm-up of as many."""
    from benchmarks.run import ENEMY_ZONES, raid_game

    app, svc = _app(db)
    client = Asgi(app)
    gid, tok = raid_game(svc, public_seed=SEED)
    zones = iter([z for z in ENEMY_ZONES for _ in range(99)])

    def send(k: int) -> None:
        for _ in range(k):
            _send(client, gid, tok, {"type": "raid", "sz": next(zones)})

    send(int(n))
    window(send, int(n))


def _bot_game(db: str, ruleset: str, options: dict[str, Any], warm: int, n: int, only: str | None = None) -> None:
    """A game whose seats the ruleset's bot plays, every command through the ASGI app; the `n` commands after `warm`
    (of type `only`, if given) are counted, the bot's picks never."""
    from domain import engine
    from service.bots import bot_choose

    app, svc = _app(db)
    client = Asgi(app)
    made = svc.creation.create(ruleset, options, None, "public-seed", SEED, None, None, game_id="g-bench")
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    ruleset_obj = svc.rulesets[ruleset].ruleset
    sent = counted = 0
    while counted < n:
        with svc.cache.game(gid) as c:
            game = c.game
            awaited = engine.awaited_seats(game)  # not a seat whose only entry is open all game (concede)
            turn = next(((s, m) for s in awaited if (m := [x for x in engine.awaiting(game, s) if s in x.seats])), None)
            if turn is None:
                raise RuntimeError(f"{ruleset}: the game ended after {sent} commands, before {n} were counted")
            seat, mine = turn
            payload = bot_choose(ruleset_obj, game.state, mine, seat)
        if payload is None:
            raise RuntimeError(f"{ruleset}: the bot had nothing to send for {seat}")
        measured = sent >= warm and (only is None or payload["type"] == only)
        if measured:
            window(_send, client, gid, tokens[seat], payload)
            counted += 1
        else:
            _send(client, gid, tokens[seat], payload)
        sent += 1


def detect(db: str, n: str) -> None:
    """`n` corvette `detect` commands of a bot-played campaign (the other commands between them uncounted)."""
    _bot_game(db, "corvette-command", {"convoys": 50}, 20, int(n), only="detect")


def uboat(db: str, n: str) -> None:
    """`n` uboat-leader commands of a bot-played campaign, after 20."""
    _bot_game(db, "uboat-leader", {}, 20, int(n))


def battlefleet(db: str, n: str) -> None:
    """`n` battlefleet-1900 commands of a bot-played battle (both seats), after 10."""
    _bot_game(db, "battlefleet-1900", {}, 10, int(n))


def games(ruleset: str, n: str) -> None:
    """`n` whole games of `ruleset` played in memory by its bot, as `umpire simulate` plays them (issue 36: the
    instructions a what-if answer costs per game); fixed simulation seeds, so every count plays the same games."""
    from service.simulate import play, seed_for

    options = {"convoys": 1} if ruleset == "corvette-command" else {}
    window(lambda: [play(ruleset, options, seed_for(36, i), game_id=f"g{i}") for i in range(int(n))])


def startup() -> None:
    """What `umpire simulate` does before its first game: import the command line, the rulesets with their data
    sets read and hashed, and the simulator."""

    def load() -> None:
        import service.cli  # noqa: F401
        import service.rulesets  # noqa: F401
        import service.simulate  # noqa: F401

    window(load)


def endpoint(size: str, n: str) -> None:
    """The floor of the HTTP rows: a bare FastAPI endpoint answering `size` bytes to a POST, through the same call."""
    from fastapi import FastAPI, Request, Response

    app = FastAPI()
    answer = b'"' + b"x" * max(0, int(size) - 2) + b'"'

    @app.post("/games/{game_id}/commands")
    async def command(game_id: str, request: Request) -> Response:
        await request.body()
        return Response(answer, media_type="application/json")

    client = Asgi(app)

    def send(k: int) -> None:
        for _ in range(k):
            client.post("/games/g/commands", {"type": "raid", "sz": 3}, "t")

    send(int(n))
    window(send, int(n))


def rows(db: str, n: str) -> None:
    """The floor of the store: raw sqlite3 writing the rows our store wrote for raids (one transaction each)."""
    from benchmarks.run import raid_game, raw_rows_per_command
    from events.store import SQLiteStore
    from service.games import GameService

    svc = GameService(SQLiteStore(db))
    gid, tok = raid_game(svc, public_seed=SEED)
    for z in (3, 7, 8) * (2 * int(n) // 3 + 1):
        svc.command(gid, tok, {"type": "raid", "sz": z})
    groups = [g for g in raw_rows_per_command(svc.store, 10**9) if g[0][2] == "Germany"][-2 * int(n) :]
    target = db + ".raw"
    SQLiteStore(target).close()  # the same tables and indexes
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")

    def write(part: list) -> None:
        for g in part:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO commands VALUES (?,?,?,?,?,?,?)", g[0])
            conn.executemany(
                "INSERT INTO events (game, seq, type, v, body, hash, command_id, actor, recorded_at) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                g[1:],
            )
            conn.execute("COMMIT")

    write(groups[: int(n)])
    window(write, groups[int(n) :])


def append(db: str, n: str) -> None:
    """The store's append alone (issue 35 item 3): `append` of the store `db` names (a SQLite file or a postgresql://
    URL) writing raids' rows as the command path hands them over, one command per call, on the event loop's terms
    (`wait=False`). The rows are a raid game's, played first in memory, moved onto a game made in `db`."""
    import msgspec

    from benchmarks.run import raid_game
    from events.store import CommandRow, NewEventRow, SQLiteStore, open_store
    from service.games import GameService

    source = GameService(SQLiteStore(":memory:"))
    gid, tok = raid_game(source, public_seed=SEED)
    for z in (3, 7, 8) * (2 * int(n) // 3 + 1):
        source.command(gid, tok, {"type": "raid", "sz": z})
    target = GameService(open_store(db))
    into, _ = raid_game(target, public_seed=SEED)
    at = target.store.head(into)[0]  # type: ignore[index]
    events = {e.seq: e for e in source.store.events(gid)}
    groups = []
    for c in [c for c in source.store.commands(gid) if c.seat == "Germany"][-2 * int(n) :]:
        evs = []
        for seq in range(c.first_seq, c.last_seq + 1):
            e, at = events[seq], at + 1
            k = msgspec.json.decode(e.body)["data"].get("k") if e.type == "DiceRolled" else None
            evs.append(NewEventRow(into, at, e.type, e.v, e.body, e.hash, e.command_id, e.actor, e.recorded_at, e.sealed, k))
        groups.append((evs, CommandRow(into, c.command_id, c.seat, c.payload, evs[0].seq, at, c.recorded_at)))
    store = target.store

    def write(part: list) -> None:
        for evs, cmd in part:
            store.append(evs, cmd, wait=False)

    write(groups[: int(n)])
    window(write, groups[int(n) :])


def command(db: str, n: str) -> None:
    """`n` aa1942 raids sent to `GameService.command` in this thread (the store `db` names: a SQLite file or a
    postgresql:// URL). Through the ASGI app a PostgreSQL command runs in a worker thread, which callgrind's window
    (this thread's) does not count; here the command's reads, its append and its answer are all counted."""
    from benchmarks.run import raid_game
    from events.store import open_store
    from service.games import GameService

    svc = GameService(open_store(db))
    gid, tok = raid_game(svc, public_seed=SEED)
    zones = iter([z for z in (3, 7, 8, 10, 23, 34) for _ in range(99)])

    def send(k: int) -> None:
        for _ in range(k):
            svc.command(gid, tok, {"type": "raid", "sz": next(zones)})

    send(int(n))
    window(send, int(n))


def hmac_die(n: str) -> None:
    """The floor of the dice: one HMAC die (domain/dice.py `faces_for`)."""
    from domain.dice import faces_for

    seed = bytes.fromhex(SEED)

    def roll(k: int) -> None:
        for i in range(k):
            faces_for(seed, i, [6])

    roll(int(n))
    window(roll, int(n))


def answer_size(db: str) -> int:
    """The bytes of a raid's answer, which the bare endpoint answers with (measured, not assumed)."""
    from benchmarks.run import raid_game

    app, svc = _app(db)
    client = Asgi(app)
    gid, tok = raid_game(svc, public_seed=SEED)
    return len(_send(client, gid, tok, {"type": "raid", "sz": 3}))


# ---- the benchmark ----

# (row, worker, needs a database, the floor it is compared with)
PATHS: list[tuple[str, str, bool, str]] = [
    ("I1 aa1942 raid, HTTP via the ASGI app", "raid", True, "endpoint"),
    ("I2 corvette detect, HTTP via the ASGI app", "detect", True, "endpoint"),
    ("I3 uboat-leader command, HTTP via the ASGI app", "uboat", True, "endpoint"),
    ("I4 battlefleet-1900 command, HTTP via the ASGI app", "battlefleet", True, "endpoint"),
    ("I5 floor: bare FastAPI endpoint, same answer size", "endpoint", False, ""),
    ("I6 floor: raw sqlite3, a raid's rows", "rows", True, ""),
    ("I7 floor: one HMAC die", "hmac_die", False, ""),
    ("I8 battlefleet-1900 battle, bot in memory, per game", "games:battlefleet-1900", False, ""),
    ("I9 uboat-leader campaign, bot in memory, per game", "games:uboat-leader", False, ""),
    ("I10 corvette convoy, bot in memory, per game", "games:corvette-command", False, ""),
    ("I11 umpire simulate start-up, once", "startup", False, ""),
]
GAMES = {"battlefleet-1900": 1, "uboat-leader": 2, "corvette-command": 4}  # games counted (callgrind runs ~50x slower)


def machine() -> dict[str, Any]:
    """What a count depends on besides the code: the CPU, Python and the packages on the command path."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {"cpu": cpu, "python": platform.python_version(), "sqlite": sqlite3.sqlite_version, "packages": versions}


def measure(tree: Path, n: int, log: Callable[[str], None] = print) -> dict[str, float]:
    """Instructions per command of every path, counted with the code of `tree` (this checkout or a base worktree)."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as d:
        size = str(_in(tree, "answer_size", [str(Path(d) / "size.db")]))
        for name, worker, db, _ in PATHS:
            log(f"  {name} ...")
            args = [str(Path(d) / f"{worker}.db")] if db else []
            args = [size] if worker == "endpoint" else args
            if worker.startswith("games:"):
                ruleset = worker.split(":")[1]
                out[name] = per_command("benchmarks.counts:games", [ruleset, str(GAMES[ruleset])], GAMES[ruleset], cwd=tree)
                continue
            if worker == "startup":  # counted with the bytecode cached, as any run after the first finds it
                env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
                code = "import service.cli, service.rulesets, service.simulate"
                subprocess.run([sys.executable, "-c", code], cwd=str(tree), env=env, check=True)
                out[name] = per_command("benchmarks.counts:startup", [], 1, cwd=tree)
                continue
            k = n * 20 if worker == "hmac_die" else n
            out[name] = per_command(f"benchmarks.counts:{worker}", [*args, str(k)], k, cwd=tree)
    return out


def _in(tree: Path, function: str, args: list[str]) -> Any:
    code = f"import sys, json; from benchmarks.counts import {function} as f; print(json.dumps(f(*sys.argv[1:])))"
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=str(tree), capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )  # fmt: skip
    return json.loads(proc.stdout.strip().splitlines()[-1])


def base_tree(rev: str, into: Path) -> Path:
    """A worktree of `rev` with this checkout's counting code (the base may predate it): its own code is counted."""
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(into), rev], cwd=ROOT, check=True)
    for name in ("counts.py", "instructions.py"):
        shutil.copy(ROOT / "benchmarks" / name, into / "benchmarks" / name)
    return into


def compare(now: dict[str, float], before: dict[str, float]) -> list[str]:
    """A failure line for each count more than RISE above its reference."""
    return [
        f"FAIL {name}: {now[name]:,.0f} instructions, {now[name] / before[name] - 1:+.1%} against "
        f"{before[name]:,.0f} (the guard allows +{RISE:.0%})"
        for name in now
        if name in before and before[name] > 0 and now[name] > before[name] * (1 + RISE)
    ]


def reference(base: str | None, n: int, log: Callable[[str], None]) -> tuple[dict[str, float] | None, str]:
    """The counts to compare with, and what they are: the base commit's, counted now, or the committed file's when
    it was counted on this machine and versions."""
    if base:
        with tempfile.TemporaryDirectory() as d:
            tree = base_tree(base, Path(d) / "base")
            try:
                log(f"counting the base {base} ...")
                return measure(tree, n, log), f"base {base}, counted in this run"
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    if COMMITTED.exists():
        saved = json.loads(COMMITTED.read_text())
        if saved.get("machine") == machine():
            return saved["counts"], "benchmarks/counts.json (this machine and versions)"
        return None, "benchmarks/counts.json was counted on another machine or versions: no comparison"
    return None, "no reference"


def table(now: dict[str, float], before: dict[str, float] | None) -> list[dict[str, Any]]:
    """The rows as benchmarks/run.py prints them."""
    out = []
    for name, _, _, floor in PATHS:
        floor_name = next((p[0] for p in PATHS if p[1] == floor), None)
        ratio = f"{now[name] / now[floor_name]:.1f}x the floor" if floor_name else "-"
        ref = f"{before[name]:,.0f} before" if before and name in before else "-"
        out.append({"figure": name, "value": f"{now[name]:,.0f}", "reference": ref, "ratio": ratio})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="a commit to count side by side (a temporary worktree) and guard against")
    ap.add_argument("-n", type=int, default=40, help="commands counted per path")
    ap.add_argument("--save", action="store_true", help="write the counts and this machine to benchmarks/counts.json")
    args = ap.parse_args()
    if not available():
        print("valgrind is not installed (apt-get install valgrind): instructions not counted", flush=True)
        sys.exit(1 if os.environ.get("CI") == "true" else 0)
    now = measure(ROOT, args.n)
    before, what = reference(args.base, args.n, print)
    for r in table(now, before):
        print(f"{r['figure']:<55} {r['value']:>12}  {r['ratio']:<18} {r['reference']}")
    print(f"reference: {what}")
    failures = compare(now, before or {})
    for line in failures:
        print(line)
    if args.save:
        COMMITTED.write_text(json.dumps({"machine": machine(), "counts": now}, indent=2, sort_keys=True) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
