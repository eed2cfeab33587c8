"""What-if (issue #13): forks at any command's end, over HTTP and offline, and the odds from a position."""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from domain.engine import Rejected
from events.bundle import decode_bundle
from service.app import create_app
from service.cli import app as cli
from service.replay import verify
from service.simulate import histogram, percentile
from service.whatif import continuations, odds, position, prefix, take_snapshot
from tests.conftest import auth, new_game, seated, send, to_german_combat
from tests.drivers import SHORT
from tests.sealed_bid import served_with_sealed_bid

ROOT = Path(__file__).resolve().parent.parent
EASTBOUND = ROOT / "replays" / "corvette-eastbound.3.0.0.json"
NORTH = ROOT / "replays" / "aa1942-north-atlantic.3.0.0.json"
YELLOW_SEA = ROOT / "replays" / "battlefleet-yellow-sea-1904.7.0.0.json"


def played(client, mode="fair"):
    """A game with a raid behind it: USSR buys and ends its phases; Germany buys, moves, raids."""
    dice = {"mode": "public-seed", "server_seed": "5e" * 32} if mode == "public-seed" else {}
    g = new_game(client, {"submarines": {"Germany": {"7": 2}}}, dice=dice)
    to_german_combat(client, g, ussr_spends=4)  # the raid on SZ 7 is legal now
    return g


def test_a_fork_starts_from_the_parents_state_with_its_own_seats_and_dice(client):
    g = played(client)
    gid = g["game_id"]
    at = client.get(f"/games/{gid}").json()["version"]
    send(client, g, "Germany", type="raid", sz=7)  # the parent goes on: the fork must not see it
    r = client.post(f"/games/{gid}/forks", json={"at": at})
    assert r.status_code == 201, r.text
    fork = r.json()
    fid = fork["game_id"]
    genesis = fork["events"][0]["data"]
    head_at = client.get(f"/games/{gid}/events", params={"after": at - 1, "limit": 1}).json()["events"][0]["hash"]
    assert genesis["parent"] == {"game": gid, "seq": at, "hash": head_at}
    # a fork's summary says where it comes from, as its first event does (a developer's trial found it only there)
    assert client.get(f"/games/{fid}").json()["parent"] == genesis["parent"]
    assert client.get(f"/games/{gid}").json()["parent"] is None
    assert genesis["dice"]["server_commit"] != g["dice"]["server_commit"]
    assert {s["token"] for s in fork["seats"]}.isdisjoint(g["tokens"].values())
    parent_then = client.get(f"/games/{gid}/views/sz-status", params={"at": at}).json()["data"]
    assert client.get(f"/games/{fid}/views/sz-status").json()["data"] == parent_then
    seated(fork)
    assert [e["type"] for e in send(client, fork, "Germany", type="raid", sz=7)["events"]] == [
        "SeedLocked",  # the fork locks its own seed at its first command
        "DiceRolled",
        "ConvoyRaided",
    ]
    # the parent's token does not work on the fork
    assert client.post(f"/games/{fid}/commands", json={"type": "raid", "sz": 7}, headers=auth(g["tokens"]["Germany"])).status_code == 401


def test_a_forks_bundle_verifies_with_its_parents_prefix_and_names_tampering(client):
    g = played(client)
    gid = g["game_id"]
    at = client.get(f"/games/{gid}").json()["version"]
    fork = client.post(f"/games/{gid}/forks", json={"at": at}).json()
    fid = seated(fork)["game_id"]
    send(client, fork, "Germany", type="raid", sz=7)
    client.post(f"/games/{fid}/reveal", headers=auth(fork["referee_token"]))
    bundle = client.get(f"/games/{fid}/bundle").json()
    assert len(bundle["parent"]["events"]) == at and bundle["parent"]["dice"]["server_seed"] is None
    report = verify(bundle)
    assert report["checks"]["parent"]["status"] == "skipped"  # the parent's seed is still secret
    assert all(report["checks"][c]["status"] == "pass" for c in ("chain", "dice", "sealed", "replay"))
    assert report["verdict"] == "partial"
    client.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"]))
    bundle = client.get(f"/games/{fid}/bundle").json()
    assert verify(bundle)["verdict"] == "verified"
    bad = copy.deepcopy(bundle)  # an edit in the parent's prefix is named there
    purchase = next(e for e in bad["parent"]["events"] if e["body"]["type"] == "PurchaseMade")
    purchase["body"]["data"]["spent"] = 9
    check = verify(bad)["checks"]["parent"]
    assert check["status"] == "fail" and check["first_bad_seq"] == purchase["body"]["seq"] and "chain" in check["detail"]
    bad = copy.deepcopy(bundle)  # an edit in the fork's own log is named in its chain
    bad["events"][-1]["body"]["data"]["server_seed"] = "00" * 32
    assert verify(bad)["checks"]["chain"]["first_bad_seq"] == len(bad["events"])
    bad = copy.deepcopy(bundle)  # a fork that names another position than the prefix it carries
    bad["parent"]["events"] = bad["parent"]["events"][:-1]
    bad["parent"]["head"] = bad["parent"]["events"][-1]["hash"]
    assert verify(bad)["checks"]["parent"]["status"] == "fail"


