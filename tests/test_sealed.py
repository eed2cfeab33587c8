"""Sealed inputs and per-seat reads in the core (spec/EVENTS.md "Sealed inputs", spec/API.md "Per-seat reads"),
exercised with the test-only `sealed-bid` ruleset (tests/sealed_bid.py)."""

from __future__ import annotations

import hashlib
import hmac
import json

import msgspec
import pytest
from fastapi.testclient import TestClient

from events.canonical import canonical_reference, chain_hash, GENESIS_HASH
from service.app import create_app
from service.replay import verify
from tests import sealed_bid
from tests.conftest import auth

SERVED = sealed_bid.served_with_sealed_bid()  # what bundles are verified with offline
SEED_HEX = "ab" * 32


@pytest.fixture
def bid_client(store_url):
    with TestClient(create_app(store_url, rulesets=sealed_bid.served_with_sealed_bid())) as c:
        yield c


def new_bid_game(client, mode="public-seed", rounds=1):
    dice = {"mode": mode, "server_seed": SEED_HEX} if mode == "public-seed" else {"mode": "fair"}
    r = client.post("/games", json={"ruleset": "sealed-bid", "options": {"rounds": rounds}, "dice": dice})
    assert r.status_code == 201, r.text
    g = r.json()
    g["tokens"] = {s["seat"]: s["token"] for s in g["seats"]}
    return g


def bid(client, g, seat, amount):
    r = client.post(f"/games/{g['game_id']}/commands", headers=auth(g["tokens"][seat]), json={"type": "bid", "amount": amount})
    assert r.status_code == 200, r.text
    return r.json()


def public_text(client, g) -> str:
    """Every response a reader without a token gets about the game."""
    gid = g["game_id"]
    parts = [client.get(f"/games/{gid}").text, client.get(f"/games/{gid}/events?limit=1000").text]
    parts += [client.get(f"/games/{gid}/rolls?limit=1000").text, client.get(f"/games/{gid}/bundle").text]
    parts += [client.get(f"/games/{gid}/views/table").text]
    parts += [client.get(f"/games/{gid}/events/stream?timeout=0").text]
    return "\n".join(parts)


def test_commitment_and_salt_follow_the_spec_for_chosen_content(bid_client):
    """EVENTS.md: salt = HMAC-SHA256(server_seed, "umpire1:salt:<game>:<seq>"); commitment = SHA-256(canonical(
    {"content", "salt"})). Recomputed here by hand from the spec's own definitions."""
    g = new_bid_game(bid_client)
    out = bid(bid_client, g, "north", 7)
    sealed = next(e for e in out["events"] if e["type"] == "SubmissionSealed")
    salt = hmac.new(bytes.fromhex(SEED_HEX), f"umpire1:salt:{g['game_id']}:{sealed['seq']}".encode(), "sha256").hexdigest()
    expected = hashlib.sha256(canonical_reference({"content": {"amount": 7}, "salt": salt})).hexdigest()
    assert sealed["data"] == {"seat": "north", "kind": "bid", "commitment": expected}
    assert out["head"] == sealed["hash"]  # the seat holds proof of what it sent


def test_nothing_sealed_shows_publicly_before_the_reveal(bid_client):
    g = new_bid_game(bid_client, mode="fair")
    bid(bid_client, g, "north", 9)
    text = public_text(bid_client, g)
    assert '"amount"' not in text and "my_bids\":{}" in text.replace(" ", "")
    # the seat itself and the referee read it
    mine = bid_client.get(f"/games/{g['game_id']}/views/table", headers=auth(g["tokens"]["north"])).json()
    assert mine["data"]["my_bids"] == {"north": 9}
    theirs = bid_client.get(f"/games/{g['game_id']}/views/table", headers=auth(g["tokens"]["south"])).json()
    assert theirs["data"]["my_bids"] == {}
    ref = bid_client.get(f"/games/{g['game_id']}/views/table", headers=auth(g["referee_token"])).json()
    assert ref["data"]["my_bids"] == {"north": 9}


