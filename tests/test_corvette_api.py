"""corvette-command over HTTP: a whole convoy played from `awaiting` alone, the views, the bundle, own data."""

from __future__ import annotations

import json
from pathlib import Path

from domain.corvette_command import bot
from service.rulesets import RULESETS
from tests.conftest import auth, new_game
from tests.drivers import SHORT

DEFAULT = Path(__file__).resolve().parent.parent / "domain" / "corvette_command" / "data" / "default.json"


def play_from_awaiting(client, game, limit=3000):
    """Play with the bot's policy but only what the API shows: `awaiting` and the views."""
    gid, token = game["game_id"], game["seats"][0]["token"]
    for _ in range(limit):
        summary = client.get(f"/games/{gid}").json()
        if not summary["awaiting"]:
            return summary
        svc = client.app.state.service
        from domain.engine import CommandSpec

        legal = [
            CommandSpec(type=a["type"], seats=a["seats"], choices=a["choices"], schema=a["schema"])
            for a in summary["awaiting"]
        ]
        payload = bot.choose(svc.cache.cached(gid).game.state, legal, legal[0].seats[0])
        spec = next(a for a in summary["awaiting"] if a["type"] == payload["type"])
        if spec["choices"] is not None:  # what the bot picks is one of the offered buttons
            assert {k: v for k, v in payload.items() if k != "type"} in spec["choices"]
        r = client.post(f"/games/{gid}/commands", json=payload, headers=auth(token))
        assert r.status_code == 200, r.text
    raise AssertionError("the convoy did not finish")


def test_CCR8_a_whole_convoy_over_http_then_views_and_a_verified_bundle(client):
    game = new_game(client, ruleset="corvette-command", options=SHORT["corvette-command"])
    first = client.get(f"/games/{game['game_id']}").json()["awaiting"]
    assert [a["type"] for a in first] == ["choose_start_port"] and len(first[0]["choices"]) == 2
    final = play_from_awaiting(client, game)
    gid = game["game_id"]
    assert final["status"] == "over"
    (log,) = client.get(f"/games/{gid}/views/ship-log").json()["data"]["escorts"]
    assert log["seat"] == "captain" and set(log["skills"]) >= {
        "lookout",
        "asdic",
        "aa",
        "gun",
        "depth_charge",
        "engineer",
    }
    sheet = client.get(f"/games/{gid}/views/campaign-sheet").json()["data"]
    assert len(sheet["convoys"]) == 1 or log["hull_damage"] == 3
    mid = final["version"] // 2
    at_mid = client.get(f"/games/{gid}/views/map", params={"at": mid}).json()
    assert at_mid["at"] == mid and at_mid["data"]["convoy"]["path"]
    assert "uboat" in client.get(f"/games/{gid}/views/engagement", params={"at": mid}).json()["data"]
    assert client.post(f"/games/{gid}/reveal", headers=auth(game["referee_token"])).status_code == 200
    report = client.post("/bundles/verify", json=client.get(f"/games/{gid}/bundle").json()).json()
    assert report["verdict"] == "verified", report
    rolls = client.get(f"/games/{gid}/rolls", params={"limit": 1000}).json()["rolls"]
    assert rolls and all(r["rule"].startswith("CC:") and "(CC-" in r["rule"] for r in rolls)
    assert all(r["verification"]["status"] == "verified" for r in rolls)


def test_CC44_CCR37_two_player_each_escort_decides_for_its_own_ship_and_section(client):
    # dice fixed (seed and game id: the game seed hashes both) so that both escorts meet U-boats
    game = client.app.state.service.creation.create(
        "corvette-command",
        {"convoys": 1, "two_player": True, "year": 1942, "month": 11},
        None,
        "public-seed",
        "33" * 32,
        None,
        None,
        game_id="two-player",
    )
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    assert set(tokens) == {"escort-a", "escort-b"}
    gid = game["game_id"]
    r = client.post(
        f"/games/{gid}/commands", json={"type": "choose_start_port", "side": "canada"}, headers=auth(tokens["escort-b"])
    )
    assert r.status_code == 403 and r.json()["code"] == "not-your-turn"  # the senior escort leads the convoy
    seen = set()
    for _ in range(3000):
        summary = client.get(f"/games/{gid}").json()
        if not summary["awaiting"]:
            break
        a = summary["awaiting"][0]
        (seat,) = a["seats"]
        seen.add((a["type"], seat))
        payload = {"type": a["type"], **(a["choices"][0] if a["choices"] else {})}
        if a["type"] == "move_convoy":
            from domain.corvette_command.bot import best_move

            payload["to"] = best_move(client.app.state.service.cache.cached(gid).game.state, [c["to"] for c in a["choices"]])
        assert client.post(f"/games/{gid}/commands", json=payload, headers=auth(tokens[seat])).status_code == 200
    assert {s for _, s in seen} == {"escort-a", "escort-b"} and ("move_convoy", "escort-b") not in seen
    escorts = client.get(f"/games/{gid}/views/ship-log").json()["data"]["escorts"]
    assert [e["seat"] for e in escorts] == ["escort-a", "escort-b"]


def test_CC44_CCR39_two_player_needs_two_seats_and_no_quick_play(client):
    for options, seats in (
        ({"two_player": True}, ["a"]),
        ({"two_player": True, "quick_play": {}}, None),
        ({}, ["a", "b"]),
    ):
        body = {"ruleset": "corvette-command", "options": options} | ({"seats": seats} if seats else {})
        r = client.post("/games", json=body)
        assert r.status_code == 422 and r.json()["code"] in ("invalid-seats", "invalid-options")


