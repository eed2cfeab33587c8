"""The HTTP API (spec/API.md): the happy path, and every error code as problem+json that changes nothing."""

from __future__ import annotations

import hashlib

import pytest
from fastapi.testclient import TestClient

from domain import engine
from service.app import create_app
from tests.conftest import auth, new_game, read, send, to_german_combat
from tests.sse import on_message_only
from tests.uboat_leader.scenario import legal as ul_legal
from tests.uboat_leader.scenario import new_state as ul_state
from tests.uboat_leader.scenario import send as ul_send

SUBS = {"submarines": {"Germany": {"7": 2}}}


def assert_problem(r, status: int, code: str):
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    p = r.json()
    assert p["code"] == code and p["status"] == status and p["detail"] and p["title"]
    return p


def unchanged(client, gid):
    s = client.get(f"/games/{gid}").json()
    return s["version"], s["head"]


# ---- the happy path ------------------------------------------------------------------------------


def test_create_play_read_reveal_bundle_verify(client):
    g = new_game(client, SUBS)
    assert g["dice"]["mode"] == "fair" and len(g["dice"]["server_commit"]) == 64
    assert {s["seat"] for s in g["seats"]} == {"USSR", "Germany", "UK", "Japan", "USA"}
    gid = g["game_id"]
    to_german_combat(client, g)
    summary = client.get(f"/games/{gid}").json()
    raid = next(a for a in summary["awaiting"] if a["type"] == "raid")
    assert raid["seats"] == ["Germany"] and raid["choices"] == [{"sz": 7}] and raid["schema"] is None  # choices say it
    static = next(c for c in client.get("/rulesets/aa1942-convoy").json()["commands"] if c["type"] == "raid")
    assert static["schema"]["required"] == ["sz"]
    out = send(client, g, "Germany", type="raid", **raid["choices"][0])
    assert [e["type"] for e in out["events"]] == ["DiceRolled", "ConvoyRaided"]
    assert out["version"] == summary["version"] + 2
    roll = client.get(f"/games/{gid}/rolls/0").json()
    assert roll["purpose"] == "convoy-raid" and roll["verification"]["status"] == "pending"
    # who sent the command that rolled it, as its event says (a referee's trial had to read GET /events for it)
    assert (roll["command"], roll["sent_by"]) == (out["events"][0]["command"], "Germany") == (
        out["command_id"], out["events"][0]["actor"]
    )
    board = client.get(f"/games/{gid}/views/sz-status").json()["data"]
    sz7 = next(z for z in board["convoy_zones"] if z["sz"] == 7)
    assert sz7["chips"] == out["events"][1]["data"]["damage"]
    rev = client.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"]))
    assert rev.status_code == 200
    seed = rev.json()["events"][-1]["data"]["server_seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == g["dice"]["server_commit"]
    assert client.get(f"/games/{gid}/rolls/0").json()["verification"]["status"] == "verified"
    assert client.get(f"/games/{gid}").json()["awaiting"] == []
    bundle = client.get(f"/games/{gid}/bundle").json()
    report = client.post("/bundles/verify", json=bundle).json()
    assert report["verdict"] == "verified", report


def test_views_at_a_past_seq(client):
    g = new_game(client, SUBS)
    gid = g["game_id"]
    to_german_combat(client, g)
    before = client.get(f"/games/{gid}").json()["version"]
    send(client, g, "Germany", type="raid", sz=7)
    then = client.get(f"/games/{gid}/views/ipc-ledger", params={"at": before}).json()
    now = client.get(f"/games/{gid}/views/ipc-ledger").json()
    uk = lambda v: next(p for p in v["data"]["powers"] if p["power"] == "UK")  # noqa: E731
    assert then["at"] == before and uk(then)["treasury"] == 31
    assert uk(now)["treasury"] < 31
    sheet = client.get(f"/games/{gid}/views/campaign-sheet").json()["data"]
    assert sheet["rounds"][0]["powers"][1]["raids"] == 1


def test_events_are_paged_and_chain(client):
    g = new_game(client)
    gid = g["game_id"]
    send(client, g, "USSR", type="purchase", spend=1)
    page1 = client.get(f"/games/{gid}/events", params={"limit": 2}).json()
    page2 = client.get(f"/games/{gid}/events", params={"after": page1["next_after"]}).json()
    seqs = [e["seq"] for e in page1["events"] + page2["events"]]
    assert seqs == list(range(1, page2["version"] + 1))
    assert page2["events"][-1]["hash"] == page2["head"]


def test_sse_stream_sends_the_log_and_resumes_after_last_event_id(client):
    g = new_game(client)
    gid = g["game_id"]
    send(client, g, "USSR", type="purchase", spend=1)
    r = client.get(f"/games/{gid}/events/stream", params={"timeout": 0})
    assert r.headers["content-type"].startswith("text/event-stream")
    def seqs(text):
        return [m["event"]["seq"] for m in on_message_only(text) if m["message"] == "event"]

    assert seqs(r.text) == [1, 2, 3, 4]
    r = client.get(f"/games/{gid}/events/stream", params={"timeout": 0}, headers={"Last-Event-ID": "2"})
    assert seqs(r.text) == [3, 4]


def test_client_seeds_are_locked_into_the_game_seed(client):
    g = new_game(client)
    gid, tok = g["game_id"], g["tokens"]
    r = client.post(f"/games/{gid}/seeds", json={"passphrase": "Scapa Flow"}, headers=auth(tok["UK"]))
    assert r.status_code == 200
    send(client, g, "USSR", type="purchase", spend=0)
    lock = next(e for e in client.get(f"/games/{gid}/events").json()["events"] if e["type"] == "SeedLocked")
    uk = hashlib.sha256("Scapa Flow".encode()).hexdigest()
    assert lock["data"]["client_seeds"][2] == uk
    assert lock["data"]["server_only"] == ["USSR", "Germany", "Japan", "USA"]


def test_public_seed_mode_takes_the_creators_seed_and_says_so(client):
    seed = "11" * 32
    g = new_game(client, dice={"mode": "public-seed", "server_seed": seed})
    assert g["dice"]["server_commit"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    s = client.get(f"/games/{g['game_id']}").json()
    assert s["dice"]["mode"] == "public-seed" and "no fairness claim" in s["dice"]["fairness"]


def test_rulesets_are_listed(client):
    listed = {r["id"]: r for r in client.get("/rulesets").json()}
    assert set(listed) >= {"aa1942-convoy", "corvette-command"}
    r = listed["aa1942-convoy"]
    assert "raid" in [c["type"] for c in r["commands"]]
    assert {"detect", "drop_pattern", "move_convoy"} <= {c["type"] for c in listed["corvette-command"]["commands"]}
    assert {v["name"] for v in r["views"]} == {"ipc-ledger", "sz-status", "campaign-sheet", "map"}
    assert client.get("/rulesets/aa1942-convoy").json()["data_sha256"] == r["data_sha256"]


def test_a_lobby_learns_the_seats_a_game_gets_with_its_options_before_creating_it(client):
    """GET /rulesets/{id}/seats: the seats POST /games gives with these options (corvette-command's two_player makes
    two escorts), the same as the game made with them gets; options the ruleset does not take are 422 as at POST
    /games."""
    two = client.get("/rulesets/corvette-command/seats", params={"options": '{"two_player": true}'})
    assert two.status_code == 200 and two.json() == {"ruleset": "corvette-command", "seats": ["escort-a", "escort-b"]}
    assert client.get("/rulesets/corvette-command/seats").json()["seats"] == ["captain"]
    made = client.post("/games", json={"ruleset": "corvette-command", "options": {"two_player": True}}).json()
    assert [s["seat"] for s in made["seats"]] == two.json()["seats"]
    for options, code in [('{"crew": 3}', "invalid-options"), ("[1]", "invalid-options"), ("{", "invalid-json")]:
        r = client.get("/rulesets/corvette-command/seats", params={"options": options})
        assert r.status_code == 422 and r.json()["code"] == code, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    deep = client.get("/rulesets/corvette-command/seats", params={"options": "[" * 2000 + "]" * 2000}).json()
    assert deep["code"] == "invalid-json" and deep["detail"].startswith("`options` is not usable JSON (nested too deeply)")
    assert client.get("/rulesets/nope/seats").json()["code"] == "unknown-ruleset"


# ---- idempotency and concurrency control --------------------------------------------------------


def test_same_command_id_same_payload_returns_the_original_and_appends_nothing(client):
    g = new_game(client)
    gid = g["game_id"]
    first = send(client, g, "USSR", type="purchase", spend=3, command_id="buy-1")
    again = send(client, g, "USSR", type="purchase", spend=3, command_id="buy-1")
    assert again["replayed"] is True and again["events"] == first["events"] and again["version"] == first["version"]
    assert client.get(f"/games/{gid}").json()["version"] == first["version"]


def test_same_command_id_other_payload_is_409(client):
    g = new_game(client)
    gid, t = g["game_id"], g["tokens"]["USSR"]
    send(client, g, "USSR", type="purchase", spend=3, command_id="buy-1")
    before = unchanged(client, gid)
    r = client.post(f"/games/{gid}/commands", json={"type": "end_phase", "command_id": "buy-1"}, headers=auth(t))
    assert_problem(r, 409, "command-id-reused")
    assert unchanged(client, gid) == before


def test_expected_version_mismatch_is_409_and_changes_nothing(client):
    g = new_game(client)
    gid, t = g["game_id"], g["tokens"]["USSR"]
    before = unchanged(client, gid)
    r = client.post(
        f"/games/{gid}/commands", json={"type": "purchase", "spend": 1, "expected_version": 99}, headers=auth(t)
    )
    p = assert_problem(r, 409, "version-conflict")
    assert p["version"] == before[0]
    assert unchanged(client, gid) == before
    assert send(client, g, "USSR", type="purchase", spend=1, expected_version=before[0])["version"] > before[0]


# ---- every error code --------------------------------------------------------------------------


def test_illegal_command_lists_what_is_legal(client):
    g = new_game(client)
    gid = g["game_id"]
    before = unchanged(client, gid)
    r = client.post(f"/games/{gid}/commands", json={"type": "raid", "sz": 7}, headers=auth(g["tokens"]["USSR"]))
    p = assert_problem(r, 409, "illegal-command")
    assert {x["type"] for x in p["legal"]} == {"purchase", "end_game"}
    assert unchanged(client, gid) == before


@pytest.mark.parametrize(
    "body,code",
    [
        ({"type": "raid"}, "invalid-command"),
        ({"type": "no_such"}, "invalid-command"),
        ({"type": "purchase", "spend": -1}, "invalid-command"),
        ({"type": "purchase", "spend": 1, "extra": 1}, "invalid-command"),
        ({"type": "purchase", "spend": 1, "command_id": "bad id!"}, "invalid-command-id"),
        ({"type": "purchase", "spend": 1, "expected_version": "x"}, "invalid-expected-version"),
        ([1, 2], "invalid-command"),
    ],
)
def test_malformed_commands_are_422(client, body, code):
    g = new_game(client)
    gid = g["game_id"]
    before = unchanged(client, gid)
    p = assert_problem(client.post(f"/games/{gid}/commands", json=body, headers=auth(g["tokens"]["USSR"])), 422, code)
    assert unchanged(client, gid) == before
    if code == "invalid-command" and isinstance(body, dict):  # it says where the legal arguments are written
        assert "GET /games/{id}" in p["detail"] and "GET /rulesets/{id}" in p["detail"]


def test_body_that_is_not_json_is_422(client):
    g = new_game(client)
    headers = auth(g["tokens"]["USSR"]) | {"Content-Type": "application/json"}
    r = client.post(f"/games/{g['game_id']}/commands", content=b"{nope", headers=headers)
    assert_problem(r, 422, "invalid-json")


def test_a_body_that_is_not_declared_json_is_415(client):
    g = new_game(client)
    url = f"/games/{g['game_id']}/commands"
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = auth(g["tokens"]["USSR"]) | ({"Content-Type": content_type} if content_type else {})
        assert_problem(client.post(url, content=b'{"type":"purchase","spend":0}', headers=headers), 415, "unsupported-media-type")
    ok = client.post(url, content=b'{"type":"purchase","spend":0}', headers=auth(g["tokens"]["USSR"]) | {"Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 200, ok.text


def test_authorization(client):
    g = new_game(client)
    gid = g["game_id"]
    before = unchanged(client, gid)
    url = f"/games/{gid}/commands"
    body = {"type": "purchase", "spend": 0}
    assert_problem(client.post(url, json=body), 401, "missing-token")
    assert_problem(client.post(url, json=body, headers=auth("forged")), 401, "invalid-token")
    wrong_seat = client.post(url, json=body, headers=auth(g["tokens"]["UK"]))
    assert_problem(wrong_seat, 403, "not-your-turn")
    assert wrong_seat.json()["detail"] == "'purchase' is awaited now from USSR only, not from 'UK'"
    assert_problem(client.post(url, json=body, headers=auth(g["referee_token"])), 403, "not-your-turn")
    other = new_game(client)
    assert_problem(client.post(url, json=body, headers=auth(other["tokens"]["USSR"])), 401, "invalid-token")
    assert_problem(client.post(f"/games/{gid}/reveal", headers=auth(g["tokens"]["USSR"])), 403, "referee-only")
    assert_problem(
        client.post(f"/games/{gid}/seeds", json={"passphrase": "x"}, headers=auth(g["referee_token"])),
        403,
        "not-a-seat",
    )
    assert unchanged(client, gid) == before


def test_seed_errors(client):
    g = new_game(client)
    gid, tok = g["game_id"], g["tokens"]
    url = f"/games/{gid}/seeds"
    assert_problem(client.post(url, json={}, headers=auth(tok["UK"])), 422, "invalid-client-seed")
    upper = client.post(url, json={"client_seed": "AB" * 32}, headers=auth(tok["UK"]))
    assert_problem(upper, 422, "invalid-request")
    assert "(64 lowercase hex characters)" in upper.json()["detail"]  # the pattern in words, not the regex alone
    assert client.post(url, json={"client_seed": "ab" * 32}, headers=auth(tok["UK"])).status_code == 200
    assert_problem(
        client.post(url, json={"client_seed": "cd" * 32}, headers=auth(tok["UK"])), 409, "seed-already-contributed"
    )
    send(client, g, "USSR", type="purchase", spend=0)
    assert_problem(client.post(url, json={"passphrase": "late"}, headers=auth(tok["USA"])), 409, "seed-locked")


def test_no_client_seed_after_the_end_and_me_no_longer_offers_one(client):
    """EVENTS.md: no event follows GameEnded but the reveal. A frontend author's trial: a game the referee ended
    before any seat command had `may: ["seed"]` in `/me` and took a seed, appended after GameEnded."""
    g = new_game(client, ruleset="corvette-command", options={"convoys": 1})
    gid, captain = g["game_id"], g["tokens"]["captain"]
    assert "seed" in client.get(f"/games/{gid}/me", headers=auth(captain)).json()["may"]
    assert client.post(f"/games/{gid}/end", headers=auth(g["referee_token"])).status_code == 200
    version = client.get(f"/games/{gid}").json()["version"]
    assert "seed" not in client.get(f"/games/{gid}/me", headers=auth(captain)).json()["may"]
    late = client.post(f"/games/{gid}/seeds", json={"passphrase": "x y z"}, headers=auth(captain))
    assert_problem(late, 409, "game-over")
    assert client.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"])).status_code == 200
    revealed = client.post(f"/games/{gid}/seeds", json={"passphrase": "x"}, headers=auth(captain))
    assert_problem(revealed, 409, "game-revealed")
    after = [e["type"] for e in client.get(f"/games/{gid}/events", params={"after": version}).json()["events"]]
    assert "ClientSeedContributed" not in after and after[-1] == "ServerSeedRevealed", after
    # a join carrying a seed into an ended game takes its seat and records no seed (a review: it refused the join)
    body = {"ruleset": "corvette-command", "options": {"convoys": 1}, "open_seats": True}
    made = client.post("/games", json=body).json()
    assert client.post(f"/games/{made['game_id']}/end", headers=auth(made["referee_token"])).status_code == 200
    invitation = made["seats"][0]["invitation"]
    joined = client.post(f"/games/{made['game_id']}/join", json={"invitation": invitation, "passphrase": "a b c"})
    assert joined.status_code == 201 and joined.json()["client_seed"] is None, joined.text
    events = client.get(f"/games/{made['game_id']}/events").json()["events"]
    assert [e["type"] for e in events] == ["GameCreated", "GameEnded"]


@pytest.mark.parametrize(
    "body,code",
    [
        ({"ruleset": "chess"}, "unknown-ruleset"),
        ({"ruleset": "aa1942-convoy", "options": {"rounds": 0}}, "invalid-options"),
        ({"ruleset": "aa1942-convoy", "options": {"submarines": {"Germany": {"99": 1}}}}, "invalid-options"),
        ({"ruleset": "aa1942-convoy", "seats": ["Axis", "Axis"]}, "invalid-seats"),
        ({"ruleset": "aa1942-convoy", "seats": ["Axis", "Comintern"]}, "invalid-seats"),
        ({"ruleset": "aa1942-convoy", "dice": {"mode": "public-seed"}}, "invalid-dice"),
        ({"ruleset": "aa1942-convoy", "dice": {"mode": "fair", "server_seed": "00" * 32}}, "invalid-dice"),
        ({"ruleset": "aa1942-convoy", "dice": {"client_seeds": {"Atlantis": "00" * 32}}}, "unknown-seat"),
        ({"ruleset": "aa1942-convoy", "dice": {"client_seeds": {"UK": "zz"}}}, "invalid-request"),
        ({"ruleset": "aa1942-convoy", "dice": {"beacon": "has space"}}, "invalid-request"),
        ({"ruleset": "aa1942-convoy", "colour": "red"}, "invalid-request"),
    ],
)
def test_create_errors(client, body, code):
    assert_problem(client.post("/games", json=body), 422, code)


def test_not_found_codes(client):
    g = new_game(client)
    gid = g["game_id"]
    assert_problem(client.get("/games/nope"), 404, "unknown-game")
    assert_problem(client.get(f"/games/{gid}/views/nope"), 404, "unknown-view")
    assert_problem(client.get(f"/games/{gid}/rolls/5"), 404, "unknown-roll")
    assert_problem(client.get("/rulesets/nope"), 404, "unknown-ruleset")
    assert_problem(client.get("/nowhere"), 404, "not-found")
    assert_problem(client.delete(f"/games/{gid}"), 405, "method-not-allowed")


def test_a_slash_too_many_is_a_404_naming_the_path_meant_never_a_redirect_to_the_host_sent(client):
    """A new-user trial: `/games/` answered a bodyless 307 whose Location came from the Host header (`Host:
    evil.example` -> http://evil.example/games), not problem+json."""
    gid = new_game(client)["game_id"]
    evil = {"Host": "evil.example"}
    for r in (
        client.get("/games/", headers=evil, follow_redirects=False),
        client.post("/games/", json={"ruleset": "corvette-command"}, headers=evil, follow_redirects=False),
        client.post(f"/games/{gid}/commands/", json={"type": "x"}, headers=evil, follow_redirects=False),
    ):
        assert_problem(r, 404, "not-found")
        assert "location" not in r.headers and "evil" not in r.text
        assert r.json()["detail"].endswith(r.request.url.path.rstrip("/")), r.text
    assert client.get("/games", headers=evil).status_code == 200
    assert client.get("/desk", follow_redirects=False).headers["location"] == "/desk/"  # the page's own, relative
    assert_problem(client.get("/nowhere/"), 404, "not-found")


def test_a_browser_opening_the_root_lands_on_the_desk_and_a_client_reads_the_index(client):
    """A new-user trial: `make run` names http://127.0.0.1:8000 and a browser there showed the index's raw JSON; the
    desk is what a person wants. A client (JSON or any Accept) still reads the index."""
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Host": "evil.example"}
    r = client.get("/", headers=browser, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk/"  # relative: never the Host sent
    assert r.headers["vary"] == "Accept"
    for accept in ("application/json", "*/*", None):
        r = client.get("/", headers={"Accept": accept} if accept else {})
        assert r.status_code == 200 and r.json()["desk"] == "/desk" and r.headers["vary"] == "Accept", accept


def test_verify_refuses_what_is_not_a_bundle(client):
    assert_problem(client.post("/bundles/verify", json={"format": "zip"}), 422, "invalid-bundle")
    junk = client.post("/bundles/verify", content=b"\x00\x01", headers={"Content-Type": "application/json"})
    assert_problem(junk, 422, "invalid-bundle")


def test_query_limits_are_enforced(client):
    g = new_game(client)
    gid = g["game_id"]
    assert_problem(client.get(f"/games/{gid}/events", params={"limit": 100000}), 422, "invalid-request")
    assert_problem(client.get(f"/games/{gid}/views/ipc-ledger", params={"at": 0}), 422, "invalid-request")


def test_revealed_and_over_games_take_no_more_commands(client):
    g = new_game(client)
    gid, ref = g["game_id"], g["referee_token"]
    send(client, g, "referee", type="end_game", reason="test")
    assert_problem(
        client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(g["tokens"]["USSR"])),
        409,
        "game-over",
    )
    assert client.post(f"/games/{gid}/reveal", headers=auth(ref)).status_code == 200
    assert_problem(client.post(f"/games/{gid}/reveal", headers=auth(ref)), 409, "game-revealed")
    assert_problem(
        client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(g["tokens"]["USSR"])),
        409,
        "game-revealed",
    )


def test_bodies_over_the_limit_are_413(client):
    g = new_game(client)
    big = b'{"type":"purchase","spend":0,"pad":"' + b"x" * 300_000 + b'"}'
    r = client.post(
        f"/games/{g['game_id']}/commands",
        content=big,
        headers={**auth(g["tokens"]["USSR"]), "Content-Type": "application/json"},
    )
    assert_problem(r, 413, "body-too-large")


def test_a_put_body_is_guarded_as_a_post_body_415_413(client):
    """PUT /games/{id}/notifications reads a JSON body as the POSTs do, and its operation promises 413 and 415: a body
    not declared JSON is 415 (not read as if it were), one over the limit 413, whether its Content-Length says so or it
    streams in without one. Nothing is registered."""
    g = new_game(client)
    url, token = f"/games/{g['game_id']}/notifications", auth(g["tokens"]["USSR"])
    body = b'{"url": "https://example.com/turn"}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = token | ({"Content-Type": content_type} if content_type else {})
        assert_problem(client.put(url, content=body, headers=headers), 415, "unsupported-media-type")
    big = b'{"url": "https://example.com/' + b"x" * 300_000 + b'"}'
    json_type = token | {"Content-Type": "application/json"}
    assert_problem(client.put(url, content=big, headers=json_type), 413, "body-too-large")
    streamed = (big[i : i + 65_536] for i in range(0, len(big), 65_536))  # chunked: no Content-Length to refuse by
    assert_problem(client.put(url, content=streamed, headers=json_type), 413, "body-too-large")
    assert_problem(client.get(url, headers=token), 404, "no-notifications")


def test_data_mismatch_is_refused(client, store_url):
    from dataclasses import replace

    from fastapi.testclient import TestClient

    from service.app import create_app
    from service.rulesets import RULESETS

    g = new_game(client)
    # the same game, read by a server whose aa1942-convoy data set hashes differently
    aa = RULESETS["aa1942-convoy"]
    other = {
        **RULESETS,
        "aa1942-convoy": replace(aa, data_sha256="0" * 64, editions={k: (d, "0" * 64) for k, (d, _) in aa.editions.items()}),
    }
    app = create_app(store_url, rulesets=other)
    with TestClient(app) as c:
        assert_problem(c.get(f"/games/{g['game_id']}"), 409, "data-mismatch")
    app.state.service.store.close()


def test_cors_is_configurable(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from service.app import create_app

    monkeypatch.setenv("UMPIRE_CORS_ORIGINS", "https://fleet.example")
    c = TestClient(create_app(str(tmp_path / "c.db")))
    r = c.options("/rulesets", headers={"Origin": "https://fleet.example", "Access-Control-Request-Method": "GET"})
    assert r.headers["access-control-allow-origin"] == "https://fleet.example"
    # another origin's preflight: refused as every error is, problem+json naming what and where origins are set
    other = c.options("/rulesets", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"})
    assert_problem(other, 400, "cors-refused")
    assert "origin 'https://evil.example'" in other.json()["detail"] and "UMPIRE_CORS_ORIGINS" in other.json()["detail"]
    assert "access-control-allow-origin" not in other.headers and "access-control-allow-methods" in other.headers
    assert other.json()["instance"] == "/rulesets"
    # an allowed origin asking a method the API has not: the method named, not the origins' setting
    asks_patch = {"Origin": "https://fleet.example", "Access-Control-Request-Method": "PATCH"}
    patch = c.options("/rulesets", headers=asks_patch)
    assert_problem(patch, 400, "cors-refused")
    assert "method 'PATCH'" in patch.json()["detail"] and "UMPIRE_CORS_ORIGINS" not in patch.json()["detail"]
    assert patch.headers["access-control-allow-origin"] == "https://fleet.example"


def test_no_response_contains_the_server_seed_before_reveal(client):
    g = new_game(client, SUBS)
    gid, tok = g["game_id"], g["tokens"]
    secret = client.app.state.service.store.game(gid).server_seed
    seen = []

    def grab(r):
        seen.append(r.text)
        return r

    to_german_combat(client, g)
    grab(client.post(f"/games/{gid}/commands", json={"type": "raid", "sz": 7}, headers=auth(tok["Germany"])))
    for path in [
        "",
        "/events",
        "/rolls",
        "/rolls/0",
        "/bundle",
        "/views/ipc-ledger",
        "/views/sz-status",
        "/views/campaign-sheet",
    ]:
        grab(client.get(f"/games/{gid}{path}"))
    grab(client.get(f"/games/{gid}/events/stream", params={"timeout": 0}))
    bundle = client.get(f"/games/{gid}/bundle").json()
    grab(client.post("/bundles/verify", json=bundle))
    bundle["commands"][-1]["payload"]["sz"] = 8  # a forged command list must not make the server show a roll
    grab(client.post("/bundles/verify", json=bundle))
    grab(client.get("/openapi.json"))
    assert all(secret not in text for text in seen)
    assert all(secret.upper() not in text for text in seen)
    assert (
        client.post("/bundles/verify", json=client.get(f"/games/{gid}/bundle").json()).json()["checks"]["replay"][
            "status"
        ]
        == "pass"
    )


def test_a_command_of_another_ruleset_is_refused_by_the_game(client):
    """Well-formed (the API's schema lists every ruleset's commands), but not this game's: 409 with what is legal."""
    g = new_game(client)
    r = client.post(f"/games/{g['game_id']}/commands", json={"type": "detect"}, headers=auth(g["tokens"]["USSR"]))
    p = assert_problem(r, 409, "illegal-command")
    assert "corvette-command" in p["detail"] and [x["type"] for x in p["legal"]] == ["purchase", "end_game"]


def test_an_argument_outside_its_enumeration_is_refused_with_the_values_it_takes(client):
    """A value an argument's schema does not list: 422 invalid-command naming the argument and the values it takes
    (the new-user trial: 'Invalid enum value' alone left the player to find them)."""
    made = client.post("/games", json={"ruleset": "corvette-command"}).json()
    token = made["seats"][0]["token"]
    r = client.post(
        f"/games/{made['game_id']}/commands", json={"type": "choose_start_port", "side": "narnia"}, headers=auth(token)
    )
    p = assert_problem(r, 422, "invalid-command")
    assert "'narnia'" in p["detail"] and "side is one of ['canada', 'liverpool']" in p["detail"]


def test_head_answers_what_get_would_without_the_body(client):
    """RFC 9110 9.3.2: HEAD on a GET resource gives the GET's status and headers, no body: a game, the list, a
    bundle (its ETag and length), a 304 revalidation, a 404; on the event stream it answers at once, stream closed.
    A method the path does not serve lists HEAD beside GET in `Allow`."""
    g = new_game(client)
    gid = g["game_id"]
    for path in ("/", "/games", f"/games/{gid}", f"/games/{gid}/rolls", f"/games/{gid}/bundle", "/rulesets"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"", path
        for name in ("content-type", "content-length", "etag"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)
    etag = client.get(f"/games/{gid}").headers["etag"]
    assert client.head(f"/games/{gid}", headers={"If-None-Match": etag}).status_code == 304
    missing = client.head("/games/nope")
    assert missing.status_code == 404 and missing.content == b""
    assert missing.headers["content-type"] == "application/problem+json"
    stream = client.head(f"/games/{gid}/events/stream")
    assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
    assert stream.content == b""
    refused = client.delete(f"/games/{gid}")
    assert refused.status_code == 405 and set(refused.headers["allow"].split(", ")) == {"GET", "HEAD"}


def test_a_ruleset_marks_the_commands_offered_all_game_long(client):
    """docs/api.md "Entries open all game long": a first-choice loop must skip them (battlefleet's concede is in its
    `awaiting` from the first step), and GET /rulesets/{id} says which they are, so a client need not know the name;
    each entry says so itself (`always_open`: a frontend author's trial needed the second document to tell whether
    an entry was the seat's turn)."""
    marked = {}
    for r in client.get("/rulesets").json():
        info = client.get(f"/rulesets/{r['id']}").json()
        marked[r["id"]] = {c["type"] for c in info["commands"] if c["always_open"]}
    assert marked == {"aa1942-convoy": {"end_game"}, "battlefleet-1900": {"concede"}, "corvette-command": set(),
                      "uboat-leader": set()}  # fmt: skip
    g = new_game(client, {"scenario": "yellow-sea-1904"}, ruleset="battlefleet-1900")
    awaiting = read(client, g, "/me", "japan").json()["awaiting"]  # japan's own: its sealed `start` and concede
    assert {a["type"]: a["always_open"] for a in awaiting} == {"start": False, "concede": True}
    # aa1942's referee is offered `end_game` from the first step (a frontend trial read it as the referee's turn): the
    # turn is the one seat of the other entries
    g = new_game(client, {})
    awaiting = client.get(f"/games/{g['game_id']}").json()["awaiting"]
    assert {a["type"] for a in awaiting if "referee" in a["seats"]} == {"end_game"}
    assert {s for a in awaiting if a["type"] not in marked["aa1942-convoy"] for s in a["seats"]} == {"USSR"}
    assert {a["type"] for a in awaiting if a["always_open"]} == marked["aa1942-convoy"]


def test_entries_that_end_the_game_say_so_and_sending_one_ends_it(client):
    """docs/api.md "Entries that end the game": a frontend asks before sending a command that ends the game, knowing it
    from the entry (`ends_game`) and GET /rulesets/{id}, not by the command's name (the desk did, by a list of names;
    a frontend author's trial found nothing machine-readable). Each marked entry, sent, ends the game; no other is
    marked."""
    marked = {}
    for r in client.get("/rulesets").json():
        info = client.get(f"/rulesets/{r['id']}").json()
        marked[r["id"]] = {c["type"] for c in info["commands"] if c["ends_game"]}
    assert marked == {"aa1942-convoy": {"end_game"}, "battlefleet-1900": {"concede"}, "corvette-command": set(),
                      "uboat-leader": {"end_campaign"}}  # fmt: skip
    for ruleset, options in (("aa1942-convoy", {}), ("battlefleet-1900", {"scenario": "yellow-sea-1904"})):
        g = new_game(client, options, ruleset=ruleset)
        awaiting = read(client, g, who="referee").json()["awaiting"]
        assert {a["type"] for a in awaiting if a["ends_game"]} == marked[ruleset], ruleset
        assert all(a["ends_game"] is (a["type"] in marked[ruleset]) for a in awaiting)
        (final,) = (a for a in awaiting if a["ends_game"])
        sender = final["seats"][0]
        send(client, g, sender, {"type": final["type"], **final["choices"][0]})
        assert read(client, g).json()["status"] == "over", ruleset
    # uboat-leader's is offered from the strategic segment on, after the boats are chosen: its entry, built there
    s = ul_state()
    offered = [engine.entry(spec) for spec in ul_legal(s).values()]
    assert {e["type"] for e in offered if e["ends_game"]} == {"end_campaign"}
    ul_send(s, "end_campaign")
    assert s.over


def test_a_problem_echoes_at_most_512_characters_of_the_path(tmp_path):
    """A 5,000-character game id came back whole in `instance` (a new user's trial): past 512 characters the path is
    cut to its first 511 and an ellipsis, and no part of the answer repeats it."""
    with TestClient(create_app(str(tmp_path / "i.db"))) as c:
        long = "a" * 5000
        for path in [f"/games/{long}", f"/games/{long}/events", f"/{long}", f"/desk/data/{long}.json"]:
            r = c.get(path)
            assert r.status_code in (404, 422) and r.headers["content-type"] == "application/problem+json", r.text[:300]
            instance = r.json()["instance"]
            assert len(instance) == 512 and instance.endswith("…") and path.startswith(instance[:-1]), len(instance)
            assert len(r.content) < 1500, len(r.content)
        assert c.get("/games/nope").json()["instance"] == "/games/nope"  # a path of a usual length: whole


def test_a_game_id_of_another_form_is_an_unknown_game(client):
    """A frontend author's trial: `/games/hello%20world` was 422 about the path's pattern while an unknown id of the
    usual form is 404 (and jobs' ids of another form were 404 already): it is 404 `unknown-game` on every game path,
    saying what a game's id is, with the id cut as `instance` is."""
    for method, path in [("GET", "/games/hello%20world"), ("GET", "/games/hello%20world/events"),
                         ("POST", "/games/hello%20world/commands"), ("GET", "/games/" + "a" * 65)]:  # fmt: skip
        r = client.request(method, path, json={"type": "end_phase"} if method == "POST" else None)
        assert (r.status_code, r.json()["code"]) == (404, "unknown-game"), (path, r.text)
        assert "a game's id is 1 to 64 of" in r.json()["detail"]
    assert len(client.get("/games/" + "b" * 5000).json()["detail"]) < 200


def test_desk_data_says_no_ruleset_or_no_edition_by_its_own_code(tmp_path):
    """GET /desk/data/nope.json said "no ruleset 'nope' of edition '' here"; an unknown edition of a real ruleset was
    `unknown-ruleset`. Now: `unknown-ruleset` naming the ruleset alone, and `unknown-edition` with the editions run."""
    with TestClient(create_app(str(tmp_path / "d.db"))) as c:
        nope = c.get("/desk/data/nope.json")
        assert nope.status_code == 404 and nope.json()["code"] == "unknown-ruleset"
        assert nope.json()["detail"].startswith("no ruleset 'nope' here") and "edition" not in nope.json()["detail"]
        old = c.get("/desk/data/battlefleet-1900.json", params={"edition": "1.0.0"})
        assert old.status_code == 404 and old.json()["code"] == "unknown-edition", old.text
        run = c.get("/rulesets/battlefleet-1900").json()["editions"]
        assert old.json()["editions"] == [e["version"] for e in run] and "'1.0.0'" in old.json()["detail"]
        assert c.get("/desk/data/battlefleet-1900.json", params={"edition": run[-1]["version"]}).status_code == 200


def test_a_seat_that_sent_its_sealed_orders_is_told_the_step_waits_for_the_others(client):
    """A frontend author's trial: a seat that sent its sealed `start` and sent it again read "'start' may be sent now by
    ['russia'], not by 'japan'", which did not say why. The refusal says the step waits for the other seats."""
    made = client.post("/games", json={"ruleset": "battlefleet-1900"}).json()
    gid, tokens = made["game_id"], {s["seat"]: s["token"] for s in made["seats"]}
    url = f"/games/{gid}/commands"
    assert client.post(url, json={"type": "start"}, headers=auth(tokens["japan"])).status_code == 200
    again = client.post(url, json={"type": "start"}, headers=auth(tokens["japan"]))
    assert_problem(again, 403, "not-your-turn")
    assert again.json()["detail"] == (
        "'start' is awaited now from russia only, not from 'japan'; in a simultaneous step a seat that has sent its "
        "own waits for the others"
    )



def test_a_lone_surrogate_escape_is_named_not_called_truncated(client):
    """A frontend author's trial: `"\\ud800"` in a body (valid JSON syntax, but no character) was refused as "Input
    data was truncated", which sent them looking for a cut-off body."""
    g = new_game(client)
    url = f"/games/{g['game_id']}/commands"
    for body in (b'{"type": "purchase", "spend": 0, "command_id": "\\ud800"}', b'{"type": "\\udbffx"}'):
        r = client.post(url, content=body, headers=auth(g["tokens"]["USSR"]) | {"Content-Type": "application/json"})
        assert_problem(r, 422, "invalid-json")
        assert "lone surrogate" in r.json()["detail"] and "truncated" not in r.json()["detail"], r.json()
    paired = b'{"type": "purchase", "spend": 0, "command_id": "\\ud83d\\ude00"}'  # an emoji: a pair, no JSON fault
    r = client.post(url, content=paired, headers=auth(g["tokens"]["USSR"]) | {"Content-Type": "application/json"})
    assert "lone surrogate" not in r.text
