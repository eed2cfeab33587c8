"""A real uvicorn server on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager

import uvicorn

from service.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(db_path: str):
    port = free_port()
    config = uvicorn.Config(create_app(db_path), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def server_process(db_path: str):
    """The real server as its own process (uvicorn service.asgi:app), for load and kill -9 tests."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "service.asgi:app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning", "--no-access-log"],
        env={**os.environ, "UMPIRE_DB": db_path}, cwd=str(Path(__file__).resolve().parent.parent),
    )
    deadline = time.monotonic() + 30
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
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
