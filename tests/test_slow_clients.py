"""Slow and too many clients (issue 19, D6), over real sockets against a real server process: a request head or
body that trickles in is cut off after its timeout; beyond the connection cap a new connection is refused at once
while the connections already open are served as before. The tests wait for what must happen (a close, an answer)
and check that it is not early, never how soon it comes: benchmarks/run.py P14 measures the head timeout's closes
and a cheap read during slow clients."""

from __future__ import annotations

import socket
import time

import httpx

from tests.live import server_process

WAIT = 60  # seconds a close or an answer is waited for: a wait for it to come, not a measure of how soon it comes
TRICKLE = 0.2  # seconds between a slow client's bytes: each well within the 1 s timeouts below


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


def served(url: str) -> bool:
    """A GET on a new connection answered 200 (not refused, with a 503 or as a reset)."""
    try:
        return httpx.get(url, timeout=WAIT).status_code == 200
    except httpx.TransportError:
        return False


def test_a_trickling_request_head_is_closed_after_the_header_timeout(tmp_path):
    with server_process(str(tmp_path / "s.db"), serve=True, args=("--header-timeout", "1")) as (base, _):
        start = time.monotonic()  # before connecting: the server's timer starts after this
        s = raw(base)
        head = iter(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        # a byte every TRICKLE s, never a whole head, until the server closes the connection: a timer started again
        # by each byte would never close it, so a close at all says the timeout counts from the head's start
        while True:
            assert time.monotonic() - start < WAIT, f"the connection still open {WAIT} s on, its head trickling in"
            try:
                s.sendall(bytes([next(head, ord("a"))]))
            except (BrokenPipeError, ConnectionResetError):
                got = None  # closed, its 408 lost to the reset that our byte after the close brought
                break
            s.settimeout(TRICKLE)
            try:
                got = s.recv(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:
                got = None
            break
        assert time.monotonic() - start >= 0.9  # not before the timeout
        if got is not None:  # the timeout's own answer, naming the 1 s asked for
            assert got.startswith(b"HTTP/1.1 408") and b'"code": "request-timeout"' in got and b"within 1 s" in got, got
        s.close()
        # a connection that sends nothing is closed too, and a prompt request is served
        idle = raw(base)
        assert read_all(idle, WAIT).startswith(b"HTTP/1.1 408")
        assert httpx.get(base + "/").status_code == 200


def test_a_trickling_body_gets_408_after_the_body_timeout(tmp_path):
    with server_process(str(tmp_path / "s.db"), serve=True, args=("--body-timeout", "1")) as (base, _):
        s = raw(base)
        start = time.monotonic()  # before the head is sent: the body's timer starts after this
        # a body longer than the trickle can send within WAIT: it never completes, only the timeout ends the request
        s.sendall(
            b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
        )
        got = b""
        s.settimeout(TRICKLE)
        while True:
            assert time.monotonic() - start < WAIT, f"the request still open {WAIT} s on, its body trickling in"
            try:
                s.sendall(b" ")
                got = s.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                pass  # closed: the 408 may be lost to the reset, bytes of ours still unread at the server
            break
        took = time.monotonic() - start
        if got:  # the 408 arrived
            got += read_all(s, WAIT)  # the head and the body may come in separate segments
            assert got.startswith(b"HTTP/1.1 408"), got
            assert b"application/problem+json" in got and b'"request-timeout"' in got and b"connection: close" in got
        assert took >= 0.9, took  # not before the timeout
        s.close()


def answers(reader, n: int) -> list[bytes]:
    """The status lines of the next `n` answers on a connection (`reader`: its buffered reader), each read whole."""
    out = []
    for _ in range(n):
        out.append(reader.readline())
        length = 0
        while (line := reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        reader.read(length)
    return out


def test_beyond_the_connection_cap_new_connections_are_refused_and_open_ones_are_still_served(tmp_path):
    cap = 20
    # the crowd's idle connections outlive the test: no head timeout frees a place while it runs; nor does a body
    # timeout end the request the open connection holds (below)
    args = ("--max-connections", str(cap), "--header-timeout", "3600", "--body-timeout", "3600")
    create = b'{"ruleset": "aa1942-convoy"}'
    with server_process(str(tmp_path / "s.db"), serve=True, args=args) as (base, _):
        # one connection open before the crowd, answered once (so the server has seen the start-up probe's connection
        # go), and then in a request: a POST whose body is still to come. Idle between requests, uvicorn's keep-alive
        # timeout (5 s) would close it while the crowd gathers; a request in progress arms none.
        mine = raw(base)
        mine.settimeout(WAIT)
        reader = mine.makefile("rb")
        head = f"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(create)}"
        mine.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + head.encode() + b"\r\n\r\n")
        assert answers(reader, 1)[0].startswith(b"HTTP/1.1 200")
        # idle connections up to the cap; the server takes connections in the order they came: all of theirs
        # before any opened after them
        crowd = [raw(base) for _ in range(cap - 1)]

        def refused() -> bool:
            """A new connection while the crowd holds every place: answered 503 (or reset) and closed, not
            served; held for a place it would get nothing within WAIT, and read_all would raise."""
            s = raw(base)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            got = read_all(s, WAIT)
            s.close()
            assert got == b"" or (got.startswith(b"HTTP/1.1 503") and b"too-many-connections" in got), got
            return True

        assert refused()
        # the open connection is served as before, the cap reached: the POST's body, and 20 reads sent with it
        # (pipelined: the connection is never idle between them)
        mine.sendall(create + b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 20)
        got = answers(reader, 21)
        assert got[0].startswith(b"HTTP/1.1 201") and all(g.startswith(b"HTTP/1.1 200") for g in got[1:]), got
        assert refused()  # the cap held all the while
        for x in [mine, *crowd]:
            x.close()
        # room again once the server has seen them go (a wait: it learns of each close in its own time)
        deadline = time.monotonic() + WAIT
        while not served(base + "/"):
            assert time.monotonic() < deadline, f"no new connection served {WAIT} s after the crowd left"
            time.sleep(0.05)


def test_plain_uvicorn_with_workers_takes_the_protocol_and_its_settings(tmp_path):
    """`uvicorn service.asgi:app --workers 2 --http service.server:Protocol`: each worker has the header timeout (from
    UMPIRE_HEADER_TIMEOUT), and a spoofed X-Forwarded-For is not believed (uvicorn's own trust of 127.0.0.1 is off)."""
    env = {"UMPIRE_HEADER_TIMEOUT": "1", "UMPIRE_CREATE_PER_MINUTE": "2"}
    args = ("--http", "service.server:Protocol")
    with server_process(str(tmp_path / "s.db"), env=env, workers=2, args=args) as (base, proc):
        for _ in range(3):  # whichever worker takes it
            start = time.monotonic()  # before connecting: the server's timer starts after this
            got = read_all(raw(base), WAIT)
            assert got.startswith(b"HTTP/1.1 408") and b"within 1 s" in got, got  # the setting's, not the default 10 s
            assert time.monotonic() - start >= 0.9  # not before it
        codes = []
        for i in range(4):
            with httpx.Client(base_url=base, timeout=10) as c:
                r = c.post("/games", json={"ruleset": "aa1942-convoy"}, headers={"X-Forwarded-For": f"198.51.100.{i}"})
                codes.append(r.status_code)
        proc.terminate()
        proc.wait(15)
    assert codes == [201, 201, 429, 429], codes
