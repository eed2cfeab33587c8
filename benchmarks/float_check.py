"""The cost of the chain check's float test (EVENTS.md: no floats in an event; events/canonical.py `holds_float`),
measured side by side in one process: the chain walk with it and without it, and a whole `verify` of the same bundle.

    .venv/bin/python -m benchmarks.float_check [BUNDLE.json ...]   (default: the largest bundle in replays/)

Wall-clock on a shared machine moves; the ratio of the two walks, taken in the same run, is what to read."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from events import canonical as c
from events.bundle import decode_bundle
from service.replay import verify


def _walk_without_the_float_test(events: list[tuple[dict, str]]) -> int | None:
    prev = c.GENESIS_HASH
    for seq, (body, stored) in enumerate(events, start=1):
        if body.get("seq") != seq:
            return seq
        h = c.chain_hash(prev, body)
        if h.hex() != stored:
            return seq
        prev = h
    return None


def _best(f: Callable[[], object], n: int = 7) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(path: Path) -> str:
    raw = path.read_bytes()
    pairs = [(e.body, e.hash) for e in decode_bundle(raw).events]
    with_test = min(_best(lambda: c.first_broken_link(pairs)) for _ in range(3))
    without = min(_best(lambda: _walk_without_the_float_test(pairs)) for _ in range(3))
    whole = _best(lambda: verify(raw), 2)
    return (
        f"{path.name}: {len(pairs):,} events; chain walk {with_test * 1e3:.1f} ms with the float test, "
        f"{without * 1e3:.1f} ms without ({with_test / without:.2f}x); a whole verify {whole * 1e3:.0f} ms, "
        f"the test {(with_test - without) / whole * 100:.1f}% of it"
    )


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or [max(Path("replays").glob("*.json"), key=lambda p: p.stat().st_size)]
    for p in paths:
        print(measure(p))
