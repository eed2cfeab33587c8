"""Reliability over a real server process on loopback: many clients, kill -9 under load, authorization.

Short forms run in `make test`; `make soak` (UMPIRE_SOAK=1) runs 16 x 500 commands and 20 crashes.
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import msgspec
import pytest

from events.canonical import first_broken_link
from events.store import open_store
from service.replay import verify
from tests.conftest import postgres_url
from tests.live import server_process

SOAK = bool(os.environ.get("UMPIRE_SOAK"))
CLIENTS = 16
PER_CLIENT = 500 if SOAK else 30
CRASHES = 20 if SOAK else 3


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def next_command(c: httpx.Client, gid: str):
    """The first legal command and its first choice, from `awaiting` alone; None when the game is over."""
    s = c.get(f"/games/{gid}").json()
    legal = [a for a in s["awaiting"] if a["seats"] != ["referee"]]
    if not legal:
        return None, s["version"]
    a = legal[0]
    return {"type": a["type"], **(a["choices"][0] if a["choices"] else {})}, s["version"]


def test_sixteen_clients_at_one_game(tmp_path):
    with server_process(str(tmp_path / "c.db")) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 200}}).json()
        gid, token = g["game_id"], g["seats"][0]["token"]
        acked, rejected, lock = {}, [], threading.Lock()

        def client(n: int) -> None:
            with httpx.Client(base_url=base, timeout=30, headers=bearer(token)) as c:
                for i in range(PER_CLIENT):
                    payload, version = next_command(c, gid)
                    if payload is None:
                        return
                    body = {**payload, "command_id": f"k{n}-{i}", "expected_version": version}
                    r = c.post(f"/games/{gid}/commands", json=body)
                    with lock:
                        if r.status_code == 200:
                            acked[body["command_id"]] = r.json()["version"]
                        else:
                            rejected.append((r.status_code, r.json().get("code")))

        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(client, range(CLIENTS)))
        with httpx.Client(base_url=base, timeout=60) as c:
            c.post(f"/games/{gid}/reveal", headers=bearer(g["referee_token"]))
            bundle = c.get(f"/games/{gid}/bundle").json()
    assert acked
    assert all(status == 409 and code for status, code in rejected), set(rejected)
    recorded = [x["command_id"] for x in bundle["commands"]]
    assert len(recorded) == len(set(recorded))
    assert set(acked) <= set(recorded)  # nothing acknowledged is lost
    report = verify(bundle)  # the chain, every roll (k gapless) and the replay
    assert report["verdict"] == "verified", report["checks"]


def store_is_sound(path: str, acked: set[str]) -> None:
    """After a crash: every chain verifies, no command is half-applied, every acknowledged command is there."""
    store = open_store(path)
    try:
        for gid in store.game_ids():
            rows = store.events(gid)
            assert first_broken_link((msgspec.json.decode(r.body), r.hash) for r in rows)[0] is None, gid
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            by_command = {}
            for r in rows:
                by_command.setdefault(r.command_id, []).append(r.seq)
            commands = {x.command_id: x for x in store.commands(gid)}
            assert set(by_command) == set(commands), gid  # no event without its command, no command without events
            for cid, x in commands.items():
                assert by_command[cid] == list(range(x.first_seq, x.last_seq + 1)), (gid, cid)
        stored = {r[0] for r in store._query("SELECT command_id FROM commands")}
        assert acked <= stored, acked - stored
    finally:
        store.close()


@contextmanager
def _database(kind: str, tmp_path):
    if kind == "sqlite":
        yield str(tmp_path / "crash.db")
    else:
        with postgres_url() as url:
            yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_kill_9_under_load_loses_nothing_acknowledged(tmp_path, kind):
    with _database(kind, tmp_path) as db:
        _crash_rounds(db)


def _crash_rounds(db: str) -> None:
    rng = random.Random(7)
    acked: set[str] = set()
    games: list[tuple[str, str]] = []
    counter = itertools.count()
    for round_ in range(CRASHES):
        with server_process(db) as (base, proc):
            with httpx.Client(base_url=base, timeout=10) as c:
                while len(games) < 4:
                    g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 300}}).json()
                    games.append((g["game_id"], g["seats"][0]["token"]))
            stop = threading.Event()
            lock = threading.Lock()

            def load(gid: str, token: str) -> None:
                with httpx.Client(base_url=base, timeout=5, headers=bearer(token)) as c:
                    while not stop.is_set():
                        try:
                            payload, _ = next_command(c, gid)
                            if payload is None:
                                return
                            cid = f"r{round_}-{next(counter)}"
                            r = c.post(f"/games/{gid}/commands", json={**payload, "command_id": cid})
                            if r.status_code == 200:
                                with lock:
                                    acked.add(cid)
                        except (httpx.HTTPError, ValueError):
                            return  # the server is gone

            threads = [threading.Thread(target=load, args=g) for g in games]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.3, 1.5))
            os.kill(proc.pid, signal.SIGKILL)
            stop.set()
            for t in threads:
                t.join(10)
        store_is_sound(db, acked)
    assert acked


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with server_process(str(tmp_path_factory.mktemp("auth") / "a.db")) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            yield c


def version(c, gid):
    return c.get(f"/games/{gid}").json()["version"]


@pytest.mark.parametrize(
    "ruleset,options,acting,other",
    [
        ("aa1942-convoy", {}, "USSR", "Germany"),
        ("corvette-command", {"two_player": True}, "escort-a", "escort-b"),
    ],
)
def test_every_write_endpoint_refuses_the_wrong_token_and_appends_nothing(server, ruleset, options, acting, other):
    g = server.post("/games", json={"ruleset": ruleset, "options": options}).json()
    gid, tokens, ref = g["game_id"], {s["seat"]: s["token"] for s in g["seats"]}, g["referee_token"]
    payload, _ = next_command(server, gid)
    before = version(server, gid)
    cases = [
        ("commands", payload, {}, 401),
        ("commands", payload, bearer("forged"), 401),
        ("commands", payload, bearer(tokens[other]), 403),
        ("commands", payload, bearer(ref), 403),
        ("seeds", {"passphrase": "x"}, {}, 401),
        ("seeds", {"passphrase": "x"}, bearer("forged"), 401),
        ("seeds", {"passphrase": "x"}, bearer(ref), 403),
        ("reveal", None, {}, 401),
        ("reveal", None, bearer(tokens[acting]), 403),
        ("reveal", None, bearer("forged"), 401),
    ]
    for path, body, headers, status in cases:
        r = server.post(f"/games/{gid}/{path}", json=body, headers=headers)
        assert r.status_code == status, (path, headers, r.text)
        assert r.headers["content-type"].startswith("application/problem+json") and r.json()["code"]
        assert version(server, gid) == before, (path, headers)
    assert server.post(f"/games/{gid}/commands", json=payload, headers=bearer(tokens[acting])).status_code == 200
