"""Issue 19, item 8 (smaller gaps), over real server processes where they are about processes: the game-creation
rate is counted in the store (two workers share it), X-Forwarded-For is believed only from proxies the operator
names, `umpire serve` waits for an unreachable PostgreSQL with backoff, and the state cache is bounded by bytes."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from events.store import SQLiteStore
from service.games import GameService
from service.settings import Settings
from tests.conftest import PG_BASE, postgres_url
from tests.live import free_port, server_process

ROOT = Path(__file__).resolve().parent.parent


def created(base: str, n: int, headers: dict | None = None) -> list[int]:
    """The statuses of n creations, each on a new connection (so uvicorn's workers share them out)."""
    out = []
    for _ in range(n):
        with httpx.Client(base_url=base, timeout=30) as c:
            out.append(c.post("/games", json={"ruleset": "aa1942-convoy"}, headers=headers or {}).status_code)
    return out


def test_two_workers_share_the_creation_rate_limit(store_url):
    env = {"UMPIRE_CREATE_PER_MINUTE": "10"}
    with server_process(store_url, workers=2, env=env) as (base, proc):
        codes = created(base, 24)
        proc.terminate()  # let uvicorn's supervisor stop its workers
        proc.wait(15)
    assert codes.count(201) == 10 and codes.count(429) == 14, codes
    assert codes[:10] == [201] * 10


def test_x_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path):
    env = {"UMPIRE_CREATE_PER_MINUTE": "5"}
    spoofed = [{"X-Forwarded-For": f"203.0.113.{i}"} for i in range(12)]
    with server_process(str(tmp_path / "a.db"), serve=True, env=env) as (base, _):
        codes = [created(base, 1, h)[0] for h in spoofed]
    assert codes.count(201) == 5, codes  # by default the peer (127.0.0.1) is the client, whatever the header says
    args = ("--trusted-proxy", "127.0.0.1")
    with server_process(str(tmp_path / "b.db"), serve=True, env=env, args=args) as (base, _):
        codes = [created(base, 1, h)[0] for h in spoofed]
        assert codes == [201] * 12, codes  # behind a named proxy each forwarded client has its own count
        more = created(base, 6, {"X-Forwarded-For": "203.0.113.99"})
    assert more.count(201) == 5


def forward(listen: socket.socket, port: int, stop: threading.Event) -> None:
    """A TCP forwarder from `listen` to 127.0.0.1:`port` (PostgreSQL coming up where the server looks for it)."""

    def pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    listen.settimeout(0.2)
    while not stop.is_set():
        try:
            client, _ = listen.accept()
        except TimeoutError:
            continue
        upstream = socket.create_connection(("127.0.0.1", port))
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pipe, args=(a, b), daemon=True).start()


def test_serve_waits_for_postgres_with_backoff_and_says_so(tmp_path):
    with postgres_url() as url:
        pg_port = int(PG_BASE.rsplit(":", 1)[1].split("/")[0])
        port = free_port()
        late = url.replace(f":{pg_port}/", f":{port}/")  # nothing listens there yet
        log = open(tmp_path / "serve.log", "w+")
        stop = threading.Event()

        def come_up() -> None:  # once the server has been refused twice
            deadline = time.monotonic() + 60
            while Path(log.name).read_text().count("retrying in") < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen()
            forward(s, pg_port, stop)
            s.close()

        t = threading.Thread(target=come_up, daemon=True)
        t.start()
        try:
            with server_process(late, serve=True, stderr=log, start_timeout=60) as (base, _):
                assert httpx.get(base + "/games").status_code == 200
        finally:
            stop.set()
        text = Path(log.name).read_text()
        assert "unreachable" in text and "retrying in" in text, text
        assert "answers (after" in text, text


def test_serve_gives_up_on_postgres_after_the_start_wait(tmp_path):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/nothing"
    out = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--db", url, "--port", str(free_port())],
        env={"UMPIRE_DB_START_WAIT": "2", "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # a wait, however loaded the machine: it gives up, where the default wait (300 s) would not
    )
    assert out.returncode != 0
    assert "retrying in" in out.stderr and "did not answer within 2 s" in out.stderr, out.stderr


