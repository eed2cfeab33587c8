"""Clients for P14–P16 (issue 19, D6): slow clients trickling a byte every few seconds, idle SSE subscribers, and a
stream timed from a command's sending to its events' arrival. Raw asyncio sockets on loopback, so one process can
hold a thousand of them."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import time

ID = re.compile(rb"(?m)^id: (\d+)$")


async def get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str) -> tuple[int, bytes]:
    """One GET on a keep-alive connection: (status, body)."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    return await response(reader)


async def post(reader, writer, path: str, body: dict, token: str) -> tuple[int, bytes]:
    raw = json.dumps(body).encode()
    writer.write(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n"
        ).encode()
        + raw
    )
    await writer.drain()
    return await response(reader)


async def response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = next(int(x.split(b":")[1]) for x in head.split(b"\r\n") if x.lower().startswith(b"content-length"))
    return status, await reader.readexactly(length)


async def trickler(port: int, every: float, stop: float, out: dict) -> None:
    """A client that sends a request head one byte every `every` seconds and never finishes it; when the server
    closes the connection it counts that and opens another."""
    await asyncio.sleep(random.uniform(0, every))  # spread out, as real clients are
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            out["refused"] += 1
            await asyncio.sleep(every)
            continue
        out["opened"] += 1
        head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
        opened = time.monotonic()
        try:
            for b in head:
                writer.write(bytes([b]))
                await writer.drain()
                try:
                    wait = min(every, max(0.01, stop - time.monotonic()))
                    got = await asyncio.wait_for(reader.read(4096), timeout=wait)
                except TimeoutError:
                    if time.monotonic() >= stop:
                        return
                    continue
                out["closed"] += 1
                out["lived"].append(time.monotonic() - opened)
                if got.startswith(b"HTTP/1.1 408"):
                    out["408"] += 1
                break
        except (OSError, asyncio.IncompleteReadError):
            out["closed"] += 1
            out["lived"].append(time.monotonic() - opened)
        finally:
            writer.close()


async def cheap_reads(port: int, path: str, stop: float, pause: float = 0.02) -> list[float]:
    """Latencies of GET `path` on one keep-alive connection, every `pause` seconds until `stop`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lat = []
    try:
        while time.monotonic() < stop:
            t = time.perf_counter()
            status, _ = await get(reader, writer, path)
            lat.append(time.perf_counter() - t)
            assert status == 200, status
            await asyncio.sleep(pause)
    finally:
        writer.close()
    return lat


async def trickle(port: int, n: int, seconds: float, every: float = 5.0) -> dict:
    out = {"opened": 0, "closed": 0, "408": 0, "refused": 0, "lived": []}
    stop = time.monotonic() + seconds
    await asyncio.gather(*(trickler(port, every, stop, out) for _ in range(n)))
    return out


def slow_clients(port: int, path: str, n: int, seconds: float, every: float = 5.0) -> dict:
    """`n` trickling clients for `seconds` (a process of their own, so their work does not delay the measuring
    client), and the cheap reads of one prompt client meanwhile."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "trickle", str(port), str(n), str(seconds), str(every)],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(min(every + 1, seconds / 4))  # all of them connected and trickling
    lat = asyncio.run(cheap_reads(port, path, time.monotonic() + seconds - min(every + 1, seconds / 4) - 1))
    out = json.loads(proc.communicate(timeout=seconds + 60)[0])
    out["lat"] = lat
    return out


async def open_streams(port: int, paths: list[str]) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """One SSE subscriber per path, each with its response head read: streaming, idle."""

    async def one(path: str):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        return reader, writer

    out = []
    for i in range(0, len(paths), 100):  # a hundred at a time
        out += await asyncio.gather(*(one(p) for p in paths[i : i + 100]))
    return out


async def delivery(
    port_write: int,
    port_read: int,
    game: str,
    token: str,
    commands: list[dict],
    pause: tuple[float, float] = (0.05, 0.15),
) -> dict:
    """For each command: the time from sending it to its acknowledgement, and to the arrival of its last event on a
    stream of the game (opened on `port_read`, maybe another process)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port_write)
    status, body = await get(reader, writer, f"/games/{game}")
    version = json.loads(body)["version"]
    sr, sw = await asyncio.open_connection("127.0.0.1", port_read)
    sw.write(f"GET /games/{game}/events/stream?timeout=3600&after={version} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await sw.drain()
    await sr.readuntil(b"\r\n\r\n")
    seen: dict[int, float] = {}
    waiting: dict[int, asyncio.Future] = {}

    async def read_stream() -> None:
        while True:
            chunk = await sr.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            for m in ID.finditer(chunk):
                seq = int(m.group(1))
                seen[seq] = now
                f = waiting.pop(seq, None)
                if f is not None and not f.done():
                    f.set_result(now)

    task = asyncio.create_task(read_stream())
    await asyncio.sleep(0.5)  # idle, waiting
    acks, delivered = [], []
    for c in commands:
        t = time.perf_counter()
        status, body = await post(reader, writer, f"/games/{game}/commands", c, token)
        acked = time.perf_counter()
        assert status == 200, body
        last = json.loads(body)["version"]
        f = asyncio.get_running_loop().create_future()
        if last in seen:
            f.set_result(seen[last])
        else:
            waiting[last] = f
        arrived = await asyncio.wait_for(f, 30)
        acks.append(acked - t)
        delivered.append(arrived - t)
        await asyncio.sleep(random.uniform(*pause))  # the stream idle again; a random phase against any periodic check
    task.cancel()
    writer.close()
    sw.close()
    return {"ack": acks, "delivered": delivered}


if __name__ == "__main__":
    if sys.argv[1] == "trickle":
        port, n, seconds, every = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
        print(json.dumps(asyncio.run(trickle(port, n, seconds, every))))
