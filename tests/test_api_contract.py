"""What a frontend author relies on (issue #8): one event shape, finding games and oneself, the stream's end, strict
parsing, CORS that explains itself, docs that work offline."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.routes.record import event_stream
from service.settings import Settings
from tests.conftest import auth, new_game, to_german_combat
from tests.drivers import SHORT
from tests.sse import on_message_only
from tests.test_refusals_name_rules import ID, documented

ROOT = Path(__file__).resolve().parent.parent
EVENT_KEYS = {"seq", "type", "v", "command", "data", "hash", "actor", "recorded_at"}


def test_one_event_shape_in_answers_pages_and_the_stream(client):
    g = new_game(client)
    gid = g["game_id"]
    answer = client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 3}, headers=auth(g["tokens"]["USSR"]))
    page = client.get(f"/games/{gid}/events").json()["events"]
    stream = client.get(f"/games/{gid}/events/stream", params={"timeout": 0}).text
    streamed = [m["event"] for m in on_message_only(stream) if m["message"] == "event"]
    for e in [*g["events"], *answer.json()["events"], *page, *streamed]:
        assert set(e) == EVENT_KEYS, e
    assert page == streamed
    assert page[-len(answer.json()["events"]) :] == answer.json()["events"]
    assert "global_position" not in client.get(f"/games/{gid}/events").text


def test_the_answer_carries_the_new_awaiting_of_its_sender(client):
    g = new_game(client)
    out = client.post(
        f"/games/{g['game_id']}/commands", json={"type": "purchase", "spend": 0}, headers=auth(g["tokens"]["USSR"])
    ).json()
    summary = client.get(f"/games/{g['game_id']}", headers=auth(g["tokens"]["USSR"])).json()
    assert out["awaiting"] == summary["awaiting"] and out["waiting_for"] == summary["waiting_for"] == []


def test_games_are_found_by_ruleset_and_status_page_by_page(client):
    made = [new_game(client)["game_id"] for _ in range(3)]
    corvette = client.post("/games", json={"ruleset": "corvette-command"}).json()["game_id"]
    first = client.get("/games", params={"limit": 2}).json()
    assert [x["game_id"] for x in first["games"]] == [corvette, made[2]] and first["next_cursor"]
    rest = client.get("/games", params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [x["game_id"] for x in rest["games"]] == [made[1], made[0]] and rest["next_cursor"] is None
    only = client.get("/games", params={"ruleset": "corvette-command"}).json()["games"]
    assert [x["game_id"] for x in only] == [corvette] and only[0]["status"] == "open"
    g = new_game(client)
    client.post(f"/games/{g['game_id']}/end", headers=auth(g["referee_token"]))
    assert [x["game_id"] for x in client.get("/games", params={"status": "over"}).json()["games"]] == [g["game_id"]]
    bad = client.get("/games", params={"cursor": "not-a-cursor"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid-cursor"
    typo = client.get("/games", params={"ruleset": "corvette"})  # not an empty page: a filter nothing can match
    assert typo.status_code == 404 and typo.json()["code"] == "unknown-ruleset"
    assert "corvette-command" in typo.json()["detail"]
    none_yet = client.get("/games", params={"ruleset": "battlefleet-1900"})  # served, no game of it yet: empty
    assert none_yet.status_code == 200 and none_yet.json()["games"] == []


def test_a_ruleset_not_served_whose_games_the_store_holds_is_a_filter_not_a_typo(tmp_path):
    """GET /games?ruleset= of a ruleset this server does not serve still finds the store's games of it, and a page the
    status or cursor leaves empty is empty, not 404 unknown-ruleset (the games exist; only a name nothing matches is a
    typo)."""
    from fastapi.testclient import TestClient

    from service.app import create_app
    from service.rulesets import RULESETS

    db = str(tmp_path / "older.db")
    with TestClient(create_app(db)) as c:
        gid = c.post("/games", json={"ruleset": "aa1942-convoy"}).json()["game_id"]
    served = {r: x for r, x in RULESETS.items() if r != "aa1942-convoy"}
    with TestClient(create_app(db, rulesets=served)) as c:
        found = c.get("/games", params={"ruleset": "aa1942-convoy"})
        assert found.status_code == 200 and [g["game_id"] for g in found.json()["games"]] == [gid]
        for narrowed in ({"status": "over"}, {"cursor": "2000-01-01T00:00:00~g-x"}):
            empty = c.get("/games", params={"ruleset": "aa1942-convoy", **narrowed})
            assert empty.status_code == 200 and empty.json()["games"] == [], (narrowed, empty.text)
        typo = c.get("/games", params={"ruleset": "aa1942", "status": "over"})
        assert typo.status_code == 404 and typo.json()["code"] == "unknown-ruleset"


def test_me_tells_a_token_its_seat_and_what_it_may_do(client):
    g = new_game(client)
    gid = g["game_id"]
    ussr = client.get(f"/games/{gid}/me", headers=auth(g["tokens"]["USSR"])).json()
    assert ussr["seat"] == "USSR" and not ussr["referee"] and "command" in ussr["may"] and "seed" in ussr["may"]
    assert [a["type"] for a in ussr["awaiting"]] == ["purchase"]
    uk = client.get(f"/games/{gid}/me", headers=auth(g["tokens"]["UK"])).json()
    assert uk["awaiting"] == [] and "command" not in uk["may"]
    ref = client.get(f"/games/{gid}/me", headers=auth(g["referee_token"])).json()
    assert ref["referee"] and set(ref["may"]) >= {"reveal", "end"}
    missing = client.get(f"/games/{gid}/me")
    assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")


def test_events_after_the_head_is_an_empty_page_at_the_head(client):
    g = new_game(client)
    page = client.get(f"/games/{g['game_id']}/events", params={"after": 999}).json()
    assert page["events"] == [] and page["next_after"] == page["version"] == 1


def test_rolls_after_the_last_roll_is_an_empty_page_at_the_last_roll(client):
    """As /events after the head: `next_after` is the last k there is, never a k the game has not rolled (it was
    echoed as sent)."""
    g = new_game(client, {"submarines": {"Germany": {"7": 2}}})
    gid = g["game_id"]

    def rolls(after: int) -> dict:
        return client.get(f"/games/{gid}/rolls", params={"after": after}).json()

    assert rolls(99999) == {"game_id": gid, "rolls": [], "next_after": -1}  # none rolled yet
    to_german_combat(client, g)
    client.post(f"/games/{gid}/commands", json={"type": "raid", "sz": 7}, headers=auth(g["tokens"]["Germany"]))
    assert [r["k"] for r in rolls(-1)["rolls"]] == [0] and rolls(-1)["next_after"] == 0
    for after in (0, 1, 99999, 2**53):
        page = rolls(after)
        assert page["rolls"] == [] and page["next_after"] == 0, (after, page)


def test_the_stream_ends_with_a_final_event_when_the_game_is_over(client):
    g = new_game(client)
    client.post(f"/games/{g['game_id']}/reveal", headers=auth(g["referee_token"]))
    text = client.get(f"/games/{g['game_id']}/events/stream", params={"timeout": 60}).text  # returns at once
    summary = client.get(f"/games/{g['game_id']}").json()
    *_, state, end = on_message_only(text)
    assert end == {"message": "end", "status": "revealed", "version": summary["version"], "head": summary["head"]}
    assert state["message"] == "state" and state["status"] == "revealed" and state["version"] == summary["version"]


def test_an_invalid_last_event_id_is_a_400(client):
    g = new_game(client)
    r = client.get(f"/games/{g['game_id']}/events/stream", params={"timeout": 0}, headers={"Last-Event-ID": "x1"})
    assert r.status_code == 400 and r.json()["code"] == "invalid-last-event-id"


@pytest.mark.parametrize("how", ["Last-Event-ID", "after"])
def test_a_resume_point_beyond_the_head_is_a_422_that_names_the_version(client, how):
    """A resume point past the game's version is no seq of it: refused before the stream starts (it had opened,
    skipped every event up to that number and labelled its states with it), as /since refuses such a version."""
    g = new_game(client)
    gid, token = g["game_id"], g["tokens"]["USSR"]
    client.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth(token))
    version = client.get(f"/games/{gid}").json()["version"]
    ticket = client.post(f"/games/{gid}/tickets", headers=auth(token)).json()["ticket"]

    def opened(resume: int):
        params = {"timeout": 0, "ticket": ticket} | ({"after": resume} if how == "after" else {})
        headers = {"Last-Event-ID": str(resume)} if how == "Last-Event-ID" else {}
        return client.get(f"/games/{gid}/events/stream", params=params, headers=headers)

    r = opened(version + 49)
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json", r.text
    body = r.json()
    assert body["code"] == "invalid-version" and f"{how} {version + 49} " in body["detail"]
    assert f"version {version}:" in body["detail"] and f"0 to {version}" in body["detail"]
    # nothing taken: the ticket opens a stream, which resumes at the head itself and sends its state there
    r = opened(version)
    assert r.status_code == 200, r.text
    assert [(m["message"], m["version"]) for m in on_message_only(r.text)] == [("state", version)]


def test_a_client_that_goes_away_stops_the_writer(client):
    """The stream checks the connection before each page, so a client gone mid-backlog costs at most one page."""
    g = new_game(client)
    for _ in range(4):
        client.post(f"/games/{g['game_id']}/commands", json={"type": "end_phase"}, headers=auth(g["tokens"]["USSR"]))

    class Gone:
        async def is_disconnected(self):
            return True

    async def drain():
        return [x async for x in event_stream(client.app.state.service, Gone(), g["game_id"], 0, 60)]

    assert asyncio.run(drain()) == []


@pytest.mark.parametrize(
    "path", ["/games", "/games/{gid}/commands", "/games/{gid}/seeds", "/bundles/verify"]
)
def test_deeply_nested_json_is_a_422_never_a_500(client, path):
    g = new_game(client)
    body = b"[" * 5000 + b"]" * 5000
    r = client.post(
        path.format(gid=g["game_id"]),
        content=body,
        headers=auth(g["tokens"]["USSR"]) | {"Content-Type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


def test_a_preflight_without_cors_says_how_to_enable_it(client):
    r = client.options("/games", headers={"Origin": "https://my.app", "Access-Control-Request-Method": "POST"})
    assert r.status_code == 403 and r.json()["code"] == "cors-disabled" and "--cors-origin" in r.json()["detail"]


def test_cors_origins_allow_a_browser_page_and_no_other(tmp_path):
    app = create_app(settings=Settings(db=str(tmp_path / "c.db"), cors_origins=("https://my.app",)))
    ours, other = {"Origin": "https://my.app"}, {"Origin": "https://other.example"}
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}
    with TestClient(app) as c:
        r = c.options("/games", headers={**ours, **preflight})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://my.app"
        assert "POST" in r.headers["access-control-allow-methods"]
        assert {"authorization", "content-type"} <= set(r.headers["access-control-allow-headers"].lower().split(", "))
        r = c.get("/rulesets", headers=ours)  # a simple request: the page may read the answer and its ETag
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://my.app"
        assert "ETag" in r.headers["access-control-expose-headers"].split(", ")

        r = c.options("/games", headers={**other, **preflight})
        assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
        r = c.get("/rulesets", headers=other)  # answered, but a browser keeps it from the page
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_with_cors_every_error_answer_reaches_the_page(tmp_path):
    """A page tells a server error from a CORS refusal by its status, which it reads only if the answer carries
    Access-Control-Allow-Origin: so do the guards' answers (415, 413) and a 500, made outside the routes."""
    app = create_app(settings=Settings(db=str(tmp_path / "c.db"), cors_origins=("https://my.app",), max_body=1000))

    @app.get("/fails")
    def fails():
        raise RuntimeError("a bug")

    ours = {"Origin": "https://my.app"}
    with TestClient(app, raise_server_exceptions=False) as c:
        answers = {
            404: c.get("/games/g-0000000000000000", headers=ours),
            415: c.post("/games", content=b"x", headers={**ours, "Content-Type": "text/plain"}),
            413: c.post("/games", content=b"[" * 2000, headers={**ours, "Content-Type": "application/json"}),
            500: c.get("/fails", headers=ours),
        }
    for status, r in answers.items():
        assert r.status_code == status and r.headers["content-type"] == "application/problem+json", r.text
        assert r.headers["access-control-allow-origin"] == "https://my.app", status
    assert answers[500].json()["code"] == "internal-error"


