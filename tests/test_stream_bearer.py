"""The event stream read with `Authorization: Bearer <token>`, as every other read of a game is (a new user's trial:
the stream ignored the header, even an invalid token, and read as the public, so a bot sending its token as it does
everywhere else never saw its own entry of a sealed step and waited for good). docs/api.md "The stream": a token
reads as its reader (401 for one not of this game's), a ticket still works, and both together must name the same
reader; a stream read with a token closes once the token is rotated, and takes no lease (a ticket's one-stream rule
is the ticket's)."""

from __future__ import annotations

import json
import time

import httpx

from tests.conftest import auth
from tests.live import server_process
from tests.sse import on_message_only

BF = {"ruleset": "battlefleet-1900", "options": {"scenario": "yellow-sea-1904"}}
ORDER = {"type": "start", "ships": [{"ship": "Mikasa", "boat_guns_manned": False}]}  # japan's sealed setup
SEALED = '"sealed":{"content":'


def battle(client, **extra) -> dict:
    """A Battlefleet game in its sealed setup step, japan's `start` in and russia's still owed."""
    g = client.post("/games", json={**BF, **extra}).json()
    g["tokens"] = {s["seat"]: s["token"] for s in g["seats"]}
    r = client.post(f"/games/{g['game_id']}/commands", json=ORDER, headers=auth(g["tokens"]["japan"]))
    assert r.status_code == 200, r.text
    return g


def stream(client, g: dict, token: str | None = None, ticket_of: str | None = None) -> httpx.Response:
    params = {"timeout": 0}
    if ticket_of is not None:
        made = client.post(f"/games/{g['game_id']}/tickets", headers=auth(ticket_of))
        params["ticket"] = made.json()["ticket"]
    return client.get(f"/games/{g['game_id']}/events/stream", params=params, headers=auth(token) if token else {})


def last_state(r: httpx.Response) -> dict:
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream"), r.text
    return [m for m in on_message_only(r.text) if m["message"] == "state"][-1]


def test_a_seats_token_in_the_header_reads_the_stream_as_that_seat(client):
    g = battle(client)
    japan, russia = g["tokens"]["japan"], g["tokens"]["russia"]
    # russia owes its sealed start: its own stream says so, as its summary does; the public's does not
    owed = client.get(f"/games/{g['game_id']}", headers=auth(russia)).json()["awaiting"]
    assert [a["type"] for a in owed][:1] == ["start"]
    assert last_state(stream(client, g, russia))["awaiting"] == owed
    assert not any(a["type"] == "start" for a in last_state(stream(client, g, None))["awaiting"])
    # japan's own sealed setup is in its stream read with its token, byte for byte as with its ticket; russia's and
    # the public's show the commitment only
    by_token, by_ticket = stream(client, g, japan), stream(client, g, ticket_of=japan)
    assert by_token.status_code == by_ticket.status_code == 200
    assert by_token.text == by_ticket.text and SEALED in by_token.text
    sealed = [m["event"] for m in on_message_only(by_token.text) if m["message"] == "event" and "sealed" in m["event"]]
    assert sealed[0]["sealed"]["content"]["ships"][0]["boat_guns_manned"] is False
    for other in (stream(client, g, russia), stream(client, g, None)):
        assert other.status_code == 200 and SEALED not in other.text and '"salt"' not in other.text


def test_a_token_not_of_this_game_is_401_on_the_stream_as_on_every_read(client):
    g, other = battle(client), battle(client)
    rotated = client.post("/games", json=BF).json()
    old = rotated["seats"][0]["token"]
    assert client.post(f"/games/{rotated['game_id']}/token", headers=auth(old)).status_code == 201
    for game, token in [(g, "nope"), (g, other["tokens"]["japan"]), (g, other["referee_token"]), (rotated, old)]:
        r = stream(client, game, token)
        assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json", r.text
        assert r.json()["code"] == "invalid-token" and r.headers["www-authenticate"].startswith("Bearer")
        read = client.get(f"/games/{game['game_id']}/events", headers=auth(token))
        assert (read.status_code, read.json()["code"], read.json()["detail"]) == (401, "invalid-token", r.json()["detail"])


def test_a_ticket_still_opens_the_stream_and_with_a_token_both_must_name_one_reader(client):
    g = battle(client)
    japan, russia = g["tokens"]["japan"], g["tokens"]["russia"]
    alone = stream(client, g, ticket_of=japan)  # as a browser's EventSource opens it: no header
    assert alone.status_code == 200 and SEALED in alone.text
    both = stream(client, g, japan, ticket_of=japan)  # a client that sends its token on every request
    assert both.status_code == 200 and both.text == alone.text
    ticket = client.post(f"/games/{g['game_id']}/tickets", headers=auth(russia)).json()["ticket"]
    path = f"/games/{g['game_id']}/events/stream"
    mixed = client.get(path, params={"ticket": ticket, "timeout": 0}, headers=auth(japan))
    assert mixed.status_code == 400 and mixed.headers["content-type"] == "application/problem+json"
    assert mixed.json()["code"] == "reader-conflict" and "send one of them" in mixed.json()["detail"]
    # refused before its lease was taken: the ticket opens russia's stream now
    assert SEALED not in client.get(path, params={"ticket": ticket, "timeout": 0}).text
    bad_token = client.get(path, params={"ticket": ticket, "timeout": 0}, headers=auth("nope"))
    assert bad_token.status_code == 401 and bad_token.json()["code"] == "invalid-token"
    bad_ticket = client.get(path, params={"ticket": ticket + "x", "timeout": 0}, headers=auth(russia))
    assert bad_ticket.status_code == 401 and bad_ticket.json()["code"] == "invalid-ticket"
    both_bad = client.get(path, params={"ticket": ticket + "x", "timeout": 0}, headers=auth("nope"))
    assert both_bad.status_code == 401 and both_bad.json()["code"] == "invalid-token"  # the token is checked first


