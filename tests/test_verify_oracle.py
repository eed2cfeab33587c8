"""`POST /bundles/verify` of a game this server holds, before its seed is revealed: the replay runs with the secret
seed and the stored sealed payloads, so its report must not depend on anything still hidden. A caller may send any
command list beside the real log; a command that is not the server's record of the game must not be run (its report
could otherwise tell a sealed order, or how many events a command not yet sent would make with the secret seed)."""

from __future__ import annotations

import copy
import re

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from tests import sealed_bid
from tests.conftest import new_game, send


@pytest.fixture
def bid_client(store_url):
    with TestClient(create_app(store_url, rulesets=sealed_bid.served_with_sealed_bid())) as c:
        yield c


def replay_check(client, bundle) -> dict:
    r = client.post("/bundles/verify", json=bundle)
    assert r.status_code == 200, r.text
    return r.json()["checks"]["replay"]


def anonymous(check: dict, g: dict) -> dict:
    """The check with what differs between games anyway (ids, hashes) blanked."""
    text = re.sub(r"[0-9a-f]{16,}", "<hex>", str(check).replace(g["game_id"], "<game>"))
    return {"text": text}


def test_a_probe_appended_to_the_log_does_not_tell_the_other_seats_sealed_bid(bid_client):
    """North bids 7 in secret. South may not learn it by asking the server to replay its own bids 0-10 after the log:
    a tie makes one roll more (the tie-break), so the events a probe would make must not show."""
    g = new_game(bid_client, ruleset="sealed-bid")
    send(bid_client, g, "north", {"type": "bid", "amount": 7})
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    n = len(bundle["events"])
    reports = set()
    for amount in range(11):
        forged = copy.deepcopy(bundle)
        probe = {"type": "bid", "amount": amount}
        forged["commands"].append({"command_id": "probe", "seat": "south", "payload": probe, "seqs": [n + 1, n + 1]})
        r = bid_client.post("/bundles/verify", json=forged)
        assert r.status_code == 200, r.text
        report = r.json()  # the probe names a command no event made: the chain check fails it, nothing is replayed
        assert report["checks"]["chain"]["status"] == "fail" and report["checks"]["replay"]["status"] == "skipped"
        reports.add(str(report).replace(f"'amount': {amount}", ""))
    assert len(reports) == 1, reports


def test_a_probe_does_not_tell_how_a_command_not_yet_sent_would_turn_out(client):
    """Corvette Command, fair dice: the captain may not learn, before sending a command, how many events (a hit, a
    new card, a sinking ...) it will make with the secret seed."""
    for _ in range(5):  # the fair dice may end a campaign in its first commands (a sinking): then another game
        g = new_game(client, ruleset="corvette-command")
        for _ in range(6):
            a = client.get(f"/games/{g['game_id']}").json()["awaiting"]
            if not a:
                break
            send(client, g, a[0]["seats"][0], {"type": a[0]["type"], **(a[0]["choices"] or [{}])[0]})
        awaiting = client.get(f"/games/{g['game_id']}").json()["awaiting"]
        if awaiting:
            break
    assert awaiting, "five games ended within six commands"
    a = awaiting[0]
    body = {"type": a["type"], **(a["choices"] or [{}])[0]}
    bundle = client.get(f"/games/{g['game_id']}/bundle").json()
    n = len(bundle["events"])
    forged = copy.deepcopy(bundle)
    forged["commands"].append({"command_id": "probe", "seat": a["seats"][0], "payload": body, "seqs": [n + 1, n + 1]})
    r = client.post("/bundles/verify", json=forged)
    assert r.status_code == 200, r.text
    chain, check = r.json()["checks"]["chain"], r.json()["checks"]["replay"]
    made = send(client, g, a["seats"][0], body)["version"]
    # a command no event made is named by the chain check (the list against the events), and nothing is replayed
    assert chain["status"] == "fail" and chain["first_bad_seq"] == n + 1 and check["status"] == "skipped"
    assert "replay makes" not in str(r.json()) and str(made) not in chain["detail"]
    # a past command swapped for another one (same id, other payload) is not run either
    forged = copy.deepcopy(bundle)
    last = forged["commands"][-1]["payload"]
    offered = [{"type": x["type"], **choice} for x in awaiting for choice in (x["choices"] or [{}])]
    sent = [x["payload"] for x in forged["commands"][1:]]  # the dice may make `body` the same as the last command
    forged["commands"][-1]["payload"] = next(p for p in offered + sent if p != last and "type" in p)
    check = replay_check(client, forged)
    assert check["status"] == "fail" and "replay makes" not in check["detail"]


def battle_with_orders(client, messages: list[dict]) -> tuple[dict, dict]:
    g = new_game(client, ruleset="battlefleet-1900", options={"scenario": "torpedo-attack"})
    send(client, g, "japan", {"type": "start"})
    send(client, g, "russia", {"type": "start"})
    send(client, g, "japan", {"type": "give_orders", "messages": messages})
    return g, client.get(f"/games/{g['game_id']}/bundle").json()


def test_a_sealed_order_sent_again_under_another_seat_tells_nothing_of_its_content(client):
    """Japan's give_orders is sealed. Russia relabels that command as its own in the public bundle: the server must
    not judge the stored (secret) payload as Russia's and say why it is refused."""
    seen = []
    for messages in ([{"to_seat": "russia", "text": "Togo to Vitgeft"}], []):
        g, bundle = battle_with_orders(client, messages)
        assert bundle["commands"][-1]["payload"].keys() == {"sealed"}
        forged = copy.deepcopy(bundle)
        forged["commands"][-1]["seat"] = "russia"
        seen.append(anonymous(replay_check(client, forged), g))
        # and Russia's own next order, probed before it is sent, tells nothing of Japan's either
        n = len(bundle["events"])
        forged = copy.deepcopy(bundle)
        probe = {"command_id": "probe", "seat": "russia", "payload": {"type": "give_orders"}, "seqs": [n + 1, n + 1]}
        forged["commands"].append(probe)
        seen.append(anonymous(replay_check(client, forged), g))
        assert "message" not in str(seen[-2]) and "replay makes" not in str(seen[-1])
    assert seen[0] == seen[2] and seen[1] == seen[3]


def test_the_real_bundle_of_an_unrevealed_game_still_replays_on_the_server(bid_client):
    g = new_game(bid_client, ruleset="sealed-bid")
    send(bid_client, g, "north", {"type": "bid", "amount": 3})
    send(bid_client, g, "south", {"type": "bid", "amount": 3})
    send(bid_client, g, "north", {"type": "bid", "amount": 5})
    # the public bundle (a seat's or the referee's copy, which shows sealed content, is refused: tests/test_hidden.py)
    bundle = bid_client.get(f"/games/{g['game_id']}/bundle").json()
    check = replay_check(bid_client, bundle)
    assert check["status"] == "pass", check
    prefix = copy.deepcopy(bundle)  # a prefix of the log, ending where a command ended
    cut = prefix["commands"][-2]["seqs"][1]
    prefix["events"] = prefix["events"][:cut]
    prefix["head"] = prefix["events"][-1]["hash"]
    prefix["commands"] = prefix["commands"][:-1]
    assert replay_check(bid_client, prefix)["status"] == "pass"