def test_unknown_query_parameters_are_refused(client):
    g = new_game(client)
    r = client.get(f"/games/{g['game_id']}/events", params={"afterr": 3})
    assert r.status_code == 422 and r.json()["code"] == "unknown-parameter" and "'after'" in r.json()["detail"]


@pytest.mark.parametrize(
    "path, query, once",
    [
        ("/games/{gid}/events", "limit=1&limit=3", "limit=3"),
        ("/games/{gid}/events", "limit=3&limit=1", "limit=1"),
        ("/games/{gid}/events", "after=0&lim%69t=1&limit=1", "limit=1"),  # one name once decoded; the same value too
        ("/games", "limit=2&status=open&limit=2", "limit=2"),
        ("/games/{gid}/rolls", "after=-1&after=0", "after=0"),
        ("/games/{gid}/since", "version=0&version=1", "version=1"),
        ("/games/{gid}/views/ipc-ledger", "at=1&at=1", "at=1"),
        ("/games/{gid}/events/stream", "timeout=0&timeout=0", "timeout=0"),
    ],
)
def test_a_query_parameter_named_twice_is_refused_never_read_as_the_last_one(client, path, query, once):
    """A repeated parameter was read as its last value (`?limit=1&limit=3` answered 3 events); a body's repeated key
    is 422 invalid-json, never read as the last one, and so is a repeated parameter, on every route (only_query)."""
    g = new_game(client)
    url = path.format(gid=g["game_id"]) + "?" + query
    for method in ("GET", "HEAD"):
        r = client.request(method, url)
        assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json", (method, r.text)
    body = client.get(url).json()
    name = once.partition("=")[0]
    assert body["code"] == "invalid-request" and f"parameter {name!r} is named more than once" in body["detail"]
    assert client.get(path.format(gid=g["game_id"]) + "?" + once).status_code == 200  # named once, it is read


