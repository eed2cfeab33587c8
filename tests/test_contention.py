"""Issue 19's store and write-path items, over real processes and real connections:

- D1: a legal command without `expected_version` is never refused for losing a race (16 clients, 2 workers, SQLite
  and PostgreSQL); it is judged again until the rules apply or refuse it; so are the referee's `end` and `reveal`
  sent while the clients play;
- D2: when the store's answer is lost around the append (a proxy cuts the connection), the answer is 503
  `outcome-unknown` with the command id, never "nothing appended"; sent again with that id the command is in the
  log exactly once; a terminated backend costs no request (the pool checks connections);
- D7: a command on the event loop never waits for SQLite's write lock: another process holding it stalls only that
  game's writes, while reads of other games answer at once;
- D9: UMPIRE_SQLITE_SYNC chooses SQLite's synchronous setting.
"""

from __future__ import annotations

import socket
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import psycopg
import pytest

from events.store import SQLiteStore, StoreUnavailable
from service.games import Busy, GameService
from tests.conftest import PG_BASE, auth, postgres_url
from tests.live import server_process

CLIENTS = 16
PER_CLIENT = 12


def _first_legal(c: httpx.Client, gid: str) -> dict | None:
    s = c.get(f"/games/{gid}").json()
    legal = [a for a in s["awaiting"] if a["seats"] != ["referee"]]
    if not legal:
        return None
    a = legal[0]
    return {"type": a["type"], **(a["choices"][0] if a["choices"] else {})}


@contextmanager
def _db(kind: str, tmp_path):
    if kind == "sqlite":
        yield str(tmp_path / "c.db")
    else:
        with postgres_url() as url:
            yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_D1_sixteen_clients_two_workers_no_legal_command_is_refused_for_a_race(tmp_path, kind):
    with _db(kind, tmp_path) as db, server_process(db, workers=2) as (base, _):
        # a game the fair dice end (the corvette sunk) before every client has had a command through tests too little
        # contention: another is played, as the referee's test below does
        for _ in range(3):
            answers = _sixteen_clients(base)
            if sum(1 for a in answers if a[0] == 200) >= CLIENTS or (409, "game-over") not in answers:
                break
    assert answers
    # a stale pick may have become illegal by the rules (409 illegal-command), or come after another client's
    # command ended the game (409 game-over: the fair dice can sink the corvette early); a race is never a refusal
    refused = [a for a in answers if a[0] != 200 and a not in {(409, "illegal-command"), (409, "game-over")}]
    assert refused == [], refused
    assert sum(1 for a in answers if a[0] == 200) >= CLIENTS


def _sixteen_clients(base: str) -> list[tuple[int, str | None]]:
    """A new corvette game, and CLIENTS clients each sending up to PER_CLIENT of its first legal commands at once:
    every answer's (status, code)."""
    with httpx.Client(base_url=base, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 200}}).json()
    gid, token = g["game_id"], g["seats"][0]["token"]
    answers, lock = [], threading.Lock()

    def client(n: int) -> None:
        with httpx.Client(base_url=base, timeout=60, headers=auth(token)) as c:
            for i in range(PER_CLIENT):
                payload = _first_legal(c, gid)
                if payload is None:
                    return
                r = c.post(f"/games/{gid}/commands", json={**payload, "command_id": f"k{n}-{i}"})
                with lock:
                    answers.append((r.status_code, r.json().get("code")))

    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(client, range(CLIENTS)))
    return answers


# the rules' refusals of a client's command once the referee has closed the game, or of a stale pick
BY_THE_RULES = {(409, "illegal-command"), (409, "game-over"), (409, "game-revealed")}