def test_a_forks_verification_counts_its_own_rolls_not_the_next_k(client):
    """The dice check of a fork counts the rolls its bundle holds (k from the parent's next roll on), not the next k:
    a fork with 2 rolls after a parent's 2 said `4 rolls recomputed alone`, `rolls: 4`."""
    g = new_game(client, {"submarines": {"Germany": {"7": 2, "2": 2}}}, dice={"mode": "public-seed", "server_seed": "5e" * 32})
    gid = g["game_id"]
    to_german_combat(client, g, ussr_spends=4)
    send(client, g, "Germany", type="raid", sz=7)  # k 0
    at = send(client, g, "Germany", type="raid", sz=7)["version"]  # k 1
    fork = seated(client.post(f"/games/{gid}/forks", json={"at": at, "dice": {"mode": "public-seed", "server_seed": "6f" * 32}}).json())
    fid = fork["game_id"]
    send(client, fork, "Germany", type="raid", sz=2)  # k 2
    send(client, fork, "Germany", type="raid", sz=2)  # k 3
    client.post(f"/games/{fid}/reveal", headers=auth(fork["referee_token"]))
    client.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"]))  # the parent's part verifies too
    bundle = client.get(f"/games/{fid}/bundle").json()
    own = [e["body"]["data"]["k"] for e in bundle["events"] if e["body"]["type"] == "DiceRolled"]
    assert own == [2, 3]
    for report in (verify(bundle), client.post("/bundles/verify", json=bundle).json()):
        dice = report["checks"]["dice"]
        assert report["verdict"] == "verified", report
        assert dice["rolls"] == len(own) == 2, dice
        assert "2 rolls (k 2–3) recomputed alone" in dice["detail"], dice


def test_forking_an_unrevealed_fair_game_reveals_nothing_of_its_future(client):
    g = played(client)
    gid = g["game_id"]
    at = client.get(f"/games/{gid}").json()["version"]
    later = send(client, g, "Germany", type="raid", sz=7)
    fork = client.post(f"/games/{gid}/forks", json={"at": at}).json()
    seed = client.app.state.service.cache.row(gid).server_seed
    seen = json.dumps(fork) + client.get(f"/games/{fork['game_id']}/bundle").text
    seen += client.get(f"/games/{fork['game_id']}").text
    assert seed not in seen
    assert later["events"][0]["hash"] not in seen  # the parent's events after `at` are not in the fork


def test_forks_start_at_the_end_of_a_command(client):
    g = played(client)
    gid = g["game_id"]
    r = client.post(f"/games/{gid}/forks", json={"at": 3})  # seq 3 is inside USSR's first purchase
    assert r.status_code == 422 and r.json()["code"] == "invalid-at" and "middle of a command" in r.json()["detail"]
    r = client.post(f"/games/{gid}/forks", json={"at": 10_000})
    assert r.status_code == 422 and r.json()["code"] == "invalid-at"


def test_a_position_with_closed_seals_cannot_be_forked(store_url):
    app = create_app(store_url, rulesets=served_with_sealed_bid())  # the global list stays as it is
    with TestClient(app) as client:
        g = new_game(client, ruleset="sealed-bid")
        out = send(client, g, "north", type="bid", amount=3)
        r = client.post(f"/games/{g['game_id']}/forks", json={"at": out["version"]})
        assert r.status_code == 409 and r.json()["code"] == "fork-sealed"
    app.state.service.store.close()


