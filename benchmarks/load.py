"""The HTTP load generator (P2, P7 and the crash check), run as its own process: N keep-alive HTTP/1.1 connections on
loopback, each sending raid commands to its own game. Bounded in requests and time; prints a JSON summary.

With a command-id prefix every command carries `command_id` = <prefix>-<connection>-<i> and the summary lists the
acknowledged ones (answered 200): the crash check kills the server under this load and looks for them in the store.
A connection whose server went away stops."""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

ZONES = [3, 7, 8, 10, 23, 34, 35, 45, 2, 11, 18, 22, 53, 55, 56, 57, 65, 4]
TIME_LIMIT = 120.0


async def connection(port: int, game: str, token: str, n: int, out: dict, prefix: str, conn: int, start: int) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        out["errors"].append("connect")
        return
    deadline = time.monotonic() + TIME_LIMIT
    try:
        for i in range(start, start + n):  # 99 raids a zone, then the next zone
            if time.monotonic() > deadline:
                break
            command = {"type": "raid", "sz": ZONES[(i // 99) % len(ZONES)]}
            if prefix:
                command["command_id"] = f"{prefix}-{conn}-{i}"
            body = json.dumps(command).encode()
            req = (
                f"POST /games/{game}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            t = time.perf_counter()
            try:
                writer.write(req)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                out["errors"].append("gone")  # the server went away (the crash check kills it)
                return
            out["lat"].append(time.perf_counter() - t)
            out["sizes"].append(length)
            if status != 200:
                out["errors"].append(status)
            elif prefix:
                out["acked"].append(command["command_id"])
    finally:
        writer.close()


async def main(port: int, games: list, per_conn: int, prefix: str = "", start: int = 0) -> dict:
    out: dict = {"lat": [], "errors": [], "sizes": [], "acked": []}
    print("go", file=sys.stderr, flush=True)  # the crash check starts its clock here
    began = time.perf_counter()
    await asyncio.gather(*(connection(port, g, t, per_conn, out, prefix, i, start) for i, (g, t) in enumerate(games)))
    elapsed = time.perf_counter() - began
    lat = sorted(out["lat"]) or [0.0]
    return {
        "rate": len(out["lat"]) / elapsed,
        "p50": statistics.median(lat) * 1000,
        "p99": lat[max(0, int(len(lat) * 0.99) - 1)] * 1000,
        "errors": len([e for e in out["errors"] if e != "gone"]),
        "gone": out["errors"].count("gone"),
        "requests": len(out["lat"]),
        "body_size": int(statistics.median(out["sizes"] or [0])),
        "acked": out["acked"],
    }


def command_line(port: int, games: list, per_conn: int, prefix: str = "", start: int = 0) -> list[str]:
    return [sys.executable, __file__, str(port), json.dumps(games), str(per_conn), prefix, str(start)]


def run_load(port: int, games: list, per_conn: int, start: int = 0) -> dict:
    """Run this module in a separate process and return its summary (`start`: raids already sent to each game)."""
    out = subprocess.run(
        command_line(port, games, per_conn, start=start),
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT + 60,
        check=True,
    )
    return json.loads(out.stdout)


if __name__ == "__main__":
    port, games, per_conn = int(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
    prefix = sys.argv[4] if len(sys.argv) > 4 else ""
    start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    print(json.dumps(asyncio.run(main(port, games, per_conn, prefix, start))))
