"""The verifier takes the revealed server seed from the hash-chained log (a new user's trial): a revealed bundle whose
header's `dice.server_seed` was set to null was reported "the server seed is not revealed yet" (partial), though its
own `ServerSeedRevealed` holds it. The header is an unchained copy: with it null the log's seed is used; with one
that differs from the log's, the dice check fails naming both. The log's seed is public once revealed; a forged
`ServerSeedRevealed` in an unrevealed game's bundle fails the commit, and the server's own seed is never used."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from events.canonical import GENESIS_HASH, chain_hash
from service.app import create_app
from service.cli import app as cli
from service.replay import verify
from tests.conftest import auth

ROOT = Path(__file__).resolve().parent.parent
REVEALED = ROOT / "replays" / "aa1942-two-sides.4.0.0.json"  # revealed: ServerSeedRevealed at its last seq


def bundle() -> dict:
    return json.loads(REVEALED.read_text())


def revealed_at(b: dict) -> tuple[str, int]:
    (e,) = [e["body"] for e in b["events"] if e["body"]["type"] == "ServerSeedRevealed"]
    return e["data"]["server_seed"], e["seq"]


def test_a_header_without_the_seed_verifies_with_the_one_its_log_reveals():
    b = bundle()
    seed, seq = revealed_at(b)
    assert b["dice"]["server_seed"] == seed and verify(b)["verdict"] == "verified"
    blank = copy.deepcopy(b)
    blank["dice"]["server_seed"] = None
    report = verify(blank)
    assert report["verdict"] == "verified", report
    assert report["checks"]["dice"]["status"] == report["checks"]["replay"]["status"] == "pass"
    assert f"revealed at seq {seq}" in report["checks"]["dice"]["detail"]
    assert report["checks"]["dice"]["rolls"] == verify(b)["checks"]["dice"]["rolls"] > 0


def test_a_header_seed_the_log_does_not_reveal_fails_naming_both():
    b = bundle()
    seed, seq = revealed_at(b)
    other = "44" * 32
    b["dice"]["server_seed"] = other
    report = verify(b)
    dice = report["checks"]["dice"]
    assert report["verdict"] == "failed" and dice["status"] == "fail" and dice["first_bad_seq"] == seq
    assert other in dice["detail"] and seed in dice["detail"] and f"seq {seq}" in dice["detail"]


def test_a_seed_edited_in_the_log_says_the_log_was_changed_not_the_header():
    """A new user's trial: the seed edited in ServerSeedRevealed's data (the header left alone) failed the chain at
    that seq, and the dice check still said "so the header was changed (or the log was)". Where the log does not
    chain up to the event the header is compared with, it says the log was changed and where; where it does, the
    header most likely was."""
    b = bundle()
    seed, seq = revealed_at(b)
    other = seed[:-1] + ("1" if seed[-1] == "0" else "0")
    in_log = copy.deepcopy(b)
    next(e for e in in_log["events"] if e["body"]["seq"] == seq)["body"]["data"]["server_seed"] = other
    report = verify(in_log)
    dice = report["checks"]["dice"]
    assert report["checks"]["chain"]["first_bad_seq"] == seq and dice["first_bad_seq"] == seq
    assert f"the log was changed: its event seq {seq} does not verify" in dice["detail"], dice["detail"]
    assert "header was changed" not in dice["detail"]
    assert f"header dice.server_seed {seed}, ServerSeedRevealed at seq {seq} {other}" in dice["detail"]
    in_header = bundle()
    in_header["dice"]["server_seed"] = other
    dice = verify(in_header)["checks"]["dice"]
    assert "so the header was changed (or the log was)" in dice["detail"] and "log was changed" not in dice["detail"]
    assert f"header dice.server_seed {other}, ServerSeedRevealed at seq {seq} {seed}" in dice["detail"]


def test_over_http_and_the_command_line_alike(tmp_path):
    blank = bundle()
    blank["dice"]["server_seed"] = None
    path = tmp_path / "noseed.json"
    path.write_text(json.dumps(blank))
    with TestClient(create_app(str(tmp_path / "v.db"))) as c:
        r = c.post("/bundles/verify", json=blank)
        assert r.status_code == 200 and r.json()["verdict"] == "verified", r.text
    checked = CliRunner().invoke(cli, ["verify", str(path)])
    assert checked.exit_code == 0, checked.output
    replayed = CliRunner().invoke(cli, ["replay", str(path)])
    assert replayed.exit_code == 0 and "byte-identical" in replayed.stdout, replayed.output


def test_a_forged_reveal_in_an_unrevealed_games_bundle_fails_its_commit_and_uses_no_secret(tmp_path):
    """The server holds this game and its secret seed: a bundle that adds a ServerSeedRevealed of its own making
    (chained anew) is checked with the seed it shows, as a header's would be, fails the commit, and is not replayed
    with the stored seed or records (no replayed body, no recorded body)."""
    with TestClient(create_app(str(tmp_path / "f.db"))) as c:
        g = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()
        ussr = auth(next(s["token"] for s in g["seats"] if s["seat"] == "USSR"))
        first = c.get(f"/games/{g['game_id']}", headers=ussr).json()["awaiting"][0]  # whatever USSR may do first
        sent = c.post(f"/games/{g['game_id']}/commands", json={"type": first["type"], **first["choices"][0]}, headers=ussr)
        assert sent.status_code == 200, sent.text
        public = c.get(f"/games/{g['game_id']}/bundle").json()
        assert public["dice"]["server_seed"] is None and verify(public)["verdict"] == "partial"
        forged = copy.deepcopy(public)
        last = forged["events"][-1]["body"]
        body = {"game": g["game_id"], "seq": last["seq"] + 1, "type": "ServerSeedRevealed", "v": 1,
                "command": "c-forged", "data": {"server_seed": "55" * 32}}  # fmt: skip
        forged["events"].append({"body": body, "hash": ""})
        n = body["seq"]  # its command listed too, as the chain check wants the list to match the events
        forged["commands"].append({"command_id": "c-forged", "seat": "referee", "payload": {"type": "reveal"}, "seqs": [n, n]})
        head = GENESIS_HASH
        for e in forged["events"]:
            head = chain_hash(head, e["body"])
            e["hash"] = head.hex()
        forged["head"] = head.hex()
        r = c.post("/bundles/verify", json=forged)
        assert r.status_code == 200, r.text
        report = r.json()
        assert report["verdict"] == "failed" and report["checks"]["chain"]["status"] == "pass"
        assert report["checks"]["dice"]["status"] == "fail" and "server_commit" in report["checks"]["dice"]["detail"]
        replay = report["checks"]["replay"]
        assert replay["status"] == "skipped" and "dice check failed" in replay["detail"]
        assert not {"recorded", "replayed", "diff"} & set(replay)
