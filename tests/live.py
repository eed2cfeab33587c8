"""The real server on a free loopback port, as its own process."""

from __future__ import annotations

import socket
import time
from contextlib import contextmanager


@contextmanager
def postgres_schema(base: str, prefix: str):
    """A fresh schema on the PostgreSQL server at `base`, as a store URL whose search_path is that schema; dropped
    afterwards. Tests and benchmarks each get their own, so they share one server without meeting."""
    import uuid

    import psycopg

    schema = prefix + uuid.uuid4().hex[:16]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server_process(
    db_path: str | None = None,
    app: str = "service.asgi:app",
    env: dict | None = None,
    workers: int = 1,
    args: tuple[str, ...] = (),
    serve: bool = False,
    stderr=None,
    start_timeout: float = 30,
    server: str | None = None,
):
    """A server as its own process on loopback (by default ours on `db_path`), for load, kill -9 and benchmarks.
    `args` go to the server (or with `serve`, to `umpire serve`, which is then run instead). `server`: uvicorn
    (httptools, uvloop; the default) or granian (its ASGI interface); UMPIRE_TEST_SERVER=granian runs the reliability
    suites on granian. Yields (base URL, process)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    server = server or os.environ.get("UMPIRE_TEST_SERVER", "uvicorn")
    port = free_port()
    if serve:
        argv = [sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    elif server == "granian":
        argv = [
            sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning", "--no-access-log", "--loop", "uvloop", "--workers", str(workers), *args, app,
        ]  # fmt: skip
    else:
        argv = [
            sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port), "--log-level",
            "warning", "--no-access-log", *(["--workers", str(workers)] if workers > 1 else []), *args,
        ]  # fmt: skip
    proc = subprocess.Popen(
        argv,
        env={**os.environ, **({"UMPIRE_DB": db_path} if db_path else {}), **(env or {})},
        cwd=str(Path(__file__).resolve().parent.parent),
        start_new_session=True,  # its own process group: with --workers, the workers go down with it
        stdout=subprocess.DEVNULL if serve else None,
        stderr=stderr,
    )
    deadline = time.monotonic() + start_timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the server process did not start")
            time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        import signal

        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the server and any workers it started
        except ProcessLookupError:
            pass
        proc.wait(10)
