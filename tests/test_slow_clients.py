"""Slow and too many clients (issue 19, D6), over real sockets against a real server process: a request head or
body that trickles in is cut off after its timeout; beyond the connection cap a new connection is refused at once
while the connections already open are served as fast as before."""

from __future__ import annotations

import socket
import time

import httpx

from tests.live import server_process


def raw(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=10)
    return s


def read_all(s: socket.socket, limit: float = 10) -> bytes:
    """What the server sends until it closes the connection (b"" for a reset)."""
    s.settimeout(limit)
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except ConnectionResetError:
        pass
    return out


def test_a_trickling_request_head_is_closed_after_the_header_timeout(tmp_path):
    with server_process(str(tmp_path / "s.db"), serve=True, args=("--header-timeout", "1")) as (base, _):
        s = raw(base)
        start = time.monotonic()
        closed_at = None
        for b in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:  # one byte every 0.2 s: never a whole head
            try:
                s.sendall(bytes([b]))
            except (BrokenPipeError, ConnectionResetError):
                closed_at = time.monotonic()
                break
            s.settimeout(0.2)
            try:
                got = s.recv(65536)
            except TimeoutError:
                continue
            closed_at = time.monotonic()
            assert got.startswith(b"HTTP/1.1 408") and b'"code": "request-timeout"' in got, got
            break
        assert closed_at is not None and 0.9 <= closed_at - start < 2.5, closed_at and closed_at - start
        s.close()
        # a connection that sends nothing is closed too, and a prompt request is served
        idle = raw(base)
        assert read_all(idle, 5).startswith(b"HTTP/1.1 408")
        assert httpx.get(base + "/").status_code == 200


def test_a_trickling_body_gets_408_after_the_body_timeout(tmp_path):
    with server_process(str(tmp_path / "s.db"), serve=True, args=("--body-timeout", "1")) as (base, _):
        s = raw(base)
        s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        start = time.monotonic()
        got = b""
        s.settimeout(0.2)
        while time.monotonic() - start < 5 and not got:
            try:
                s.sendall(b" ")
                got = s.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        took = time.monotonic() - start
        if got:  # the 408 arrived; the close may also come first as a reset, bytes of ours still unread at the server
            got += read_all(s, 5)  # the head and the body may come in separate segments
            assert got.startswith(b"HTTP/1.1 408"), got
            assert b"application/problem+json" in got and b'"request-timeout"' in got and b"connection: close" in got
        assert 0.9 <= took < 4.5, took  # not before the timeout; the upper bound only says it came, on a loaded machine
        s.close()


def test_beyond_the_connection_cap_new_connections_are_refused_and_open_ones_stay_fast(tmp_path):
    cap = 20
    args = ("--max-connections", str(cap), "--header-timeout", "30")
    with server_process(str(tmp_path / "s.db"), serve=True, args=args) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:  # one keep-alive connection, open before the crowd
            gid = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()["game_id"]
            crowd = [raw(base) for _ in range(cap - 1)]  # idle connections up to the cap
            time.sleep(0.3)
            start = time.monotonic()
            s = raw(base)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            got = read_all(s, 5)
            refused = time.monotonic() - start
            assert refused < 1.0, refused
            assert got == b"" or (got.startswith(b"HTTP/1.1 503") and b"too-many-connections" in got), got
            times = []
            for _ in range(20):  # the open connection is served as before
                t = time.monotonic()
                r = c.get(f"/games/{gid}/events", params={"limit": 1})
                times.append(time.monotonic() - t)
                assert r.status_code == 200
            assert max(times) < 0.25, times
            for x in crowd:
                x.close()
            time.sleep(0.3)
            assert httpx.get(base + "/").status_code == 200  # room again


def test_plain_uvicorn_with_workers_takes_the_protocol_and_its_settings(tmp_path):
    """`uvicorn service.asgi:app --workers 2 --http service.server:Protocol`: each worker has the header timeout (from
    UMPIRE_HEADER_TIMEOUT), and a spoofed X-Forwarded-For is not believed (uvicorn's own trust of 127.0.0.1 is off)."""
    env = {"UMPIRE_HEADER_TIMEOUT": "1", "UMPIRE_CREATE_PER_MINUTE": "2"}
    args = ("--http", "service.server:Protocol")
    with server_process(str(tmp_path / "s.db"), env=env, workers=2, args=args) as (base, proc):
        for _ in range(3):  # whichever worker takes it
            start = time.monotonic()
            assert read_all(raw(base), 5).startswith(b"HTTP/1.1 408")
            assert 0.9 <= time.monotonic() - start < 2.5
        codes = []
        for i in range(4):
            with httpx.Client(base_url=base, timeout=10) as c:
                r = c.post("/games", json={"ruleset": "aa1942-convoy"}, headers={"X-Forwarded-For": f"198.51.100.{i}"})
                codes.append(r.status_code)
        proc.terminate()
        proc.wait(15)
    assert codes == [201, 201, 429, 429], codes