def test_a_repeated_unknown_parameter_is_told_as_unknown_and_a_command_with_one_changes_nothing(client):
    g = new_game(client)
    gid = g["game_id"]
    r = client.get(f"/games/{gid}/events?afterr=1&afterr=2")
    assert r.status_code == 422 and r.json()["code"] == "unknown-parameter" and "'after'" in r.json()["detail"]
    before = client.get(f"/games/{gid}").json()["version"]
    r = client.post(f"/games/{gid}/commands?x=1&x=1", json={"type": "end_phase"}, headers=auth(g["tokens"]["USSR"]))
    assert r.status_code == 422 and r.json()["code"] == "unknown-parameter"  # handed on by the lean command path
    assert client.get(f"/games/{gid}").json()["version"] == before


def test_no_operation_takes_a_list_query_parameter():
    """Every query parameter is taken once (service/routes/__init__.py only_query refuses one named twice): an
    operation that comes to take a list (an array schema, sent as a repeated parameter) is exempted there first."""
    doc = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    arrays = [
        (method, path, p["name"])
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
        for p in op.get("parameters", [])
        if p["in"] == "query" and '"array"' in json.dumps(p["schema"])
    ]
    assert arrays == [], arrays


def test_the_creation_token_and_rate_limit(tmp_path):
    settings = Settings(db=str(tmp_path / "t.db"), create_token="s3cret", create_per_minute=2)
    with TestClient(create_app(settings=settings)) as c:
        body = {"ruleset": "aa1942-convoy"}
        r = c.post("/games", json=body)
        assert r.status_code == 401 and r.json()["code"] == "creation-token-required"
        assert c.post("/games", json=body, headers=auth("s3cret")).status_code == 201
        assert c.post("/games", json=body, headers=auth("s3cret")).status_code == 201
        r = c.post("/games", json=body, headers=auth("s3cret"))
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0 and r.json()["limit"] == 2