def test_an_illegal_command_lists_what_is_legal(client):
    game = new_game(client, ruleset="corvette-command")
    r = client.post(
        f"/games/{game['game_id']}/commands", json={"type": "detect"}, headers=auth(game["seats"][0]["token"])
    )
    assert r.status_code == 409 and r.json()["code"] == "illegal-command"
    assert [x["type"] for x in r.json()["legal"]] == ["choose_start_port"]
    assert "awaits 'choose_start_port'" in r.json()["detail"]  # command types, never the internal decision names
    token = game["seats"][0]["token"]
    gid = game["game_id"]
    client.post(f"/games/{gid}/commands", json={"type": "choose_start_port", "side": "canada"}, headers=auth(token))
    r = client.post(f"/games/{gid}/commands", json={"type": "move_convoy", "to": [0, 9]}, headers=auth(token))
    assert r.status_code == 409 and "cannot enter [0, 9]" in r.json()["detail"]
    (move,) = r.json()["legal"]  # what is legal, in the shape of awaiting: choices with their labels
    assert move["type"] == "move_convoy" and len(move["labels"]) == len(move["choices"]) and move["description"]


def test_a_game_with_its_own_data_set_pins_its_hash(client):
    data = json.loads(DEFAULT.read_text(encoding="utf-8"))
    for u in data["uboats"]:
        u["attack"] = 9  # a harsher deck of one's own
    game = new_game(client, ruleset="corvette-command", options={**SHORT["corvette-command"], "data": data})
    created = client.get(f"/games/{game['game_id']}/events", params={"limit": 1}).json()["events"][0]["data"]
    assert created["ruleset"]["data_sha256"] != RULESETS["corvette-command"].data_sha256
    play_from_awaiting(client, game)
    assert client.post(f"/games/{game['game_id']}/reveal", headers=auth(game["referee_token"])).status_code == 200
    assert (
        client.post("/bundles/verify", json=client.get(f"/games/{game['game_id']}/bundle").json()).json()["verdict"]
        == "verified"
    )


def test_a_data_set_by_file_name_from_the_servers_data_folder(client, tmp_path):
    folder = tmp_path / "sets" / "corvette-command"
    folder.mkdir(parents=True)
    data = json.loads(DEFAULT.read_text(encoding="utf-8"))
    data["about"] = "our club's deck"
    (folder / "club.json").write_text(json.dumps(data), encoding="utf-8")
    client.app.state.service.data_dir = tmp_path / "sets"
    game = new_game(client, ruleset="corvette-command", options={**SHORT["corvette-command"], "data_file": "club.json"})
    created = client.get(f"/games/{game['game_id']}/events", params={"limit": 1}).json()["events"][0]["data"]
    assert created["options"]["data"]["about"] == "our club's deck" and "data_file" not in created["options"]
    r = client.post("/games", json={"ruleset": "corvette-command", "options": {"data_file": "nope"}})
    assert r.status_code == 422 and r.json()["code"] == "unknown-data-file"
    r = client.post("/games", json={"ruleset": "corvette-command", "options": {"data_file": "../../etc/passwd"}})
    assert r.status_code == 422 and r.json()["code"] == "invalid-options"


def test_a_data_set_that_fails_its_schema_is_refused(client):
    r = client.post("/games", json={"ruleset": "corvette-command", "options": {"data": {"about": "x"}}})
    assert r.status_code == 422 and r.json()["code"] == "invalid-data"
    bad = json.loads(DEFAULT.read_text(encoding="utf-8"))
    bad["random_events"] = bad["random_events"][:19]
    r = client.post("/games", json={"ruleset": "corvette-command", "options": {"data": bad}})
    assert r.status_code == 422 and "1..20" in r.json()["detail"]


def test_quick_play_allocates_the_six_dice(client):
    game = new_game(client, ruleset="corvette-command", options={"quick_play": {"direction": "west"}, "year": 1943, "month": 3})
    gid, token = game["game_id"], game["seats"][0]["token"]
    r = client.post(f"/games/{gid}/commands", json={"type": "start"}, headers=auth(token))
    faces = next(e for e in r.json()["events"] if e["type"] == "DiceRolled")["data"]["faces"]
    alloc = next(a for a in client.get(f"/games/{gid}").json()["awaiting"] if a["type"] == "allocate_skills")
    wrong = {"skills": {"lookout": 7, "asdic": 1, "aa": 1, "gun": 1, "depth_charge": 1, "engineer": 1}}
    assert client.post(
        f"/games/{gid}/commands", json={"type": "allocate_skills", **wrong}, headers=auth(token)
    ).status_code in (409, 422)
    choice = (
        alloc["choices"][0]
        if alloc["choices"]
        else {"skills": dict(zip(["lookout", "asdic", "aa", "gun", "depth_charge", "engineer"], faces))}
    )
    r = client.post(f"/games/{gid}/commands", json={"type": "allocate_skills", **choice}, headers=auth(token))
    assert r.status_code == 200
    skills = client.get(f"/games/{gid}/views/ship-log").json()["data"]["escorts"][0]["skills"]
    assert sorted(skills.values()) == sorted(3 if f == 6 else 2 if f >= 4 else 1 for f in faces)
    final = play_from_awaiting(client, game)
    assert final["status"] == "over"
    sheet = client.get(f"/games/{gid}/views/campaign-sheet").json()["data"]
    assert not sheet["convoys"] or sheet["convoys"][0]["result"] in ("Victory", "You did your duty", "Significant loss")
