"""Many clients at one game over real HTTP: a gapless log, a valid chain, conflicts only as 409, nothing lost."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

from service.replay import verify
from tests.live import live_server

THREADS = 16
PER_THREAD = 25


def test_concurrent_commands_at_one_game(tmp_path):
    with live_server(str(tmp_path / "c.db")) as base:
        with httpx.Client(base_url=base, timeout=30) as c:
            g = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()
            gid, tok = g["game_id"], {s["seat"]: s["token"] for s in g["seats"]}
            # USSR's mobilize phase takes any number of place_submarines: a command that is always legal
            c.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers={"Authorization": f"Bearer {tok['USSR']}"})
            for _ in range(3):
                c.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers={"Authorization": f"Bearer {tok['USSR']}"})
        acked: dict[str, int] = {}
        rejected: list[tuple[int, str]] = []
        lock = threading.Lock()

        def worker(n: int) -> None:
            rng = random.Random(n)
            with httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {tok['USSR']}"}) as c:
                for i in range(PER_THREAD):
                    cid = f"t{n}-{i}"
                    body = {"type": "place_submarines", "sz": 1 + (n % 60), "count": 1, "command_id": cid}
                    if rng.random() < 0.3:  # a stale or lucky expected_version
                        body["expected_version"] = c.get(f"/games/{gid}").json()["version"]
                    r = c.post(f"/games/{gid}/commands", json=body)
                    if r.status_code == 200 and rng.random() < 0.2:  # a client retrying after a lost answer
                        again = c.post(f"/games/{gid}/commands", json=body)
                        assert again.status_code == 200 and again.json()["replayed"] is True
                        assert again.json()["events"] == r.json()["events"]
                    with lock:
                        if r.status_code == 200:
                            acked[cid] = r.json()["events"][0]["seq"]
                        else:
                            rejected.append((r.status_code, r.json()["code"]))

        with ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(worker, range(THREADS)))

        with httpx.Client(base_url=base, timeout=30) as c:
            events = []
            after = 0
            while True:
                page = c.get(f"/games/{gid}/events", params={"after": after, "limit": 1000}).json()
                events += page["events"]
                if not page["events"]:
                    break
                after = page["next_after"]
            c.post(f"/games/{gid}/reveal", headers={"Authorization": f"Bearer {g['referee_token']}"})
            bundle = c.get(f"/games/{gid}/bundle").json()

    assert acked, "no command got through"
    assert all(status == 409 and code == "version-conflict" for status, code in rejected), rejected
    assert len(acked) + len(rejected) == THREADS * PER_THREAD
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # gapless
    placed = [e for e in events if e["type"] == "SubmarinesPlaced"]
    by_command = {}
    for e in placed:
        by_command.setdefault(e["body"]["command"], []).append(e["seq"])
    assert {cid: seqs[0] for cid, seqs in by_command.items()} == acked  # every ack'd command exactly once
    assert all(len(seqs) == 1 for seqs in by_command.values())
    report = verify(bundle)
    assert report["verdict"] == "verified", report
