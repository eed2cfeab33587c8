"""The desk (service/desk/) in the fast lane, without a browser: its type check (`tsc --checkJs`, service/desk/
tsconfig.json at 0 errors, and tsconfig.strict.json for the pure modules) and its pure modules' unit tests
(tests/desk/*.test.mjs, node's test runner): the umpire1 dice against tests/dice_vectors.json with both SHA-256
engines, the canonical JSON against events/canonical.py on random values, the checks against `umpire verify` on a
golden bundle and tampered ones, Battlefleet's table geometry, the per-ruleset registry and the lobby's option fields. The Python side makes
the expected values and hands them to node in a file ($DESK_CASES). Without node the tests skip and say what to
install, except under CI=true, where they fail (tests/clients/tools.py)."""

from __future__ import annotations

import copy
import json
import os
import random

import msgspec

from events.canonical import canonical
from service.replay import verify
from service.rulesets import RULESETS
from tests.clients.tools import ROOT, need, node_packages, run
from tests.desk_browser import python_checks
from tests.test_desk_browser import _json_values, _mutations
from tests.test_tampering import BUNDLE

DESK = ROOT / "service" / "desk"
UNITS = ROOT / "tests" / "desk"


def test_the_desk_type_checks():
    tsc = node_packages() / ".bin" / "tsc"
    for config in ("tsconfig.json", "tsconfig.strict.json"):
        out = run([tsc, "-p", DESK / config])
        assert "error" not in out, out


def test_the_desk_serves_the_specs_dice_vectors():
    """The page's own self-check (*Check the desk itself*) runs the copy served beside it."""
    assert (DESK / "dice_vectors.json").read_bytes() == (ROOT / "tests" / "dice_vectors.json").read_bytes()


def _cases() -> dict:
    rng = random.Random(11)
    texts = [json.dumps({"data": _json_values(rng)}, ensure_ascii=rng.random() < 0.5) for _ in range(300)]
    tampered = _mutations(40)
    return {
        "canonical": [[t, canonical(msgspec.json.decode(t.encode())).hex()] for t in texts],
        "refused": ['"\\ud800"', "1e400", "[1,]", "01", "[1] 2", '"a\nb"', "{'a': 1}"],
        # the lobby's option fields (service/desk/js/options.js) are read from these, as GET /rulesets/{id} serves them
        "options_schemas": {i: msgspec.json.schema(r.ruleset.options_type) for i, r in RULESETS.items()},
        "verify": [
            {"what": what, "text": raw.decode(), "python": python_checks(raw, verify(raw))}
            for what, raw in [("golden", json.dumps(BUNDLE, ensure_ascii=False).encode()), *tampered]
        ],
        # the words of the chain check and each failing one, which the desk shows as `umpire verify` says them
        "worded": [
            {
                "what": what,
                "text": json.dumps(b),
                "python": {
                    n: c
                    for n, c in verify(b)["checks"].items()
                    if n == "chain" or (c["status"] == "fail" and n != "replay")
                },
                "says": says,
            }
            for what, b, says in _worded()
        ],
    }


def _flip_last(value: str) -> str:
    return value[:-1] + ("1" if value[-1] == "0" else "0")


def _worded() -> list[tuple[str, dict, str]]:
    """Tampered bundles whose failures name what differs (the header's seed against the log's, a client seed, the
    head), a bundle of one event and one command, and words one of their checks holds."""
    reveal = next(e["body"] for e in BUNDLE["events"] if e["body"]["type"] == "ServerSeedRevealed")
    seed, head = _flip_last(BUNDLE["dice"]["server_seed"]), _flip_last(BUNDLE["head"])
    in_log = copy.deepcopy(BUNDLE)
    in_log["events"][reveal["seq"] - 1]["body"]["data"]["server_seed"] = seed
    lock = next(e["body"] for e in BUNDLE["events"] if e["body"]["type"] == "SeedLocked")
    seats = BUNDLE["events"][0]["body"]["data"]["seats"]
    locked = copy.deepcopy(BUNDLE)
    locked["events"][lock["seq"] - 1]["body"]["data"]["client_seeds"][2] = _flip_last(lock["data"]["client_seeds"][2])
    header = copy.deepcopy(BUNDLE)
    for i in (1, 3, 4):
        header["dice"]["client_seeds"][i] = _flip_last(header["dice"]["client_seeds"][i])
    header["dice"]["beacon"] = "drand-1234"
    unseeded = copy.deepcopy(BUNDLE)  # a forged lock without its client seeds: said as none, never a crash
    del unseeded["events"][lock["seq"] - 1]["body"]["data"]["client_seeds"]
    first = BUNDLE["events"][0]
    one = {**BUNDLE, "events": [first], "commands": BUNDLE["commands"][:1], "head": first["hash"]}
    return [
        ("a lock without its client seeds", unseeded, "SeedLocked client seeds at seq"),
        ("a client seed in SeedLocked", locked, f"the header's client seed of {seats[2]} is not what SeedLocked"),
        ("the header's seeds", header, f"beacon and client seeds of {seats[1]}, {seats[3]} and {seats[4]} are"),
        ("one event", one, "1 event chains to head"),
        ("the header's seed", {**BUNDLE, "dice": {**BUNDLE["dice"], "server_seed": seed}}, f"server_seed {seed}, "),
        ("the log's seed", in_log, f"the log was changed: its event seq {reveal['seq']} does not verify"),
        ("the head", {**BUNDLE, "head": head}, f"head {head}, last event's hash {BUNDLE['head']}"),
    ]


def test_the_desks_pure_modules_pass_their_unit_tests(tmp_path):
    node = need("node", "Node.js 20 or later")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(_cases()))
    tests = sorted(UNITS.glob("*.test.mjs"))
    # the desk's modules are ES modules in .js files with no package.json: node detects them as such
    out = run(
        [node, "--experimental-detect-module", "--test", "--test-reporter=tap", *tests],
        env={**os.environ, "DESK_CASES": str(cases)},
        cwd=ROOT,
    )
    assert "# fail 0" in out and "# pass 0" not in out, out
