"""Live streams wake on a notification, not by polling (issue 19, D6): in one process by the in-process fan-out,
across processes by PostgreSQL LISTEN/NOTIFY, and across SQLite processes by the fallback check. The fallback check
is set to 30 s where a test proves a notification did the waking."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import httpx
import psycopg
import pytest

from events.store import SQLiteStore
from service.games import GameService
from service.notify import Notifier
from tests.conftest import PG_BASE, auth, new_game, postgres_url
from tests.drivers import first_choices
from tests.live import server_process


class Listener:
    """A stream read on a thread: each event's seq and when it arrived."""

    def __init__(self, c: httpx.Client, gid: str, after: int = 0, headers: dict | None = None):
        self.got: list[tuple[int, str, float]] = []
        self.ended = False
        self.idle = threading.Event()  # the first state came: the stream has read the log and waits for a wake-up
        self.t = threading.Thread(target=self._run, args=(c, gid, after, headers or {}), daemon=True)
        self.t.start()

    def _run(self, c, gid, after, headers) -> None:
        try:
            self._read(c, gid, after, headers)
        except (httpx.HTTPError, OSError):  # the test is over and its client closed
            pass

    def _read(self, c, gid, after, headers) -> None:
        params = {"after": after, "timeout": 30}
        with c.stream("GET", f"/games/{gid}/events/stream", params=params, headers=headers) as r:
            seq = None
            for line in r.iter_lines():  # unnamed messages: what each is, is in its data (docs/api.md "The stream")
                if line.startswith("id: "):
                    seq = int(line[4:])
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    if data["message"] == "end":
                        self.ended = True
                        return
                    if data["message"] == "event":
                        self.got.append((seq, data["event"]["type"], time.monotonic()))
                    elif data["message"] == "state":
                        self.idle.set()

    def wait_for(self, seq: int, within: float) -> float:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for s, _, at in self.got:
                if s == seq:
                    return at
            time.sleep(0.005)
        raise AssertionError(f"seq {seq} not delivered within {within} s; got {[s for s, _, _ in self.got]}")

    def wait_idle(self) -> None:
        assert self.idle.wait(60), "the stream never sent its first state"


def test_one_process_wakes_its_streams_at_once(tmp_path):
    env = {"UMPIRE_STREAM_CHECK": "30"}
    with server_process(str(tmp_path / "s.db"), env=env) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = new_game(c)
            listeners = [Listener(c, g["game_id"], after=g["version"]) for _ in range(5)]
            for li in listeners:  # the streams are idle, waiting: what arrives now, a wake-up delivered
                li.wait_idle()
            sent = time.monotonic()
            out = first_choices(c, g, 1)[0][1]
            last = out["version"]
            for li in listeners:
                assert li.wait_for(last, 5) - sent < 1.0
            # every event in order, and a resume by Last-Event-ID carries on from there
            more = [answer for _, answer in first_choices(c, g, 3)]
            for li in listeners:
                li.wait_for(more[-1]["version"], 5)
                seqs = [s for s, _, _ in li.got]
                assert seqs == list(range(g["version"] + 1, more[-1]["version"] + 1)), seqs
            resumed = Listener(c, g["game_id"], headers={"Last-Event-ID": str(last)})
            resumed.wait_for(more[-1]["version"], 5)
            assert [s for s, _, _ in resumed.got] == list(range(last + 1, more[-1]["version"] + 1))


@pytest.fixture
def pg_url():
    with postgres_url() as url:
        yield url


def listening(name: str) -> None:
    """Waits until the server whose connections carry application_name `name` has a LISTEN done."""
    sql = "SELECT 1 FROM pg_stat_activity WHERE application_name = %s AND state = 'idle' AND query LIKE 'LISTEN %%'"
    with psycopg.connect(PG_BASE, autocommit=True) as admin:
        deadline = time.monotonic() + 60
        while not admin.execute(sql, (name,)).fetchone():
            assert time.monotonic() < deadline, f"the server's LISTEN connection ({name}) never came up"
            time.sleep(0.05)


def test_postgres_listen_notify_wakes_the_other_processes_streams(pg_url):
    env = {"UMPIRE_STREAM_CHECK": "30"}  # no fallback check could deliver within the test
    b_name = f"umpire-streams-b-{time.monotonic_ns()}"
    b_url = f"{pg_url}&application_name={b_name}"  # B's connections by name: its LISTEN is seen in pg_stat_activity
    with server_process(pg_url, env=env) as (a, _), server_process(b_url, env=env) as (b, _):
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            g = new_game(ca)
            li = Listener(cb, g["game_id"], after=g["version"])
            li.wait_idle()  # B's stream is idle
            listening(b_name)  # and B's LISTEN connection up
            sent = time.monotonic()
            outs = [answer for _, answer in first_choices(ca, g, 4)]
            assert li.wait_for(outs[0]["version"], 5) - sent < 1.0
            li.wait_for(outs[-1]["version"], 5)
            assert [s for s, _, _ in li.got] == list(range(g["version"] + 1, outs[-1]["version"] + 1))
            r = ca.post(f"/games/{g['game_id']}/end", headers=auth(g["referee_token"]))
            assert r.status_code == 200
            deadline = time.monotonic() + 5
            while not li.ended and time.monotonic() < deadline:
                time.sleep(0.01)
            assert li.ended


