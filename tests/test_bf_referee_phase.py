"""Battlefleet's `phase` view as the referee of an umpired game reads it (a new user's trial): docs/api.md "the referee
of an umpired game sees everything", docs/desk.md "Referee view: everything, sealed records included", yet the view
gave the referee `mine: null`, commitments alone and no messages, while the same token read the orders in /events.
The referee's view shows each seat's sealed submission (`submitted[].orders`, what that seat sees of its own in
`mine`); a seat's view and the public's are byte for byte what they were, and an unumpired game's referee reads the
public's."""

from __future__ import annotations

import json

from tests.conftest import auth

BF = {"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"}}
START = {"type": "start", "ships": [{"ship": "Mikasa", "boat_guns_manned": False}]}
ORDERS = {"type": "give_orders", "messages": [{"to_seat": "russia", "text": "ZEBRA-SECRET-42"}]}


def battle(client, **extra) -> dict:
    g = client.post("/games", json={**BF, **extra}).json()
    g["tokens"] = {s["seat"]: s["token"] for s in g["seats"]} | {"referee": g["referee_token"]}
    return g


def send(client, g: dict, seat: str, body: dict) -> None:
    r = client.post(f"/games/{g['game_id']}/commands", json=body, headers=auth(g["tokens"][seat]))
    assert r.status_code == 200, r.text


def phase(client, g: dict, who: str | None) -> dict:
    r = client.get(f"/games/{g['game_id']}/views/phase", headers=auth(g["tokens"][who]) if who else {})
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_the_umpires_phase_view_shows_every_seats_sealed_submission_and_no_one_elses_does(client):
    g = battle(client)
    send(client, g, "japan", START)
    ref = phase(client, g, "referee")
    japan, russia, public = (phase(client, g, who) for who in ("japan", "russia", None))
    own = japan["mine"]
    assert own["type"] == "start" and own["ships"][0]["ship"] == "Mikasa" and own["ships"][0]["boat_guns_manned"] is False
    assert ref["mine"] is None and [x["seat"] for x in ref["submitted"]] == ["japan"]
    assert ref["submitted"][0]["orders"] == own  # what japan sees of its own
    commitments = [{"seat": "japan", "commitment": ref["submitted"][0]["commitment"]}]
    for view in (japan, russia, public):  # as before: commitments only, the seat's own in `mine`
        assert view["submitted"] == commitments
    assert russia["mine"] is None and public["mine"] is None
    assert "boat_guns_manned" not in json.dumps(russia) + json.dumps(public)

    send(client, g, "russia", {"type": "start"})  # the battle begins: turn 1's orders, japan's with a fleet order
    send(client, g, "japan", ORDERS)
    ref = phase(client, g, "referee")
    (japan_in,) = ref["submitted"]
    assert japan_in["seat"] == "japan" and japan_in["orders"]["type"] == "give_orders"
    assert japan_in["orders"]["messages"] == [{"to_seat": "russia", "text": "ZEBRA-SECRET-42", "signal": None}]
    assert japan_in["orders"] == phase(client, g, "japan")["mine"]
    for who in ("russia", None):  # the message is sealed until the rules deliver it (BF-R12)
        view = phase(client, g, who)
        assert "ZEBRA" not in json.dumps(view) and all("orders" not in x for x in view["submitted"])
        assert view["mine"] is None
    # the same reader's /events shows the same sealed content (the view no longer tells the umpire less)
    events = client.get(f"/games/{g['game_id']}/events", params={"limit": 1000}, headers=auth(g["tokens"]["referee"]))
    assert "ZEBRA-SECRET-42" in events.text


def test_an_unumpired_games_referee_reads_the_phase_view_as_the_public(client):
    g = battle(client, umpired=False)
    send(client, g, "japan", START)
    assert phase(client, g, "referee") == phase(client, g, None)
    assert all("orders" not in x for x in phase(client, g, "referee")["submitted"])
    assert phase(client, g, None)["submitted"][0]["seat"] == "japan"
