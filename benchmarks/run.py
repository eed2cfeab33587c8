"""The performance suite (`make bench`): every figure beside a reference measured in the same run.

These machines are noisy, so nothing here is asserted; the table shows ratios. `--write FILE` also writes
the table, the date and the machine as Markdown (docs/performance.md).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import hmac
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

from events.store import Store  # noqa: E402
from service.games import GameService  # noqa: E402
from tests.live import server_process  # noqa: E402

ROWS: list[dict] = []
QUICK = False


def row(figure, value, reference, ratio, target, met, unit=""):
    ROWS.append(
        {
            "figure": figure,
            "value": value,
            "reference": reference,
            "ratio": ratio,
            "target": target,
            "met": met,
            "unit": unit,
        }
    )
    print(
        f"  {figure}: {value} vs {reference} -> {ratio} ({target}: {'met' if met else 'NOT met' if met is False else '-'})",
        flush=True,
    )


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}" if x >= 10 else f"{x:,.2f}"


# ---- helpers -------------------------------------------------------------------------------------

ENEMY_ZONES = [3, 7, 8, 10, 23, 34, 35, 45, 2, 11, 18, 22, 53, 55, 56, 57, 65, 4]


def raid_game(svc: GameService, n_subs: int = 99) -> tuple[str, str]:
    """An aa1942 game in Germany's combat phase with submarines in every enemy convoy zone."""
    made = svc.create(
        "aa1942-convoy",
        {"submarines": {"Germany": {str(z): n_subs for z in ENEMY_ZONES}}},
        None,
        "fair",
        None,
        None,
        None,
    )
    gid, tok = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    svc.command(gid, tok["USSR"], {"type": "purchase", "spend": 0})
    for _ in range(4):
        svc.command(gid, tok["USSR"], {"type": "end_phase"})
    svc.command(gid, tok["Germany"], {"type": "purchase", "spend": 0})
    svc.command(gid, tok["Germany"], {"type": "end_phase"})
    return gid, tok["Germany"]


def raids(svc: GameService, n: int) -> list[float]:
    """Latencies of n raid commands (as many games as needed); each one load -> decide -> append -> commit."""
    out = []
    while len(out) < n:
        gid, tok = raid_game(svc)
        for z in ENEMY_ZONES:
            for _ in range(99):
                if len(out) >= n:
                    return out
                t = time.perf_counter()
                svc.command(gid, tok, {"type": "raid", "sz": z})
                out.append(time.perf_counter() - t)
    return out


def detects(svc: GameService, n: int, ids: list | None = None) -> list[float]:
    """Latencies of n corvette `detect` commands, in bot-played convoys through the service (their
    command ids into `ids`)."""
    from domain.corvette_command import bot
    from domain.engine import awaiting

    out = []
    while len(out) < n:
        made = svc.create("corvette-command", {"convoys": 50}, None, "fair", None, None, None)
        gid, token = made["game_id"], made["seats"][0]["token"]
        while len(out) < n:
            game = svc._cached(gid).game
            legal = awaiting(game)
            if not legal:
                break
            payload = bot.choose(game.rules, legal)
            t = time.perf_counter()
            result = svc.command(gid, token, payload)
            if payload["type"] == "detect":
                out.append(time.perf_counter() - t)
                if ids is not None:
                    ids.append(result["command_id"])
    return out


def raw_rows_per_command(store: Store, limit: int, only: list | None = None) -> list[list[tuple]]:
    """The rows our store wrote, grouped by command: what a raw insert of the same data must write."""
    cmds = store.db.conn.execute(
        "SELECT game, command_id, seat, payload, first_seq, last_seq, recorded_at FROM commands LIMIT ?",
        (limit if only is None else 10**9,),
    ).fetchall()
    if only is not None:
        wanted = set(only)
        cmds = [c for c in cmds if c[1] in wanted]
    groups = []
    for c in cmds:
        evs = store.db.conn.execute(
            "SELECT game, seq, type, v, body, hash, command_id, actor, recorded_at FROM events WHERE game=? AND seq BETWEEN ? AND ?",
            (c[0], c[4], c[5]),
        ).fetchall()
        groups.append([c] + evs)
    return groups


