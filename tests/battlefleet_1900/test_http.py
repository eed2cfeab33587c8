"""battlefleet-1900 over HTTP: two tokens, each seeing only what its seat may see (BATTLEFLEET §4), the referee
everything; nothing sealed in a public response before its time; the finished bundle verifies."""

from __future__ import annotations

import json

import pytest

from tests.conftest import auth, new_game, read, send

VIEWS = ("ship-log", "gunnery-log", "table", "phase")


@pytest.fixture
def battle(client):
    return new_game(client, {"scenario": "torpedo-attack"}, ruleset="battlefleet-1900")


def public_text(client, g) -> str:
    """Every response a reader without a token gets about the game: summary, events, stream, rolls, bundle, views,
    errors (a wrong view, a wrong roll, commands without a token or with a forged one) and the OpenAPI."""
    paths = ["", "/events?limit=1000", "/rolls?limit=1000", "/bundle", "/events/stream?timeout=0"]
    paths += [f"/views/{v}" for v in VIEWS] + ["/views/nope", "/rolls/999999", "/me"]
    texts = [read(client, g, p).text for p in paths]
    for headers in ({}, auth("forged")):
        for body in ({"type": "move"}, {"type": "fire", "salvos": "x"}, {"type": "no-such"}):
            texts.append(client.post(f"/games/{g['game_id']}/commands", headers=headers, json=body).text)
    texts.append(client.get("/openapi.json").text)
    return "\n".join(texts)


def seat_text(client, g, seat) -> str:
    return "\n".join(read(client, g, p, seat).text for p in ["", "/bundle"] + [f"/views/{v}" for v in VIEWS])


def exact_poses(client, g) -> list[str]:
    bases = read(client, g, "/views/table", "referee").json()["data"]["bases"]
    return [f'"x":{b["pose"]["x"]},"y":{b["pose"]["y"]},"h":{b["pose"]["h"]}' for b in bases]


def test_two_tokens_see_only_their_own_and_the_public_sees_nothing_sealed(client, battle):
    g = battle
    send(client, g, "japan", {"type": "start", "ships": [{"ship": "Ikazuchi", "torpedo_depth": "shallow"}]})
    send(client, g, "russia", {"type": "start"})
    note = "Togo-to-Vitgeft-7731"
    send(client, g, "japan", {"type": "give_orders", "messages": [{"to_seat": "russia", "text": note}]})
    send(client, g, "russia", {"type": "give_orders"})
    send(client, g, "japan", {"type": "move", "divisions": [{"division": "D1", "distance_mm": 234}]})
    send(client, g, "russia", {"type": "move"})
    salvo = {"ship": "Ikazuchi", "target": "Poltava", "estimate_mm": 777, "guns": [{"mount": "stem"}]}
    send(client, g, "japan", {"type": "fire", "salvos": [salvo]})

    public = public_text(client, g)
    estimate = '"estimate_mm":777'
    shallow = '"torpedo_depth":"shallow"'
    assert note not in public and shallow not in public and estimate not in public
    for pose in exact_poses(client, g):  # fog blur: no exact pose of anyone is public
        assert pose not in public.replace(" ", "")
    japan, russia = seat_text(client, g, "japan"), seat_text(client, g, "russia")
    assert estimate in japan and estimate not in russia  # Japan reads its own sealed estimate
    assert shallow in japan and shallow not in russia
    assert note in japan  # the sender's copy; the addressee's after its flagship reads it (BF-R12)
    phase = read(client, g, "/views/phase").json()["data"]
    assert phase["waiting_for"] == ["russia"] and [s["seat"] for s in phase["submitted"]] == ["japan"]
    own = read(client, g, "/views/table", "japan").json()["data"]["bases"]
    assert all(b["pose"]["exact"] == (b["seat"] == "japan") for b in own)
    assert all(b["pose"] is None for b in read(client, g, "/views/table").json()["data"]["bases"])

    # Russia fires: the estimates open and are measured; then concede: every seal opens, the bundle verifies.
    out = send(client, g, "russia", {"type": "fire"})
    assert any(e["type"] == "SalvoMeasured" and e["data"]["estimate"] == 777 for e in out["events"])
    # docs/api.md "One event object": the resolution of a simultaneous step is the last sender's (Japan's salvo
    # measured included), but a sealed record names the seat it is sealed to
    resolved = read(client, g, f"/events?after={out['events'][0]['seq'] - 1}&limit=1000", "referee").json()["events"]
    assert any(e["type"] == "SalvoMeasured" and e["actor"] == "russia" for e in resolved)
    assert all(e["actor"] == (e["data"]["seat"] if e["type"] == "SubmissionSealed" else "russia") for e in resolved)
    assert {e["actor"] for e in resolved if e["type"] == "SubmissionSealed"} - {"russia"}, "a record sealed to another"
    send(client, g, "russia", {"type": "concede"})
    assert note in public_text(client, g) and shallow in public_text(client, g)
    r = client.post(f"/games/{g['game_id']}/reveal", headers=auth(g["referee_token"]))
    assert r.status_code == 200, r.text
    report = client.post(
        "/bundles/verify", content=read(client, g, "/bundle").content, headers={"Content-Type": "application/json"}
    ).json()
    assert report["verdict"] == "verified", json.dumps(report)[:2000]
    assert report["checks"]["sealed"]["unrevealed"] == []


def test_an_illegal_command_says_why_and_what_is_legal(client, battle):
    g = battle
    r = client.post(f"/games/{g['game_id']}/commands", headers=auth(g["tokens"]["japan"]), json={"type": "move"})
    body = r.json()
    assert r.status_code == 409 and body["code"] == "illegal-command" and "start" in json.dumps(body)
    send(client, g, "japan", {"type": "start"})
    r = client.post(
        f"/games/{g['game_id']}/commands",
        headers=auth(g["tokens"]["russia"]),
        json={"type": "start", "ships": [{"ship": "Poltava", "torpedo_depth": "shallow"}]},
    )
    assert r.status_code == 409 and "surface skimmers" in r.json()["detail"]


def test_solo_play_against_the_machine(client):
    g = new_game(client, {"turns": 1}, ruleset="battlefleet-1900", bots=["russia"])
    for _ in range(20):
        summary = read(client, g, "", "japan").json()
        mine = [a for a in summary["awaiting"] if a["type"] != "concede" and "japan" in a["seats"]]
        if not mine:
            break
        send(client, g, "japan", {"type": mine[0]["type"]})
    phase = read(client, g, "/views/phase").json()["data"]
    assert phase["now"]["over"] and phase["now"]["result"] in ("japan", "russia", "draw")