def test_the_readers_are_compared_before_the_tickets_lease_is_asked(client):
    """docs/api.md "The stream": a token and a ticket of different readers are 400 `reader-conflict` even while the
    ticket's stream is open (its lease held), and take nothing; the ticket's own reader then hears 409 `ticket-in-use`,
    and the ticket opens a stream once the lease is freed."""
    g = battle(client)
    japan, russia = g["tokens"]["japan"], g["tokens"]["russia"]
    ticket = client.post(f"/games/{g['game_id']}/tickets", headers=auth(russia)).json()["ticket"]
    path, params = f"/games/{g['game_id']}/events/stream", {"ticket": ticket, "timeout": 0}
    seat, close = client.app.state.service.credentials.open_stream(g["game_id"], ticket)  # a stream open with it
    assert seat == "russia"
    mixed = client.get(path, params=params, headers=auth(japan))
    assert mixed.status_code == 400 and mixed.json()["code"] == "reader-conflict", mixed.text
    held = client.get(path, params=params, headers=auth(russia))
    assert held.status_code == 409 and held.json()["code"] == "ticket-in-use", held.text
    close()
    mine = client.get(path, params=params, headers=auth(russia))
    assert mine.status_code == 200 and SEALED not in mine.text


def test_the_referees_token_reads_the_stream_as_its_game_says(client):
    umpired, unumpired = battle(client), battle(client, umpired=False)
    everything = stream(client, umpired, umpired["referee_token"])
    assert everything.status_code == 200 and SEALED in everything.text
    public = stream(client, unumpired, None)
    assert stream(client, unumpired, unumpired["referee_token"]).text == public.text and SEALED not in public.text


def test_a_bearer_stream_takes_no_lease_and_closes_once_its_token_is_rotated(tmp_path):
    """Two streams with one token are two reads (a ticket's one-stream rule is the ticket's, as its URL may be seen
    in a log). Rotating the token closes its open streams before they send anything more, as a ticket's."""
    with server_process(str(tmp_path / "b.db")) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = battle(c)
            gid, japan, russia = g["game_id"], g["tokens"]["japan"], g["tokens"]["russia"]
            version = c.get(f"/games/{gid}").json()["version"]
            url = f"/games/{gid}/events/stream"
            with (
                httpx.Client(base_url=base, timeout=30) as first,
                first.stream("GET", url, params={"timeout": 60}, headers=auth(japan)) as live,
                httpx.Client(base_url=base, timeout=30) as second,
                second.stream("GET", url, params={"timeout": 60}, headers=auth(japan)) as also,
            ):
                assert live.status_code == also.status_code == 200
                lines = live.iter_lines()
                seen = []
                for line in lines:  # up to the state at the version reached
                    seen.append(line)
                    if line.startswith("data: ") and json.loads(line[6:])["message"] == "state":
                        break
                assert SEALED in "\n".join(seen)
                assert c.post(f"/games/{gid}/token", headers=auth(japan)).status_code == 201
                moved = c.post(f"/games/{gid}/commands", json={"type": "start"}, headers=auth(russia))
                assert moved.status_code == 200 and moved.json()["version"] > version
                started = time.monotonic()
                after = list(lines)  # the stream ends: nothing of the events after the rotation
                assert time.monotonic() - started < 20
                assert not [x for x in after if x.startswith("data: ")], after


def test_rotating_the_token_closes_its_idle_streams_at_once(tmp_path):
    """A players' trial: a stream whose token was rotated stayed open, sending keep-alives, until the game next moved
    (it looked at its token only before sending events). The rotation wakes the game's streams, which look again."""
    with server_process(str(tmp_path / "idle.db")) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            g = battle(c)
            gid, japan = g["game_id"], g["tokens"]["japan"]
            url = f"/games/{gid}/events/stream"
            with (
                httpx.Client(base_url=base, timeout=30) as reader,
                reader.stream("GET", url, params={"timeout": 600}, headers=auth(japan)) as live,
            ):
                lines = live.iter_lines()
                for line in lines:  # up to the state at the version reached
                    if line.startswith("data: ") and json.loads(line[6:])["message"] == "state":
                        break
                assert c.post(f"/games/{gid}/token", headers=auth(japan)).status_code == 201
                started = time.monotonic()
                after = list(lines)  # it ends, though the game has not moved
                assert time.monotonic() - started < 120, "the stream stayed open after its token was rotated"
                assert not [x for x in after if x.startswith("data: ")], after
