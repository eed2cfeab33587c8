"""What `verify` says of a tampered bundle names what differs (a new user's trial, with bundles it had tampered): the
seat whose client seed differs and on which side, a failure of the seeds rather than of one roll, the command of the
bundle the replay refuses, in words for a replay rather than advice for an API client."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from service.app import create_app
from service.cli import app as cli
from service.replay import verify
from tests.conftest import new_game

ROOT = Path(__file__).resolve().parent.parent
# revealed; USSR and USA contributed no client seed (the lock gives them SHA-256 of ""), Germany and UK did
BUNDLE = json.loads((ROOT / "replays" / "aa1942-north-atlantic.3.0.0.json").read_text())


def _lock(b: dict) -> dict:
    return next(e["body"] for e in b["events"] if e["body"]["type"] == "SeedLocked")


def _flip_last(value: str) -> str:
    return value[:-1] + ("1" if value[-1] == "0" else "0")


def test_a_client_seed_changed_in_the_lock_names_the_seat_and_says_the_log_was_changed():
    b = copy.deepcopy(BUNDLE)
    lock = _lock(b)
    seats = b["events"][0]["body"]["data"]["seats"]
    was = lock["data"]["client_seeds"][2]
    lock["data"]["client_seeds"][2] = _flip_last(was)
    report = verify(b)
    dice = report["checks"]["dice"]
    assert report["checks"]["chain"]["first_bad_seq"] == lock["seq"] == dice["first_bad_seq"]
    assert dice["detail"].startswith(f"the header's client seed of {seats[2]} is not what SeedLocked records at seq ")
    assert f"the log was changed: its event seq {lock['seq']} does not verify" in dice["detail"], dice["detail"]
    assert (
        f"header client seed of {seats[2]} {was}, SeedLocked client seed of {seats[2]} at seq {lock['seq']} "
        f"{_flip_last(was)}" in dice["detail"]
    )
    assert not any(seat in dice["detail"] for seat in seats if seat != seats[2])


def test_the_header_copy_of_client_seeds_changed_names_each_seat_and_the_header():
    b = copy.deepcopy(BUNDLE)
    seats = b["events"][0]["body"]["data"]["seats"]
    for i in (1, 3, 4):
        b["dice"]["client_seeds"][i] = _flip_last(b["dice"]["client_seeds"][i])
    report = verify(b)
    dice = report["checks"]["dice"]
    assert report["checks"]["chain"]["status"] == "pass" and dice["first_bad_seq"] == _lock(b)["seq"]
    assert dice["detail"].startswith(
        f"the header's client seeds of {seats[1]}, {seats[3]} and {seats[4]} are not what SeedLocked records at seq "
    )
    assert "so the header was changed (or the log was)" in dice["detail"] and "log was changed" not in dice["detail"]
    assert f"header client seed of {seats[3]} {b['dice']['client_seeds'][3]}, " in dice["detail"]


def test_a_beacon_and_a_missing_seed_are_named_too():
    b = copy.deepcopy(BUNDLE)
    b["dice"]["beacon"] = "drand-1234"
    b["dice"]["client_seeds"].pop()
    dice = verify(b)["checks"]["dice"]
    last = b["events"][0]["body"]["data"]["seats"][-1]
    assert dice["detail"].startswith(f"the header's beacon and client seed of {last} are not what SeedLocked"), dice
    assert f"header client seed of {last} (none), " in dice["detail"]
    assert "header beacon drand-1234, SeedLocked beacon at seq " in dice["detail"] and dice["detail"].endswith(" null")


def test_a_failure_of_the_seed_inputs_names_no_roll_over_http_too(tmp_path):
    """The header's seed against the log's, the seed against its commitment: no one roll's failure, so
    `first_bad_k` is null (it was 0, and the desk headlined 'roll k=0' though roll 0 is fine); the seq stays named."""
    reveal = next(e["body"] for e in BUNDLE["events"] if e["body"]["type"] == "ServerSeedRevealed")
    forged_log = copy.deepcopy(BUNDLE)  # the header's seed left out: the log's, edited, is taken and fails the commit
    forged_log["dice"]["server_seed"] = None
    forged_log["events"][reveal["seq"] - 1]["body"]["data"]["server_seed"] = "44" * 32
    forged_header = {**BUNDLE, "dice": {**BUNDLE["dice"], "server_seed": _flip_last(BUNDLE["dice"]["server_seed"])}}
    cases = [(forged_header, reveal["seq"]), (forged_log, 1)]
    with TestClient(create_app(str(tmp_path / "v.db"))) as c:
        for b, seq in cases:
            dice = verify(b)["checks"]["dice"]
            assert dice["status"] == "fail" and dice["first_bad_k"] is None and dice["first_bad_seq"] == seq, dice
            answered = c.post("/bundles/verify", json=b).json()["checks"]["dice"]
            assert answered["first_bad_k"] is None and answered["first_bad_seq"] == seq, answered
    # a roll's own failure still names its k
    roll = next(e for e in BUNDLE["events"] if e["body"]["type"] == "DiceRolled")
    b = copy.deepcopy(BUNDLE)
    b["events"][roll["body"]["seq"] - 1]["body"]["data"]["k"] = 7
    assert verify(b)["checks"]["dice"]["first_bad_k"] == roll["body"]["data"]["k"]


def test_a_command_the_replay_refuses_is_named_by_its_place_and_seqs_without_advice_for_an_api_client(tmp_path):
    """A new user's trial: `.commands[6].payload.spend=21` on an end_phase gave `command c-… (end_phase) is rejected
    on replay: Object contains unknown field 'spend'. … GET /games/{id} lists what is legal now …`: advice for a client
    sending a command, and no seq. Now the command's index in the bundle and the seqs it is recorded as making."""
    b = copy.deepcopy(BUNDLE)
    i, cmd = next((i, c) for i, c in enumerate(b["commands"]) if c["payload"]["type"] == "end_phase")
    cmd["payload"]["spend"] = 21
    first, last = cmd["seqs"]
    made = f"seq {first}" if first == last else f"seqs {first}-{last}"
    replay = verify(b)["checks"]["replay"]
    assert replay["status"] == "fail" and replay["first_bad_seq"] == first
    assert replay["detail"] == (
        f"the bundle's commands[{i}], {cmd['command_id']} (end_phase by {cmd['seat']}), which the bundle records as "
        f"making {made}, is rejected on replay: its payload is not a command of aa1942-convoy: Object contains unknown "
        "field `spend`"
    )
    path = tmp_path / "spend.json"
    path.write_text(json.dumps(b))
    for command in ("verify", "replay"):
        r = CliRunner().invoke(cli, [command, str(path)], terminal_width=200)
        assert r.exit_code == 1 and f"commands[{i}]" in r.output and "GET /" not in r.output, r.output


def test_a_chain_of_one_event_and_one_command_is_worded_in_the_singular(client):
    """A new user's trial: a fork's bundle (its genesis and the fork_game that made it) read '1 events chain to head …;
    its 1 command are those the events name'."""
    g = new_game(client)
    at = client.get(f"/games/{g['game_id']}").json()["version"]
    fork = client.post(f"/games/{g['game_id']}/forks", json={"at": at})
    assert fork.status_code == 201, fork.text
    bundle = client.get(f"/games/{fork.json()['game_id']}/bundle").json()
    assert len(bundle["events"]) == len(bundle["commands"]) == 1
    chain = verify(bundle)["checks"]["chain"]
    assert chain["status"] == "pass" and chain["detail"].startswith(f"1 event chains to head {bundle['head']}; "), chain
    assert chain["detail"].endswith("; its 1 command is the one the event names, over the seq it made"), chain
    events, head = BUNDLE["events"][:2], BUNDLE["events"][1]["hash"]
    two = {**BUNDLE, "events": events, "commands": BUNDLE["commands"][:2], "head": head}
    detail = verify(two)["checks"]["chain"]["detail"]
    assert detail.startswith("2 events chain to head ")
    assert detail.endswith("; its 2 commands are those the events name, each over the seqs it made"), detail


def test_a_lock_without_its_client_seeds_fails_the_dice_check_in_words_not_a_500(store_url):
    """A forged SeedLocked that leaves out `client_seeds` raised KeyError: a 500 from POST /bundles/verify and a
    traceback from `umpire verify` (a review). The dice check fails and says the log's seeds are missing."""
    b = copy.deepcopy(BUNDLE)
    lock = _lock(b)
    del lock["data"]["client_seeds"]
    report = verify(b)
    dice = report["checks"]["dice"]
    assert report["verdict"] == "failed" and dice["status"] == "fail" and dice["first_bad_k"] is None
    assert dice["first_bad_seq"] == lock["seq"] and "(none)" in dice["detail"], dice["detail"]
    with TestClient(create_app(store_url)) as client:
        answer = client.post("/bundles/verify", content=json.dumps(b), headers={"Content-Type": "application/json"})
        assert answer.status_code == 200 and answer.json()["checks"]["dice"]["status"] == "fail"


def test_seqs_are_written_as_runs():
    """A fogged battle's 88 sealed records made the sealed check one 500-character line of a Python list."""
    from service.replay import _seqs

    assert _seqs([3, 4, 20, 21, 23, 24, 29, 30, 31, 32, 58]) == "seqs 3–4, 20–21, 23–24, 29–32, 58"
    assert _seqs([7]) == "seq 7"