def test_the_cache_is_bounded_by_an_estimate_of_bytes(tmp_path):
    settings = Settings(cache_games=1000, cache_mb=1)
    svc = GameService(SQLiteStore(str(tmp_path / "c.db")), settings=settings)
    ids = [svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"] for _ in range(120)]
    for gid in ids:
        svc.reads.status(gid)
    per_game = svc.cache.estimated_bytes(svc.cache.states[ids[-1]])
    assert len(svc.cache.states) == 2**20 // per_game < 120  # by bytes, long before 1,000 games
    assert list(svc.cache.states)[-1] == ids[-1]  # the least recently used went first
    big = svc.cache.states[ids[-1]]
    big.game.version += 20_000  # a long game: 1.4 MB estimated, over the budget on its own
    svc.cache.states.clear()
    svc.cache.states[ids[-1]] = big
    svc.reads.status(ids[0])  # a load: the long one goes (the one just loaded stays, however large)
    assert list(svc.cache.states) == [ids[0]]


def test_without_a_byte_budget_the_cache_counts_games_only(tmp_path):
    svc = GameService(SQLiteStore(str(tmp_path / "c.db")), settings=Settings(cache_games=5, cache_mb=0))
    for _ in range(8):
        svc.reads.status(svc.creation.create("aa1942-convoy", {}, None, "fair", None, None, None)["game_id"])
    assert len(svc.cache.states) == 5


def _serve(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", *args, "--port", str(free_port())],
        env={"PATH": "/usr/bin:/bin", **env}, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )


def test_serve_stops_at_once_on_a_database_postgres_refuses_and_never_prints_a_password():
    """An operator's trial: a database that does not exist was waited for 300 s as if unreachable, and the banner
    printed the URL's password."""
    out = _serve(["--db", "postgresql://postgres:s3cr3t@127.0.0.1:5432/umpire_no_such_db"], {})
    assert out.returncode != 0
    assert 'database "umpire_no_such_db" does not exist' in out.stderr and "retrying" not in out.stderr, out.stderr
    assert "s3cr3t" not in out.stdout + out.stderr and "postgres:***@" in out.stdout


def test_serve_refuses_mail_settings_it_cannot_use_before_it_says_it_runs():
    for env, says in (
        ({"UMPIRE_SMTP": "smtp://127.0.0.1:notaport", "UMPIRE_MAIL_FROM": "umpire@x.example"}, "UMPIRE_SMTP is"),
        ({"UMPIRE_SMTP": "smtp://127.0.0.1:25"}, "UMPIRE_MAIL_FROM is needed"),
        ({"UMPIRE_SMTP": "smtp://127.0.0.1:25", "UMPIRE_MAIL_FROM": "nobody"}, "UMPIRE_MAIL_FROM='nobody'"),
    ):
        out = _serve(["--db", ":memory:"], env)
        assert out.returncode != 0 and says in out.stderr, out.stderr
        assert "Naval Umpire on" not in out.stdout


def test_a_file_that_is_no_sqlite_database_is_named_not_a_traceback(tmp_path):
    dump = tmp_path / "games.dump"
    dump.write_bytes(b"PGDMP\x01\x0e\x00" + b"\x00" * 64)  # the start of a pg_dump custom-format file
    out = subprocess.run(
        [sys.executable, "-m", "service.cli", "verify", "--db", str(dump)],
        env={"PATH": "/usr/bin:/bin"}, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "is not a SQLite database" in out.stderr and "pg_restore" in out.stderr, out.stderr


def test_metrics_of_several_workers_need_their_directory_made_first(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", "import service.metrics"],
        env={"PATH": "/usr/bin:/bin", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "absent")},
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "PROMETHEUS_MULTIPROC_DIR" in out.stderr and "is not a directory" in out.stderr, out.stderr


def test_a_postgres_role_that_may_not_create_the_tables_is_told_how_to_mend_it():
    """An operator's trial: PostgreSQL 15 lets no role but the owner create tables in `public`; the server died with a
    psycopg traceback."""
    import uuid
    from urllib.parse import urlsplit

    import psycopg

    from events.store import open_store

    name = f"umpire_noperm_{uuid.uuid4().hex[:8]}"
    where = urlsplit(PG_BASE).netloc.rpartition("@")[2]  # host:port
    with psycopg.connect(PG_BASE, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {name} LOGIN")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        with pytest.raises(SystemExit) as stopped:
            open_store(f"postgresql://{name}@{where}/{name}")
        assert "may not create or change the server's tables" in str(stopped.value)
        assert "createdb -O <role> <database>" in str(stopped.value)
    finally:
        with psycopg.connect(PG_BASE, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name}")
            admin.execute(f"DROP ROLE {name}")