def test_awaiting_shows_each_seat_its_own_entry_and_everyone_waiting_for(bid_client):
    g = new_bid_game(bid_client)
    gid = g["game_id"]
    public = bid_client.get(f"/games/{gid}").json()
    assert public["awaiting"] == [] and public["waiting_for"] == ["north", "south"]
    north = bid_client.get(f"/games/{gid}", headers=auth(g["tokens"]["north"])).json()
    assert [(a["type"], a["seats"]) for a in north["awaiting"]] == [("bid", ["north"])]
    assert north["awaiting"][0]["labels"][7] == "Bid 7"
    bid(bid_client, g, "north", 1)
    after = bid_client.get(f"/games/{gid}", headers=auth(g["tokens"]["north"])).json()
    assert after["awaiting"] == [] and after["waiting_for"] == ["south"]


def test_reveal_opens_both_bids_and_the_bundle_replays(bid_client):
    g = new_bid_game(bid_client)
    bid(bid_client, g, "north", 3)
    out = bid(bid_client, g, "south", 5)
    types = [e["type"] for e in out["events"]]
    assert types[:2] == ["SubmissionSealed", "SubmissionsRevealed"]
    entries = out["events"][1]["data"]["entries"]
    assert [(x["seat"], x["content"]) for x in entries] == [("north", {"amount": 3}), ("south", {"amount": 5})]
    won = next(e for e in out["events"] if e["type"] == "RoundWon")
    assert won["data"]["winner"] == "south"
    # the prize is sealed to the winner; the last round ends the game, which opens it
    assert any(e["type"] == "SubmissionSealed" and e["data"]["kind"] == "prize" for e in out["events"])
    assert out["events"][-2]["type"] == "SubmissionsRevealed" and out["events"][-1]["type"] == "GameEnded"
    assert bid_client.post(f"/games/{g['game_id']}/reveal", headers=auth(g["referee_token"])).status_code == 200
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    assert bundle["commands"][-2]["payload"] == {"type": "bid", "amount": 5}
    report = verify(json.dumps(bundle).encode(), rulesets=SERVED)
    assert report["checks"]["sealed"]["status"] == "pass" and report["checks"]["sealed"]["revealed"] == 3
    assert report["checks"]["replay"]["status"] == "pass"


def test_bundle_shows_a_sealed_payload_only_to_its_seat_until_revealed(bid_client):
    g = new_bid_game(bid_client, rounds=2)
    out = bid(bid_client, g, "north", 4)
    commitment = next(e for e in out["events"] if e["type"] == "SubmissionSealed")["data"]["commitment"]
    gid = g["game_id"]
    public = bid_client.get(f"/games/{gid}/bundle").json()
    assert public["commands"][-1]["payload"] == {"sealed": commitment}
    south = bid_client.get(f"/games/{gid}/bundle", headers=auth(g["tokens"]["south"])).json()
    assert south["commands"][-1]["payload"] == {"sealed": commitment}
    north = bid_client.get(f"/games/{gid}/bundle", headers=auth(g["tokens"]["north"])).json()
    assert north["commands"][-1]["payload"] == {"type": "bid", "amount": 4}
    # the public bundle verifies its chain and reports the seal still closed; the replay waits for the content
    report = verify(json.dumps(public).encode(), rulesets=SERVED)
    assert report["checks"]["chain"]["status"] == "pass"
    assert report["checks"]["sealed"]["unrevealed"] == [out["events"][-1]["seq"]]
    assert report["checks"]["replay"]["status"] == "skipped"
    # the server holds the content, so its own verify replays the public bundle
    served = bid_client.post("/bundles/verify", json=public).json()
    assert served["checks"]["replay"]["status"] == "pass", served


def _rehash(bundle: dict) -> None:
    """What a dishonest operator could do: rewrite the log and recompute every hash."""
    prev = GENESIS_HASH
    for e in bundle["events"]:
        prev = chain_hash(prev, e["body"])
        e["hash"] = prev.hex()
    bundle["head"] = prev.hex()