def test_a_second_sqlite_process_sees_appends_at_its_fallback_check(tmp_path):
    db = str(tmp_path / "s.db")
    env = {"UMPIRE_STREAM_CHECK": "1"}
    with server_process(db, env=env) as (a, _), server_process(db, env=env) as (b, _):
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            g = new_game(ca)
            li = Listener(cb, g["game_id"], after=g["version"])
            li.wait_idle()  # what arrives now, B's fallback check found
            sent = time.monotonic()
            out = first_choices(ca, g, 1)[0][1]
            assert li.wait_for(out["version"], 5) - sent < 2.5


def test_the_notifier_wakes_a_waiting_subscription_from_another_thread():
    class NoStore:
        def heads(self, games):
            return {}

    n = Notifier(NoStore(), check_every=30)

    async def main() -> tuple[bool, bool, float]:
        sub = n.subscribe("g")
        idle = await sub.wait(0.05)  # nothing appended: a timeout
        t = threading.Timer(0.05, n.appended, args=("g",))
        start = time.monotonic()
        t.start()
        woken = await sub.wait(5)
        took = time.monotonic() - start
        n.appended("g")  # while not waiting: remembered, the next wait returns at once
        again = await sub.wait(5)
        n.unsubscribe(sub)
        return idle, woken and again, took

    idle, woken, took = asyncio.run(main())
    assert idle is False and woken is True and took < 1.0
    assert n.subscribers() == 0


def test_the_app_sends_the_pending_notify_when_it_shuts_down(tmp_path):
    """At shutdown the notifier sends what is still pending before the store's connections close (a benchmark's
    PostgreSQL server once printed 'NOTIFY failed ... pool is already closed' as it stopped): a store that records
    NOTIFYs and has a sender that never gets to run."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    class Recording(SQLiteStore):
        def __init__(self, path):
            super().__init__(path)
            self.notified: list[list[str]] = []

        def notify(self, channel, payloads):
            self.notified.append(list(payloads))

        def listen(self, channel):
            raise OSError("not here")

    svc = GameService(Recording(str(tmp_path / "n.db")))
    svc.notifier._sender = threading.current_thread()  # marks a sender as running: appended() starts none
    with TestClient(create_app(service=svc)) as client:
        made = client.post("/games", json={"ruleset": "aa1942-convoy"}).json()
        gid, ussr = made["game_id"], next(x["token"] for x in made["seats"] if x["seat"] == "USSR")
        r = client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0},
                        headers={"Authorization": f"Bearer {ussr}"})
        assert r.status_code == 200, r.text
        assert svc.store.notified == []  # pending, nobody sent it
    assert [p.split(" ", 1)[1] for batch in svc.store.notified for p in batch] == [gid]


@pytest.mark.parametrize("how", ["umpire serve", "uvicorn --http service.server:Protocol"])
def test_a_server_asked_to_stop_ends_its_open_streams_and_stops(tmp_path, how):
    """docs/operations.md "Stopping": SIGTERM starts a graceful shutdown, which waits for every answer under way; a
    live stream never completes, so one open tab kept the server up until the client left (a trial saw it still up
    38 s on). The streams now end when the shutdown begins; their clients reconnect with Last-Event-ID."""
    serve = how == "umpire serve"
    args = () if serve else ("--http", "service.server:Protocol")
    with server_process(str(tmp_path / "s.db"), serve=serve, args=args) as (base, proc):
        with httpx.Client(base_url=base, timeout=60) as c:
            g = new_game(c)
            opened, ended = threading.Event(), threading.Event()

            def read() -> None:
                try:
                    with c.stream("GET", f"/games/{g['game_id']}/events/stream", params={"timeout": 3600}) as r:
                        for line in r.iter_lines():
                            if line.startswith("data: ") and json.loads(line[6:])["message"] == "state":
                                opened.set()
                    ended.set()  # the server closed the answer, cleanly
                except httpx.HTTPError:
                    pass

            threading.Thread(target=read, daemon=True).start()
            assert opened.wait(20), "the stream sent its state"
            proc.terminate()
            proc.wait(timeout=20)  # uvicorn ends by raising the signal again once shut down: -15, after a clean stop
            assert ended.wait(5), "the stream's answer ended before the server stopped"