def test_the_odds_are_played_with_the_services_rulesets(store_url):
    """What-if folds the position and plays the continuations with the rulesets the service serves (sealed-bid is
    served only by this app), not with the global list."""
    app = create_app(store_url, rulesets=served_with_sealed_bid())
    with TestClient(app) as client:
        dice = {"mode": "public-seed", "server_seed": "5e" * 32}
        gid = client.post("/games", json={"ruleset": "sealed-bid", "options": SHORT["sealed-bid"], "dice": dice}).json()["game_id"]
        at = client.get(f"/games/{gid}").json()["version"]  # the start: a winner's prize stays sealed to the end
        r = client.post(f"/games/{gid}/odds", json={"at": at, "games": 3, "seed": 1})
        assert r.status_code == 202, r.text
        job = finished(client, r.json())
        assert job["status"] == "done" and job["done"] == 3, job
        assert set(job["result"]["figures"]) == {"north wins", "south wins"}
    app.state.service.store.close()


def test_odds_of_a_ruleset_without_a_bot_are_refused_not_a_job_that_fails(store_url):
    """A served ruleset with no bot cannot play continuations: POST /odds answers 409 `no-bot` saying so, for the
    public and for a seat alike (before, it answered 202 and the job failed)."""
    served = served_with_sealed_bid()
    bid = served["sealed-bid"]
    served["sealed-bid"] = dataclasses.replace(bid, ruleset=dataclasses.replace(bid.ruleset, bot=None))
    app = create_app(store_url, rulesets=served)
    with TestClient(app) as client:
        g = new_game(client, SHORT["sealed-bid"], ruleset="sealed-bid")
        at = client.get(f"/games/{g['game_id']}").json()["version"]
        for headers in ({}, auth(g["tokens"]["north"])):
            r = client.post(f"/games/{g['game_id']}/odds", json={"at": at, "games": 2, "seed": 1}, headers=headers)
            assert r.status_code == 409 and r.json()["code"] == "no-bot", r.text
            assert "POST /games/{id}/forks" in r.json()["detail"]
    app.state.service.store.close()


def test_umpire_fork_offline_makes_a_bundle_that_verifies_with_its_parent(tmp_path):
    bundle = json.loads(NORTH.read_text())
    at = bundle["commands"][10]["seqs"][1]
    out = tmp_path / "fork.json"
    r = CliRunner().invoke(cli, ["fork", str(NORTH), "--at", str(at), "--seed", "ab" * 32, "--out", str(out)])
    assert r.exit_code == 0, r.output
    made = json.loads(out.read_text())
    assert made["events"][0]["body"]["data"]["parent"] == {
        "game": bundle["game"],
        "seq": at,
        "hash": bundle["events"][at - 1]["hash"],
    }
    report = verify(made)
    assert report["verdict"] == "verified", report["checks"]
    inside = next(c["seqs"][0] for c in bundle["commands"] if c["seqs"][0] < c["seqs"][1])
    bad = CliRunner().invoke(cli, ["fork", str(NORTH), "--at", str(inside)])
    assert bad.exit_code == 1 and "middle of a command" in bad.output


def test_a_battlefleet_fork_refusal_names_positions_that_can_be_forked(tmp_path):
    """battlefleet-1900 keeps `start` and `give_orders` sealed until the battle ends (BF-R34): between the seats'
    starts and the end no position can be forked. The refusal names the positions that can (the genesis and those
    after the end opened every seal), never "a seq after they are revealed" mid-game, and each one it names forks."""
    b = decode_bundle(YELLOW_SEA.read_bytes())
    with pytest.raises(Rejected) as e:
        position(b, 435)
    last = len(b.events)
    assert e.value.code == "fork-sealed"
    assert "the nearest positions with every seal open are seq 1 and seq " in str(e.value)
    named = int(str(e.value).split("and seq ")[1].split(".")[0])
    assert any(x.body["type"] == "GameEnded" and x.body["seq"] <= named for x in b.events)  # the end, seals opened
    for at in (1, named, last):
        position(b, at)  # each forks
    r = CliRunner().invoke(cli, ["fork", str(YELLOW_SEA), "--at", "435", "--out", str(tmp_path / "f.json")])
    assert r.exit_code == 1 and f"seq 1 and seq {named}" in r.output, r.output
    running = decode_bundle(json.dumps(prefix(b, 435)).encode())  # the same game, still being played
    with pytest.raises(Rejected) as e:
        position(running, 435)
    assert "none later yet" in str(e.value), str(e.value)
    with pytest.raises(Rejected) as e:
        position(running, 435, known_seals=True)  # the public odds: the log does not open them yet
    assert "a seat's own odds run from here" in str(e.value).lower() and "with that seat's token" in str(e.value)


