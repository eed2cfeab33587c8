"""Live streams wake on a notification, not by polling (issue 19, D6): in one process by the in-process fan-out,
across processes by PostgreSQL LISTEN/NOTIFY, and across SQLite processes by the fallback check. Where a test proves
a notification did the waking, the fallback check is set to an hour (NO_CHECK) and the events are waited for a minute
at most (WAIT): only a notification can deliver them. How soon each path delivers is measured in benchmarks/run.py
(P16), never here."""

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

WAIT = 60  # seconds a delivery is waited for: a wait for it to come, not a measure of how soon it comes
NO_CHECK = "3600"  # UMPIRE_STREAM_CHECK where a notification must do the waking: no fallback check within WAIT


class Listener:
    """A stream read on a thread: each event's seq and type."""

    def __init__(self, c: httpx.Client, gid: str, after: int = 0, headers: dict | None = None):
        self.got: list[tuple[int, str]] = []
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
        params = {"after": after, "timeout": 3600}  # open for longer than any WAIT
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
                        self.got.append((seq, data["event"]["type"]))
                    elif data["message"] == "state":
                        self.idle.set()

    def seqs(self) -> list[int]:
        return [s for s, _ in self.got]

    def wait_for(self, seq: int) -> None:
        deadline = time.monotonic() + WAIT
        while seq not in self.seqs():
            assert time.monotonic() < deadline, f"seq {seq} not delivered within {WAIT} s; got {self.seqs()}"
            time.sleep(0.005)

    def wait_idle(self) -> None:
        assert self.idle.wait(60), "the stream never sent its first state"


def test_one_process_wakes_its_streams_at_once(tmp_path):
    env = {"UMPIRE_STREAM_CHECK": NO_CHECK}  # no fallback check: only the in-process wake-up delivers
    with server_process(str(tmp_path / "s.db"), env=env) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = new_game(c)
            listeners = [Listener(c, g["game_id"], after=g["version"]) for _ in range(5)]
            for li in listeners:  # the streams are idle, waiting: what arrives now, a wake-up delivered
                li.wait_idle()
            out = first_choices(c, g, 1)[0][1]
            last = out["version"]
            for li in listeners:
                li.wait_for(last)
            # every event in order, and a resume by Last-Event-ID carries on from there
            more = [answer for _, answer in first_choices(c, g, 3)]
            for li in listeners:
                li.wait_for(more[-1]["version"])
                assert li.seqs() == list(range(g["version"] + 1, more[-1]["version"] + 1)), li.seqs()
            resumed = Listener(c, g["game_id"], headers={"Last-Event-ID": str(last)})
            resumed.wait_for(more[-1]["version"])
            assert resumed.seqs() == list(range(last + 1, more[-1]["version"] + 1))


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
    env = {"UMPIRE_STREAM_CHECK": NO_CHECK}  # no fallback check could deliver within the test
    b_name = f"umpire-streams-b-{time.monotonic_ns()}"
    b_url = f"{pg_url}&application_name={b_name}"  # B's connections by name: its LISTEN is seen in pg_stat_activity
    with server_process(pg_url, env=env) as (a, _), server_process(b_url, env=env) as (b, _):
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            g = new_game(ca)
            li = Listener(cb, g["game_id"], after=g["version"])
            li.wait_idle()  # B's stream is idle
            listening(b_name)  # and B's LISTEN connection up
            # B's LISTEN connection wakes its streams once as it comes up (something may have been missed before):
            # that could deliver the first command's events, but not also those of commands sent after they came
            first = first_choices(ca, g, 1)[0][1]
            li.wait_for(first["version"])
            outs = [answer for _, answer in first_choices(ca, g, 3)]
            li.wait_for(outs[-1]["version"])
            assert li.seqs() == list(range(g["version"] + 1, outs[-1]["version"] + 1))
            r = ca.post(f"/games/{g['game_id']}/end", headers=auth(g["referee_token"]))
            assert r.status_code == 200
            deadline = time.monotonic() + WAIT
            while not li.ended:
                assert time.monotonic() < deadline, f"no end message within {WAIT} s"
                time.sleep(0.01)


def test_a_second_sqlite_process_sees_appends_at_its_fallback_check(tmp_path):
    """Nothing tells B of A's appends on SQLite: its fallback check is the only way they reach B's stream (how soon,
    about one check's interval, is P16's third row)."""
    db = str(tmp_path / "s.db")
    env = {"UMPIRE_STREAM_CHECK": "1"}
    with server_process(db, env=env) as (a, _), server_process(db, env=env) as (b, _):
        with httpx.Client(base_url=a, timeout=30) as ca, httpx.Client(base_url=b, timeout=30) as cb:
            g = new_game(ca)
            li = Listener(cb, g["game_id"], after=g["version"])
            li.wait_idle()  # what arrives now, B's fallback check found
            out = first_choices(ca, g, 1)[0][1]
            li.wait_for(out["version"])


def test_the_notifier_wakes_a_waiting_subscription_from_another_thread():
    class NoStore:
        def heads(self, games):
            return {}

    n = Notifier(NoStore(), check_every=float(NO_CHECK))  # nothing but `appended` can end a wait within WAIT

    async def main() -> tuple[bool, bool, bool]:
        sub = n.subscribe("g")
        idle = await sub.wait(0.05)  # nothing appended: a timeout
        waiting = asyncio.create_task(sub.wait(WAIT))
        while sub._future is None:  # the wait is under way: the wake-up finds it waiting
            await asyncio.sleep(0)
        threading.Thread(target=n.appended, args=("g",)).start()
        woken = await waiting
        n.appended("g")  # while not waiting: remembered, the next wait returns at once
        again = await sub.wait(WAIT)
        n.unsubscribe(sub)
        return idle, woken, again

    assert asyncio.run(main()) == (False, True, True)
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