def test_docs_are_served_from_the_package_and_work_offline(client):
    html = client.get("/docs").text
    assert not re.search(r"(src|href)=\"https?://", html), "the docs page loads something from the network"
    for asset in re.findall(r"(?:src|href)=['\"](/docs-static/[^'\"]+)", html):
        assert client.get(asset).status_code == 200, asset
    assert "/docs-static/swagger-ui-bundle.js" in html


def test_readme_and_docs_never_point_outside_the_project():
    texts = {p: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]}
    ours = {
        p.relative_to(ROOT).as_posix()
        for p in ROOT.rglob("*.md")
        if not any(part.startswith(".") or part == "node_modules" for part in p.relative_to(ROOT).parts)
    }
    for path, text in texts.items():
        assert "shared/" not in text and "steering" not in text, path
        for url in re.findall(r"https?://[^\s)>`\"']+", text):
            assert re.match(r"https?://(127\.0\.0\.1|localhost|your\.|my\.|naval-umpire\.invalid)", url), (path, url)
        for link in re.findall(r"\]\(([^)#]+)", text):
            if not link.startswith("http"):
                assert (path.parent / link).exists(), (path, link)
        # a document named in prose (DESIGN.md, STYLE.md, AUDIT.md, a spec's API.md) is one of the repository's own:
        # some file of it ends with that name, case and folders as written
        for named in re.findall(r"[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b", text):
            bare = re.sub(r"^(\.\.?/)+", "", named)
            assert any(f == bare or f.endswith("/" + bare) for f in ours), (path, named)