def test_a_battlefleet_game_forks_at_its_start_and_after_its_end_and_its_middle_runs_the_odds(client):
    """What docs/whatif.md says of battlefleet-1900: `start` stays sealed until the battle ends, so a fork is made at
    seq 1 and after the end (which opens every seal), not between, even once the game is over; the odds run there."""
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    gid = g["game_id"]
    send(client, g, "japan", type="start")
    mid = send(client, g, "russia", type="start")["version"]
    end = send(client, g, "japan", type="concede")["version"]
    assert client.get(f"/games/{gid}").json()["status"] == "over"
    refused = client.post(f"/games/{gid}/forks", json={"at": mid}).json()
    assert refused["code"] == "fork-sealed"  # and, as `umpire fork` says, where a fork can start instead
    assert f"the nearest positions with every seal open are seq 1 and seq {end}" in refused["detail"], refused
    assert [client.post(f"/games/{gid}/forks", json={"at": at}).status_code for at in (1, end)] == [201, 201]
    r = client.post(f"/games/{gid}/odds", json={"at": mid, "games": 2, "seed": 1})
    assert r.status_code == 202 and finished(client, r.json())["status"] == "done", r.text


def test_percentile_and_histogram_with_chosen_values():
    assert percentile([1, 2, 3, 4], 3) == 62.5  # two below, one equal: (2 + 0.5) / 4
    assert percentile([5, 5, 5], 5) == 50.0
    assert histogram([0, 1, 1, 2]) == [{"lo": 0, "hi": 0, "count": 1}, {"lo": 1, "hi": 1, "count": 2}, {"lo": 2, "hi": 2, "count": 1}]
    wide = histogram(list(range(0, 100_000, 1000)), bins=10)
    # 0..99,000 in 10 bins: each 9,901 wide (the span 99,001 over 10, rounded up)
    assert len(wide) == 10 and sum(h["count"] for h in wide) == 100 and wide[0] == {"lo": 0, "hi": 9900, "count": 10}


