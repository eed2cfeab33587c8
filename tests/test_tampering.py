"""Random mutations of a real bundle: `verify` fails every one and names the first bad seq or roll.

`make test` runs 150 of each kind of mutation source; `make soak` (UMPIRE_SOAK=1) runs 1,000.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest

from service.replay import verify

BUNDLE = json.loads((Path(__file__).resolve().parent.parent / "replays" / "aa1942-north-atlantic.3.0.0.json").read_text())
N = 1000 if os.environ.get("UMPIRE_SOAK") else 150


def leaves(node, path=()):
    """Every scalar in the bundle with its path, but `engine` (informational: replay uses this engine)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if path == () and k == "engine":
                continue
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    else:
        yield path, node


LEAVES = list(leaves(BUNDLE))


def flipped(value, rng: random.Random):
    """One character, digit or bit of a value changed."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1])
    if value is None:
        return rng.choice([0, "x", False])
    if value == "":
        return "x"
    i = rng.randrange(len(value))
    c = value[i]
    alphabet = (
        "0123456789abcdef"
        if all(ch in "0123456789abcdef" for ch in value)
        else "abcdefghijklmnopqrstuvwxyz0123456789-_ "
    )
    return value[:i] + rng.choice([a for a in alphabet if a != c]) + value[i + 1 :]


def set_path(b, path, value):
    for p in path[:-1]:
        b = b[p]
    b[path[-1]] = value


def structural(b, rng: random.Random) -> str:
    ev = b["events"]
    kind = rng.choice(["drop", "swap", "duplicate", "face", "client-seed"])
    i = rng.randrange(1, len(ev) - 1)
    if kind == "drop":
        del ev[i]
    elif kind == "swap":
        ev[i], ev[i + 1] = ev[i + 1], ev[i]
    elif kind == "duplicate":
        ev.insert(i, copy.deepcopy(ev[i]))
    elif kind == "face":
        roll = rng.choice([e for e in ev if e["body"]["type"] == "DiceRolled"])
        roll["body"]["data"]["faces"][0] = roll["body"]["data"]["faces"][0] % 6 + 1
    else:
        b["dice"]["client_seeds"][rng.randrange(len(b["dice"]["client_seeds"]))] = "%064x" % rng.getrandbits(256)
    return kind


def named(report) -> bool:
    checks = report["checks"]
    return any(
        c.get("first_bad_seq") is not None or c.get("first_bad_k") is not None
        for c in checks.values()
        if c["status"] == "fail"
    )


@pytest.mark.slow  # every mutation of whole bundles: `make test`, not `make quick`
def test_single_value_mutations_are_all_caught_and_named():
    rng = random.Random(20261129)
    for n in range(N):
        b = copy.deepcopy(BUNDLE)
        path, value = rng.choice(LEAVES)
        set_path(b, path, flipped(value, rng))
        report = verify(b)
        assert report["verdict"] == "failed", (n, path)
        assert named(report) or "format" in report["checks"], (n, path, report["checks"])


@pytest.mark.slow  # every mutation of whole bundles: `make test`, not `make quick`
def test_structural_mutations_are_all_caught_and_named():
    rng = random.Random(1942)
    for n in range(N):
        b = copy.deepcopy(BUNDLE)
        kind = structural(b, rng)
        report = verify(b)
        assert report["verdict"] == "failed" and named(report), (n, kind, report["checks"])


def test_an_event_whose_data_is_not_an_object_fails_its_checks_and_is_never_a_500(tmp_path):
    """A cold review: GameCreated's `data` made a list, the chain recomputed, made POST /bundles/verify answer 500 and
    `umpire verify` print a traceback. Each check reads a body's data as an object or as absent."""
    from fastapi.testclient import TestClient

    from service.app import create_app
    from tests.test_whatif_forged import rechained

    golden = json.loads((Path(__file__).resolve().parent.parent / "replays" / "aa1942-two-sides.4.0.0.json").read_bytes())
    for kind in ("GameCreated", "DiceRolled", "SeedLocked", "IncomeCollected"):
        doc = copy.deepcopy(golden)
        next(e for e in doc["events"] if e["body"]["type"] == kind)["body"]["data"] = [1]
        report = verify(json.dumps(rechained(doc)).encode())
        assert report["verdict"] == "failed", (kind, report)
        with TestClient(create_app(str(tmp_path / f"{kind}.db"))) as client:
            r = client.post("/bundles/verify", json=rechained(doc))
            assert r.status_code == 200 and r.json()["verdict"] == "failed", (kind, r.text)