def raw_sqlite(groups: list[list[tuple]], path: str) -> float:
    """Commands/s for plain sqlite3 writing the same rows, one transaction per command, our pragmas and schema."""
    Store(path).close()  # the same tables and indexes
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    start = time.perf_counter()
    for g in groups:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO commands VALUES (?,?,?,?,?,?,?)", g[0])
        conn.executemany(
            "INSERT INTO events (game, seq, type, v, body, hash, command_id, actor, recorded_at) VALUES (?,?,?,?,?,?,?,?,?)",
            g[1:],
        )
        conn.execute("COMMIT")
    return len(groups) / (time.perf_counter() - start)


_ES_AGGREGATE = None


def eventsourcing_rate(path: str, n: int, our_pragmas: bool) -> float | None:
    """The `eventsourcing` library's SQLite module saving one event per command."""
    try:
        import eventsourcing.sqlite as es_sqlite
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        return None
    os.environ["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    os.environ["SQLITE_DBNAME"] = path
    real_connect = es_sqlite.sqlite3.connect

    def connect(*a, **kw):
        c = real_connect(*a, **kw)
        if our_pragmas:
            c.execute("PRAGMA synchronous=NORMAL")
        return c

    es_sqlite.sqlite3.connect = connect
    global _ES_AGGREGATE
    if _ES_AGGREGATE is None:  # the library registers each class once

        class Convoy(Aggregate):
            @event("Raided")
            def raid(self, sz: int, faces: list[int], damage: int) -> None:
                pass

        _ES_AGGREGATE = Convoy
    try:
        app = Application()
        agg = _ES_AGGREGATE()
        app.save(agg)
        start = time.perf_counter()
        for i in range(n):
            agg.raid(7, [i % 6 + 1], 1)
            app.save(agg)
        return n / (time.perf_counter() - start)
    finally:
        es_sqlite.sqlite3.connect = real_connect


# ---- P1 ------------------------------------------------------------------------------------------


def p1(tmp: Path) -> None:
    n = 400 if QUICK else 3000
    store = Store(str(tmp / "p1.db"))
    svc = GameService(store)
    lat_aa = raids(svc, n)
    aa = len(lat_aa) / sum(lat_aa)
    cc_store, cc_ids = Store(str(tmp / "p1cc.db")), []
    lat_cc = detects(GameService(cc_store), n // 3, cc_ids)
    cc = len(lat_cc) / sum(lat_cc)
    raw = raw_sqlite(raw_rows_per_command(store, n), str(tmp / "raw.db"))
    raw_cc = raw_sqlite(raw_rows_per_command(cc_store, 0, only=cc_ids), str(tmp / "raw-cc.db"))
    row(
        "P1 aa1942 raid, commands/s (in-process, file db)",
        fmt(aa),
        f"raw sqlite3 {fmt(raw)}",
        f"{aa / raw:.0%}",
        ">= 50% of raw",
        aa / raw >= 0.5,
    )
    row(
        "P1 corvette detect (and the steps it runs), commands/s",
        fmt(cc),
        f"raw sqlite3, its rows {fmt(raw_cc)}",
        f"{cc / raw_cc:.0%}",
        ">= 50% of raw",
        cc / raw_cc >= 0.5,
    )
    for label, ours_pragmas in (("as it ships (synchronous FULL)", False), ("with our pragmas", True)):
        es = eventsourcing_rate(str(tmp / f"es-{ours_pragmas}.db"), n // 3, ours_pragmas)
        if es is None:
            row(f"P1 vs eventsourcing {label}", fmt(aa), "not installed (pip install '.[bench]')", "-", ">= 10x", None)
        else:
            row(
                f"P1 aa1942 raid vs eventsourcing {label}",
                fmt(aa),
                f"eventsourcing {fmt(es)}",
                f"{aa / es:.1f}x",
                ">= 10x",
                aa / es >= 10,
            )


# ---- P2 ------------------------------------------------------------------------------------------

BARE = """
from fastapi import FastAPI, Request
from fastapi.responses import Response
app = FastAPI()
BODY = b"x" * int(__import__("os").environ["BARE_SIZE"])
@app.post("/games/{game_id}/commands")
async def bare(game_id: str, request: Request):
    await request.body()
    return Response(BODY, media_type="application/json")
"""


def p2(tmp: Path) -> None:
    from benchmarks.load import run_load

    per_conn = 60 if QUICK else 400
    db = tmp / "p2.db"
    # prepare 16 games ready to raid (one per connection), in the server's database
    svc = GameService(Store(str(db)))
    games = [raid_game(svc) for _ in range(16)]
    svc.store.close()
    with server_process(str(db)) as (base, _):
        ours = run_load(int(base.rsplit(":", 1)[1]), games, per_conn)
    size = ours["body_size"]
    (tmp / "bare_app.py").write_text(BARE)
    with server_process(app="bare_app:app", env={"BARE_SIZE": str(size), "PYTHONPATH": str(tmp)}) as (base, _):
        ref = run_load(int(base.rsplit(":", 1)[1]), games, per_conn)
    ratio = ours["rate"] / ref["rate"]
    row(
        "P2 HTTP commands/s (16 connections, one process)",
        fmt(ours["rate"]),
        f"bare FastAPI {fmt(ref['rate'])}",
        f"{ratio:.0%}",
        ">= 60% of bare",
        ratio >= 0.6,
    )
    row(
        "P2 HTTP latency p50 / p99 (ms)",
        f"{ours['p50']:.1f} / {ours['p99']:.1f}",
        f"bare {ref['p50']:.1f} / {ref['p99']:.1f}",
        "-",
        "p99 <= 25 ms",
        ours["p99"] <= 25,
    )
    if ours["errors"]:
        row("P2 errors", str(ours["errors"]), "0", "-", "no errors", False)


# ---- P3 ------------------------------------------------------------------------------------------


def p3(tmp: Path) -> None:
    from domain.corvette_command.rules.procedure import Ctx  # noqa: F401 - corvette loaded
    from service.games import loaded_for
    from service.records import fold_rows

    svc = GameService(Store(str(tmp / "p3.db")))
    made = svc.create("corvette-command", {"convoys": 3 if QUICK else 20}, None, "public-seed", "42" * 32, None, None)
    gid, token = made["game_id"], made["seats"][0]["token"]
    from domain.corvette_command import bot
    from domain.engine import awaiting

    while True:
        game = svc._cached(gid).game
        legal = awaiting(game)
        if not legal:
            break
        svc.command(gid, token, bot.choose(game.rules, legal))
    loaded = loaded_for("corvette-command")
    reps = max(3, 60_000 // svc._cached(gid).game.version)  # enough events that both timings are long
    t = time.perf_counter()
    for _ in range(reps):
        rows = svc.store.events(gid)
        game = fold_rows(loaded, rows)
        for name in ("ship-log", "campaign-sheet"):
            game.ruleset.views[name].render(game.rules, None)
    ours = reps * len(rows) / (time.perf_counter() - t)
    t = time.perf_counter()
    for _ in range(reps):
        raw = svc.store.db.conn.execute("SELECT body FROM events WHERE game = ? ORDER BY seq", (gid,)).fetchall()
        [msgspec.json.decode(r[0]) for r in raw]
    ref = reps * len(raw) / (time.perf_counter() - t)
    row(
        f"P3 rebuild events/s into ship-log + campaign-sheet ({len(rows):,} events)",
        fmt(ours),
        f"SELECT + decode {fmt(ref)}",
        f"{ours / ref:.0%}",
        ">= 40% of raw",
        ours / ref >= 0.4,
    )


# ---- P4 ------------------------------------------------------------------------------------------


def long_bundle(min_rolls: int) -> dict:
    """A bundle's worth of `min_rolls` genuine umpire1 rolls, their dice cycled from a real corvette convoy
    (a campaign rarely lives long enough to roll 100,000 times: the corvette is sunk first)."""
    from domain.dice import faces_for, game_seed
    from events.canonical import GENESIS_HASH, chain_hash
    from events.core import DiceRolled
    from service.simulate import play

    seed = bytes(range(32))
    real = []
    game = play(
        "corvette-command",
        {"convoys": 1},
        seed,
        game_id="bench",
        on_event=lambda g, e: real.append(e) if isinstance(e, DiceRolled) else None,
    )
    lock = game.lock
    gs = game_seed(seed, "bench", lock.client_seeds, None)
    bodies, h = [], GENESIS_HASH
    for k in range(min_rolls):
        model = real[k % len(real)]
        data = {
            "k": k,
            "sides": model.sides,
            "faces": faces_for(gs, k, model.sides),
            "purpose": model.purpose,
            "rule": model.rule,
            "result": None,
            "rerolls": None,
        }
        body = {"game": "bench", "seq": k + 2, "type": "DiceRolled", "v": 1, "command": "c", "data": data}
        h = chain_hash(h, body)
        bodies.append({"body": body, "hash": h.hex()})
    return {
        "dice": {"server_seed": seed.hex(), "client_seeds": lock.client_seeds, "beacon": None},
        "events": bodies,
        "rolls": min_rolls,
        "game": "bench",
    }


def p4(tmp: Path) -> None:
    from domain.dice import game_seed
    from events.bundle import Bundle, BundleDice, BundleEvent, BundleRuleset
    from service.replay import verify_dice

    want = 5_000 if QUICK else 100_000
    b = long_bundle(want)
    seed = bytes.fromhex(b["dice"]["server_seed"])
    # verify_dice checks the genesis commit too: give it a genesis event with the commit
    commit = hashlib.sha256(seed).hexdigest()
    genesis = {
        "body": {
            "game": "bench",
            "seq": 1,
            "type": "GameCreated",
            "v": 1,
            "command": "c",
            "data": {"dice": {"server_commit": commit}},
        },
        "hash": "",
    }
    bundle = Bundle(
        format="umpire-bundle/1",
        engine="bench",
        ruleset=BundleRuleset("corvette-command", "1", ""),
        game="bench",
        dice=BundleDice(
            scheme="umpire1",
            mode="public-seed",
            server_commit=commit,
            server_seed=seed.hex(),
            client_seeds=b["dice"]["client_seeds"],
            beacon=None,
        ),
        commands=[],
        events=[BundleEvent(**genesis)] + [BundleEvent(**e) for e in b["events"]],
        head="",
    )
    t = time.perf_counter()
    report = verify_dice(bundle)
    ours = b["rolls"] / (time.perf_counter() - t)
    assert report["status"] == "pass", report
    gs = game_seed(seed, "bench", b["dice"]["client_seeds"])
    n = 200_000 if not QUICK else 20_000
    t = time.perf_counter()
    for k in range(n):
        hmac.digest(gs, b"umpire1:roll:%d:0" % k, "sha256")
    ref = n / (time.perf_counter() - t)
    row(
        f"P4 rolls verified/s ({b['rolls']:,} rolls in one bundle)",
        fmt(ours),
        f"hmac.digest {fmt(ref)}",
        f"{ours / ref:.0%}",
        ">= 40%",
        ours / ref >= 0.4,
    )


# ---- P5 ------------------------------------------------------------------------------------------


def p5(tmp: Path) -> None:
    svc = GameService(Store(str(tmp / "p5.db")))
    made = svc.create("aa1942-convoy", {}, None, "fair", None, None, None)
    gid = made["game_id"]
    tok = {s["seat"]: s["token"] for s in made["seats"]}
    seat_of = {p: p for p in tok}
    sizes = [100, 1_000, 10_000] + ([] if QUICK else [100_000])
    results = {}

    def one():
        game = svc._cached(gid).game
        power = game.rules.power
        payload = {"type": "purchase", "spend": 0} if game.rules.phase == "purchase" else {"type": "end_phase"}
        t = time.perf_counter()
        svc.command(gid, tok[seat_of[power]], payload)
        return time.perf_counter() - t

    for size in sizes:
        while svc._cached(gid).game.version < size:
            one()
        lat = sorted(one() for _ in range(1000))
        results[size] = statistics.median(lat)
    base = results[100]
    for size in sizes:
        r = results[size] / base
        row(
            f"P5 command latency p50 at {size:,} events (ms)",
            f"{results[size] * 1000:.2f}",
            f"at 100: {base * 1000:.2f}",
            f"{r:.2f}x",
            "<= 1.2x",
            r <= 1.2,
        )
    p5_uboat(tmp, sizes)


def p5_uboat(tmp: Path, sizes: list[int]) -> None:
    """uboat-leader: its bot's commands in a Long campaign made endless (9,999 patrols a boat, no enemy hits), the
    median of 300 commands at each size (the bot's choice not timed)."""
    import json

    from domain.engine import awaiting
    from domain.uboat_leader import bot

    data = json.loads((Path(__file__).resolve().parent.parent / "domain/uboat_leader/data/default.json").read_text())
    data["campaigns"][0]["durations"]["long"]["patrols"] = 9999
    for deck in ("merchants", "escorts", "fleet_escorts", "naval"):
        for card in data[deck]:
            card["attack"] = [None] * len(card["attack"])
    svc = GameService(Store(str(tmp / "p5u.db")))
    made = svc.create("uboat-leader", {"duration": "long", "data": data}, None, "fair", None, None, None)
    gid, tok = made["game_id"], made["seats"][0]["token"]

    def one():
        game = svc._cached(gid).game
        payload = bot.choose(game.rules, awaiting(game))
        t = time.perf_counter()
        svc.command(gid, tok, payload)
        return time.perf_counter() - t

    results = {}
    for size in sizes:
        while svc._cached(gid).game.version < size:
            one()
        results[size] = statistics.median(sorted(one() for _ in range(300)))
    for size in sizes:
        r = results[size] / results[100]
        row(
            f"P5 uboat-leader command latency p50 at {size:,} events (ms)",
            f"{results[size] * 1000:.2f}",
            f"at 100: {results[100] * 1000:.2f}",
            f"{r:.2f}x",
            "<= 1.2x",
            r <= 1.2,
        )


# ---- P6 ------------------------------------------------------------------------------------------


def p6(tmp: Path) -> None:
    from service.simulate import play, seed_for

    n = 40 if QUICK else 300
    t = time.perf_counter()
    for i in range(n):
        play("corvette-command", {"convoys": 1}, seed_for(99, i), game_id=f"b{i}")
    rate = n / (time.perf_counter() - t)
    row("P6 whole corvette convoys simulated/s, one core", fmt(rate), "-", "-", "report", None)
    n = 10 if QUICK else 60
    t = time.perf_counter()
    for i in range(n):
        play("battlefleet-1900", {}, seed_for(99, i), game_id=f"bf{i}")
    rate = n / (time.perf_counter() - t)
    row("P6 whole battlefleet-1900 battles (12 turns) simulated/s, one core", fmt(rate), "-", "-", "report", None)


NOTES = "## What the profile showed, what changed, what is not met"

FIGURES = {"P1": p1, "P2": p2, "P3": p3, "P4": p4, "P5": p5, "P6": p6}


def table_markdown() -> str:
    lines = ["| figure | value | reference | ratio | target | met? |", "|---|---|---|---|---|---|"]
    for r in ROWS:
        met = "yes" if r["met"] else "**no**" if r["met"] is False else "-"
        lines.append(f"| {r['figure']} | {r['value']} | {r['reference']} | {r['ratio']} | {r['target']} | {met} |")
    return "\n".join(lines)


def main() -> None:
    global QUICK
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run of every figure")
    ap.add_argument("--only", nargs="*", choices=sorted(FIGURES))
    ap.add_argument("--write", help="also write the table as Markdown to this file")
    args = ap.parse_args()
    QUICK = args.quick
    with tempfile.TemporaryDirectory() as d:
        for name in args.only or FIGURES:
            print(f"{name} ...", flush=True)
            FIGURES[name](Path(d))
    from rich.console import Console
    from rich.table import Table

    t = Table(title="Naval Umpire benchmarks")
    for col in ("figure", "value", "reference", "ratio", "target", "met?"):
        t.add_column(col)
    for r in ROWS:
        t.add_row(
            r["figure"],
            r["value"],
            r["reference"],
            r["ratio"],
            r["target"],
            "yes" if r["met"] else "[red]no[/]" if r["met"] is False else "-",
        )
    Console(width=160).print(t)
    if args.write:
        machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.machine()}"
        target = Path(args.write)
        notes = ""  # the hand-written analysis after the table is kept
        if target.exists() and NOTES in target.read_text(encoding="utf-8"):
            notes = "\n" + NOTES + target.read_text(encoding="utf-8").split(NOTES, 1)[1]
        target.write_text(
            f"# Performance\n\nMeasured {datetime.date.today().isoformat()} on {machine} with `make bench`"
            f"{' (quick)' if QUICK else ''}.\nEvery figure is a ratio against a reference measured in the same run "
            "(benchmarks/run.py says how each is made).\n\n" + table_markdown() + "\n" + notes,
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
