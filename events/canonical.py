"""Canonical encoding of an event body and the hash chain (spec/EVENTS.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

GENESIS_HASH = bytes(32)


def canonical(body: Mapping[str, Any]) -> bytes:
    """UTF-8 JSON, keys sorted at every level, no whitespace, non-ASCII as itself (spec/EVENTS.md).

    msgspec's sorted encoder gives exactly the bytes of the spec's `json.dumps(body, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)` for every body without a float (tests/test_chain.py checks it),
    several times faster. For floats the two differ (`1e16` here, `1e+16` there); no event type has a float field
    (tests/test_chain.py checks that too), and `first_broken_link` breaks the chain at a body that holds one.
    """
    return msgspec.json.encode(body, order="sorted")


def canonical_reference(body: Mapping[str, Any]) -> bytes:
    """The spec's own definition, for tests and for anyone checking canonical() against it."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chain_hash(previous: bytes, body: Mapping[str, Any]) -> bytes:
    return link(previous, canonical(body))


def link(previous: bytes, encoded: bytes) -> bytes:
    """The chain's next hash from a body already encoded canonically (what the store keeps: encoded once)."""
    return hashlib.sha256(previous + encoded).digest()


_LEAVES = frozenset({str, int, bool, type(None)})


def holds_float(body: Any) -> bool:
    """Whether a decoded body holds a float anywhere (spec/EVENTS.md: "No floats — anywhere in an event")."""
    stack = [body]
    pop, more = stack.pop, stack.extend
    while stack:
        t = type(x := pop())
        if t is dict:  # a decoded body holds dicts and lists: exact types first (an ABC isinstance costs far more)
            more(x.values())
        elif t is list:
            more(x)
        elif t is float:
            return True
        elif t not in _LEAVES and isinstance(x, (Mapping, list, float)):  # another mapping, a subclass: the slow way
            if isinstance(x, float):
                return True
            more(x.values() if isinstance(x, Mapping) else x)
    return False


def first_broken_link(events: Iterable[tuple[Any, Any]]) -> tuple[int | None, str]:
    """Walk (body, hash) pairs from the genesis.

    Returns (the seq of the first event that does not verify, or None; the head recomputed up to it).
    The seq named is the event's place in the chain: an edited, dropped, duplicated or reordered event
    all break the link at the first place whose body or hash is not what the chain demands, and so does a body with
    a float (whose canonical bytes the spec's json.dumps and this encoder write differently).
    """
    prev = GENESIS_HASH
    for expected_seq, (body, stored) in enumerate(events, start=1):
        if not isinstance(body, Mapping) or body.get("seq") != expected_seq or holds_float(body):
            return expected_seq, prev.hex()
        try:
            h = chain_hash(prev, body)
        except (TypeError, ValueError):
            return expected_seq, prev.hex()
        if h.hex() != stored:
            return expected_seq, prev.hex()
        prev = h
    return None, prev.hex()