def test_bundle_bytes_are_what_get_bundle_serves(client):
    g = new_game(client)
    served = client.get(f"/games/{g['game_id']}/bundle").content
    assert served == client.app.state.service.bundles.bundle_bytes(g["game_id"])


def test_seats_marked_bot_are_played_by_the_server_as_their_own_recorded_commands(client):
    """Solo play against the machine (issue #9): four powers are bots, the USSR a person. When the USSR ends its turn
    the server plays Germany, the UK, Japan and the USA through the round to the game's end."""
    r = client.post(
        "/games",
        json={"ruleset": "aa1942-convoy", "options": SHORT["aa1942-convoy"], "bots": ["Germany", "UK", "Japan", "USA"]},
    )
    assert r.status_code == 201, r.text
    g = r.json()
    assert [(s["seat"], s["bot"], s["token"] is None) for s in g["seats"]][:2] == [("USSR", False, False), ("Germany", True, True)]
    ussr = next(s["token"] for s in g["seats"] if s["seat"] == "USSR")
    gid = g["game_id"]
    out = client.post(f"/games/{gid}/commands", json={"type": "purchase", "spend": 0}, headers=auth(ussr)).json()
    for _ in range(4):
        out = client.post(f"/games/{gid}/commands", json={"type": "end_phase"}, headers=auth(ussr)).json()
    assert out["awaiting"] == []  # the bots played the rest of the round: the game is over
    summary = client.get(f"/games/{gid}").json()
    assert summary["status"] == "over" and summary["bots"] == ["Germany", "UK", "Japan", "USA"]
    client.post(f"/games/{gid}/reveal", headers=auth(g["referee_token"]))
    bundle = client.get(f"/games/{gid}/bundle").json()
    seats = {c["seat"] for c in bundle["commands"] if c["command_id"].startswith("bot-")}
    assert seats == {"Germany", "UK", "Japan", "USA"}
    from service.replay import verify

    assert verify(bundle)["verdict"] == "verified"


