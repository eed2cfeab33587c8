"""uboat-leader over HTTP: a short campaign played from `awaiting` alone (the README loop), every view at any `?at=`
in its declared shape, labels for every choice, and a bundle that verifies."""

from __future__ import annotations

import msgspec

from domain.uboat_leader import views
from service.replay import verify
from tests.conftest import auth, new_game, seated
from tests.drivers import SHORT, first_choices

FLEET = [
    {"boat": "U-43", "level": "trained", "port": "germany"},
    {"boat": "U-47", "level": "trained", "port": "germany"},
    {"boat": "U-51", "level": "trained", "port": "germany"},
    {"boat": "U-56", "level": "ace", "port": "germany"},
]


def test_a_short_campaign_over_http_from_awaiting_alone_then_every_view_and_a_verified_bundle(client):
    svc = client.app.state.service  # a fixed game id: the game seed includes it, so the whole game is certain
    made = svc.creation.create(
        "uboat-leader", SHORT["uboat-leader"], None, "public-seed", "5e" * 32, None, None, game_id="ub-1"
    )
    game = seated(made)
    gid, token = game["game_id"], game["seats"][0]["token"]
    first = client.get(f"/games/{gid}").json()["awaiting"]
    assert [a["type"] for a in first] == ["select_uboats"] and first[0]["choices"] is None
    boat_enum = first[0]["schema"]["properties"]["picks"]["items"]["properties"]["boat"]["enum"]
    assert boat_enum == ["U-23", "U-43", "U-47", "U-51", "U-56"], "the schema is narrowed to the eligible boats"
    r = client.post(f"/games/{gid}/commands", json={"type": "select_uboats", "picks": FLEET}, headers=auth(token))
    assert r.status_code == 200, r.text
    sent = first_choices(client, game, 2000)
    summary = client.get(f"/games/{gid}").json()
    assert summary["status"] == "over" and {"move", "activate", "roll_contacts"} <= {c["type"] for c, _ in sent}

    sheet = client.get(f"/games/{gid}/views/campaign-sheet").json()["data"]
    assert sheet["result"] in [lv["name"] for lv in sheet["levels"]] and sheet["so"] == "3"
    assert [b["boat"] for b in sheet["boats"]] == ["U-43", "U-47", "U-51", "U-56"]
    log = client.get(f"/games/{gid}/views/uboat-log").json()["data"]["boats"]
    assert log["U-47"]["history"][0]["text"].startswith("joins the flotilla")
    assert all((b["fate"], b["patrols"]) in (("retired", 1), ("sunk", 0)) for b in log.values())

    version = summary["version"]
    for at in range(2, version + 1, max(1, version // 25)):
        for name, view in views.VIEWS.items():
            r = client.get(f"/games/{gid}/views/{name}", params={"at": at})
            assert r.status_code == 200, (name, at, r.text)
            data = r.json()["data"]
            assert msgspec.to_builtins(msgspec.convert(data, view.model)) == data, f"{name} at {at}: undeclared fields"

    client.post(f"/games/{gid}/reveal", headers=auth(game["referee_token"]))
    bundle = client.get(f"/games/{gid}/bundle").content
    assert verify(bundle)["verdict"] == "verified"


def test_the_decks_view_shows_counts_and_discards_only(client):
    game = new_game(client, ruleset="uboat-leader")
    gid = game["game_id"]
    data = client.get(f"/games/{gid}/views/decks").json()["data"]
    assert [d["deck"] for d in data["decks"]] == [
        "events",
        "convoys",
        "merchants",
        "escorts",
        "fleet",
        "naval",
        "tactics",
    ]
    assert set(data["decks"][0]) == {"deck", "remaining", "in_play", "discards"}
    assert data["decks"][1]["remaining"] == 8


def test_a_refused_command_says_why_and_lists_what_is_legal(client):
    game = new_game(client, ruleset="uboat-leader")
    gid, token = game["game_id"], game["seats"][0]["token"]
    r = client.post(f"/games/{gid}/commands", json={"type": "end_strategic"}, headers=auth(token))
    assert r.status_code == 409 and "select_uboats" in r.json()["detail"]
    r = client.post(
        f"/games/{gid}/commands",
        json={"type": "select_uboats", "picks": [{"boat": "U-47", "level": "ace", "port": "germany"}] * 2},
        headers=auth(token),
    )
    assert r.status_code == 409 and "selected once" in r.json()["detail"]
    assert client.get(f"/games/{gid}").json()["version"] == 1, "nothing was appended"