def test_an_edited_revealed_order_is_caught_and_named_by_seq(bid_client):
    """Chosen content: north bid 2. Changing the revealed 2 to 10 (and rewriting the whole chain so that it still
    links) breaks the commitment made when north sent it."""
    g = new_bid_game(bid_client)
    first = bid(bid_client, g, "north", 2)
    committed_at = next(e for e in first["events"] if e["type"] == "SubmissionSealed")["seq"]
    bid(bid_client, g, "south", 6)
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    opened = next(e for e in bundle["events"] if e["body"]["type"] == "SubmissionsRevealed")
    entry = next(x for x in opened["body"]["data"]["entries"] if x["seat"] == "north")
    assert entry["content"] == {"amount": 2}
    entry["content"] = {"amount": 10}
    _rehash(bundle)
    report = verify(json.dumps(bundle).encode(), rulesets=SERVED)
    assert report["checks"]["chain"]["status"] == "pass"  # the rewritten chain links...
    sealed = report["checks"]["sealed"]
    assert sealed["status"] == "fail" and sealed["first_bad_seq"] == committed_at  # ...but not to the commitment
    assert report["verdict"] == "failed"


def test_a_finished_game_with_a_commitment_never_revealed_fails(bid_client):
    g = new_bid_game(bid_client)
    bid(bid_client, g, "north", 2)
    bid(bid_client, g, "south", 6)
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    # drop the final reveal of the prize (and rewrite the chain): the game ended with a seal closed
    bundle["events"] = [
        e
        for e in bundle["events"]
        if not (e["body"]["type"] == "SubmissionsRevealed" and e["body"]["data"]["entries"][0]["kind"] == "prize")
    ]
    for i, e in enumerate(bundle["events"], start=1):
        e["body"]["seq"] = i
    _rehash(bundle)
    sealed = verify(json.dumps(bundle).encode(), rulesets=SERVED)["checks"]["sealed"]
    assert sealed["status"] == "fail" and "never revealed" in sealed["detail"]


def test_the_referee_ending_a_game_opens_every_seal(bid_client):
    g = new_bid_game(bid_client, mode="fair", rounds=3)
    bid(bid_client, g, "north", 8)
    r = bid_client.post(f"/games/{g['game_id']}/end", headers=auth(g["referee_token"]))
    assert r.status_code == 200, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types == ["SubmissionsRevealed", "GameEnded"]
    assert r.json()["events"][0]["data"]["entries"][0]["content"] == {"amount": 8}
    # seats may not end games
    g2 = new_bid_game(bid_client)
    assert bid_client.post(f"/games/{g2['game_id']}/end", headers=auth(g2["tokens"]["north"])).status_code == 403


def test_a_token_of_another_game_is_a_401_on_reads(bid_client):
    g1, g2 = new_bid_game(bid_client), new_bid_game(bid_client)
    r = bid_client.get(f"/games/{g1['game_id']}/views/table", headers=auth(g2["tokens"]["north"]))
    assert r.status_code == 401 and r.json()["code"] == "invalid-token"


def test_sealed_content_survives_a_cold_load(bid_client, tmp_path):
    """The content is kept beside the body: a fresh process folding the log has it again."""
    g = new_bid_game(bid_client, rounds=2)
    bid(bid_client, g, "north", 6)
    svc = bid_client.app.state.service
    svc.cache.states.clear()
    mine = bid_client.get(f"/games/{g['game_id']}/views/table", headers=auth(g["tokens"]["north"])).json()
    assert mine["data"]["my_bids"] == {"north": 6}
    out = bid(bid_client, g, "south", 6)  # a tie: the d6 decides, and the reveal carries north's stored bid
    entries = next(e for e in out["events"] if e["type"] == "SubmissionsRevealed")["data"]["entries"]
    assert [x["content"]["amount"] for x in entries] == [6, 6]
    assert msgspec.json.decode(svc.store.events(g["game_id"])[-1].body)  # readable
