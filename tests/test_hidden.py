"""Attacks on hidden information (issue 17): what an attacker tries, scripted, and the answer demanded.

A referee server is worth what players trust it: no response may reveal what the rules keep hidden, nor *depend* on
it. Each test plays the attacker:
- the oracle: a guess at a secret, sent where the server compares it with the stored secret, answers byte for byte
  as a wrong guess does;
- two worlds: two games equal in everything public and different in one secret (the other seat's sealed orders; the
  server seed of a fair game, which decides every card and die still to come) answer every other reader byte for
  byte alike on every read endpoint and view, once commitments, salts and hashes (which differ with the secret by
  design) are masked. The endpoints are taken from the app's own routes, so a new one is covered or the coverage
  test fails; the live stream, which takes its reader from the header or from `?ticket=`, is also opened by each
  reader with a ticket of its own;
- credentials: a wrong invitation, another game's ticket or a rotated token answers as any wrong one does.
Battlefleet's fog subtraction and bracket probe, attacks on what a seat may read, are tests/test_hidden_battlefleet.py.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from domain.dice import faces_for, game_seed
from events.canonical import chain_hash
from events.store import open_store
from service.app import create_app
from service.games import GameService, now_iso
from service.whatif import OddsJobs
from tests import sealed_bid
from tests.conftest import auth, new_game, own_copy, send
from tests.drivers import bot_commands

SERVED = sealed_bid.served_with_sealed_bid()  # every served ruleset and the test-only one, handed to the service


@pytest.fixture
def sqlite_client(tmp_path):
    app = create_app(str(tmp_path / "oracle.db"))
    with TestClient(app) as c:
        yield c
    app.state.service.store.close()


@pytest.fixture
def bid_client(tmp_path):
    app = create_app(str(tmp_path / "bid.db"), rulesets=SERVED)
    try:
        with TestClient(app) as c:
            yield c
    finally:
        app.state.service.store.close()


def verify_raw(client, bundle: dict) -> tuple[int, bytes]:
    r = client.post("/bundles/verify", json=bundle)
    assert r.status_code < 500, r.text
    return r.status_code, r.content


# ---------------------------------------------------------------- 1. the sealed-order oracle of POST /bundles/verify

JAPAN_SECRET = {"type": "start", "ships": [{"ship": "Ikazuchi", "torpedo_depth": "shallow"}]}


def guessed(bundle: dict, i: int, payload: dict) -> dict:
    forged = copy.deepcopy(bundle)
    forged["commands"][i]["payload"] = payload
    return forged


def test_a_guessed_sealed_order_is_refused_alike_whether_right_or_wrong(sqlite_client):
    """Battlefleet 1900, mid-turn: Japan's `start` (its torpedoes' running depth) is sealed. Russia takes the public
    bundle, puts a guess where the commitment stands and asks the server to verify it: the right guess and a wrong one
    must give the same bytes (before the fix the right one replayed, `partial`, and a wrong one `failed`)."""
    client = sqlite_client
    g = new_game(client, ruleset="battlefleet-1900", options={"scenario": "torpedo-attack"})
    send(client, g, "japan", JAPAN_SECRET)
    bundle = client.get(f"/games/{g['game_id']}/bundle").json()
    i = next(n for n, c in enumerate(bundle["commands"]) if c["seat"] == "japan")
    assert set(bundle["commands"][i]["payload"]) == {"sealed"}
    wrong = {"type": "start", "ships": [{"ship": "Ikazuchi", "torpedo_depth": "normal"}]}
    answers = {}
    for name, payload in (("right", JAPAN_SECRET), ("wrong", wrong), ("empty", {"type": "start"})):
        answers[name] = verify_raw(client, guessed(bundle, i, payload))
    assert answers["right"] == answers["wrong"] == answers["empty"]
    status, body = answers["right"]
    assert status == 422 and b'"code":"sealed-content"' in body
    # a commitment that is not the one the log holds is refused the same way
    other = {"sealed": "0" * 64}
    assert verify_raw(client, guessed(bundle, i, other)) == answers["right"]
    # the public bundle itself, the commitment in its place, still verifies as far as a secret seed allows
    status, body = verify_raw(client, bundle)
    assert status == 200 and b'"replay":{"status":"pass"' in body


def test_a_guessed_sealed_bid_tells_nothing_on_any_of_eleven_guesses(bid_client):
    """sealed-bid: North bids 7 in secret; South tries every bid 0-10 in the public bundle's place of North's."""
    g = new_game(bid_client, ruleset="sealed-bid")
    send(bid_client, g, "north", {"type": "bid", "amount": 7})
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    i = next(n for n, c in enumerate(bundle["commands"]) if c["seat"] == "north")
    answers = {verify_raw(bid_client, guessed(bundle, i, {"type": "bid", "amount": a})) for a in range(11)}
    assert len(answers) == 1 and next(iter(answers))[0] == 422


@pytest.mark.parametrize("ruleset", ["corvette-command", "uboat-leader", "aa1942-convoy", "battlefleet-1900"])
def test_a_guessed_next_roll_is_answered_alike_whether_right_or_wrong(sqlite_client, ruleset):
    """A fair game's secret is its server seed: every card and die still to come. The attacker appends to the public
    bundle the next roll as it guesses it (every hash recomputed) and asks the server to verify it: the true faces
    (computed here from the stored seed, as only the server could) and wrong ones get the same answer."""
    client = sqlite_client
    g = new_game(client, ruleset=ruleset)
    svc = client.app.state.service
    bot_commands(svc, g["game_id"], g["tokens"] | {"referee": g["referee_token"]}, 2)
    bundle = client.get(f"/games/{g['game_id']}/bundle").json()
    lock = next(e["body"]["data"] for e in bundle["events"] if e["body"]["type"] == "SeedLocked")
    seed = bytes.fromhex(svc.store.game(g["game_id"]).server_seed)
    k = client.get(f"/games/{g['game_id']}").json()["dice"]["next_roll"]
    truth = faces_for(game_seed(seed, g["game_id"], lock["client_seeds"], lock.get("beacon")), k, [6])
    answers = set()
    for faces in (truth, [truth[0] % 6 + 1]):
        forged = copy.deepcopy(bundle)
        body = {"game": g["game_id"], "seq": len(forged["events"]) + 1, "type": "DiceRolled", "v": 1, "command": "guess",
                "data": {"k": k, "sides": [6], "faces": faces, "purpose": "the next one", "rule": "a guess"}}
        forged["events"].append({"body": body, "hash": chain_hash(bytes.fromhex(forged["head"]), body).hex()})
        forged["head"] = forged["events"][-1]["hash"]
        status, answer = verify_raw(client, forged)
        answers.add((status, masked(answer)))  # the head is the forger's own, so it differs with the faces
    assert len(answers) == 1, answers
    assert b'"replay":{"status":"skipped"' in next(iter(answers))[1]


def test_a_seats_own_copy_is_refused_and_its_public_form_verifies(bid_client):
    """The seat's and the referee's bundles as served until 2026-12-07 show sealed content the public may not read: the
    server takes sealed records as commitments only, so it refuses them (saying what to send) instead of comparing;
    the public bundle of the same game verifies."""
    g = new_game(bid_client, ruleset="sealed-bid")
    send(bid_client, g, "north", {"type": "bid", "amount": 4})
    path = f"/games/{g['game_id']}/bundle"
    for token in (g["tokens"]["north"], g["referee_token"]):
        own = json.dumps(own_copy(bid_client.get, g["game_id"], token)).encode()
        assert b'"amount":4' in own.replace(b" ", b"")
        r = bid_client.post("/bundles/verify", content=own, headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["code"] == "sealed-content", r.text
        assert "GET /games/{id}/bundle" in r.json()["detail"]
    r = bid_client.post("/bundles/verify", json=bid_client.get(path).json())
    assert r.status_code == 200 and r.json()["checks"]["replay"]["status"] == "pass", r.text


# ---------------------------------------------------------------- 4. two worlds

NOW = now_iso()  # one clock for both worlds
HEX = re.compile(rb"[0-9a-f]{64}")


class Randomness:
    """`secrets.token_bytes` made a stream both worlds share (game ids, tokens, command and job ids, the seeds of
    forks and new games), except the server seeds a world is given for its own game."""

    def __init__(self) -> None:
        self.reset("setup")

    def reset(self, label: str, seeds: list[bytes] | None = None) -> None:
        self.label, self.n, self.seeds = label, 0, list(seeds or [])

    def __call__(self, nbytes: int | None = None) -> bytes:
        nbytes = 32 if nbytes is None else nbytes
        if nbytes == 32 and self.seeds:
            return self.seeds.pop(0)
        self.n += 1
        return hashlib.sha256(f"{self.label}:{self.n}".encode()).digest()[:nbytes]


@pytest.fixture
def randomness(monkeypatch):
    r = Randomness()
    monkeypatch.setattr(secrets, "token_bytes", r)
    # the worlds share one fixed clock, so a job would look lost once that instant is two minutes old; whether a job's
    # process died is not what these tests ask
    monkeypatch.setattr(OddsJobs, "LOST_AFTER", 10**9)
    return r


@dataclass
class World:
    """One server (its own SQLite store, the shared clock) holding one game, and the tokens of that game."""

    client: TestClient
    svc: GameService
    game_id: str
    tokens: dict[str, str]  # by seat, and "referee"
    randomness: Randomness

    def token(self, reader: str | None) -> str | None:
        return None if reader is None else self.tokens[reader]


@contextmanager
def world(path, randomness: Randomness, ruleset: str, options: dict, seed: bytes | None = None, **create):
    randomness.reset("setup", [seed] if seed else None)
    svc = GameService(open_store(str(path)), clock=lambda: NOW, rulesets=SERVED)
    app = create_app(str(path), service=svc)
    with TestClient(app) as client:
        r = client.post("/games", json={"ruleset": ruleset, "options": options, "dice": {"mode": "fair"}, **create})
        assert r.status_code == 201, r.text
        made = r.json()
        tokens = {s["seat"]: s["token"] for s in made["seats"]} | {"referee": made["referee_token"]}
        yield World(client, svc, made["game_id"], tokens, randomness)
    svc.store.close()


TICKET_FIELD = re.compile(rb'"ticket":"[^"]*"')
TICKET = re.compile(rb"ticket=[A-Za-z0-9._~%-]+")


def masked(body: bytes) -> bytes:
    """A response with what differs between the worlds by design blanked: commitments, salts, hashes and heads (64 hex
    digits each; a salt is public only once its record is revealed), and a stream ticket (signed with the reader's
    token, which each world makes at random)."""
    return TICKET.sub(b"ticket=<ticket>", TICKET_FIELD.sub(b'"ticket":"<ticket>"', HEX.sub(b"<hex>", body)))


def public_log(w: World) -> list[bytes]:
    page = w.client.get(f"/games/{w.game_id}/events?limit=1000").json()
    return [masked(msgspec.json.encode({k: v for k, v in e.items() if k != "hash"})) for e in page["events"]]


OWN_STREAM = "the reader's own stream (ticket)"

# Every operation of the API, and how an attacker asks it about the game: (label, method, path, JSON body or None).
# A reader's token goes with every request. The coverage test below fails when the API gains an operation that is
# not here.
Probe = tuple[str, str, str, Any]


def _other_command_ids(ctx: dict) -> list[str]:
    return [c["command_id"] for c in ctx["bundle"]["commands"] if c["seat"] != ctx["reader"]][-2:]


def _guessed_bundles(ctx: dict) -> list[Probe]:
    """The public bundle as sent, and with every command that shows a commitment replaced by the guess the test
    brings (the first world's secret: right in one world, wrong in the other)."""
    out = [("public bundle", "POST", "/bundles/verify", ctx["bundle"])]
    for seat, guess in ctx["guesses"].items():
        forged = copy.deepcopy(ctx["bundle"])
        for i, payload in guess.items():
            forged["commands"][i]["payload"] = payload
        out.append((f"bundle guessing {seat}'s sealed commands", "POST", "/bundles/verify", forged))
    own = ctx["own_bundle"]
    if own is not None:
        out.append(("the reader's own bundle", "POST", "/bundles/verify", own))
    return out


def _refusals(ctx: dict) -> list[Probe]:
    """Commands the reader may not send now: refusals must say no more than the public state does."""
    g = f"/games/{ctx['game_id']}/commands"
    awaited = {a["type"] for a in ctx["awaiting"] if ctx["reader"] in a["seats"]}
    out = [("no such command", "POST", g, {"type": "no-such"}), ("not an object", "POST", g, [1])]
    out += [(f"{t} not awaited", "POST", g, {"type": t}) for t in ctx["commands"] if t not in awaited]
    out += [(f"{t} with an unknown argument", "POST", g, {"type": t, "bogus": 1}) for t in sorted(awaited)]
    out += [(label, "POST", g, body) for label, body in ctx["bad_commands"]]
    out += [
        (f"reusing command id {cid}", "POST", g, {"type": "no-such", "command_id": cid})
        for cid in _other_command_ids(ctx)
    ]
    out.append(("stale expected_version", "POST", g, {"type": "no-such", "expected_version": 1}))
    return out


def _views(ctx: dict) -> list[Probe]:
    g = f"/games/{ctx['game_id']}/views"
    out = [(f"view {v}", "GET", f"{g}/{v}", None) for v in ctx["views"]]
    out += [(f"view {v} at {at}", "GET", f"{g}/{v}?at={at}", None) for v in ctx["views"] for at in ctx["seqs"]]
    return out + [("no such view", "GET", f"{g}/nope", None)]


def _odds(ctx: dict) -> list[Probe]:
    g = f"/games/{ctx['game_id']}/odds"
    return [(f"odds at {at}", "POST", g, {"at": at, "games": 2, "seed": 5}) for at in ctx["ends"][-1:]] + [
        ("odds mid-command", "POST", g, {"at": 2, "games": 1, "seed": 5})
    ]


PROBES: dict[tuple[str, str], Callable[[dict], list[Probe]]] = {
    ("GET", "/"): lambda ctx: [("root", "GET", "/", None)],
    ("GET", "/rulesets"): lambda ctx: [("rulesets", "GET", "/rulesets", None)],
    ("GET", "/health/live"): lambda ctx: [("live", "GET", "/health/live", None)],
    ("GET", "/health/ready"): lambda ctx: [("ready", "GET", "/health/ready", None)],
    ("GET", "/rulesets/{ruleset_id}"): lambda ctx: [("ruleset", "GET", f"/rulesets/{ctx['ruleset']}", None)],
    ("GET", "/rulesets/{ruleset_id}/seats"): lambda ctx: [("seats", "GET", f"/rulesets/{ctx['ruleset']}/seats", None)],
    ("GET", "/games"): lambda ctx: [("games", "GET", "/games?limit=100", None)],
    ("GET", "/games/{game_id}"): lambda ctx: [("summary", "GET", f"/games/{ctx['game_id']}", None)],
    ("GET", "/games/{game_id}/me"): lambda ctx: [("me", "GET", f"/games/{ctx['game_id']}/me", None)],
    ("GET", "/games/{game_id}/events"): lambda ctx: [
        ("events", "GET", f"/games/{ctx['game_id']}/events?limit=1000", None),
        ("events after 2", "GET", f"/games/{ctx['game_id']}/events?after=2&limit=3", None),
    ],
    ("GET", "/games/{game_id}/since"): lambda ctx: [
        ("since 0", "GET", f"/games/{ctx['game_id']}/since?version=0", None),
        ("since 2", "GET", f"/games/{ctx['game_id']}/since?version=2&limit=3", None),
        ("since beyond", "GET", f"/games/{ctx['game_id']}/since?version=100000", None),
    ],
    # the stream reads as the Authorization header's reader, or as `?ticket=`'s (a browser's EventSource sends no
    # header): each reader with a token opens it both ways, with a ticket its token asked for too (observe)
    ("GET", "/games/{game_id}/events/stream"): lambda ctx: [
        ("stream", "GET", f"/games/{ctx['game_id']}/events/stream?timeout=0", None),
        *[
            (OWN_STREAM, "GET", f"/games/{ctx['game_id']}/events/stream?timeout=0&ticket={ticket}", None)
            for ticket in ctx["tickets"][-1:]
        ],
    ],
    ("GET", "/games/{game_id}/rolls"): lambda ctx: [
        ("rolls", "GET", f"/games/{ctx['game_id']}/rolls?limit=1000", None)
    ],
    ("GET", "/games/{game_id}/rolls/{k}"): lambda ctx: [
        (f"roll {k}", "GET", f"/games/{ctx['game_id']}/rolls/{k}", None) for k in range(ctx["rolls"] + 1)
    ],
    ("GET", "/games/{game_id}/views/{view}"): _views,
    ("GET", "/games/{game_id}/bundle"): lambda ctx: [("bundle", "GET", f"/games/{ctx['game_id']}/bundle", None)],
    ("POST", "/bundles/verify"): _guessed_bundles,
    ("POST", "/games/{game_id}/commands"): _refusals,
    ("POST", "/games/{game_id}/seeds"): lambda ctx: [
        ("seed", "POST", f"/games/{ctx['game_id']}/seeds", {"client_seed": "ab" * 32})
    ],
    # the referee's reveal and end are not asked: they publish the secret (and close the game) by design
    ("POST", "/games/{game_id}/reveal"): lambda ctx: [
        ("reveal", "POST", f"/games/{ctx['game_id']}/reveal", None) for _ in [1] if ctx["reader"] != "referee"
    ],
    # the worlds' games have no clock: every reader's change is refused (403, or 409 no-deadlines), alike in both
    ("POST", "/games/{game_id}/deadlines"): lambda ctx: [
        ("deadlines", "POST", f"/games/{ctx['game_id']}/deadlines", {"paused": True})
    ],
    ("POST", "/games/{game_id}/end"): lambda ctx: [
        ("end", "POST", f"/games/{ctx['game_id']}/end", None) for _ in [1] if ctx["reader"] != "referee"
    ],
    ("POST", "/games/{game_id}/odds"): _odds,
    ("GET", "/jobs/{job_id}"): lambda ctx: [(f"job {j}", "GET", f"/jobs/{j}", None) for j in ctx["jobs"]],
    ("GET", "/jobs/{job_id}/stream"): lambda ctx: [
        (f"job {j} stream", "GET", f"/jobs/{j}/stream", None) for j in ctx["jobs"]
    ],
    ("POST", "/games/{game_id}/forks"): lambda ctx: [
        (f"fork at {at}", "POST", f"/games/{ctx['game_id']}/forks", {"at": at}) for at in [*ctx["ends"][-1:], 2, 10**6]
    ],
    ("POST", "/games"): lambda ctx: [
        ("new game", "POST", "/games", {"ruleset": ctx["ruleset"], "dice": {"mode": "fair"}})
    ],
    ("POST", "/games/{game_id}/invitation"): lambda ctx: [
        ("a guessed invitation", "POST", f"/games/{ctx['game_id']}/invitation", {"invitation": "x" * 32})
    ],
    ("POST", "/games/{game_id}/join"): lambda ctx: [
        ("join with a guessed invitation", "POST", f"/games/{ctx['game_id']}/join", {"invitation": "x" * 32})
    ],
    # a ticket is signed with the reader's token (which differs between the worlds by design): masked below
    ("POST", "/games/{game_id}/tickets"): lambda ctx: [
        ("ticket", "POST", f"/games/{ctx['game_id']}/tickets", None)
    ],
    # webhooks: a target is refused (loopback) and none is registered, so nothing random (a secret, a delivery id)
    # enters the answers; the two-worlds test of a delivered payload is tests/test_webhooks.py's
    ("PUT", "/games/{game_id}/notifications"): lambda ctx: [
        ("a loopback webhook", "PUT", f"/games/{ctx['game_id']}/notifications", {"url": "http://127.0.0.1/x"})
    ],
    ("GET", "/games/{game_id}/notifications"): lambda ctx: [
        ("notifications", "GET", f"/games/{ctx['game_id']}/notifications", None)
    ],
    ("DELETE", "/games/{game_id}/notifications"): lambda ctx: [
        ("no notifications to delete", "DELETE", f"/games/{ctx['game_id']}/notifications", None)
    ],
    ("POST", "/games/{game_id}/notifications/confirm"): lambda ctx: [
        ("a code for no address", "POST", f"/games/{ctx['game_id']}/notifications/confirm", {"code": "x"})
    ],
    ("POST", "/games/{game_id}/notifications/test"): lambda ctx: [
        ("a ping to no target", "POST", f"/games/{ctx['game_id']}/notifications/test", None)
    ],
    ("POST", "/games/{game_id}/notifications/secret"): lambda ctx: [
        ("a secret of no target", "POST", f"/games/{ctx['game_id']}/notifications/secret", None)
    ],
    # rotating answers a fresh random token and would void the reader's for the probes after it: asked by the public
    ("POST", "/games/{game_id}/token"): lambda ctx: [
        ("rotate", "POST", f"/games/{ctx['game_id']}/token", None) for _ in [1] if ctx["reader"] is None
    ],
}
# reads first; what creates something (a job, a fork, a game) after, and the jobs it made are read last
ORDER = [op for op in PROBES if op[0] == "GET" and not op[1].startswith("/jobs")] + [
    op for op in PROBES if op[0] in ("POST", "PUT", "DELETE")
] + [op for op in PROBES if op[1].startswith("/jobs")]


def true_guesses(w: World, seat: str, knower: str = "referee") -> dict[str, dict[int, dict]]:
    """What `seat`'s sealed commands still closed really are in world `w` (read with the knower's token: the referee's
    of an umpired game, else the seat's own), by their place in the bundle: the right guess in this world, a wrong one
    in the other."""
    public = w.client.get(f"/games/{w.game_id}/bundle").json()["commands"]
    full = own_copy(w.client.get, w.game_id, w.tokens[knower])["commands"]
    closed = [i for i, c in enumerate(public) if c["seat"] == seat and set(c["payload"]) == {"sealed"}]
    guess = {i: full[i]["payload"] for i in closed}
    assert guess, f"{seat} has no sealed command still closed"
    return {seat: guess}


def observe(w: World, reader: str | None, randomness: Randomness, guesses=None, bad_commands=()) -> list[tuple]:
    """Everything `reader` can get out of the server about the game, every operation of the API asked, in order."""
    randomness.reset(f"probe:{reader}")
    headers = auth(w.token(reader)) if reader else {}
    summary = w.client.get(f"/games/{w.game_id}", headers=headers).json()
    bundle = w.client.get(f"/games/{w.game_id}/bundle").json()
    ruleset = SERVED[summary["ruleset"]["id"]].ruleset
    ctx = {
        "game_id": w.game_id,
        "reader": reader,
        "ruleset": ruleset.id,
        "views": sorted(ruleset.views),
        "commands": ruleset.command_names,
        "awaiting": summary["awaiting"],
        "seqs": range(1, summary["version"] + 1),
        "ends": sorted(c["seqs"][1] for c in bundle["commands"]),
        "rolls": summary["dice"]["next_roll"],
        "bundle": bundle,
        "own_bundle": w.client.get(f"/games/{w.game_id}/bundle", headers=headers).json() if reader else None,
        "guesses": guesses or {},
        "bad_commands": list(bad_commands),
        "jobs": [],
        "tickets": [],
    }
    if reader is not None:  # what a browser does to open its own stream: a ticket, asked for with the token
        r = w.client.post(f"/games/{w.game_id}/tickets", headers=headers)
        assert r.status_code == 201 and r.json()["reader"] == reader, r.text
        ctx["tickets"].append(r.json()["ticket"])
    seen = []
    for op in ORDER:
        for label, method, path, body in PROBES[op](ctx):
            r = w.client.request(method, path, headers=headers, json=body)
            assert r.status_code < 500, (label, r.text)
            assert op != ("POST", "/games/{game_id}/commands") or r.status_code != 200, f"{label} was accepted"
            if op == ("POST", "/games/{game_id}/odds") and r.status_code == 202:
                ctx["jobs"].append(finished(w, r.json()["job_id"], headers))
            seen.append((op, label, r.status_code, masked(r.content)))
    return seen


def finished(w: World, job_id: str, headers: dict[str, str]) -> str:
    """Waits for the job (read as its asker: a seat's own odds are its alone) to end."""
    for _ in range(600):
        if w.client.get(f"/jobs/{job_id}", headers=headers).json()["status"] != "running":
            return job_id
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in a minute")


def test_every_operation_of_the_api_is_probed(tmp_path):
    """A new endpoint is covered by the two-worlds suite, or this fails."""
    document = create_app(str(tmp_path / "doc.db")).openapi()
    operations = {(m.upper(), p) for p, item in document["paths"].items() for m in item}
    assert operations == set(PROBES)
    # an operation that takes its reader from a query parameter too (the stream's `?ticket=`, for a browser's
    # EventSource, which sends no header) is asked with it as well as without it, as each reader with a token
    ctx = {"game_id": "g", "tickets": ["t1.1.x"]}
    for path, item in document["paths"].items():
        for method, op in item.items():
            if any(q["name"] == "ticket" and q["in"] == "query" for q in op.get("parameters", [])):
                paths = [probe[2] for probe in PROBES[(method.upper(), path)](ctx)]
                assert any("ticket=t1.1.x" in p for p in paths), (method, path, paths)
                assert any("ticket=" not in p for p in paths), (method, path, paths)


def same_to(reader: str | None, a: list[tuple], b: list[tuple]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[:2] == y[:2]
        who, (method, path) = reader or "the public", x[0]
        assert x == y, f"{who} tells the worlds apart by {x[1]!r} ({method} {path}):\n{x[3][:1500]!r}\n{y[3][:1500]!r}"


def twins(a: World, b: World, readers, knower: str | None = None, **probes) -> None:
    """The two worlds look the same to each reader, on every operation; and (so that the probes are seen to reach the
    secret) differently to a reader who may know it."""
    assert public_log(a) == public_log(b), "the worlds must be equal in everything public"
    for reader in readers:
        same_to(reader, observe(a, reader, a.randomness, **probes), observe(b, reader, b.randomness, **probes))
    if knower is not None:
        seen_a, seen_b = observe(a, knower, a.randomness, **probes), observe(b, knower, b.randomness, **probes)
        assert seen_a != seen_b

        def body(seen: list[tuple], label: str) -> bytes:
            (found,) = [x[3] for x in seen if x[1] == label]
            return found

        # the probes of the stream are seen to reach the secret: the knower's own stream, opened with its token in
        # the header and with its ticket, shows its sealed content and tells the worlds apart
        for label in (OWN_STREAM, "stream"):
            for own in (body(seen_a, label), body(seen_b, label)):
                assert b'"sealed":{"content":' in own, own[-1500:]
            assert body(seen_a, label) != body(seen_b, label)


SALVO = {"ship": "Ikazuchi", "target": "Poltava", "guns": [{"mount": "stem"}]}
# Battlefleet positions where Japan has sent a sealed command and Russia has not: (seat, the payload in each world)
# steps, and commands Russia tries meanwhile that the rules refuse
BATTLES = {
    "orders": (
        [
            ("japan", (JAPAN_SECRET, {"type": "start"})),
            ("russia", {"type": "start"}),
            ("japan", (
                {"type": "give_orders", "messages": [{"to_seat": "russia", "text": "Togo: turn to starboard"}]},
                {"type": "give_orders"},
            )),
        ],
        [
            ("orders for no such division", {"type": "give_orders", "divisions": [{"division": "NOPE"}]}),
            ("surrendering a Japanese ship", {"type": "give_orders", "surrender": ["Ikazuchi"]}),
            ("a message to nobody", {"type": "give_orders", "messages": [{"to_seat": "china", "text": "?"}]}),
        ],
    ),
    "move": (
        [
            ("japan", {"type": "start"}),
            ("russia", {"type": "start"}),
            ("japan", {"type": "give_orders"}),
            ("russia", {"type": "give_orders"}),
            ("japan", (
                {"type": "move", "divisions": [{"division": "D1", "distance_mm": 234}]},
                {"type": "move", "divisions": [{"division": "D1", "distance_mm": 180}]},
            )),
        ],
        [("moving a Japanese division", {"type": "move", "divisions": [{"division": "D1", "distance_mm": 200}]})],
    ),
    "fire": (
        [
            ("japan", {"type": "start"}),
            ("russia", {"type": "start"}),
            ("japan", {"type": "give_orders"}),
            ("russia", {"type": "give_orders"}),
            ("japan", {"type": "move", "divisions": [{"division": "D1", "distance_mm": 234}]}),
            ("russia", {"type": "move"}),
            ("japan", (
                {"type": "fire", "salvos": [{**SALVO, "estimate_mm": 777}]},
                {"type": "fire", "salvos": [{**SALVO, "estimate_mm": 555}]},
            )),
        ],
        [
            ("firing from a Japanese ship", {"type": "fire", "salvos": [{**SALVO, "estimate_mm": 500}]}),
            ("firing at a Russian ship", {"type": "fire", "salvos": [
                {"ship": "Poltava", "target": "Poltava", "estimate_mm": 500, "guns": [{"mount": "A"}]}
            ]}),
        ],
    ),
}


@pytest.mark.slow  # every read endpoint and stream of two whole games: `make test`, not `make quick`
@pytest.mark.parametrize("position", list(BATTLES))
def test_two_worlds_differing_in_japans_sealed_command_look_alike_to_russia_and_the_public(
    tmp_path, randomness, position
):
    """Battlefleet 1900 under fog: Japan's sealed command of this step (and, at `orders`, its sealed start: torpedo
    depth) differs between the worlds while Russia's is still to come; Russia and the public get the same bytes from
    every operation, a guess at Japan's sealed commands in the public bundle included (right in the first world, wrong
    in the second). Japan, who knows its own, tells them apart."""
    steps, refused = BATTLES[position]
    seed = bytes(range(32))
    with (
        world(tmp_path / "a.db", randomness, "battlefleet-1900", {"scenario": "torpedo-attack"}, seed) as a,
        world(tmp_path / "b.db", randomness, "battlefleet-1900", {"scenario": "torpedo-attack"}, seed) as b,
    ):
        for i, w in enumerate((a, b)):
            randomness.reset("play")
            for seat, payload in steps:
                sent = payload[i] if isinstance(payload, tuple) else payload
                send(w.client, {"game_id": w.game_id, "tokens": w.tokens}, seat, sent)
        twins(a, b, [None, "russia"], "japan", guesses=true_guesses(a, "japan"), bad_commands=refused)


@pytest.mark.slow  # every read endpoint and stream of two whole games: `make test`, not `make quick`
def test_two_worlds_differing_in_norths_sealed_bid_look_alike_to_south_and_the_public(tmp_path, randomness):
    seed = bytes(range(32))
    with (
        world(tmp_path / "a.db", randomness, "sealed-bid", {}, seed) as a,
        world(tmp_path / "b.db", randomness, "sealed-bid", {}, seed) as b,
    ):
        for w, amount in ((a, 7), (b, 2)):
            randomness.reset("play")
            send(w.client, {"game_id": w.game_id, "tokens": w.tokens}, "north", {"type": "bid", "amount": amount})
        refused = [("a bid out of range", {"type": "bid", "amount": 11})]
        twins(a, b, [None, "south"], "north", guesses=true_guesses(a, "north"), bad_commands=refused)


@pytest.mark.slow  # every read endpoint and stream of two whole games: `make test`, not `make quick`
def test_two_worlds_differing_in_norths_sealed_bid_look_alike_to_an_unumpired_games_referee(tmp_path, randomness):
    """Issue 30 item 8: in a game created `umpired: false` the organiser's referee token reads no seat's sealed
    content early: the worlds where North bid 7 and 2 answer it byte for byte alike on every operation, as they do
    the public and South; North, who knows its bid, tells them apart."""
    seed = bytes(range(32))
    with (
        world(tmp_path / "a.db", randomness, "sealed-bid", {}, seed, umpired=False) as a,
        world(tmp_path / "b.db", randomness, "sealed-bid", {}, seed, umpired=False) as b,
    ):
        for w, amount in ((a, 7), (b, 2)):
            randomness.reset("play")
            send(w.client, {"game_id": w.game_id, "tokens": w.tokens}, "north", {"type": "bid", "amount": amount})
        refused = [("a bid out of range", {"type": "bid", "amount": 11})]
        guesses = true_guesses(a, "north", knower="north")
        twins(a, b, [None, "south", "referee"], "north", guesses=guesses, bad_commands=refused)


def matching_seed(w: World) -> bytes:
    """Another server seed whose dice give every roll the game has made so far: a second world with the same public
    past and another future."""
    rows = [msgspec.json.decode(r.body)["data"] for r in w.svc.store.rolls(w.game_id, limit=1000)]
    events = w.client.get(f"/games/{w.game_id}/events?limit=1000").json()["events"]
    lock = next((e["data"] for e in events if e["type"] == "SeedLocked"), None)
    for i in range(1, 3_000_000):
        seed = hashlib.sha256(b"the other world %d" % i).digest()
        if lock is None:
            return seed
        gs = game_seed(seed, w.game_id, lock["client_seeds"], lock.get("beacon"))
        if all(faces_for(gs, r["k"], r["sides"]) == r["faces"] for r in rows):
            return seed
    raise AssertionError("no seed found: play fewer rolls")


# (ruleset, options, commands the bot plays first): before the search for a second seed grows too long
FUTURES = [
    ("corvette-command", {}, 0),  # its first command rolls five dice of a deck and more: compared at the genesis
    ("uboat-leader", {}, 6),  # three rolls, 990 outcomes
    ("aa1942-convoy", {"rounds": 2}, 13),  # two rolls
    ("battlefleet-1900", {"scenario": "torpedo-attack", "fog": "open"}, 9),  # no roll yet (its salts are masked)
]


@pytest.mark.slow  # every read endpoint and stream of two whole games: `make test`, not `make quick`
@pytest.mark.parametrize(("ruleset", "options", "commands"), FUTURES, ids=[f[0] for f in FUTURES])
def test_two_worlds_differing_in_the_server_seed_look_alike_to_everyone(
    tmp_path, randomness, ruleset, options, commands
):
    """A fair game's server seed decides every die and card still to come (decks are drawn from at the moment of the
    draw). Two worlds with the same past and different seeds look alike to every reader, the referee included, on
    every operation: what-if odds, forks and refusals too."""
    first = hashlib.sha256(b"the first world").digest()
    with world(tmp_path / "a.db", randomness, ruleset, options, first) as a:
        randomness.reset("play")
        bot_commands(a.svc, a.game_id, a.tokens, commands)
        other = matching_seed(a)
        with world(tmp_path / "b.db", randomness, ruleset, options, other) as b:
            randomness.reset("play")
            bot_commands(b.svc, b.game_id, b.tokens, commands)
            seats = [s for s in a.tokens if s != "referee"]
            twins(a, b, [None, *seats, "referee"])
            for n in range(30):  # and the secret is real: the futures part
                for w in (a, b):
                    randomness.reset(f"future:{n}")  # the same command ids in both
                    bot_commands(w.svc, w.game_id, w.tokens, 1)
                if public_log(a) != public_log(b):
                    break
            assert public_log(a) != public_log(b), "the two seeds should give the worlds different futures"


# ---------------------------------------------------------------- credentials: invitations, tickets, rotation

OPEN_BF = {"ruleset": "battlefleet-1900", "options": {"scenario": "torpedo-attack"}, "open_seats": True}


def test_every_read_of_a_game_refuses_another_games_token(sqlite_client):
    """docs/spec/api.md "Per-seat reads": a token of another game is a 401, on every GET of a game the OpenAPI lists,
    public ones included (the roll ledger answered 200 to any token, read or not), alike for a made-up token."""
    client = sqlite_client
    a, b = (new_game(client, ruleset="battlefleet-1900", options={"scenario": "torpedo-attack"}) for _ in range(2))
    send(client, a, "japan", {"type": "start"})
    view = client.get("/rulesets/battlefleet-1900").json()["views"][0]["name"]
    paths = [p for p, ops in client.get("/openapi.json").json()["paths"].items() if "get" in ops]
    reads = [p for p in paths if p.startswith("/games/{game_id}")]
    assert "/games/{game_id}/rolls" in reads and "/games/{game_id}/rolls/{k}" in reads
    fill = {"{game_id}": a["game_id"], "{view}": view, "{k}": "0"}
    for path in reads:
        for k, v in fill.items():
            path = path.replace(k, v)
        query = {"timeout": 0} if path.endswith("/stream") else {"version": 0} if path.endswith("/since") else {}
        own = client.get(path, params=query, headers=auth(a["referee_token"]))
        other = client.get(path, params=query, headers=auth(b["tokens"]["japan"]))
        made_up = client.get(path, params=query, headers=auth("A" * 32))
        assert own.status_code in (200, 404), (path, own.text)  # 404: no notifications registered
        assert other.status_code == made_up.status_code == 401, (path, other.text)
        assert other.content == made_up.content, path


def test_credentials_answer_alike_whatever_the_wrong_one_is_and_a_ticket_opens_only_its_own_game(sqlite_client):
    """The credential endpoints (docs/spec/api.md "Hidden information"): a wrong invitation is refused with the same
    bytes whether it was spent, is another game's, a seat's token or made up; a ticket opens its own game's stream only
    (another game's is refused like a made-up one); a token in the header reads the stream as its ticket does, and
    another game's token there is refused like a made-up one; a rotated token is refused like one never issued."""
    client = sqlite_client
    a, b = (client.post("/games", json=OPEN_BF).json() for _ in range(2))
    ga, gb = a["game_id"], b["game_id"]
    japan = client.post(f"/games/{ga}/join", json={"invitation": a["seats"][0]["invitation"]}).json()
    wrong = {
        "spent": a["seats"][0]["invitation"],
        "another game's": b["seats"][1]["invitation"],
        "a seat's token": japan["token"],
        "made up": "inv-" + "A" * 24,
    }
    answers = {k: client.post(f"/games/{ga}/join", json={"invitation": v}) for k, v in wrong.items()}
    assert len({(r.status_code, r.content) for r in answers.values()}) == 1, {k: r.text for k, r in answers.items()}
    assert answers["spent"].status_code == 403 and answers["spent"].json()["code"] == "invalid-invitation"
    # the invitation of game b still takes its seat there: a refused attempt on a spends nothing
    assert client.post(f"/games/{gb}/join", json={"invitation": b["seats"][1]["invitation"]}).status_code == 201
    assert client.post(f"/games/{ga}/join", json={"invitation": a["seats"][1]["invitation"]}).status_code == 201

    send(client, {"game_id": ga, "tokens": {"japan": japan["token"]}}, "japan", JAPAN_SECRET)
    ticket = client.post(f"/games/{ga}/tickets", headers=auth(japan["token"])).json()["ticket"]
    own = client.get(f"/games/{ga}/events/stream", params={"ticket": ticket, "timeout": 0})
    assert own.status_code == 200 and b'"sealed":{"content":' in own.content
    expires = ticket.split(".")[1]
    elsewhere = client.get(f"/games/{gb}/events/stream", params={"ticket": ticket, "timeout": 0})
    made_up = client.get(f"/games/{gb}/events/stream", params={"ticket": f"t1.{expires}.{'0' * 32}", "timeout": 0})
    assert elsewhere.status_code == made_up.status_code == 401 and elsewhere.content == made_up.content
    header_only = client.get(f"/games/{ga}/events/stream", params={"timeout": 0}, headers=auth(japan["token"]))
    public = client.get(f"/games/{ga}/events/stream", params={"timeout": 0})
    assert header_only.content == own.content and b'"sealed":{"content":' not in public.content
    b_japan = client.post(f"/games/{gb}/join", json={"invitation": b["seats"][0]["invitation"]}).json()["token"]
    other_token = client.get(f"/games/{ga}/events/stream", params={"timeout": 0}, headers=auth(b_japan))
    made_up_token = client.get(f"/games/{ga}/events/stream", params={"timeout": 0}, headers=auth("A" * 32))
    assert other_token.status_code == made_up_token.status_code == 401
    assert other_token.content == made_up_token.content

    rotated = client.post(f"/games/{ga}/token", headers=auth(japan["token"]))
    assert rotated.status_code == 201 and rotated.json()["seat"] == "japan"
    old = client.get(f"/games/{ga}/me", headers=auth(japan["token"]))
    never = client.get(f"/games/{ga}/me", headers=auth("A" * 32))
    assert old.status_code == never.status_code == 401 and old.content == never.content
    again = client.post(f"/games/{ga}/token", headers=auth(japan["token"]))
    never_rotated = client.post(f"/games/{ga}/token", headers=auth("A" * 32))
    assert again.status_code == 401 and again.content == never_rotated.content


def _judged(game, seat: str, command, seed: bytes) -> tuple:
    from domain import engine
    from domain.dice import Dice

    try:
        engine.decide_command(game, seat, command, bytes(32), dice=Dice(seed, game.next_roll))
        return ("accepted",)
    except engine.Rejected as e:
        return (e.code, e.detail, msgspec.json.encode(getattr(e, "legal", None)))


@pytest.mark.parametrize("ruleset", ["aa1942-convoy", "corvette-command", "uboat-leader", "battlefleet-1900"])
def test_whether_and_why_a_command_is_refused_never_depends_on_the_dice(ruleset):
    """The oracle of the server seed (an attacker's review, S1): a refused command appends nothing and spends no roll,
    so it can be sent again and again. Were a rule to refuse after rolling, or by what a roll gave, its refusal (or
    its acceptance) would tell the next roll of a fair game, whose seed is secret. Whether a command is accepted, and
    a refusal's code, reason and `legal`, must be the same whatever the dice: at each position of a bot game, every
    listed choice (some), commands a click-only UI builds, and their numbers nudged, judged under three seeds."""
    import json
    import random

    from domain import engine
    from service.simulate import new_game, without_descriptors
    from tests.clicker import click

    seeds = [hashlib.sha256(f"oracle {i}".encode()).digest() for i in range(3)]
    game = new_game(ruleset, {"convoys": 1} if ruleset == "corvette-command" else {}, seeds[0])
    rng, judged, refused = random.Random(35), 0, 0
    earlier: dict[str, list[dict]] = {}  # what was legal at earlier positions: often refused now, by the rules
    for _ in range(40 if ruleset == "battlefleet-1900" else 80):
        specs = engine.awaiting(game)
        if not specs:
            break
        for spec in specs:
            entry = json.loads(msgspec.json.encode(engine.entry(spec)))
            tries = [dict(c) for c in (entry.get("choices") or [])[:6]] + [click(entry, rng) for _ in range(2)]
            nudged = [{k: v + rng.choice((-9, -1, 1, 9)) if type(v) is int else v for k, v in t.items()} for t in tries]
            stale = earlier.setdefault(spec.type, [])
            tries, stale[:] = tries + nudged + stale[-8:], (stale + tries)[-24:]
            for args in tries:
                try:
                    command = engine.parse_command(game.ruleset, {"type": spec.type, **args})
                except engine.Rejected:
                    continue
                seat = spec.seats[0]
                answers = {_judged(game, seat, command, s) for s in seeds}
                assert len(answers) == 1, (spec.type, args, answers)
                judged += 1
                refused += answers.pop()[0] != "accepted"
        with without_descriptors():
            legal = engine.awaiting(game)
        seat = next(s for spec in legal for s in spec.seats if s != "referee")
        payload = game.ruleset.bot(game.state, [x for x in legal if seat in x.seats], seat)
        for e in engine.decide_command(game, seat, engine.parse_command(game.ruleset, payload), seeds[0]):
            engine.evolve(game, e)
    assert judged > 200 and refused > 10, (judged, refused)  # both kinds of answer were asked about
