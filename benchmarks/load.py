"""The P2 load generator, run as its own process: N keep-alive HTTP/1.1 connections on loopback, each
sending raid commands to its own game. Bounded in requests and time; prints a JSON summary."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

ZONES = [3, 7, 8, 10, 23, 34, 35, 45, 2, 11, 18, 22, 53, 55, 56, 57, 65, 4]
TIME_LIMIT = 120.0


async def connection(port: int, game: str, token: str, n: int, lat: list, errors: list, sizes: list) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    deadline = time.monotonic() + TIME_LIMIT
    try:
        for i in range(n):
            if time.monotonic() > deadline:
                break
            body = json.dumps({"type": "raid", "sz": ZONES[(i // 99) % len(ZONES)]}).encode()
            req = (
                f"POST /games/{game}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            t = time.perf_counter()
            writer.write(req)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next(
                int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
            )
            await reader.readexactly(length)
            lat.append(time.perf_counter() - t)
            sizes.append(length)
            if status != 200:
                errors.append(status)
    finally:
        writer.close()


async def main(port: int, games: list, per_conn: int) -> dict:
    lat, errors, sizes = [], [], []
    start = time.perf_counter()
    await asyncio.gather(*(connection(port, g, t, per_conn, lat, errors, sizes) for g, t in games))
    elapsed = time.perf_counter() - start
    lat.sort()
    return {
        "rate": len(lat) / elapsed,
        "p50": statistics.median(lat) * 1000,
        "p99": lat[int(len(lat) * 0.99) - 1] * 1000,
        "errors": len(errors),
        "requests": len(lat),
        "body_size": int(statistics.median(sizes)),
    }


def run_load(port: int, games: list, per_conn: int) -> dict:
    """Run this module in a separate process and return its summary."""
    out = subprocess.run(
        [sys.executable, __file__, str(port), json.dumps(games), str(per_conn)],
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT + 60,
        check=True,
    )
    return json.loads(out.stdout)


if __name__ == "__main__":
    port, games, per_conn = int(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(asyncio.run(main(port, games, per_conn))))
