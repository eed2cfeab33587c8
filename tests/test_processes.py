"""Many processes, one truth (issue #12): two servers on one database (SQLite file or PostgreSQL), and uvicorn with
several workers. Each case here failed before the cache was checked against the store's head."""

from __future__ import annotations

import os
import signal
import threading

import httpx
import pytest

from events.store import open_store
from service.replay import verify
from tests.conftest import auth, new_game
from tests.live import server_process


@pytest.fixture
def two_servers(store_url):
    with server_process(store_url) as (a, pa), server_process(store_url) as (b, pb):
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            yield ca, cb, pa, store_url


def test_a_read_right_after_a_write_through_the_other_process_is_fresh(two_servers):
    a, b, _, _ = two_servers
    g = new_game(a)
    gid, ussr = g["game_id"], g["tokens"]["USSR"]
    assert b.get(f"/games/{gid}").json()["version"] == 1  # B has it cached now
    out = a.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr)).json()
    for _ in range(20):  # read-your-writes from the other process, every time
        seen = b.get(f"/games/{gid}").json()
        assert (seen["version"], seen["head"]) == (out["version"], out["head"])
        out = (b if _ % 2 else a).post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth(ussr)).json()
        if "version" not in out:
            break


def test_a_command_legal_only_after_the_other_process_wrote_is_accepted(two_servers):
    a, b, _, _ = two_servers
    g = new_game(a)
    gid, ussr = g["game_id"], g["tokens"]["USSR"]
    assert [x["type"] for x in b.get(f"/games/{gid}").json()["awaiting"]] == ["purchase", "end_game"]  # cached
    assert a.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr)).status_code == 200
    r = b.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth(ussr))  # legal only after the purchase
    assert r.status_code == 200, r.text


def test_a_reveal_through_one_process_is_in_the_others_bundle(two_servers):
    a, b, _, _ = two_servers
    g = new_game(a)
    gid = g["game_id"]
    assert a.get(f"/games/{gid}/bundle").json()["dice"]["server_seed"] is None  # A has it cached
    assert b.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"])).status_code == 200
    bundle = a.get(f"/games/{gid}/bundle").json()
    assert bundle["dice"]["server_seed"] is not None
    assert verify(bundle)["verdict"] == "verified"


def test_kill_one_of_two_processes_under_load(two_servers):
    """Clients write through both servers; one is killed with SIGKILL mid-load. Every acknowledged command is in the
    log, the log is gapless and chains, and the survivor keeps serving."""
    a, b, proc_a, url = two_servers
    g = new_game(a)
    gid, ussr = g["game_id"], g["tokens"]["USSR"]
    acked: list[str] = []
    lock = threading.Lock()

    def client(n: int, c: httpx.Client) -> None:
        for i in range(40):
            cid = f"w{n}-{i}"
            try:
                r = c.post(
                    f"/games/{gid}/commands", json={"type": "end_phase", "command_id": cid}, headers=auth(ussr)
                )
            except httpx.HTTPError:
                continue  # the killed server: the command may or may not have landed, but it was never acknowledged
            if r.status_code == 200:
                with lock:
                    acked.append(cid)

    a.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr))
    threads = [threading.Thread(target=client, args=(n, c)) for n, c in enumerate([a, b, a, b])]
    for t in threads:
        t.start()
    threading.Event().wait(0.5)
    os.kill(proc_a.pid, signal.SIGKILL)
    for t in threads:
        t.join(60)
    assert b.get(f"/games/{gid}").status_code == 200
    store = open_store(url)
    try:
        stored = {c.command_id for c in store.commands(gid)}
        assert set(acked) <= stored, set(acked) - stored
        seqs = [e.seq for e in store.events(gid)]
        assert seqs == list(range(1, len(seqs) + 1))
    finally:
        store.close()
    bundle = b.get(f"/games/{gid}/bundle").json()
    assert verify(bundle)["checks"]["chain"]["status"] == "pass"


def test_uvicorn_with_two_workers_reads_its_writes(tmp_path):
    """`uvicorn service.asgi:app --workers 2` on one SQLite file: every read after a write shows it, whichever
    worker answers."""
    with server_process(str(tmp_path / "w.db"), workers=2) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = new_game(c)
            gid, ussr = g["game_id"], g["tokens"]["USSR"]
            out = c.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr)).json()
            for _ in range(30):
                assert c.get(f"/games/{gid}").json()["version"] == out["version"]
                with httpx.Client(base_url=base, timeout=30) as fresh:  # a new connection: maybe the other worker
                    assert fresh.get(f"/games/{gid}").json()["version"] == out["version"]
                out = c.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth(ussr)).json()
                if "version" not in out:
                    break


def test_the_stream_of_one_process_carries_events_written_through_the_other(two_servers):
    a, b, _, _ = two_servers
    g = new_game(a)
    gid, ussr = g["game_id"], g["tokens"]["USSR"]
    got: list[str] = []

    def listen() -> None:
        params = {"after": 1, "timeout": 20, "named": "true"}  # each message named by its event's type
        with b.stream("GET", f"/games/{gid}/events/stream", params=params) as r:
            for line in r.iter_lines():
                if line.startswith("event: "):
                    got.append(line[7:])
                    if "PurchaseMade" in got:
                        return

    t = threading.Thread(target=listen)
    t.start()
    threading.Event().wait(0.5)  # B's stream is open and idle
    assert a.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr)).status_code == 200
    t.join(25)
    assert "PurchaseMade" in got, got


def test_a_token_rotated_or_a_seat_taken_through_one_process_holds_at_once_on_the_other(two_servers):
    """Issue 20: credentials are read from the store on every request; tickets need no key shared by processes."""
    a, b, _, _ = two_servers
    g = a.post("/games", json={"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"},
                               "open_seats": True}).json()
    gid = g["game_id"]
    assert [s["open"] for s in b.get(f"/games/{gid}").json()["seats"]] == [True, True]  # B has the game cached
    japan = a.post(f"/games/{gid}/join", json={"invitation": g["seats"][0]["invitation"]}).json()
    assert [s["open"] for s in b.get(f"/games/{gid}").json()["seats"]] == [False, True]
    assert b.get(f"/games/{gid}/me", headers=auth(japan["token"])).json()["seat"] == "japan"
    again = b.post(f"/games/{gid}/join", json={"invitation": g["seats"][0]["invitation"]})
    assert again.status_code == 403  # spent, whichever process is asked
    ticket = a.post(f"/games/{gid}/tickets", headers=auth(japan["token"])).json()["ticket"]
    assert b.get(f"/games/{gid}/events/stream", params={"ticket": ticket, "timeout": 0}).status_code == 200
    fresh = b.post(f"/games/{gid}/token", headers=auth(japan["token"])).json()["token"]
    assert a.get(f"/games/{gid}/me", headers=auth(japan["token"])).status_code == 401
    assert a.get(f"/games/{gid}/me", headers=auth(fresh)).json()["seat"] == "japan"
    assert a.get(f"/games/{gid}/events/stream", params={"ticket": ticket, "timeout": 0}).status_code == 401