@pytest.mark.parametrize("closing", [("end", "reveal"), ("reveal",)], ids=["end-then-reveal", "reveal"])
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_D1_the_referees_end_and_reveal_are_never_refused_for_a_race_with_sixteen_clients(tmp_path, kind, closing):
    """Issue 19 D1 saw a referee's `reveal` lose a race: `end` and `reveal` go through the same write path as a
    command and are judged again until the rules apply or refuse them. Sixteen clients send commands to one game on
    two workers; once they are under way the referee ends and then reveals (or reveals an open game, which closes it
    too): each is applied (a game the dice end first is played again with a new one). Afterwards the game is closed,
    every roll is verified against the revealed seed, and the public bundle verifies."""
    with _db(kind, tmp_path) as db, server_process(db, workers=2) as (base, _):
        # a game the fair dice end before the referee does tests no race with the referee: another is played
        for _ in range(3):
            played = _play_while_the_referee_closes(base, closing)
            if played is None:
                continue
            gid, answers, spans, closed = played
            with httpx.Client(base_url=base, timeout=120) as c:
                events, after = [], 0
                while page := c.get(f"/games/{gid}/events?after={after}&limit=1000").json()["events"]:
                    events += page
                    after = page[-1]["seq"]
                summary = c.get(f"/games/{gid}").json()
                rolls, after = [], -1
                while page := c.get(f"/games/{gid}/rolls?after={after}&limit=100").json()["rolls"]:
                    rolls += page
                    after = page[-1]["k"]
                verified = c.post("/bundles/verify", content=c.get(f"/games/{gid}/bundle").content,
                                  headers={"Content-Type": "application/json"})
            ended = [e["data"]["reason"] for e in events if e["type"] == "GameEnded"]
            if ended and ended[0] in ("ended by the referee", "revealed"):
                break
        else:
            pytest.fail("the dice ended three games before the referee could")
    # the referee's first write met the clients': some client request was in flight while it was
    first_start, first_end = closed[0][2], closed[0][3]
    assert any(s < first_end and e > first_start for s, e in spans), "no client command overlapped the referee's"
    for what, r, _, _ in closed:
        assert r.status_code == 200, (what, r.status_code, r.text)
    assert len(ended) == 1, ended
    refused = [a for a in answers if a[0] != 200 and a not in BY_THE_RULES]
    assert refused == [], refused
    assert sum(1 for a in answers if a[0] == 200) >= CLIENTS
    assert summary["status"] == "revealed" and summary["awaiting"] == []
    assert [e["type"] for e in events][-1] == "ServerSeedRevealed"
    assert rolls and all(r["verification"]["status"] == "verified" for r in rolls), [
        r for r in rolls if r["verification"]["status"] != "verified"
    ][:3]
    assert verified.status_code == 200 and verified.json()["verdict"] == "verified", verified.text[:2000]


def _play_while_the_referee_closes(base: str, closing: tuple[str, ...]):
    """Sixteen clients play one new corvette game until the referee's `closing` writes are answered; the referee
    sends them once the clients have had 16 commands applied. (game id, the clients' answers, their requests' spans,
    the referee's (what, answer, sent, answered)); None when the game was over before the referee sent anything."""
    with httpx.Client(base_url=base, timeout=30) as c:
        g = c.post("/games", json={"ruleset": "corvette-command", "options": {"convoys": 200}}).json()
    gid, token, referee = g["game_id"], g["seats"][0]["token"], g["referee_token"]
    answers, spans, lock = [], [], threading.Lock()
    under_way, over, referee_finished = threading.Event(), threading.Event(), threading.Event()

    def client(n: int) -> None:
        # each client plays until the referee's writes are answered (or the game closes), so that some client
        # request is in flight whenever the referee's is, however the machine schedules the threads
        with httpx.Client(base_url=base, timeout=60, headers=auth(token)) as c:
            for i in range(PER_CLIENT * 40):
                if referee_finished.is_set():
                    return
                sent = time.monotonic()
                payload = _first_legal(c, gid)
                if payload is None:  # the game is closed: nothing is awaited any more
                    over.set()
                    under_way.set()
                    return
                r = c.post(f"/games/{gid}/commands", json={**payload, "command_id": f"k{n}-{i}"})
                with lock:
                    answers.append((r.status_code, r.json().get("code")))
                    spans.append((sent, time.monotonic()))
                    # the referee closes once the clients have had commands applied (stale picks the rules
                    # refuse do not count: under load they can be most of the first answers)
                    if sum(1 for a in answers if a[0] == 200) >= CLIENTS:
                        under_way.set()

    def close() -> list[tuple[str, httpx.Response, float, float]] | None:
        try:
            assert under_way.wait(120), f"the clients never got going: {answers[:40]}"
            if over.is_set():
                return None
            out = []
            with httpx.Client(base_url=base, timeout=60, headers=auth(referee)) as c:
                for what in closing:
                    sent = time.monotonic()
                    out.append((what, c.post(f"/games/{gid}/{what}"), sent, time.monotonic()))
            return out
        finally:
            referee_finished.set()

    with ThreadPoolExecutor(CLIENTS + 1) as pool:
        referee_done = pool.submit(close)
        list(pool.map(client, range(CLIENTS)))
        closed = referee_done.result()
    return None if closed is None else (gid, answers, spans, closed)

