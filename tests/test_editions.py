"""Editions: a game keeps the rules it was made under (DESIGN.md "Editions", docs/operations.md "Upgrades").

- a store written by main before editions existed (tests/fixtures/editions, rebuilt by its build_db.py from commit
  0b09664) is served by today's code: every read, a legal command, end, reveal, and the bundle verifies;
- one table entry makes one command decide differently in two editions (the test-only sealed-bid ruleset);
- a game of an edition this engine does not run still has its raw reads (the stored bytes), end and reveal;
- naming an edition that does not exist, or is not run, is refused with the list; nothing is created.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from domain import engine
from events.canonical import GENESIS_HASH, canonical
from events.store import CommandRow, GameRow, NewEventRow, SQLiteStore
from service.app import create_app
from service.bots import bot_choose
from service.cli import app as cli
from service.credentials import token_hash
from service.games import GameService
from service.replay import verify
from service.rulesets import RULESETS
from tests import sealed_bid
from tests.conftest import auth

OLD = Path(__file__).parent / "fixtures" / "editions"
OLD_DB = OLD / "main-0b09664.db"
OLD_GAMES = json.loads((OLD / "main-0b09664.tokens.json").read_text())


@pytest.fixture
def old_store(tmp_path):
    """A copy of the store main wrote before editions (the fixture itself is never written to)."""
    db = tmp_path / "old.db"
    shutil.copy(OLD_DB, db)
    svc = GameService(SQLiteStore(str(db)))
    with TestClient(create_app(service=svc)) as client:
        yield svc, client


def test_the_old_store_holds_one_open_game_of_each_ruleset_mid_play():
    """Of each ruleset main served when it wrote the store (a fixture: a ruleset added since has no game in it)."""
    held = sorted(g["ruleset"] for g in OLD_GAMES.values())
    assert held == ["aa1942-convoy", "battlefleet-1900", "corvette-command", "uboat-leader"]
    assert set(held) <= RULESETS.keys()


@pytest.mark.parametrize("game_id", sorted(OLD_GAMES))
def test_a_game_made_before_editions_is_read_played_ended_revealed_and_verified(old_store, game_id, tmp_path):
    svc, client = old_store
    made = OLD_GAMES[game_id]
    summary = client.get(f"/games/{game_id}")
    assert summary.status_code == 200, summary.text
    s = summary.json()
    assert s["status"] == "open" and s["ruleset"]["version"] in RULESETS[made["ruleset"]].ruleset.editions.run
    if made["ruleset"] == "battlefleet-1900":  # one seat's sealed order in, the other's owed
        assert len(s["waiting_for"]) == 1
    for name in RULESETS[made["ruleset"]].ruleset.views:
        for token in (None, *made["seats"].values(), made["referee"]):
            r = client.get(f"/games/{game_id}/views/{name}", headers=auth(token) if token else {})
            assert r.status_code == 200, (name, r.text)
    for path in ("events", "rolls", "bundle", "views/" + next(iter(RULESETS[made["ruleset"]].ruleset.views)) + "?at=2"):
        assert client.get(f"/games/{game_id}/{path}").status_code == 200, path
    if client.get(f"/games/{game_id}/rolls").json()["rolls"]:
        assert client.get(f"/games/{game_id}/rolls/0").json()["verification"]["status"] == "pending"
    at = max(c["seqs"][1] for c in client.get(f"/games/{game_id}/bundle").json()["commands"])
    if made["ruleset"] != "battlefleet-1900":  # a fork needs every seal open (fork-sealed); battlefleet's is not
        fork = client.post(f"/games/{game_id}/forks", json={"at": at})
        assert fork.status_code == 201, fork.text
        assert client.get(f"/games/{fork.json()['game_id']}").json()["ruleset"]["version"] == s["ruleset"]["version"]
    seat_token = next(iter(made["seats"].values()))
    assert client.get(f"/games/{game_id}/me", headers=auth(seat_token)).status_code == 200

    # a legal command: the bot's pick for a seat that owes one, from what that seat may read
    loaded = RULESETS[made["ruleset"]]
    game = svc.cache.cached(game_id).game
    seat = next(x for x in game.seats if any(x in a.seats and a.type != "concede" for a in engine.awaiting(game, x)))
    legal = [a for a in engine.awaiting(game, seat) if seat in a.seats]
    payload = bot_choose(loaded.ruleset, game.state, legal, seat)
    sent = client.post(f"/games/{game_id}/commands", json=payload, headers=auth(made["seats"][seat]))
    assert sent.status_code == 200, sent.text

    ref = auth(made["referee"])
    assert client.post(f"/games/{game_id}/end", headers=ref).status_code == 200
    assert client.post(f"/games/{game_id}/reveal", headers=ref).status_code == 200
    bundle = client.get(f"/games/{game_id}/bundle")
    report = verify(bundle.content)
    assert report["verdict"] == "verified", report
    path = tmp_path / "b.json"
    path.write_bytes(bundle.content)
    assert CliRunner().invoke(cli, ["verify", str(path)]).exit_code == 0


# ---- one mechanism: a table entry decides -----------------------------------------------------------


@pytest.fixture
def bids():
    svc = GameService(SQLiteStore(":memory:"), rulesets=sealed_bid.served_with_sealed_bid())
    with TestClient(create_app(service=svc)) as client:
        yield client


def _tie(client: TestClient, edition: str | None) -> list[dict]:
    body = {"ruleset": "sealed-bid", "dice": {"mode": "public-seed", "server_seed": "11" * 32}}
    if edition is not None:
        body["edition"] = edition
    made = client.post("/games", json=body)
    assert made.status_code == 201, made.text
    gid, tokens = made.json()["game_id"], {s["seat"]: s["token"] for s in made.json()["seats"]}
    client.post(f"/games/{gid}/commands", json={"type": "bid", "amount": 4}, headers=auth(tokens["north"]))
    out = client.post(f"/games/{gid}/commands", json={"type": "bid", "amount": 4}, headers=auth(tokens["south"]))
    assert out.status_code == 200, out.text
    assert client.get(f"/games/{gid}").json()["ruleset"]["version"] == (edition or "2.0.0")
    return out.json()["events"]


def test_BID_E2_1_one_table_entry_makes_a_tie_decide_differently_in_each_edition(bids):
    """Edition 1.0.0 breaks a tie with a d6 (BID-2); from 2.0.0 (change BID-E2-1) north takes it without a roll."""
    old = _tie(bids, "1.0.0")
    new = _tie(bids, None)  # a new game gets the newest edition
    assert [e["data"]["purpose"] for e in old if e["type"] == "DiceRolled"] == ["tie-break", "prize"]
    assert [e["data"]["purpose"] for e in new if e["type"] == "DiceRolled"] == ["prize"]
    assert next(e for e in new if e["type"] == "RoundWon")["data"]["winner"] == "north"
    assert sealed_bid.EDITIONS.of("1.0.0").has("BID-E2-1") is False
    assert sealed_bid.EDITIONS.of("2.0.0").has("BID-E2-1") is True
    with pytest.raises(KeyError):  # a change id not in the table is a mistake, not "not in force"
        sealed_bid.EDITIONS.of("2.0.0").has("BID-E9-9")


def test_a_pinned_edition_is_recorded_so_its_bundle_replays_under_it(bids):
    made = bids.post("/games", json={"ruleset": "sealed-bid", "edition": "1.0.0"}).json()
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    for seat in ("north", "south"):
        bids.post(f"/games/{gid}/commands", json={"type": "bid", "amount": 2}, headers=auth(tokens[seat]))
    bids.post(f"/games/{gid}/reveal", headers=auth(made["referee_token"]))
    bundle = bids.get(f"/games/{gid}/bundle").json()
    assert bundle["commands"][0]["payload"]["edition"] == "1.0.0"
    assert verify(msgspec.json.encode(bundle), rulesets=bids.app.state.service.rulesets)["verdict"] == "verified"


@pytest.mark.parametrize("edition", ["0.9.0", "3.0.0", "2", "", "2.0.0 "])
def test_naming_an_edition_that_is_not_run_is_refused_with_the_list_and_creates_nothing(bids, edition):
    before = bids.get("/games").json()["games"]
    r = bids.post("/games", json={"ruleset": "sealed-bid", "edition": edition})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "unknown-edition" and r.json()["editions"] == ["1.0.0", "2.0.0"], r.json()
    assert bids.get("/games").json()["games"] == before


def test_the_rulesets_list_each_edition_with_what_it_changed(bids):
    info = bids.get("/rulesets/sealed-bid").json()
    assert info["version"] == "2.0.0"
    empty = hashlib.sha256(b"").hexdigest()  # sealed-bid has no data set: each edition plays on none
    assert info["editions"] == [
        {"version": "1.0.0", "summary": "ties broken by a d6", "changes": [], "data_sha256": empty, "leaks": []},
        {
            "version": "2.0.0",
            "summary": "a tie goes to north, without a roll (BID-E2-1)",
            "changes": [{"id": "BID-E2-1", "rules": ["BID-2"], "summary": "a tie goes to north without a roll"}],
            "data_sha256": empty,
            "leaks": [],
        },
    ]
    for r in bids.get("/rulesets").json():
        assert [e["version"] for e in r["editions"]][-1] == r["version"]
        assert r["editions"][-1]["data_sha256"] == r["data_sha256"]  # the newest edition's set is what a game gets


# ---- raw reads never need the rules ------------------------------------------------------------------


def _store_bundle(svc: GameService, bundle: dict, server_seed: str, tokens: dict[str, str]) -> None:
    """Write a bundle's log into the store as the release that made it would have: what another engine version (an
    older, never-released one, or a newer one sharing the database) leaves for this one."""
    created = bundle["events"][0]["body"]["data"]
    row = GameRow(
        id=bundle["game"],
        ruleset=bundle["ruleset"]["id"],
        ruleset_version=bundle["ruleset"]["version"],
        data_sha256=bundle["ruleset"]["data_sha256"],
        mode=bundle["dice"]["mode"],
        server_seed=server_seed,
        server_commit=created["dice"]["server_commit"],
        tokens={seat: token_hash(t) for seat, t in tokens.items()},
        created_at="2026-01-01T00:00:00.000000Z",
    )
    by_seq = {e["body"]["seq"]: e for e in bundle["events"]}
    for i, c in enumerate(bundle["commands"]):
        first, last = c["seqs"]
        rows = [
            NewEventRow(
                bundle["game"], seq, by_seq[seq]["body"]["type"], by_seq[seq]["body"]["v"],
                canonical(by_seq[seq]["body"]).decode(), by_seq[seq]["hash"], c["command_id"], c["seat"],
                row.created_at, None, by_seq[seq]["body"]["data"]["k"] if by_seq[seq]["body"]["type"] == "DiceRolled" else None,
            )
            for seq in range(first, last + 1)
        ]
        cmd = CommandRow(bundle["game"], c["command_id"], c["seat"], canonical(c["payload"]).decode(), first, last, row.created_at)
        if i == 0:
            svc.store.create_game(row, rows, cmd)
        else:
            svc.store.append(rows, cmd)


def _newer_edition_game(svc: GameService) -> tuple[str, str]:
    """An aa1942-convoy game whose genesis names 9.0.0, as a newer release writing to a shared database would."""
    loaded = RULESETS["aa1942-convoy"]
    seed = bytes(range(32))
    (created,) = engine.creation_events(loaded.ruleset, loaded.data, loaded.data_sha256, "g-newer", {}, None, "fair", seed)
    created = msgspec.structs.replace(created, ruleset=msgspec.structs.replace(created.ruleset, version="9.0.0"))
    rows, _, head = svc.new_rows("g-newer", 0, GENESIS_HASH, [created], "create", "creator", "2026-01-01T00:00:00Z")
    bundle = {
        "game": "g-newer",
        "ruleset": msgspec.to_builtins(created.ruleset),
        "dice": {"mode": "fair"},
        "events": [{"body": json.loads(rows[0].body), "hash": rows[0].hash}],
        "commands": [{"command_id": "create", "seat": "creator", "payload": {"type": "create_game"}, "seqs": [1, 1]}],
    }
    _store_bundle(svc, bundle, seed.hex(), {"referee": "the-referee", "USSR": "ussr"})
    return "g-newer", head.hex()


@pytest.fixture
def store_client(tmp_path):
    svc = GameService(SQLiteStore(str(tmp_path / "u.db")))
    with TestClient(create_app(service=svc)) as client:
        yield svc, client


def test_raw_reads_of_a_never_released_edition_answer_the_stored_bytes(store_client):
    svc, client = store_client
    path = Path(__file__).parent / "fixtures" / "aa1942-north-atlantic-1.0.0.json"
    old = json.loads(path.read_text())
    _store_bundle(svc, old, old["dice"]["server_seed"], {"referee": "ref", "Germany": "ger"})
    gid = old["game"]
    events = client.get(f"/games/{gid}/events", params={"limit": 1000})
    assert events.status_code == 200
    got = [(e["seq"], e["hash"], e["type"], e["data"]) for e in events.json()["events"]]
    assert got == [(e["body"]["seq"], e["hash"], e["body"]["type"], e["body"]["data"]) for e in old["events"]]
    bundle = client.get(f"/games/{gid}/bundle")
    assert bundle.status_code == 200 and bundle.json() == old  # the stored log, byte for byte the same bundle
    rolls = client.get(f"/games/{gid}/rolls").json()["rolls"]
    assert rolls and all(r["verification"]["status"] == "verified" for r in rolls)
    assert client.get(f"/games/{gid}/rolls/0").json()["verification"]["status"] == "verified"
    for what in (f"/games/{gid}", f"/games/{gid}/views/sz-status"):
        r = client.get(what)
        assert r.status_code == 409 and r.json()["code"] == "edition-not-run", r.text
        assert r.json()["editions"] == RULESETS["aa1942-convoy"].ruleset.editions.run
    r = client.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth("ger"))
    assert r.status_code == 409 and r.json()["code"] == "edition-not-run"


def test_a_newer_editions_game_is_read_ended_and_revealed_and_its_bundle_says_who_replays_it(store_client, tmp_path):
    svc, client = store_client
    gid, head = _newer_edition_game(svc)
    assert client.get(f"/games/{gid}/events").json()["head"] == head
    for what in (f"/games/{gid}", f"/games/{gid}/views/sz-status"):
        assert client.get(what).json()["code"] == "edition-not-run"
    for what, body in ((f"/games/{gid}/forks", {"at": 1}), (f"/games/{gid}/odds", {"at": 1, "games": 10, "seed": 1})):
        r = client.post(what, json=body)
        assert r.status_code == 409 and r.json()["code"] == "edition-not-run", (what, r.text)
    assert client.post(f"/games/{gid}/end", headers=auth("the-referee")).status_code == 200
    revealed = client.post(f"/games/{gid}/reveal", headers=auth("the-referee"))
    assert revealed.status_code == 200, revealed.text
    assert [e["type"] for e in client.get(f"/games/{gid}/events").json()["events"]] == [
        "GameCreated", "GameEnded", "SeedLocked", "ServerSeedRevealed"
    ]
    path = tmp_path / "newer.json"
    path.write_bytes(client.get(f"/games/{gid}/bundle").content)
    report = verify(path.read_bytes())
    assert report["checks"]["chain"]["status"] == "pass" and report["checks"]["dice"]["status"] == "pass"
    assert report["checks"]["replay"]["status"] == "skipped" and "aa1942-convoy 9.0.0" in report["checks"]["replay"]["detail"]
    out = CliRunner().invoke(cli, ["verify", str(path)], terminal_width=200)
    assert out.exit_code == 2 and "9.0.0" in out.output
    exported = CliRunner().invoke(cli, ["export", gid, "--db", svc.store.path, "--out", str(tmp_path / "e.json")])
    assert exported.exit_code == 0, exported.output