@pytest.mark.parametrize("path", [EASTBOUND, NORTH])
def test_the_odds_are_the_same_for_any_number_of_workers(path):
    from concurrent.futures import ProcessPoolExecutor

    b = decode_bundle(path.read_bytes())
    at = b.commands[len(b.commands) // 3].seqs[1]
    alone = odds(b, at, 12, seed=3)
    with ProcessPoolExecutor(max_workers=2) as pool:
        spread = odds(b, at, 12, seed=3, executor=pool, chunk=5)
    assert alone == spread
    actual = alone["figures"][next(iter(alone["figures"]))]
    assert actual["actual"] is not None and 0 <= actual["percentile"] <= 100


def test_the_odds_over_a_dask_cluster_are_the_same(tmp_path):
    from dask.distributed import Client, LocalCluster

    b = decode_bundle(EASTBOUND.read_bytes())
    at = b.commands[5].seqs[1]
    alone = odds(b, at, 6, seed=9)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            assert odds(b, at, 6, seed=9, executor=c.get_executor(), chunk=2) == alone


def test_umpire_simulate_from_a_position_marks_the_real_outcome_and_plots(tmp_path):
    at = str(json.loads(EASTBOUND.read_text())["commands"][8]["seqs"][1])
    args = ["simulate", "corvette-command", "--from", str(EASTBOUND), "--at", at, "--games", "6"]
    one = CliRunner().invoke(cli, [*args, "--json"])
    two = CliRunner().invoke(cli, [*args, "--json", "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.output) == json.loads(two.output)
    tonnage = json.loads(one.output)["figures"]["tonnage lost"]
    real = sum(e["body"]["data"]["tonnage"] for e in json.loads(EASTBOUND.read_text())["events"] if e["body"]["type"] == "ShipLost")
    assert tonnage["actual"] == real
    png = tmp_path / "odds.png"
    table = CliRunner().invoke(cli, [*args, "--plot", str(png)], terminal_width=100)
    assert table.exit_code == 0 and "real" in table.output and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    clash = CliRunner().invoke(cli, [*args, "--options", '{"year": 1942}'])
    assert clash.exit_code == 1 and "keeps the real game's options" in clash.output


def finished(client, job: dict, token: str | None = None) -> dict:
    """The odds job polled until it is no longer running (20 s at most); `token`: a seat's own odds are its alone."""
    for _ in range(200):
        job = client.get(f"/jobs/{job['job_id']}", headers=auth(token) if token else {}).json()
        if job["status"] != "running":
            break
        time.sleep(0.1)
    return job


def test_the_odds_as_a_bounded_job_of_the_api(client):
    g = played(client, mode="public-seed")
    gid = g["game_id"]
    at = client.get(f"/games/{gid}").json()["version"]
    r = client.post(f"/games/{gid}/odds", json={"at": at, "games": 8, "seed": 2})
    assert r.status_code == 202, r.text
    job = finished(client, r.json())
    assert job["status"] == "done" and job["done"] == 8, job
    b = decode_bundle(client.get(f"/games/{gid}/bundle").content)
    assert msgspec.to_builtins(job["result"]) == msgspec.json.decode(msgspec.json.encode(odds(b, at, 8, seed=2)))
    stream = client.get(job["stream"]).text
    assert "event: result" in stream
    too_many = client.post(f"/games/{gid}/odds", json={"at": at, "games": 1001})  # the schema's bound (docs/api.md)
    assert too_many.status_code == 422 and too_many.json()["code"] == "invalid-request"
    assert "<= 1000" in too_many.json()["detail"] and "$.games" in too_many.json()["detail"]
    assert client.get("/jobs/j-0000000000000000").status_code == 404


@pytest.mark.parametrize("path", ["/jobs/{}", "/jobs/{}/stream"])
def test_a_job_id_of_any_form_that_names_no_job_is_the_same_404(client, path):
    """A malformed job id is a job not here, as a well-formed unknown one is (docs/api.md "Errors": 404 `unknown-job`,
    saying where an id comes from), not a 422 about the path's pattern; the problem does not echo what the path held."""
    unknown = client.get(path.format("j-0000000000000000"))
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown-job", unknown.text
    assert "POST /games/{id}/odds" in unknown.json()["detail"] and "'j-0000000000000000'" in unknown.json()["detail"]
    for job_id in ["nope", "J-0000000000000000", "j-00000000000000000", "j-" + "0" * 200, "j-%3Cscript%3E"]:
        r = client.get(path.format(job_id))
        assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json", (job_id, r.text)
        assert r.json()["code"] == "unknown-job" and "POST /games/{id}/odds" in r.json()["detail"], r.json()
        assert job_id not in r.json()["detail"] and "<script>" not in r.json()["detail"], r.json()


def test_continuations_depend_only_on_the_seed_and_their_index():
    b = decode_bundle(NORTH.read_bytes())
    at = b.commands[5].seqs[1]
    game = position(b, at)
    state, genesis = take_snapshot(game), msgspec.to_builtins(game.created)
    both = continuations(state, genesis, 4, [0, 1])
    assert continuations(state, genesis, 4, [1]) == both[1:]



def test_the_odds_from_a_position_with_closed_seals_are_refused_not_a_crash(client):
    """A public bundle has no sealed content: a position whose seals are still closed (both battlefleet players have
    started, their setups sealed) is refused with fork-sealed before anything folds it."""
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    send(client, g, "japan", type="start")
    at = send(client, g, "russia", type="start")["version"]
    r = client.post(f"/games/{g['game_id']}/odds", json={"at": at, "games": 2, "seed": 1})
    assert r.status_code == 409 and r.json()["code"] == "fork-sealed", r.text
    assert "with that seat's token" in r.json()["detail"]  # what to do, and it is so:
    r = client.post(f"/games/{g['game_id']}/odds", json={"at": at, "games": 2, "seed": 1}, headers=auth(g["tokens"]["japan"]))
    assert r.status_code == 202, r.text
    assert finished(client, r.json(), g["tokens"]["japan"])["status"] == "done"
    b = decode_bundle(client.get(f"/games/{g['game_id']}/bundle").content)
    with pytest.raises(Rejected) as e:
        position(b, at)
    assert e.value.code == "fork-sealed"