# ---- D2: a proxy that cuts the connection to PostgreSQL ---------------------------------------------------------


READY = b"Z\x00\x00\x00\x05"  # PostgreSQL's ReadyForQuery, the last message of every answer (then a status byte)


class CuttingProxy:
    """A TCP proxy to PostgreSQL on loopback. `cut` names when it drops the client's connection: "before" (the
    append's statement never reaches the server), "after" (it is forwarded, the answer is dropped: `answered` is set
    once the whole answer has come, so the statement has run and committed), or None."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.cut: str | None = None
        self.cuts = 0
        self.answered = threading.Event()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.conns += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, to_server: bool) -> None:
        keep, dropped = None, b""
        try:
            while data := src.recv(65536):
                if to_server and self.cut and b"INSERT INTO events" in data:
                    mode, self.cut = self.cut, None
                    self.cuts += 1
                    src.close()  # the client sees its connection lost before any answer
                    if mode == "after":
                        dst.sendall(data)
                        keep = dst  # the server runs the statement and commits; the other pump drops its answer
                    return
                if not to_server and dst.fileno() == -1:  # the client was cut: the answer goes nowhere
                    dropped = (dropped + data)[-6:]
                    if dropped[:5] == READY:
                        self.answered.set()
                        return
                    continue
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    if s is not keep:
                        s.close()
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()
        for s in self.conns:
            try:
                s.close()
            except OSError:
                pass


def _via_proxy(url: str, port: int) -> str:
    return url.replace("127.0.0.1:5432", f"127.0.0.1:{port}", 1)


@pytest.mark.parametrize("cut", ["before", "after"])
def test_D2_a_connection_cut_around_the_append_answers_outcome_unknown_and_the_retry_applies_it_once(cut):
    from events.store.postgres import PostgresStore

    with postgres_url() as url:
        assert "127.0.0.1:5432" in url
        proxy = CuttingProxy(("127.0.0.1", 5432))
        store = PostgresStore(_via_proxy(url, proxy.port))
        try:
            svc = GameService(store)
            g = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
            gid, token = g["game_id"], next(s["token"] for s in g["seats"] if s["seat"] == "USSR")
            proxy.cut = cut
            with pytest.raises(Exception) as e:
                svc.command(gid, token, {"type": "purchase", "spend": 3})
            assert proxy.cuts == 1
            assert getattr(e.value, "code", None) == "outcome-unknown", e.value
            if cut == "after":  # the retry comes once the lost answer has: the statement committed before it
                assert proxy.answered.wait(60), "the server never answered the statement the proxy forwarded"
            assert e.value.status == 503 and "nothing" not in e.value.detail
            cid = e.value.extra["command_id"]
            again = svc.command(gid, token, {"type": "purchase", "spend": 3, "command_id": cid})
            assert again["replayed"] is (cut == "after")  # committed before the cut: its original result
            ids = [x.command_id for x in store.commands(gid)]
            assert ids.count(cid) == 1
        finally:
            store.close()
            proxy.close()


def test_D2_terminated_backends_cost_no_request():
    from events.store.postgres import PostgresStore

    with postgres_url() as url:
        name = f"umpire-d2-{time.monotonic_ns()}"
        store = PostgresStore(f"{url}&application_name={name}")
        try:
            svc = GameService(store)
            g = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
            gid, token = g["game_id"], next(s["token"] for s in g["seats"] if s["seat"] == "USSR")
            with psycopg.connect(PG_BASE, autocommit=True) as admin:
                terminated = admin.execute(
                    "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (name,)
                ).fetchall()
                assert terminated
                pids = [pid for pid, _ in terminated]
                # pg_terminate_backend only signals: each backend tells its client and exits when it gets to it
                deadline = time.monotonic() + 60
                while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone():
                    assert time.monotonic() < deadline, f"backends {pids} still up a minute after termination"
                    time.sleep(0.05)
            svc.cache.states.clear()  # the next read goes to the store too
            assert svc.reads.summary(gid)["version"] >= 1
            assert svc.command(gid, token, {"type": "purchase", "spend": 3})["version"] >= 2
        finally:
            store.close()


def test_D2_an_unreachable_store_answers_503_store_unavailable_nothing_appended(tmp_path):
    class Down(SQLiteStore):
        def append(self, events, command, wait=True, outbox=None):
            raise StoreUnavailable("no connection", written=False)

    svc = GameService(Down(str(tmp_path / "d.db")))
    g = svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)
    token = next(s["token"] for s in g["seats"] if s["seat"] == "USSR")
    with pytest.raises(Busy) as e:
        svc.command(g["game_id"], token, {"type": "purchase", "spend": 3})
    assert e.value.status == 503 and e.value.code == "store-unavailable" and "nothing was appended" in e.value.detail


# ---- D7: never wait for SQLite's write lock on the event loop ------------------------------------------------------


def test_D7_another_process_holding_the_write_lock_stalls_no_read_and_the_command_waits_in_a_thread(tmp_path):
    db, waiting, over = str(tmp_path / "l.db"), tmp_path / "waiting", tmp_path / "over"
    # created when the command pauses for the write lock, and when that pause ends (tests/lock_wait_app.py)
    env = {"UMPIRE_TEST_LOCK_WAIT_MARK": str(waiting), "UMPIRE_TEST_LOCK_OVER_MARK": str(over)}
    with server_process(db, app="tests.lock_wait_app:app", env=env) as (base, _):
        with httpx.Client(base_url=base, timeout=120) as c:
            a = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()
            b = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()
            ta = next(s["token"] for s in a["seats"] if s["seat"] == "USSR")
            c.get(f"/games/{a['game_id']}")  # cached: its commands run inline
            c.get(f"/games/{b['game_id']}")
            holder = sqlite3.connect(db, isolation_level=None, timeout=30)
            holder.execute("BEGIN IMMEDIATE")  # a maintenance script, a second worker, a snapshot
            released, done = threading.Event(), {}

            def send():
                with httpx.Client(base_url=base, timeout=120) as c2:
                    r = c2.post(f"/games/{a['game_id']}/commands", json={"type": "purchase", "spend": 3}, headers=auth(ta))
                done["status"], done["after_release"] = r.status_code, released.is_set()

            sender = threading.Thread(target=send)
            sender.start()
            deadline = time.monotonic() + 60
            while not waiting.exists():
                assert time.monotonic() < deadline, f"the command never waited for the lock: {done}"
                time.sleep(0.01)
            for _ in range(20):  # reads of another game, while the command waits for the lock
                assert c.get(f"/games/{b['game_id']}").status_code == 200
            # the reads were answered while the command's wait was still on: had the loop been the one waiting, it
            # could have answered them only once that wait had ended, which marks `over` first
            answered_while_waiting = not over.exists() and not done
            released.set()
            holder.execute("COMMIT")
            holder.close()
            sender.join(120)
    assert answered_while_waiting, (over.exists(), done)  # the loop never waited for the lock
    # the command waited, in a thread, for the lock's release and was then applied
    assert done == {"status": 200, "after_release": True}, done
    assert over.exists()  # the mark is made: its absence above meant a wait still on


# ---- D9 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("setting, pragma", [("normal", 1), ("full", 2)])
def test_D9_UMPIRE_SQLITE_SYNC_sets_sqlites_synchronous(tmp_path, monkeypatch, setting, pragma):
    from service.settings import Settings

    monkeypatch.setenv("UMPIRE_SQLITE_SYNC", setting)
    settings = Settings.from_env(db=str(tmp_path / "s.db"))
    assert settings.sqlite_sync == setting
    store = SQLiteStore(settings.db, synchronous=settings.sqlite_sync)
    assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == pragma
    store.close()


def test_D9_an_unknown_sync_setting_is_refused_at_start(monkeypatch):
    from service.settings import Settings

    monkeypatch.setenv("UMPIRE_SQLITE_SYNC", "sometimes")
    with pytest.raises(SystemExit, match="normal, full"):
        Settings.from_env()