def test_bots_need_a_person_at_the_table(client):
    r = client.post("/games", json={"ruleset": "aa1942-convoy", "bots": ["USSR", "Germany", "UK", "Japan", "USA"]})
    assert r.status_code == 422 and r.json()["code"] == "invalid-bots"
    r = client.post("/games", json={"ruleset": "aa1942-convoy", "bots": ["Atlantis"]})
    assert r.status_code == 422 and r.json()["code"] == "invalid-bots"


# (ruleset, options, the seat that refuses, what it sends first, a command type not awaited now, the awaited type
# with arguments the schema takes and a rule refuses, a phrase of that rule's reason)
REFUSALS = [
    ("aa1942-convoy", {}, "USSR", [], {"type": "raid", "sz": 7}, {"type": "purchase", "spend": 25}, "at most 24 IPCs"),
    (
        "corvette-command",
        {"quick_play": {}},
        "captain",
        [{"type": "start"}],
        {"type": "choose_start_port", "side": "canada"},
        {"type": "allocate_skills", "skills": {}},  # CC-45: each of the six stations one of the dice rolled
        "give each of the six stations",
    ),
    (
        "uboat-leader",
        {},
        "commander",
        [],
        {"type": "end_strategic"},
        {"type": "select_uboats", "picks": [{"boat": "U-0", "level": "green", "port": "Atlantis"}]},
        "U-0",
    ),
    (
        "battlefleet-1900",
        {"scenario": "torpedo-attack"},
        "japan",
        [],
        {"type": "fire"},
        {"type": "start", "ships": [{"ship": "Mikasa"}]},  # not one of Japan's ships in this scenario
        "not one of your ships",
    ),
]


@pytest.mark.parametrize("case", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_every_refusal_is_a_problem_naming_the_rule_with_the_readers_legal(client, case):
    """Issue 30 item 9: in every ruleset a refused command, whether its type is not awaited or its arguments break a
    rule, is a 409 `illegal-command` problem+json whose `detail` says the rule's reason, naming the rule by a documented
    id (docs/rules/<ruleset>.md), and whose `legal` is exactly
    the sender's `awaiting` (its own entries of a sealed step: Battlefleet's Russia's `start` is not in Japan's)."""
    ruleset, options, seat, first, wrong, bad, reason = case
    r = client.post("/games", json={"ruleset": ruleset, "options": options})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, token = g["game_id"], next(s["token"] for s in g["seats"] if s["seat"] == seat)
    for body in first:
        assert client.post(f"/games/{gid}/commands", json=body, headers=auth(token)).status_code == 200
    mine = client.get(f"/games/{gid}", headers=auth(token)).json()
    assert mine["awaiting"] and bad["type"] in {a["type"] for a in mine["awaiting"] if seat in a["seats"]}
    assert wrong["type"] not in {a["type"] for a in mine["awaiting"]}
    for body, said in ((wrong, "is not legal now"), (bad, reason)):
        r = client.post(f"/games/{gid}/commands", json=body, headers=auth(token))
        assert r.status_code == 409 and r.headers["content-type"].startswith("application/problem+json"), r.text
        p = r.json()
        assert p["code"] == "illegal-command" and said in p["detail"], p["detail"]
        named = ID.findall(p["detail"])  # the rule it applies, by an id its ruleset's page documents
        assert named and set(named) <= documented(ruleset), p["detail"]
        assert p["legal"] == mine["awaiting"]  # in the shape of `awaiting`, and only what this seat may read
        assert client.get(f"/games/{gid}").json()["version"] == mine["version"]  # nothing appended
    if ruleset == "battlefleet-1900":  # a sealed step: the other seat's entry is not Japan's to read
        assert all(a["seats"] != ["russia"] for a in p["legal"])
        referee = client.get(f"/games/{gid}", headers=auth(g["referee_token"])).json()["awaiting"]
        assert any(a["seats"] == ["russia"] for a in referee)
